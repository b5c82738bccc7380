"""What one browser tab of the app decides, with no DOM: which game to show at start (the
restore policy), new games and imported ones as new library entries, saving after every change
with the two-tab rules, storage errors, preferences, and the list of games.

The page (``sos/web``) calls these methods from its event handlers and renders the result;
CPython tests drive the same methods with a :class:`~sos.app.library.MemoryStore`.

Restore precedence at start (:meth:`AppSession.start`), first match wins:

1. ``#g=<id>`` in the URL and that game in the library: show it (a reload, Back/Forward).
2. ``r=<code>`` (a game by link, :mod:`sos.app.remote`): the library's game with the link's id,
   updated when the link extends it (never rewound by an older link), or created; a link that
   disagrees is kept as another game; a damaged link says why and the rules below apply.
3. ``game=<moves>`` with ``gid=<id>`` (a game link, e.g. an embed's "Open the full game"): the
   library's game ``<id>`` if it already holds those moves (a link that is behind says so),
   updated when the link extends it, a new game when the link disagrees (both kept).
4. ``game=<moves>`` alone (a shared position): a new game with those moves.
5. ``size``, ``mode``, ``players`` or ``seats`` in the URL: a new game with those settings.
6. Otherwise the most recently written game this version can read, else a new game.

Every new game is a new entry: the one shown before stays in the library. Games with no move
are pruned (they hold nothing to lose). A stored entry this version cannot read (damaged, or
of a newer format) is never removed or written over: a notice names it when it was asked for
(``#g=<id>``) or is the most recent one, and "Your games" lists it (:meth:`AppSession.games`).

The page's language (:attr:`AppSession.lang`): a ``lang`` in the URL, else the one saved from
Settings, else the browser's. A link's ``lang`` applies to that visit only -- it is never saved
as the preference -- and the page keeps it while the user stays: the page's own URL
(:meth:`AppSession.location`) carries it through new games, rematches, games opened from the
list and reloads. Only a choice in Settings (:meth:`AppSession.set_language`) is saved.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..notation import Action
from ..rules import MAX_APP_SIZE, MIN_APP_SIZE, Rules, app_allows
from ..state import GameState
from . import outcome as outcomes
from . import remote
from .i18n import LANGUAGES, ntext, text
from .library import (
    GAME_PREFIX,
    LEGACY_ID,
    LEGACY_KEY,
    PREFS_KEY,
    GameRecord,
    Library,
    MemoryStore,
    Removed,
    StorageError,
    Store,
    Summary,
    Unreadable,
    is_prefix,
)
from .message import Message, message, plural
from .params import SEAT_KINDS, Settings, parse_params, to_query
from .players import names_of, opponents_text, rematch, with_names

if TYPE_CHECKING:
    from .puzzle_set import Puzzle
    from .puzzles import PuzzleSession
from .record import (
    RecordError,
    board_error,
    decode_moves,
    encode_moves,
    load_save,
    parse_record,
)
from .session import GameSession
from .thumbnail import Thumbnail, thumbnail
from .view import player_name, result_text

THEMES = ("auto", "light", "dark")
#: Lines of "Your games" rendered at a time (the page adds as many on "Show more").
GAMES_PAGE = 30
#: The notice of a full storage (queued once, removed when a save succeeds again).
STORAGE_FULL = message("notice.storage_full")


@dataclass
class Prefs:
    """Preferences kept across games: language (None: follow the browser), theme, letter,
    sound (off unless turned on)."""

    lang: str | None = None
    theme: str = "auto"
    letter: str = "S"
    sound: bool = False

    @classmethod
    def load(cls, raw: str | None) -> Prefs:
        """Read stored preferences; anything unreadable is replaced by the default."""
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        lang, theme, letter = data.get("lang"), data.get("theme"), data.get("letter")
        return cls(
            lang if lang in LANGUAGES else None,
            theme if isinstance(theme, str) and theme in THEMES else "auto",
            letter if isinstance(letter, str) and letter in ("S", "O") else "S",
            data.get("sound") is True,
        )

    def dump(self) -> str:
        """JSON text of the preferences."""
        return json.dumps(
            {"lang": self.lang, "theme": self.theme, "letter": self.letter, "sound": self.sound}
        )


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


@dataclass(frozen=True)
class GameEntry:
    """One line of the "Your games" list (text in the page's language)."""

    id: str
    title: str  # "6 × 6 · general · 2 players"
    detail: str  # "12 moves · Player 2 to move" / "… · Player 1 wins, 5–3"
    updated: float  # ms since the epoch (the page formats it with the browser's Intl)
    current: bool
    finished: bool
    #: For a game by link: the code of the link this device would send now (else "").
    link: str = ""
    #: ``game``, or an entry this version cannot open: ``newer`` (reload to update) or
    #: ``damaged`` (its saved text can be copied).
    kind: str = "game"
    #: The drawing of the game's board (None for an entry this version cannot open).
    thumb: Thumbnail | None = None


def settings_of(
    record: GameRecord, lang: str | None = None, embed: bool = False, start_now: bool = False
) -> Settings:
    """The app :class:`Settings` of a saved game."""
    rules = record.rules
    return Settings(
        rules.rows, rules.mode, rules.players, record.seats, lang, embed, start_now=start_now
    )


def _rules_of(settings: Settings) -> Rules:
    return Rules.square(settings.size, settings.mode, settings.players)


class AppSession:
    """The state of one tab: preferences, the library, the game shown and storage health.

    Args:
        store: the browser's storage, or None where the browser refuses it (the games then
            live in memory for this page only, and :attr:`storage` is ``"refused"``).
        clock: milliseconds since the epoch (``Date.now``).
        new_id: a fresh random game id (letters and digits).
        browser_lang: the language the browser asks for (already one of ``LANGUAGES``).
    """

    def __init__(
        self,
        store: Store | None,
        clock: Callable[[], float],
        new_id: Callable[[], str],
        browser_lang: str = "en",
        embed: bool = False,
    ) -> None:
        #: ``ok``, ``full`` (the last write hit the quota) or ``refused`` (no storage at all).
        self.storage = "ok" if store is not None else "refused"
        self.library = Library(store if store is not None else MemoryStore(), clock, new_id)
        self.browser_lang = browser_lang
        self.embed = embed
        #: ``start=now`` in the URL (an embed that starts at once; kept in :meth:`location`).
        self.start_now = False
        self.prefs = Prefs.load(self._read(PREFS_KEY))
        self.url_lang: str | None = None
        self.wanted_puzzle: str | None = None
        self.game: GameSession = GameSession(GameRecord("", Rules.square(6), ("human",) * 2))
        #: Notices waiting to be shown, translated when shown (:meth:`notice_texts`).
        self.notices: list[Message] = []
        #: The first version's save slot when it cannot be migrated (listed as
        #: :data:`~sos.app.library.LEGACY_ID`, kept until the user deletes it), else None.
        self.legacy: Unreadable | None = None

    # ------------------------------------------------------------------ helpers
    @property
    def lang(self) -> str:
        """The page's language: the URL's (for this visit, not saved), else the preference
        saved from Settings, else the browser's."""
        return self.url_lang or self.prefs.lang or self.browser_lang

    def t(self, key: str, **values: object) -> str:
        """``key`` in the page's language."""
        return text(self.lang, key, **values)

    def nt(self, key: str, n: int, **values: object) -> str:
        """The plural message ``key`` for the count ``n`` in the page's language."""
        return ntext(self.lang, key, n, **values)

    def notice_texts(self) -> list[str]:
        """The queued notices in the page's language (as the notice bar shows them)."""
        return [notice.text(self.lang) for notice in self.notices]

    def _read(self, key: str) -> str | None:
        try:
            return self.library.store.get(key)
        except Exception:  # a store that fails to read counts as empty
            return None

    def _write_failed(self, error: StorageError) -> None:
        if error.kind == "full":
            if self.storage != "full":
                self.notices.append(STORAGE_FULL)
            self.storage = "full"
        else:
            self.storage = "refused"

    def settings(self) -> Settings:
        """The settings of the game shown (with the page's language, embed and start flags)."""
        return settings_of(self.game.record, self.url_lang, self.embed, self.start_now)

    def location(self) -> str:
        """The URL (query and fragment) of the game shown: its settings, so that a page that
        cannot read the library still starts the same kind of game, and ``#g=<id>``."""
        return f"{to_query(self.settings())}#g={self.game.record.id}"

    def share_query(self) -> str:
        """The query of a link to the position shown (Share): its settings and moves, no
        language and no id -- whoever opens it gets a copy of their own. For a game by link,
        the link this device sends (``?r=``): a friend game has one link to send."""
        if remote.is_remote(self.game.record):
            return "?r=" + remote.encode_link(remote.link_of(self.game.to_record()))
        s = self.settings()
        query = to_query(Settings(s.size, s.mode, s.players, s.seats))
        return f"{query}&game={encode_moves(self.game.state.history)}"

    def full_game_query(self) -> str:
        """The query of the embed's "Open the full game": the same game, moves and id
        included, so the full page opens (or updates) that very game and, where it cannot read
        the frame's storage (a partitioned cross-site frame), gets the moves from the link."""
        s = self.settings()
        query = to_query(Settings(s.size, s.mode, s.players, s.seats, self.url_lang))
        moves = encode_moves(self.game.state.history)
        return f"{query}&game={moves}&gid={self.game.record.id}"

    def embed_note(self) -> Message | None:
        """The quiet note an embed shows where the browser refuses storage (elsewhere that is
        a notice, see :meth:`start`), else None."""
        return message("embed.not_saved") if self.storage == "refused" and self.embed else None

    # ------------------------------------------------------------------ start
    def start(self, query: Iterable[tuple[str, str]], fragment: str = "") -> None:
        """Choose and show the game for a page opened with ``query`` (decoded pairs) and URL
        ``fragment`` (without ``#``), by the precedence in the module docstring. Notices about
        bad input go to :attr:`notices`; so does one that the browser refuses storage (not in
        an embed, where that is expected: the page shows a quiet note there instead)."""
        pairs = list(query)
        #: ``?puzzle=daily`` / ``?puzzle=<id>``: the puzzle the page opens once ready, or None.
        self.wanted_puzzle = dict(pairs).get("puzzle")
        self._choose(pairs, fragment)
        if self.storage == "refused" and not self.embed:
            self.notices.append(message("notice.no_storage"))

    def _choose(self, query: Iterable[tuple[str, str]], fragment: str) -> None:
        pairs = list(query)
        parsed = parse_params(pairs, self.prefs.lang or self.browser_lang)
        self.url_lang = parsed.settings.lang  # this visit's language, never saved
        self.embed = parsed.settings.embed
        self.start_now = parsed.settings.start_now
        self.notices.extend(parsed.notices)
        self._migrate_legacy()
        wanted = dict(pairs)
        fragment_id = fragment[2:] if fragment.startswith("g=") else ""
        if fragment_id:
            found = self.library.read(fragment_id)
            if isinstance(found, GameRecord):
                self._show(found)
                return
            if isinstance(found, Unreadable):
                self.notices.append(self.unreadable_notice(found))
            elif self.storage == "ok":
                self.notices.append(message("notice.game_missing"))
        if "r" in wanted and self.open_link(wanted["r"]):
            return
        code = parsed.settings.game
        if code is not None:
            rules = _rules_of(parsed.settings)
            try:
                state = decode_moves(code, rules)
            except RecordError as error:
                self.notices.append(message("notice.shared_bad", reason=error.message))
            else:
                link_id = wanted.get("gid", "")
                if link_id.isalnum() and len(link_id) <= 32:
                    self._open_link(link_id, state, parsed.settings.seats)
                else:
                    moves = len(state.history)
                    self.notices.append(plural("notice.shared_loaded", moves, moves=moves))
                    self._create(rules, parsed.settings.seats, state.history, "shared")
                return
        if parsed.explicit or code is not None:
            self._create(_rules_of(parsed.settings), parsed.settings.seats, (), "new")
            return
        # The most recent readable game; the first entry above it that cannot be read is named.
        found, above = self.library.first_readable()
        if above is not None and not fragment_id:
            self.notices.append(self.unreadable_notice(above))
        if found is not None:
            self._show(found)
            return
        self._create(_rules_of(parsed.settings), parsed.settings.seats, (), "new")

    def unreadable_notice(self, found: Unreadable) -> Message:
        """The notice naming a stored entry this version cannot open, and what to do."""
        key = "notice.save_newer" if found.kind == "newer" else "notice.save_damaged"
        return message(key, game=found.id)

    def _migrate_legacy(self) -> None:
        """Move the first version's single save (and its preferences) into the library; one
        that cannot be (damaged, or a board the app no longer plays) stays where it is and is
        listed as :attr:`legacy`."""
        self.legacy = None
        raw = self._read(LEGACY_KEY)
        if raw is None:
            return
        try:
            saved, _state = load_save(raw, SEAT_KINDS)
            rules = saved.rules
            if not app_allows(rules):
                raise board_error(rules)
        except RecordError as error:
            self.notices.append(message("notice.save_bad"))
            # kept as it is (never delete what cannot be read) and listed in "Your games"
            self.legacy = Unreadable(LEGACY_ID, "damaged", error, Summary(0, 0.0, 0, "", 0, 0, 0))
            return
        prefs = Prefs.load(json.dumps(saved.prefs))
        if self.prefs == Prefs():
            self.prefs = prefs
            self.save_prefs()
        line = decode_moves(saved.moves, rules).history
        record = GameRecord("", rules, saved.seats, line, saved.cursor, origin="saved")
        if not line:
            self._remove(LEGACY_KEY)
            return
        try:
            self.library.create(record)
        except StorageError as error:
            self._write_failed(error)
            return  # the old save stays where it is: never replaced by nothing
        self._remove(LEGACY_KEY)

    def _remove(self, key: str) -> None:
        with contextlib.suppress(Exception):  # a store that refuses removal keeps the key
            self.library.store.remove(key)

    def _open_link(self, link_id: str, state: GameState, seats: tuple[str, ...]) -> None:
        link = state.history
        stored = self.library.get(link_id)
        if stored is None:
            self._create(state.rules, seats, link, "link", game_id=link_id)
            return
        if stored.rules == state.rules:
            if any(is_prefix(link, line) for line in stored.lines()):
                if not is_prefix(stored.line[: stored.cursor], link):
                    self.notices.append(message("notice.link_old"))
                self._show(stored)
                return
            if all(is_prefix(line, link) for line in stored.lines()):
                self._show(replace(stored, line=link, cursor=len(link), variations=()))
                self.commit()
                return
        self.notices.append(message("notice.link_fork"))
        self._create(state.rules, seats, link, "link")

    def open_link(self, code: str) -> bool:
        """Open a game by link (``r=<code>``): see :func:`sos.app.remote.receive`. False when
        the link cannot be used (a notice says why; nothing changes)."""
        try:
            link = remote.decode_link(code)
        except remote.LinkError as error:
            self.notices.append(message("remote.error", reason=error.message))
            return False
        stored = self.library.get(link.game_id)
        got = remote.receive(stored, link)
        if got.kind == "wrong_seat" and got.error is not None:
            self.notices.append(message("remote.error", reason=got.error.message))
            return False
        if got.kind == "new":
            self._create_record(got.record)
            seat = remote.info(got.record).seat
            who = remote.display_message(remote.info(got.record).names, seat)
            self.notices.append(message("remote.new", name=who))
        elif got.kind == "fork":
            self.notices.append(message("remote.fork"))
            self._create_record(got.record)
        else:
            self._show(got.record)
            if got.kind == "old" and stored is not None:
                self.notices.append(
                    plural("remote.old", len(link.line), link=len(link.line), mine=stored.cursor)
                )
            elif got.kind == "updated":
                moves = len(link.line)
                self.notices.append(plural("remote.updated", moves, moves=moves))
            if got.kind == "updated" or got.record.extra != (stored.extra if stored else None):
                self.commit()
        return True

    def new_remote(self, settings: Settings, seat: int, name: str) -> None:
        """Start a game by link with ``settings`` (board, mode, players), this device playing
        ``seat`` (0-based) as ``name`` (optional)."""
        self._create_record(remote.new_record(_rules_of(settings), seat, name))

    # ------------------------------------------------------------------ games
    def _show(self, record: GameRecord) -> None:
        self.game.interrupt()
        self.game = remote.session_for(record)

    def _create(
        self,
        rules: Rules,
        seats: tuple[str, ...],
        line: tuple[Action, ...],
        origin: str,
        game_id: str = "",
    ) -> None:
        self._create_record(
            GameRecord(game_id, rules, seats, tuple(line), len(line), origin=origin)
        )

    def _create_record(self, record: GameRecord) -> None:
        game_id = record.id
        try:
            record = self.library.create(record)
        except StorageError as error:
            self._write_failed(error)
            record = replace(record, id=game_id or self.library.fresh_id())
        self._show(record)
        self.library.prune_empty(keep=self.game.record.id)

    def new_game(self, settings: Settings | None = None) -> None:
        """Start a new game (a new library entry; the one shown stays in the library) with
        ``settings``, or the settings and the players' names of the game shown."""
        names = self.names() if settings is None else ()
        if settings is None:
            settings = self.settings()
        self._create(_rules_of(settings), tuple(settings.seats), (), "new")
        if any(names):
            self.set_names(names)

    def load_state(self, state: GameState, seats: tuple[str, ...], origin: str) -> None:
        """Show ``state`` (an imported record) as a new game with its moves."""
        self._create(state.rules, seats, state.history, origin)

    def open(self, game_id: str) -> bool:
        """Show library game ``game_id``; False (and nothing changes) when it is not there."""
        if game_id == self.game.record.id:
            return True
        record = self.library.get(game_id)
        if record is None:
            return False
        self._show(record)
        return True

    def delete(self, game_id: str) -> GameRecord | Removed | None:
        """Remove a game from the library (the one shown is replaced by a new game with the
        same settings), or an entry this version cannot open (its text as stored is
        returned). Returns it, for :meth:`undelete`."""
        if game_id == LEGACY_ID:
            raw = self._read(LEGACY_KEY)
            self._remove(LEGACY_KEY)
            self.legacy = None
            return None if raw is None else Removed(LEGACY_ID, raw)
        if game_id != self.game.record.id and isinstance(self.library.read(game_id), Unreadable):
            return self.library.remove_unreadable(game_id)
        record = self.library.delete(game_id)
        if game_id == self.game.record.id:
            record = record or self.game.to_record()
            self.new_game()
        return record

    def undelete(self, record: GameRecord | Removed) -> None:
        """Put back a game or an unreadable entry removed by :meth:`delete`."""
        try:
            if isinstance(record, GameRecord):
                self.library.undelete(record)
            elif record.id == LEGACY_ID:
                self.library.store.set(LEGACY_KEY, record.text)
                self._migrate_legacy()
                self.notices = [n for n in self.notices if n != message("notice.save_bad")]
            else:
                self.library.put_back(record)
        except StorageError as error:
            self._write_failed(error)

    # ------------------------------------------------------------------ saving
    def commit(self) -> str:
        """Save the game shown. Returns what happened: ``saved``, ``merged``, ``followed``
        (another tab's line already holds ours: the session now shows it), ``forked`` (kept as
        a new game, now shown), ``failed`` (storage full or refused: a notice is queued once;
        the last good save is untouched)."""
        record = self.game.to_record()
        try:
            result = self.library.save(record)
        except StorageError as error:
            self._write_failed(error)
            return "failed"
        if self.storage == "full":
            self.storage = "ok"
            self.notices = [n for n in self.notices if n != STORAGE_FULL]
        if result.status == "followed":
            self._follow(result.record)
            self.notices.append(message("notice.followed"))
        elif result.status == "forked":
            unreadable = self.library.unreadable.get(record.id)
            self._show(result.record)
            if unreadable is not None:
                self.notices.append(message("notice.forked_unreadable", game=record.id))
            else:
                self.notices.append(message("notice.forked"))
        else:
            self.game.record = result.record
        return result.status

    def _follow(self, record: GameRecord) -> None:
        self._show(record)

    def external_change(self, key: str | None) -> bool:
        """Another tab wrote ``key`` (None: it cleared the whole storage). When that is the
        game shown: follow the stored game when it holds all of this tab's moves; when it
        lacks some (two tabs wrote at once and ours was overwritten), save ours again at once
        (merged, or kept as a copy that says so). A cleared storage gets the game shown and
        the preferences back (:meth:`ensure_saved`). True when the game shown changed.

        The page calls this under the same lock as every write."""
        if key is None:
            before = self.game
            self.ensure_saved()
            return self.game is not before
        if key != GAME_PREFIX + self.game.record.id:
            return False
        found = self.library.read(self.game.record.id)
        if not isinstance(found, GameRecord) or found.token == self.game.record.token:
            return False  # removed (the next change or a focus saves it again), or unreadable
        mine = self.game.to_record()
        if found.same_play(mine):
            self.game.record = replace(self.game.record, token=found.token, rev=found.rev)
            return False
        if found.holds(mine):
            self._follow(found)
            return True
        before = self.game
        self.commit()
        return self.game is not before

    def ensure_saved(self, cleared_only: bool = False) -> bool:
        """Write the game shown again (with a notice) and the preferences when storage lost
        them: another tab cleared it, or "clear site data". A game stored without a move is
        written again without a notice: another tab or frame of the origin (two embeds in one
        page) removes empty games when it starts one, and nothing was lost. Called on the
        ``storage`` event of a clear and, with ``cleared_only`` (not when the user deleted this
        game in another tab's list: it stays deleted until this tab changes it), when the tab
        is shown or gets the focus. True when it wrote the game."""
        if self.storage == "refused":
            return False
        if self._read(PREFS_KEY) is None and self.prefs != Prefs():
            self.save_prefs()
        mine = self.game.to_record()
        if self.library.raw(mine.id) is not None:
            return False
        if cleared_only and self.library.was_deleted(mine.id):
            return False  # deleted in another tab's list, not lost with a cleared storage
        # Stored without a move, it was another tab's or frame's to tidy away (a new game
        # there prunes the empty ones): written again quietly, nothing was lost.
        tidied = self.game.record.is_empty()
        if self.commit() == "failed":
            return False
        if not tidied:
            self.notices.append(message("notice.restored"))
        return True

    # ------------------------------------------------------------------ the dialogs
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

    def import_record(self, raw: str) -> Message | None:
        """Paste a text record (:func:`sos.app.record.parse_record`): shown as a new game
        with its moves, keeping the seats of the game shown when the player count matches,
        else every seat human. Returns ``None`` on success (a notice says so), or why it was
        refused (the game shown and the library unchanged)."""
        try:
            state = parse_record(raw)
        except RecordError as error:
            reason: Message = error.message
            if error.line is not None:
                reason = message("record.error.line", line=error.line, error=reason)
            return message("record.error", error=reason)
        rules = state.rules
        if not app_allows(rules):
            size_error = message("record.size_error", min=MIN_APP_SIZE, max=MAX_APP_SIZE)
            return message("record.error", error=size_error)
        seats = self.game.seats
        if len(seats) != rules.players:
            seats = ("human",) * rules.players
        self.load_state(state, seats, "record")
        self.notices = [message("record.loaded")]
        return None

    def puzzle_session(self, puzzles: tuple[Puzzle, ...]) -> PuzzleSession:
        """The puzzles of this tab (:class:`sos.app.puzzles.PuzzleSession`), in the page's
        language: their progress is kept in the tab's storage, except where the browser
        refuses storage (then for this page only). Never a library game."""
        from .puzzles import PuzzleSession  # on first use: the puzzles cost nothing at start

        store = self.library.store if self.storage != "refused" else None
        return PuzzleSession(puzzles, store, lambda: self.lang, self.library.clock)

    def open_fragment(self, fragment: str) -> bool:
        """Back/Forward to a URL whose fragment (without ``#``) names a game, ``g=<id>``: show
        it. False (nothing changes) for another fragment or a game not in the library."""
        return fragment.startswith("g=") and self.open(fragment[2:])

    def save_prefs(self) -> None:
        """Write the preferences (a refused write is ignored: they are only preferences)."""
        with contextlib.suppress(StorageError):
            self.library.store.set(PREFS_KEY, self.prefs.dump())

    # ------------------------------------------------------------------ the list
    def entries(self) -> list[GameEntry]:
        """The whole "Your games" list (reads every game: see :meth:`games` for a page)."""
        return self.games(None)[0]

    def games(self, count: int | None = GAMES_PAGE, start: int = 0) -> tuple[list[GameEntry], int]:
        """``count`` lines of "Your games" from line ``start`` (None: all the rest) and how
        many lines there are in all: the game shown first when it is not stored, then every
        stored entry, most recently written first; one this version cannot open is a line of
        kind ``newer`` or ``damaged``. Reads the index and the games returned, not the whole
        library."""
        shown = self.game.to_record()
        lead = [] if self.library.summary(shown.id) is not None else [shown.id]
        stored = self.library.count()
        end = None if count is None else start + count
        first = max(0, start - len(lead))
        last = None if end is None else max(first, end - len(lead))
        ids = lead[start:end]
        if last is None or last > first:
            ids += self.library.recent(None if last is None else last - first, first)
        result = []
        for game_id in ids:
            if game_id == shown.id:
                result.append(self.entry(shown))
                continue
            found = self.library.read(game_id)
            if isinstance(found, GameRecord):
                result.append(self.entry(found))
            elif found is not None:
                result.append(self.unreadable_entry(found))
        total = len(lead) + stored
        if self.legacy is not None:  # the oldest entry: the first version's save
            if start <= total and (end is None or total < end):
                result.append(self.unreadable_entry(self.legacy))
            total += 1
        return result, total

    def unreadable_entry(self, found: Unreadable) -> GameEntry:
        """The list line of an entry this version cannot open."""
        detail = self.t(f"games.unreadable.{found.kind}", reason=found.error.reason_in(self.lang))
        if found.id == LEGACY_ID:
            title = self.t("games.unreadable.first")
        else:
            title = self.t("games.unreadable.title", game=found.id)
        updated = found.summary.updated
        return GameEntry(found.id, title, detail, updated, False, False, "", found.kind)

    def entry(self, record: GameRecord) -> GameEntry:
        """The list line of one game."""
        rules, lang = record.rules, self.lang
        title = self.nt(
            "games.title",
            rules.players,
            size=rules.rows,
            mode=self.t(f"games.mode.{rules.mode}"),
            players=rules.players,
        )
        state = replace(record, cursor=len(record.line)).state()  # the game, not a browsed position
        outcome = outcomes.outcome_of(state, record)
        count = len(state.history)
        moves = self.nt("games.moves", count, moves=count)
        names = names_of(record)
        result = result_text(state, lang, record.seats, names, outcome=outcome)
        link = ""
        if remote.is_remote(record):
            link = remote.encode_link(remote.link_of(record))
            names = remote.info(record).names
            if result is None:
                who = remote.display_name(names, state.current_player(), lang)
                result = self.t("status.turn", name=who)
            me = remote.info(record).seat
            players = ", ".join(
                remote.display_name(names, s, lang) for s in range(rules.players) if s != me
            )
            mine = remote.display_name(names, me, lang)
            result += " · " + self.t("remote.list", me=mine, players=players)
        if result is None:
            seat = state.current_player()
            who = names[seat] or player_name(lang, seat, record.seats[seat])
            result = self.t("status.turn", name=who)
        if not remote.is_remote(record) and (
            any(names) or record.seats.count("human") < len(record.seats)
        ):  # who plays, unless it is just "Player 1 vs Player 2": "Alice vs Computer 2 · hard"
            result = f"{opponents_text(lang, record)} · {result}"
        return GameEntry(
            record.id,
            title,
            f"{moves} · {result}",
            record.updated,
            record.id == self.game.record.id,
            outcome is not None,
            link,
            thumb=thumbnail(state),
        )

    # ------------------------------------------------------------------ players (issue 26)
    def names(self) -> tuple[str, ...]:
        """The names of the game shown, one per seat (``""`` for the default)."""
        return names_of(self.game.record)

    def set_names(self, names: tuple[str, ...] | list[str]) -> None:
        """Name the seats of the game shown (saved with the next :meth:`commit`); a game by
        link keeps the names its links carry."""
        if not remote.is_remote(self.game.record):
            self.game.record = with_names(self.game.record, names)

    def rematch(self) -> None:
        """A new game with the settings and names of the game shown, seats rotated (the game
        shown stays in the library)."""
        self._create_record(rematch(self.game.to_record()))

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
