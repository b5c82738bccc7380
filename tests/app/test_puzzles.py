"""The puzzles as the app plays them (sos.app.learn.puzzles): the progress kept in storage, the
daily streak, a full storage, a session that never touches the user's games, and the panel's texts
in the page's language -- under CPython."""

from __future__ import annotations

import itertools
import json
from datetime import date, timedelta
from functools import cache
from pathlib import Path

import pytest

from sos import Action
from sos.app.learn.puzzle_set import DATA_PATH, Puzzle, UnknownPuzzleError, parse_puzzles
from sos.app.learn.puzzles import PUZZLES_KEY, Progress, PuzzleSession
from sos.app.learn.rating import RATING_KEY
from sos.app.saving.library import GAME_PREFIX, MemoryStore

ROOT = Path(__file__).resolve().parents[2]


@cache
def shipped() -> tuple[Puzzle, ...]:
    return parse_puzzles((ROOT / DATA_PATH).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- progress
def test_progress_streak_and_bad_saves() -> None:
    progress = Progress()
    today = date(2026, 12, 10)
    for back in (1, 2, 3, 5):
        progress.record(f"p{back}", True, today - timedelta(back))
    assert progress.streak(today) == 3  # yesterday and the two days before
    progress.record("p0", True, today)
    assert progress.streak(today) == 4
    progress.record("p0", False, today)  # a later try does not change the day's result
    assert progress.streak(today) == 4 and progress.count("failed") == 1
    assert Progress.load(progress.dump()) == progress
    for raw in (None, "", "{", "[]", '{"v": 9}', '{"v": 1, "results": {"a": "maybe"}}'):
        assert Progress.load(raw).results == {}


def test_session_records_outcomes_and_never_touches_games() -> None:
    store = MemoryStore()
    store.set(GAME_PREFIX + "abc", "a game")
    session = PuzzleSession(shipped(), store, lambda: "en")
    day = date(2026, 12, 1)
    session.open("daily", day)
    assert session.run is not None
    puzzle = session.run.puzzle
    for index in puzzle.steps():
        session.attempt(puzzle.line[index])
    assert "Solved" in session.feedback()
    saved = json.loads(store.get(PUZZLES_KEY) or "")
    assert saved["results"] == {puzzle.id: "solved"}
    assert saved["days"] == {"2026-12-01": "solved"}
    assert session.stats(day) == "Solved 1 · Failed 0 · Daily streak 1"
    assert store.get(GAME_PREFIX + "abc") == "a game"
    assert sorted(store.keys()) == sorted([GAME_PREFIX + "abc", PUZZLES_KEY, RATING_KEY])
    with pytest.raises(UnknownPuzzleError):
        session.open("p-404", day)
    assert session.run.puzzle == puzzle  # unchanged


def test_a_full_storage_keeps_the_puzzles_going() -> None:
    store = MemoryStore(quota=10)
    session = PuzzleSession(shipped(), store, lambda: "de")
    session.open_next()
    assert session.run is not None
    wrong = next(iter(session.run.puzzle.wrong[0]))
    session.attempt(wrong)
    assert not session.saved and store.get(PUZZLES_KEY) is None
    stats = session.stats(date(2026, 12, 1))
    assert "Nicht gelöst 1" in stats and "nicht gespeichert" in stats
    assert "ist es nicht" in session.feedback()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_texts_name_the_goal_and_the_refutation(lang: str) -> None:
    session = PuzzleSession(shipped(), None, lambda: lang)
    general = next(p for p in shipped() if p.goal == "lead")
    session.open(general.id, date(2026, 12, 1))
    prompt = session.prompt()
    assert ("wins by the most" if lang == "en" else "am höchsten") in prompt
    refutation = next(r for r in general.wrong[0].values() if r.reply is not None)
    session.attempt(refutation.action)
    feedback = session.feedback()
    assert str(refutation.action) in feedback and str(refutation.reply) in feedback
    simple = next(p for p in shipped() if p.rules.mode == "simple")
    session.open(simple.id, date(2026, 12, 1))
    assert ("wins" if lang == "en" else "gewinnt") in session.prompt()
    assert session.title().startswith("Puzzle" if lang == "en" else "Rätsel")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_scoring_right_move_says_the_player_moves_again(lang: str) -> None:
    puzzle, index = next(
        (p, a) for p in shipped() for a, b in itertools.pairwise(p.steps()) if b - a == 1
    )
    session = PuzzleSession(shipped(), None, lambda: lang)
    session.open(puzzle.id, date(2026, 12, 1))
    for step in puzzle.steps():  # play the line up to that scoring move
        verdict = session.attempt(puzzle.line[step])
        if step == index:
            break
    assert verdict.kind == "right" and not verdict.replies
    feedback = session.feedback()
    assert ("move again" if lang == "en" else "wieder am Zug") in feedback
    assert "answers" not in feedback and "antwortet" not in feedback


def test_puzzles_are_named_by_number_and_a_new_one_starts_without_the_last_change() -> None:
    session = PuzzleSession(shipped(), MemoryStore(), lambda: "en")
    first, second = shipped()[0], shipped()[1]
    session.open(first.id, date(2026, 12, 3))
    assert session.title().startswith("Puzzle 1 · ") and first.id not in session.title()
    wrong = next(a for a in first.wrong[0] if a != first.line[0])
    session.attempt(wrong)
    assert session.change < 0 and "points" in session.rating_text()
    session.open(second.id, date(2026, 12, 3))
    assert session.title().startswith("Puzzle 2 · ")
    assert session.change == 0 and "points" not in session.rating_text()


def test_a_longer_puzzle_says_how_many_moves_and_which_one() -> None:
    puzzle = next(p for p in shipped() if len(p.wrong) == 2)
    session = PuzzleSession(shipped(), None, lambda: "en")
    session.open(puzzle.id, date(2026, 12, 3))
    assert session.prompt().endswith("This puzzle has 2 moves to find: this is move 1.")
    steps = puzzle.steps()
    session.attempt(puzzle.line[steps[0]])
    assert session.prompt().endswith("this is move 2.")
    session.attempt(puzzle.line[steps[1]])
    assert "moves to find" not in session.prompt()  # solved: nothing left to find


def test_a_solved_puzzle_says_why() -> None:
    from sos.app.learn.puzzle_why import why

    for puzzle in shipped()[:60]:
        found = why(puzzle)
        session = PuzzleSession(shipped(), None, lambda: "en")
        session.open(puzzle.id, date(2026, 12, 3))
        assert session.run is not None
        while not session.run.solved:
            session.attempt(session.run.solution())
        text = session.feedback()
        assert text.startswith("Solved:")
        assert ("Your moves made" in text) == (found.made > 0)
        assert ("has no SOS to complete" in text) == found.safe
        assert "Every other move does worse: at best, " in text
        assert found.best_other is not None and found.best_other < puzzle.value


def test_after_a_miss_the_solution_is_shown_with_its_replies_and_why() -> None:
    # A puzzle of two moves to find with a reply between them, missed at its first move.
    puzzle = next(
        p for p in shipped()
        if len(p.wrong) == 2 and len(p.line) == 3 and any(
            r.reply is not None for r in p.wrong[0].values())
    )
    store = MemoryStore()
    session = PuzzleSession(shipped(), store, lambda: "en")
    session.open(puzzle.id, date(2026, 12, 3))
    run = session.run
    assert run is not None
    assert not session.can_show_solution()  # not before a miss
    session.show_solution()
    assert not run.revealed and run.state.history == puzzle.start().history
    wrong = next(r for r in puzzle.wrong[0].values() if r.reply is not None)
    session.attempt(wrong.action)
    assert session.can_show_solution()
    session.show_solution()
    # The wrong move and its refutation are gone; the whole line is on the board.
    assert run.state.history == (*puzzle.start().history, *puzzle.line)
    assert run.revealed and not run.solved and not run.can_play()
    assert not session.can_show_solution()  # shown once
    text = session.feedback()
    first, reply, second = puzzle.line
    assert text.startswith(
        f"The solution: {first}, Player {2 - run.player} answers {reply}, {second}."
    ), text
    assert "Every other move does worse: at best, " in text  # why (as for a solved one)
    assert json.loads(store.get(PUZZLES_KEY) or "")["results"] == {puzzle.id: "failed"}
    session.retry()  # nothing to take back: the solution stays
    assert run.state.history == (*puzzle.start().history, *puzzle.line)
    session.open_next()  # the next puzzle starts clean
    assert session.feedback() == "" and not session.can_show_solution()


@pytest.mark.parametrize("lang", ["de", "ar", "hi"])
def test_the_solution_is_said_in_the_pages_language(lang: str) -> None:
    puzzle = next(p for p in shipped() if len(p.wrong) == 1)
    session = PuzzleSession(shipped(), None, lambda: lang)
    session.open(puzzle.id, date(2026, 12, 3))
    session.attempt(next(a for a in puzzle.wrong[0] if a != puzzle.line[0]))
    session.retry()  # after Try again the solution is still offered
    assert session.can_show_solution()
    session.show_solution()
    text = session.feedback()
    assert str(puzzle.line[0]) in text and "solution" not in text


def test_the_difficulty_line_and_the_daily_mark() -> None:
    from datetime import date

    from sos.app.learn.puzzle_set import DATA_PATH, parse_puzzles
    from sos.app.learn.puzzles import PuzzleSession
    from sos.app.saving.library import MemoryStore

    root = __import__("pathlib").Path(__file__).resolve().parents[2]
    puzzles = parse_puzzles((root / DATA_PATH).read_text(encoding="utf-8"))
    session = PuzzleSession(puzzles, MemoryStore(), lambda: "en")
    said = "Next puzzles are chosen near a rating of {} (yours: 1500)."
    assert session.difficulty_text() == said.format(1500)
    session.difficulty = "easier"
    assert session.difficulty_text() == said.format(1200)
    day = date(2026, 12, 5)
    session.open("daily", day)
    assert not session.solved_on(day) and "solved today" not in session.title()
    session.progress.record(session.run.puzzle.id if session.run else "", True, day)
    assert session.solved_on(day) and "solved today" not in session.title()  # (nothing moves)
    session.open("daily", day)  # opened again: it says so
    assert session.title().endswith("· ✓ solved today")


def test_a_wrong_move_that_scores_says_where_the_game_ends() -> None:
    """The daily puzzle of 2026-12-04 (7g-7461d9) at 21–1: the goal is to win by the most,
    not to "keep your lead"; after the right S@e1 (22–1) the wrong O@f1 scores (23–1) and the
    text says where the game ends with perfect play: 21 ahead instead of 22 (issue 43)."""
    session = PuzzleSession(shipped(), MemoryStore(), lambda: "en")
    session.open("7g-7461d9", date(2026, 12, 4))
    assert session.context().endswith("21–1")
    assert "Player 1 to move: find the move that wins by the most" in session.prompt()
    assert session.attempt(Action.parse("S@e1")).kind == "right"
    assert session.context().endswith("22–1")
    assert session.attempt(Action.parse("O@f1")).kind == "wrong"
    assert session.feedback() == "O@f1 is not it: you finish only 21 ahead instead of 22."
    assert session.context().endswith("23–1")
