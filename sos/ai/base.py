"""What the searchers share: budgets, pacing, and the transposition table.

* :class:`Budget`: a search's limits, ``seconds`` of search time and/or ``nodes``, and the
  arithmetic of sharing one between the stages of a move (proof first, then the search).
* :class:`Pacer`: counts nodes and search time, decides when a search generator pauses, and
  raises :class:`SearchTimeout` when the budget is spent.
* :class:`Entry`: a transposition-table entry (value, depth, bound, best move), stored packed
  in one int (a dict of ints is not tracked by the cyclic garbage collector).
* :class:`TableSearch`: the base of :class:`sos.ai.search.AlphaBeta` and
  :class:`sos.ai.solver.Solver`: the table, its replacement when it grows too big (the old
  one is freed in small pieces at the pauses), the pacer, and the paranoid root seat.

Searches are generators (see :mod:`sos.ai.search`): :func:`run_to_end` drives one to its end.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Iterator
from time import perf_counter
from typing import Final, NamedTuple, Protocol, TypeVar

#: Most nodes between two pause points of a search generator.
SLICE_NODES: Final = 64
#: Most seconds of work between two pause points (about 2.5x as long under Pyodide).
STEP_SECONDS: Final = 0.003
#: Entries of a stale table freed at each pause.
DRAIN_CHUNK: Final = 3000

T = TypeVar("T")


def run_to_end(gen: Generator[None, None, T]) -> T:
    """Drive a search generator to completion and return its result."""
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            result: T = stop.value
            return result


class SearchTimeout(Exception):
    """Raised inside a search when its budget is spent (caught by the caller that set it)."""


def drain(table: dict[int, int], count: int = DRAIN_CHUNK) -> None:
    """Delete up to ``count`` entries of ``table`` (frees a big table in small pieces)."""
    pop = table.popitem
    for _ in range(min(count, len(table))):
        pop()


class Budget(NamedTuple):
    """The limits of a search: ``seconds`` of search time (pauses excluded) and ``nodes``;
    ``None`` is no limit. A node budget makes a search deterministic (it stops at the same
    node on any machine); a time budget follows the machine's speed."""

    seconds: float | None = None
    nodes: int | None = None

    def share(self, fraction: float) -> Budget:
        """``fraction`` (0-1) of each limit (nodes rounded down)."""
        return Budget(
            None if self.seconds is None else self.seconds * fraction,
            None if self.nodes is None else int(self.nodes * fraction),
        )

    def minus(self, seconds: float, nodes: int) -> Budget:
        """What is left after spending ``seconds`` and ``nodes`` (may be 0 or less: see
        :attr:`spent`)."""
        return Budget(
            None if self.seconds is None else self.seconds - seconds,
            None if self.nodes is None else self.nodes - nodes,
        )

    def rest(self, fraction: float) -> Budget:
        """What is left when :meth:`share` ``(fraction)`` has been spent in full."""
        taken = self.share(fraction)
        return self.minus(taken.seconds or 0.0, taken.nodes or 0)

    @property
    def spent(self) -> bool:
        """True when a limit is at or below 0."""
        return (self.seconds is not None and self.seconds <= 0) or (
            self.nodes is not None and self.nodes <= 0
        )

    def capped(self, other: Budget) -> Budget:
        """Each limit the smaller of this budget's and ``other``'s (``None``, no limit, is
        larger than any)."""
        return Budget(_least(self.seconds, other.seconds), _least(self.nodes, other.nodes))

    def raised(self, other: Budget) -> Budget:
        """Each limit the larger of this budget's and ``other``'s (``None``, no limit, is
        larger than any)."""
        return Budget(_most(self.seconds, other.seconds), _most(self.nodes, other.nodes))

    def at_least(self, nodes: int = 1) -> Budget:
        """This budget with at least ``nodes`` nodes and 0 seconds (a search always makes a
        move: its first nodes are searched whatever the budget)."""
        return Budget(
            None if self.seconds is None else max(0.0, self.seconds),
            None if self.nodes is None else max(nodes, self.nodes),
        )


#: No limit.
UNLIMITED: Final = Budget()

N = TypeVar("N", int, float)


def _least(a: N | None, b: N | None) -> N | None:
    if a is None:
        return b
    return a if b is None else min(a, b)


def _most(a: N | None, b: N | None) -> N | None:
    return None if a is None or b is None else max(a, b)


class Pacer:
    """Decides when a search generator pauses, and counts its search time and nodes.

    A search calls :meth:`due` at every node (one clock read and one comparison); when it is
    true the search runs ``yield from pacer.tick()``, which raises :class:`SearchTimeout` once
    the budget (``seconds`` of search time and/or ``nodes``) is spent, otherwise pauses. A pause
    comes after at most ``step_seconds`` of work or ``slice_nodes`` nodes, whichever is first,
    so every step of the generator does bounded work, however slow the nodes are (the Pyodide
    build of Python is about 2.5x slower than CPython). The node budget makes a search
    deterministic: it stops at the same node whatever the machine's speed.
    """

    __slots__ = (
        "_since",
        "before_pause",
        "check_at",
        "node_budget",
        "nodes",
        "seconds",
        "slice_nodes",
        "spent",
        "step_end",
        "step_seconds",
    )

    def __init__(
        self,
        seconds: float | None = None,
        node_budget: int | None = None,
        slice_nodes: int = SLICE_NODES,
        step_seconds: float = STEP_SECONDS,
    ) -> None:
        self.seconds = seconds
        self.node_budget = node_budget
        self.slice_nodes = slice_nodes
        self.step_seconds = step_seconds
        self.nodes = 0
        self.spent = 0.0
        self._since = perf_counter()
        self.step_end = self._since + step_seconds
        self.check_at = slice_nodes if node_budget is None else min(slice_nodes, node_budget)
        #: Called before each pause (e.g. to free a stale table in small pieces).
        self.before_pause: Callable[[], None] | None = None

    def due(self) -> bool:
        """Count a node; True when the search should call :meth:`tick` now (the clock is read
        every 8th node: a clock read is a call into JavaScript under Pyodide)."""
        self.nodes += 1
        return self.nodes >= self.check_at or (
            not self.nodes & 7 and perf_counter() >= self.step_end
        )

    def overdue(self) -> bool:
        """True when a pause is due, without counting a node (for a loop between subtrees
        searched without pause points)."""
        return self.nodes >= self.check_at or perf_counter() >= self.step_end

    def check(self) -> None:
        """For code that cannot pause: raise :class:`SearchTimeout` if the budget is spent,
        else nothing (the pause comes at the next :meth:`tick`)."""
        if self.node_budget is not None and self.nodes >= self.node_budget:
            raise SearchTimeout
        if self.seconds is not None and self.spent + perf_counter() - self._since > self.seconds:
            raise SearchTimeout

    def tick(self) -> Generator[None, None, None]:
        """Pause once (or raise :class:`SearchTimeout` when the budget is spent)."""
        if self.node_budget is not None and self.nodes >= self.node_budget:
            raise SearchTimeout
        now = perf_counter()
        self.spent += now - self._since
        self._since = now
        if self.seconds is not None and self.spent > self.seconds:
            raise SearchTimeout
        yield from self.pause()

    def pause(self) -> Generator[None, None, None]:
        """Pause once without a budget check (inside a leaf's playouts: the budget is checked
        at the next :meth:`due` or :meth:`overdue`, so a node budget stops at the same node)."""
        now = perf_counter()
        self.spent += now - self._since
        self._since = now
        if self.before_pause is not None:
            self.before_pause()
        yield
        now = perf_counter()
        self._since = now
        self.step_end = now + self.step_seconds
        self.check_at = self.nodes + self.slice_nodes
        if self.node_budget is not None:
            self.check_at = min(self.check_at, self.node_budget)

    def elapsed(self) -> float:
        """Search seconds so far, including the running stretch."""
        return self.spent + (perf_counter() - self._since)

    def stop(self) -> float:
        """Close the running stretch (at the end of a search); returns the search seconds."""
        now = perf_counter()
        self.spent += now - self._since
        self._since = now
        return self.spent


# --------------------------------------------------------------------------- table entries
#: Bound of an entry's value: exact, a lower bound (the search failed high), an upper bound.
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2
#: Depth of an entry whose value saw every line to the end of the game (good at any depth).
TO_END: Final = 1000

# Layout of a packed entry, low bits first: move + 1 (9 bits, 0 = none), bound (2 bits),
# depth (10 bits), value + VALUE_OFFSET (the rest).
_MOVE_BITS: Final = 9
_BOUND_SHIFT: Final = _MOVE_BITS
_DEPTH_SHIFT: Final = _BOUND_SHIFT + 2
_VALUE_SHIFT: Final = _DEPTH_SHIFT + 10
_MOVE_MASK: Final = (1 << _MOVE_BITS) - 1
_DEPTH_MASK: Final = (1 << 10) - 1
#: Values are stored shifted by this (they are greater than -VALUE_OFFSET).
VALUE_OFFSET: Final = 1 << 30


class Entry(NamedTuple):
    """A transposition-table entry.

    Attributes:
        value: the node's value (the searcher's units) within ``bound``.
        depth: plies searched below the node, :data:`TO_END` when every line reached the end.
        bound: :data:`EXACT`, :data:`LOWER` (the value is at least ``value``) or :data:`UPPER`.
        move: the best move found (the searcher's move numbers, less than 511), or -1.
    """

    value: int
    depth: int
    bound: int
    move: int

    def pack(self) -> int:
        """The entry as one int (the table stores ints): :func:`pack_entry`."""
        return pack_entry(self.value, self.depth, self.bound, self.move)

    @staticmethod
    def unpack(packed: int) -> Entry:
        """The entry of a packed int (inverse of :meth:`pack`)."""
        return _new_entry(Entry, (
            (packed >> _VALUE_SHIFT) - VALUE_OFFSET,
            (packed >> _DEPTH_SHIFT) & _DEPTH_MASK,
            (packed >> _BOUND_SHIFT) & 3,
            (packed & _MOVE_MASK) - 1,
        ))

    def cuts(self, alpha: int, beta: int) -> bool:
        """Whether the entry decides a node searched within (alpha, beta)."""
        return (
            self.bound == EXACT
            or (self.bound == LOWER and self.value >= beta)
            or (self.bound == UPPER and self.value <= alpha)
        )


def pack_entry(value: int, depth: int, bound: int, move: int) -> int:
    """The packed int of ``Entry(value, depth, bound, move)`` (without building the tuple:
    a search stores an entry at every inner node)."""
    return (
        ((value + VALUE_OFFSET) << _VALUE_SHIFT)
        | (depth << _DEPTH_SHIFT)
        | (bound << _BOUND_SHIFT)
        | (move + 1)
    )


# Layout of a packed :class:`Bounds`, low bits first: move + 1 (9 bits, 0 = none), lower +
# BOUND_OFFSET (16 bits), upper + BOUND_OFFSET (the rest).
_LOWER_SHIFT: Final = _MOVE_BITS
_UPPER_SHIFT: Final = _LOWER_SHIFT + 16
_LOWER_MASK: Final = (1 << 16) - 1
#: Bounds are stored shifted by this; ``-BOUND_OFFSET`` is "no lower bound", ``BOUND_OFFSET``
#: "no upper bound" (a lower bound is less than ``BOUND_OFFSET``; values of SOS games are far
#: smaller).
BOUND_OFFSET: Final = 1 << 15


class Bounds(NamedTuple):
    """A two-bound transposition-table entry of an exact solver (every line searched to the
    end): the node's value lies in ``[lower, upper]`` (equal: exact). Null-window searches
    around different targets (is the value at least ``t``?) leave a lower bound from one and
    an upper bound from another; one entry keeps both.

    Attributes:
        lower: the value is at least this (``-BOUND_OFFSET``: nothing known).
        upper: the value is at most this (``BOUND_OFFSET``: nothing known).
        move: the best move found (less than 511), or -1.
    """

    lower: int
    upper: int
    move: int

    def pack(self) -> int:
        """The entry as one int: :func:`pack_bounds`."""
        return pack_bounds(self.lower, self.upper, self.move)

    @staticmethod
    def unpack(packed: int) -> Bounds:
        """The entry of a packed int (inverse of :meth:`pack`)."""
        return _new_entry(Bounds, (
            ((packed >> _LOWER_SHIFT) & _LOWER_MASK) - BOUND_OFFSET,
            (packed >> _UPPER_SHIFT) - BOUND_OFFSET,
            (packed & _MOVE_MASK) - 1,
        ))

    def merged(self, best: int, alpha0: int, beta: int, move: int) -> Bounds:
        """The entry after a fail-soft search within (``alpha0``, ``beta``) returned
        ``best`` with ``move`` its best move: a fail-low tightens ``upper`` (and keeps the
        entry's move, if any: a fail-low's best move is a guess), a fail-high ``lower``, a
        result inside the window makes both ``best``."""
        if best <= alpha0:
            return Bounds(self.lower, min(self.upper, best), self.move if self.move >= 0 else move)
        if best >= beta:
            return Bounds(max(self.lower, best), self.upper, move)
        return Bounds(best, best, move)


#: The entry of a node the table does not hold.
NO_BOUNDS: Final = Bounds(-BOUND_OFFSET, BOUND_OFFSET, -1)


def pack_bounds(lower: int, upper: int, move: int) -> int:
    """The packed int of ``Bounds(lower, upper, move)``."""
    return (
        ((upper + BOUND_OFFSET) << _UPPER_SHIFT)
        | ((lower + BOUND_OFFSET) << _LOWER_SHIFT)
        | (move + 1)
    )


def unpack_bounds(packed: int) -> tuple[int, int, int]:
    """``(lower, upper, move)`` of a packed :class:`Bounds` as a plain tuple (what
    :meth:`Bounds.unpack` gives, without the NamedTuple: the exact solver probes the table at
    every node)."""
    return (
        ((packed >> _LOWER_SHIFT) & _LOWER_MASK) - BOUND_OFFSET,
        (packed >> _UPPER_SHIFT) - BOUND_OFFSET,
        (packed & _MOVE_MASK) - 1,
    )


def merge_bounds(packed: int | None, best: int, alpha0: int, beta: int, move: int) -> int:
    """The packed :class:`Bounds` of :meth:`Bounds.merged` applied to the packed entry
    ``packed`` (``None``: :data:`NO_BOUNDS`), in plain int arithmetic (an exact solver stores
    an entry at every inner node)."""
    if packed is None:
        if best <= alpha0:
            return ((best + BOUND_OFFSET) << _UPPER_SHIFT) | (move + 1)
        if best >= beta:
            return (
                ((2 * BOUND_OFFSET) << _UPPER_SHIFT)
                | ((best + BOUND_OFFSET) << _LOWER_SHIFT)
                | (move + 1)
            )
    elif best <= alpha0:
        if best + BOUND_OFFSET < packed >> _UPPER_SHIFT:
            packed = (packed & ((1 << _UPPER_SHIFT) - 1)) | ((best + BOUND_OFFSET) << _UPPER_SHIFT)
        if not packed & _MOVE_MASK:
            packed |= move + 1
        return packed
    elif best >= beta:
        lower = max(((packed >> _LOWER_SHIFT) & _LOWER_MASK) - BOUND_OFFSET, best)
        return (
            ((packed >> _UPPER_SHIFT) << _UPPER_SHIFT)
            | ((lower + BOUND_OFFSET) << _LOWER_SHIFT)
            | (move + 1)
        )
    return (
        ((best + BOUND_OFFSET) << _UPPER_SHIFT)
        | ((best + BOUND_OFFSET) << _LOWER_SHIFT)
        | (move + 1)
    )


#: ``tuple.__new__``: builds an :class:`Entry` without the Python-level ``__new__`` of a
#: NamedTuple (the table is probed at every node).
_new_entry: Final = tuple.__new__


def bound_of(best: int, alpha0: int, beta: int) -> int:
    """The bound of a fail-soft result ``best`` of a search within (``alpha0``, ``beta``)."""
    if best <= alpha0:
        return UPPER
    if best >= beta:
        return LOWER
    return EXACT


class _Played(Protocol):
    """What :meth:`TableSearch.child_window` reads of a position (a
    :class:`sos.ai.search.Position`) just after a move."""

    simple: bool
    ended: bool
    to_move: int
    stack: list[tuple[int, int, int, int]]


class TableSearch:
    """Base of the searchers: the transposition table, its renewal and the pacer.

    Values are ints in units of ``1 / unit`` point (:attr:`unit`).

    Attributes:
        tt: the transposition table, key -> :meth:`Entry.pack`.
        tt_limit: entries after which :meth:`renew_table` starts a new table.
        pacer: the running search's :class:`Pacer`.
        root: the seat the search is for (paranoid reduction with more than two players).
    """

    #: Values are in 1/unit points (a move's points times ``unit``; simple mode: +-unit).
    unit = 1

    def __init__(self, tt_limit: int, slice_nodes: int, step_seconds: float) -> None:
        self.tt_limit = tt_limit
        self.tt: dict[int, int] = {}
        self._stale: list[dict[int, int]] = []
        self.slice_nodes = slice_nodes
        self.step_seconds = step_seconds
        self.pacer = self.new_pacer(UNLIMITED)
        self.root = 0

    @property
    def nodes(self) -> int:
        """Nodes counted by :attr:`pacer`."""
        return self.pacer.nodes

    def new_pacer(self, budget: Budget) -> Pacer:
        """A pacer for ``budget`` that frees the stale tables at its pauses."""
        pacer = Pacer(budget.seconds, budget.nodes, self.slice_nodes, self.step_seconds)
        pacer.before_pause = self._free_stale
        return pacer

    @contextlib.contextmanager
    def budgeted(self, budget: Budget) -> Iterator[None]:
        """Search under ``budget`` of its own; what it spends is added to the running pacer's
        totals afterwards."""
        pacer = self.new_pacer(budget)
        running, self.pacer = self.pacer, pacer
        try:
            yield
        finally:
            running.nodes += pacer.nodes
            running.spent += pacer.stop()
            self.pacer = running

    def renew_table(self) -> None:
        """Start an empty table; the old one is freed in small pieces at the pauses."""
        if self.tt:
            self._stale.append(self.tt)
            self.tt = {}

    def _free_stale(self) -> None:
        if self._stale:
            drain(self._stale[-1])
            if not self._stale[-1]:
                self._stale.pop()

    def same_side(self, a: int, b: int) -> bool:
        """Whether seats ``a`` and ``b`` play on the same side: the same seat, or (paranoid
        reduction) two seats of the coalition against :attr:`root`."""
        return a == b or (a != self.root and b != self.root)

    def child_window(
        self, pos: _Played, gain: int, alpha: int, beta: int
    ) -> tuple[int, int, int, int]:
        """How the mover's value of the move just played on ``pos`` (``gain`` points),
        within (alpha, beta), follows from the value of ``pos`` for its side to move.

        Returns ``(sign, offset, low, high)``: the mover's value is ``offset + sign * v``,
        ``v`` the value of ``pos`` searched within (``low``, ``high``); ``sign`` 0: the rules
        decide it, the value is ``offset`` (simple mode: an SOS wins; the board is full). The
        same side moves again after a scoring move (or, paranoid, a partner of the
        coalition): ``gain`` is added; otherwise the other side's value is negated.
        """
        if pos.simple and gain:
            return 0, self.unit, 0, 0
        g = gain * self.unit
        if pos.ended:
            return 0, g, 0, 0
        if self.same_side(pos.stack[-1][3], pos.to_move):
            return 1, g, alpha - g, beta - g
        return -1, 0, -beta, -alpha


__all__ = [
    "BOUND_OFFSET",
    "DRAIN_CHUNK",
    "EXACT",
    "LOWER",
    "NO_BOUNDS",
    "SLICE_NODES",
    "STEP_SECONDS",
    "TO_END",
    "UNLIMITED",
    "UPPER",
    "Bounds",
    "Budget",
    "Entry",
    "Pacer",
    "SearchTimeout",
    "TableSearch",
    "bound_of",
    "drain",
    "merge_bounds",
    "pack_bounds",
    "pack_entry",
    "run_to_end",
    "unpack_bounds",
]
