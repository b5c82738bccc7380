"""The review panel's view model (sos.app.learn.review): graph geometry, move texts, best-move
marks, summary lines, verdicts in the move list, Previous/Next and the review kept in a record —
on a hand-made review with known values and on games reviewed by the engine (3x3 and 4x4)."""

from __future__ import annotations

import itertools
import random

import pytest

from sos import Action, GameState, Rules, new_game
from sos.ai.review import GameReview, PlyReview, graph_points, review_game, verdict
from sos.app.app import AppSession
from sos.app.learn.review import (
    EXTRA_KEY,
    HEIGHT,
    PAD,
    SYMBOLS,
    GraphPoint,
    GraphSegment,
    best_marks,
    graph_view,
    matching,
    move_text,
    player_names,
    review_view,
    start_review,
    step_target,
    stored_review,
    summary_lines,
    verdict_marks,
    with_review,
)
from sos.app.saving.library import GameRecord, MemoryStore

A = Action.parse
LINE = (A("S@a1"), A("O@b1"), A("S@c1"), A("O@b2"))  # S O S along the top row, then O@b2


def app(lang: str = "en") -> AppSession:
    ids = (f"id{n}" for n in itertools.count())
    return AppSession(MemoryStore(), lambda: 0.0, lambda: next(ids), lang)


def hand_review() -> GameReview:
    """A 3x3 general review with chosen values: proven, proven, estimate, estimate."""
    plies = (
        PlyReview(0, LINE[0], 0, 0.0, 0.0, (LINE[0],), 0.0, "best", True),
        PlyReview(1, LINE[1], 1, 0.0, -2.0, (A("S@b2"), A("O@b2"), A("S@c3")), 2.0, "mistake",
                  True),
        PlyReview(2, LINE[2], 0, 2.0, 2.0, (LINE[2],), 0.0, "best", False),
        PlyReview(3, LINE[3], 0, 2.0, -1.5, tuple(A(t) for t in
                  ("S@a2", "O@a2", "S@c2", "S@a3", "S@b3")), 3.5, "blunder", False),
    )
    return GameReview("general", 2, LINE, plies)


def random_game(rules: Rules, seed: int) -> GameState:
    rng = random.Random(seed)
    state = new_game(rules)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_graph_geometry_of_a_known_review() -> None:
    graph = graph_view(app(), hand_review(), 4, ("Player 1", "Player 2"))
    # Values seen by the first player: 0, +2 (minus player 2's -2), 2, -1.5; scaled to the
    # largest, 2: y = 50 - value / 2 * 42.
    assert graph.width == 40
    assert graph.points == (
        GraphPoint(1, 5.0, 50.0, True, "best"),
        GraphPoint(2, 15.0, 8.0, True, "mistake"),
        GraphPoint(3, 25.0, 8.0, False, "best"),
        GraphPoint(4, 35.0, 81.5, False, "blunder"),
    )
    assert graph.segments == (
        GraphSegment(5.0, 50.0, 15.0, 8.0, True),
        GraphSegment(15.0, 8.0, 25.0, 8.0, False),  # an estimate at one end: an estimate
        GraphSegment(25.0, 8.0, 35.0, 81.5, False),
    )
    assert graph.label == (
        "Evaluation graph, one point per move: above the middle line Player 1 is ahead."
    )
    assert (graph.up, graph.down) == ("▲ Player 1 ahead", "▼ Player 1 behind")  # issue 26
    # Only the moves the review covers are drawn.
    two = graph_view(app(), hand_review(), 2, ("Player 1", "Player 2"))
    assert two.width == 20 and [p.ply for p in two.points] == [1, 2] and len(two.segments) == 1
    assert graph_view(app(), hand_review(), 0, ("P1", "P2")).width == 10  # (an empty graph)


def test_move_text_and_marks_of_a_mistake_and_a_blunder() -> None:
    review = hand_review()
    mistake = move_text(app(), "general", review.plies[1], "Player 2")
    assert mistake == (
        "Move 2, Player 2: O@b1 — mistake. Before: a draw (proven). After: a loss by 2 (proven)."
        " Lost 2 points. Best: S@b2, O@b2, S@c3. The best move is marked on the board."
    )
    assert best_marks(review.plies[1]) == ((1, 1, "S/O"), (2, 2, "S"))
    blunder = move_text(app(), "general", review.plies[3], "Player 1")
    assert blunder == (
        "Move 4, Player 1: O@b2 — blunder. Before: a win by ≈2.0 (estimate)."
        " After: a loss by ≈1.5 (estimate). Lost 3.5 points."
        " Best: S@a2, O@a2, S@c2, S@a3 and 1 more. The best move is marked on the board."
    )
    assert best_marks(review.plies[3]) == ((1, 0, "S/O"), (1, 2, "S"), (2, 0, "S"))
    best = move_text(app(), "general", review.plies[0], "Player 1")
    assert best == (
        "Move 1, Player 1: S@a1 — best move. Before: a draw (proven). After: a draw (proven)."
    )
    assert best_marks(review.plies[0]) == ()
    simple = move_text(app(), "simple", review.plies[1], "Player 2")
    assert simple.startswith(
        "Move 2, Player 2: O@b1 — mistake. Before: a draw (proven). After: a loss (proven)."
        " Best: "
    )  # no points lost in simple mode
    german = move_text(app("de"), "general", review.plies[1], "Spieler 2")
    assert german.startswith("Zug 2, Spieler 2: O@b1")


def test_a_move_among_the_best_is_never_a_blunder_and_disagreeing_estimates_say_so() -> None:
    """Issue 32: "O@e1 — blunder … Best: O@e1, …". A move the search lists among its best is
    judged best; when the estimate after it still disagrees, the text says the computer is
    unsure instead of contradicting itself, and the move is not marked as its own better."""
    assert verdict("general", 2.0, -1.5, False, True) == "best"
    assert verdict("simple", 0.9, -0.9, False, True) == "best"
    assert verdict("general", 2.0, -1.5, False, False) == "blunder"
    ply = PlyReview(19, A("O@a1"), 1, 0.0, -2.0, (A("O@a1"), A("S@b1")), 0.0, "best", False,
                    True)
    said = move_text(app(), "general", ply, "Computer 2")
    assert "blunder" not in said and "Best:" not in said
    assert "The computer is unsure here" in said
    assert best_marks(ply) == ()
    back = GameReview.from_dict(GameReview("general", 2, (A("O@a1"),), (ply,)).to_dict(),
                                new_game(Rules.square(3)))
    assert back is not None and back.plies[0].unsure
    old = GameReview("general", 2, (A("O@a1"),), (ply,)).to_dict() | {"v": 1}
    assert GameReview.from_dict(old, new_game(Rules.square(3))) is None  # made again


def test_review_numbers_follow_the_language() -> None:
    """Decimal symbol and percent format are CLDR's (sos.app.text.cldr): a decimal comma in de, fr
    and tr, a point in en, ar and hi; "22,9 %" in de/fr, "%22,9" in tr."""
    review = hand_review()
    blunder = review.plies[3]  # before ≈2.0, after ≈-1.5, lost 3.5
    names = ("A", "B")
    cases = {
        "en": ("≈2.0", "3.5", "22.9%"),
        "de": ("≈2,0", "3,5", "22,9\u00a0%"),
        "fr": ("≈2,0", "3,5", "22,9\u00a0%"),
        "tr": ("≈2,0", "3,5", "%22,9"),
        "ar": ("≈2.0", "3.5", "22.9\u200e%\u200e"),
        "hi": ("≈2.0", "3.5", "22.9%"),
    }
    for lang, (estimate, lost, accuracy) in cases.items():
        text = move_text(app(lang), "general", blunder, "A")
        assert estimate in text and lost in text, (lang, text)
        other = "." if estimate[2] == "," else ","
        assert f"2{other}0" not in text and f"3{other}5" not in text, (lang, text)
        summary = summary_lines(app(lang), review, names)[0]
        assert accuracy in summary and "%" not in summary.replace(accuracy, ""), (lang, summary)


def test_summary_and_verdicts_of_a_known_review() -> None:
    review = hand_review()
    assert summary_lines(app(), review, ("Player 1", "Player 2")) == (
        "Player 1: accuracy 22.9%, inaccuracies 0, mistakes 0, blunders 1",
        "Player 2: accuracy 16.5%, inaccuracies 0, mistakes 1, blunders 0",
    )
    marks = verdict_marks(app(), review, 3)
    assert [(m.ply, m.verdict, m.symbol) for m in marks] == [
        (1, "best", "★"), (2, "mistake", "?"), (3, "best", "★")
    ]
    assert marks[1].label == "Go to the position after O@b1, mistake"


def test_panel_navigation_and_a_line_played_on() -> None:
    review = hand_review()
    seats = ("human", "medium")
    on = (*LINE, A("S@c3"))  # a move played after the review
    view = review_view(app(), "en", review, on, 2, seats)
    assert view.selected == 1
    assert view.move.startswith("Move 2, Computer 2: O@b1 — mistake.")
    assert view.marks == ((1, 1, "S/O"), (2, 2, "S"))
    assert view.message.startswith("Moves were played after this review")
    assert (view.prev_disabled, view.next_disabled) == (False, False)
    assert [p.ply for p in view.graph.points] == [1, 2, 3, 4]
    assert view.summary[1].startswith("Computer 2: accuracy 16.5%")
    start = review_view(app(), "en", review, LINE, 0, seats)
    assert start.selected == -1 and start.marks == () and start.message == ""
    assert start.move.startswith("Choose a move")
    assert start.prev_disabled and not start.next_disabled
    after = review_view(app(), "en", review, on, 5, seats)  # the move not reviewed
    assert after.selected == -1 and after.next_disabled
    # Another third move: the review covers the first two moves only.
    other = (LINE[0], LINE[1], A("S@c3"))
    assert matching(review, other) == 2
    assert step_target(review, other, 1, +1) == 2
    assert step_target(review, other, 2, +1) is None
    assert step_target(review, other, 3, -1) == 2
    assert step_target(review, other, 1, -1) is None
    assert step_target(review, (A("S@c3"),), 1, +1) is None  # nothing reviewed of this line
    assert player_names("en", ("easy",), 3) == ("Computer 1", "Player 2", "Player 3")


def test_a_reviewed_3x3_simple_game() -> None:
    state = random_game(Rules.square(3, "simple"), 4)
    review = review_game(state)
    view = review_view(app(), "en", review, state.history, len(state.history), ("human",) * 2)
    assert [(m.ply, m.verdict, m.symbol) for m in view.verdicts] == [
        (p.ply + 1, p.verdict, SYMBOLS[p.verdict]) for p in review.plies
    ]
    # Simple mode: every value is a proven win, draw or loss: the top, middle or bottom line.
    top, middle, bottom = PAD, HEIGHT / 2, HEIGHT - PAD
    for point, (value, exact) in zip(view.graph.points, graph_points(review), strict=True):
        assert exact and point.exact
        assert point.y == {1.0: top, 0.0: middle, -1.0: bottom}[value]
    assert all(s.exact for s in view.graph.segments)
    assert view.selected == len(state.history) - 1


def test_a_reviewed_4x4_game_kept_in_its_record() -> None:
    state = random_game(Rules.square(4), 3)
    review = review_game(state)
    assert any(p.verdict != "best" for p in review.plies)
    record = GameRecord("g1", state.rules, ("human", "human"), state.history)
    assert stored_review(record, state.history) is None  # none kept yet
    kept = with_review(record, review)
    assert kept.extra[EXTRA_KEY]["line"] == " ".join(str(a) for a in state.history)
    assert stored_review(kept, state.history) == review
    assert stored_review(kept, state.history[:-1]) is None  # another line: reviewed anew
    damaged = with_review(record, review)
    damaged.extra[EXTRA_KEY]["plies"] = []
    assert stored_review(damaged, state.history) is None
    # The graph: every point proven on 4x4, scaled to the largest lead (general mode).
    graph = graph_view(app(), review, len(review.plies), ("Player 1", "Player 2"))
    values = graph_points(review)
    scale = max(1.0, *(abs(v) for v, _ in values))
    assert [p.y for p in graph.points] == [
        round(HEIGHT / 2 - v / scale * (HEIGHT / 2 - PAD), 2) for v, _ in values
    ]
    assert min(p.y for p in graph.points) == PAD or max(p.y for p in graph.points) == HEIGHT - PAD
    bad = next(p for p in review.plies if p.verdict != "best")
    view = review_view(app(), "en", review, state.history, bad.ply + 1, ("human", "human"))
    assert view.marks and all(
        any((a.row, a.col) == (r, c) and a.letter in shown for a in bad.best_actions[:4])
        for r, c, shown in view.marks
    )


def test_three_players_see_their_own_outlook() -> None:
    state = random_game(Rules.square(3, "general", 3), 2)
    review = review_game(state)
    graph = graph_view(app(), review, len(review.plies), player_names("en", (), 3))
    assert graph.label.endswith("each point is the mover's own outlook.")
    # Each point is the mover's own value after the move (not turned to the first player's).
    scale = max(1.0, *(abs(p.value_after) for p in review.plies))
    assert [p.y for p in graph.points] == [
        round(HEIGHT / 2 - p.value_after / scale * (HEIGHT / 2 - PAD), 2) for p in review.plies
    ]
    assert any(p.player != 0 and p.value_after for p in review.plies)  # (the case that differs)


def test_start_review_runs_the_ai_review_with_its_progress() -> None:
    rules = Rules(1, 4, "simple")
    line = (A("S@a1"), A("O@b1"), A("S@c1"))
    run = start_review(rules, line)
    assert (run.progress.done, run.progress.total) == (0, 4)
    while True:
        try:
            next(run.steps)
        except StopIteration as stop:
            review = stop.value
            break
    assert review.line == line and run.progress.done == run.progress.total


def test_leaving_the_review_goes_back_to_where_the_game_stood() -> None:
    from sos.app.learn.review import exit_cursor
    from sos.notation import Action

    line = tuple(Action.parse(a) for a in ("S@a1", "O@b1", "S@c1"))
    assert exit_cursor((3, line), line, 1) == 3  # the review showed move 1: back to the end
    assert exit_cursor((3, line), line, 3) is None  # never moved away
    played = (*line[:1], Action.parse("O@c3"))  # a move played from move 1: the game is there
    assert exit_cursor((3, line), played, 2) is None


@pytest.mark.slow  # (a 5x5 review: several seconds of CPU)
def test_the_texts_before_after_and_lost_agree() -> None:
    """Before minus after, as shown, is the points lost shown, for every move of a 5x5 game
    reviewed with estimates (issue 43)."""
    import random
    import re

    from sos import Rules, new_game
    from sos.ai.review import review_game
    from sos.app.learn.review import move_text

    state = new_game(Rules.square(5))
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    review = review_game(state)
    number = r"(a win by|a loss by|about a draw,) ≈?([\d.]+)( ahead| behind)?|a draw"

    def value(found: re.Match[str]) -> float:
        if found.group(0) == "a draw":
            return 0.0
        sign = -1 if found.group(1) == "a loss by" or found.group(3) == " behind" else 1
        return sign * float(found.group(2))

    checked = 0
    for ply in review.plies:
        said = move_text(app(), "general", ply, "P")
        before, after = [value(m) for m in re.finditer(number, said.split("Before: ")[1])][:2]
        lost = re.search(r"Lost ([\d.]+) point", said)
        if lost is not None:
            checked += 1
            assert abs(before - after - float(lost.group(1))) < 1e-9, said
        else:
            assert before - after <= 0 or ply.loss == 0, said
    assert checked


def test_a_running_review_shows_the_moves_judged_so_far() -> None:
    """While the review runs, the panel shows what is known: after k positions are valued
    (the last ones: the review goes from the end), the moves between them have their verdicts
    and graph points, identical to the finished review's; the other moves wait (no verdict, no
    point; selected, they say so) and there is no summary until the end."""
    state = random_game(Rules.square(4), 3)
    line = state.history
    moves = len(line)
    seats = ("human", "medium")
    run = start_review(state.rules, line)
    partial: dict[int, GameReview] = {}
    while True:
        try:
            next(run.steps)
        except StopIteration as stop:
            final: GameReview = stop.value
            break
        partial.setdefault(run.progress.done, run.so_far())
    assert run.judged == moves and run.so_far() == final
    end = review_view(app(), "en", final, line, moves, seats)
    assert end.done and len(end.summary) == 2 and len(end.verdicts) == moves
    marks = {m.ply: m for m in end.verdicts}
    points = {p.ply: p for p in end.graph.points}
    for done in (2, moves // 2, moves):  # positions valued
        so_far = partial[done]
        judged = list(range(moves - done + 2, moves + 1))  # moves counted from 1
        assert [p.ply + 1 for p in so_far.plies] == judged
        for cursor in (1, moves):
            view = review_view(app(), "en", so_far, line, cursor, seats, done=False)
            assert not view.done and view.summary == ()
            assert view.verdicts == tuple(marks[ply] for ply in judged)
            assert [(p.ply, p.x, p.exact, p.verdict) for p in view.graph.points] == [
                (p.ply, p.x, p.exact, p.verdict) for p in (points[ply] for ply in judged)
            ]
            assert view.graph.width == end.graph.width == moves * 10
            assert len(view.graph.segments) == max(0, len(judged) - 1)
            assert view.message == ""
        last = review_view(app(), "en", so_far, line, moves, seats, done=False)
        assert (last.selected, last.move, last.marks) == (end.selected, end.move, end.marks)
        first = review_view(app(), "en", so_far, line, 1, seats, done=False)
        assert first.selected == 0 and first.marks == ()
        assert first.move == "This move is not judged yet: the review is still running."
    assert review_view(app(), "en", final, line, 1, seats).move.startswith("Move 1, Player 1")


def test_graph_of_a_review_with_a_move_still_waiting() -> None:
    """A move whose estimates disagree is judged last (searched again): the moves on both
    sides have their points, no segment crosses the gap."""
    review = hand_review()
    gap = GameReview(review.mode, review.players, review.line,
                     (review.plies[0], review.plies[2], review.plies[3]))
    graph = graph_view(app(), gap, 4, ("Player 1", "Player 2"))
    assert graph.width == 40
    assert [(p.ply, p.x) for p in graph.points] == [(1, 5.0), (3, 25.0), (4, 35.0)]
    assert [(s.x1, s.x2) for s in graph.segments] == [(25.0, 35.0)]
    assert [m.ply for m in verdict_marks(app(), gap, 4)] == [1, 3, 4]
    assert [m.ply for m in verdict_marks(app(), gap, 3)] == [1, 3]
