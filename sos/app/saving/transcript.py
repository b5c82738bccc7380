"""Texts a game is read from and written to: the transcript (the page's "Game record": the text
export/import format), the compact ``game=`` share code, and the first version's single save
(``sos-save``, read once to migrate it). A saved game of the library, a ``GameRecord``, is
:mod:`sos.app.saving.gamerecord`'s; :class:`RecordError` is the error of any record that cannot be
read (a saved game, a transcript, a share code).

Transcript (export and import)::

    SOS 6x6 general, 2 players
    # names: ["Anna", ""]
    1. S@a1
    2. O@b1
    3. S@c1 S@d2
    ...

The header names the board, the mode and the number of players; each numbered line is one
player's turn, starting with seat 1 and following the extra-turn rule: a turn holds every
action of that player until one scores nothing (or the game ends). Blank lines and text after
``#`` are ignored; one such comment, ``# names:`` and a JSON array of one string per seat
(``""`` for a seat without a name), carries the players' names (:func:`transcript_names`), and
a reader that knows nothing of it skips it like any comment. The compact share code writes
the actions without separators: ``Sa1Ob1Sc1``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from ...notation import Action, InvalidNotationError, square_name
from ...rules import MAX_APP_SIZE, MIN_APP_SIZE, InvalidRulesError, Mode, Rules
from ...state import GameState, IllegalActionError, new_game
from ..text.message import Message

SAVE_FORMAT: Final = "sos-save"
SAVE_VERSION: Final = 1
MAX_RECORD_CHARS: Final = 20_000

#: The header is the file format and is written in English; a German header ("SOS 6x6 normal,
#: 2 Spieler", modes "normal"/"einfach", the page's names for general/simple) is read too.
_HEADER_RE = re.compile(
    r"^SOS\s+(\d{1,2})\s*[x×]\s*(\d{1,2})\s+(general|simple|normal|einfach)\s*,"
    r"\s*([2-4])\s+(?:players|spieler)$",
    re.IGNORECASE,
)
_MODE_WORDS: Final = {"general": "general", "simple": "simple", "normal": "general",
                      "einfach": "simple"}
_TURN_RE = re.compile(r"^(\d+)\.\s+(.+)$")
_NAMES_RE = re.compile(r"^#\s*names:(.*)$", re.IGNORECASE)
_CODE_RE = re.compile(r"([SO])([a-z])(\d{1,2})")


class RecordError(ValueError):
    """A record that cannot be read: a saved game, a transcript or a share code.

    The message is English; :meth:`reason_in` gives it in the page's language.

    Attributes:
        key: what is wrong, an i18n key under ``record.reason.`` (e.g. ``"turn_order"``).
        params: the values for that message's placeholders.
        line: the 1-based line of the transcript at fault, or ``None``.
        turn: the number written at the start of that line ("2." of ``2. X@z9``: the turn as
            the player reads it) when the fault is in a numbered turn, else ``None``.
        reason: the English message, without the line number.
    """

    def __init__(
        self, key: str, line: int | None = None, turn: int | None = None, **params: object
    ) -> None:
        self.key = key
        self.params = params
        self.line = line
        self.turn = turn
        self.reason = self.reason_in("en")
        super().__init__(f"line {line}: {self.reason}" if line is not None else self.reason)

    def reason_in(self, lang: str) -> str:
        """The message (without the line number) in ``lang``."""
        return self.message.text(lang)

    @property
    def message(self) -> Message:
        """The reason (without the line number), translated when shown."""
        return Message(f"record.reason.{self.key}", tuple(self.params.items()))


def board_error(rules: Rules) -> RecordError:
    """The one error of a board the app does not play (:func:`sos.rules.app_allows`), for a
    saved game and an imported transcript alike (``save_board``: its size, and the app's
    limits from :mod:`sos.rules`)."""
    return RecordError(
        "save_board", rows=rules.rows, cols=rules.cols, min=MIN_APP_SIZE, max=MAX_APP_SIZE
    )


@dataclass(frozen=True)
class Turn:
    """One player's turn: the consecutive actions of one seat, with the points of each."""

    number: int
    player: int
    plies: tuple[tuple[int, Action, int], ...]  # (index in history, action, points scored)


def turns(state: GameState) -> list[Turn]:
    """The history of ``state`` grouped into turns (a scoring action continues the turn)."""
    result: list[Turn] = []
    current: list[tuple[int, Action, int]] = []
    player = -1
    for index, record in enumerate(state.records):
        if current and record.player != player:
            result.append(Turn(len(result) + 1, player, tuple(current)))
            current = []
        if not current:
            player = record.player
        current.append((index, record.action, len(record.lines)))
        if not record.lines:  # a quiet action ends the turn
            result.append(Turn(len(result) + 1, player, tuple(current)))
            current = []
    if current:
        result.append(Turn(len(result) + 1, player, tuple(current)))
    return result


def header(rules: Rules) -> str:
    """The first line of a transcript, e.g. ``"SOS 6x6 general, 2 players"``."""
    return f"SOS {rules.rows}x{rules.cols} {rules.mode}, {rules.players} players"


class Ended(Protocol):
    """What a transcript states of a finished game (:class:`sos.app.game.outcome.GameOutcome`)."""

    @property
    def termination(self) -> str: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def by(self) -> int | None: ...


def format_transcript(
    state: GameState, outcome: Ended | None = None, names: Sequence[str] = ()
) -> str:
    """The transcript of the game played in ``state`` (from its empty board).

    Args:
        names: the players' names, one per seat (``""`` for a seat without one); written as
            the ``# names: [...]`` comment after the header when any is given.
        outcome: the game's outcome (:attr:`sos.app.game.session.GameSession.outcome`); when the
            game is over, a last comment line states it with the ending's name
            (:data:`sos.app.game.outcome.ENDINGS`) and the player who made it, if one did, e.g.
            ``# result: player 1 wins, scores 5-3 (full board)`` or ``… (resign by player
            2)`` (:func:`parse_transcript` skips comments).
    """
    lines = [header(state.rules)]
    if any(names):
        lines.append("# names: " + json.dumps(list(names), ensure_ascii=False))
    for turn in turns(state):
        lines.append(f"{turn.number}. " + " ".join(str(action) for _, action, _ in turn.plies))
    if outcome is not None:
        who = "draw" if outcome.winner is None else f"player {outcome.winner + 1} wins"
        scores = "-".join(str(score) for score in outcome.scores)
        why = outcome.termination.replace("_", " ")
        if outcome.by is not None:
            why += f" by player {outcome.by + 1}"
        lines.append(f"# result: {who}, scores {scores} ({why})")
    return "\n".join(lines) + "\n"


def parse_transcript(text: str) -> GameState:
    """Read a transcript and replay it.

    Returns:
        The game after the last action.

    Raises:
        RecordError: with the line number of the first problem (bad header, bad action text,
            an illegal action, a turn number out of order).
    """
    if not isinstance(text, str) or not text.strip():
        raise RecordError("empty")
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError("too_long", limit=MAX_RECORD_CHARS)
    state: GameState | None = None
    expected_turn = 1
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if state is None:
            match = _HEADER_RE.match(line)
            if match is None:
                raise RecordError("header", number)
            rows, cols, mode, players = match.groups()
            try:
                mode_value: Mode = "simple" if _MODE_WORDS[mode.lower()] == "simple" else "general"
                state = new_game(Rules(int(rows), int(cols), mode_value, int(players)))
            except InvalidRulesError:
                raise RecordError("rules", number, rows=rows, cols=cols, players=players) from None
            continue
        match = _TURN_RE.match(line)
        if match is None:
            raise RecordError("turn_format", number, text=line)
        if int(match.group(1)) != expected_turn:
            raise RecordError("turn_order", number, expected=expected_turn, got=match.group(1))
        expected_turn += 1
        for word in match.group(2).split():
            try:
                action = Action.parse(word)
            except InvalidNotationError:
                raise RecordError("notation", number, expected_turn - 1, text=word) from None
            try:
                state.apply(action)
            except IllegalActionError:
                raise _illegal(state, action, number, expected_turn - 1) from None
    if state is None:
        raise RecordError("no_header")
    return state


def transcript_names(text: str, players: int) -> tuple[str, ...] | None:
    """The players' names a transcript carries: its first ``# names: [...]`` comment, a JSON
    array of ``players`` strings (``""`` for a seat without a name). ``()`` when there is no
    such line; ``None`` when there is one but it is not such an array (damaged, or for another
    player count): the record still loads (it is a comment to :func:`parse_transcript`), and
    the importer says the names were not read. The names are as written; the caller cleans
    them (length, spaces: :func:`sos.app.share.players.with_names`)."""
    for raw in text.splitlines()[:3]:  # the line after the header (a blank line allowed)
        match = _NAMES_RE.match(raw.strip())
        if match is None:
            continue
        return names_from_json(match.group(1), players)
    return ()


def names_from_json(raw: str, players: int) -> tuple[str, ...] | None:
    """The names of ``raw``, a JSON array of ``players`` strings (the ``# names:`` line's and a
    shared link's ``names`` value), else None. The names are as written."""
    try:
        names = json.loads(raw)
    except ValueError:
        return None
    if (
        isinstance(names, list)
        and len(names) == players
        and all(isinstance(name, str) for name in names)
    ):
        return tuple(names)
    return None


def _illegal(state: GameState, action: Action, line: int, turn: int) -> RecordError:
    """Why ``action`` (in the turn numbered ``turn``, on ``line``) was refused
    (:meth:`GameState.apply` raised IllegalActionError): no move is legal any more (the game
    is over), the square is off the board, or taken."""
    rules = state.rules
    if not state.legal_actions():
        return RecordError("over", line, turn, action=str(action))
    if not (0 <= action.row < rules.rows and 0 <= action.col < rules.cols):
        return RecordError(
            "off_board", line, turn, action=str(action), rows=rules.rows, cols=rules.cols
        )
    square = square_name(action.row, action.col)
    return RecordError("taken", line, turn, action=str(action), square=square)


def encode_moves(actions: tuple[Action, ...] | list[Action]) -> str:
    """The compact share code of ``actions``: ``"Sa1Ob1"`` (letter, column, row)."""
    return "".join(f"{a.letter}{chr(ord('a') + a.col)}{a.row + 1}" for a in actions)


def decode_moves(code: str, rules: Rules) -> GameState:
    """Replay a share code under ``rules``.

    Raises:
        RecordError: for text that is not a sequence of actions, or an illegal action.
    """
    if not isinstance(code, str):
        raise RecordError("share_not_text")
    if len(code) > 4 * rules.cells:
        raise RecordError("share_too_long")
    state = new_game(rules)
    position = 0
    for number, match in enumerate(_CODE_RE.finditer(code), start=1):
        if match.start() != position:
            raise RecordError("share_unreadable", position=position + 1)
        position = match.end()
        letter, col, row = match.groups()
        action = Action(int(row) - 1, ord(col) - ord("a"), letter)
        try:
            state.apply(action)
        except IllegalActionError:
            raise RecordError("share_illegal", number=number, action=str(action)) from None
    if position != len(code):
        raise RecordError("share_unreadable", position=position + 1)
    return state


@dataclass(frozen=True)
class SavedGame:
    """What is kept in ``localStorage``: the rules, seats, moves, the viewed ply and prefs."""

    rules: Rules
    seats: tuple[str, ...]
    moves: str  # share code of every action played (also those undone but redoable)
    cursor: int  # how many of those actions are applied
    prefs: dict[str, str]


def dump_save(saved: SavedGame) -> str:
    """JSON text of a saved game, with its format name and version."""
    return json.dumps(
        {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rows": saved.rules.rows,
            "cols": saved.rules.cols,
            "mode": saved.rules.mode,
            "players": saved.rules.players,
            "seats": list(saved.seats),
            "moves": saved.moves,
            "cursor": saved.cursor,
            "prefs": saved.prefs,
        },
        separators=(",", ":"),
    )


def load_save(text: str, seat_kinds: tuple[str, ...]) -> tuple[SavedGame, GameState]:
    """Read and check a saved game; returns it and the game replayed up to its cursor.

    Raises:
        RecordError: for anything that is not a valid save of this version (corrupt JSON, an
            older or newer format, wrong types, illegal moves).
    """
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        raise RecordError("save_unreadable") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise RecordError("save_not_sos")
    if data.get("version") != SAVE_VERSION:
        raise RecordError("save_version", version=repr(data.get("version")))
    try:
        rules = Rules(data["rows"], data["cols"], data["mode"], data["players"])
        seats = tuple(data["seats"])
        moves = data["moves"]
        cursor = data["cursor"]
        prefs = data.get("prefs", {})
    except (KeyError, TypeError, InvalidRulesError):
        raise RecordError("save_damaged") from None
    if len(seats) != rules.players or not all(s in seat_kinds for s in seats):
        raise RecordError("save_seats")
    if not isinstance(cursor, int) or isinstance(cursor, bool) or cursor < 0:
        raise RecordError("save_cursor")
    if not isinstance(prefs, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in prefs.items()
    ):
        raise RecordError("save_prefs")
    full = decode_moves(moves, rules)
    if cursor > len(full.history):
        raise RecordError("save_cursor")
    while len(full.history) > cursor:
        full.undo()
    return SavedGame(rules, seats, moves, cursor, dict(prefs)), full
