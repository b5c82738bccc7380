"""The library of saved games: several games, each under its own storage key, plus an index of
short summaries, written so that concurrent tabs never write over each other's moves and a
reader never deletes or rewrites what it cannot read. The format and its versioning rule are
described in ``docs/saves.md``.

Storage layout (one ``Store``, in the page ``window.localStorage``)::

    sos-g:<id>   one game (JSON, :data:`GAME_FORMAT` version :data:`GAME_VERSION`)
    sos-index    the summaries of the games (JSON, :data:`INDEX_FORMAT` version
                 :data:`INDEX_VERSION`): a cache, rebuilt from the ``sos-g:`` keys when missing;
                 rewritten once every :data:`LOG_MAX` writes
    sos-index-log the summaries written since (JSON, :data:`LOG_FORMAT` version
                 :data:`LOG_VERSION`, at most about :data:`LOG_MAX` of them): what a write writes
    sos-prefs    the preferences (language, theme, letter)
    sos-game     the single save slot of the first version (read once, migrated, removed)

Why ``localStorage`` and not IndexedDB: a game is a few hundred bytes (a full 12x12 game is
under 1 KB), so the 5 MB quota holds thousands; it is synchronous, so a move is saved before
the event handler returns (nothing is pending when the tab closes); it fires the ``storage``
event in the other tabs of the origin, which is how a tab follows a game another tab changed;
and it is available wherever IndexedDB is (both are blocked together in a cross-site frame
with third-party storage blocked, and both work in private windows). One key per game keeps a
write small and lets one damaged or refused entry never touch the others.

Writes compare content, not only a revision: every write stores a fresh random ``token``; a
tab writes over a stored game only when the stored token is the one it read (nobody wrote in
between) or when the stored lines are all prefixes of its own (nothing of the other writer is
lost). The page runs every write under one Web Lock (``navigator.locks``) where the browser
has it, so two tabs never interleave a read and a write; where it has not, the ``storage``
event lets the tab whose write was overwritten write again (see ``AppSession.external_change``).

Nothing here deletes a game except :meth:`Library.delete` and
:meth:`Library.remove_unreadable` (the user's choice, each with an undo) and
:meth:`Library.prune_empty` (readable games with no move at all, which hold nothing to lose).
A damaged entry or one of a newer format is never removed or written over on the library's
own account: it is listed by :meth:`Library.unreadable_entries`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from .gamerecord import (
    GAME_FORMAT,
    GAME_VERSION,
    RESULT_KEY,
    SEAT_KINDS,
    GameRecord,
    PlayLine,
    dump_game,
    is_newer,
    is_prefix,
    kept_result,
    load_game,
    merge_lines,
    new_token,
    same_game,
)
from .library_index import (
    DAMAGED,
    EMPTY,
    GAME_PREFIX,
    INDEX_FORMAT,
    INDEX_KEY,
    INDEX_VERSION,
    KEEP_DELETED,
    LOG_FORMAT,
    LOG_KEY,
    LOG_MAX,
    LOG_VERSION,
    NEWER,
    LibraryIndex,
    Summary,
    Unreadable,
    light_summary,
    summarize,
)
from .store import MemoryStore, StorageError, Store
from .transcript import RecordError

PREFS_KEY: Final = "sos-prefs"
LEGACY_KEY: Final = "sos-game"
#: The id under which "Your games" lists the first version's save slot (``sos-game``) when it
#: cannot be migrated: not letters and digits only, so never a game's id.
LEGACY_ID: Final = "sos-game"

__all__ = [
    "DAMAGED", "EMPTY", "GAME_FORMAT", "GAME_PREFIX", "GAME_VERSION", "INDEX_FORMAT",
    "INDEX_KEY", "INDEX_VERSION", "KEEP_DELETED", "LEGACY_ID", "LEGACY_KEY", "LOG_FORMAT",
    "LOG_KEY", "LOG_MAX", "LOG_VERSION", "NEWER", "PREFS_KEY", "RESULT_KEY", "SEAT_KINDS",
    "GameRecord", "Library", "MemoryStore", "PlayLine", "Removed", "SaveResult", "StorageError",
    "Store", "Summary", "Unreadable", "dump_game", "is_newer", "is_prefix", "load_game",
    "merge_lines", "new_token",
]


@dataclass
class SaveResult:
    """What :meth:`Library.save` did.

    ``status``: ``saved`` (written), ``merged`` (another tab had changed the game, ours holds
    all of theirs: written with both kept), ``followed`` (another tab's game already holds ours:
    theirs is kept and returned, nothing written), ``forked`` (the lines disagree, or the stored
    entry cannot be read by this version: ours was written as a new game, ``record.id`` is the
    copy's id). ``record`` is what is stored now.
    """

    status: str
    record: GameRecord


@dataclass(frozen=True)
class Removed:
    """An entry this version cannot open, removed by the user (:meth:`Library.remove_unreadable`):
    its key's ``id`` and its stored ``text`` byte for byte, for :meth:`Library.put_back`."""

    id: str
    text: str


class Library(LibraryIndex):
    """The saved games of this browser (see the module docstring for the layout).

    Reading and writing games is here; the index of short summaries is
    :class:`~sos.app.saving.library_index.LibraryIndex`'s.

    Args:
        store: where the games live.
        clock: milliseconds since the epoch (the ``updated`` time shown in the list).
        new_id: a fresh random game id.
        new_token: a fresh random write token (default :func:`new_token`).
    """

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        new_id: Callable[[], str],
        new_token: Callable[[], str] = new_token,
    ) -> None:
        super().__init__(store, new_token)
        self.clock = clock
        self._new_id = new_id

    def first_readable(self) -> tuple[GameRecord | None, Unreadable | None]:
        """The most recently written game this version can read, and the first entry above it
        that it cannot (or None)."""
        self._load()
        above: Unreadable | None = None
        for game_id in self._ordered():
            found = self.read(game_id)
            if isinstance(found, GameRecord):
                return found, above
            if found is not None and above is None:
                above = found
        return None, above

    # ------------------------------------------------------------------ reading
    def fresh_id(self) -> str:
        """An id no stored game has."""
        while True:
            game_id = self._new_id()
            if self.store.get(GAME_PREFIX + game_id) is None:
                return game_id

    def raw(self, game_id: str) -> str | None:
        """The stored text of game ``game_id`` as it is (for copying a damaged one), or None;
        :data:`LEGACY_ID` names the first version's save slot."""
        return self.store.get(LEGACY_KEY if game_id == LEGACY_ID else GAME_PREFIX + game_id)

    def read(self, game_id: str) -> GameRecord | Unreadable | None:
        """The stored game ``game_id``: a record, an :class:`Unreadable` (kept untouched), or
        None when there is no such key."""
        text = self.store.get(GAME_PREFIX + game_id)
        if text is None:
            return None
        try:
            record = load_game(text)
            if record.id != game_id:
                raise RecordError("save_damaged")
        except RecordError as error:
            return self._mark(game_id, error)
        return record

    def get(self, game_id: str) -> GameRecord | None:
        """The stored game ``game_id``, or None (missing or unreadable: see :meth:`read`)."""
        found = self.read(game_id)
        return found if isinstance(found, GameRecord) else None

    def entries(self) -> list[GameRecord]:
        """Every readable game, most recent first (reads them all: for tests and tools; the
        page lists :meth:`recent` a page at a time). Unreadable ones go to :attr:`unreadable`
        and stay in the store."""
        found = []
        for game_id in self.recent():
            record = self.get(game_id)
            if record is not None:
                found.append(record)
        return found

    def unreadable_entries(self) -> list[Unreadable]:
        """The entries this version cannot open, most recent first (from the index's flags;
        reads those entries only)."""
        self._load()
        found = []
        for game_id, summary in self._merged().items():
            if summary.flags & (NEWER | DAMAGED):
                known = self.unreadable.get(game_id)
                found.append(known or self._unreadable_of(game_id, summary))
        return sorted(found, key=lambda u: u.summary.seq, reverse=True)

    # ------------------------------------------------------------------ writing
    def _write(self, record: GameRecord, new: bool) -> GameRecord:
        """Write ``record`` with a new token and note it in the index (``new``: its key is
        not in the store yet)."""
        written = replace(record, token=self._new_token())
        text = dump_game(written)
        # The index first: when storage is full, neither is written and the page says so
        # (a game written without its summary would be listed with an old one). A summary that
        # fits where its game does not (as long as the one it replaces) is taken back.
        kept = self._noted()
        self._note(written, 1 if new else 0)
        try:
            self.store.set(GAME_PREFIX + record.id, text)
        except StorageError:
            self._unnote(record.id, kept)
            raise
        self.unreadable.pop(record.id, None)
        return written

    def create(self, record: GameRecord) -> GameRecord:
        """Write a new game (rev 1, created and updated now). It gets a fresh id if it has none,
        or when its id is taken by a stored entry (which is never written over).

        Raises:
            StorageError: when the browser refused the write (nothing is written).
        """
        now = self.clock()
        game_id = record.id
        if not game_id or self.store.get(GAME_PREFIX + game_id) is not None:
            game_id = self.fresh_id()
        stored = replace(record, id=game_id, created=record.created or now, updated=now, rev=1)
        return self._write(stored, new=True)

    def add_all(self, records: list[GameRecord]) -> tuple[list[GameRecord], StorageError | None]:
        """Write games that come from elsewhere (an imported library file) as they are: times,
        revision, origin and extra kept, each under its id or, when a stored entry (or an
        earlier one of ``records``) has that id, under a fresh one -- nothing is written over.
        The index is written once for all of them, before them.

        Returns the records written (with their ids and tokens as stored) and None, or, when
        the browser refused a write, the first records that were written whole (the index
        lists exactly those) and the :class:`StorageError`.
        """
        self._load()
        taken: set[str] = set()
        planned = []
        for record in records:
            game_id = record.id
            while (
                not game_id or game_id in taken or self.store.get(GAME_PREFIX + game_id) is not None
            ):
                game_id = self._new_id()
            taken.add(game_id)
            planned.append(replace(record, id=game_id, token=self._new_token()))
        for record in planned:
            if record.id in self._deleted:
                self._deleted.remove(record.id)
            self._log[record.id] = summarize(record, self._next)
            self._next += 1
        try:
            self._store_log(strict=True, added=len(planned))
        except StorageError as error:
            return [], error
        for done, record in enumerate(planned):
            try:
                self.store.set(GAME_PREFIX + record.id, dump_game(record))
            except StorageError as error:
                for rest in planned[done:]:
                    self._drop(rest.id)
                self._store_log()  # smaller than the one written; else the key check repairs it
                return planned[:done], error
        return planned, None

    def save(self, record: GameRecord) -> SaveResult:
        """Write ``record``, which was read (or last written) with token ``record.token``.
        A record that holds just what is stored (:func:`same_game`) is not written
        (``saved``, the stored one returned): showing a game again does not change its time
        or its place in the list.

        When the stored token is another one, another tab wrote the game meanwhile: if ours
        holds each of its lines, ours is written with both sides' variations kept
        (``merged``); if the stored game holds each of ours, nothing is written and the stored
        game is returned (``followed``); otherwise, or when the stored entry cannot be read by
        this version, ours is written as a new game (``forked``). A missing entry (removed by
        another tab, or storage cleared) is written again (``saved``). No move of either side
        is lost, and no entry this version cannot read is written over.

        Raises:
            StorageError: when the browser refused the write (the stored game is unchanged).
        """
        found = self.read(record.id)
        now = self.clock()
        if isinstance(found, GameRecord) and same_game(found, record):
            return SaveResult("saved", found)  # nothing new: its time and place stay
        if found is None or (isinstance(found, GameRecord) and found.token == record.token):
            rev = found.rev + 1 if found is not None else record.rev + 1
            written = self._write(replace(record, updated=now, rev=rev), new=found is None)
            return SaveResult("saved", written)
        if isinstance(found, GameRecord):
            if record.holds(found):
                variations = merge_lines([*record.variations, *found.variations])
                variations = tuple(v for v in variations if not is_prefix(v, record.line))
                written = replace(record, variations=variations, updated=now, rev=found.rev + 1,
                                  extra=kept_result(found, record))
                status = "saved" if found.same_play(record) else "merged"
                return SaveResult(status, self._write(written, new=False))
            if found.holds(record):
                return SaveResult("followed", found)
        copy = replace(record, id="", origin="copy", created=0.0, unknown={})
        return SaveResult("forked", self.create(copy))

    def delete(self, game_id: str) -> GameRecord | None:
        """Remove game ``game_id`` (the user's choice); returns it (for an undo) or None."""
        self._load()
        record = self.get(game_id)
        self.store.remove(GAME_PREFIX + game_id)
        self._drop(game_id)
        self._deleted.append(game_id)
        self._store_log()
        return record

    def undelete(self, record: GameRecord) -> GameRecord:
        """Put back a game removed by :meth:`delete` (same id unless that id was taken since,
        a new revision).

        Raises:
            StorageError: when the browser refused the write.
        """
        if self.store.get(GAME_PREFIX + record.id) is not None:
            return self.create(replace(record, id=""))
        return self._write(replace(record, rev=record.rev + 1), new=True)

    def remove_unreadable(self, game_id: str) -> Removed | None:
        """Remove an entry this version cannot open (the user's choice, after seeing it
        listed); returns its text as stored, for :meth:`put_back`. None (and nothing
        removed) when there is no such entry or it can be read (see :meth:`delete`)."""
        self._load()
        if not isinstance(self.read(game_id), Unreadable):
            return None
        text = self.raw(game_id) or ""
        self.store.remove(GAME_PREFIX + game_id)
        self._drop(game_id)
        self.unreadable.pop(game_id, None)
        self._store_log()
        return Removed(game_id, text)

    def put_back(self, removed: Removed) -> str:
        """Write back an entry removed by :meth:`remove_unreadable`, byte for byte, under its
        id (or a fresh one when that id was taken since); returns the id.

        Raises:
            StorageError: when the browser refused the write.
        """
        self._load()
        game_id = removed.id
        if self.store.get(GAME_PREFIX + game_id) is not None:
            game_id = self.fresh_id()
        self.store.set(GAME_PREFIX + game_id, removed.text)
        self._log[game_id] = light_summary(game_id, removed.text, self._next)
        self._next += 1
        self._store_log()
        return game_id

    def prune_empty(self, keep: str) -> None:
        """Remove the readable games with no move, except ``keep``: they hold nothing to lose.
        Reads only the games the index marks empty (each is read again before removal)."""
        self._load()
        log, base = self._log, self._base
        empty = [g for g, s in log.items() if s is not None and s.flags & EMPTY]
        empty += [g for g in self._flagged if g not in log and base[g].flags & EMPTY]
        changed = False
        for game_id in empty:
            if game_id == keep:
                continue
            found = self.read(game_id)
            summary = self._summary(game_id)
            if found is None or (isinstance(found, GameRecord) and found.is_empty()):
                self.store.remove(GAME_PREFIX + game_id)
                self._drop(game_id)
                changed = True
            elif isinstance(found, GameRecord) and summary is not None:
                # a stale summary (a build without the index wrote it)
                self._log[game_id] = summarize(found, summary.seq)
                changed = True
        if changed:
            self._store_log()
