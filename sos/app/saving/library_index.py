"""The index of the library: short summaries of the stored games (``sos-index``, folded
once every :data:`LOG_MAX` writes, and the small ``sos-index-log`` that each write rewrites),
so that the start, New game, a move and each page of "Your games" read a few keys whatever the
library's size. :class:`LibraryIndex` is the part of :class:`sos.app.saving.library.Library` that
keeps it; the layout is in :mod:`sos.app.saving.library`'s docstring and ``docs/saves.md``.
"""

from __future__ import annotations

import heapq
import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final, NamedTuple

from .gamerecord import GameRecord, is_newer, new_token, saved_header, saved_number
from .store import StorageError, Store
from .transcript import RecordError

GAME_PREFIX: Final = "sos-g:"
INDEX_KEY: Final = "sos-index"
INDEX_FORMAT: Final = "sos-index"
INDEX_VERSION: Final = 2
LOG_KEY: Final = "sos-index-log"
LOG_FORMAT: Final = "sos-index-log"
LOG_VERSION: Final = 1
#: Summaries the log holds before they are folded into ``sos-index`` (the one write whose
#: size grows with the library happens once every this many writes).
LOG_MAX: Final = 200


class Summary(NamedTuple):
    """One game in the index: what the list, New game and the start need without reading
    the game.

    ``seq``: the library's write sequence at the game's last write (the most recent game has
    the highest; a clock set wrong cannot pin a game on top). ``updated``: ms since the epoch
    (0 when unknown). ``rows``, ``mode`` (``general``/``simple``), ``players``, ``moves`` (the
    length of the line). ``flags``: :data:`EMPTY` (no move, nothing to lose), :data:`NEWER`
    (a newer format), :data:`DAMAGED` (cannot be read).
    """

    seq: int
    updated: float
    rows: int
    mode: str
    players: int
    moves: int
    flags: int


#: Deleted game ids the index remembers (see :meth:`Library.was_deleted`).
KEEP_DELETED: Final = 100
EMPTY: Final = 1
NEWER: Final = 2
DAMAGED: Final = 4


@dataclass(frozen=True)
class Unreadable:
    """A stored entry this version cannot open: ``kind`` is ``newer`` (a later format: reload
    to update) or ``damaged``; ``error`` says why; ``summary`` as far as it could be read."""

    id: str
    kind: str
    error: RecordError
    summary: Summary


def summarize(record: GameRecord, seq: int) -> Summary:
    """The index's summary of ``record`` (an opened game), at log sequence ``seq``."""
    return Summary(
        seq,
        record.updated,
        record.rules.rows,
        record.rules.mode,
        record.rules.players,
        len(record.line),
        EMPTY if record.is_empty() else 0,
    )


def light_summary(game_id: str, text: str, seq: int) -> Summary:
    """The summary of a stored game from its JSON alone (no replay: fast, for building the
    index); flags say when it cannot be opened."""
    try:
        data = saved_header(text)
        if data.get("id") != game_id:
            raise RecordError("save_damaged")
        line, variations, extra = data.get("line"), data.get("variations", []), data.get("extra")
        rows, players, mode = data.get("rows"), data.get("players"), data.get("mode")
        updated = saved_number(data.get("updated"))
        if not (isinstance(line, str) and isinstance(rows, int) and isinstance(players, int)):
            raise RecordError("save_damaged")
        moves = sum(1 for char in line if char in "SO")
        empty = not line and not variations and not extra
        return Summary(seq, updated, rows, str(mode), players, moves, EMPTY if empty else 0)
    except RecordError as error:
        return Summary(seq, 0.0, 0, "", 0, 0, NEWER if is_newer(error) else DAMAGED)


def _summary_of(values: object) -> Summary:
    """A :class:`Summary` from its JSON array (raises ValueError/TypeError when it is not one)."""
    if not isinstance(values, list) or len(values) != 7:
        raise ValueError("not a summary")
    seq, updated, rows, mode, players, moves, flags = values
    return Summary(int(seq), float(updated), int(rows), str(mode), int(players), int(moves),
                   int(flags))  # fmt: skip


class LibraryIndex:
    """The index of the stored games, in memory: the folded part (``sos-index``, parsed when
    another tab folded it) with the log (``sos-index-log``, a few KB) on top; each operation
    reads the log and the store's key count (``localStorage.length``), and lists the store's
    key names only when that count is not the one the index was written with (a build without
    the index, or a clear).

    Args:
        store: where the games live.
        new_token: a fresh random token (the stamp of a folded index).
    """

    def __init__(self, store: Store, new_token: Callable[[], str] = new_token) -> None:
        self.store = store
        self._new_token = new_token
        #: Entries found unreadable (by id) by :meth:`~sos.app.saving.library.Library.read` and
        #: :meth:`~sos.app.saving.library.Library.unreadable_entries`.
        self.unreadable: dict[str, Unreadable] = {}
        self._loaded = False
        self._log_raw: str | None = None
        #: The folded index: its stamp ("" for one without), summaries, ids by seq (highest
        #: first), the ids with a flag, whether the key exists, and its ``next``.
        self._stamp: str | None = None
        self._base: dict[str, Summary] = {}
        self._sorted: tuple[list[str], list[str]] | None = None  # _order, _flagged when known
        self._base_present = False
        self._base_next = 1
        #: The log: summaries written since the fold (None: the game was removed).
        self._log: dict[str, Summary | None] = {}
        self._next = 1
        #: The store's key count the index was written with (None: unknown, check the keys).
        self._keys: int | None = None
        #: Ids of the games last deleted by the user (the log keeps :data:`KEEP_DELETED`).
        self._deleted: list[str] = []
        #: False when the stored index is of a newer version: it is then not written.
        self._ours = True
        #: The folded index is of an older version or damaged: fold at the next write.
        self._fold_due = False

    # ------------------------------------------------------------------ the index
    def _load(self) -> None:
        """Bring the index in memory up to date with the store: the log is parsed again when
        its text changed, the folded index only when the log names another one, and the
        store's keys are listed only when their count is not the one the index was written
        with (:meth:`_reconcile`)."""
        raw = self.store.get(LOG_KEY)
        if not self._loaded or raw != self._log_raw:
            self._read_log(raw)
        if self._keys is None or self.store.length() != self._keys:
            self._reconcile()

    def _read_log(self, raw: str | None) -> None:
        self._loaded, self._log_raw, self._ours = True, raw, True
        stamp: str | None = None
        log: dict[str, Summary | None] = {}
        nxt, keys, deleted = 1, None, None
        if raw is not None:
            try:
                data = json.loads(raw)
                if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
                    raise ValueError("not an index log")
                version = data.get("version")
                if version != LOG_VERSION:
                    self._ours = not (isinstance(version, int) and version > LOG_VERSION)
                    raise ValueError("another version")
                stamp, nxt, keys = str(data["index"]), int(data["next"]), int(data["keys"])
                deleted = [str(g) for g in data.get("deleted", [])][-KEEP_DELETED:]
                for game_id, values in data["games"].items():
                    log[str(game_id)] = None if values is None else _summary_of(values)
            except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
                stamp, log, nxt, keys, deleted = None, {}, 1, None, None
        if stamp is None or stamp != self._stamp:
            base_deleted = self._read_base()
            if stamp != self._stamp:  # a log of another folded index (or none): its summaries
                log, keys = {}, None  # are dropped, the key check finds what is missing
            deleted = base_deleted if deleted is None else deleted
        ours = self._ours
        self._log, self._keys, self._next = log, keys, max(nxt, self._base_next)
        self._deleted = deleted or []
        self._ours = ours

    def _read_base(self) -> list[str] | None:
        """Parse ``sos-index`` (a version 1 one is read and folded again as version 2 at the
        next write; a damaged one counts as empty; a newer one is not used and never written).
        Returns the deleted ids a version 1 index held."""
        raw = self.store.get(INDEX_KEY)
        base: dict[str, Summary] = {}
        stamp, nxt, deleted = "", 1, None
        self._fold_due = False
        if raw is not None:
            try:
                data = json.loads(raw)
                if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT:
                    raise ValueError("not an index")
                version = data.get("version")
                if version == 1:  # before the log: its deleted ids, folded again at once
                    deleted = [str(g) for g in data.get("deleted", [])][-KEEP_DELETED:]
                    self._fold_due = True
                elif version != INDEX_VERSION:
                    if isinstance(version, int) and version > INDEX_VERSION:
                        self._ours = False
                    raise ValueError("another version")
                else:
                    stamp = str(data["stamp"])
                nxt = int(data["next"])
                for game_id, values in data["games"].items():
                    base[str(game_id)] = _summary_of(values)
            except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
                base, stamp, nxt, deleted = {}, "", 1, None
                self._fold_due = self._ours
        self._set_base(base, stamp, raw is not None)
        self._base_next = nxt
        return deleted

    def _set_base(self, base: dict[str, Summary], stamp: str, present: bool) -> None:
        self._base, self._stamp, self._base_present = base, stamp, present
        self._sorted = None  # sorted when first needed (a fold does not need it)

    def _sort_base(self) -> tuple[list[str], list[str]]:
        if self._sorted is None:
            base = self._base
            # by the summaries themselves (``seq`` first): a C-level key, no Python call per id
            order = sorted(base, key=base.__getitem__, reverse=True)
            self._sorted = (order, [g for g in order if base[g].flags])
        return self._sorted

    @property
    def _order(self) -> list[str]:
        """The folded ids, highest ``seq`` first."""
        return self._sort_base()[0]

    @property
    def _flagged(self) -> list[str]:
        """The folded ids with a flag, in :attr:`_order`."""
        return self._sort_base()[1]

    def _summary(self, game_id: str) -> Summary | None:
        if game_id in self._log:
            return self._log[game_id]
        return self._base.get(game_id)

    def _drop(self, game_id: str) -> None:
        if game_id in self._base:
            self._log[game_id] = None
        else:
            self._log.pop(game_id, None)

    def _reconcile(self) -> bool:
        """Compare the index with the store's keys: games written without it (by a build
        without the index) are read once and added on top, in the order of their own times;
        summaries of removed keys (another build's delete, a cleared storage) are dropped.
        True when the index changed."""
        keys = {k[len(GAME_PREFIX) :] for k in self.store.keys() if k.startswith(GAME_PREFIX)}  # noqa: SIM118
        gone = [g for g, s in self._log.items() if s is not None and g not in keys]
        gone += [g for g in self._base if g not in keys and g not in self._log]
        for game_id in gone:
            self._drop(game_id)
        found: list[tuple[float, str, str]] = []
        for game_id in keys:
            if self._summary(game_id) is None:
                text = self.store.get(GAME_PREFIX + game_id)
                if text is not None:
                    found.append((light_summary(game_id, text, 0).updated, game_id, text))
        for _updated, game_id, text in sorted(found):
            self._log[game_id] = light_summary(game_id, text, self._next)
            self._next += 1
        changed = bool(gone or found)
        if changed or self._keys != self.store.length():
            self._store_log()
        return changed

    def check_keys(self) -> bool:
        """List the store's keys and bring the index up to date with them, whatever the key
        count says (a build without the index may have removed one game and added another).
        The page calls it once, in idle time after the start. True when the index changed."""
        self._load()
        return self._reconcile()

    def _merged(self) -> dict[str, Summary]:
        merged = {g: s for g, s in self._base.items() if g not in self._log}
        merged.update((g, s) for g, s in self._log.items() if s is not None)
        return merged

    def _store_log(self, strict: bool = False, added: int = 0) -> None:
        """Write the log, with the store's key count once ``added`` more game keys are
        written; fold it into ``sos-index`` first when it holds more than :data:`LOG_MAX`
        summaries (or the folded index is of version 1 or damaged). When the browser refuses,
        the stored log stays as it was and the next read parses it again; with ``strict`` the
        :class:`StorageError` is raised (a game's save: the game is then not written either,
        see :meth:`_write`)."""
        if not self._ours:  # a newer build's index: kept in memory only
            self._keys = self.store.length() + added
            return
        if self._fold_due or len(self._log) > LOG_MAX:
            self._fold()
        length = self.store.length() + added + (0 if self._log_raw is not None else 1)
        games = {g: (None if s is None else list(s)) for g, s in self._log.items()}
        head = {"format": LOG_FORMAT, "version": LOG_VERSION, "index": self._stamp or ""}
        data = {**head, "next": self._next, "keys": length, "games": games}
        raw = json.dumps({**data, "deleted": self._deleted[-KEEP_DELETED:]}, separators=(",", ":"))
        try:
            self.store.set(LOG_KEY, raw)
        except StorageError:
            self._loaded = False  # the stored log is older than the one in memory
            if strict:
                raise
            return
        self._log_raw, self._keys = raw, length

    def _fold(self) -> None:
        """Write the log's summaries into ``sos-index`` (every :data:`LOG_MAX` writes: the one
        write whose cost grows with the library). Refused (storage full): the log grows on."""
        merged = self._merged()
        stamp = self._new_token()
        head = {"format": INDEX_FORMAT, "version": INDEX_VERSION, "stamp": stamp}
        # (a Summary is a tuple: written as the JSON array the index holds)
        raw = json.dumps({**head, "next": self._next, "games": merged}, separators=(",", ":"))
        try:
            self.store.set(INDEX_KEY, raw)
        except StorageError:
            return
        self._set_base(merged, stamp, True)
        self._base_next, self._log, self._fold_due = self._next, {}, False

    def was_deleted(self, game_id: str) -> bool:
        """True when game ``game_id`` is among the last games the user deleted (and not
        written since): a tab that still shows it does not bring it back on its own."""
        self._load()
        return game_id in self._deleted

    def _note(self, record: GameRecord, added: int) -> None:
        """Put ``record`` (about to be written; ``added``: 1 when its key is new) on top of the
        index.

        Raises:
            StorageError: when the browser refused to write the index.
        """
        self._load()
        if record.id in self._deleted:
            self._deleted.remove(record.id)
        self._log[record.id] = summarize(record, self._next)
        self._next += 1
        self._store_log(strict=True, added=added)

    def _noted(self) -> tuple[str | None, str | None, dict[str, Summary | None]]:
        """The index as stored before a write (:meth:`_unnote` puts it back): the folded
        index's stamp, the log's text and a copy of the log's summaries."""
        self._load()
        return self._stamp, self._log_raw, dict(self._log)

    def _unnote(
        self, game_id: str, kept: tuple[str | None, str | None, dict[str, Summary | None]]
    ) -> None:
        """The write of game ``game_id`` was refused after its summary (:meth:`_note`) was
        written: the stored log as it was (it fitted then), or, when the write folded the
        log, the game's earlier summary in a new log. Nothing is raised (at worst the
        summary stays until the game's next write)."""
        stamp, raw, log = kept
        try:
            if stamp == self._stamp and raw is not None:
                self.store.set(LOG_KEY, raw)
            elif stamp == self._stamp:
                self.store.remove(LOG_KEY)
            else:
                old = log.get(game_id, self._base.get(game_id))
                if old is None:
                    self._drop(game_id)
                else:
                    self._log[game_id] = old
                self._store_log()
        except StorageError:
            pass
        self._loaded = False  # read again from the store

    def _mark(self, game_id: str, error: RecordError) -> Unreadable:
        """Note that entry ``game_id`` cannot be read (in memory and in the index)."""
        self._load()
        old = self._summary(game_id)
        kind = "newer" if is_newer(error) else "damaged"
        flag = NEWER if kind == "newer" else DAMAGED
        summary = old or Summary(self._next, 0.0, 0, "", 0, 0, flag)
        if old is None:
            self._next += 1
        if summary.flags != flag:
            summary = summary._replace(flags=flag)
        if old != summary:
            self._log[game_id] = summary
            self._store_log()
        found = Unreadable(game_id, kind, error, summary)
        self.unreadable[game_id] = found
        return found

    def summaries(self) -> dict[str, Summary]:
        """Every stored game's summary by id (a new dict: reads the whole index; the page
        uses :meth:`recent`, :meth:`count` and :meth:`summary`)."""
        self._load()
        return self._merged()

    def summary(self, game_id: str) -> Summary | None:
        """The index's summary of game ``game_id``, or None when it is not stored."""
        self._load()
        return self._summary(game_id)

    def count(self) -> int:
        """How many entries are stored (readable or not)."""
        self._load()
        log, base = self._log, self._base
        return len(base) - sum(1 for g in log if g in base) + sum(1 for s in log.values() if s)

    def _unreadable_of(self, game_id: str, summary: Summary) -> Unreadable:
        text = self.store.get(GAME_PREFIX + game_id) or ""
        try:
            saved_header(text)
            error = RecordError("save_damaged")
        except RecordError as caught:
            error = caught
        return Unreadable(game_id, "newer" if is_newer(error) else "damaged", error, summary)

    def _ordered(self) -> Iterator[str]:
        log, base = self._log, self._base
        top = sorted(((s.seq, g) for g, s in log.items() if s is not None), reverse=True)
        rest = ((base[g].seq, g) for g in self._order if g not in log)
        for _seq, game_id in heapq.merge(top, rest, reverse=True):
            yield game_id

    def recent(self, count: int | None = None, start: int = 0) -> list[str]:
        """The ids of ``count`` stored entries (None: all) from the ``start``-th, most recently
        written first (by :attr:`Summary.seq`). Costs the log's size plus ``start + count``,
        not the library's size (the folded ids are sorted once, when they are read)."""
        self._load()
        stop = None if count is None else start + count
        return list(itertools.islice(self._ordered(), start, stop))
