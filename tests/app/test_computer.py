"""The computer seats as the app decides them (sos.app.computer): the agent of each seat, when
the opening book is needed, where it is served, and the searches as generators."""

from __future__ import annotations

import itertools
from pathlib import Path

from sos import Action, Rules
from sos.ai.solver import BOOK_PATH, BOOK_SHAPE
from sos.app.computer import (
    BOOK_URL,
    ComputerSeats,
    book_covers,
    book_needed,
    book_path,
    hint_steps,
    worth_skipping,
)
from sos.app.library import GameRecord
from sos.app.session import GameSession

ROOT = Path(__file__).resolve().parents[2]


def run(gen: object) -> object:
    """Step a search generator to its end and return its result."""
    while True:
        try:
            next(gen)  # type: ignore[call-overload]
        except StopIteration as stop:
            return stop.value


def game(size: int, seats: tuple[str, ...], players: int = 2) -> GameSession:
    return GameSession(GameRecord("g", Rules.square(size, players=players), seats))


def test_the_book_is_read_by_the_strong_levels_hints_and_reviews_on_its_board() -> None:
    four = Rules.square(4)
    assert (four.rows, four.cols) == BOOK_SHAPE and book_covers(four)
    assert book_needed(four, "hard") and book_needed(four, "perfect")
    assert book_needed(four, None)  # a hint or a review
    assert not book_needed(four, "easy") and not book_needed(four, "medium")
    assert not book_needed(Rules.square(5), "hard")
    assert not book_covers(Rules.square(4, players=3))


def test_the_book_is_served_where_the_solver_reads_it() -> None:
    assert book_path() == str(BOOK_PATH)
    served = ROOT / BOOK_URL.removeprefix("./")
    assert served.is_file() and served.name == Path(BOOK_PATH).name


def test_one_agent_per_seat_and_level_made_on_first_use() -> None:
    seeds = itertools.count(7)
    seats = ComputerSeats(lambda: next(seeds))
    one = game(4, ("easy", "medium"))
    first = seats.agent(one, 0)
    assert first.level == "easy" and seats.agent(one, 0) is first
    assert seats.agent(one, 1).level == "medium"
    other = game(4, ("hard", "human"))
    assert seats.agent(other, 0).level == "hard"
    assert seats.agent(one, 0) is not first  # another game was shown in between: made anew


def test_a_planned_move_is_legal_and_leaves_the_session_alone() -> None:
    session = game(4, ("human", "easy"))
    session.play(Action(0, 0, "S"))
    before = (session.state.to_text(), session.version)
    seats = ComputerSeats(lambda: 1)
    action = run(seats.plan(session, 1))
    assert isinstance(action, Action) and session.state.is_legal(action)
    assert (session.state.to_text(), session.version) == before


def test_the_hint_finds_the_winning_move() -> None:
    session = GameSession(GameRecord("g", Rules(1, 4, "simple"), ("human", "human")))
    session.play(Action(0, 0, "S"))
    session.play(Action(0, 1, "O"))
    analysis = run(hint_steps(session))
    assert analysis.action == Action(0, 2, "S") and analysis.exact  # type: ignore[attr-defined]


def test_a_run_is_worth_skipping_with_two_computers_or_after_an_extra_turn() -> None:
    assert not worth_skipping(("human", "hard"), 0)  # one computer's single move
    assert not worth_skipping(("human", "hard"), 1)  # it scored once and plays on
    assert worth_skipping(("human", "hard"), 2)  # a chain of extra turns
    assert worth_skipping(("easy", "hard"), 0)
    assert worth_skipping(("human", "medium", "human", "easy"), 0)
    assert not worth_skipping(("human", "human"), 0)
