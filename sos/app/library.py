"""The library of saved games: several games, each under its own storage key, plus an index of
short summaries, written so that concurrent tabs never write over each other's moves and a
reader never deletes or rewrites what it cannot read. The format and its versioning rule are
described in ``docs/saves.md``.

Storage layout (one ``Store``, in the page ``window.localStorage``)::

    sos-g:<id>   one game (JSON, :data:`GAME_FORMAT` version :data:`GAME_VERSION`)
    sos-index    the summaries of the games (JSON, :data:`INDEX_FORMAT` version
                 :data:`INDEX_VERSION`): a cache, rebuilt from the ``sos-g:`` keys when missing
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

Nothing here deletes a game except :meth:`Library.delete` (the user's choice) and
:meth:`Library.prune_empty` (readable games with no move at all, which hold nothing to lose).
A damaged entry or one of a newer format is never removed or written over: it is listed by
:meth:`Library.unreadable_entries`.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final, NamedTuple, Protocol

from ..notation import Action
from ..rules import InvalidRulesError, Rules, app_allows
from ..state import GameState
from .record import RecordError, decode_moves, encode_moves

GAME_PREFIX: Final = "sos-g:"
INDEX_KEY: Final = "sos-index"
PREFS_KEY: Final = "sos-prefs"
LEGACY_KEY: Final = "sos-game"
GAME_FORMAT: Final = "sos-game"
GAME_VERSION: Final = 2
INDEX_FORMAT: Final = "sos-index"
INDEX_VERSION: Final = 1
#: Seat kinds a saved game may name (the app's ``SEAT_KINDS``).
SEAT_KINDS: Final = ("human", "easy", "medium", "hard", "perfect")
#: The keys of a game's JSON object that this version reads; any other key is kept as it is
#: and written back (a later version may add fields that this one does not know).
_KNOWN_FIELDS: Final = frozenset(
    {"format", "version", "id", "rows", "cols", "mode", "players", "seats", "line", "cursor"}
    | {"variations", "created", "updated", "rev", "origin", "extra", "token"}
)
_TOKEN_CHARS: Final = "abcdefghijklmnopqrstuvwxyz0123456789"


class StorageError(Exception):
    """A write the browser refused. ``kind`` is ``"full"`` (quota exceeded) or ``"refused"``
    (storage blocked: a private mode or a frame without storage access)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class Store(Protocol):
    """A string key-value store with the semantics of ``window.localStorage``."""

    def get(self, key: str) -> str | None:
        """The value under ``key``, or None."""

    def set(self, key: str, value: str) -> None:
        """Write ``value``; raises :class:`StorageError` and changes nothing when refused."""

    def remove(self, key: str) -> None:
        """Forget ``key`` (no error when it is missing)."""

    def keys(self) -> list[str]:
        """Every key in the store."""


class MemoryStore:
    """A :class:`Store` in a dict, with an optional quota in characters (keys + values), as
    browsers count ``localStorage`` use. For tests, and for pages where storage is refused."""

    def __init__(self, quota: int | None = None) -> None:
        self.data: dict[str, str] = {}
        self.quota = quota

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        if self.quota is not None:
            used = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
            if used + len(key) + len(value) > self.quota:
                raise StorageError("full")
        self.data[key] = value

    def remove(self, key: str) -> None:
        self.data.pop(key, None)

    def keys(self) -> list[str]:
        return list(self.data)


Line = tuple[Action, ...]


def new_token() -> str:
    """A fresh random write token (10 letters and digits)."""
    return "".join(secrets.choice(_TOKEN_CHARS) for _ in range(10))


@dataclass(frozen=True)
class GameRecord:
    """One saved game.

    Attributes:
        id: short random id (letters and digits), unique in the library; the URL's ``#g=<id>``.
        rules: board, mode, players.
        seats: one kind per player: ``human`` or a computer level.
        line: the line of play, with the undone tail (redo) included.
        cursor: how many actions of ``line`` are applied to the position shown (0..len(line)).
        variations: other lines kept when a move was played from an earlier position.
        created, updated: milliseconds since the Unix epoch (the device's clock, shown in the
            list; the order of the list is the library's write sequence, not these).
        rev: revision, +1 on every write.
        origin: how it began: ``new``, ``shared`` (a link), ``record`` (an imported text),
            ``link`` (a game link with its id), ``copy`` (a fork kept from another tab), ``saved``
            (migrated from the first version's save).
        extra: data of other features (a game by link's seat and names, a stored review).
        token: the random token of the write this record was read at or written with ("" for
            a record never stored); a write over a stored game expects it
            (:meth:`Library.save`).
        unknown: fields of the stored JSON that this version does not know, written back as
            they are.
    """

    id: str
    rules: Rules
    seats: tuple[str, ...]
    line: Line = ()
    cursor: int = 0
    variations: tuple[Line, ...] = ()
    created: float = 0.0
    updated: float = 0.0
    rev: int = 0
    origin: str = "new"
    extra: dict[str, object] = field(default_factory=dict, compare=False)
    token: str = field(default="", compare=False)
    unknown: dict[str, object] = field(default_factory=dict, compare=False)

    @property
    def moves(self) -> int:
        """Actions applied to the position shown."""
        return self.cursor

    def is_empty(self) -> bool:
        """True for a game in which no move was ever made and that carries nothing else (a
        game by link keeps its seat and names in :attr:`extra`; a local game's names alone,
        which a new game copies from the settings, are nothing to lose)."""
        return not self.line and not self.variations and not (set(self.extra) - {"names"})

    def lines(self) -> tuple[Line, ...]:
        """Every line kept: the current one first, then the variations."""
        return (self.line, *self.variations)

    def same_play(self, other: GameRecord) -> bool:
        """True when ``other`` holds exactly the same lines and cursor."""
        return (
            self.rules == other.rules
            and self.line == other.line
            and self.cursor == other.cursor
            and set(self.variations) == set(other.variations)
        )

    def holds(self, other: GameRecord) -> bool:
        """True when every line of ``other`` is a prefix of a line of this record (same rules):
        writing this record over ``other`` loses none of its moves."""
        return self.rules == other.rules and all(
            any(_is_prefix(theirs, mine) for mine in self.lines()) for theirs in other.lines()
        )

    def state(self) -> GameState:
        """The position shown (the line replayed up to the cursor)."""
        state = decode_moves(encode_moves(self.line[: self.cursor]), self.rules)
        return state


def _same_game(a: GameRecord, b: GameRecord) -> bool:
    """True when two versions hold the same game (times and revision aside)."""
    return (a.rules, a.seats, a.line, a.cursor, a.variations, a.extra, a.origin) == (
        b.rules, b.seats, b.line, b.cursor, b.variations, b.extra, b.origin
    )


def _is_prefix(short: Line, long: Line) -> bool:
    return len(short) <= len(long) and long[: len(short)] == short


def merge_lines(lines: list[Line] | tuple[Line, ...]) -> tuple[Line, ...]:
    """The lines that are not a prefix of another one, in first-seen order, without repeats.

    Every action sequence that was a prefix of one of ``lines`` stays a prefix of a result line.
    """
    kept: list[Line] = []
    for line in lines:
        if any(_is_prefix(line, other) for other in kept):
            continue
        kept = [other for other in kept if not _is_prefix(other, line)]
        kept.append(line)
    return tuple(kept)


def dump_game(record: GameRecord) -> str:
    """JSON text of ``record`` with its format name and version (and any fields of a later
    version that it was read with, unchanged)."""
    data: dict[str, object] = dict(record.unknown)
    data.update(
        {
            "format": GAME_FORMAT,
            "version": GAME_VERSION,
            "id": record.id,
            "rows": record.rules.rows,
            "cols": record.rules.cols,
            "mode": record.rules.mode,
            "players": record.rules.players,
            "seats": list(record.seats),
            "line": encode_moves(record.line),
            "cursor": record.cursor,
            "variations": [encode_moves(v) for v in record.variations],
            "created": record.created,
            "updated": record.updated,
            "rev": record.rev,
            "origin": record.origin,
        }
    )
    if record.extra:
        data["extra"] = record.extra
    if record.token:
        data["token"] = record.token
    return json.dumps(data, separators=(",", ":"))


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RecordError("save_damaged")
    return float(value)


def _header(text: str) -> dict[str, Any]:
    """The JSON object of a saved game of this version, its format and version checked.

    Raises:
        RecordError: ``save_unreadable`` (not JSON: e.g. cut), ``save_not_sos`` (another
            format), ``save_version`` (another version; ``params["version"]`` says which).
    """
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise RecordError("save_unreadable") from None
    if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
        raise RecordError("save_not_sos")
    if data.get("version") != GAME_VERSION:
        raise RecordError("save_version", version=repr(data.get("version")))
    return data


def is_newer(error: RecordError) -> bool:
    """True when ``error`` says the save was written by a newer version of the format (a
    whole version number above :data:`GAME_VERSION`): reloading the page may update the app."""
    version = error.params.get("version") if error.key == "save_version" else None
    try:
        return isinstance(version, str) and int(version) > GAME_VERSION
    except ValueError:
        return False


def load_game(text: str) -> GameRecord:
    """Read and check one saved game (every line is replayed by the engine).

    Raises:
        RecordError: for text that is not a valid game of this version (corrupt JSON, another
            format or version, wrong types, a board the app does not offer, illegal moves).
    """
    data = _header(text)
    try:
        rules = Rules(data["rows"], data["cols"], data["mode"], data["players"])
        seats = tuple(data["seats"])
        game_id, cursor, rev = data["id"], data["cursor"], data["rev"]
        codes = [data["line"], *data.get("variations", [])]
        created, updated = _number(data["created"]), _number(data["updated"])
        origin = str(data.get("origin", "new"))
        extra = data.get("extra", {})
        token = data.get("token", "")
    except (KeyError, TypeError, InvalidRulesError):
        raise RecordError("save_damaged") from None
    if not app_allows(rules):
        raise RecordError("save_damaged")
    if not isinstance(game_id, str) or not game_id.isalnum() or len(game_id) > 32:
        raise RecordError("save_damaged")
    if not isinstance(token, str) or len(token) > 64:
        raise RecordError("save_damaged")
    if len(seats) != rules.players or not all(s in SEAT_KINDS for s in seats):
        raise RecordError("save_seats")
    for number in (cursor, rev):
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise RecordError("save_cursor")
    if not isinstance(extra, dict):
        raise RecordError("save_damaged")
    lines = tuple(decode_moves(code, rules).history for code in codes)
    if cursor > len(lines[0]):
        raise RecordError("save_cursor")
    unknown = {k: v for k, v in data.items() if k not in _KNOWN_FIELDS}
    return GameRecord(
        game_id,
        rules,
        seats,
        lines[0],
        cursor,
        lines[1:],
        created,
        updated,
        rev,
        origin,
        extra,
        token,
        unknown,
    )


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


def _summarize(record: GameRecord, seq: int) -> Summary:
    return Summary(
        seq,
        record.updated,
        record.rules.rows,
        record.rules.mode,
        record.rules.players,
        len(record.line),
        EMPTY if record.is_empty() else 0,
    )


def _light_summary(game_id: str, text: str, seq: int) -> Summary:
    """The summary of a stored game from its JSON alone (no replay: fast, for building the
    index); flags say when it cannot be opened."""
    try:
        data = _header(text)
        if data.get("id") != game_id:
            raise RecordError("save_damaged")
        line, variations, extra = data.get("line"), data.get("variations", []), data.get("extra")
        rows, players, mode = data.get("rows"), data.get("players"), data.get("mode")
        updated = _number(data.get("updated"))
        if not (isinstance(line, str) and isinstance(rows, int) and isinstance(players, int)):
            raise RecordError("save_damaged")
        moves = sum(1 for char in line if char in "SO")
        empty = not line and not variations and not extra
        return Summary(seq, updated, rows, str(mode), players, moves, EMPTY if empty else 0)
    except RecordError as error:
        return Summary(seq, 0.0, 0, "", 0, 0, NEWER if is_newer(error) else DAMAGED)


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


class Library:
    """The saved games of this browser (see the module docstring for the layout).

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
        self.store = store
        self.clock = clock
        self._new_id = new_id
        self._new_token = new_token
        #: Entries found unreadable (by id) since the last :meth:`summaries` call.
        self.unreadable: dict[str, Unreadable] = {}
        self._index_raw: str | None = None
        self._index: dict[str, Summary] = {}
        self._next = 1
        #: Ids of the games last deleted by the user (the index keeps :data:`KEEP_DELETED`).
        self._deleted: list[str] = []
        #: False when the stored index is of a newer version: it is then not written.
        self._index_ours = True

    # ------------------------------------------------------------------ the index
    def _load_index(self) -> dict[str, Summary]:
        """The stored index (parsed again only when its text changed); a damaged one counts
        as empty, a newer one is read for nothing and never written."""
        raw = self.store.get(INDEX_KEY)
        if raw == self._index_raw and raw is not None:
            return self._index
        self._index_raw, self._index, self._next, self._index_ours = raw, {}, 1, True
        self._deleted = []
        if raw is None:
            return self._index
        try:
            data = json.loads(raw)
            if data.get("format") != INDEX_FORMAT:
                raise ValueError("not an index")
            version = data.get("version")
            if not isinstance(version, int) or version != INDEX_VERSION:
                self._index_ours = not (isinstance(version, int) and version > INDEX_VERSION)
                raise ValueError("another version")
            games = data["games"]
            self._next = int(data["next"])
            self._deleted = [str(g) for g in data.get("deleted", [])][-KEEP_DELETED:]
            for game_id, values in games.items():
                seq, updated, rows, mode, players, moves, flags = values
                self._index[game_id] = Summary(
                    int(seq), float(updated), int(rows), str(mode), int(players), int(moves),
                    int(flags),
                )  # fmt: skip
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            self._index, self._next, self._deleted = {}, 1, []
        return self._index

    def _store_index(self, strict: bool = False) -> None:
        """Write the index. When the browser refuses, the stored one stays as it was (the key
        scan of :meth:`summaries` finds games added or removed behind it) and the next read
        parses it again; with ``strict`` the :class:`StorageError` is raised (a game's save:
        the game is then not written either, see :meth:`_write`)."""
        if not self._index_ours:
            return
        games = {k: list(v) for k, v in self._index.items()}
        data = {"format": INDEX_FORMAT, "version": INDEX_VERSION, "next": self._next}
        raw = json.dumps(
            {**data, "games": games, "deleted": self._deleted[-KEEP_DELETED:]},
            separators=(",", ":"),
        )
        try:
            self.store.set(INDEX_KEY, raw)
        except StorageError:
            self._index_raw = None  # the stored one is older than the one in memory
            if strict:
                raise
            return
        self._index_raw = raw

    def was_deleted(self, game_id: str) -> bool:
        """True when game ``game_id`` is among the last games the user deleted (and not
        written since): a tab that still shows it does not bring it back on its own."""
        self._load_index()
        return game_id in self._deleted

    def _note(self, record: GameRecord) -> None:
        """Put ``record`` (about to be written) on top of the index.

        Raises:
            StorageError: when the browser refused to write the index.
        """
        self._load_index()
        if record.id in self._deleted:
            self._deleted.remove(record.id)
        self._index[record.id] = _summarize(record, self._next)
        self._next += 1
        self._store_index(strict=True)

    def _mark(self, game_id: str, error: RecordError) -> Unreadable:
        """Note that entry ``game_id`` cannot be read (in memory and in the index)."""
        index = self._load_index()
        old = index.get(game_id)
        kind = "newer" if is_newer(error) else "damaged"
        flag = NEWER if kind == "newer" else DAMAGED
        summary = old or Summary(self._next, 0.0, 0, "", 0, 0, flag)
        if old is None:
            self._next += 1
        if summary.flags != flag:
            summary = summary._replace(flags=flag)
        if index.get(game_id) != summary:
            index[game_id] = summary
            self._store_index()
        found = Unreadable(game_id, kind, error, summary)
        self.unreadable[game_id] = found
        return found

    def summaries(self) -> dict[str, Summary]:
        """Every stored game's summary by id: the index, brought up to date with the store's
        keys (games written without it are read once, summaries of removed keys dropped).
        Reads the values of the new keys only."""
        index = self._load_index()
        keys = {k[len(GAME_PREFIX) :] for k in self.store.keys() if k.startswith(GAME_PREFIX)}  # noqa: SIM118
        changed = False
        for game_id in [g for g in index if g not in keys]:
            del index[game_id]
            changed = True
        # New keys in the order of their own times, below the ones already indexed.
        found: list[tuple[float, str, str]] = []
        for game_id in keys - index.keys():
            text = self.store.get(GAME_PREFIX + game_id)
            if text is not None:
                found.append((_light_summary(game_id, text, 0).updated, game_id, text))
        for _updated, game_id, text in sorted(found):
            index[game_id] = _light_summary(game_id, text, self._next)
            self._next += 1
            changed = True
        self.unreadable = {
            g: self.unreadable.get(g) or self._unreadable_of(g, s)
            for g, s in index.items()
            if s.flags & (NEWER | DAMAGED)
        }
        if changed:
            self._store_index()
        return index

    def _unreadable_of(self, game_id: str, summary: Summary) -> Unreadable:
        text = self.store.get(GAME_PREFIX + game_id) or ""
        try:
            _header(text)
            error = RecordError("save_damaged")
        except RecordError as caught:
            error = caught
        return Unreadable(game_id, "newer" if is_newer(error) else "damaged", error, summary)

    def recent(self) -> list[str]:
        """The ids of every stored game, most recently written first (by :attr:`Summary.seq`)."""
        index = self.summaries()
        return sorted(index, key=lambda g: index[g].seq, reverse=True)

    # ------------------------------------------------------------------ reading
    def fresh_id(self) -> str:
        """An id no stored game has."""
        while True:
            game_id = self._new_id()
            if self.store.get(GAME_PREFIX + game_id) is None:
                return game_id

    def raw(self, game_id: str) -> str | None:
        """The stored text of game ``game_id`` as it is (for copying a damaged one), or None."""
        return self.store.get(GAME_PREFIX + game_id)

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
        """The entries this version cannot open, most recent first (after :meth:`summaries`)."""
        return sorted(self.unreadable.values(), key=lambda u: u.summary.seq, reverse=True)

    # ------------------------------------------------------------------ writing
    def _write(self, record: GameRecord) -> GameRecord:
        """Write ``record`` with a new token and note it in the index."""
        written = replace(record, token=self._new_token())
        text = dump_game(written)
        # The index first: when storage is full, neither is written and the page says so
        # (a game written without its summary would be listed with an old one).
        self._note(written)
        self.store.set(GAME_PREFIX + record.id, text)
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
        return self._write(stored)

    def save(self, record: GameRecord) -> SaveResult:
        """Write ``record``, which was read (or last written) with token ``record.token``.
        A record that holds just what is stored (:func:`_same_game`) is not written
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
        if isinstance(found, GameRecord) and _same_game(found, record):
            return SaveResult("saved", found)  # nothing new: its time and place stay
        if found is None or (isinstance(found, GameRecord) and found.token == record.token):
            rev = found.rev + 1 if found is not None else record.rev + 1
            return SaveResult("saved", self._write(replace(record, updated=now, rev=rev)))
        if isinstance(found, GameRecord):
            if record.holds(found):
                variations = merge_lines([*record.variations, *found.variations])
                variations = tuple(v for v in variations if not _is_prefix(v, record.line))
                written = replace(record, variations=variations, updated=now, rev=found.rev + 1)
                status = "saved" if found.same_play(record) else "merged"
                return SaveResult(status, self._write(written))
            if found.holds(record):
                return SaveResult("followed", found)
        copy = replace(record, id="", origin="copy", created=0.0, unknown={})
        return SaveResult("forked", self.create(copy))

    def delete(self, game_id: str) -> GameRecord | None:
        """Remove game ``game_id`` (the user's choice); returns it (for an undo) or None."""
        record = self.get(game_id)
        self.store.remove(GAME_PREFIX + game_id)
        self._load_index().pop(game_id, None)
        self._deleted.append(game_id)
        self._store_index()
        return record

    def undelete(self, record: GameRecord) -> GameRecord:
        """Put back a game removed by :meth:`delete` (same id unless that id was taken since,
        a new revision).

        Raises:
            StorageError: when the browser refused the write.
        """
        if self.store.get(GAME_PREFIX + record.id) is not None:
            return self.create(replace(record, id=""))
        return self._write(replace(record, rev=record.rev + 1))

    def prune_empty(self, keep: str) -> None:
        """Remove the readable games with no move, except ``keep``: they hold nothing to lose.
        Reads only the games the index marks empty (each is read again before removal)."""
        index = self._load_index()
        removed = False
        for game_id in [g for g, s in index.items() if s.flags & EMPTY and g != keep]:
            record = self.get(game_id)
            if record is not None and record.is_empty():
                self.store.remove(GAME_PREFIX + game_id)
                index.pop(game_id, None)
                removed = True
            elif record is not None:  # a stale summary (a build without the index wrote it)
                index[game_id] = _summarize(record, index[game_id].seq)
                removed = True
        if removed:
            self._store_index()
