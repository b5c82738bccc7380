"""One tab's decisions (sos.app.app.AppSession): the dialogs, and every move ever made staying
reachable through any sequence of operations -- under CPython (what a URL restores:
test_restore.py; saving, two tabs, deleting: test_tab.py; the list: test_games_list.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sos import Action
from sos.app.app import CUT_OFF, AppSession, SettingsApplied, SettingsForm
from sos.app.game.computer import SearchCutOff
from sos.app.saving.library import MemoryStore
from sos.app.saving.transcript import format_transcript
from sos.app.share.remote import MAX_NAME, RemoteSession
from sos.app.tab import STORAGE_FULL
from sos.app.text.i18n import text
from sos.rules import MAX_APP_SIZE, MIN_APP_SIZE
from tests.app.support import A1, B1, C1, D4, factory, tab, tab_sharing


def test_notices_are_translated_when_shown() -> None:
    """A notice queued in one language reads in another after a change of language."""
    app = tab(MemoryStore(), [("size", "99"), ("game", "Sa1Sa1")])
    english = app.notice_texts()
    assert len(english) == 2 and english[0].startswith("Ignored size=99")
    assert "move 2 (S@a1)" in english[1]
    app.prefs.lang = app.url_lang = "de"
    german = app.notice_texts()
    assert german[0].startswith("size=99 ignoriert") and "Zug 2 (S@a1)" in german[1]
    assert german != english and len(german) == 2


# ---------------------------------------------------------------------- the property


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("play"), st.integers(0, 8), st.sampled_from("SO")),
        st.tuples(st.just("undo")),
        st.tuples(st.just("redo")),
        st.tuples(st.just("go"), st.integers(0, 9)),
        st.tuples(st.just("line"), st.integers(0, 3)),
        st.tuples(st.just("new")),
        st.tuples(st.just("reload")),
        st.tuples(st.just("tab2"), st.integers(0, 8), st.sampled_from("SO")),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(OPS, st.sampled_from([("human", "human"), ("human", "easy")]))
def test_every_move_ever_made_stays_reachable(
    ops: list[tuple[object, ...]], seats: tuple[str, ...]
) -> None:
    """Any sequence of moves, undo, redo, go-to, line switches, new games, reloads and a second
    tab's moves keeps every sequence of moves ever played a prefix of some saved line."""
    store = MemoryStore()
    query = [("size", "3"), ("seats", ",".join(seats))]
    app = tab(store, query)
    played: set[tuple[Action, ...]] = set()

    def move(session: AppSession, cell: int, letter: str) -> None:
        game = session.game
        action = Action(cell // 3, cell % 3, letter)
        if game.state.is_legal(action):
            game.play(action)
            played.add(tuple(game.state.history))
            session.commit()

    for op in ops:
        game = app.game
        if op[0] == "play":
            move(app, int(op[1]), str(op[2]))  # type: ignore[arg-type]
        elif op[0] == "undo":
            game.undo() and app.commit()
        elif op[0] == "redo":
            game.redo() and app.commit()
        elif op[0] == "go":
            game.go_to(int(op[1])) and app.commit()  # type: ignore[arg-type]
        elif op[0] == "line":
            game.switch_line(int(op[1])) and app.commit()  # type: ignore[arg-type]
        elif op[0] == "new":
            app.new_game()
        elif op[0] == "reload":
            app = tab_sharing(store, app, f"g={app.game.record.id}")
        elif op[0] == "tab2":
            other = tab_sharing(store, app, f"g={app.game.record.id}")
            move(other, int(op[1]), str(op[2]))  # type: ignore[arg-type]
    kept = [line for r in app.library.entries() for line in r.lines()]
    for history in played:
        assert any(line[: len(history)] == history for line in kept), history


def test_a_game_left_at_an_earlier_position_reopens_without_the_computer_moving() -> None:
    """Browsing the move list, then reload / Back / the list: the computer to move at the
    shown position must not play over the later moves; the list shows the real game."""
    store = MemoryStore()
    app = tab(store, [("size", "4"), ("seats", "human,medium")])
    for action in (A1, C1, D4, Action(3, 0, "S")):  # human, computer, human, computer
        app.game.play(action)
    app.game.go_to(1)  # the computer is to move there
    app.commit()
    assert app.game.computer_to_move() is None
    assert app.entries()[0].detail == "4 moves · Player 1 vs Computer 2 · medium · Player 1 to move"
    again = tab_sharing(store, app, f"g={app.game.record.id}")
    assert again.game.cursor == 1 and again.game.paused
    assert again.game.computer_to_move() is None
    assert again.game.redo() and again.game.computer_to_move() is None  # a human's turn now


def test_other_lines_name_where_they_leave_the_line() -> None:
    app = tab(MemoryStore(), [("size", "4")])
    for action in (A1, C1, B1):
        app.game.play(action)
    app.game.go_to(1)
    app.game.play(D4)
    assert app.other_lines() == [(0, 1, 3, "S@c1")]


# ---------------------------------------------------------------------- the dialogs


def form(**changes: object) -> SettingsForm:
    values: dict[str, object] = {
        "size": "5",
        "mode": "simple",
        "players": "2",
        "seats": ("human", "hard"),
        "lang": "en",
        "theme": "auto",
    }
    values.update(changes)
    return SettingsForm(**values)  # type: ignore[arg-type]


def test_settings_start_a_new_game_and_keep_the_old_one() -> None:
    app = tab(MemoryStore(), [("size", "4")])
    app.game.play(A1)
    app.commit()
    old = app.game.record.id
    applied = app.apply_settings(form())
    assert applied == SettingsApplied(False, False, False)
    rules = app.game.rules
    assert (rules.rows, rules.mode, app.game.seats) == (5, "simple", ("human", "hard"))
    assert app.game.record.id != old and old in {e.id for e in app.entries()}
    assert app.notices == []


def test_settings_change_theme_and_language_at_once() -> None:
    store = MemoryStore()
    app = tab(store, [("size", "4"), ("lang", "en")])
    applied = app.apply_settings(form(theme="dark", lang="de"))
    assert applied.theme_changed and applied.language_changed
    assert app.lang == "de" and app.prefs.theme == "dark"
    again = tab(store)  # kept as preferences
    assert again.lang == "de" and again.prefs.theme == "dark"
    assert not app.apply_settings(form(theme="sepia", lang="de")).language_changed
    assert app.prefs.theme == "auto"  # an unknown theme is the default


def test_settings_with_bad_values_say_so_and_replace_the_notices_shown() -> None:
    app = tab(MemoryStore(), [("size", "99")])
    assert len(app.notices) == 1
    app.apply_settings(form(size="2", seats=("human", "perfect"), lang="de"))
    texts = app.notice_texts()
    assert len(texts) == 2 and texts[0].startswith("size=2 ignoriert")
    assert texts[1].startswith("seats=human,perfect ignoriert")  # not on the default 6 x 6
    assert app.game.rules.rows == 6  # the default size


def test_perfect_is_replaced_where_the_solver_does_not_reach() -> None:
    app = tab(MemoryStore())
    app.apply_settings(form(size="8", seats=("perfect", "human")))
    assert app.game.seats == ("hard", "human") and len(app.notices) == 1


def test_settings_with_a_friend_start_a_game_by_link() -> None:
    app = tab(MemoryStore())
    applied = app.apply_settings(
        form(size="3", seats=(), friend=True, friend_seat="1", friend_name=" Ben ")
    )
    game = app.game
    assert applied.remote and isinstance(game, RemoteSession)
    assert game.remote.seat == 1 and game.remote.names[1] == "Ben"
    app.apply_settings(form(size="3", players="2", friend=True, friend_seat="7"))
    assert app.game.remote.seat == 1  # type: ignore[attr-defined]  # (the last seat)


def test_import_record_shows_it_as_a_new_game() -> None:
    app = tab(MemoryStore(), [("size", "4"), ("seats", "human,easy")])
    app.game.play(D4)
    app.commit()
    old = app.game.record.id
    assert app.import_transcript("SOS 4x4 general, 2 players\n1. S@a1\n2. S@c1\n") is None
    assert app.game.line == [A1, C1] and app.game.record.origin == "record"
    assert app.game.seats == ("human", "easy")  # same player count: the seats are kept
    assert app.notice_texts() == [text("en", "record.loaded")]
    assert old in {e.id for e in app.entries()}
    app.notices.append(STORAGE_FULL)
    app.moved_on()  # the player moves on: the confirmation goes, a warning stays
    assert app.notices == [STORAGE_FULL]
    assert app.import_transcript("SOS 3x3 general, 3 players\n1. S@a1\n") is None
    assert app.game.seats == ("human",) * 3  # another player count: every seat human


def test_a_computer_move_made_because_the_budget_cut_its_search_off_is_said_once() -> None:
    """A computer's move after the page's budget cut its search off (a quick move, not its
    level's) is told, once, in the page's language, and the notice goes at the player's next
    move; a search that answered, or one the player stopped with Skip, says nothing."""
    app = tab(MemoryStore(), [("size", "4"), ("seats", "human,medium"), ("lang", "de")])
    app.computer_played()  # the search answered within its budget
    app.computer_played(SearchCutOff(budget=False))  # the player pressed Skip
    assert app.notices == []
    app.notices.append(STORAGE_FULL)
    app.computer_played(SearchCutOff(budget=True))
    app.computer_played(SearchCutOff())  # cut off again before the player moved: said once
    assert app.notices == [STORAGE_FULL, CUT_OFF]
    assert app.notice_texts()[1] == (
        "Dem Computer ist die Zeit ausgegangen; er hat einen schnelleren Zug gespielt."
    )
    assert text("en", CUT_OFF.key) == "The computer ran out of time and played a quicker move."
    app.moved_on()  # the player's next move: the notice goes, a warning stays
    assert app.notices == [STORAGE_FULL]
    app.computer_played(SearchCutOff())  # the next cut-off is said anew
    assert app.notices == [STORAGE_FULL, CUT_OFF]


def test_a_record_carries_the_players_names_out_and_back_in() -> None:
    app = tab(MemoryStore(), [("size", "4"), ("players", "3")])
    app.set_names(("Anna", "", "Bernd-Friedrich"))
    app.game.play(A1)
    written = format_transcript(app.game.state, app.game.outcome, app.names())
    assert written.splitlines()[1] == '# names: ["Anna", "", "Bernd-Friedrich"]'
    other = tab(MemoryStore(), [("size", "4")])
    assert other.import_transcript(written) is None
    assert other.names() == ("Anna", "", "Bernd-Friedrich")
    assert other.game.line == [A1]
    # names longer than a name may be are cut as everywhere else (MAX_NAME, with "…")
    long = "x " * 80
    record = f'SOS 4x4 general, 2 players\n# names: ["{long}", "Ben"]\n1. S@a1\n'
    assert other.import_transcript(record) is None
    first, second = other.names()
    assert len(first) <= MAX_NAME and first.endswith("…") and second == "Ben"


def test_a_damaged_names_line_loads_the_game_and_says_the_names_were_not_read() -> None:
    app = tab(MemoryStore(), [("size", "4")])
    app.set_names(("Anna", "Ben"))
    record = 'SOS 4x4 general, 2 players\n# names: ["Carla", \n1. S@a1\n'
    assert app.import_transcript(record) is None
    assert app.game.line == [A1] and app.names() == ("", "")  # the new game: no names
    assert app.notice_texts() == [text("en", "record.loaded_no_names")]
    app.moved_on()  # not a plain confirmation: it stays until closed
    assert app.notice_texts() == [text("en", "record.loaded_no_names")]
    assert app.import_transcript("SOS 4x4 general, 2 players\n1. S@a1\n") is None
    assert app.notice_texts() == [text("en", "record.loaded")]  # no names line: nothing to say


def test_import_record_refuses_what_the_app_cannot_show() -> None:
    app = tab(MemoryStore(), [("size", "4")])
    app.game.play(A1)
    shown = (app.game.record.id, list(app.game.line))
    entries = len(app.entries())
    refused = app.import_transcript("SOS 4x5 general, 2 players\n1. S@a1\n")
    assert refused is not None
    # the one text of a board the app does not play (as for a saved game: board_error)
    size_error = text("de", "record.reason.save_board", rows=4, cols=5, min=MIN_APP_SIZE,
                      max=MAX_APP_SIZE)
    assert refused.text("de") == text("de", "record.error", error=size_error)
    assert f"{MIN_APP_SIZE} × {MIN_APP_SIZE} bis {MAX_APP_SIZE} × {MAX_APP_SIZE}" in size_error
    assert refused.text("en").endswith("its board is 4 × 5, and this version plays "
                                       f"{MIN_APP_SIZE} × {MIN_APP_SIZE} to {MAX_APP_SIZE} × "
                                       f"{MAX_APP_SIZE}")
    bad = app.import_transcript("SOS 4x4 general, 2 players\n1. S@a1\n2. S@a1\n")
    assert bad is not None and "Turn 2 (line 3): S@a1: square a1" in bad.text("en")
    assert "Zug 2 (Zeile 3)" in bad.text("de")
    assert (app.game.record.id, list(app.game.line)) == shown
    assert len(app.entries()) == entries


def test_puzzles_keep_progress_unless_storage_is_refused() -> None:
    store = MemoryStore()
    app = tab(store, [("puzzle", "daily")])
    assert app.wanted_puzzle == "daily"
    assert app.puzzle_session(()).store is store
    clock, new_id = factory()
    refused = AppSession(None, clock, new_id, "en")
    refused.start([])
    assert refused.wanted_puzzle is None
    assert refused.puzzle_session(()).store is None


def test_settings_cancel_puts_the_language_and_theme_back() -> None:
    from sos.app.saving.library import MemoryStore
    from sos.app.saving.prefs import Prefs

    from .support import tab

    store = MemoryStore()
    app = tab(store, [("lang", "fr")])
    kept = app.prefs_shown()
    assert app.set_language("de") and app.set_theme("dark") and app.lang == "de"
    assert app.put_back(kept)
    assert (app.lang, app.prefs.theme, app.prefs.lang) == ("fr", "auto", None)
    assert Prefs.load(store.get("sos-prefs")).lang is None  # saved so
    assert not app.put_back(app.prefs_shown())  # nothing changed: nothing to redo


def test_the_even_estimate_says_what_is_even() -> None:
    from sos.app.text.i18n import text

    assert text("en", "hint.estimate2.even") == "Estimate (not proven): the scores end about even."


def test_an_error_in_a_record_names_the_turn_as_numbered_and_its_line() -> None:
    """The header (and a names line) are lines too: an error in the turn numbered 2 names
    turn 2 first, then its line (issue 50, item 13); a line that is no numbered turn, or a
    bad header, is named by its line alone."""
    app = tab(MemoryStore(), [("size", "4")])
    bad = app.import_transcript(
        'SOS 4x4 general, 2 players\n# names: ["Ann", "Bo"]\n1. S@a1\n2. X@z9\n'
    )
    assert bad is not None
    assert bad.text("en") == (
        "This game text could not be loaded: Turn 2 (line 4): 'X@z9' is not an action like 'S@b3'"
    )
    off = app.import_transcript("SOS 4x4 general, 2 players\n1. S@a1\n2. S@e9\n")
    assert off is not None and "Turn 2 (line 3): S@e9 is off the 4x4 board" in off.text("en")
    loose = app.import_transcript("SOS 4x4 general, 2 players\n1. S@a1\nS@b2\n")
    assert loose is not None and "Line 3: expected a numbered turn" in loose.text("en")
    header = app.import_transcript("SOS 4 by 4\n1. S@a1\n")
    assert header is not None and "Line 1: expected a header" in header.text("en")


def test_an_import_error_names_the_line_in_the_pages_language() -> None:
    """A pasted record that cannot be read is refused with its line and reason in the page's
    language; the game shown and the library stay as they were."""
    app = tab(MemoryStore(), [("size", "4"), ("lang", "de")])
    app.game.play(D4)
    app.commit()
    shown, entries = app.game.record.id, app.entries()
    refused = app.import_transcript("SOS 5x5 general, 2 players\n1. S@a1\n2. S@a1\n")
    assert refused is not None and refused.text(app.lang) == (
        "Dieser Partietext ließ sich nicht laden: Zug 2 (Zeile 3): S@a1: Feld a1 ist schon"
        " beschrieben"
    )
    assert refused.text("en").startswith("This game text could not be loaded: Turn 2 (line 3):")
    assert app.game.record.id == shown and app.game.line == [D4] and app.entries() == entries
