"""SOS puzzles: the data format, checking an attempt, the refutation of a wrong move, the forced
reply, and the daily puzzle. Pure (standard library only, no DOM).

A puzzle is a two-player position from an engine game where the player to move has exactly one
move that keeps the solver's value (:mod:`sos.ai.solver`, exact): in simple mode the only winning
move; in general mode the only move that does not give away points (``goal``: ``win`` when it is
the only move that still wins, ``lead`` when others win by less, ``draw`` when it is the only
move that does not lose). Puzzles of more than one move carry the forced continuation
(``line``): the player's move, the opponent's best reply, the player's next move, ...; each of
the player's moves in it is again the only one that keeps the value.

The puzzle set is built by ``scripts/build_puzzles.py`` and shipped as
``static/puzzles/puzzles-v1.json``, format ``sos-puzzles`` version 1 (docs/contributing.md)::

    {"format": "sos-puzzles", "version": 1, "puzzles": [
      {"id": "5g-3f9a1c", "size": 5, "mode": "general", "moves": "Sa1Ob2...",
       "goal": "lead", "value": 3, "line": "Sc3Oa2Sb1", "rating": 3, "source": "hard-medium",
       "wrong": ["Sa1:-1:Ob2 Oa1:-2:Sc1 ...", "..."]}, ...]}

* ``moves``: the game up to the puzzle position, as a share code
  (:func:`sos.app.saving.transcript.encode_moves`).
* ``value``: the solver's value of that position for the player to move (general: own future
  points minus the opponent's; simple: +1 win).
* ``line``: the solution line as a share code (player's moves and the opponent's replies; a
  scoring move keeps the turn, so the mover follows the rules, not the parity).
* ``wrong``: one entry per move of the player in ``line``: every other legal action there as
  ``<action>:<value>[:<reply>]`` — the action's exact value for the mover (as
  :meth:`sos.ai.solver.Solver.action_values`) and the opponent's best reply (the refutation; absent
  when the move ends the game or scores and keeps the turn).
* ``rating``: difficulty 1 (easiest) … 5; ``source``: the agents of the game (``hard-medium``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator
from dataclasses import dataclass, field
from datetime import date
from typing import Final

from ...notation import Action
from ...rules import MODES, Rules, app_rules
from ...state import GameState, IllegalActionError
from ..saving.transcript import RecordError, decode_moves, encode_moves

#: The data file's ``format`` field and the version this module reads.
FORMAT: Final = "sos-puzzles"
VERSION: Final = 1
#: Path of the data file, relative to the site root.
DATA_PATH: Final = "static/puzzles/puzzles-v1.json"
GOALS: Final = ("win", "lead", "draw")


class PuzzleFormatError(ValueError):
    """A puzzle file or a puzzle in it that cannot be read; ``where`` names the puzzle."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where


class UnknownPuzzleError(KeyError):
    """No puzzle has the id asked for (``?puzzle=<id>``)."""


@dataclass(frozen=True)
class Refutation:
    """Why a wrong action fails: its exact ``value`` for the mover and the opponent's best
    ``reply`` (None when the action ends the game or scores and keeps the turn)."""

    action: Action
    value: int
    reply: Action | None


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module docstring for the fields)."""

    id: str
    rules: Rules
    moves: tuple[Action, ...]
    goal: str
    value: int
    line: tuple[Action, ...]
    wrong: tuple[dict[Action, Refutation], ...]
    rating: int
    source: str = ""

    def start(self) -> GameState:
        """The puzzle position (with its history: the game's SOSs are drawn)."""
        state = GameState(self.rules)
        for action in self.moves:
            state.apply(action)
        return state

    @property
    def player(self) -> int:
        """The seat (0 or 1) that solves the puzzle."""
        return self.start().current_player()

    def steps(self) -> list[int]:
        """Indices in :attr:`line` of the player's moves (the moves to find)."""
        state, out = self.start(), []
        me = state.current_player()
        for index, action in enumerate(self.line):
            if state.current_player() == me:
                out.append(index)
            state.apply(action)
        return out

    def to_json(self) -> dict[str, object]:
        """The puzzle as a JSON object of the data file."""
        return {
            "id": self.id,
            "size": self.rules.rows,
            "mode": self.rules.mode,
            "moves": encode_moves(self.moves),
            "goal": self.goal,
            "value": self.value,
            "line": encode_moves(self.line),
            "rating": self.rating,
            "source": self.source,
            "wrong": [
                " ".join(
                    f"{encode_moves([r.action])}:{r.value}"
                    + (f":{encode_moves([r.reply])}" if r.reply is not None else "")
                    for r in sorted(step.values(), key=lambda r: (r.action.row, r.action.col,
                                                                  r.action.letter))
                )
                for step in self.wrong
            ],
        }


_ACTION_RE: Final = re.compile(r"([SO])([a-l])(1[0-2]|[1-9])")


def _actions(code: str, rules: Rules, where: str) -> tuple[Action, ...]:
    """The actions of a share code, on the board of ``rules`` (not replayed: legality is
    checked where the moves are played)."""
    found: list[Action] = []
    position = 0
    for match in _ACTION_RE.finditer(code):
        if match.start() != position:
            break
        position = match.end()
        letter, col, row = match.groups()
        action = Action(int(row) - 1, ord(col) - 97, letter)
        if action.row >= rules.rows or action.col >= rules.cols:
            raise PuzzleFormatError(f"{code!r}: {action} is off the board", where)
        found.append(action)
    if position != len(code):
        raise PuzzleFormatError(f"unreadable moves {code!r}", where)
    return tuple(found)


def _one(code: str, rules: Rules, where: str) -> Action:
    found = _actions(code, rules, where)
    if len(found) != 1:
        raise PuzzleFormatError(f"expected one action, got {code!r}", where)
    return found[0]


def parse_puzzle(data: object, where: str = "") -> Puzzle:
    """One puzzle from its JSON object; its moves and line are replayed (so they are legal).

    Raises:
        PuzzleFormatError: for a missing or mistyped field, unreadable or illegal moves.
    """
    if not isinstance(data, dict):
        raise PuzzleFormatError("a puzzle must be an object", where)
    where = str(data.get("id", where))
    try:
        pid, size, mode = data["id"], data["size"], data["mode"]
        goal, value, rating = data["goal"], data["value"], data["rating"]
        moves, line, wrong = data["moves"], data["line"], data["wrong"]
    except KeyError as error:
        raise PuzzleFormatError(f"missing field {error.args[0]!r}", where) from None
    if not isinstance(pid, str) or not pid or len(pid) > 32 or not pid.replace("-", "").isalnum():
        raise PuzzleFormatError(f"bad id {pid!r}", where)
    rules = None
    if isinstance(size, int) and not isinstance(size, bool) and mode in MODES:
        rules = app_rules(size, mode, 2)
    if rules is None:
        raise PuzzleFormatError(f"bad board {size!r} {mode!r}", where)
    if goal not in GOALS or not isinstance(value, int) or not isinstance(rating, int):
        raise PuzzleFormatError("bad goal, value or rating", where)
    if not (isinstance(moves, str) and isinstance(line, str) and isinstance(wrong, list)):
        raise PuzzleFormatError("moves and line must be text, wrong a list", where)
    try:
        state = decode_moves(moves, rules)
    except RecordError as error:
        raise PuzzleFormatError(f"unreadable moves ({error.key})", where) from None
    solution = _actions(line, rules, where)
    if not solution or state.is_terminal():
        raise PuzzleFormatError("no move to find", where)
    steps: list[dict[Action, Refutation]] = []
    for entry in wrong:
        if not isinstance(entry, str):
            raise PuzzleFormatError("wrong moves must be text", where)
        step: dict[Action, Refutation] = {}
        for item in entry.split():
            parts = item.split(":")
            if len(parts) not in (2, 3):
                raise PuzzleFormatError(f"bad wrong move {item!r}", where)
            try:
                number = int(parts[1])
            except ValueError:
                raise PuzzleFormatError(f"bad value in {item!r}", where) from None
            action = _one(parts[0], rules, where)
            reply = _one(parts[2], rules, where) if len(parts) == 3 else None
            step[action] = Refutation(action, number, reply)
        steps.append(step)
    puzzle = Puzzle(pid, rules, state.history, goal, value, solution, tuple(steps), rating,
                    str(data.get("source", "")))
    me = state.current_player()
    player_moves = []
    try:
        for index, action in enumerate(solution):
            if state.current_player() == me:
                player_moves.append(index)
            state.apply(action)
    except IllegalActionError:
        raise PuzzleFormatError("the line is not legal", where) from None
    if len(player_moves) != len(steps) or player_moves[-1] != len(solution) - 1:
        raise PuzzleFormatError("the line must end with the player's move, one wrong entry "
                                "per move", where)
    return puzzle


#: Puzzles parsed between two pauses of :func:`parse_puzzles_steps`.
PARSE_CHUNK: Final = 20


def parse_puzzles_steps(text: str) -> Generator[None, None, tuple[Puzzle, ...]]:
    """:func:`parse_puzzles` in pausable steps of :data:`PARSE_CHUNK` puzzles (the page
    yields to the browser between them)."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise PuzzleFormatError(f"not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleFormatError(f"not a {FORMAT} file")
    if data.get("version") != VERSION:
        raise PuzzleFormatError(f"version {data.get('version')!r}; this reader knows {VERSION}")
    items = data.get("puzzles")
    if not isinstance(items, list) or not items:
        raise PuzzleFormatError("no puzzles")
    puzzles: list[Puzzle] = []
    for n, item in enumerate(items):
        if n and n % PARSE_CHUNK == 0:
            yield
        puzzles.append(parse_puzzle(item, f"puzzle {n + 1}"))
    if len({p.id for p in puzzles}) != len(puzzles):
        raise PuzzleFormatError("repeated puzzle id")
    return tuple(puzzles)


def parse_puzzles(text: str) -> tuple[Puzzle, ...]:
    """Every puzzle of a data file (JSON text, format ``sos-puzzles`` version 1).

    Raises:
        PuzzleFormatError: for text that is not such a file, another version, a bad puzzle or
            a repeated id.
    """
    steps = parse_puzzles_steps(text)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: tuple[Puzzle, ...] = stop.value
            return result


def dump_puzzles(puzzles: list[Puzzle] | tuple[Puzzle, ...]) -> str:
    """The data file's text for ``puzzles`` (one puzzle per line, so diffs stay readable)."""
    body = ",\n".join(json.dumps(p.to_json(), separators=(",", ":")) for p in puzzles)
    return f'{{"format":"{FORMAT}","version":{VERSION},"puzzles":[\n{body}\n]}}\n'


# --------------------------------------------------------------------------- the daily puzzle
#: The daily puzzle's day numbering starts here (day 0).
DAILY_EPOCH: Final = date(2026, 1, 1)
#: Stride through the set: coprime with the set's size, consecutive days are far apart.
_DAILY_STRIDE: Final = 7919


def daily_index(day: date, count: int) -> int:
    """Index of the daily puzzle for the calendar ``day`` in a set of ``count`` puzzles.

    The same for everyone on that date (no randomness, no clock): day ``n`` after
    :data:`DAILY_EPOCH` maps to ``(n * stride) mod count`` with a stride coprime to ``count``,
    so no puzzle repeats within ``count`` days.

    Raises:
        ValueError: for an empty set.
    """
    if count <= 0:
        raise ValueError("no puzzles")
    stride = _DAILY_STRIDE
    while _gcd(stride, count) != 1:
        stride += 2
    return ((day - DAILY_EPOCH).days * stride) % count


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def daily_puzzle(puzzles: tuple[Puzzle, ...], day: date) -> Puzzle:
    """The daily puzzle for ``day`` (see :func:`daily_index`)."""
    return puzzles[daily_index(day, len(puzzles))]


def find_puzzle(puzzles: tuple[Puzzle, ...], wanted: str, today: date) -> Puzzle:
    """The puzzle a ``?puzzle=`` value asks for: ``daily`` (for ``today``) or an id.

    Raises:
        UnknownPuzzleError: when no puzzle has that id.
    """
    if wanted == "daily":
        return daily_puzzle(puzzles, today)
    for puzzle in puzzles:
        if puzzle.id == wanted:
            return puzzle
    raise UnknownPuzzleError(wanted)


# --------------------------------------------------------------------------- solving one
@dataclass(frozen=True)
class Verdict:
    """What the page says after an attempt.

    ``kind``: ``right`` (the move kept the value; ``replies`` were played for the opponent and
    another move is to find), ``solved`` (the last move of the line), ``wrong`` (``refutation``
    says why; ``replies`` holds its reply, played on the board).
    """

    kind: str
    action: Action
    replies: tuple[Action, ...] = ()
    refutation: Refutation | None = None


@dataclass
class PuzzleRun:
    """One attempt at a puzzle: the position shown, the move to find next, whether it was
    solved or failed. A wrong move and its refutation are shown on the board until
    :meth:`retry` takes them back; after a miss :meth:`reveal` shows the solution.
    """

    puzzle: Puzzle
    state: GameState = field(init=False)
    step: int = 0  # how many of the player's moves were found
    failed: bool = False  # a wrong move was tried (the puzzle counts as failed)
    solved: bool = False
    showing_wrong: bool = False
    revealed: bool = False  # the solution is shown (after a miss): no more moves
    _at: int = 0  # index in the line of the next move

    def __post_init__(self) -> None:
        self.state = self.puzzle.start()
        self._player = self.state.current_player()

    @property
    def player(self) -> int:
        """The seat solving the puzzle."""
        return self._player

    @property
    def steps(self) -> int:
        """How many moves the player has to find."""
        return len(self.puzzle.wrong)

    def can_play(self) -> bool:
        """True when the board takes the player's next move."""
        return not (self.solved or self.showing_wrong or self.revealed)

    def can_reveal(self) -> bool:
        """True when the solution may be shown: after a miss, until it is solved or shown."""
        return self.failed and not (self.solved or self.revealed)

    def reveal(self) -> tuple[Action, ...]:
        """Show the solution after a miss: a wrong move shown is taken back, then the rest of
        the line (the player's moves to find from the current step, and the opponent's
        replies) is played on the board. The puzzle stays failed and takes no more moves.
        Returns the moves played, in order (empty when :meth:`can_reveal` is False: nothing
        changes)."""
        if not self.can_reveal():
            return ()
        self.retry()
        rest = self.puzzle.line[self._at:]
        for action in rest:
            self.state.apply(action)
        self._at = len(self.puzzle.line)
        self.revealed = True
        return rest

    def attempt(self, action: Action) -> Verdict:
        """Try ``action`` for the player.

        Raises:
            IllegalActionError: for an occupied or off-board square (nothing changes), or
                when the board does not take a move now (solved, or a wrong move shown).
        """
        if not self.can_play():
            raise IllegalActionError("the puzzle takes no move now")
        if not self.state.is_legal(action):
            self.state.apply(action)  # raises the engine's specific error
        expected = self.puzzle.line[self._at]
        if action == expected:
            self.state.apply(action)
            self._at += 1
            self.step += 1
            replies = []
            while self._at < len(self.puzzle.line) and self.state.current_player() != self.player:
                replies.append(self.puzzle.line[self._at])
                self.state.apply(self.puzzle.line[self._at])
                self._at += 1
            if self._at >= len(self.puzzle.line):
                self.solved = True
                return Verdict("solved", action, tuple(replies))
            return Verdict("right", action, tuple(replies))
        refutation = self.puzzle.wrong[self.step].get(action)
        if refutation is None:  # not in the file: say it fails, without a line
            refutation = Refutation(action, self.puzzle.value - 1, None)
        self.failed = True
        self.showing_wrong = True
        self.state.apply(action)
        played: tuple[Action, ...] = ()
        if refutation.reply is not None and self.state.is_legal(refutation.reply):
            self.state.apply(refutation.reply)
            played = (refutation.reply,)
        return Verdict("wrong", action, played, refutation)

    def retry(self) -> None:
        """Take back a wrong move and its refutation: the same move is to find again."""
        while len(self.state.history) > len(self.puzzle.moves) + self._at:
            self.state.undo()
        self.showing_wrong = False

    def solution(self) -> Action:
        """The move to find now."""
        return self.puzzle.line[self._at]

    def value_now(self) -> int:
        """The solver's value (for the player) of the position where the next move is found:
        the stated value less the points the player scored (plus the opponent's) since."""
        start = self.puzzle.start().scores
        now = self.state.scores if not self.showing_wrong else self._scores_at_step()
        me, other = self.player, 1 - self.player
        return self.puzzle.value - (now[me] - start[me]) + (now[other] - start[other])

    def _scores_at_step(self) -> tuple[int, ...]:
        state = self.puzzle.start()
        for action in self.puzzle.line[: self._at]:
            state.apply(action)
        return state.scores


def final_margin(state: GameState, player: int, value: int) -> int:
    """The final score difference for ``player`` when the position ``state`` (``player`` to
    move) is worth ``value`` to them (general mode)."""
    return state.scores[player] - state.scores[1 - player] + value


__all__ = [
    "DATA_PATH",
    "FORMAT",
    "VERSION",
    "Puzzle",
    "PuzzleFormatError",
    "PuzzleRun",
    "Refutation",
    "UnknownPuzzleError",
    "Verdict",
    "daily_index",
    "daily_puzzle",
    "dump_puzzles",
    "final_margin",
    "find_puzzle",
    "parse_puzzle",
    "parse_puzzles",
    "parse_puzzles_steps",
]
