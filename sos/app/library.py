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

import heapq
import itertools
import json
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Final, NamedTuple, Protocol

from ..notation import Action
from ..rules import InvalidRulesError, Rules, app_allows
from ..state import GameState
from .outcome import ENDING_KEY
from .record import RecordError, board_error, decode_moves, encode_moves

GAME_PREFIX: Final = "sos-g:"
INDEX_KEY: Final = "sos-index"
PREFS_KEY: Final = "sos-prefs"
LEGACY_KEY: Final = "sos-game"
GAME_FORMAT: Final = "sos-game"
GAME_VERSION: Final = 2
INDEX_FORMAT: Final = "sos-index"
INDEX_VERSION: Final = 2
LOG_KEY: Final = "sos-index-log"
LOG_FORMAT: Final = "sos-index-log"
LOG_VERSION: Final = 1
#: Summaries the log holds before they are folded into ``sos-index`` (the one write whose
#: size grows with the library happens once every this many writes).
LOG_MAX: Final = 200
#: The id under which "Your games" lists the first version's save slot (``sos-game``) when it
#: cannot be migrated: not letters and digits only, so never a game's id.
LEGACY_ID: Final = "sos-game"
#: Key of the result a game ended with in ``GameRecord.extra`` (:mod:`sos.app.counted` owns its
#: meaning; a merge of two tabs' writes keeps it).
RESULT_KEY: Final = "result"
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

    def length(self) -> int:
        """How many keys the store holds (``localStorage.length``: no key is read)."""


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

    def length(self) -> int:
        return len(self.data)


#: A line of play: actions in order from the empty board (in the app, "line" means this; a
#: completed S-O-S is an SOS, the engine's :class:`sos.board.Line`, imported as ``SosLine``).
PlayLine = tuple[Action, ...]


def new_token() -> str:
    """A fresh random write token (10 letters and digits; one call for random bits, as an
    import writes thousands)."""
    number, chars = secrets.randbelow(36**10), []
    for _ in range(10):
        number, digit = divmod(number, 36)
        chars.append(_TOKEN_CHARS[digit])
    return "".join(chars)


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
    line: PlayLine = ()
    cursor: int = 0
    variations: tuple[PlayLine, ...] = ()
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

    def lines(self) -> tuple[PlayLine, ...]:
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
        b.rules,
        b.seats,
        b.line,
        b.cursor,
        b.variations,
        b.extra,
        b.origin,
    )


def _kept_result(stored: GameRecord, mine: GameRecord) -> dict[str, object]:
    """``mine.extra``, with the result the stored game ended with (``extra["result"]``, see
    :mod:`sos.app.counted`) and an ending kept in its data (``extra["ending"]``, see
    :mod:`sos.app.outcome`) when only the stored one has them: another tab finished the game."""
    kept: dict[str, object] = {
        key: stored.extra[key]
        for key in (RESULT_KEY, ENDING_KEY)
        if key in stored.extra and key not in mine.extra
    }
    return {**mine.extra, **kept} if kept else mine.extra


def _is_prefix(short: PlayLine, long: PlayLine) -> bool:
    return len(short) <= len(long) and long[: len(short)] == short


def merge_lines(lines: list[PlayLine] | tuple[PlayLine, ...]) -> tuple[PlayLine, ...]:
    """The lines that are not a prefix of another one, in first-seen order, without repeats.

    Every action sequence that was a prefix of one of ``lines`` stays a prefix of a result line.
    """
    kept: list[PlayLine] = []
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
        raise board_error(rules)
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


@dataclass(frozen=True)
class Removed:
    """An entry this version cannot open, removed by the user (:meth:`Library.remove_unreadable`):
    its key's ``id`` and its stored ``text`` byte for byte, for :meth:`Library.put_back`."""

    id: str
    text: str


def _summary_of(values: object) -> Summary:
    """A :class:`Summary` from its JSON array (raises ValueError/TypeError when it is not one)."""
    if not isinstance(values, list) or len(values) != 7:
        raise ValueError("not a summary")
    seq, updated, rows, mode, players, moves, flags = values
    return Summary(int(seq), float(updated), int(rows), str(mode), int(players), int(moves),
                   int(flags))  # fmt: skip


class Library:
    """The saved games of this browser (see the module docstring for the layout).

    The index lives in memory as the folded part (``sos-index``, parsed when another tab folded
    it) with the log (``sos-index-log``, a few KB) on top; each operation reads the log and the
    store's key count (``localStorage.length``), and lists the store's key names only when that
    count is not the one the index was written with (a build without the index, or a clear).

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
        #: Entries found unreadable (by id) by :meth:`read` (and :meth:`unreadable_entries`).
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
                    found.append((_light_summary(game_id, text, 0).updated, game_id, text))
        for _updated, game_id, text in sorted(found):
            self._log[game_id] = _light_summary(game_id, text, self._next)
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
        self._log[record.id] = _summarize(record, self._next)
        self._next += 1
        self._store_log(strict=True, added=added)

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
            _header(text)
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
        # (a game written without its summary would be listed with an old one).
        self._note(written, 1 if new else 0)
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
            self._log[record.id] = _summarize(record, self._next)
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
            written = self._write(replace(record, updated=now, rev=rev), new=found is None)
            return SaveResult("saved", written)
        if isinstance(found, GameRecord):
            if record.holds(found):
                variations = merge_lines([*record.variations, *found.variations])
                variations = tuple(v for v in variations if not _is_prefix(v, record.line))
                written = replace(record, variations=variations, updated=now, rev=found.rev + 1,
                                  extra=_kept_result(found, record))
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
        self._log[game_id] = _light_summary(game_id, removed.text, self._next)
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
                self._log[game_id] = _summarize(found, summary.seq)
                changed = True
        if changed:
            self._store_log()
