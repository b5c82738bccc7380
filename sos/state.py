"""Game state: the board, whose turn it is, the scores, and the move history.

Rules implemented (the paper-and-pencil game SOS):

* On a turn the current player writes ``S`` or ``O`` in any empty square.
* The move scores one point for each S-O-S it completes through that square, in a row, a
  column or either diagonal (an ``O`` can complete up to 4, an ``S`` up to 8). Letters may be
  shared by several SOSs and may have been written by anyone.
* A scoring move gives the same player the next move; otherwise the turn passes to the next
  seat (0, 1, ..., players - 1, 0, ...).
* ``general``: the game ends when the board is full; the highest score wins, a tie for the
  highest score is a draw among the tied players. ``simple``: the first move that completes an
  SOS wins at once; a full board without an SOS is a draw.

The API follows the usual game-AI vocabulary (OpenSpiel, python-chess): ``legal_actions``,
``apply``/``undo``, ``current_player``, ``is_terminal``, ``returns``, ``outcome``.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import chain
from typing import Final, Literal, NamedTuple

from .board import Geometry, Line, completed_lines, geometry
from .notation import EMPTY, LETTERS, Action, InvalidNotationError, parse_position
from .rules import Mode, Rules

_new_tuple = tuple.__new__

#: ``current_player()`` of a finished game (as OpenSpiel's terminal player id, a negative).
TERMINAL: Final = -1


class IllegalActionError(ValueError):
    """Raised by :meth:`GameState.apply` for an action the rules do not allow now.

    That is: a square that is off the board or already written, a letter other than ``S`` or
    ``O``, or any move after the game has ended. The state is left unchanged.
    """


class PlyRecord(NamedTuple):
    """One applied action: who played it and the SOS lines it completed (maybe none)."""

    action: Action
    player: int
    lines: tuple[Line, ...]


class Outcome(NamedTuple):
    """How a finished game ended.

    Attributes:
        termination: ``"full_board"`` (the board was filled) or ``"sos"`` (simple mode: the
            first SOS ended the game).
        winner: the winning seat, or ``None`` for a draw.
        tied: in a draw, the seats that share the highest score (all seats in a simple-mode
            draw); empty when there is a winner.
        scores: final score of each seat.
    """

    termination: Literal["full_board", "sos"]
    winner: int | None
    tied: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None


@lru_cache(maxsize=64)
def _zobrist(cells: int, players: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    rng = random.Random(0x5050_5050 ^ (cells * 131 + players))
    s_keys = tuple(rng.getrandbits(64) for _ in range(cells))
    o_keys = tuple(rng.getrandbits(64) for _ in range(cells))
    player_keys = tuple(rng.getrandbits(64) for _ in range(players))
    return s_keys, o_keys, player_keys


@lru_cache(maxsize=64)
def _flat_patterns(
    rows: int, cols: int
) -> tuple[tuple[tuple[tuple[int, int, Line], ...], ...], ...]:
    """``table[o][i]``: the SOSs that ``S`` (``o`` = 0) or ``O`` (``o`` = 1) on square ``i``
    can complete, as plain ``(a, b, line)`` tuples (see :class:`sos.board.Geometry`: square
    ``b`` must hold ``S``, square ``a`` ``O`` for an S placed and ``S`` for an O). Plain tuples
    unpack in one specialized bytecode, where a :class:`~sos.board.Pattern`'s named fields are
    one descriptor call each."""
    geo = geometry(rows, cols)
    return tuple(
        tuple(tuple((p.a, p.b, p.line) for p in pats) for pats in table)
        for table in (geo.as_s, geo.as_o)
    )


@lru_cache(maxsize=64)
def _action_table(rows: int, cols: int) -> tuple[tuple[Action, ...], ...]:
    """``table[i]``: the actions on square ``i`` in :data:`LETTERS` order (shared, immutable),
    so that :meth:`GameState.legal_actions` builds no new objects."""
    return tuple(
        tuple(Action(i // cols, i % cols, letter) for letter in LETTERS)
        for i in range(rows * cols)
    )


class GameState:
    """A position of an SOS game, mutable through :meth:`apply` and :meth:`undo`.

    Create one with :func:`new_game` or :meth:`from_text`. Squares are addressed ``(row, col)``
    from 0, row 0 at the top.
    """

    __slots__ = (
        "_actions",
        "_cells",
        "_empty",
        "_geo",
        "_key",
        "_legal",
        "_open",
        "_pats",
        "_records",
        "_scores",
        "_sos_ended",
        "_to_move",
        "_zs",
        "rules",
    )

    def __init__(self, rules: Rules) -> None:
        """An empty board under ``rules``, seat 0 to move, all scores 0."""
        self.rules: Rules = rules
        self._geo: Geometry = geometry(rules.rows, rules.cols)
        self._actions = _action_table(rules.rows, rules.cols)
        self._pats = _flat_patterns(rules.rows, rules.cols)
        #: The empty squares, ascending, and their actions in legal_actions() order (kept up
        #: to date by _place/_unplace, so legal_actions() is one list copy).
        self._open: list[int] = list(range(rules.cells))
        self._legal: list[Action] = list(chain.from_iterable(self._actions))
        self._cells: list[str] = [EMPTY] * rules.cells
        self._empty: int = rules.cells
        self._to_move: int = 0
        self._scores: list[int] = [0] * rules.players
        #: (action, player, lines) per applied action: plain tuples, cheaper to build than
        #: PlyRecords (the records property makes those).
        self._records: list[tuple[Action, int, tuple[Line, ...]]] = []
        self._sos_ended: bool = False
        self._zs = _zobrist(rules.cells, rules.players)
        self._key: int = self._zs[2][0]

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_text(
        cls,
        text: str,
        mode: Mode = "general",
        players: int = 2,
        to_move: int = 0,
        scores: Sequence[int] | None = None,
    ) -> GameState:
        """A position from its text form, e.g. ``"S.S/.O./..."`` (see :mod:`sos.notation`).

        Args:
            text: rows from the top separated by ``/``; ``S``, ``O``, ``.`` for empty.
            mode: ``"general"`` or ``"simple"``.
            players: number of seats, 2..4.
            to_move: the seat to move, 0..players-1.
            scores: points already scored by each seat (default all 0).

        Raises:
            InvalidNotationError: for malformed text, a bad ``to_move`` or ``scores``, or a
                simple-mode position that already holds an SOS (that game would be over).
            sos.rules.InvalidRulesError: for a board size, mode or player count not allowed.
        """
        rows = parse_position(text)
        state = cls(Rules(rows=len(rows), cols=len(rows[0]), mode=mode, players=players))
        if not isinstance(to_move, int) or not 0 <= to_move < players:
            raise InvalidNotationError(f"to_move must be a seat 0..{players - 1}, got {to_move!r}")
        if scores is None:
            scores = [0] * players
        if len(scores) != players or any(
            not isinstance(s, int) or isinstance(s, bool) or s < 0 for s in scores
        ):
            raise InvalidNotationError(
                f"scores must be {players} non-negative integers, got {list(scores)!r}"
            )
        for r, row in enumerate(rows):
            for c, letter in enumerate(row):
                if letter != EMPTY:
                    state._place(r * state.rules.cols + c, letter)
        if mode == "simple" and state._board_has_sos():
            raise InvalidNotationError("a simple-mode position cannot already contain an SOS")
        state._set_to_move(to_move)
        state._scores = list(scores)
        return state

    def clone(self) -> GameState:
        """An independent copy (history included)."""
        other = GameState.__new__(GameState)
        other.rules = self.rules
        other._geo = self._geo
        other._actions = self._actions
        other._pats = self._pats
        other._open = self._open.copy()
        other._legal = self._legal.copy()
        other._cells = self._cells.copy()
        other._empty = self._empty
        other._to_move = self._to_move
        other._scores = self._scores.copy()
        other._records = self._records.copy()
        other._sos_ended = self._sos_ended
        other._zs = self._zs
        other._key = self._key
        return other

    def child(self, action: Action) -> GameState:
        """A copy with ``action`` applied; ``self`` is unchanged. Raises as :meth:`apply`."""
        other = self.clone()
        other.apply(action)
        return other

    # ----------------------------------------------------------------- queries
    def current_player(self) -> int:
        """The seat to move (0-based), or :data:`TERMINAL` (-1) once the game has ended."""
        return TERMINAL if self.is_terminal() else self._to_move

    def is_terminal(self) -> bool:
        """True when the game is over: a full board, or (simple mode) an SOS was made."""
        return self._empty == 0 or self._sos_ended

    def letter_at(self, row: int, col: int) -> str:
        """``"S"``, ``"O"`` or ``"."`` (empty) on square ``(row, col)``.

        Raises:
            IndexError: for a square off the board.
        """
        if not (0 <= row < self.rules.rows and 0 <= col < self.rules.cols):
            raise IndexError(f"square ({row}, {col}) is off the {self._size_text()} board")
        return self._cells[row * self.rules.cols + col]

    @property
    def cells(self) -> tuple[str, ...]:
        """The board row-major (index ``row * cols + col``): ``"S"``, ``"O"`` or ``"."``."""
        return tuple(self._cells)

    @property
    def scores(self) -> tuple[int, ...]:
        """Points of each seat so far."""
        return tuple(self._scores)

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied to this state, oldest first (not those of ``from_text``)."""
        return tuple(record[0] for record in self._records)

    @property
    def records(self) -> tuple[PlyRecord, ...]:
        """Like :attr:`history`, with the mover and the lines each action completed."""
        return tuple(_new_tuple(PlyRecord, record) for record in self._records)

    @property
    def empty_squares(self) -> int:
        """Number of empty squares."""
        return self._empty

    def key(self) -> int:
        """A 64-bit Zobrist hash of the board and the seat to move (for transposition tables).

        Scores are not included: the future of the game does not depend on them.
        """
        return self._key

    def legal_actions(self) -> list[Action]:
        """Every legal action: each empty square (row-major) with ``S`` then ``O``.

        Empty once the game is over.
        """
        if self._empty == 0 or self._sos_ended:  # is_terminal(), inlined
            return []
        # One list copy (the hot path of playouts; under Pyodide every interpreted step costs
        # ~2.5x what it costs in CPython).
        return self._legal.copy()

    def empty_indices(self) -> list[int]:
        """Row-major indices of the empty squares."""
        return self._open.copy()

    def is_legal(self, action: Action) -> bool:
        """True when :meth:`apply` would accept ``action``."""
        return self._illegal_reason(action) is None

    def scoring_lines(self, action: Action) -> list[Line]:
        """The SOS lines ``action`` would complete now (the state is not changed).

        Raises:
            IllegalActionError: if the action is not legal.
        """
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(reason)
        index = action.row * self.rules.cols + action.col
        return completed_lines(self._cells, self._geo, index, action.letter)

    # ----------------------------------------------------------------- moves
    def apply(self, action: Action) -> tuple[Line, ...]:
        """Play ``action`` for the current player.

        Returns:
            The SOS lines the action completed (empty when it scored nothing). The mover gains
            one point per line and moves again if it was at least one (unless the game ended).

        Raises:
            IllegalActionError: off-board or written square, a letter other than S/O, or a
                move after the end. The state is unchanged.
        """
        rules = self.rules
        cells = self._cells
        # Fast path for the common, legal case (checked exactly as _illegal_reason does);
        # anything unusual goes through _illegal_reason for its message.
        probe: object = action  # (callers may pass anything; typed Action for the API)
        if isinstance(probe, tuple) and len(probe) == 3:
            row, col, letter = probe
            if (
                type(row) is int
                and type(col) is int
                and 0 <= row < rules.rows
                and 0 <= col < rules.cols
                and (letter == "S" or letter == "O")
                and self._empty
                and not self._sos_ended
                and cells[row * rules.cols + col] == EMPTY
            ):
                index = row * rules.cols + col
            else:
                index = -1
        else:
            index = -1
        if index < 0:
            reason = self._illegal_reason(action)
            if reason is not None:
                raise IllegalActionError(reason)
            index = action.row * rules.cols + action.col
        letter = action[2]
        o = letter == "O"
        # The hot path of every search: completed_lines(), _place() and _set_to_move() inlined
        # (the first over plain tuples); each call or named-field read saved is ~2x dearer
        # under Pyodide than in CPython.
        need = "S" if o else "O"
        lines: tuple[Line, ...] = ()
        for a, b, line in self._pats[o][index]:
            if cells[b] == "S" and cells[a] == need:
                lines += (line,)
        player = self._to_move
        cells[index] = letter
        self._empty -= 1
        p = bisect_left(self._open, index)
        del self._open[p]
        del self._legal[2 * p : 2 * p + 2]
        zs = self._zs
        key = self._key ^ zs[o][index]
        self._records.append((self._actions[index][o], player, lines))
        if lines:
            self._scores[player] += len(lines)
            if rules.mode == "simple":
                self._sos_ended = True
        else:
            following = (player + 1) % rules.players
            key ^= zs[2][player] ^ zs[2][following]
            self._to_move = following
        self._key = key
        return lines

    def undo(self) -> Action:
        """Take back the last applied action and return it.

        Raises:
            IndexError: when no action has been applied to this state.
        """
        if not self._records:
            raise IndexError("no move to undo")
        action, player, lines = self._records.pop()
        index = action.row * self.rules.cols + action.col
        self._unplace(index, action.letter)
        self._scores[player] -= len(lines)
        self._sos_ended = False
        self._set_to_move(player)
        return action

    # ----------------------------------------------------------------- results
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it is still going."""
        if not self.is_terminal():
            return None
        scores = tuple(self._scores)
        if self._sos_ended:
            return Outcome("sos", self._records[-1][1], (), scores)
        if self.rules.mode == "simple":
            return Outcome("full_board", None, tuple(range(self.rules.players)), scores)
        best = max(scores)
        leaders = tuple(p for p, s in enumerate(scores) if s == best)
        if len(leaders) == 1:
            return Outcome("full_board", leaders[0], (), scores)
        return Outcome("full_board", None, leaders, scores)

    def returns(self) -> list[float]:
        """Payoff of each seat: 0.0 for all while the game goes on.

        At the end: the winner gets +1.0 and every other seat -1.0; in a draw the tied seats
        get 0.0 and the seats behind them -1.0 (a two-player draw is 0.0 for both).
        """
        outcome = self.outcome()
        if outcome is None:
            return [0.0] * self.rules.players
        if outcome.winner is not None:
            return [1.0 if p == outcome.winner else -1.0 for p in range(self.rules.players)]
        return [0.0 if p in outcome.tied else -1.0 for p in range(self.rules.players)]

    # ----------------------------------------------------------------- text
    def to_text(self) -> str:
        """The board as text, rows from the top separated by ``/`` (``.`` = empty)."""
        cols = self.rules.cols
        return "/".join(
            "".join(self._cells[r * cols : (r + 1) * cols]) for r in range(self.rules.rows)
        )

    def __repr__(self) -> str:
        return (
            f"GameState.from_text({self.to_text()!r}, mode={self.rules.mode!r}, "
            f"players={self.rules.players}, to_move={self._to_move}, "
            f"scores={list(self._scores)!r})"
        )

    def __str__(self) -> str:
        return self.to_text().replace("/", "\n")

    def _snapshot(self) -> tuple[object, ...]:
        return (
            self.rules,
            tuple(self._cells),
            self._to_move,
            tuple(self._scores),
            tuple(self._records),
            self._sos_ended,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self._snapshot() == other._snapshot()

    __hash__ = None  # type: ignore[assignment]  # mutable

    # ----------------------------------------------------------------- internals
    def _size_text(self) -> str:
        return f"{self.rules.rows}x{self.rules.cols}"

    def _illegal_reason(self, action: object) -> str | None:
        if not isinstance(action, tuple) or len(action) != 3:
            return f"not an action: {action!r}"
        row, col, letter = action
        if self.is_terminal():
            return f"the game is over; {_describe(row, col, letter)} cannot be played"
        if letter not in LETTERS:
            return f"letter must be 'S' or 'O', got {letter!r}"
        if (
            not isinstance(row, int)
            or not isinstance(col, int)
            or isinstance(row, bool)
            or isinstance(col, bool)
        ):
            return f"square must be two integers, got ({row!r}, {col!r})"
        if not (0 <= row < self.rules.rows and 0 <= col < self.rules.cols):
            return f"square ({row}, {col}) is off the {self._size_text()} board"
        if self._cells[row * self.rules.cols + col] != EMPTY:
            return f"square {_describe(row, col, None)} is already written"
        return None

    def _place(self, index: int, letter: str) -> None:
        self._cells[index] = letter
        self._empty -= 1
        p = bisect_left(self._open, index)
        del self._open[p]
        del self._legal[2 * p : 2 * p + 2]
        self._key ^= (self._zs[0] if letter == "S" else self._zs[1])[index]

    def _unplace(self, index: int, letter: str) -> None:
        self._cells[index] = EMPTY
        self._empty += 1
        p = bisect_left(self._open, index)
        self._open.insert(p, index)
        self._legal[2 * p : 2 * p] = self._actions[index]
        self._key ^= (self._zs[0] if letter == "S" else self._zs[1])[index]

    def _set_to_move(self, player: int) -> None:
        keys = self._zs[2]
        self._key ^= keys[self._to_move] ^ keys[player]
        self._to_move = player

    def _board_has_sos(self) -> bool:
        cells = self._cells
        return any(
            cell == "O" and cells[p.a] == "S" and cells[p.b] == "S"
            for i, cell in enumerate(cells)
            for p in self._geo.as_o[i]
        )


def _describe(row: object, col: object, letter: object) -> str:
    if isinstance(row, int) and isinstance(col, int) and 0 <= col < 26 and row >= 0:
        where = f"{chr(ord('a') + col)}{row + 1}"
    else:
        where = f"({row!r}, {col!r})"
    return f"{letter}@{where}" if letter is not None else where


def new_game(rules: Rules | None = None) -> GameState:
    """A new game: empty board, seat 0 to move. Default rules: 3x3, general, 2 players."""
    return GameState(rules if rules is not None else Rules())


def replay(rules: Rules, actions: Iterable[Action]) -> GameState:
    """A new game under ``rules`` with ``actions`` applied in order.

    Raises:
        IllegalActionError: at the first illegal action (the message says which one).
    """
    state = new_game(rules)
    for number, action in enumerate(actions, start=1):
        try:
            state.apply(action)
        except IllegalActionError as error:
            raise IllegalActionError(f"move {number} ({action}): {error}") from None
    return state
