"""One saved game, :class:`GameRecord`, and its stored format (``sos-game``, version
:data:`GAME_VERSION`: :func:`dump_game` / :func:`load_game`, every line replayed by the engine),
with the rules of lines of play that saving relies on (:func:`merge_lines`, :func:`is_prefix`).

Where the games are kept (one storage key each, the index, the two-tab rules) is
:mod:`sos.app.saving.library`'s; the format's fields are described in ``docs/saves.md``.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any, Final

from ...notation import Action
from ...rules import InvalidRulesError, Rules, app_allows
from ...state import GameState
from .transcript import RecordError, board_error, decode_moves, encode_moves

GAME_FORMAT: Final = "sos-game"
GAME_VERSION: Final = 2
#: Key of the result a game ended with in ``GameRecord.extra`` (:mod:`sos.app.game.counted` owns its
#: meaning; a merge of two tabs' writes keeps it).
RESULT_KEY: Final = "result"
#: Key of an ending kept in the game's data in ``GameRecord.extra`` (:mod:`sos.app.game.outcome`
#: owns its meaning; a merge of two tabs' writes keeps it).
ENDING_KEY: Final = "ending"
#: Seat kinds a saved game may name (the app's ``SEAT_KINDS``).
SEAT_KINDS: Final = ("human", "easy", "medium", "hard", "perfect")
#: The keys of a game's JSON object that this version reads; any other key is kept as it is
#: and written back (a later version may add fields that this one does not know).
_KNOWN_FIELDS: Final = frozenset(
    {"format", "version", "id", "rows", "cols", "mode", "players", "seats", "line", "cursor"}
    | {"variations", "created", "updated", "rev", "origin", "extra", "token"}
)
_TOKEN_CHARS: Final = "abcdefghijklmnopqrstuvwxyz0123456789"


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
            any(is_prefix(theirs, mine) for mine in self.lines()) for theirs in other.lines()
        )

    def state(self) -> GameState:
        """The position shown (the line replayed up to the cursor)."""
        state = decode_moves(encode_moves(self.line[: self.cursor]), self.rules)
        return state


def same_game(a: GameRecord, b: GameRecord) -> bool:
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


def kept_result(stored: GameRecord, mine: GameRecord) -> dict[str, object]:
    """``mine.extra``, with the result the stored game ended with (``extra["result"]``, see
    :mod:`sos.app.game.counted`) and an ending kept in its data (``extra["ending"]``, see
    :mod:`sos.app.game.outcome`) when only the stored one has them: another tab finished the
    game."""
    kept: dict[str, object] = {
        key: stored.extra[key]
        for key in (RESULT_KEY, ENDING_KEY)
        if key in stored.extra and key not in mine.extra
    }
    return {**mine.extra, **kept} if kept else mine.extra


def is_prefix(short: PlayLine, long: PlayLine) -> bool:
    """True when ``short`` is ``long`` or its beginning."""
    return len(short) <= len(long) and long[: len(short)] == short


def merge_lines(lines: list[PlayLine] | tuple[PlayLine, ...]) -> tuple[PlayLine, ...]:
    """The lines that are not a prefix of another one, in first-seen order, without repeats.

    Every action sequence that was a prefix of one of ``lines`` stays a prefix of a result line.
    """
    kept: list[PlayLine] = []
    for line in lines:
        if any(is_prefix(line, other) for other in kept):
            continue
        kept = [other for other in kept if not is_prefix(other, line)]
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


def saved_number(value: object) -> float:
    """A number field of a saved game (a time in ms) as a float.

    Raises:
        RecordError: ``save_damaged`` for anything but an int or a float.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RecordError("save_damaged")
    return float(value)


def saved_header(text: str) -> dict[str, Any]:
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
    data = saved_header(text)
    try:
        rules = Rules(data["rows"], data["cols"], data["mode"], data["players"])
        seats = tuple(data["seats"])
        game_id, cursor, rev = data["id"], data["cursor"], data["rev"]
        codes = [data["line"], *data.get("variations", [])]
        created, updated = saved_number(data["created"]), saved_number(data["updated"])
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
