"""Runs every ``case_*`` of tests/rule_cases.py under CPython (they also run under Pyodide)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import rule_cases

CASES: list[tuple[str, Callable[[], None]]] = [
    (name, getattr(rule_cases, name))
    for name in sorted(dir(rule_cases))
    if name.startswith("case_")
]


def test_there_are_rule_cases() -> None:
    assert len(CASES) >= 11


@pytest.mark.parametrize(("name", "case"), CASES, ids=[name for name, _ in CASES])
def test_rule_case(name: str, case: Callable[[], None]) -> None:
    case()
