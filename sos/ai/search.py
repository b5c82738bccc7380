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
generator's return value (``StopIteration.value``). Beyond the horizon :class:`AlphaBeta`'s
quiescence recurses with plain calls (a generator per node would cost more than such a node's
own work, most of all under Pyodide). :func:`sos.ai.base.run_to_end` drives a search to
completion. A caller on a browser's main thread instead calls ``next()`` in short time slices
and yields to the browser between them. Time budgets count only the time spent inside the
generator (the time between a resume and the next pause), so pauses do not eat the budget
(:class:`sos.ai.base.Pacer`).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Generator
from dataclasses import dataclass
from functools import lru_cache
from time import perf_counter
from typing import Final, NamedTuple

from ..board import geometry
from ..notation import Action
from ..state import GameState
from .base import (
    DRAIN_CHUNK,
    SLICE_NODES,
    STEP_SECONDS,
    TO_END,
    Budget,
    Entry,
    Pacer,
    SearchTimeout,
    TableSearch,
    bound_of,
    drain,
    pack_entry,
    run_to_end,
)

EMPTY: Final = 0
S: Final = 1
O: Final = 2  # noqa: E741 - the letter O
LETTER_CODE: Final = {"S": S, "O": O}
CODE_LETTER: Final = ("", "S", "O")

#: A move inside the search: square index * 2 + (0 for S, 1 for O).
Move = int

#: More than any value of a search (1/UNIT points).
INF: Final = 1_000_000


def move_action(move: Move, cols: int) -> Action:
    """The :class:`Action` of a search move on a board ``cols`` wide."""
    index = move >> 1
    return Action(index // cols, index % cols, "O" if move & 1 else "S")


def action_move(action: Action, cols: int) -> Move:
    """The search move of an :class:`Action` on a board ``cols`` wide."""
    return ((action.row * cols + action.col) << 1) | (1 if action.letter == "O" else 0)


# --------------------------------------------------------------------------- geometry tables
class _Tables:
    """Per-board-size tables: patterns as index pairs, neighbourhoods, symmetries, keys, and
    the bit layout of the board's bitboards (see :class:`Position`)."""

    __slots__ = (
        "affected",
        "bit",
        "bitval",
        "byte_moves",
        "dirs",
        "full",
        "inverse",
        "line_starts",
        "nbytes",
        "near_mask",
        "o_pats",
        "perms",
        "s_pats",
        "square",
        "zkeys",
        "zplayer",
        "zsym",
    )

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
        # Bitboards: square (r, c) is bit r * (cols + 2) + c. The two always-empty guard
        # columns stop every shift by one or two squares from wrapping into another row.
        width = cols + 2
        #: bit[i]: the bit of square i; square[b]: the square of bit b (-1 for a guard bit).
        self.bit: tuple[int, ...] = tuple((i // cols) * width + i % cols for i in range(n))
        square = [-1] * (rows * width)
        for i, b in enumerate(self.bit):
            square[b] = i
        self.square: tuple[int, ...] = tuple(square)
        #: bitval[i]: 1 << bit[i].
        self.bitval: tuple[int, ...] = tuple(1 << b for b in self.bit)
        #: Bytes of a bitboard (``mask.to_bytes(nbytes, "little")``), and byte_moves[letter]
        #: [k][v]: the S (letter 0) or O (1) moves on the squares of the bits set in the value
        #: v of byte k, ascending (see :func:`_moves_of`).
        self.nbytes: int = (rows * width + 7) // 8
        self.byte_moves: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
            tuple(_byte_moves(square[8 * k : 8 * k + 8], letter) for k in range(self.nbytes))
            for letter in (0, 1)
        )
        #: Every square's bit.
        self.full: int = sum(1 << b for b in self.bit)
        #: Bit distances of the four line directions: row, column, both diagonals.
        self.dirs: tuple[int, ...] = (1, width, width + 1, width - 1)
        #: line_starts[k]: the bits x whose line x, x + d, x + 2d (d = dirs[k]) lies on the
        #: board (the first square of every line of three in that direction).
        self.line_starts: tuple[int, ...] = tuple(
            sum(
                1 << self.bit[r * cols + c]
                for r in range(rows)
                for c in range(cols)
                if 0 <= r + 2 * dr < rows and 0 <= c + 2 * dc < cols
            )
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
        )
        #: near_mask[i]: the bits of affected[i].
        self.near_mask: tuple[int, ...] = tuple(
            sum(1 << self.bit[x] for x in near) for near in affected
        )
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


def _byte_moves(squares: list[int], letter: int) -> tuple[tuple[int, ...], ...]:
    """For each byte value v (0-255): the moves writing ``letter`` (0: S, 1: O) on the squares
    ``squares[j]`` of v's set bits j, ascending (-1 or a missing entry: a guard bit, no move).

    Built from v without its lowest set bit (256 tuple joins, not 256 x 8 tests).
    """
    moves: list[tuple[int, ...]] = [()] * 256
    for v in range(1, 256):
        low = v & -v
        j = low.bit_length() - 1
        rest = moves[v ^ low]
        sq = squares[j] if j < len(squares) else -1
        moves[v] = ((sq << 1) | letter, *rest) if sq >= 0 else rest
    return tuple(moves)


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


class Maps(NamedTuple):
    """Bit masks of the empty squares of a position (bit layout: :class:`_Tables`).

    ``score_s``/``score_o``: where an S / an O would score now; ``open_s``/``open_o``: where
    it would open an SOS for the next mover (a square where a letter would then score);
    ``s_parts``/``o_parts``: the per-pattern masks whose union is ``score_s``/``score_o`` —
    a square's points are the number of them that hold its bit.
    """

    score_s: int
    score_o: int
    open_s: int
    open_o: int
    s_parts: tuple[int, ...]
    o_parts: tuple[int, ...]


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _moves_of(mask: int, tab: _Tables, letter: int) -> list[Move]:
    """The moves writing ``letter`` (0: S, 1: O) on the squares of ``mask``'s bits, ascending
    (a byte at a time from :attr:`_Tables.byte_moves`: fewer Python steps than a bit at a
    time)."""
    table = tab.byte_moves[letter]
    return [
        m
        for k, v in enumerate(mask.to_bytes(tab.nbytes, "little"))
        if v
        for m in table[k][v]
    ]


# --------------------------------------------------------------------------- fast board
class Position:
    """A mutable SOS position for search: ``play``/``unplay`` without validation.

    The board is kept twice: ``cells`` (a list, square index -> ``EMPTY``/``S``/``O``) and
    two **bitboards** ``s_bits``/``o_bits`` (Python integers, one bit per square, layout in
    :class:`_Tables`). What search asks of a position — the squares where a letter scores
    now, or would open an SOS for the next mover — is computed for the whole board at once
    by :meth:`maps` from a few dozen shifts and masks of those integers (each one C
    operation, also under Pyodide), instead of being kept up to date square by square.
    Built from a :class:`GameState`, which it never changes. ``symmetric=False`` skips the
    symmetric keys (:meth:`canonical`), which only the exact solver needs.
    """

    __slots__ = (
        "cells",
        "cols",
        "empty",
        "ended",
        "key",
        "o_bits",
        "players",
        "rows",
        "s_bits",
        "scores",
        "simple",
        "stack",
        "symkeys",
        "symstack",
        "tab",
        "to_move",
    )

    def __init__(self, state: GameState, symmetric: bool = True) -> None:
        rules = state.rules
        self.rows = rules.rows
        self.cols = rules.cols
        self.players = rules.players
        self.simple = rules.mode == "simple"
        self.tab = tab = tables(rules.rows, rules.cols)
        self.cells: list[int] = [LETTER_CODE.get(ch, EMPTY) for ch in state.cells]
        self.empty = state.empty_squares
        self.ended = state.is_terminal()
        self.to_move = state.current_player() if not self.ended else 0
        self.scores = list(state.scores)
        self.stack: list[tuple[int, int, int, int]] = []
        key = 0
        s_bits = o_bits = 0
        symkeys = [0] * len(tab.perms)
        for i, code in enumerate(self.cells):
            if code:
                key ^= tab.zkeys[code][i]
                zs = tab.zsym[code][i]
                for t in range(len(symkeys)):
                    symkeys[t] ^= zs[t]
                if code == S:
                    s_bits |= 1 << tab.bit[i]
                else:
                    o_bits |= 1 << tab.bit[i]
        self.key = key
        self.s_bits = s_bits
        self.o_bits = o_bits
        #: Zobrist keys of the board's images under each symmetry (``None``: not kept).
        self.symkeys: list[int] | None = symkeys if symmetric else None
        #: The symmetric keys before each move on ``stack`` (restored by unplay).
        self.symstack: list[list[int]] = []

    def maps(self) -> Maps:
        """Where each letter scores now and where it would open an SOS (whole board)."""
        score_s, score_o, s_parts, o_parts = self.score_maps()
        open_s, open_o = self.open_maps()
        return Maps(score_s, score_o, open_s, open_o, s_parts, o_parts)

    def score_maps(self) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
        """``(score_s, score_o, s_parts, o_parts)`` of :class:`Maps` (the cheaper half)."""
        s = self.s_bits
        o = self.o_bits
        d1, d2, d3, d4 = self.tab.dirs
        # An S scores on x with an O on x + d and an S on x + 2d (or the same towards -d);
        # an O scores on x between two S (x - d and x + d).
        # ((o >> d) & (s >> 2d) is computed as (o & (s >> d)) >> d, sharing s >> d.)
        r1, l1, r2, l2 = s >> d1, s << d1, s >> d2, s << d2
        r3, l3, r4, l4 = s >> d3, s << d3, s >> d4, s << d4
        s_parts = (
            (o & r1) >> d1,
            (o & l1) << d1,
            (o & r2) >> d2,
            (o & l2) << d2,
            (o & r3) >> d3,
            (o & l3) << d3,
            (o & r4) >> d4,
            (o & l4) << d4,
        )
        o_parts = (r1 & l1, r2 & l2, r3 & l3, r4 & l4)
        e = self.tab.full ^ (s | o)
        score_s = (
            s_parts[0] | s_parts[1] | s_parts[2] | s_parts[3]
            | s_parts[4] | s_parts[5] | s_parts[6] | s_parts[7]
        ) & e
        score_o = (o_parts[0] | o_parts[1] | o_parts[2] | o_parts[3]) & e
        return score_s, score_o, s_parts, o_parts

    def open_maps(self) -> tuple[int, int]:
        """``(open_s, open_o)`` of :class:`Maps`: where a letter would open an SOS."""
        s = self.s_bits
        o = self.o_bits
        e = self.tab.full ^ (s | o)
        open_s = open_o = 0
        for d in self.tab.dirs:
            d2 = d + d
            s_up = s >> d
            s_dn = s << d
            e_up = e >> d
            e_dn = e << d
            # S on x opens x+2d (O on x+d, x+2d empty) or x+d (x+d empty, S on x+2d).
            open_s |= (
                ((o >> d) & (e >> d2)) | (e_up & (s >> d2))
                | ((o << d) & (e << d2)) | (e_dn & (s << d2))
            )
            # O on x opens the empty end of S-O-_ or _-O-S.
            open_o |= (s_up & e_dn) | (e_up & s_dn)
        return open_s & e, open_o & e

    def safe_squares(self) -> int:
        """The empty squares where some letter opens no SOS for the next mover (a square
        where a letter scores now counts too: call it in a position without one)."""
        open_s, open_o = self.open_maps()
        return ((self.tab.full ^ (self.s_bits | self.o_bits)) & ~(open_s & open_o)).bit_count()

    def live_lines(self) -> tuple[int, int]:
        """``(live, cover)``: the number of lines of three squares that can still become an
        SOS (not yet complete, no wrong letter: an O at an end, an S in the middle), and the
        bits of the squares on at least one of them.

        The side to move's value lies within ``[-live, live]`` (general mode: each such line
        gives at most one point); an empty square outside ``cover`` is *dead*: whatever is
        written there never scores or opens an SOS, so all moves on dead squares lead to
        games of the same value.
        """
        s = self.s_bits
        o = self.o_bits
        f = s | o
        tab = self.tab
        st1, st2, st3, st4 = tab.line_starts
        d1, d2, d3, d4 = tab.dirs
        # A line starting at x is live unless it holds an O at an end (x or x + 2d), an S in
        # the middle, or is full; unrolled over the four directions (the solver's hot path).
        ls1 = st1 & ~(o | (s >> d1) | (o >> 2 * d1) | (f & (f >> d1) & (f >> 2 * d1)))
        ls2 = st2 & ~(o | (s >> d2) | (o >> 2 * d2) | (f & (f >> d2) & (f >> 2 * d2)))
        ls3 = st3 & ~(o | (s >> d3) | (o >> 2 * d3) | (f & (f >> d3) & (f >> 2 * d3)))
        ls4 = st4 & ~(o | (s >> d4) | (o >> 2 * d4) | (f & (f >> d4) & (f >> 2 * d4)))
        live = ls1.bit_count() + ls2.bit_count() + ls3.bit_count() + ls4.bit_count()
        cover = (
            ls1 | (ls1 << d1) | (ls1 << 2 * d1)
            | ls2 | (ls2 << d2) | (ls2 << 2 * d2)
            | ls3 | (ls3 << d3) | (ls3 << 2 * d3)
            | ls4 | (ls4 << d4) | (ls4 << 2 * d4)
        )
        return live, cover

    def gain(self, i: int, code: int) -> int:
        """Points ``code`` (``S``/``O``) written on the empty square ``i`` would score."""
        c = self.cells
        g = 0
        if code == S:
            for a, b in self.tab.s_pats[i]:
                if c[a] == O and c[b] == S:
                    g += 1
        else:
            for a, b in self.tab.o_pats[i]:
                if c[a] == S and c[b] == S:
                    g += 1
        return g

    def tt_key(self) -> int:
        """Transposition key: the board, plus the seat to move with more than two players.

        With two players the value for the side to move depends on the board alone.
        """
        if self.players == 2:
            return self.key
        return self.key ^ self.tab.zplayer[self.to_move]

    def canonical(self) -> tuple[int, int]:
        """(key, symmetry index) of the board's least key over the board's symmetries.

        Raises:
            ValueError: for a position made with ``symmetric=False``.
        """
        keys = self.symkeys
        if keys is None:
            raise ValueError("this position keeps no symmetric keys")
        k = min(keys)
        return k, keys.index(k)

    def play(self, move: Move, gain: int = -1) -> int:
        """Write a move for the player to move; returns the points it scored (``gain``, when
        the caller knows them already, e.g. from :meth:`captures`)."""
        i = move >> 1
        code = 2 if move & 1 else 1
        if gain < 0:
            gain = self.gain(i, code)
        self.cells[i] = code
        tab = self.tab
        if code == S:
            self.s_bits |= tab.bitval[i]
        else:
            self.o_bits |= tab.bitval[i]
        self.key ^= tab.zkeys[code][i]
        sk = self.symkeys
        if sk is not None:
            self.symstack.append(sk)
            self.symkeys = [k ^ z for k, z in zip(sk, tab.zsym[code][i], strict=True)]
        self.empty -= 1
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
        self.cells[i] = EMPTY
        tab = self.tab
        if code == S:
            self.s_bits ^= tab.bitval[i]
        else:
            self.o_bits ^= tab.bitval[i]
        self.key ^= tab.zkeys[code][i]
        if self.symkeys is not None:
            self.symkeys = self.symstack.pop()
        self.empty += 1
        self.ended = False
        self.to_move = mover
        self.scores[mover] -= gain

    def empties(self) -> list[int]:
        """Indices of the empty squares."""
        return [i for i, c in enumerate(self.cells) if c == EMPTY]

    def scoring_from(
        self, score_s: int, score_o: int, s_parts: tuple[int, ...], o_parts: tuple[int, ...]
    ) -> list[tuple[int, Move]]:
        """(points, move) of every move that scores, from :meth:`score_maps`, most points
        first."""
        out: list[tuple[int, Move]] = []
        square = self.tab.square
        for code, mask, parts in ((S, score_s, s_parts), (O, score_o, o_parts)):
            if not mask:
                continue
            # Squares in two or more of the pattern masks score more than one point.
            seen = several = 0
            for part in parts:
                several |= seen & part
                seen |= part
            several &= mask
            letter = code - 1
            if not several:
                out.extend((1, (square[b] << 1) | letter) for b in _bits(mask))
                continue
            for b in _bits(mask):
                i = square[b]
                out.append(((self.gain(i, code) if (several >> b) & 1 else 1), (i << 1) | letter))
        out.sort(reverse=True)
        return out

    def captures(self, count: int) -> list[tuple[int, Move]]:
        """The first ``count`` entries of :meth:`scoring_moves` (same order; empty when nothing
        scores), for quiescence: :meth:`score_maps` and the selection in one function, without
        building the whole list — the squares worth two or more points (few), then the
        one-point moves with the highest move numbers."""
        s = self.s_bits
        o = self.o_bits
        tab = self.tab
        d1, d2, d3, d4 = tab.dirs
        e = tab.full ^ (s | o)
        # As in score_maps, unrolled (this is the quiescence's hot path), and with the shifts
        # of s shared: (o >> d) & (s >> 2d) == (o & (s >> d)) >> d.
        r = s >> d1
        left = s << d1
        p0 = (o & r) >> d1
        p1 = (o & left) << d1
        q0 = r & left
        r = s >> d2
        left = s << d2
        p2 = (o & r) >> d2
        p3 = (o & left) << d2
        q1 = r & left
        r = s >> d3
        left = s << d3
        p4 = (o & r) >> d3
        p5 = (o & left) << d3
        q2 = r & left
        r = s >> d4
        left = s << d4
        p6 = (o & r) >> d4
        p7 = (o & left) << d4
        q3 = r & left
        score_s = (p0 | p1 | p2 | p3 | p4 | p5 | p6 | p7) & e
        score_o = (q0 | q1 | q2 | q3) & e
        if not (score_s | score_o):
            return []
        square = tab.square
        out: list[tuple[int, Move]] = []
        single_s = score_s
        if score_s:  # squares in two or more pattern masks
            seen = p0 | p1
            several = p0 & p1
            several |= seen & p2
            seen |= p2
            several |= seen & p3
            seen |= p3
            several |= seen & p4
            seen |= p4
            several |= seen & p5
            seen |= p5
            several |= seen & p6
            seen |= p6
            several |= seen & p7
            several &= score_s
            if several:
                single_s ^= several
                for b in _bits(several):
                    i = square[b]
                    out.append((self.gain(i, S), i << 1))
        single_o = score_o
        if score_o:
            seen = q0 | q1
            several = q0 & q1
            several |= seen & q2
            seen |= q2
            several |= seen & q3
            several &= score_o
            if several:
                single_o ^= several
                for b in _bits(several):
                    i = square[b]
                    out.append((self.gain(i, O), (i << 1) | 1))
        rest = single_s | single_o
        taken = 0
        while rest and taken < count:
            b = rest.bit_length() - 1
            m = square[b] << 1
            if (single_o >> b) & 1:
                out.append((1, m | 1))
                taken += 1
            if (single_s >> b) & 1:
                out.append((1, m))
                taken += 1
            rest ^= 1 << b
        if len(out) > 1:
            out.sort(reverse=True)
        return out[:count]

    def scoring_moves(self) -> list[tuple[int, Move]]:
        """(points, move) of every move that scores now, most points first."""
        maps = self.score_maps()
        if not (maps[0] | maps[1]):
            return []
        return self.scoring_from(*maps)

    def opens(self, move: Move) -> bool:
        """Whether the quiet ``move`` opens an SOS for the next mover."""
        open_s, open_o = self.open_maps()
        mask = open_o if move & 1 else open_s
        return bool((mask >> self.tab.bit[move >> 1]) & 1)

    def ordered_moves(self) -> tuple[list[Move], int, int]:
        """Every legal move, ordered: scoring (most points first), safe quiet, then unsafe.

        Returns ``(moves, n_scoring, n_safe)``: the first ``n_scoring`` moves score and the
        next ``n_safe`` neither score nor open an SOS for the next mover. Within the quiet
        classes, moves are in square order, S before O on a square.
        """
        score_s, score_o, s_parts, o_parts = self.score_maps()
        open_s, open_o = self.open_maps()
        tab = self.tab
        e = tab.full ^ (self.s_bits | self.o_bits)
        if score_s | score_o:
            moves = [m for _, m in self.scoring_from(score_s, score_o, s_parts, o_parts)]
        else:
            moves = []
        n_scoring = len(moves)
        quiet_s = e & ~score_s
        quiet_o = e & ~score_o
        safe_s = quiet_s & ~open_s
        safe_o = quiet_o & ~open_o
        # Square order, S before O on a square: that is ascending move numbers.
        safe = _moves_of(safe_s, tab, 0) + _moves_of(safe_o, tab, 1)
        safe.sort()
        unsafe = _moves_of(quiet_s & open_s, tab, 0) + _moves_of(quiet_o & open_o, tab, 1)
        unsafe.sort()
        n_safe = len(safe)
        moves += safe
        moves += unsafe
        return moves, n_scoring, n_safe

    def gift(self, move: Move) -> int:
        """Points the next mover could score at once after the quiet ``move`` (a rough count).

        Counts the squares where one letter would then score (each at least one point).
        """
        self.play(move)
        maps = self.score_maps()
        total = 0
        near = maps[0] | maps[1]
        if near:
            near &= self.tab.near_mask[move >> 1]
            best: dict[int, int] = {}
            for g, m in self.scoring_from(*maps):
                b = self.tab.bit[m >> 1]
                if (near >> b) & 1 and g > best.get(b, 0):
                    best[b] = g
            total = sum(best.values())
        self.unplay()
        return total


_xor: Final = operator.xor


def update_lines(
    cells: list[int],
    gs: list[int],
    go: list[int],
    us: list[int],
    uo: list[int],
    ends: tuple[tuple[int, int], ...],
    middles: tuple[tuple[int, int], ...],
    code: int,
) -> None:
    """Update the tables of :class:`EndgamePosition` for ``code`` (``S``/``O``) about to be
    written on an empty square ``i``: ``ends`` are the lines with ``i`` at an end (``(middle,
    far end)``, :attr:`_Tables.s_pats` of ``i``), ``middles`` those with ``i`` in the middle
    (``(end, end)``, :attr:`_Tables.o_pats`). Only the two other squares of each line change:
    the points their letter would score there and the lines it would open (an S-O-S one
    letter short). Entries of written squares change too (they are stale until restored).
    """
    if code == S:
        for m, f in ends:
            # m, between i and f, for an O: S_S scores; S__ opens; __S opened before.
            cf = cells[f]
            if cf == S:
                go[m] += 1
                uo[m] -= 1
            elif cf == EMPTY:
                uo[m] += 1
            # f, at the far end, for an S: S-O_ scores; S-__ opens; _-O_ opened before.
            cm = cells[m]
            if cm == O:
                gs[f] += 1
                us[f] -= 1
            elif cm == EMPTY:
                us[f] += 1
        for a, b in middles:
            # an S in the middle kills the line: an end opened it before if the other held S.
            if cells[b] == S:
                us[a] -= 1
            if cells[a] == S:
                us[b] -= 1
    else:
        for m, f in ends:
            # an O at an end kills the line.
            if cells[f] == S:
                uo[m] -= 1
            if cells[m] == O:
                us[f] -= 1
        for a, b in middles:
            cb = cells[b]
            if cb == S:
                gs[a] += 1
                us[a] -= 1
            elif cb == EMPTY:
                us[a] += 1
            ca = cells[a]
            if ca == S:
                gs[b] += 1
                us[b] -= 1
            elif ca == EMPTY:
                us[b] += 1


class EndgamePosition(Position):
    """A :class:`Position` that keeps, for every empty square ``i``, ``gs[i]``/``go[i]`` (the
    points an S / an O written there would score now) and ``us[i]``/``uo[i]`` (how many lines
    that letter would open for the next mover: an SOS one letter from complete; 0 for none),
    updated line by line around each move.

    Same moves, same order, same values as :class:`Position` (a test checks it); faster when
    few squares are empty (the exact solver's endgames: a move touches few empty squares),
    slower on a wide board, where the whole-board bitboard maps of :class:`Position` win.
    The entries of a written square are stale (they are restored with it by :meth:`unplay`).
    """

    __slots__ = ("go", "gs", "saved", "uo", "us")

    def __init__(self, state: GameState, symmetric: bool = True) -> None:
        super().__init__(state, symmetric)
        n = len(self.cells)
        self.gs = [0] * n
        self.go = [0] * n
        self.us = [0] * n
        self.uo = [0] * n
        #: The tables before each move on ``stack`` (a move copies them, unplay restores them:
        #: copying four short lists is cheaper than undoing the changes around the move).
        self.saved: list[tuple[list[int], list[int], list[int], list[int]]] = []
        for i, code in enumerate(self.cells):
            if not code:
                self._refresh(i)

    def _refresh(self, x: int) -> None:
        """Recompute the four table entries of the empty square ``x`` from its lines."""
        c = self.cells
        g = 0
        u = 0
        for a, b in self.tab.s_pats[x]:
            ca = c[a]
            cb = c[b]
            if ca == O:
                if cb == S:
                    g += 1
                elif cb == EMPTY:
                    u += 1
            elif ca == EMPTY and cb == S:
                u += 1
        self.gs[x] = g
        self.us[x] = u
        g = 0
        u = 0
        for a, b in self.tab.o_pats[x]:
            ca = c[a]
            cb = c[b]
            if ca == S:
                if cb == S:
                    g += 1
                elif cb == EMPTY:
                    u += 1
            elif ca == EMPTY and cb == S:
                u += 1
        self.go[x] = g
        self.uo[x] = u

    def gain(self, i: int, code: int) -> int:
        """Points ``code`` written on the empty square ``i`` would score (from the tables)."""
        return self.go[i] if code == O else self.gs[i]

    def play(self, move: Move, gain: int = -1) -> int:
        """:meth:`Position.play`, and the table entries of the squares on the lines through
        the move (see :func:`update_lines`)."""
        i = move >> 1
        tab = self.tab
        cells = self.cells
        gs, go, us, uo = self.gs, self.go, self.us, self.uo
        self.saved.append((gs, go, us, uo))
        self.gs = gs = gs[:]
        self.go = go = go[:]
        self.us = us = us[:]
        self.uo = uo = uo[:]
        if move & 1:
            code = O
            if gain < 0:
                gain = go[i]
            self.o_bits |= tab.bitval[i]
        else:
            code = S
            if gain < 0:
                gain = gs[i]
            self.s_bits |= tab.bitval[i]
        update_lines(cells, gs, go, us, uo, tab.s_pats[i], tab.o_pats[i], code)
        cells[i] = code
        self.key ^= tab.zkeys[code][i]
        sk = self.symkeys
        if sk is not None:
            self.symstack.append(sk)
            self.symkeys = list(map(_xor, sk, tab.zsym[code][i]))
        self.empty -= 1
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
        """:meth:`Position.unplay`, and the tables as they were before the move."""
        i, code, gain, mover = self.stack.pop()
        self.cells[i] = EMPTY
        if code == S:
            self.s_bits ^= self.tab.bitval[i]
        else:
            self.o_bits ^= self.tab.bitval[i]
        self.key ^= self.tab.zkeys[code][i]
        if self.symkeys is not None:
            self.symkeys = self.symstack.pop()
        self.empty += 1
        self.ended = False
        self.to_move = mover
        self.scores[mover] -= gain
        self.gs, self.go, self.us, self.uo = self.saved.pop()

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

    def opens(self, move: Move) -> bool:
        """Whether the quiet ``move`` opens an SOS for the next mover."""
        i = move >> 1
        return bool(self.uo[i] if move & 1 else self.us[i])

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


#: Values inside :class:`AlphaBeta` are integers in units of 1/UNIT point (so the table can
#: store each entry packed in one int, :class:`sos.ai.base.Entry`).
UNIT: Final = 100
#: Longest chain of scoring moves followed beyond the horizon.
QUIESCE_DEPTH: Final = 12
#: Value (1/UNIT points) of a simple-mode leaf whose safe-move playouts all win (all lose:
#: minus this): below a proven win (UNIT), so a proof always outranks an estimate.
PLAYOUT_SCALE: Final = 60
#: Playout moves (:func:`safe_playouts`) counted as one search node: about what a node of
#: :class:`AlphaBeta` costs in simple mode (a node 9-10 us, a playout move 4-5 us in CPython).
PLAYOUT_MOVES_PER_NODE: Final = 2
#: Heuristic value (in points, per point of the least gift) of a quiet position where the side
#: to move has no safe move left.
FORCED_GIFT: Final = 0.9


class AlphaBeta(TableSearch):
    """Iterative-deepening alpha-beta (negamax form) with a transposition table.

    * Move ordering: the table's best move, then scoring moves (most points first), then safe
      quiet moves, then moves that open an SOS for the next player; quiet moves within their
      class by the history heuristic (cut-offs they caused in this search, weighted depth²).
    * Chain extension: the first scoring move of a chain (it keeps the turn) costs no depth,
      so a sacrifice (a move that opens an SOS, to make the taker move again and so flip who
      runs out of safe moves first) is seen as deep as a quiet move. At the horizon, chains
      of scoring moves are followed to their end (:meth:`_quiesce`, plain recursion: a
      generator per horizon node would cost more than the node's own work) before the
      position is judged by :func:`quiet_eval` (simple mode, two players: a loss with no safe
      square left, else 0, or with :attr:`playouts` set the mean of that many random games of
      safe moves, :func:`safe_playouts`).
    * Budget: ``budget`` seconds of search time (``None``: no time limit) and/or
      ``node_budget`` nodes (deterministic; for tests and benchmarks), or a
      :class:`sos.ai.base.Budget` given to :meth:`search`. Pauses: see
      :class:`sos.ai.base.Pacer`.
    * n players: paranoid (see the module docstring), the root seat against all the others.
    * Table: Zobrist key -> :class:`sos.ai.base.Entry` (depth, bound, value, best move); a
      table over ``tt_limit`` entries is replaced by a fresh one at the next search and the
      old one is freed in small pieces at the pauses.
    """

    unit = UNIT

    def __init__(
        self,
        budget: float | None = 0.4,
        max_depth: int = 64,
        slice_nodes: int = SLICE_NODES,
        rng: random.Random | None = None,
        tt_limit: int = 400_000,
        node_budget: int | None = None,
        step_seconds: float = STEP_SECONDS,
    ) -> None:
        super().__init__(tt_limit, slice_nodes, step_seconds)
        #: The budget of each :meth:`search` that is given none of its own.
        self.budget = budget
        self.node_budget = node_budget
        self.max_depth = max_depth
        self.rng = rng if rng is not None else random.Random(0)
        #: Contempt for quiet, open positions (see :func:`quiet_eval`), 1/UNIT points per
        #: safe square, charged to the root player's side.
        self.tension = 0
        #: Simple mode, two players: random games of safe moves judged at each quiet leaf
        #: (:func:`safe_playouts`; 0: a quiet leaf is worth 0, a draw). Their moves are
        #: counted as nodes, :data:`PLAYOUT_MOVES_PER_NODE` to a node.
        self.playouts = 0
        #: History heuristic: quiet moves that caused cut-offs are tried first (per search).
        self.use_history = True
        #: The first scoring move of a chain costs no depth (it keeps the turn).
        self.extend_chains = True
        self.history: list[int] = []
        #: Root moves not to play unless all are (set by the caller before a search).
        self.avoid: set[Move] = set()
        #: Whether the running search judges quiet leaves by playouts (:attr:`playouts` on,
        #: simple mode, two players): then a leaf can pause between its playouts.
        self.playout_leaves = False
        self.horizon_hit = False

    # -------------------------------------------------------------- root
    def search(
        self, state: GameState, budget: Budget | None = None
    ) -> Generator[None, None, SearchResult]:
        """Search ``state`` (not modified) and return the best move found in ``budget``
        (default: the searcher's ``budget`` seconds and ``node_budget`` nodes)."""
        if budget is None:
            budget = Budget(self.budget, self.node_budget)
        self.pacer = pacer = self.new_pacer(budget)
        pos = Position(state, symmetric=False)
        if pos.ended:
            return SearchResult(-1, 0.0, True, 0, 0, 0.0, {})
        self.root = pos.to_move
        self.playout_leaves = bool(self.playouts) and pos.simple and pos.players == 2
        self.history = [0] * (2 * pos.rows * pos.cols)
        if len(self.tt) > self.tt_limit or pos.players > 2:  # paranoid values: root-seat only
            self.renew_table()
        moves, n_scoring, _ = pos.ordered_moves()
        if len(moves) == 1:
            return SearchResult(moves[0], 0.0, False, 0, 0, 0.0, {moves[0]: 0.0})
        # Shuffle inside the classes so that equal moves are chosen at random (seeded).
        scoring = moves[:n_scoring]
        rest = moves[n_scoring:]
        self.rng.shuffle(rest)
        order = scoring + [m for m in rest if not pos.opens(m)]
        order += [m for m in rest if pos.opens(m)]
        if self.avoid:  # moves known to be bad (e.g. proven to lose): only if nothing else
            kept = [m for m in order if m not in self.avoid]
            order = kept or order
        best = SearchResult(order[0], 0.0, False, 0, 0, 0.0, {})
        depth = 1
        values: dict[Move, int] = {}
        alpha = -INF
        best_move = order[0]
        try:
            while depth <= self.max_depth:
                self.horizon_hit = False
                values = {}
                alpha = -INF
                best_move = order[0]
                for m in order:
                    if pacer.overdue():
                        yield from pacer.tick()
                    gain = pos.play(m)
                    try:
                        step = 0 if gain and self.extend_chains else 1
                        v = yield from self._child(pos, gain, depth - step, alpha, INF)
                    finally:
                        pos.unplay()
                    values[m] = v
                    if v > alpha:
                        alpha = v
                        best_move = m
                exact = not self.horizon_hit
                best = _result(best_move, alpha, exact, depth, pacer, values)
                if exact or depth >= pos.empty:
                    break
                # Next iteration: best first, the others by their values (stable sort).
                order.sort(key=lambda mv: -values[mv])
                depth += 1
        except SearchTimeout:
            # The unfinished iteration searched the previous best move first, so a move it
            # found better than that is better at the greater depth.
            if values and (depth == 1 or best_move != order[0]):
                best = _result(best_move, alpha, False, depth, pacer, values)
        best.nodes = pacer.nodes
        best.seconds = pacer.stop()
        return best

    # -------------------------------------------------------------- negamax
    def _child(
        self, pos: Position, gain: int, depth: int, alpha: int, beta: int
    ) -> Generator[None, None, int]:
        """The mover's value, within (alpha, beta), of the move just played (``gain``
        points), searched ``depth`` more plies (at most 0: the horizon, :meth:`_leaf`)."""
        sign, offset, low, high = self.child_window(pos, gain, alpha, beta)
        if not sign:
            return offset
        if depth <= 0:
            if self.playout_leaves:
                return offset + sign * (yield from self._playout_leaf(pos))
            return offset + sign * self._leaf(pos, low, high)
        v = yield from self._negamax(pos, depth, low, high)
        return offset + sign * v

    def _leaf(self, pos: Position, alpha: int, beta: int) -> int:
        """A horizon node: counted as a node (it cannot pause: when a pause is due it only
        checks the budget), then judged by :meth:`_quiesce`."""
        if self.pacer.due():
            self.pacer.check()
        return self._quiesce(pos, alpha, beta, QUIESCE_DEPTH)

    def _probe(self, key: int, depth: int, alpha: int, beta: int) -> tuple[int | None, int]:
        """Table lookup: ``(value, move)``; ``value`` is None unless the entry decides the
        node (then ``move`` is -1), ``move`` the entry's best move (or -1)."""
        packed = self.tt.get(key)
        if packed is None:
            return None, -1
        entry = Entry.unpack(packed)
        if entry.depth >= depth and entry.cuts(alpha, beta):
            if entry.depth < TO_END:
                self.horizon_hit = True
            return entry.value, -1
        return None, entry.move

    def _moves(self, pos: Position, tt_move: Move) -> tuple[list[Move], int, int]:
        """Legal moves in search order (see the class docstring), with the numbers of
        scoring and of safe quiet moves (as :meth:`Position.ordered_moves`)."""
        moves, n_scoring, n_safe = pos.ordered_moves()
        if pos.simple and pos.players == 2 and n_safe:
            # A move that opens an SOS loses at once (the least value): not searched while a
            # safe move is left (as in the exact solver), so the safe moves get the depth.
            del moves[n_scoring + n_safe :]
        if self.use_history and len(moves) > n_scoring + 1:
            # Quiet moves (safe ones, then the ones that open an SOS) by their history.
            hist = self.history
            quiet = moves[n_scoring : n_scoring + n_safe]
            quiet.sort(key=hist.__getitem__, reverse=True)
            rest = moves[n_scoring + n_safe :]
            rest.sort(key=hist.__getitem__, reverse=True)
            moves[n_scoring:] = quiet + rest
        if tt_move >= 0 and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        return moves, n_scoring, n_safe

    def _store(
        self, key: int, depth: int, alpha0: int, beta: int, best: int, move: Move, hit: bool
    ) -> None:
        """Table store of a node's result; ``hit``: the horizon was hit before this node."""
        # A value that saw the whole game to its end is good for any depth.
        stored_depth = depth if self.horizon_hit else TO_END
        self.horizon_hit = self.horizon_hit or hit
        self.tt[key] = pack_entry(best, stored_depth, bound_of(best, alpha0, beta), move)

    def _negamax(
        self, pos: Position, depth: int, alpha: int, beta: int
    ) -> Generator[None, None, int]:
        """Value for the side to move of ``pos`` (not ended) within (alpha, beta), searched
        ``depth`` (at least 1) plies deep, fail-soft."""
        if self.pacer.due():
            yield from self.pacer.tick()
        key = pos.tt_key()
        value, tt_move = self._probe(key, depth, alpha, beta)
        if value is not None:
            return value
        moves, n_scoring, n_safe = self._moves(pos, tt_move)
        if pos.simple and pos.players == 2:
            if n_scoring:
                return UNIT
            if n_safe == 0:
                return -UNIT
        alpha0 = alpha
        best = -INF
        best_move = moves[0]
        hit_before = self.horizon_hit
        self.horizon_hit = False
        # Only the first capture of a chain is free (the other orders of taking a long chain
        # would multiply the tree; the horizon's quiescence follows the rest of a chain).
        extend = self.extend_chains and not (pos.stack and pos.stack[-1][2])
        pacer = self.pacer
        for m in moves:
            if pacer.overdue():
                yield from pacer.tick()
            gain = pos.play(m)
            try:
                # A scoring move keeps the turn: it costs no depth (chain extension), so a
                # line through a sacrifice and its capture reaches as far as a quiet line.
                step = 0 if gain and extend else 1
                # (self._child, inlined: no generator for a horizon node)
                sign, v, low, high = self.child_window(pos, gain, alpha, beta)
                if sign:
                    if depth - step <= 0:
                        if self.playout_leaves:
                            v += sign * (yield from self._playout_leaf(pos))
                        else:
                            v += sign * self._leaf(pos, low, high)
                    else:
                        v += sign * (yield from self._negamax(pos, depth - step, low, high))
            finally:
                pos.unplay()
            if v > best:
                best = v
                best_move = m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if not gain:
                            self.history[m] += depth * depth
                        break
        self._store(key, depth, alpha0, beta, best, best_move, hit_before)
        return best

    def _quiesce(self, pos: Position, alpha: int, beta: int, qdepth: int) -> int:
        """Horizon evaluation: follow scoring chains, then judge the quiet position.

        A plain function, not a generator: it plays at most two chains of at most
        ``QUIESCE_DEPTH`` moves (microseconds), so it needs no pause point; its moves are
        counted in the node count all the same.
        """
        self.horizon_hit = True
        captures = pos.captures(2 if qdepth >= QUIESCE_DEPTH else 1) if qdepth > 0 else ()
        if not captures:
            if pos.simple:
                # Two players: with no safe square left every move opens an SOS, which the
                # other side takes (a loss). Otherwise the search cannot tell (0).
                if pos.players == 2:
                    if not pos.safe_squares():
                        return -UNIT
                    if self.playouts:
                        return self._playout_value(pos)
                return 0
            if self.tension:
                sign = 1 if self.same_side(pos.to_move, self.root) else -1
                return quiet_eval(pos, sign * self.tension)
            return quiet_eval(pos)
        if pos.simple:
            return UNIT
        best = -INF
        pacer = self.pacer
        # Only the best two scoring moves at the first step, the best one after that: the
        # chain matters, not every order of taking it.
        for gain, m in captures:
            pacer.nodes += 1
            pos.play(m, gain)
            if pos.ended:
                v = gain * UNIT
            else:
                g = gain * UNIT
                v = g + self._quiesce(pos, alpha - g, beta - g, qdepth - 1)
            pos.unplay()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best


    def _playout_leaf(self, pos: Position) -> Generator[None, None, int]:
        """:meth:`_leaf` with :attr:`playout_leaves`: the same value and nodes, with pauses
        between the playouts (on 8x8 up to 10 ms in a browser, 4x on a slow phone)."""
        pacer = self.pacer
        if pacer.due():
            pacer.check()
        # As _quiesce on a simple-mode position with two players (alpha and beta unused).
        self.horizon_hit = True
        if pos.captures(2):
            return UNIT
        if not pos.safe_squares():
            return -UNIT
        score, moves = yield from safe_playout_steps(pos, self.playouts, pos.key, pacer)
        pacer.nodes += moves // PLAYOUT_MOVES_PER_NODE
        return PLAYOUT_SCALE * score // self.playouts

    def _playout_value(self, pos: Position) -> int:
        """A quiet simple-mode leaf (two players, a safe square left) judged by
        :attr:`playouts` random games of safe moves: :data:`PLAYOUT_SCALE` times the side to
        move's mean result, strictly between a proven loss and a proven win. Their moves are
        counted as nodes (:data:`PLAYOUT_MOVES_PER_NODE` a node), so a node budget also bounds
        the playouts' work."""
        score, moves = safe_playouts(pos, self.playouts, pos.key)
        self.pacer.nodes += moves // PLAYOUT_MOVES_PER_NODE
        return PLAYOUT_SCALE * score // self.playouts


def _result(
    move: Move, value: int, exact: bool, depth: int, pacer: Pacer, values: dict[Move, int]
) -> SearchResult:
    """A :class:`SearchResult` from internal integer values (1/UNIT points)."""
    root_values = {m: v / UNIT for m, v in values.items()}
    return SearchResult(move, value / UNIT, exact, depth, pacer.nodes, pacer.elapsed(), root_values)


#: Weight of the parity of the safe squares left in :func:`quiet_eval`, in points. Small: the
#: count of safe squares only estimates who plays the last safe move (a safe move can make
#: other squares unsafe, or safe again). Screened against ``medium`` on 6x6 at 22 000 nodes a
#: move, 100 games: 0.5 -> 94 wins, 0.25 -> 95, 0.1 -> 96, 0 -> 95, and scaled with the empty
#: squares (0.1 point per square) 86 (benchmarks/RESULTS.md).
PARITY_WEIGHT: Final = 0.1


def quiet_eval(pos: Position, tension: int = 0) -> int:
    """Heuristic value (1/UNIT points, side to move) of a quiet ``general``-mode position.

    In SOS the players fill the safe squares (where some letter opens no SOS) until none is
    left; then whoever must move hands points to the other. So: with no safe square, the side
    to move loses at least the smallest gift it can make; otherwise the parity of the safe
    squares says who will run out first (odd: the side to move plays the last safe one).
    ``tension`` (1/UNIT points) is subtracted per safe square left: a searcher that expects
    to win the fight for the last safe move (against a weaker player) prefers positions with
    fewer safe squares, where the weaker side must give points sooner.
    """
    safe = pos.safe_squares()
    if safe == 0:
        least = min(pos.gift(m) for m in pos.ordered_moves()[0])
        return -int(max(least, 1) * FORCED_GIFT * UNIT)
    parity = int(PARITY_WEIGHT * UNIT) if safe % 2 else -int(PARITY_WEIGHT * UNIT)
    return parity - tension * safe


_MASK64: Final = (1 << 64) - 1


def safe_playouts(pos: Position, playouts: int, seed: int) -> tuple[int, int]:
    """:func:`safe_playout_steps` in one piece: ``(score, moves)``."""
    return run_to_end(safe_playout_steps(pos, playouts, seed))


def safe_playout_steps(
    pos: Position, playouts: int, seed: int, pacer: Pacer | None = None
) -> Generator[None, None, tuple[int, int]]:
    """Random games of safe moves from ``pos`` (simple mode, two players, no square scoring
    now): each playout writes a uniformly random safe move (a letter on an empty square that
    opens no SOS) for each side in turn until none is left; the side that then has to move
    loses (it must open an SOS), unless the board is full (a draw).

    Returns ``(score, moves)``: wins minus losses of the side to move of ``pos`` over the
    ``playouts`` games (from -playouts to +playouts), and the moves the playouts wrote (their
    cost, for a node count). ``seed`` (any int, e.g. the position's key) fixes the games, so
    the same position always gets the same score. ``pos`` is not changed.

    This is what a Monte-Carlo player samples: in simple mode the game is decided by who runs
    out of safe moves first, and a count or parity of the safe squares misjudges it because
    each safe move makes others unsafe (or safe again).

    With a ``pacer`` it pauses between two playouts once the pacer's step is over.
    """
    tab = pos.tab
    full = tab.full
    dirs = tab.dirs
    s0 = pos.s_bits
    o0 = pos.o_bits
    x = (seed ^ 0x9E3779B97F4A7C15) & _MASK64
    score = 0
    moves = 0
    for _ in range(playouts):
        s = s0
        o = o0
        ply = 0
        while True:
            e = full ^ (s | o)
            if not e:
                break  # a full board: a draw
            open_s = open_o = 0
            for d in dirs:
                d2 = d + d
                e_up = e >> d
                e_dn = e << d
                open_s |= (
                    ((o >> d) & (e >> d2)) | (e_up & (s >> d2))
                    | ((o << d) & (e << d2)) | (e_dn & (s << d2))
                )
                open_o |= ((s >> d) & e_dn) | (e_up & (s << d))
            safe_s = e & ~open_s
            safe_o = e & ~open_o
            ns = safe_s.bit_count()
            total = ns + safe_o.bit_count()
            if not total:
                # The side to move must open an SOS: it loses.
                score += 1 if ply & 1 else -1
                break
            x = (x * 6364136223846793005 + 1442695040888963407) & _MASK64
            k = ((x >> 32) * total) >> 32
            letter_s = k < ns
            if letter_s:
                mask = safe_s
            else:
                mask = safe_o
                k -= ns
            while k:  # the k-th set bit
                mask &= mask - 1
                k -= 1
            if letter_s:
                s |= mask & -mask
            else:
                o |= mask & -mask
            ply += 1
        moves += ply
        if pacer is not None and perf_counter() >= pacer.step_end:
            yield from pacer.pause()
    return score, moves


__all__ = [
    "CODE_LETTER",
    "DRAIN_CHUNK",
    "EMPTY",
    "FORCED_GIFT",
    "INF",
    "LETTER_CODE",
    "PARITY_WEIGHT",
    "PLAYOUT_MOVES_PER_NODE",
    "PLAYOUT_SCALE",
    "QUIESCE_DEPTH",
    "SLICE_NODES",
    "STEP_SECONDS",
    "UNIT",
    "AlphaBeta",
    "EndgamePosition",
    "Maps",
    "Move",
    "O",
    "Pacer",
    "Position",
    "S",
    "SearchResult",
    "SearchTimeout",
    "action_move",
    "drain",
    "move_action",
    "quiet_eval",
    "run_to_end",
    "safe_playout_steps",
    "safe_playouts",
    "tables",
    "update_lines",
]
