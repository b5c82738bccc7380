"""Puzzles (issue 14, sos.app.learn.puzzle_set): the shipped set re-proved by the solver, the data
format, an attempt (right, wrong with its refutation, the forced reply) and the daily choice --
under CPython. The progress and the panel's texts: tests/app/test_puzzles.py."""

from __future__ import annotations

import json
import time
from collections import Counter
from datetime import date, timedelta
from functools import cache
from pathlib import Path

import pytest

from sos.ai.search import run_to_end
from sos.ai.solver import Solver
from sos.app.learn.puzzle_set import (
    DATA_PATH,
    Puzzle,
    PuzzleFormatError,
    PuzzleRun,
    UnknownPuzzleError,
    daily_index,
    daily_puzzle,
    dump_puzzles,
    final_margin,
    find_puzzle,
    parse_puzzles,
)
from sos.notation import Action
from sos.rules import MAX_APP_SIZE, MIN_APP_SIZE
from sos.state import IllegalActionError

ROOT = Path(__file__).resolve().parents[2]


@cache
def shipped() -> tuple[Puzzle, ...]:
    return parse_puzzles((ROOT / DATA_PATH).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- the shipped set
def test_the_set_is_large_varied_and_rated() -> None:
    puzzles = shipped()
    assert len(puzzles) >= 300
    sizes = Counter(p.rules.rows for p in puzzles)
    modes = Counter(p.rules.mode for p in puzzles)
    assert set(sizes) == {4, 5, 6, 7, 8}, sizes
    assert modes["simple"] >= 30 and modes["general"] >= 30, modes
    assert set(Counter(p.rating for p in puzzles)) >= {1, 2, 3, 4}
    assert any(len(p.wrong) > 1 for p in puzzles)  # some puzzles have a forced line
    assert all(p.start().empty_squares <= 16 for p in puzzles)
    assert (ROOT / DATA_PATH).stat().st_size < 250_000


@pytest.mark.slow
def test_every_shipped_puzzle_is_proved_by_the_solver() -> None:
    """Each move to find is the only one that keeps the stated value (exact solver), the
    opponent's replies in the line keep it too, and the goal matches the value."""
    started = time.process_time()
    for puzzle in shipped():
        solver = Solver(use_book=False)
        state = puzzle.start()
        me = state.current_player()
        first_value, keep = run_to_end(solver.optimal_actions(state))
        assert first_value == puzzle.value, puzzle.id
        if puzzle.rules.mode == "simple":
            assert puzzle.goal == "win" and first_value == 1, puzzle.id
        else:
            margin = final_margin(state, me, first_value)
            assert (margin > 0) == (puzzle.goal in ("win", "lead")), puzzle.id
            assert (margin == 0) == (puzzle.goal == "draw"), puzzle.id
        steps = puzzle.steps()
        for index, action in enumerate(puzzle.line):
            if index in steps:
                if index > 0:
                    _, keep = run_to_end(solver.optimal_actions(state))
                assert keep == [action], (puzzle.id, index, keep)
            else:
                assert state.current_player() == 1 - me
                _, replies = run_to_end(solver.optimal_actions(state))
                assert action in replies, (puzzle.id, index)
            state.apply(action)
        # Every other legal move of the first step is listed with its refutation.
        assert len(puzzle.wrong[0]) == len(puzzle.start().legal_actions()) - 1, puzzle.id
    print(f"re-proved {len(shipped())} puzzles in {time.process_time() - started:.1f} s CPU")


def test_wrong_moves_of_a_sample_carry_their_exact_values() -> None:
    for puzzle in shipped()[::40]:
        state = puzzle.start()
        solver = Solver(use_book=False)
        values = dict(run_to_end(solver.action_values(state)))
        for action, refutation in puzzle.wrong[0].items():
            assert refutation.value == values[action] < puzzle.value, (puzzle.id, action)
            if refutation.reply is not None:
                child = state.child(action)
                assert child.current_player() == 1 - state.current_player()
                # the reply keeps the opponent's best value after the wrong move
                _, best = run_to_end(solver.optimal_actions(child))
                assert refutation.reply in best


# --------------------------------------------------------------------------- the format
def test_dump_and_parse_round_trip() -> None:
    puzzles = shipped()[:12]
    again = parse_puzzles(dump_puzzles(puzzles))
    assert again == puzzles


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=2), "version 2"),
        (lambda d: d.update(format="other"), "not a sos-puzzles file"),
        (lambda d: d.update(puzzles=[]), "no puzzles"),
        (lambda d: d["puzzles"][0].pop("line"), "missing field 'line'"),
        (lambda d: d["puzzles"][0].update(moves="Sa1Sa1"), "unreadable moves"),
        (lambda d: d["puzzles"][0].update(line="Zz9"), "unreadable moves"),
        (lambda d: d["puzzles"][0].update(size=MAX_APP_SIZE + 1), "bad board"),
        (lambda d: d["puzzles"][0].update(size=MIN_APP_SIZE - 1), "bad board"),
        (lambda d: d["puzzles"][0].update(goal="lose"), "bad goal"),
        (lambda d: d["puzzles"][0].update(wrong=["Sa1:x"]), "bad value"),
        (lambda d: d["puzzles"][0].update(id="a b"), "bad id"),
        (lambda d: d["puzzles"].append(dict(d["puzzles"][0])), "repeated puzzle id"),
    ],
)
def test_a_bad_file_raises_a_specific_error(change: object, message: str) -> None:
    data = json.loads(dump_puzzles(shipped()[:3]))
    change(data)  # type: ignore[operator]
    with pytest.raises(PuzzleFormatError, match=message):
        parse_puzzles(json.dumps(data))
    with pytest.raises(PuzzleFormatError, match="not JSON"):
        parse_puzzles("{")


# --------------------------------------------------------------------------- an attempt
def _longest() -> Puzzle:
    return max(shipped(), key=lambda p: (len(p.wrong), len(p.line), p.id))


def test_right_moves_get_the_forced_reply_until_solved() -> None:
    puzzle = _longest()
    assert len(puzzle.wrong) >= 2
    run = PuzzleRun(puzzle)
    steps = puzzle.steps()
    for number, index in enumerate(steps):
        verdict = run.attempt(puzzle.line[index])
        end = steps[number + 1] if number + 1 < len(steps) else len(puzzle.line)
        assert verdict.replies == puzzle.line[index + 1 : end]
        assert verdict.kind == ("solved" if number == len(steps) - 1 else "right")
    assert run.solved and not run.failed and not run.can_play()
    assert run.state.history == puzzle.moves + puzzle.line
    with pytest.raises(IllegalActionError):
        run.attempt(Action(0, 0, "S"))


def test_a_wrong_move_plays_its_refutation_and_retry_takes_it_back() -> None:
    puzzle = next(p for p in shipped() if any(r.reply for r in p.wrong[0].values()))
    run = PuzzleRun(puzzle)
    wrong = next(r for r in puzzle.wrong[0].values() if r.reply is not None)
    before = run.state.to_text()
    verdict = run.attempt(wrong.action)
    assert verdict.kind == "wrong" and verdict.refutation == wrong
    assert verdict.replies == (wrong.reply,)
    assert run.state.history[-2:] == (wrong.action, wrong.reply)
    assert run.failed and run.showing_wrong and not run.can_play()
    run.retry()
    assert run.state.to_text() == before and run.can_play()
    assert run.attempt(puzzle.line[0]).kind in ("right", "solved")
    assert run.failed  # it stays failed: the first try was wrong


def test_an_occupied_square_changes_nothing() -> None:
    puzzle = shipped()[0]
    run = PuzzleRun(puzzle)
    taken = puzzle.moves[0]
    with pytest.raises(IllegalActionError):
        run.attempt(Action(taken.row, taken.col, "S"))
    assert run.state.history == puzzle.moves and not run.failed


# --------------------------------------------------------------------------- the daily puzzle
def test_the_daily_choice_is_stable_for_a_date() -> None:
    puzzles = shipped()
    day = date(2026, 12, 1)
    assert daily_puzzle(puzzles, day) == daily_puzzle(puzzles, date(2026, 12, 1))
    assert find_puzzle(puzzles, "daily", day) == daily_puzzle(puzzles, day)
    # Pinned: a given date keeps its puzzle index for this set size from release to release.
    assert daily_index(date(2026, 12, 1), 320) == 146
    assert daily_index(date(2026, 1, 1), 320) == 0
    # No puzzle repeats within as many days as there are puzzles.
    for count in (1, 7, 300, 320, 7919 * 2):
        days = [daily_index(day + timedelta(n), count) for n in range(min(count, 2000))]
        assert len(set(days)) == len(days)
        assert all(0 <= d < count for d in days)
    with pytest.raises(ValueError):
        daily_index(day, 0)


def test_an_unknown_id_raises() -> None:
    with pytest.raises(UnknownPuzzleError):
        find_puzzle(shipped(), "nope", date(2026, 12, 1))
    assert find_puzzle(shipped(), shipped()[5].id, date(2026, 12, 1)) == shipped()[5]

