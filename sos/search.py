"""Game-tree search for SOS: a fast board, and a pausable alpha-beta searcher.

Values and units
----------------
Every value here is measured in **future points** (SOSs still to be made from this position),
seen from the side of the player to move: ``own future points - opponents' future points``.
Points already scored are not part of a value, so a value depends only on the board and the
seat to move (that is what :meth:`sos.GameState.key` hashes). In ``simple`` mode the values are
``+1`` (the side to move makes the first SOS), ``0`` (draw) and ``-1``.

Players: with two players this is plain negamax. With three or four players the search uses the
**paranoid** reduction (Sturtevant & Korf 2000): the player for whom we search (the *root*
player) plays against a coalition of all the other seats, which is assumed to co-operate
against it. The payoff is ``root's future points - all other seats' future points combined``
(simple mode: +1 if the root player makes the first SOS, -1 if anyone else does, 0 for a
draw), the root maximises it and every other seat minimises it. That turns the game into a
two-sided zero-sum game, so alpha-beta and the transposition table stay sound. Whether a node
maximises or minimises is decided by asking whose turn it is (``Position.to_move``), never by
ply parity: a scoring move gives the same player another turn.

Pausing
-------
The searches are written as generators: each recursive call is ``yield from``; every
``slice_nodes`` nodes a bare ``yield`` offers a pause point, and the final value is the
generator's return value (``StopIteration.value``). :func:`run_to_end` drives one to completion.
A caller on a browser's main thread instead calls ``next()`` in short time slices and yields to
the browser between them. Time budgets count only the time spent inside the generator (the
time between a resume and the next pause), so pauses do not eat the budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Generator
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, TypeVar

from .board import geometry
from .notation import Action
from .state import GameState

EMPTY: Final = 0
S: Final = 1
O: Final = 2  # noqa: E741 - the letter O
LETTER_CODE: Final = {"S": S, "O": O}
CODE_LETTER: Final = ("", "S", "O")

#: A move inside the search: square index * 2 + (0 for S, 1 for O).
Move = int

#: Default number of nodes between two pause points of a search generator.
SLICE_NODES: Final = 64

INF: Final = 1_000_000

T = TypeVar("T")


def run_to_end(gen: Generator[None, None, T]) -> T:
    """Drive a search generator to completion and return its result."""
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            result: T = stop.value
            return result


def move_action(move: Move, cols: int) -> Action:
    """The :class:`Action` of a search move on a board ``cols`` wide."""
    index = move >> 1
    return Action(index // cols, index % cols, "O" if move & 1 else "S")


def action_move(action: Action, cols: int) -> Move:
    """The search move of an :class:`Action` on a board ``cols`` wide."""
    return ((action.row * cols + action.col) << 1) | (1 if action.letter == "O" else 0)


# --------------------------------------------------------------------------- geometry tables
class _Tables:
    """Per-board-size tables: patterns as index pairs, neighbourhoods, symmetries, keys."""

    __slots__ = ("affected", "inverse", "o_pats", "perms", "s_pats", "zkeys", "zplayer", "zsym")

    def __init__(self, rows: int, cols: int) -> None:
        geo = geometry(rows, cols)
        n = rows * cols
        self.s_pats: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((p.a, p.b) for p in pats) for pats in geo.as_s
        )
        self.o_pats: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((p.a, p.b) for p in pats) for pats in geo.as_o
        )
        affected: list[tuple[int, ...]] = []
        for i in range(n):
            near: set[int] = set()
            for a, b in self.s_pats[i] + self.o_pats[i]:
                near.add(a)
                near.add(b)
            near.discard(i)
            affected.append(tuple(sorted(near)))
        #: The squares whose gains or safety can change when square i is written.
        self.affected: tuple[tuple[int, ...], ...] = tuple(affected)
        #: perms[t][i]: the image of square i under board symmetry t (t = 0 is the identity).
        self.perms: tuple[tuple[int, ...], ...] = _symmetries(rows, cols)
        inverse = []
        for perm in self.perms:
            inv = [0] * n
            for i, j in enumerate(perm):
                inv[j] = i
            inverse.append(tuple(inv))
        #: inverse[t][j]: the square that symmetry t maps onto square j.
        self.inverse: tuple[tuple[int, ...], ...] = tuple(inverse)
        rng = random.Random(0x0505_0505 + n * 7919 + cols)
        z = [[0] * n]
        z += [[rng.getrandbits(62) for _ in range(n)] for _letter in (S, O)]
        #: zkeys[letter][i]: Zobrist key of ``letter`` on square i.
        self.zkeys: tuple[tuple[int, ...], ...] = tuple(tuple(row) for row in z)
        #: zsym[letter][i][t]: key of ``letter`` on the image of square i under symmetry t.
        self.zsym: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(z[letter][perm[i]] for perm in self.perms) for i in range(n))
            for letter in range(3)
        )
        self.zplayer: tuple[int, ...] = tuple(rng.getrandbits(62) for _ in range(4))


def _symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Square permutations mapping the board onto itself (and SOS lines onto SOS lines)."""
    def image(t: int, r: int, c: int) -> tuple[int, int]:
        if t & 4:  # transpose first (square boards only)
            r, c = c, r
        if t & 1:
            r = rows - 1 - r
        if t & 2:
            c = cols - 1 - c
        return r, c

    perms: list[tuple[int, ...]] = []
    for t in range(8 if rows == cols else 4):
        perm = []
        for i in range(rows * cols):
            r2, c2 = image(t, i // cols, i % cols)
            perm.append(r2 * cols + c2)
        if tuple(perm) not in perms:
            perms.append(tuple(perm))
    return tuple(perms)


@lru_cache(maxsize=32)
def tables(rows: int, cols: int) -> _Tables:
    """The (cached) search tables of a ``rows`` x ``cols`` board."""
    return _Tables(rows, cols)


# --------------------------------------------------------------------------- fast board
class Position:
    """A mutable SOS position for search: ``play``/``unplay`` without validation.

    Kept up to date for every empty square ``i``: ``gs[i]``/``go[i]``, the points an S / an O
    written there would score now, and ``us[i]``/``uo[i]``, whether that letter would open an
    SOS for the next mover (a square where a letter would then score). Built from a
    :class:`GameState`, which it never changes.
    """

    __slots__ = (
        "cells",
        "cols",
        "empty",
        "ended",
        "go",
        "gs",
        "key",
        "players",
        "rows",
        "scores",
        "simple",
        "stack",
        "symkeys",
        "tab",
        "to_move",
        "uo",
        "us",
    )

    def __init__(self, state: GameState) -> None:
        rules = state.rules
        self.rows = rules.rows
        self.cols = rules.cols
        self.players = rules.players
        self.simple = rules.mode == "simple"
        self.tab = tables(rules.rows, rules.cols)
        n = rules.cells
        self.cells: list[int] = [LETTER_CODE.get(ch, EMPTY) for ch in state.cells]
        self.empty = state.empty_squares
        self.ended = state.is_terminal()
        self.to_move = state.current_player() if not self.ended else 0
        self.scores = list(state.scores)
        self.stack: list[tuple[int, int, int, int]] = []
        self.gs = [0] * n
        self.go = [0] * n
        self.us = [False] * n
        self.uo = [False] * n
        key = 0
        symkeys = [0] * len(self.tab.perms)
        for i, code in enumerate(self.cells):
            if code:
                key ^= self.tab.zkeys[code][i]
                zs = self.tab.zsym[code][i]
                for t in range(len(symkeys)):
                    symkeys[t] ^= zs[t]
            else:
                self._refresh(i)
        self.key = key
        self.symkeys = symkeys

    def _refresh(self, x: int) -> None:
        c = self.cells
        g = 0
        u = False
        for a, b in self.tab.s_pats[x]:
            ca = c[a]
            cb = c[b]
            if ca == O:
                if cb == S:
                    g += 1
                elif cb == EMPTY:
                    u = True
            elif ca == EMPTY and cb == S:
                u = True
        self.gs[x] = g
        self.us[x] = u
        g = 0
        u = False
        for a, b in self.tab.o_pats[x]:
            ca = c[a]
            cb = c[b]
            if ca == S:
                if cb == S:
                    g += 1
                elif cb == EMPTY:
                    u = True
            elif ca == EMPTY and cb == S:
                u = True
        self.go[x] = g
        self.uo[x] = u

    def tt_key(self) -> int:
        """Transposition key: the board, plus the seat to move with more than two players.

        With two players the value for the side to move depends on the board alone.
        """
        if self.players == 2:
            return self.key
        return self.key ^ self.tab.zplayer[self.to_move]

    def canonical(self) -> tuple[int, int]:
        """(key, symmetry index) of the board's least key over the board's symmetries."""
        keys = self.symkeys
        k = min(keys)
        return k, keys.index(k)

    def play(self, move: Move) -> int:
        """Write a move for the player to move; returns the points it scored."""
        i = move >> 1
        code = 2 if move & 1 else 1
        gain = self.go[i] if code == 2 else self.gs[i]
        cells = self.cells
        cells[i] = code
        tab = self.tab
        self.key ^= tab.zkeys[code][i]
        zs = tab.zsym[code][i]
        sk = self.symkeys
        for t in range(len(sk)):
            sk[t] ^= zs[t]
        self.empty -= 1
        for x in tab.affected[i]:
            if cells[x] == EMPTY:
                self._refresh(x)
        mover = self.to_move
        self.stack.append((i, code, gain, mover))
        if gain:
            self.scores[mover] += gain
            if self.simple:
                self.ended = True
        else:
            self.to_move = (mover + 1) % self.players
        if self.empty == 0:
            self.ended = True
        return gain

    def unplay(self) -> None:
        """Take back the last :meth:`play`."""
        i, code, gain, mover = self.stack.pop()
        cells = self.cells
        cells[i] = EMPTY
        tab = self.tab
        self.key ^= tab.zkeys[code][i]
        zs = tab.zsym[code][i]
        sk = self.symkeys
        for t in range(len(sk)):
            sk[t] ^= zs[t]
        self.empty += 1
        self.ended = False
        self.to_move = mover
        self.scores[mover] -= gain
        for x in tab.affected[i]:
            if cells[x] == EMPTY:
                self._refresh(x)
        self._refresh(i)

    def empties(self) -> list[int]:
        """Indices of the empty squares."""
        return [i for i, c in enumerate(self.cells) if c == EMPTY]

    def scoring_moves(self) -> list[tuple[int, Move]]:
        """(points, move) of every move that scores now, most points first."""
        gs = self.gs
        go = self.go
        out: list[tuple[int, Move]] = []
        for i, c in enumerate(self.cells):
            if c == EMPTY:
                if gs[i]:
                    out.append((gs[i], i << 1))
                if go[i]:
                    out.append((go[i], (i << 1) | 1))
        out.sort(reverse=True)
        return out

    def ordered_moves(self) -> tuple[list[Move], int, int]:
        """Every legal move, ordered: scoring (most points first), safe quiet, then unsafe.

        Returns ``(moves, n_scoring, n_safe)``: the first ``n_scoring`` moves score and the
        next ``n_safe`` neither score nor open an SOS for the next mover.
        """
        gs = self.gs
        go = self.go
        us = self.us
        uo = self.uo
        scoring: list[tuple[int, Move]] = []
        safe: list[Move] = []
        unsafe: list[Move] = []
        for i, c in enumerate(self.cells):
            if c == EMPTY:
                m = i << 1
                g = gs[i]
                if g:
                    scoring.append((g, m))
                elif us[i]:
                    unsafe.append(m)
                else:
                    safe.append(m)
                g = go[i]
                if g:
                    scoring.append((g, m | 1))
                elif uo[i]:
                    unsafe.append(m | 1)
                else:
                    safe.append(m | 1)
        n_safe = len(safe)
        if scoring:
            scoring.sort(reverse=True)
            moves = [m for _, m in scoring]
            moves.extend(safe)
        else:
            moves = safe
        moves.extend(unsafe)
        return moves, len(scoring), n_safe

    def gift(self, move: Move) -> int:
        """Points the next mover could score at once after the quiet ``move`` (a rough count).

        Counts the squares where one letter would then score (each at least one point).
        """
        self.play(move)
        total = 0
        gs = self.gs
        go = self.go
        for i in self.tab.affected[move >> 1]:
            if self.cells[i] == EMPTY:
                total += max(gs[i], go[i])
        self.unplay()
        return total


# --------------------------------------------------------------------------- budget clock
class Clock:
    """Counts the seconds spent between :meth:`resume` and :meth:`pause` (search time only)."""

    __slots__ = ("_since", "spent")

    def __init__(self) -> None:
        self.spent = 0.0
        self._since = time.perf_counter()

    def resume(self) -> None:
        """Start counting again (call right after a ``yield`` returns)."""
        self._since = time.perf_counter()

    def pause(self) -> None:
        """Stop counting (call right before a ``yield``)."""
        now = time.perf_counter()
        self.spent += now - self._since
        self._since = now

    def elapsed(self) -> float:
        """Search seconds so far, including the running stretch."""
        return self.spent + (time.perf_counter() - self._since)


class SearchTimeout(Exception):
    """Raised inside a search when its budget of search time is spent (caught at the root)."""


# --------------------------------------------------------------------------- alpha-beta
@dataclass
class SearchResult:
    """The outcome of a search from one position.

    Attributes:
        move: the best move found (see :func:`move_action`), or -1 in a finished game.
        value: its value in future points for the side to move (see the module docstring);
            for ``simple`` mode +1 / 0 / -1. A float: heuristic beyond the horizon.
        exact: True when the last completed iteration saw every line to the end of the game
            (no heuristic leaf was used), so ``value`` is the game-theoretic value.
        depth: the deepest completed iteration (plies of nominal depth).
        nodes: nodes visited.
        seconds: search seconds spent (pauses excluded).
        root_values: value of each root move searched in the last completed iteration.
    """

    move: Move
    value: float
    exact: bool
    depth: int
    nodes: int
    seconds: float
    root_values: dict[Move, float]


_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2
#: Table depth of a value that saw every line to the end of the game.
_TO_END: Final = 1000

#: Longest chain of scoring moves followed beyond the horizon.
QUIESCE_DEPTH: Final = 12
#: Heuristic value of a quiet position where the side to move has no safe move left.
FORCED_GIFT: Final = 0.9


class AlphaBeta:
    """Iterative-deepening alpha-beta (negamax form) with a transposition table.

    * Move ordering: the table's best move, then scoring moves (most points first), then safe
      quiet moves, then moves that open an SOS for the next player.
    * Quiescence-like extension: at the horizon, chains of scoring moves (each one keeps the
      turn) are followed to their end before the position is judged, and a side with no safe
      move left is charged :data:`FORCED_GIFT`.
    * Budget: ``budget`` seconds of search time, checked every ``slice_nodes`` nodes (which
      are also the pause points).
    * n players: paranoid (see the module docstring), the root seat against all the others.
    """

    def __init__(
        self,
        budget: float = 0.4,
        max_depth: int = 64,
        slice_nodes: int = SLICE_NODES,
        rng: random.Random | None = None,
        tt_limit: int = 400_000,
    ) -> None:
        self.budget = budget
        self.max_depth = max_depth
        self.slice_nodes = slice_nodes
        self.rng = rng if rng is not None else random.Random(0)
        self.tt_limit = tt_limit
        self.tt: dict[int, tuple[int, int, float, Move]] = {}
        self.nodes = 0
        self.clock = Clock()
        self.horizon_hit = False
        self.root = 0
        self.deadline_check = 0

    # -------------------------------------------------------------- helpers
    def _tick(self) -> Generator[None, None, None]:
        self.clock.pause()
        if self.clock.spent > self.budget:
            raise SearchTimeout
        yield
        self.clock.resume()

    def _same_side(self, a: int, b: int) -> bool:
        return a == b or (a != self.root and b != self.root)

    # -------------------------------------------------------------- root
    def search(self, state: GameState) -> Generator[None, None, SearchResult]:
        """Search ``state`` (not modified) and return the best move found in the budget."""
        self.clock = Clock()
        self.nodes = 0
        if len(self.tt) > self.tt_limit:
            self.tt.clear()
        pos = Position(state)
        if pos.ended:
            return SearchResult(-1, 0.0, True, 0, 0, 0.0, {})
        self.root = pos.to_move
        if pos.players > 2:
            self.tt.clear()  # paranoid values depend on the root seat
        moves, n_scoring, _ = pos.ordered_moves()
        if len(moves) == 1:
            return SearchResult(moves[0], 0.0, False, 0, 0, 0.0, {moves[0]: 0.0})
        # Shuffle inside the classes so that equal moves are chosen at random (seeded).
        scoring = moves[:n_scoring]
        rest = moves[n_scoring:]
        self.rng.shuffle(rest)
        order = scoring + [m for m in rest if not _opens(pos, m)]
        order += [m for m in rest if _opens(pos, m)]
        best = SearchResult(order[0], 0.0, False, 0, 0, 0.0, {})
        depth = 1
        values: dict[Move, float] = {}
        alpha = -float(INF)
        best_move = order[0]
        try:
            while depth <= self.max_depth:
                self.horizon_hit = False
                values = {}
                alpha = -float(INF)
                best_move = order[0]
                for m in order:
                    gain = pos.play(m)
                    try:
                        v = yield from self._child_value(pos, gain, depth - 1, alpha, float(INF))
                    finally:
                        pos.unplay()
                    values[m] = v
                    if v > alpha:
                        alpha = v
                        best_move = m
                exact = not self.horizon_hit
                best = SearchResult(
                    best_move, alpha, exact, depth, self.nodes, self.clock.elapsed(), values
                )
                if exact or depth >= pos.empty:
                    break
                # Next iteration: best first, the others by their values (stable sort).
                order.sort(key=lambda mv: -values[mv])
                depth += 1
        except SearchTimeout:
            # The unfinished iteration searched the previous best move first, so a move it
            # found better than that is better at the greater depth.
            if values and (depth == 1 or best_move != order[0]):
                best = SearchResult(
                    best_move, alpha, False, depth, self.nodes, self.clock.elapsed(), values
                )
        self.clock.pause()
        best.nodes = self.nodes
        best.seconds = self.clock.spent
        return best

    def _child_value(
        self, pos: Position, gain: int, depth: int, alpha: float, beta: float
    ) -> Generator[None, None, float]:
        """Value for the mover of the move just played (``gain`` points), by the mover's side."""
        mover = pos.stack[-1][3]
        if pos.simple and gain:
            return 1.0
        if pos.ended:
            return float(gain)
        if self._same_side(mover, pos.to_move):
            v = yield from self._negamax(pos, depth, alpha - gain, beta - gain)
            return gain + v
        v = yield from self._negamax(pos, depth, -beta, -alpha)
        return -v

    def _negamax(
        self, pos: Position, depth: int, alpha: float, beta: float
    ) -> Generator[None, None, float]:
        """Value for the side to move of ``pos`` (not ended) within (alpha, beta)."""
        self.nodes += 1
        if self.nodes % self.slice_nodes == 0:
            yield from self._tick()
        if depth <= 0:
            v = yield from self._quiesce(pos, alpha, beta, QUIESCE_DEPTH)
            return v
        key = pos.tt_key()
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, flag, e_value, tt_move = entry
            if e_depth >= depth and (
                flag == _EXACT
                or (flag == _LOWER and e_value >= beta)
                or (flag == _UPPER and e_value <= alpha)
            ):
                if e_depth < _TO_END:
                    self.horizon_hit = True
                return e_value
        moves, n_scoring, n_safe = pos.ordered_moves()
        if pos.simple and pos.players == 2:
            if n_scoring:
                return 1.0
            if n_safe == 0:
                return -1.0
        if tt_move >= 0 and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        alpha0 = alpha
        best = -float(INF)
        best_move = moves[0]
        hit_before = self.horizon_hit
        self.horizon_hit = False
        for m in moves:
            gain = pos.play(m)
            try:
                v = yield from self._child_value(pos, gain, depth - 1, alpha, beta)
            finally:
                pos.unplay()
            if v > best:
                best = v
                best_move = m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if best <= alpha0:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        else:
            flag = _EXACT
        # A value that saw the whole game to its end is good for any depth.
        stored_depth = depth if self.horizon_hit else _TO_END
        self.horizon_hit = self.horizon_hit or hit_before
        self.tt[key] = (stored_depth, flag, best, best_move)
        return best

    def _quiesce(
        self, pos: Position, alpha: float, beta: float, qdepth: int
    ) -> Generator[None, None, float]:
        """Horizon evaluation: follow scoring chains, charge a side with no safe move."""
        self.horizon_hit = True
        scoring = pos.scoring_moves()
        if not scoring or qdepth <= 0:
            if pos.simple:
                return 0.0
            return quiet_eval(pos)
        if pos.simple:
            return 1.0
        best = -float(INF)
        # Only the best two scoring moves at the first step, the best one after that: the
        # chain matters, not every order of taking it.
        for _, m in scoring[: (2 if qdepth >= QUIESCE_DEPTH else 1)]:
            self.nodes += 1
            if self.nodes % self.slice_nodes == 0:
                yield from self._tick()
            gain = pos.play(m)
            try:
                if pos.ended:
                    v = float(gain)
                else:
                    q = yield from self._quiesce(pos, alpha - gain, beta - gain, qdepth - 1)
                    v = gain + q
            finally:
                pos.unplay()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best


def _opens(pos: Position, move: Move) -> bool:
    i = move >> 1
    return pos.uo[i] if move & 1 else pos.us[i]


#: Weight of the parity of the safe squares left in :func:`quiet_eval`, in points.
PARITY_WEIGHT: Final = 0.5


def quiet_eval(pos: Position) -> float:
    """Heuristic value (future points, side to move) of a quiet ``general``-mode position.

    In SOS the players fill the safe squares (where some letter opens no SOS) until none is
    left; then whoever must move hands points to the other. So: with no safe square, the side
    to move loses at least the smallest gift it can make; otherwise the parity of the safe
    squares says who will run out first (odd: the side to move plays the last safe one).
    """
    us = pos.us
    uo = pos.uo
    safe = 0
    for i, c in enumerate(pos.cells):
        if c == EMPTY and not (us[i] and uo[i]):
            safe += 1
    if safe == 0:
        least = min(pos.gift(m) for m in pos.ordered_moves()[0])
        return -float(max(least, 1)) * FORCED_GIFT
    return PARITY_WEIGHT if safe % 2 else -PARITY_WEIGHT
