"""The computer seats as the app decides them (sos.app.game.computer): the agent of each seat, when
the opening book is needed, where it is served, and the searches as generators."""

from __future__ import annotations

import itertools
from pathlib import Path

from sos import Action, Rules
from sos.ai.agents import hard_budget
from sos.ai.solver import BOOK_PATH, BOOK_SHAPE
from sos.app.game.computer import (
    BOOK_URL,
    CHAIN_PACE,
    CHAIN_STEPS,
    SEARCH_LIMIT_FLOOR,
    TURN_PAUSE,
    ComputerSeats,
    book_covers,
    book_needed,
    book_path,
    hint_steps,
    overrun_after,
    quick_move,
    search_limit,
    turn_seconds,
    turn_steps,
    worth_skipping,
)
from sos.app.game.session import GameSession
from sos.app.saving.library import GameRecord
from sos.rules import MAX_APP_SIZE

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


def test_a_planned_turn_is_legal_and_leaves_the_session_alone() -> None:
    session = game(4, ("human", "easy"))
    session.play(Action(0, 0, "S"))
    before = (session.state.to_text(), session.version)
    seats = ComputerSeats(lambda: 1)
    turn = run(seats.plan_turn(session, 1))
    assert isinstance(turn, tuple) and len(turn) == 1  # nothing to score: one move
    assert session.state.is_legal(turn[0])
    assert (session.state.to_text(), session.version) == before


def test_a_turn_takes_every_sos_then_ends_with_a_move_that_scores_nothing() -> None:
    # S O _ S O _ on the first row: the computer (medium) takes the SOSs open to it and those
    # its letters open, then makes a move that scores nothing.
    session = GameSession(GameRecord("g", Rules(3, 6), ("human", "medium")))
    for action in (Action(0, 0, "S"), Action(0, 3, "S"), Action(0, 1, "O"), Action(0, 4, "O")):
        session.play(action)  # the human's and the computer's moves, alternately (no score)
    session.play(Action(2, 5, "S"))  # the human; now the computer can take b1-d1 and d1-f1
    turn = run(ComputerSeats(lambda: 3).plan_turn(session, 1))
    assert isinstance(turn, tuple)
    state = session.state.clone()
    points = [len(state.apply(action)) for action in turn]
    assert len(turn) >= 3 and all(points[:-1]) and points[-1] == 0
    assert state.current_player() == 0


def test_the_page_shows_a_turn_in_a_few_steps_within_one_pace() -> None:
    assert turn_steps(1) == [(1, TURN_PAUSE)]  # a turn's first move, as any single move
    assert turn_steps(3) == [(1, TURN_PAUSE)] * 3  # a short chain is followed move by move
    long = turn_steps(86)
    assert long[0] == (1, TURN_PAUSE) and sum(count for count, _ in long) == 86
    assert len(long) == 1 + CHAIN_STEPS  # 86 moves, 13 renders
    assert {count for count, _ in long[1:]} <= {7, 8}  # about equal steps
    assert abs(sum(pause for _, pause in long[1:]) - CHAIN_PACE) < 1e-9
    assert turn_steps(5, first=0) == [(1, 0.0)] * 5  # tests: no pause
    assert turn_steps(0) == []


def test_the_page_cuts_off_a_search_far_past_its_budget() -> None:
    largest = Rules.square(MAX_APP_SIZE)
    # One budget for a whole turn: a few moves' budgets, however long its chain.
    assert turn_seconds(largest, "hard") <= 3.5 * hard_budget(largest) + 1e-9
    for rules in (Rules.square(4), Rules.square(5), largest):
        for level in ("easy", "medium", "hard", "perfect"):
            expected = turn_seconds(rules, level)
            assert expected < overrun_after(rules, level) < search_limit(rules, level)
            assert search_limit(rules, level) >= SEARCH_LIMIT_FLOOR


def test_a_quick_move_is_legal_and_takes_an_sos() -> None:
    session = GameSession(GameRecord("g", Rules(3, 3), ("human", "hard")))
    session.play(Action(0, 0, "S"))
    session.play(Action(0, 1, "O"))  # the human to move again: S on c1 scores
    assert quick_move(session) == Action(0, 2, "S")
    assert session.state.to_text().startswith("SO.")  # unchanged


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
