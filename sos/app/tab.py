"""One tab's core, with no DOM: the library, the game shown, new games as new library entries,
saving after every change with the two-tab rules (:meth:`TabCore.commit`,
:meth:`TabCore.external_change`, :meth:`TabCore.ensure_saved`), storage errors, deleting and
putting back, the players' names. :class:`sos.app.app.AppSession` adds the restore policy and
links (:mod:`sos.app.restore`), the list of games (:mod:`sos.app.games_list`) and the dialogs.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import replace

from ..notation import Action
from ..rules import Rules, app_allows
from ..state import GameState
from .fault import NOT_KEPT, storage_failure
from .game.outcome import reopened
from .game.session import GameSession
from .saving.gamerecord import same_game
from .saving.library import (
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
)
from .saving.prefs import Prefs
from .saving.transcript import RecordError, board_error, decode_moves, load_save
from .share import remote
from .share.embed import paint_of
from .share.params import SEAT_KINDS, Settings
from .share.players import names_of, with_names
from .text.i18n import ntext, text
from .text.message import Message, message

#: The notice of a full storage (queued once, removed when a save succeeds again).
STORAGE_FULL = message("notice.storage_full")


def settings_of(
    record: GameRecord, lang: str | None = None, embed: bool = False, start_now: bool = False
) -> Settings:
    """The app :class:`Settings` of a saved game."""
    rules = record.rules
    return Settings(
        rules.rows, rules.mode, rules.players, record.seats, lang, embed, start_now=start_now
    )


def rules_of(settings: Settings) -> Rules:
    """The :class:`~sos.rules.Rules` of app settings (a square board)."""
    return Rules.square(settings.size, settings.mode, settings.players)


class TabCore:
    """The state of one tab: preferences, the library, the game shown and storage health, with
    saving (the core :class:`sos.app.app.AppSession` is made of).

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
        #: An embed's storage key (:mod:`sos.app.share.embed`: ``sos-embed:<hash>``), under which
        #: the frame's record -- its game and how to draw it before the engine is up -- is
        #: written after each save; None outside an embed or for a game link.
        self.embed_key: str | None = None
        #: The keys an earlier version made for the same frame (``static/boot.js``'s v1 keys,
        #: from the host page's referrer), looked up in order when nothing is under
        #: :attr:`embed_key`; their records are left as they are.
        self.embed_old_keys: list[str] = []
        #: The host's name for an embed's game (the ``id`` parameter), kept in the address.
        self.embed_id: str | None = None
        self.prefs = Prefs.load(self._read(PREFS_KEY))
        self.url_lang: str | None = None
        self.wanted_puzzle: str | None = None
        self.game: GameSession = GameSession(GameRecord("", Rules.square(6), ("human",) * 2))
        #: The game shown as the library last held it (read, or written by :meth:`commit`):
        #: what :meth:`_settle` compares with before another game is shown.
        self._stored: GameRecord = self.game.to_record()
        #: Notices waiting to be shown, translated when shown (:meth:`notice_texts`).
        self.notices: list[Message] = []
        #: The first version's save slot when it cannot be migrated (listed as
        #: :data:`~sos.app.saving.library.LEGACY_ID`, kept until the user deletes it), else None.
        self.legacy: Unreadable | None = None

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
        kind = storage_failure(error.kind, self.library.store.length())
        if kind == "full":
            if self.storage != "full":
                self.notices.append(STORAGE_FULL)
            self.storage = "full"
            return
        # Refused, or full with nothing in it (a quota of zero): nothing can be kept in this
        # window. Said once (an embed shows its quiet note instead); the page offers the
        # export of the game in play beside it (docs/reliability.md).
        self.notices = [n for n in self.notices if n != STORAGE_FULL]
        if self.storage != "refused" and not self.embed and NOT_KEPT not in self.notices:
            self.notices.append(NOT_KEPT)
        self.storage = "refused"

    def settings(self) -> Settings:
        """The settings of the game shown (with the page's language, embed and start flags)."""
        return settings_of(self.game.record, self.url_lang, self.embed, self.start_now)

    def _remove(self, key: str) -> None:
        with contextlib.suppress(Exception):  # a store that refuses removal keeps the key
            self.library.store.remove(key)

    def save_prefs(self) -> None:
        """Write the preferences (a refused write is ignored: they are only preferences)."""
        with contextlib.suppress(StorageError):
            self.library.store.set(PREFS_KEY, self.prefs.dump())

    def _show(self, record: GameRecord) -> None:
        self.game.interrupt()
        self.game = remote.session_for(record)
        self._stored = self.game.to_record()

    def _settle(self) -> None:
        """Before another game is shown: save the game shown if it changed since the library
        last held it. The page saves after each change under the library's lock
        (:func:`sos.web.store.with_lock`), a task or more later; a game opened or started in
        between would otherwise leave that change unsaved, and an empty stored game would be
        pruned with its first move (fresh-clone CI under load: a move, then New game at once,
        then Back found no game). An unchanged game that storage lost (another tab cleared it,
        or "clear site data", and this tab's ``storage`` event or focus check still waits) is
        written again as :meth:`ensure_saved` does (tests/app/test_tabs_machine.py found it)."""
        if not same_game(self._stored, self.game.to_record()):
            self.commit()
        elif self.game.record.id:  # (not the placeholder before the start)
            # storage cleared, the tab not told yet (its event or focus check still waits)
            self.ensure_saved(cleared_only=True)

    def _create(
        self,
        rules: Rules,
        seats: tuple[str, ...],
        line: tuple[Action, ...],
        origin: str,
        game_id: str = "",
        names: tuple[str, ...] = (),
    ) -> None:
        record = GameRecord(game_id, rules, seats, tuple(line), len(line), origin=origin)
        self._create_record(with_names(record, names) if names else record)

    def _create_record(self, record: GameRecord) -> None:
        self._settle()
        game_id = record.id
        try:
            record = self.library.create(record)
        except StorageError as error:
            self._write_failed(error)
            record = replace(record, id=game_id or self.library.fresh_id())
        self._show(record)
        self.library.prune_empty(keep=self.game.record.id)
        self.keep_embed()

    def keep_embed(self) -> None:
        """In an embed with a key: write the frame's record for the game shown
        (:func:`sos.app.share.embed.paint_of`), so the frame restores this game and draws it before
        the engine is up. A refused write changes nothing (the frame starts empty then)."""
        if self.embed_key is None or self.storage == "refused":
            return
        with contextlib.suppress(StorageError):
            self.library.store.set(self.embed_key, paint_of(self.game, self.lang))

    def new_game(self, settings: Settings | None = None) -> None:
        """Start a new game (a new library entry; the one shown stays in the library) with
        ``settings``, or the settings and the players' names of the game shown."""
        names = self.names() if settings is None else ()
        if settings is None:
            settings = self.settings()
        self._create(rules_of(settings), tuple(settings.seats), (), "new")
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
        self._settle()
        self._show(reopened(record))  # a finished game at its end
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
            self._stored = self.game.to_record()  # removed on purpose: not saved again
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
        self._stored = self.game.to_record()
        self.keep_embed()
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
            found = self.library.read(mine.id)
            if (
                isinstance(found, GameRecord)
                and found.token != mine.token
                and not found.holds(mine)
            ):
                # Another tab wrote its copy back after a clear, without this tab's moves,
                # and its storage event has not come yet: ours is kept, merged or as a copy
                # (tests/app/test_tabs_machine.py found it).
                self.commit()
                return True
            return False
        if cleared_only and self.library.was_deleted(mine.id):
            return False  # deleted in another tab's list, not lost with a cleared storage
        # Stored without a move, it was another tab's or frame's to tidy away (a new game
        # there prunes the empty ones): written again quietly, nothing was lost.
        tidied = self.game.last_stored.is_empty()
        if self.commit() == "failed":
            return False
        if not tidied:
            self.notices.append(message("notice.restored"))
        return True

    def catch_up(self) -> bool:
        """The tab comes back after events it could not hear (restored from the back/forward
        cache, resumed after a freeze): the game shown is compared with the stored one as if
        another tab had just written it (:meth:`external_change`: follow it when it holds all
        of this tab's moves, else save ours again, merged or as a copy that says so), and
        written again if storage lost it (:meth:`ensure_saved`). True when the game shown
        changed or was written again. The page calls this under the library's lock."""
        if self.storage == "refused":
            return False
        if self.external_change(GAME_PREFIX + self.game.record.id):
            return True
        return self.ensure_saved(cleared_only=True)

    def names(self) -> tuple[str, ...]:
        """The names of the game shown, one per seat (``""`` for the default)."""
        return names_of(self.game.record)

    def set_names(self, names: tuple[str, ...] | list[str]) -> None:
        """Name the seats of the game shown (saved with the next :meth:`commit`); a game by
        link keeps the names its links carry."""
        if not remote.is_remote(self.game.record):
            self.game.record = with_names(self.game.record, names)

    def set_seats(self, seats: tuple[str, ...]) -> None:
        """Give the game shown other seats (``human`` or a computer level, one per player),
        keeping its moves and id (saved with the next :meth:`commit`): the start choice after a
        first move (:func:`sos.app.start.apply`).

        Raises:
            ValueError: for a game by link (its seats are the two devices'), or a number of
                seats that is not the game's number of players.
        """
        if remote.is_remote(self.game.record):
            raise ValueError("a game by link keeps its seats")
        if len(seats) != self.game.rules.players:
            raise ValueError(f"{len(seats)} seats for {self.game.rules.players} players")
        self.game.record = replace(self.game.record, seats=tuple(seats))

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
