"""Your record against the computer (issue 26): which games count, wins/draws/losses per level
and board size from the library, the reset, and the Statistics view model -- under CPython."""

from __future__ import annotations

from sos.app.game.counted import counted_result
from sos.app.game.view import seat_choice
from sos.app.learn.stats import (
    STATS_KEY,
    StatsBook,
    dump_since,
    read_since,
    stats_view,
    streaks,
    tally,
)
from sos.app.saving.library import GameRecord, Library, MemoryStore
from sos.notation import Action
from sos.rules import Rules
from sos.state import GameState

SIMPLE3 = Rules.square(3, "simple")
# seat 0 makes the first SOS (S@a1 O@b1 S@c1), or nobody does (a full board without SOS)
WIN_FOR_0 = tuple(Action.parse(t) for t in ("S@a1", "O@b1", "S@c1"))


def draw_line() -> tuple[Action, ...]:
    state = GameState(SIMPLE3)
    for text in ("O@a1", "O@b1", "O@c1", "O@a2", "O@b2", "O@c2", "O@a3", "O@b3", "O@c3"):
        state.apply(Action.parse(text))
    assert state.outcome() is not None and state.outcome().winner is None  # type: ignore[union-attr]
    return state.history


def game(seats: tuple[str, ...], line: tuple[Action, ...], created: float = 10.0,
         rules: Rules = SIMPLE3, origin: str = "new", cursor: int | None = None) -> GameRecord:
    return GameRecord("", rules, seats, line, len(line) if cursor is None else cursor,
                      created=created, origin=origin)


def test_which_games_count() -> None:
    assert counted_result(game(("human", "hard"), WIN_FOR_0)) == ("hard", 3, "win")
    assert counted_result(game(("hard", "human"), WIN_FOR_0)) == ("hard", 3, "loss")
    assert counted_result(game(("human", "easy"), draw_line())) == ("easy", 3, "draw")
    three = Rules.square(3, "simple", 3)
    assert counted_result(game(("easy", "human", "perfect"), WIN_FOR_0, rules=three)) == (
        "perfect", 3, "loss")
    assert counted_result(game(("human", "human"), WIN_FOR_0)) is None  # no computer
    assert counted_result(game(("hard", "hard"), WIN_FOR_0)) is None  # no person
    assert counted_result(game(("human", "hard"), WIN_FOR_0[:2])) is None  # not finished
    # browsed back (undo, review): a line that ended counts with its end, not the position shown
    assert counted_result(game(("human", "hard"), WIN_FOR_0, cursor=2)) == ("hard", 3, "win")
    assert counted_result(game(("human", "hard"), WIN_FOR_0, origin="remote")) is None


def test_tally_from_the_library_and_the_reset() -> None:
    store = MemoryStore()
    clock = iter(range(100, 10**6, 100))
    library = Library(store, lambda: float(next(clock)), iter(f"id{n}" for n in range(99)).__next__)
    library.create(game(("human", "hard"), WIN_FOR_0, created=0))
    library.create(game(("hard", "human"), WIN_FOR_0, created=0))
    library.create(game(("human", "hard"), draw_line(), created=0))
    library.create(game(("human", "easy"), WIN_FOR_0, created=0))
    library.create(game(("human", "hard"), WIN_FOR_0, created=0, rules=Rules.square(4, "simple")))
    rows = tally(library.entries())
    assert [(r.level, r.size, r.win, r.draw, r.loss) for r in rows] == [
        ("easy", 3, 1, 0, 0), ("hard", 3, 1, 1, 1), ("hard", 4, 1, 0, 0)]
    assert rows[1].score == 0.5 and rows[1].games == 3
    since = read_since(dump_since(500.0))  # created at 100, 200 ... 500: the last one stays
    assert since == 500.0
    assert [(r.level, r.size) for r in tally(library.entries(), since)] == [("hard", 4)]
    for raw in (None, "{", "[]", '{"v": 2, "since": 5}', '{"v": 1, "since": true}'):
        assert read_since(raw) == 0.0


def test_the_view_model_and_its_chart() -> None:
    rows = tally([game(("human", "hard"), WIN_FOR_0), game(("hard", "human"), WIN_FOR_0),
                  game(("human", "medium"), draw_line())])
    view = stats_view("en", rows, width=170)
    assert view.rows == (("Medium", "3 × 3 · Simple", "0", "1", "0", "50%"),
                         ("Hard", "3 × 3 · Simple", "1", "0", "1", "50%"))
    assert view.total == "3 games counted"
    medium, hard = view.bars
    assert medium.segments == (("win", 70.0, 0.0), ("draw", 70.0, 100.0), ("loss", 170.0, 0.0))
    assert hard.segments == (("win", 70.0, 50.0), ("draw", 120.0, 0.0), ("loss", 120.0, 50.0))
    assert hard.title == "Hard: 1 won, 0 drawn, 1 lost" and hard.y > medium.y
    german = stats_view("de", rows)
    assert german.rows[1][0] == "Schwer" and german.heading != view.heading
    # the legend names the segments' colours in the bars' order, in the page's language
    assert view.legend == (("win", "Won"), ("draw", "Drawn"), ("loss", "Lost"))
    assert [o for o, _label in german.legend] == [o for o, _x, _w in hard.segments]
    assert german.legend[0][1] == german.columns[2] != "Won"


def test_the_record_book_reads_the_library_resets_and_shows_the_rating() -> None:
    from sos.app.learn.rating import RATING_KEY, RatingBook
    from sos.app.learn.stats import StatsBook

    store = MemoryStore()
    now = [1000.0]
    library = Library(store, lambda: now[0], iter(f"g{n}" for n in range(99)).__next__)
    book = StatsBook(library, lambda: now[0])
    library.create(game(("human", "hard"), WIN_FOR_0, created=0))
    assert [(r.level, r.win) for r in book.rows()] == [("hard", 1)]
    assert book.view("en").total == "1 game counted"
    assert book.rating("en").text == "No puzzle rated yet."
    now[0] = 2000.0
    assert book.reset() and book.rows() == []
    assert len(library.entries()) == 1  # the game itself is kept
    now[0] = 3000.0
    library.create(game(("human", "easy"), draw_line(), created=0))  # created at 3000
    assert [(r.level, r.draw) for r in book.rows()] == [("easy", 1)]
    rating = RatingBook()
    rating.record("p", 3, True, 5.0)
    store.set(RATING_KEY, rating.dump())
    shown = book.rating("en")
    assert shown.text.startswith("Puzzle rating: 1600?") and shown.chart.points
    # the line starts at the starting rating, 1500, then rises to the rating after the puzzle
    points = [tuple(map(float, p.split(","))) for p in shown.chart.points.split()]
    assert len(points) == 2 and points[0][1] > points[1][1]  # SVG y grows downwards
    assert shown.chart.low <= 1500 < 1600 <= shown.chart.high
    full = StatsBook(Library(MemoryStore(quota=10), lambda: 0.0, lambda: "x"), lambda: 1.0)
    assert not full.reset()


def test_the_reset_is_offered_with_a_record_and_can_be_taken_back() -> None:
    from sos.app.learn.stats import STATS_KEY, StatsBook

    store = MemoryStore()
    now = [1000.0]
    library = Library(store, lambda: now[0], iter(f"g{n}" for n in range(99)).__next__)
    book = StatsBook(library, lambda: now[0])
    assert not book.view("en").can_reset and not book.undo_reset()  # nothing recorded
    library.create(game(("human", "hard"), WIN_FOR_0, created=0))
    assert book.view("en").can_reset
    now[0] = 2000.0
    assert book.reset() and book.rows() == [] and not book.view("en").can_reset
    assert book.undo_reset() and [(r.level, r.win) for r in book.rows()] == [("hard", 1)]
    assert store.get(STATS_KEY) is None  # as before the first reset
    assert not book.undo_reset()  # once
    assert book.reset()
    now[0] = 3000.0
    assert book.reset()  # a second reset is undone to the first one
    assert book.undo_reset() and store.get(STATS_KEY) is not None and book.rows() == []


GENERAL3 = Rules.square(3)


def general_win() -> tuple[Action, ...]:
    """A general 3x3 game that seat 0 wins (a full board, one SOS for seat 0)."""
    state = GameState(GENERAL3)
    for text in ("S@a1", "O@b1", "S@c1", "O@a2", "O@b2", "O@c2", "O@a3", "O@b3", "O@c3"):
        state.apply(Action.parse(text))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0
    return state.history


def test_general_and_simple_have_rows_of_their_own_and_levels_read_as_elsewhere() -> None:
    """Issue 50, item 14: a general and a simple game on one board and level were one row;
    the levels read "easy" where Settings and the level menu say "Easy"."""
    rows = tally([game(("human", "easy"), general_win(), rules=GENERAL3),
                  game(("human", "easy"), WIN_FOR_0),
                  game(("easy", "human"), WIN_FOR_0)])
    assert [(r.level, r.size, r.mode, r.win, r.loss) for r in rows] == [
        ("easy", 3, "general", 1, 0), ("easy", 3, "simple", 1, 1)]
    for lang in ("en", "de", "tr", "ar"):
        view = stats_view(lang, rows)
        assert view.rows[0][0] == seat_choice(lang, "easy")  # as Settings' menu writes it
        assert view.bars[0].label == seat_choice(lang, "easy")
    view = stats_view("en", rows)
    assert [row[:2] for row in view.rows] == [("Easy", "3 × 3 · General"),
                                              ("Easy", "3 × 3 · Simple")]
    assert stats_view("de", rows).rows[1][1] == "3 × 3 · Einfach"


def test_each_mode_has_its_winning_streaks() -> None:
    """Item 22: per mode, the current winning streak (wins since the last game that was not
    one) and the best, over the games in the order they were started; a draw ends a streak."""
    results = {"w": WIN_FOR_0, "l": WIN_FOR_0, "d": draw_line()}
    order = "wwdwwwlww"
    records = [
        game(("human", "hard") if r != "l" else ("hard", "human"), results[r], created=10.0 * i)
        for i, r in enumerate(order)
    ]
    records.reverse()  # (the library's order does not matter: the games' start does)
    records.append(game(("human", "easy"), general_win(), created=5.0, rules=GENERAL3))
    found = streaks(records)
    assert [(s.mode, s.current, s.best, s.win, s.draw, s.loss) for s in found] == [
        ("general", 1, 1, 1, 0, 0), ("simple", 2, 3, 7, 1, 1)]
    assert [(s.mode, s.current, s.best) for s in streaks(records, since=65.0)] == [
        ("simple", 2, 2)]  # after a reset: only the games started since
    view = stats_view("en", tally(records), by_mode=found)
    assert view.modes == (
        "General: 1 won, 0 drawn, 0 lost · winning streak 1, best 1",
        "Simple: 7 won, 1 drawn, 1 lost · winning streak 2, best 3",
    )
    assert stats_view("en", []).modes == ()


def test_undo_reset_is_offered_after_statistics_is_closed_and_opened_again() -> None:
    """Item 3: the undo lived in the open dialog only. It is kept with the reset, so a
    book made anew (Statistics opened again, or the page reloaded) still offers it, until it
    is used or another reset replaces it."""
    store = MemoryStore()
    now = [1000.0]
    library = Library(store, lambda: now[0], iter(f"g{n}" for n in range(99)).__next__)
    library.create(game(("human", "hard"), WIN_FOR_0, created=0))
    book = StatsBook(library, lambda: now[0])
    assert not book.can_undo()
    now[0] = 2000.0
    assert book.reset() and book.rows() == []
    again = StatsBook(library, lambda: now[0])  # opened again: a new reader of the store
    assert again.can_undo() and again.rows() == []
    assert again.undo_reset() and [(r.level, r.win) for r in again.rows()] == [("hard", 1)]
    assert store.get(STATS_KEY) is None and not again.can_undo()  # as before: once
    assert again.reset()
    now[0] = 3000.0
    assert again.reset()  # replaces the first: its undo goes back to the first reset
    assert StatsBook(library, lambda: now[0]).undo_reset()
    assert read_since(store.get(STATS_KEY)) == 2000.0 and not again.can_undo()
    assert read_since(dump_since(5.0, 0.0)) == 5.0  # a reader of version 1 reads it as ever
