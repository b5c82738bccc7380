"""What the searchers share (sos.ai.base): budgets, the pacer, transposition-table entries."""

from __future__ import annotations

import itertools
from collections.abc import Generator

import pytest

from sos.ai.base import (
    BOUND_OFFSET,
    EXACT,
    LOWER,
    NO_BOUNDS,
    TO_END,
    UNLIMITED,
    UPPER,
    Bounds,
    Budget,
    Entry,
    Pacer,
    SearchTimeout,
    bound_of,
    drain,
    merge_bounds,
    pack_bounds,
    pack_entry,
    run_to_end,
)


def test_budget_arithmetic_keeps_no_limit_as_no_limit() -> None:
    budget = Budget(seconds=0.4, nodes=10_001)
    assert budget.share(0.5) == Budget(0.2, 5000)  # nodes rounded down
    assert budget.minus(0.1, 1) == Budget(pytest.approx(0.3), 10_000)  # type: ignore[arg-type]
    assert budget.rest(0.25) == Budget(pytest.approx(0.3), 7501)  # type: ignore[arg-type]
    assert UNLIMITED.share(0.5) == UNLIMITED and UNLIMITED.minus(9.0, 9) == UNLIMITED
    assert not UNLIMITED.spent and not budget.spent
    assert Budget(nodes=0).spent and Budget(seconds=-0.01).spent
    # A spent budget still searches its first nodes (a search always makes a move).
    assert Budget(-0.5, -20).at_least(64) == Budget(0.0, 64)
    assert Budget(None, 100).at_least(64) == Budget(None, 100)


def test_a_node_budget_stops_a_search_at_the_same_node_with_pauses_between() -> None:
    def search(pacer: Pacer) -> Generator[None, None, int]:
        while True:
            if pacer.due():
                yield from pacer.tick()

    pacer = Pacer(node_budget=1000, slice_nodes=64, step_seconds=60.0)
    gen = search(pacer)
    pauses = 0
    with pytest.raises(SearchTimeout):
        for _ in gen:
            pauses += 1
    assert pacer.nodes == 1000  # exactly the budget, on any machine
    assert pauses == 1000 // 64  # a pause every 64 nodes until the budget is spent
    pacer.check_at = 0
    with pytest.raises(SearchTimeout):
        pacer.check()


def test_a_time_budget_counts_search_time_only() -> None:
    pacer = Pacer(seconds=1.0)
    pacer.check()  # nothing spent yet
    pacer.spent = 1.5
    with pytest.raises(SearchTimeout):
        pacer.check()
    assert pacer.stop() >= 1.5 and pacer.elapsed() >= pacer.spent


@pytest.mark.parametrize("bound", [EXACT, LOWER, UPPER])
def test_entries_pack_into_one_int_and_back(bound: int) -> None:
    values, depths, moves = (-300, -1, 0, 7, 10**6), (0, 5, TO_END), (-1, 0, 510)
    for value, depth, move in itertools.product(values, depths, moves):
        entry = Entry(value, depth, bound, move)
        packed = entry.pack()
        assert isinstance(packed, int) and packed == pack_entry(value, depth, bound, move)
        assert Entry.unpack(packed) == entry


def test_an_entry_cuts_only_the_windows_its_bound_decides() -> None:
    assert Entry(3, 1, EXACT, -1).cuts(-10, 10)
    assert Entry(5, 1, LOWER, -1).cuts(0, 5) and not Entry(5, 1, LOWER, -1).cuts(0, 6)
    assert Entry(0, 1, UPPER, -1).cuts(0, 5) and not Entry(0, 1, UPPER, -1).cuts(-1, 5)
    # fail-soft results and the bound they carry
    assert (bound_of(-3, -2, 4), bound_of(4, -2, 4), bound_of(1, -2, 4)) == (UPPER, LOWER, EXACT)


def test_two_bound_entries_pack_into_one_int_and_back() -> None:
    values = (-BOUND_OFFSET, -300, -1, 0, 7, 300, BOUND_OFFSET)
    for lower, upper, move in itertools.product(values, values, (-1, 0, 510)):
        if lower > upper or lower == BOUND_OFFSET:  # (a lower bound is less than the offset)
            continue
        entry = Bounds(lower, upper, move)
        assert entry.pack() == pack_bounds(lower, upper, move)
        assert Bounds.unpack(entry.pack()) == entry


def test_two_bound_entries_keep_the_bounds_of_searches_around_different_targets() -> None:
    # "at least 2?" fails high with 3; "at least 6?" fails low with 5: both are kept
    entry = NO_BOUNDS.merged(3, 1, 2, 40)
    assert entry == Bounds(3, BOUND_OFFSET, 40)
    entry = entry.merged(5, 5, 6, 41)
    assert entry == Bounds(3, 5, 40)  # a fail-low keeps the move of the fail-high
    assert entry.merged(4, 3, 5, 42) == Bounds(4, 4, 42)  # inside the window: exact
    assert NO_BOUNDS.merged(-2, 0, 1, 9) == Bounds(-BOUND_OFFSET, -2, 9)  # no move yet: taken
    # merge_bounds is the same in int arithmetic
    for packed, entry in ((None, NO_BOUNDS), (Bounds(3, 5, 40).pack(), Bounds(3, 5, 40)),
                          (Bounds(-4, 9, -1).pack(), Bounds(-4, 9, -1))):
        for best, alpha0, beta in itertools.product(range(-6, 11), range(-6, 11), (-5, 0, 4, 11)):
            if alpha0 < beta:
                assert merge_bounds(packed, best, alpha0, beta, 7) == (
                    entry.merged(best, alpha0, beta, 7).pack()
                )


def test_drain_frees_a_table_in_pieces_and_run_to_end_returns_the_result() -> None:
    table = {key: key for key in range(10)}
    drain(table, 4)
    assert len(table) == 6
    drain(table, 100)
    assert table == {}

    def steps() -> Generator[None, None, str]:
        yield
        yield
        return "done"

    assert run_to_end(steps()) == "done"
