"""Players by name and the rematch (issue 26): names kept in a game record, shown in the
status, result, score cards, move list and announcements; defaults; rematch rotates seats --
under CPython."""

from __future__ import annotations

from sos.app.game.view import announcement, move_list, result_text, status_text, view_model
from sos.app.saving.library import GameRecord, dump_game, load_game
from sos.app.share.players import (
    MAX_NAME,
    NAME_FIELD_MAX,
    names_of,
    opponents_text,
    rematch,
    rematch_notice,
    seat_label,
    shown_names,
    with_names,
)
from sos.app.share.remote import info, new_record
from sos.notation import Action
from sos.rules import Rules
from sos.state import GameState

RULES = Rules.square(3)


def finished_game() -> GameState:
    """Seat 0 wins a simple 3x3 game: S@a1 O@b1 S@c1 (the first SOS)."""
    state = GameState(Rules.square(3, "simple"))
    for text in ("S@a1", "O@b1", "S@c1"):
        state.apply(Action.parse(text))
    return state


def test_names_are_kept_cleaned_and_survive_a_save() -> None:
    record = GameRecord("g1", RULES, ("human", "hard"))
    named = with_names(record, ["  Alice\u0007  Smith ", "x" * 140, "extra"])
    assert names_of(named) == ("Alice Smith", "x" * 95 + "…")
    assert names_of(load_game(dump_game(named))) == names_of(named)
    assert not with_names(record, ["", " "]).extra  # no name: no key
    assert with_names(record, ["", " "]).is_empty()  # and still pruned as empty
    assert with_names(record, ["Bo", ""]).is_empty()  # names alone hold nothing to lose
    damaged = GameRecord("g2", RULES, ("human", "human"), extra={"names": [3, None]})
    assert names_of(damaged) == ("", "")


#: A name of 100 characters whose 96th falls inside a word (issue 50, item 12).
LONG_NAME = (
    "Anna-Lena Sophie Charlotte Friederike von Hohenzollern-Sigmaringen und Zu Guttenberg "
    "Maximilian-Alex"
)


def test_a_long_name_is_cut_at_its_last_whole_word_and_the_field_takes_it_whole() -> None:
    """A name field takes more than a name keeps, so a long pasted name reaches the app whole
    and is cut after its last whole word, not by the field at character 96 mid-word."""
    assert len(LONG_NAME) == 100 and LONG_NAME[:MAX_NAME].endswith("Maximilian-")
    assert NAME_FIELD_MAX >= len(LONG_NAME) > MAX_NAME
    record = with_names(GameRecord("g1", RULES, ("human", "human")), [LONG_NAME, ""])
    kept = names_of(record)[0]
    assert kept == LONG_NAME[: LONG_NAME.index(" Maximilian")] + "…"
    assert len(kept) <= MAX_NAME


def test_defaults_and_labels() -> None:
    assert shown_names("en", ("human", "hard")) == ("Player 1", "Computer 2")
    assert shown_names("en", ("human", "hard"), ("Alice", "")) == ("Alice", "Computer 2")
    assert seat_label("en", 1, "hard") == "Computer 2 · hard"
    assert seat_label("de", 1, "easy", "Robo") == "Robo · leicht"
    assert seat_label("en", 0, "human") == "Player 1"
    record = with_names(GameRecord("g", RULES, ("human", "medium")), ["Alice", ""])
    assert opponents_text("en", record) == "Alice vs Computer 2 · medium"


def test_names_everywhere_in_the_view() -> None:
    state = finished_game()
    names = ("Alice", "Bruno")
    assert result_text(state, "en", None, names) == "Alice wins with the first SOS"
    assert result_text(state, "en") == "Player 1 wins with the first SOS"
    model = view_model(state, "en", ("human", "human"), names=names)
    assert [p.name for p in model.players] == ["Alice", "Bruno"]
    assert model.players[1].label.startswith("Bruno: 0 points")
    assert model.status == model.result == "Alice wins with the first SOS"
    assert "Alice scored 1" in announcement(state, "en", None, names)
    turns = move_list(state.rules, state.history, 3, "en", None, names)
    assert [t.title for t in turns] == ["1. Alice", "2. Bruno", "3. Alice"]
    assert [(t.first, t.last) for t in turns] == [(1, 1), (2, 2), (3, 3)]
    fresh = GameState(RULES)
    assert status_text(fresh, "en", ("human", "hard"), names=("", "HAL")) == "Player 1 to move"
    fresh.apply(Action.parse("S@b2"))
    assert status_text(fresh, "en", ("human", "hard"), True, ("", "HAL")) == "HAL is thinking…"
    assert status_text(fresh, "de", ("human", "human"), names=("Anna", "Jörg")).startswith("Jörg")


def test_rematch_rotates_seats_and_names() -> None:
    record = with_names(
        GameRecord("g1", Rules.square(5, "simple", 3), ("human", "hard", "easy"),
                   (Action(0, 0, "S"),), 1),
        ["Alice", "", "Eve"],
    )
    again = rematch(record)
    assert again.id == "" and again.line == () and again.rules == record.rules
    assert again.seats == ("easy", "human", "hard")
    assert names_of(again) == ("Eve", "Alice", "")
    assert rematch(rematch(rematch(record))).seats == record.seats


def test_the_rematch_tells_one_person_their_new_seat() -> None:
    record = GameRecord("g1", Rules.square(3, "simple", 2), ("human", "easy"))
    notice = rematch_notice(rematch(record))
    assert notice is not None
    assert notice.text("en") == (
        "Rematch: you are now Player 2, in red (struck through); Computer 1 moves first."
    )
    named = rematch_notice(rematch(with_names(record, ["Alice", "Deep Blue"])))
    assert named is not None and named.text("en").startswith("Rematch: you are now Alice, in red")
    assert named.text("en").endswith("; Deep Blue moves first.")
    # several people (or none) on one device: nothing to tell
    assert rematch_notice(GameRecord("g", record.rules, ("human", "human"))) is None
    assert rematch_notice(GameRecord("g", record.rules, ("easy", "hard"))) is None


def test_one_person_who_beats_the_computer_is_told_you_win() -> None:
    state = finished_game()
    assert result_text(state, "en", ("human", "easy")) == "You win with the first SOS"
    assert result_text(state, "de", ("human", "easy")) == "Du gewinnst mit dem ersten SOS"
    assert result_text(state, "en", ("easy", "human")) == "Computer 1 wins with the first SOS"
    assert result_text(state, "en", ("human", "human")) == "Player 1 wins with the first SOS"


def test_rematch_of_a_game_by_link_moves_this_device_on() -> None:
    record = new_record(RULES, 0, "Alice")
    again = rematch(record)
    assert again.origin == record.origin
    assert info(again).seat == 1 and info(again).names == ("", "Alice")
    assert not again.is_empty()  # a game by link keeps its seat: not pruned


def test_a_tab_names_seats_rematches_and_lists_who_played() -> None:
    from sos.app.saving.library import MemoryStore

    from .support import A1, B1, C1, tab

    store = MemoryStore()
    app = tab(store, [("size", "3"), ("mode", "simple"), ("seats", "human,hard")])
    app.set_names(["Alice", ""])
    for action in (A1, B1, C1):
        app.game.play(action)
    app.commit()
    assert app.names() == ("Alice", "")
    (entry,) = app.entries()
    assert entry.detail == "3 moves · Alice vs Computer 2 · hard · Alice wins with the first SOS"
    first = app.game.record.id
    app.rematch()
    assert app.game.record.id != first and app.game.seats == ("hard", "human")
    assert app.names() == ("", "Alice") and app.game.line == []
    assert {e.id for e in app.entries()} >= {first, app.game.record.id}


def test_showing_a_game_again_does_not_change_its_time_or_place() -> None:
    from sos.app.saving.library import MemoryStore

    from .support import A1, C1, tab

    store = MemoryStore()
    app = tab(store, [("size", "4")])
    app.game.play(A1)
    app.commit()
    older = app.game.record.id
    app.new_game()
    app.game.play(C1)
    app.commit()
    before = {e.id: e.updated for e in app.entries()}
    assert app.open(older)
    assert app.commit() == "saved"  # what the page does after Back: nothing new is written
    after = {e.id: e.updated for e in app.entries()}
    assert after == before
    assert [e.id for e in app.entries()][1] == older  # not moved up the list
