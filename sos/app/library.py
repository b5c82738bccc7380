"""The library of saved games: several games, each under its own storage key, written with a
compare-and-set on a revision number so that two tabs never write over each other's moves.

Storage layout (one ``Store``, in the page ``window.localStorage``)::

    sos-g:<id>   one game (JSON, :data:`GAME_FORMAT` version :data:`GAME_VERSION`)
    sos-prefs    the preferences (language, theme, letter)
    sos-game     the single save slot of the first version (read once, migrated, removed)

Why ``localStorage`` and not IndexedDB: a game is a few hundred bytes (a full 12x12 game is
under 1 KB), so the 5 MB quota holds thousands; it is synchronous, so a move is saved before
the event handler returns (nothing is pending when the tab closes); it fires the ``storage``
event in the other tabs of the origin, which is how a tab follows a game another tab changed;
and it is available wherever IndexedDB is (both are blocked together in a cross-site frame
with third-party storage blocked, and both work in private windows). One key per game keeps a
write small and lets one damaged or refused entry never touch the others.

Nothing here deletes a game except :meth:`Library.delete` (the user's choice) and
:meth:`Library.prune_empty` (games with no move at all, which hold nothing to lose).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Final, Protocol

from ..notation import Action
from ..rules import InvalidRulesError, Rules, app_allows
from ..state import GameState
from .record import RecordError, decode_moves, encode_moves

GAME_PREFIX: Final = "sos-g:"
PREFS_KEY: Final = "sos-prefs"
LEGACY_KEY: Final = "sos-game"
GAME_FORMAT: Final = "sos-game"
GAME_VERSION: Final = 2
#: Seat kinds a saved game may name (the app's ``SEAT_KINDS``).
SEAT_KINDS: Final = ("human", "easy", "medium", "hard", "perfect")


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
        created, updated: milliseconds since the Unix epoch.
        rev: revision, +1 on every write; a write expects the revision it was read at.
        origin: how it began: ``new``, ``shared`` (a link), ``record`` (an imported text),
            ``link`` (a game link with its id), ``copy`` (a fork kept from another tab), ``saved``
            (migrated from the first version's save).
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

    def state(self) -> GameState:
        """The position shown (the line replayed up to the cursor)."""
        state = decode_moves(encode_moves(self.line[: self.cursor]), self.rules)
        return state


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
    """JSON text of ``record`` with its format name and version."""
    return json.dumps(
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
            **({"extra": record.extra} if record.extra else {}),
        },
        separators=(",", ":"),
    )


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RecordError("save_damaged")
    return float(value)


def load_game(text: str) -> GameRecord:
    """Read and check one saved game (every line is replayed by the engine).

    Raises:
        RecordError: for text that is not a valid game of this version (corrupt JSON, another
            format or version, wrong types, a board the app does not offer, illegal moves).
    """
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        raise RecordError("save_unreadable") from None
    if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
        raise RecordError("save_not_sos")
    if data.get("version") != GAME_VERSION:
        raise RecordError("save_version", version=repr(data.get("version")))
    try:
        rules = Rules(data["rows"], data["cols"], data["mode"], data["players"])
        seats = tuple(data["seats"])
        game_id, cursor, rev = data["id"], data["cursor"], data["rev"]
        codes = [data["line"], *data.get("variations", [])]
        created, updated = _number(data["created"]), _number(data["updated"])
        origin = str(data.get("origin", "new"))
        extra = data.get("extra", {})
    except (KeyError, TypeError, InvalidRulesError):
        raise RecordError("save_damaged") from None
    if not app_allows(rules):
        raise RecordError("save_damaged")
    if not isinstance(game_id, str) or not game_id.isalnum() or len(game_id) > 32:
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
    return GameRecord(
        game_id, rules, seats, lines[0], cursor, lines[1:], created, updated, rev, origin, extra
    )


@dataclass
class SaveResult:
    """What :meth:`Library.save` did.

    ``status``: ``saved`` (written), ``merged`` (another tab had changed the game, ours extends
    theirs: written with both kept), ``followed`` (another tab's line already holds ours: theirs
    is kept and returned, nothing written), ``forked`` (the lines disagree: ours was written as
    a new game, ``record.id`` is the copy's id). ``record`` is what is stored now.
    """

    status: str
    record: GameRecord


class Library:
    """The saved games of this browser (see the module docstring for the layout)."""

    def __init__(
        self, store: Store, clock: Callable[[], float], new_id: Callable[[], str]
    ) -> None:
        self.store = store
        self.clock = clock
        self._new_id = new_id
        #: Keys whose text could not be read at the last :meth:`entries` call, with the error.
        self.damaged: dict[str, RecordError] = {}

    def fresh_id(self) -> str:
        """An id no stored game has."""
        while True:
            game_id = self._new_id()
            if self.store.get(GAME_PREFIX + game_id) is None:
                return game_id

    def get(self, game_id: str) -> GameRecord | None:
        """The stored game ``game_id``, or None (missing or damaged)."""
        text = self.store.get(GAME_PREFIX + game_id)
        if text is None:
            return None
        try:
            record = load_game(text)
        except RecordError as error:
            self.damaged[GAME_PREFIX + game_id] = error
            return None
        return record if record.id == game_id else None

    def entries(self) -> list[GameRecord]:
        """Every readable game, most recently updated first; unreadable keys go to
        :attr:`damaged` (they are left in the store: :meth:`drop_damaged` removes them)."""
        found: list[GameRecord] = []
        self.damaged = {}
        for key in list(self.store.keys()):
            if not key.startswith(GAME_PREFIX):
                continue
            record = self.get(key[len(GAME_PREFIX) :])
            if record is not None:
                found.append(record)
            elif key not in self.damaged:
                self.damaged[key] = RecordError("save_damaged")
        found.sort(key=lambda r: (r.updated, r.created), reverse=True)
        return found

    def drop_damaged(self) -> None:
        """Remove the unreadable keys found by the last :meth:`entries`."""
        for key in self.damaged:
            self.store.remove(key)
        self.damaged = {}

    def create(self, record: GameRecord) -> GameRecord:
        """Write a new game (rev 1, created and updated now, a fresh id if it has none).

        Raises:
            StorageError: when the browser refused the write (nothing is written).
        """
        now = self.clock()
        game_id = record.id or self.fresh_id()
        stored = replace(record, id=game_id, created=record.created or now, updated=now, rev=1)
        self.store.set(GAME_PREFIX + game_id, dump_game(stored))
        return stored

    def save(self, record: GameRecord) -> SaveResult:
        """Write ``record``, which was read (or last written) at revision ``record.rev``.

        When the stored revision is another one, another tab changed the game meanwhile: if
        each of its lines is a prefix of one of ours, ours is written with both sides' lines
        kept (``merged``); if each of ours is a prefix of one of its lines, nothing is written
        and the stored game is returned (``followed``); otherwise ours is written as a new game
        (``forked``). No move of either side is lost.

        Raises:
            StorageError: when the browser refused the write (the stored game is unchanged).
        """
        key = GAME_PREFIX + record.id
        stored = self.get(record.id)
        now = self.clock()
        if stored is None or stored.rev == record.rev:
            rev = stored.rev + 1 if stored else record.rev + 1
            written = replace(record, updated=now, rev=rev)
            self.store.set(key, dump_game(written))
            return SaveResult("saved", written)
        if stored.rules == record.rules and all(
            any(_is_prefix(theirs, mine) for mine in record.lines()) for theirs in stored.lines()
        ):
            variations = merge_lines([*record.variations, *stored.variations])
            variations = tuple(v for v in variations if not _is_prefix(v, record.line))
            written = replace(record, variations=variations, updated=now, rev=stored.rev + 1)
            self.store.set(key, dump_game(written))
            return SaveResult("merged", written)
        if stored.rules == record.rules and all(
            any(_is_prefix(mine, theirs) for theirs in stored.lines()) for mine in record.lines()
        ):
            return SaveResult("followed", stored)
        copy = replace(record, id="", origin="copy", created=0.0)
        return SaveResult("forked", self.create(copy))

    def delete(self, game_id: str) -> GameRecord | None:
        """Remove game ``game_id``; returns it (for an undo of the delete) or None."""
        record = self.get(game_id)
        self.store.remove(GAME_PREFIX + game_id)
        return record

    def undelete(self, record: GameRecord) -> GameRecord:
        """Put back a game removed by :meth:`delete` (same id, a new revision).

        Raises:
            StorageError: when the browser refused the write.
        """
        stored = replace(record, rev=record.rev + 1)
        self.store.set(GAME_PREFIX + record.id, dump_game(stored))
        return stored

    def prune_empty(self, keep: str) -> None:
        """Remove the games with no move, except ``keep``: they hold nothing to lose."""
        for record in self.entries():
            if record.id != keep and record.is_empty():
                self.store.remove(GAME_PREFIX + record.id)
