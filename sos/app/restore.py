"""Which game a tab shows when it opens (the restore policy), games by link and shared links,
and the page's URL and language, with no DOM.

Restore precedence at start (:meth:`AppSession.start`), first match wins:

1. ``#g=<id>`` in the URL and that game in the library: show it (a reload, Back/Forward).
2. ``r=<code>`` (a game by link, :mod:`sos.app.share.remote`): the library's game with the link's
   id, updated when the link extends it (never rewound by an older link), or created; a link
   that disagrees is kept as another game; a damaged link says why and the rules below apply.
3. ``game=<moves>`` with ``gid=<id>`` (a game link, e.g. an embed's "Open the full game"): the
   library's game ``<id>`` if it already holds those moves (a link that is behind says so),
   updated when the link extends it, a new game when the link disagrees (both kept).
4. ``game=<moves>`` alone (a shared position): a new game with those moves.
   A ``game=`` link that cannot be read (3 or 4) says why and changes nothing: the link's
   settings are passed over, and rule 7 shows the game in play.
5. An embed with a key (:attr:`TabCore.embed_key`, see :mod:`sos.app.share.embed`): the game its
   record names (else the record under the first of the frame's old keys that has one,
   :attr:`TabCore.embed_old_keys`: the keys an earlier version made), else a new game with
   the URL's settings -- never another frame's game nor the full page's last one, so each
   embed on a page is its own game (and a host's ``id`` names a game that frames may share).
6. ``size``, ``mode``, ``players`` or ``seats`` in the URL: a new game with those settings.
7. Otherwise the most recently written game this version can read, else a new game.

A game of the library whose line of play has ended comes back at its end, with its result
(:func:`sos.app.game.outcome.reopened`), however it was left (stepped back in Review, say).

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

from collections.abc import Iterable
from dataclasses import replace

from ..state import GameState
from .fault import NOT_KEPT
from .game.outcome import reopened
from .saving.library import GameRecord, Unreadable, is_prefix
from .saving.transcript import RecordError, decode_moves, encode_moves
from .share import remote
from .share.embed import painted_id, valid_key
from .share.params import Settings, names_value, parse_params, quote_value, to_query
from .tab import TabCore, rules_of
from .text.message import Message, message, plural


class Restore(TabCore):
    """The restore policy and the links of a tab (the precedence: the module docstring)."""

    def location(self) -> str:
        """The URL (query and fragment) of the game shown: its settings, so that a page that
        cannot read the library still starts the same kind of game, and ``#g=<id>``."""
        named = f"&id={self.embed_id}" if self.embed and self.embed_id else ""
        return f"{to_query(self.settings())}{named}#g={self.game.record.id}"

    def share_query(self) -> str:
        """The query of a link to the position shown (Share): its settings, moves and the
        players' names (``names``, when any was given), no language and no id -- whoever opens
        it gets a copy of their own. For a game by link, the link this device sends (``?r=``):
        a friend game has one link to send."""
        if remote.is_remote(self.game.record):
            return "?r=" + remote.encode_link(remote.link_of(self.game.to_record()))
        s = self.settings()
        query = to_query(Settings(s.size, s.mode, s.players, s.seats))
        return f"{query}&game={encode_moves(self.game.state.history)}{self._names_part()}"

    def full_game_query(self) -> str:
        """The query of the embed's "Open the full game": the same game, moves, names and id
        included, so the full page opens (or updates) that very game and, where it cannot read
        the frame's storage (a partitioned cross-site frame), gets the moves from the link."""
        s = self.settings()
        query = to_query(Settings(s.size, s.mode, s.players, s.seats, self.url_lang))
        moves = encode_moves(self.game.state.history)
        return f"{query}&game={moves}{self._names_part()}&gid={self.game.record.id}"

    def _names_part(self) -> str:
        """``&names=<JSON array, percent-encoded>`` of the game shown, "" without a name."""
        names = self.names()
        return f"&names={quote_value(names_value(names))}" if any(names) else ""

    def embed_note(self) -> Message | None:
        """The quiet note an embed shows where the browser refuses storage (elsewhere that is
        a notice, see :meth:`start`), else None."""
        return message("embed.not_saved") if self.storage == "refused" and self.embed else None

    def start(
        self,
        query: Iterable[tuple[str, str]],
        fragment: str = "",
        embed_key: str | None = None,
        old_keys: Iterable[str] = (),
    ) -> None:
        """Choose and show the game for a page opened with ``query`` (decoded pairs) and URL
        ``fragment`` (without ``#``), by the precedence in the module docstring; ``embed_key``
        is the frame's key from ``static/boot.js`` (used in an embed only), ``old_keys`` the
        keys an earlier version made for the same frame, looked up in their order when nothing
        is under ``embed_key`` (the game found there is then kept under ``embed_key``; the old
        record stays). Notices about bad input go to :attr:`notices`; so does one that the
        browser refuses storage (not in an embed, where that is expected: the page shows a
        quiet note there instead)."""
        pairs = list(query)
        self.embed_key = valid_key(embed_key)
        self.embed_old_keys = [key for key in map(valid_key, old_keys) if key is not None]
        #: ``?puzzle=daily`` / ``?puzzle=<id>``: the puzzle the page opens once ready, or None.
        self.wanted_puzzle = dict(pairs).get("puzzle")
        self._choose(pairs, fragment)
        if self.storage == "refused" and not self.embed and NOT_KEPT not in self.notices:
            self.notices.append(NOT_KEPT)

    def _choose(self, query: Iterable[tuple[str, str]], fragment: str) -> None:
        pairs = list(query)
        parsed = parse_params(pairs, self.prefs.lang or self.browser_lang)
        self.url_lang = parsed.settings.lang  # this visit's language, never saved
        self.embed = parsed.settings.embed
        self.start_now = parsed.settings.start_now
        self.embed_id = parsed.embed_id
        if not self.embed or "r" in dict(pairs) or parsed.settings.game is not None:
            self.embed_key = None  # a game link names its game itself
        self.notices.extend(parsed.notices)
        self._migrate_legacy()
        wanted = dict(pairs)
        fragment_id = fragment[2:] if fragment.startswith("g=") else ""
        if fragment_id:
            found = self.library.read(fragment_id)
            if isinstance(found, GameRecord):
                self._show(reopened(found))  # a finished game at its end, with its result
                return
            if isinstance(found, Unreadable):
                self.notices.append(self.unreadable_notice(found))
            elif self.storage == "ok":
                self.notices.append(message("notice.game_missing"))
        if "r" in wanted and self.open_link(wanted["r"]):
            return
        code = parsed.settings.game
        unreadable_link = False
        if code is not None:
            rules = rules_of(parsed.settings)
            try:
                state = decode_moves(code, rules)
            except RecordError as error:
                # Nothing changes: the game in play stays (as for a bad ?r= link).
                self.notices.append(message("remote.error", reason=error.message))
                code, unreadable_link = None, True
            else:
                link_id = wanted.get("gid", "")
                names = parsed.settings.names
                if link_id.isalnum() and len(link_id) <= 32:
                    self._open_link(link_id, state, parsed.settings.seats, names)
                else:
                    moves = len(state.history)
                    self.notices.append(plural("notice.shared_loaded", moves, moves=moves))
                    self._create(rules, parsed.settings.seats, state.history, "shared", names=names)
                return
        if self.embed_key is not None:
            game_id = None
            for key in [self.embed_key, *self.embed_old_keys]:  # the first key that has one
                game_id = painted_id(self._read(key))
                if game_id is not None:
                    break
            kept = self.library.read(game_id) if game_id else None
            if isinstance(kept, GameRecord) and kept.rules == rules_of(parsed.settings):
                self._show(reopened(kept))
                self.keep_embed()
            else:
                self._create(rules_of(parsed.settings), parsed.settings.seats, (), "new",
                             names=parsed.settings.names)
            return
        if parsed.explicit and not unreadable_link:
            self._create(rules_of(parsed.settings), parsed.settings.seats, (), "new",
                         names=parsed.settings.names)
            return
        # The most recent readable game; the first entry above it that cannot be read is named.
        found, above = self.library.first_readable()
        if above is not None and not fragment_id:
            self.notices.append(self.unreadable_notice(above))
        if found is not None:
            self._show(reopened(found))
            return
        self._create(rules_of(parsed.settings), parsed.settings.seats, (), "new")

    def unreadable_notice(self, found: Unreadable) -> Message:
        """The notice naming a stored entry this version cannot open, and what to do."""
        key = "notice.save_newer" if found.kind == "newer" else "notice.save_damaged"
        return message(key, game=found.id)

    def _open_link(
        self, link_id: str, state: GameState, seats: tuple[str, ...], names: tuple[str, ...]
    ) -> None:
        link = state.history
        stored = self.library.get(link_id)
        if stored is None:
            self._create(state.rules, seats, link, "link", game_id=link_id, names=names)
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
        self._create(state.rules, seats, link, "link", names=names)

    def open_link(self, code: str) -> bool:
        """Open a game by link (``r=<code>``): see :func:`sos.app.share.remote.receive`. False when
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
        self._create_record(remote.new_record(rules_of(settings), seat, name))

    def open_fragment(self, fragment: str) -> bool:
        """Back/Forward to a URL whose fragment (without ``#``) names a game, ``g=<id>``: show
        it. False (nothing changes) for another fragment or a game not in the library."""
        return fragment.startswith("g=") and self.open(fragment[2:])
