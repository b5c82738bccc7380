"""The AI's behaviour at fixed node budgets matches the stored fixture (a subset, fast).

The fixture ``benchmarks/data/ai_equivalence.json`` holds the moves, values and node counts
of every searcher and level on a fixed set of positions (``benchmarks/ai_equivalence.py``);
``python benchmarks/ai_equivalence.py --check`` compares all of it.
"""

from __future__ import annotations

import pytest

from benchmarks.ai_equivalence import all_records, compare, load_fixture, make_positions

FIXTURE = load_fixture()
#: Every fifth position (both modes, 2-4 players, all phases), a few seconds in all.
SUBSET = [p["id"] for p in FIXTURE["positions"]][::5]


@pytest.mark.parametrize("pid", SUBSET)
def test_records_match_the_fixture(pid: str) -> None:
    positions = [p for p in FIXTURE["positions"] if p["id"] == pid]
    expected = [r for r in FIXTURE["records"] if r["pos"] == pid]
    got = all_records(positions, reviews=False)
    assert compare(expected, got) == []


def test_fixture_covers_the_phases_modes_and_seats() -> None:
    positions = FIXTURE["positions"]
    assert {p["mode"] for p in positions} == {"general", "simple"}
    assert {p["players"] for p in positions} >= {2, 3}
    kinds = {r["kind"] for r in FIXTURE["records"]}
    assert kinds >= {"ab", "solve", "result", "secure", "best", "hard", "hint", "review"}
    # the stored positions are the seeded ones (the generator did not drift)
    assert [p["id"] for p in make_positions()] == [p["id"] for p in positions]


def test_compare_reports_a_changed_value() -> None:
    records = [r for r in FIXTURE["records"] if r["kind"] == "ab"][:3]
    changed = [dict(r) for r in records]
    changed[1]["value"] = changed[1]["value"] + 1
    assert len(compare(records, changed)) == 1
