"""Exact game values of SOS positions, by alpha-beta to the end of the game.

:func:`solve` gives the value for the player to move with two players:

* ``general`` mode: the best achievable ``own future points - opponent's future points``
  (points already scored do not count; add the current score difference for the final margin);
* ``simple`` mode: ``+1`` win, ``0`` draw, ``-1`` loss.

The search is negamax with alpha-beta and a transposition table keyed by the board's least
Zobrist key over its symmetries (8 for a square board, 4 for a rectangle), with the best move of
each entry stored in that canonical frame for move ordering. With two players the value for the
side to move depends on the board only (not on the seat or the scores), which is what makes the
table sound. With three or four players the solver uses the paranoid reduction described in
:mod:`sos.ai.search` (the root seat against all the others).

An opening book per board shape (``sos/ai/book_<rows>x<cols>.txt``, built by
``scripts/build_book.py``) holds the exact values of the positions with few letters, where a
live solve is too slow: ``book_4x4.txt`` (the page fetches it for 4x4 games), and for the engine
only ``book_3x4.txt`` and ``book_3x5.txt`` (a 4x3 or 5x3 board reads the book of its transpose).
A book is read lazily, on the first solve of its shape; without a book file the solver searches.
"""

from __future__ import annotations

import os
import random
from collections.abc import Generator
from time import perf_counter
from typing import Final

from ..notation import Action
from ..state import GameState
from . import EXACT_MAX_CELLS
from .base import (
    SLICE_NODES,
    STEP_SECONDS,
    Bounds,
    Budget,
    SearchTimeout,
    TableSearch,
    merge_bounds,
    run_to_end,
    unpack_bounds,
)
from .search import EndgamePosition, Move, Position, action_move, move_action, tables

#: More than any value (future points: a board has fewer SOS lines than this).
INF: Final = 10_000
#: "No value" from :meth:`Solver._probe` (values are far smaller).
_NONE: Final = 1 << 40

#: Folder of the book files: this module's (the browser's file system mirrors sos/).
BOOK_DIR: Final = os.path.dirname(os.path.abspath(__file__))


def book_path(rows: int, cols: int) -> str:
    """Path of the opening book of ``rows`` x ``cols`` boards (``BOOK_DIR/book_RxC.txt``)."""
    return os.path.join(BOOK_DIR, f"book_{rows}x{cols}.txt")


#: The book the page fetches (for 4x4 games, ``sos/web/computer.py``).
BOOK_PATH: Final = book_path(4, 4)
#: Board size of :data:`BOOK_PATH`, the only book the page uses (it offers square boards; the
#: books of 3x4 and 3x5 serve the engine only and are not shipped with the site).
BOOK_SHAPE: Final = (4, 4)

#: Book lines parsed between two pauses of :func:`load_book_steps`.
BOOK_CHUNK: Final = 800


#: Loaded books by (rows, cols): the entries and the fewest empty squares of a book board.
_books: dict[tuple[int, int], tuple[dict[str, int], int]] = {}


def load_book_steps(rows: int = 4, cols: int = 4) -> Generator[None, None, dict[str, int]]:
    """Load the opening book of ``rows`` x ``cols`` boards (once) in pausable steps of
    :data:`BOOK_CHUNK` lines.

    Returns the book: ``"<g|s>:<canonical board>"`` -> exact value (empty if there is no file
    :func:`book_path`). The dict holds only strs and ints, so the cyclic GC never walks it. A
    missing file is not remembered: the page fetches the 4x4 book only when a 4x4 game needs it
    (``sos/web/computer.py``), and a later call reads it then.
    """
    shape = (rows, cols)
    if shape in _books:
        return _books[shape][0]
    try:
        with open(book_path(rows, cols), encoding="ascii") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return {}
    yield
    entries: dict[str, int] = {}
    least = 1 << 30
    for start in range(0, len(lines), BOOK_CHUNK):
        for line in lines[start : start + BOOK_CHUNK]:
            if not line or line[0] == "#":
                continue
            key, value = line.split()
            entries[key] = int(value)
            empties = key.count(".")
            if empties < least:
                least = empties
        yield
    # (another caller may have finished loading meanwhile: keep the first)
    return _books.setdefault(shape, (entries, least))[0]


def book(rows: int = 4, cols: int = 4) -> dict[str, int]:
    """The opening book of ``rows`` x ``cols`` boards: ``"<g|s>:<canonical board>"`` -> exact
    value (empty if there is no file)."""
    return run_to_end(load_book_steps(rows, cols))


def transposed_inverse(pos: Position) -> tuple[tuple[int, ...], ...]:
    """For each symmetry ``t`` of ``pos``'s board, the square of ``pos`` that lands on square
    ``j`` of the transposed board (``cols`` x ``rows``) after ``t``: the symmetric images of
    the transposed board, for :func:`canonical_text` (a 4x3 board read in the 3x4 book)."""
    rows, cols = pos.rows, pos.cols
    # square j = c * rows + r of the transpose is square r * cols + c of the board
    where = [(j % rows) * cols + j // rows for j in range(rows * cols)]
    return tuple(tuple(inv[i] for i in where) for inv in pos.tab.inverse)


def canonical_text(pos: Position, inverse: tuple[tuple[int, ...], ...] | None = None) -> str:
    """The board as a string of ``.SO``, least over the board's symmetries (``inverse``:
    other images of the board, e.g. :func:`transposed_inverse`; default ``pos.tab.inverse``)."""
    chars = ".SO"
    cells = pos.cells
    images = pos.tab.inverse if inverse is None else inverse
    return min("".join(chars[cells[inv[j]]] for j in range(len(cells))) for inv in images)


def book_key(pos: Position, inverse: tuple[tuple[int, ...], ...] | None = None) -> str:
    """The book key of a position: mode letter, ``:``, :func:`canonical_text`."""
    return ("s:" if pos.simple else "g:") + canonical_text(pos, inverse)


def _shuffled_moves(pos: Position, rng: random.Random | None) -> list[int]:
    """The legal moves: scoring, then safe, then the rest, each class shuffled by ``rng``."""
    moves, n_scoring, n_safe = pos.ordered_moves()
    if rng is None:
        return moves
    out: list[int] = []
    for group in (
        moves[:n_scoring], moves[n_scoring : n_scoring + n_safe], moves[n_scoring + n_safe :]
    ):
        rng.shuffle(group)
        out.extend(group)
    return out


def _table_move_first(solver: Solver, pos: Position, moves: list[int]) -> list[int]:
    """``moves`` with the move the table holds for ``pos`` first (if any): a proof of the
    previous move of the game has usually already found this position's answer."""
    canon, t = pos.canonical()
    packed = solver.tt.get(canon if pos.players == 2 else canon ^ pos.tab.zplayer[pos.to_move])
    if packed is None:
        return moves
    move = solver.from_canonical(pos, t, Bounds.unpack(packed).move)
    if move not in moves:
        return moves
    return [move] + [m for m in moves if m != move]


class _Interrupted(Exception):
    """The budget ran out in :meth:`Solver._mtd_root`: the best action so far and the value
    it is proven to keep."""

    def __init__(self, best: int, low: int) -> None:
        super().__init__(best, low)
        self.best = best
        self.low = low


class TooManyPlayersError(ValueError):
    """Raised by :func:`solve` for a game of more than two players (its value is a vector)."""


class Solver(TableSearch):
    """Exact negamax solver with a symmetric transposition table, pausable (generators).

    One solver may be reused for many positions of the same game (the table is kept) as long
    as the number of players is two; with more players the table is cleared for each root.
    Table entries (:class:`sos.ai.base.Bounds`) hold a lower and an upper bound of the value
    and the best move in the frame of the canonical board (:meth:`Position.canonical`).

    Attributes:
        nodes: nodes visited so far.
        use_book: whether to read the opening book (tests switch it off to check it).
    """

    def __init__(
        self,
        slice_nodes: int = SLICE_NODES,
        use_book: bool = True,
        tt_limit: int = 1_500_000,
        step_seconds: float = STEP_SECONDS,
    ) -> None:
        super().__init__(tt_limit, slice_nodes, step_seconds)
        self.use_book = use_book
        #: Actions the last :meth:`secure_action` proved to lose (before it found one that
        #: draws, or ran out of budget).
        self.refuted: list[Action] = []
        self._shape: tuple[int, int, bool, int] | None = None
        #: The book of the current board's shape (or of its transpose), if there is one.
        self._book: dict[str, int] | None = None
        self._book_min_empty = 1 << 30
        #: The board images the book is keyed by (None: the board's own symmetries).
        self._book_images: tuple[tuple[int, ...], ...] | None = None
        #: History heuristic: cut-offs caused by each quiet move (square * 2 + letter),
        #: weighted by 4^empty squares (a cut-off high in the tree counts most; 2^empty: 8 %
        #: more nodes on the tune positions, benchmarks/RESULTS.md); quiet moves are tried in
        #: that order within their class.
        self.history: list[int] = []

    @staticmethod
    def from_canonical(pos: Position, t: int, cmove: Move) -> Move:
        """The move of ``pos`` that is ``cmove`` on the canonical board (symmetry ``t``);
        -1 for -1."""
        if cmove < 0:
            return -1
        return (pos.tab.inverse[t][cmove >> 1] << 1) | (cmove & 1)

    def _position(self, state: GameState) -> Generator[None, None, EndgamePosition]:
        """``state`` as the solver's position, the table and book made ready for it
        (:meth:`_prepare`). Raises ValueError if the game is over: no action to choose."""
        pos = EndgamePosition(state)
        if pos.ended:
            raise ValueError("the game is over: there is no action to choose")
        yield from self._prepare(pos)
        return pos

    def _prepare(self, pos: Position) -> Generator[None, None, None]:
        shape = (pos.rows, pos.cols, pos.simple, pos.players)
        if shape != self._shape or pos.players > 2 or len(self.tt) > self.tt_limit:
            self.renew_table()
            self._shape = shape
            self.history = [0] * (2 * pos.rows * pos.cols)
        self.root = pos.to_move
        self._book = None
        self._book_min_empty = 1 << 30
        self._book_images = None
        if self.use_book and pos.players == 2 and pos.rows * pos.cols <= EXACT_MAX_CELLS:
            rows, cols = pos.rows, pos.cols
            entries = yield from load_book_steps(rows, cols)
            images = None
            if not entries and rows != cols:  # a 4x3 board reads the 3x4 book
                entries = yield from load_book_steps(cols, rows)
                images = transposed_inverse(pos)
                rows, cols = cols, rows
            if entries:
                self._book = entries
                self._book_min_empty = _books[rows, cols][1]
                self._book_images = images

    # ------------------------------------------------------------------ public generators
    def value(self, state: GameState) -> Generator[None, None, int]:
        """Exact value of ``state`` for the player to move (see the module docstring).

        With more than two players: the paranoid value for the player to move.
        A finished game has value 0.
        """
        pos = EndgamePosition(state)
        if pos.ended:
            return 0
        yield from self._prepare(pos)
        v = yield from self._solve(pos, -INF, INF)
        return v

    def action_values(self, state: GameState) -> Generator[None, None, list[tuple[Action, int]]]:
        """Exact value of every legal action for the player to move, best first.

        Each value is the mover's value of playing that action: its points plus the value of
        the position after it (for the same side after a scoring move, negated otherwise).
        """
        pos = EndgamePosition(state)
        if pos.ended:
            return []
        yield from self._prepare(pos)
        moves, _, _ = pos.ordered_moves()
        out: list[tuple[Action, int]] = []
        for m in moves:
            gain = pos.play(m)
            try:
                v = yield from self._child(pos, gain, -INF, INF)
            finally:
                pos.unplay()
            out.append((move_action(m, pos.cols), v))
        out.sort(key=lambda item: -item[1])
        return out

    def optimal_actions(
        self, state: GameState
    ) -> Generator[None, None, tuple[int, list[Action]]]:
        """The exact value of ``state`` and every action that keeps it (board order).

        The value is found first; each action is then tested with a null window (does it
        reach the value?), which is cheaper than the exact value of every action.

        Raises:
            ValueError: if the game is over.
        """
        pos = yield from self._position(state)
        target = yield from self._solve(pos, -INF, INF)
        keep: list[int] = []
        for m in sorted(pos.ordered_moves()[0]):
            gain = pos.play(m)
            try:
                v = yield from self._child(pos, gain, target - 1, target)
            finally:
                pos.unplay()
            if v >= target:
                keep.append(m)
        return target, [move_action(m, pos.cols) for m in keep]

    def best_action(
        self,
        state: GameState,
        rng: random.Random | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
    ) -> Generator[None, None, tuple[Action, int]]:
        """An optimal action for the player to move and the exact value it keeps.

        Finds the position's value, then tries the actions (scoring first, then safe, then the
        rest; shuffled within each class by ``rng``) with a null window until one keeps it.
        ``seconds`` (search time) and ``nodes`` bound the call as in :meth:`result_action`.

        Raises:
            ValueError: if the game is over. SearchTimeout: when the budget is spent.
        """
        pos = yield from self._position(state)
        with self.budgeted(Budget(seconds, nodes)):
            target = yield from self._solve(pos, -INF, INF)
            move = yield from self._first_reaching(pos, _shuffled_moves(pos, rng), target)
        if move < 0:  # pragma: no cover
            raise AssertionError("no action keeps the solved value")
        return move_action(move, pos.cols), target

    def _first_reaching(
        self, pos: Position, moves: list[int], target: int
    ) -> Generator[None, None, int]:
        """The first of ``moves`` whose value is at least ``target`` (null-window tests), or -1."""
        for m in moves:
            gain = pos.play(m)
            try:
                v = yield from self._child(pos, gain, target - 1, target)
            finally:
                pos.unplay()
            if v >= target:
                return m
        return -1

    def result_action(
        self,
        state: GameState,
        rng: random.Random | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
    ) -> Generator[None, None, tuple[Action | None, int]]:
        """An action that wins the game for the player to move, else one that draws.

        Two players only. The game's result, not the margin: the target is a final score
        difference above 0 (then at least 0) counting the points already scored, tested for
        each action by null-window searches (a zero-width window around the target), which
        visit far fewer nodes than an exact :meth:`value`. Actions are tried scoring first,
        then safe, then the rest, shuffled within each class by ``rng``.

        ``seconds`` (search time, pauses excluded) and ``nodes`` bound this call: when either
        is spent it raises :class:`sos.ai.search.SearchTimeout` (the table keeps what was
        proven, so a later call goes faster).

        Returns:
            ``(action, result)``: ``result`` +1 (the action wins the game against any
            defence) or 0 (it draws at least; no action wins); ``(None, -1)`` when every
            action loses against best play.

        Raises:
            ValueError: if the game is over. TooManyPlayersError: with more than two players.
            SearchTimeout: when the budget is spent.
        """
        if state.rules.players != 2:
            raise TooManyPlayersError("result_action() is defined for two players")
        pos = yield from self._position(state)  # (loads the book: not counted)
        with self.budgeted(Budget(seconds, nodes)):
            me = pos.to_move
            lead = 0 if pos.simple else pos.scores[me] - pos.scores[1 - me]
            moves = _table_move_first(self, pos, _shuffled_moves(pos, rng))
            # A future value of at least 1 - lead wins; at least -lead draws.
            for result in (1, 0):
                move = yield from self._first_reaching(pos, moves, result - lead)
                if move >= 0:
                    return move_action(move, pos.cols), result
            return None, -1

    def improve_action(
        self,
        state: GameState,
        action: Action,
        floor: int,
        rng: random.Random | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
    ) -> Generator[None, None, tuple[Action, int, bool]]:
        """From ``action``, known to keep a value of at least ``floor`` for the player to
        move (e.g. by :meth:`result_action`), the action of the best value proven within the
        budget: null-window tests by :meth:`_mtd_root` (``action`` first, then the others as
        :meth:`result_action` orders them), from the future value 0 if that is above
        ``floor`` (else ``floor + 1``), each raising the proven value or lowering the bound
        above it, until they meet or the budget runs out (no :class:`SearchTimeout` is
        raised: the best action proven by then is returned).

        Returns:
            ``(action, value, exact)``: the action, a value it is proven to keep (at least
            ``floor``), and whether that is the position's exact value (no action does
            better).

        Raises:
            ValueError: if the game is over.
        """
        pos = yield from self._position(state)
        best = action_move(action, pos.cols)
        limit = pos.live_lines()[0] if not pos.simple else 1
        moves = [best] + [m for m in _shuffled_moves(pos, rng) if m != best]
        with self.budgeted(Budget(seconds, nodes)):
            try:
                best, floor, _ = yield from self._mtd_root(pos, moves, best, floor, limit)
            except _Interrupted as stop:
                best, floor = stop.best, stop.low
                return move_action(best, pos.cols), floor, False
        return move_action(best, pos.cols), floor, True

    def _mtd_root(
        self, pos: Position, moves: list[int], best: int, low: int, high: int
    ) -> Generator[None, None, tuple[int, int, int]]:
        """MTD(f) at the root from a future value of 0: ``best`` (first of ``moves``) keeps at
        least ``low`` and no action keeps more than ``high``; null-window tests (the actions in
        order, the best proven first) narrow ``[low, high]`` until they meet, starting at the
        value nearest 0 inside, then one point at a time, up after a test some action passed,
        down after one every action failed. The tests' fail-soft values (a passing action's
        value is at least it, a failed test's values bound every action) may jump further.

        Future margins in an endgame lie near 0 whatever the score, so this costs about two
        tests where stepping from a result's threshold (a lead of 8 puts the draw at -8) costs
        one a point.

        Returns:
            ``(best, value, high)`` with ``value == high``: the exact value and an action that
            keeps it.

        Raises:
            _Interrupted: when the budget runs out (carrying the best action and the value it
                is proven to keep so far).
        """
        up = True
        target = min(max(0, low + 1), high)
        try:
            while low < high:
                found = -1
                bound = -INF
                for m in moves:
                    gain = pos.play(m)
                    try:
                        v = yield from self._child(pos, gain, target - 1, target)
                    finally:
                        pos.unplay()
                    if v >= target:
                        found = m
                        low = min(v, high)
                        break
                    if v > bound:
                        bound = v
                if found >= 0:
                    best = found
                    moves = [best] + [m for m in moves if m != best]
                    up = True
                else:
                    high = max(min(high, bound), low)
                    up = False
                target = low + 1 if up else high
        except SearchTimeout as timeout:
            raise _Interrupted(best, low) from timeout
        return best, low, high

    def least_loss_action(
        self,
        state: GameState,
        ceiling: int,
        rng: random.Random | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
    ) -> Generator[None, None, tuple[Action, int, bool]]:
        """The best action and the exact value of ``state`` when no action reaches a future
        value above ``ceiling`` (e.g. after :meth:`result_action` proved that every action
        loses: ``ceiling`` is then one below the future value that would draw).

        Null-window tests by :meth:`_mtd_root` between minus the live lines and ``ceiling``,
        from the future value 0 (or ``ceiling`` if below), actions as :meth:`result_action`
        orders them, the table's move first. In simple mode a lost position is worth -1: the
        first action is returned.

        Returns:
            ``(action, value, exact)``: an action that keeps ``value``, the exact value when
            ``exact``; False when the budget ran out after some test proved ``action`` to keep
            ``value``, more than the live lines' floor (the value is then at least that).

        Raises:
            ValueError: if the game is over. SearchTimeout: when the budget is spent before
                any test proved an action above that floor.
        """
        pos = yield from self._position(state)
        moves = _table_move_first(self, pos, _shuffled_moves(pos, rng))
        if pos.simple:
            return move_action(moves[0], pos.cols), -1, True
        # Every action keeps at least minus the lines that can still become SOS.
        floor = -pos.live_lines()[0]
        if ceiling <= floor:
            return move_action(moves[0], pos.cols), floor, True
        with self.budgeted(Budget(seconds, nodes)):
            try:
                best, value, _ = yield from self._mtd_root(pos, moves, moves[0], floor, ceiling)
            except _Interrupted as stop:
                if stop.low <= floor:
                    raise SearchTimeout from stop
                return move_action(stop.best, pos.cols), stop.low, False
        return move_action(best, pos.cols), value, True

    def secure_action(
        self,
        state: GameState,
        rng: random.Random | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
    ) -> Generator[None, None, tuple[Action | None, int, bool]]:
        """An action proven not to lose, then, as the budget allows, one proven to win.

        Two players only. Like :meth:`result_action` (final score difference, null-window
        tests, the same move order), but in the safer order for a bounded budget: first the
        first action that keeps at least a draw, then the actions (that one first) are tested
        for a win. When the budget runs out during the second stage, the drawing action found
        in the first is returned.

        Returns:
            ``(action, result, settled)``: ``result`` +1 (``action`` wins against any
            defence), 0 (it draws at least) or -1 with ``action`` None (every action loses
            against best play); ``settled`` is True when ``result`` is the game's result under
            best play (False: a draw is proven, and the budget ran out before a win was either
            found or ruled out).

        Raises:
            ValueError: if the game is over. TooManyPlayersError: with more than two players.
            SearchTimeout: when the budget is spent before any action is proven to draw
                (the table keeps what was proven, and :attr:`refuted` lists the actions
                proven to lose by then).
        """
        if state.rules.players != 2:
            raise TooManyPlayersError("secure_action() is defined for two players")
        pos = yield from self._position(state)  # (loads the book: not counted)
        with self.budgeted(Budget(seconds, nodes)):
            me = pos.to_move
            lead = 0 if pos.simple else pos.scores[me] - pos.scores[1 - me]
            moves = _table_move_first(self, pos, _shuffled_moves(pos, rng))
            # A future value of at least -lead draws; at least 1 - lead wins.
            self.refuted = []
            safe = -1
            for m in moves:
                found = yield from self._first_reaching(pos, [m], -lead)
                if found >= 0:
                    safe = found
                    break
                self.refuted.append(move_action(m, pos.cols))
            if safe < 0:
                return None, -1, True
            rest = [safe] + [m for m in moves if m != safe]
            try:
                win = yield from self._first_reaching(pos, rest, 1 - lead)
            except SearchTimeout:
                return move_action(safe, pos.cols), 0, False
            if win >= 0:
                return move_action(win, pos.cols), 1, True
            return move_action(safe, pos.cols), 0, True

    # ------------------------------------------------------------------ search
    def _child(
        self, pos: Position, gain: int, alpha: int, beta: int
    ) -> Generator[None, None, int]:
        """The mover's value of the move just played (``gain`` points), within (alpha, beta)."""
        sign, offset, low, high = self.child_window(pos, gain, alpha, beta)
        if not sign:
            return offset
        v = yield from self._solve(pos, low, high)
        return offset + sign * v

    def _probe(
        self, pos: Position, alpha: int, beta: int
    ) -> tuple[int, int, int, int, int, Move]:
        """Book and table lookup: ``(value, alpha, beta, key, t, tt_move)``; ``value`` is
        :data:`_NONE` unless it decides the node, else the window narrowed by the entry;
        ``t`` the symmetry to the canonical board; ``tt_move`` the entry's best move (-1:
        none)."""
        if pos.empty >= self._book_min_empty and self._book is not None:
            hit = self._book.get(book_key(pos, self._book_images))
            if hit is not None:
                return hit, alpha, beta, 0, 0, -1
        canon, t = pos.canonical()
        key = canon if pos.players == 2 else canon ^ pos.tab.zplayer[pos.to_move]
        packed = self.tt.get(key)
        if packed is None:
            return _NONE, alpha, beta, key, t, -1
        lower, upper, cmove = Bounds.unpack(packed)
        if lower >= beta or lower == upper:
            return lower, alpha, beta, key, t, -1
        if upper <= alpha:
            return upper, alpha, beta, key, t, -1
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper
        return _NONE, alpha, beta, key, t, self.from_canonical(pos, t, cmove)

    def _moves(
        self, pos: Position, tt_move: Move, alpha: int, beta: int
    ) -> tuple[list[Move] | None, int, int, int]:
        """``(moves, value, alpha, beta)``: the moves in search order (``tt_move``, the
        table's, first), or None and the node's value when the rules decide it (simple mode)
        or the window closes."""
        moves, n_scoring, n_safe = pos.ordered_moves()
        live, cover = pos.live_lines()
        if pos.simple:
            if pos.players == 2:
                if n_scoring:
                    return None, 1, alpha, beta
                if n_safe == 0:
                    return None, -1, alpha, beta
                # A move that opens an SOS loses at once (-1, the least value): skip them.
                del moves[n_safe:]
            if not live:  # no SOS can be made any more: a draw
                return None, 0, alpha, beta
            alpha = max(alpha, -1)
            beta = min(beta, 1)
        else:
            # At most one point per live line is left: the value lies within [-live, live].
            if live <= alpha:
                return None, live, alpha, beta
            if -live >= beta:
                return None, -live, alpha, beta
            alpha = max(alpha, -live)
            beta = min(beta, live)
        if alpha >= beta:
            return None, alpha, alpha, beta
        safe = moves[n_scoring : n_scoring + n_safe]
        dead = pos.tab.full & ~(pos.s_bits | pos.o_bits | cover)
        if dead:
            # Moves on dead squares (any letter; they are safe moves) all lead to games of the
            # same value: one is searched.
            bit = pos.tab.bit
            first = True
            kept = []
            for m in safe:
                if (dead >> bit[m >> 1]) & 1:
                    if not first:
                        continue
                    first = False
                kept.append(m)
            safe = kept
        hist = self.history.__getitem__
        safe.sort(key=hist, reverse=True)
        rest = moves[n_scoring + n_safe :]
        if rest:
            rest.sort(key=hist, reverse=True)
        moves[n_scoring:] = safe + rest
        if tt_move >= 0 and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        return moves, 0, alpha, beta

    def _store(
        self, pos: Position, key: int, t: int, alpha0: int, beta: int, best: int, move: Move
    ) -> None:
        cmove = (pos.tab.perms[t][move >> 1] << 1) | (move & 1)
        tt = self.tt
        tt[key] = merge_bounds(tt.get(key), best, alpha0, beta, cmove)

    def _solve(self, pos: Position, alpha: int, beta: int) -> Generator[None, None, int]:
        """Exact value for the side to move of the unfinished ``pos``, within (alpha, beta)
        (fail-soft: outside the window the result is a bound on the same side).

        The node's work is written out here rather than in calls (this runs at every node):
        :meth:`Pacer.due`, :meth:`_probe` (book, then table), :meth:`_child` for two players
        and :meth:`_store` are inlined; the generic forms serve the other callers.
        """
        pacer = self.pacer
        # (pacer.due(), inlined)
        nodes = pacer.nodes = pacer.nodes + 1
        if nodes >= pacer.check_at or (not nodes & 7 and perf_counter() >= pacer.step_end):
            yield from pacer.tick()
        # (self._probe, inlined)
        if pos.empty >= self._book_min_empty and self._book is not None:
            hit = self._book.get(book_key(pos, self._book_images))
            if hit is not None:
                return hit
        keys = pos.symkeys
        assert keys is not None
        canon = min(keys)
        t = keys.index(canon)
        two = pos.players == 2
        key = canon if two else canon ^ pos.tab.zplayer[pos.to_move]
        tt = self.tt
        packed = tt.get(key)
        tt_move = -1
        if packed is not None:
            lower, upper, cmove = unpack_bounds(packed)
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
            if cmove >= 0:
                tt_move = (pos.tab.inverse[t][cmove >> 1] << 1) | (cmove & 1)
        moves, value, alpha, beta = self._moves(pos, tt_move, alpha, beta)
        if moves is None:
            return value
        alpha0 = alpha
        best = -INF
        best_move = moves[0]
        play = pos.play
        unplay = pos.unplay
        simple = pos.simple
        for m in moves:
            # (pacer.overdue(), inlined)
            if pacer.nodes >= pacer.check_at or perf_counter() >= pacer.step_end:
                yield from pacer.tick()
            gain = play(m)
            try:
                # (self._child, inlined: one generator per node, not two)
                if simple and gain:
                    v = 1  # an SOS wins (unit 1)
                elif pos.ended:
                    v = gain
                elif not two:
                    sign, v, low, high = self.child_window(pos, gain, alpha, beta)
                    if sign:
                        v += sign * (yield from self._solve(pos, low, high))
                elif gain:  # the mover moves again
                    v = gain + (yield from self._solve(pos, alpha - gain, beta - gain))
                else:
                    v = -(yield from self._solve(pos, -beta, -alpha))
            finally:
                unplay()
            if v > best:
                best = v
                best_move = m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if not gain:
                            self.history[m] += 1 << (pos.empty << 1)
                        break
        # (self._store, inlined)
        cmove = (pos.tab.perms[t][best_move >> 1] << 1) | (best_move & 1)
        tt[key] = merge_bounds(tt.get(key), best, alpha0, beta, cmove)
        return best


def solve(state: GameState) -> int:
    """The exact value of ``state`` for the player to move, with two players.

    ``general`` mode: the best achievable (own future points - opponent's future points);
    ``simple`` mode: +1 win, 0 draw, -1 loss. A finished game is worth 0. The state is not
    changed. Fast up to about 16 squares (4x4 from the empty board uses the opening book);
    larger boards may take very long.

    Raises:
        TooManyPlayersError: (a ``ValueError``) for more than two players.
    """
    if state.rules.players != 2:
        raise TooManyPlayersError(
            f"solve() is defined for two players, this game has {state.rules.players}"
        )
    return run_to_end(Solver().value(state))


def solve_actions(state: GameState) -> list[tuple[Action, int]]:
    """Exact value (as :func:`solve`, for the mover) of every legal action, best first."""
    if state.rules.players != 2:
        raise TooManyPlayersError(
            f"solve_actions() is defined for two players, this game has {state.rules.players}"
        )
    return run_to_end(Solver().action_values(state))


__all__ = [
    "BOOK_PATH",
    "Solver",
    "TooManyPlayersError",
    "book",
    "book_key",
    "book_path",
    "canonical_text",
    "load_book_steps",
    "solve",
    "solve_actions",
    "tables",
    "transposed_inverse",
]
