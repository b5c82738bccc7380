"""The puzzle rating (issue 26): Glicko-2 against Glickman's worked example, Lichess's puzzle
settings (RD floor, provisional, capped change), the choice of puzzles near the rating, and
the rating kept in storage through a puzzle session -- under CPython."""

from __future__ import annotations

import json
from datetime import date
from functools import cache
from pathlib import Path

import pytest

from sos.app.learn.puzzle_set import DATA_PATH, Puzzle, parse_puzzles
from sos.app.learn.puzzles import PuzzleSession
from sos.app.learn.rating import (
    MAX_CHANGE,
    MIN_RD,
    RATING_KEY,
    Rating,
    RatingBook,
    choose_near,
    glicko2_update,
    history_chart,
    puzzle_rating,
    rate,
)
from sos.app.saving.library import MemoryStore

ROOT = Path(__file__).resolve().parents[2]


@cache
def shipped() -> tuple[Puzzle, ...]:
    return parse_puzzles((ROOT / DATA_PATH).read_text(encoding="utf-8"))


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (win),
    1550/100 (loss), 1700/300 (loss) with tau 0.5 gives 1464.06 / 151.52 / 0.05999 (the paper
    rounds its intermediate values; exact arithmetic gives 1464.05)."""
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = glicko2_update(player, games, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_no_game_only_widens_the_deviation() -> None:
    new = glicko2_update(Rating(1500, 200, 0.06), [])
    # step 6 alone: phi* = sqrt(phi^2 + sigma^2) on the internal scale (173.7178 per unit)
    assert new.rating == 1500 and new.rd == pytest.approx(200.2714, abs=1e-3)


def test_lichess_settings_start_provisional_and_cap_the_change() -> None:
    book = RatingBook()
    assert (book.rating.rating, book.rating.rd, book.rating.volatility) == (1500, 500, 0.09)
    assert book.rating.provisional and book.shown() == "1500?"
    change = book.record("a", 3, True, 1000.0)
    assert change == MAX_CHANGE  # uncapped Glicko-2 would add ~250 at RD 500
    assert book.record("a", 3, False, 2000.0) == 0  # a puzzle is rated once
    assert book.record("b", 1, False, 3000.0) < 0
    assert book.history == [(1000.0, 1600), (3000.0, round(book.rating.rating))]
    for n in range(300):  # many even results: RD settles (one result per period: ~74)
        book.record(f"p{n}", 3, n % 2 == 0, 0.0)
    assert MIN_RD <= book.rating.rd < 110 and not book.rating.provisional
    # the floor: a settled, steady player's RD would fall below 45 without it
    steady = Rating(1500, 45, 0.001)
    assert glicko2_update(steady, [(puzzle_rating(3), 1.0)]).rd < MIN_RD
    assert rate(steady, puzzle_rating(3), 1.0).rd == MIN_RD
    assert abs(book.rating.rating - 1500) < 60
    # a result against a much weaker puzzle moves a settled rating a little
    settled = book.rating
    assert 0 < rate(settled, puzzle_rating(1), 1.0).rating - settled.rating < 5


def test_puzzle_ratings_follow_difficulty() -> None:
    assert [puzzle_rating(d).rating for d in range(1, 6)] == [1100, 1300, 1500, 1700, 1900]
    assert puzzle_rating(9).rating == 1900 and puzzle_rating(0).rating == 1100


def test_choose_near_walks_the_set_in_order() -> None:
    ratings = [1, 3, 5, 3, 2, 3]
    assert choose_near(1500, ratings) == 1
    assert choose_near(1500, ratings, after=1) == 3
    assert choose_near(1500, ratings, after=3) == 5
    assert choose_near(1500, ratings, skip={1, 3, 5}) == 4  # 1300 (200 off) before 1900 (400)
    assert choose_near(2500, ratings) == 2
    assert choose_near(1500, ratings, skip=set(range(6))) is None


def test_the_book_survives_storage_and_refuses_garbage() -> None:
    book = RatingBook()
    book.record("x", 4, True, 5.0)
    again = RatingBook.load(book.dump())
    assert again.rating.rating == pytest.approx(book.rating.rating, abs=0.01)
    assert again.rated == ["x"] and again.history == book.history and not again.damaged
    for raw in ("{", "[]", '{"v": 2, "r": 1500, "rd": 100, "vol": 0.09}',
                '{"v": 1, "r": "x", "rd": 100, "vol": 0.09}',
                '{"v": 1, "r": 1500, "rd": 9, "vol": 0.09}'):
        loaded = RatingBook.load(raw)
        assert loaded.damaged and loaded.rating == Rating()
    assert not RatingBook.load(None).damaged


def test_history_chart() -> None:
    chart = history_chart([(0, 1500), (1, 1600), (2, 1550)], width=100, height=50, pad=0)
    assert (chart.low, chart.high) == (1500, 1600)
    assert chart.points == "0,50 50,0 100,25" and chart.last == (100, 25)
    room = history_chart([(0, 1500), (1, 1600), (2, 1550)], width=100, height=50, pad=0, left=20)
    assert room.points == "20,50 60,0 100,25"  # the labels' room stays free
    assert history_chart([]).points == ""
    flat = history_chart([(0, 1500)])
    assert flat.high - flat.low == 100


def test_a_puzzle_session_rates_solved_and_failed_and_chooses_near_the_rating() -> None:
    store = MemoryStore()
    clock = iter(range(1000, 10**6, 1000))
    session = PuzzleSession(shipped(), store, lambda: "en", lambda: float(next(clock)))
    session.open_next()
    assert session.run is not None
    assert session.run.puzzle.rating == 3  # 1500: a new player is offered difficulty 3
    puzzle = session.run.puzzle
    for index in puzzle.steps():
        session.attempt(puzzle.line[index])
    assert session.change == 100 and "+100" in session.rating_text()
    assert "1600?" in session.rating_text()
    assert "provisional" in session.rating_text()
    # the short form keeps the value and its "?" and drops only the note
    assert session.rating_text(short=True) == "Puzzle rating: 1600? · +100 points"
    session.open_next()
    assert session.run is not None and session.run.puzzle != puzzle
    assert session.run.puzzle.rating in (3, 4)  # 1500 and 1700 are both 100 from 1600
    wrong = next(iter(session.run.puzzle.wrong[0]))
    session.attempt(wrong)
    assert session.change < 0
    stored = json.loads(store.get(RATING_KEY) or "")
    assert len(stored["history"]) == 2 and stored["rated"][0] == puzzle.id
    # a reload reads the same rating
    again = PuzzleSession(shipped(), store, lambda: "de")
    assert round(again.rating.rating.rating) == round(session.rating.rating.rating)
    assert again.rating_text().startswith("Rätselwertung: ")
    again.difficulty = "easiest"
    again.open_next()
    assert again.run is not None and again.run.puzzle.rating == 1
    points, label = again.rating_chart()
    assert len(points.split()) == 2 and label


def test_the_daily_puzzle_counts_once() -> None:
    session = PuzzleSession(shipped(), MemoryStore(), lambda: "en")
    session.open("daily", date(2026, 12, 1))
    assert session.run is not None
    wrong = next(iter(session.run.puzzle.wrong[0]))
    session.attempt(wrong)
    first = session.rating.rating.rating
    session.retry()
    for index in session.run.puzzle.steps():
        session.attempt(session.run.puzzle.line[index])
    assert session.rating.rating.rating == first  # solving after a failure does not rate again


def test_the_puzzle_context_and_the_difficulty_are_kept() -> None:
    store = MemoryStore()
    session = PuzzleSession(shipped(), store, lambda: "en")
    general = next(p for p in shipped() if p.rules.mode == "general" and any(p.start().scores))
    session.open(general.id, date(2026, 12, 1))
    scores = "–".join(map(str, general.start().scores))
    assert session.context() == f"General: most SOSs wins · score {scores}"
    session.difficulty = "hardest"
    session.difficulty = "impossible"  # not a choice: ignored
    again = PuzzleSession(shipped(), store, lambda: "de")
    assert again.difficulty == "hardest" and again.target() == 1500 + 600
    simple = next(p for p in shipped() if p.rules.mode == "simple")
    again.open(simple.id, date(2026, 12, 1))
    assert again.context().startswith("Einfach")


def test_a_stored_rating_it_cannot_read_is_never_overwritten() -> None:
    store = MemoryStore()
    store.set(RATING_KEY, '{"v": 9, "future": true}')
    session = PuzzleSession(shipped(), store, lambda: "en")
    session.open_next()
    assert session.run is not None
    wrong = next(iter(session.run.puzzle.wrong[0]))
    session.attempt(wrong)
    assert session.change < 0 and "not being saved" in session.rating_text()
    assert store.get(RATING_KEY) == '{"v": 9, "future": true}'
