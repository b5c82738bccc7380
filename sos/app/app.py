"""What one browser tab of the app decides, with no DOM: :class:`AppSession`, made of

- :class:`sos.app.tab.TabCore`: the library, the game shown, new games, saving with the
  two-tab rules, storage errors, deleting, the players' names;
- :class:`sos.app.restore.Restore`: which game to show at start (the restore policy, its
  precedence in :mod:`sos.app.restore`), games by link and shared links, the page's URL and
  language;
- :class:`sos.app.games_list.GamesList`: the "Your games" list;
- here: the dialogs (settings, theme, sound, language, an imported transcript), the puzzles'
  session, the rematch and the variations;

and the preferences (:mod:`sos.app.saving.prefs`).

The page (``sos/web``) calls these methods from its event handlers and renders the result;
CPython tests drive the same methods with a :class:`~sos.app.saving.library.MemoryStore`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules import app_allows
from .saving.transcript import RecordError, board_error, parse_transcript, transcript_names
from .share.params import parse_params
from .share.players import rematch, rematch_notice
from .text.i18n import LANGUAGES
from .text.message import Message, message

if TYPE_CHECKING:
    from .game.computer import SearchCutOff
    from .learn.puzzle_set import Puzzle
    from .learn.puzzles import PuzzleSession
from .games_list import GAMES_PAGE, GameEntry, GamesList
from .restore import Restore
from .saving.prefs import THEMES, Prefs
from .tab import STORAGE_FULL, rules_of, settings_of

__all__ = [
    "GAMES_PAGE", "STORAGE_FULL", "THEMES", "AppSession", "GameEntry", "Prefs",
    "SettingsApplied", "SettingsForm", "rules_of", "settings_of",
]


@dataclass(frozen=True)
class SettingsForm:
    """What the settings dialog holds when Start is pressed, as the form gives it (text,
    unchecked): read by :meth:`AppSession.apply_settings`, which validates it like a URL.

    Attributes:
        size, mode, players: the board, ``general``/``simple`` and the player count.
        seats: one kind per seat shown (``human`` or a level).
        lang: the language chosen; theme: ``auto``, ``light`` or ``dark``.
        friend: "Play a friend" is ticked (a game by link), with ``friend_seat`` (0-based,
            as text) this device's seat and ``friend_name`` its player's name.
        names: the name typed for each seat (``""``: the default).
    """

    size: str
    mode: str
    players: str
    seats: tuple[str, ...]
    lang: str
    theme: str
    friend: bool = False
    friend_seat: str = "0"
    friend_name: str = ""
    #: The players' names, one per seat shown ("" for the default "Player 1").
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class SettingsApplied:
    """What :meth:`AppSession.apply_settings` changed, for the page to redraw: the theme, the
    language (retranslate the page); a new game is always shown (``remote``: a game by link)."""

    theme_changed: bool
    language_changed: bool
    remote: bool


#: Notices that only confirm what the player just did ("Game loaded.", "Shared game loaded: 2
#: moves.", "Link opened: the game now has 2 moves.", "Game by link opened: you play Player 2
#: on this device."): gone at the player's next move (:meth:`AppSession.moved_on`), not left
#: over the game (in a frame they cover the scores) until closed. A link that disagrees or is
#: behind ("remote.fork", "remote.old") is a warning: it stays until closed.
CONFIRMATIONS = frozenset({
    "record.loaded", "notice.shared_loaded", "notice.cut_off", "remote.new", "remote.updated",
})
#: The page's budget cut a computer's search off and it played a quicker move
#: (:meth:`AppSession.computer_played`).
CUT_OFF = message("notice.cut_off")


class AppSession(Restore, GamesList):
    """The state of one tab (the module docstring lists its parts). Made with the arguments
    of :class:`sos.app.tab.TabCore` (store, clock, new_id, browser_lang)."""

    def set_theme(self, theme: str) -> bool:
        """Use ``theme`` (anything but ``auto``/``light``/``dark`` counts as ``auto``) and save
        the preferences; True when it changed."""
        theme = theme if theme in THEMES else "auto"
        changed = theme != self.prefs.theme
        self.prefs.theme = theme
        self.save_prefs()
        return changed

    def set_sound(self, on: bool) -> None:
        """Turn the sounds on or off (saved with the preferences)."""
        self.prefs.sound = bool(on)
        self.save_prefs()

    def set_language(self, lang: str) -> bool:
        """Show the page in ``lang`` from now on (also over a ``lang`` in the URL) and save it
        as the preference; True when the page's language changed. An unknown code changes
        nothing."""
        if lang not in LANGUAGES or lang == self.lang:
            return False
        self.prefs.lang = self.url_lang = lang
        self.save_prefs()
        return True

    def prefs_shown(self) -> tuple[str | None, str | None, str]:
        """The language and theme as they are (Settings applies them at once): the saved
        language, the URL's and the theme, for :meth:`put_back`."""
        return (self.prefs.lang, self.url_lang, self.prefs.theme)

    def put_back(self, kept: tuple[str | None, str | None, str]) -> bool:
        """Settings' Cancel: the language and theme of :meth:`prefs_shown` again (saved);
        True when the page's language or theme changed."""
        lang, theme = self.lang, self.prefs.theme
        self.prefs.lang, self.url_lang, self.prefs.theme = kept
        self.save_prefs()
        return (self.lang, self.prefs.theme) != (lang, theme)

    def apply_settings(self, form: SettingsForm) -> SettingsApplied:
        """Start pressed in the settings dialog: apply the theme and the language, then start
        a new game with the form's settings -- a game by link when "Play a friend" is ticked.
        Bad values are reported as notices (in the new language) and replaced by defaults, as
        in a URL; these notices replace the ones shown before."""
        query = [
            ("size", form.size),
            ("mode", form.mode),
            ("players", form.players),
            ("seats", ",".join(form.seats)),
            ("lang", form.lang),
        ]
        theme_changed = self.set_theme(form.theme)
        language_changed = self.set_language(form.lang)
        parsed = parse_params(query, self.lang)
        self.notices = list(parsed.notices)
        if form.friend:
            seat = form.friend_seat.strip()
            number = int(seat) if seat.isascii() and seat.isdigit() else 0
            players = parsed.settings.players
            self.new_remote(parsed.settings, min(number, players - 1), form.friend_name)
        else:
            self.new_game(parsed.settings)
            self.set_names(form.names)
        return SettingsApplied(theme_changed, language_changed, form.friend)

    def import_transcript(self, raw: str) -> Message | None:
        """Paste a transcript (:func:`sos.app.saving.transcript.parse_transcript`): shown as a new
        game with its moves and the names it carries
        (:func:`sos.app.saving.transcript.transcript_names`), keeping the seats of the game shown
        when the player count matches, else every seat human. Returns ``None`` on success (a
        notice says so, and says when the names line could not be read), or why it was
        refused (the game shown and the library unchanged)."""
        try:
            state = parse_transcript(raw)
        except RecordError as error:
            reason: Message = error.message
            if error.turn is not None:  # the turn as numbered in the text, and its line
                reason = message(
                    "record.error.turn", turn=error.turn, line=error.line, error=reason
                )
            elif error.line is not None:
                reason = message("record.error.line", line=error.line, error=reason)
            return message("record.error", error=reason)
        rules = state.rules
        if not app_allows(rules):
            return message("record.error", error=board_error(rules).message)
        seats = self.game.seats
        if len(seats) != rules.players:
            seats = ("human",) * rules.players
        self.load_state(state, seats, "record")
        names = transcript_names(raw, rules.players)
        if names and any(names):
            self.set_names(names)
        loaded = "record.loaded" if names is not None else "record.loaded_no_names"
        self.notices = [message(loaded)]
        return None

    def puzzle_session(self, puzzles: tuple[Puzzle, ...]) -> PuzzleSession:
        """The puzzles of this tab (:class:`sos.app.learn.puzzles.PuzzleSession`), in the page's
        language: their progress is kept in the tab's storage, except where the browser
        refuses storage (then for this page only). Never a library game."""
        from .learn.puzzles import PuzzleSession  # on first use: the puzzles cost nothing at start

        store = self.library.store if self.storage != "refused" else None
        return PuzzleSession(puzzles, store, lambda: self.lang, self.library.clock)

    def moved_on(self) -> None:
        """The player made a move: the :data:`CONFIRMATIONS` among the notices are dropped."""
        self.notices = [n for n in self.notices if n.key not in CONFIRMATIONS]

    def computer_played(self, cut_off: SearchCutOff | None = None) -> None:
        """A computer's turn was shown; ``cut_off`` when its search did not answer. When the
        page's budget cut it off (``cut_off.budget``) the computer played a quicker move than
        its level's: :data:`CUT_OFF` says so, once (a second cut-off before the player moves
        adds nothing), and goes at the player's next move (a confirmation, :meth:`moved_on`).
        A search that answered, or one the player stopped (Skip: they know), says nothing."""
        if cut_off is not None and cut_off.budget and CUT_OFF not in self.notices:
            self.notices.append(CUT_OFF)

    def rematch(self) -> None:
        """A new game with the settings and names of the game shown, seats rotated (the game
        shown stays in the library); one person against the computer is told their new seat."""
        self._create_record(rematch(self.game.to_record()))
        notice = rematch_notice(self.game.to_record())
        if notice is not None:  # (what was said of the finished game is done with)
            self.notices = [n for n in self.notices if n.key.startswith("notice.storage")]
            self.notices.append(notice)

    def other_lines(self) -> list[tuple[int, int, int, str]]:
        """The variations of the game shown: (index, the ply where it leaves the line, its
        length, its first action there as text, e.g. ``"O@c3"``)."""
        line = self.game.line
        found = []
        for index, variation in enumerate(self.game.variations):
            split = 0
            while split < min(len(line), len(variation)) and line[split] == variation[split]:
                split += 1
            found.append((index, split, len(variation), str(variation[split])))
        return found
