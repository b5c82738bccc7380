"""The first screen's start choice (issue 32): when it is offered, which choice the game shown
stands for, and the settings each choice starts -- under CPython."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sos.app.saving.library import GameRecord, MemoryStore
from sos.app.share.params import Settings
from sos.app.share.remote import new_record
from sos.app.start import (
    COMPUTER_LEVEL,
    apply,
    chosen,
    offered,
    opening,
    settings_for,
    start_for,
    with_level,
)
from sos.notation import Action
from sos.rules import MAX_APP_SIZE, Rules
from tests.app.support import tab, tab_sharing

RULES = Rules.square(6)


def test_offered_only_before_the_first_reply_outside_embeds_and_link_games() -> None:
    fresh = GameRecord("g1", RULES, ("human", "human"))
    assert offered(fresh, embed=False)
    assert not offered(fresh, embed=True)  # no chrome in a frame
    first = GameRecord("g1", RULES, ("human", "human"), line=(Action(0, 0, "S"),), cursor=1)
    assert opening(first) and offered(first, embed=False)  # a tap before ready: still offered
    assert not offered(first, embed=True)
    two = (Action(0, 0, "S"), Action(1, 1, "O"))
    replied = GameRecord("g1", RULES, ("human", "human"), line=two, cursor=2)
    assert not opening(replied) and not offered(replied, embed=False)
    computer = GameRecord("g1", RULES, ("human", "easy"), line=(Action(0, 0, "S"),), cursor=1)
    assert not offered(computer, embed=False)  # the computer answers: no choice over its turn
    branched = replace(first, variations=((Action(2, 2, "S"),),))
    assert not offered(branched, embed=False)  # another line of play: a game under way
    undone = GameRecord("g1", RULES, ("human", "human"), line=(Action(0, 0, "S"),), cursor=0)
    assert not offered(undone, embed=False)  # moves kept for Redo: still a game under way
    assert not offered(new_record(RULES, 0, "Anna"), embed=False)


def test_chosen_reads_the_seats() -> None:
    assert chosen(("human", "human")) == "here"
    assert chosen(("human", "medium")) == "computer"
    assert chosen(("easy", "human", "human")) == "computer"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_computer_and_a_friend_here_keep_board_mode_and_players(players: int) -> None:
    shown = Settings(5, "simple", players, ("human",) * players, "de", False, "S@a1")
    computer = settings_for(shown, "computer")
    kept = (computer.size, computer.mode, computer.players, computer.lang)
    assert kept == (5, "simple", players, "de")
    assert computer.seats == ("human", *(COMPUTER_LEVEL,) * (players - 1))
    assert computer.game is None  # a new game: no moves carried over
    here = settings_for(computer, "here")
    assert here.seats == ("human",) * players
    with pytest.raises(ValueError, match="Settings"):
        settings_for(shown, "link")


def test_a_tap_on_the_choice_already_made_starts_nothing() -> None:
    hard = Settings(6, "general", 2, ("human", "hard"))
    assert start_for(hard, "computer") is None  # the level chosen in Settings is kept
    assert start_for(hard, "here") == settings_for(hard, "here")
    people = Settings(6, "general", 2, ("human", "human"))
    assert start_for(people, "here") is None
    assert start_for(people, "computer") == settings_for(people, "computer")
    assert start_for(people, "link") is None and start_for(people, "bogus") is None


def test_the_computer_on_a_big_board_gets_a_level_offered_there() -> None:
    shown = Settings(MAX_APP_SIZE, "general", 2, ("human", "human"))
    assert settings_for(shown, "computer").seats == ("human", COMPUTER_LEVEL)
    assert COMPUTER_LEVEL != "perfect"  # perfect is not offered on every board


def test_choosing_starts_a_new_game_and_keeps_the_empty_one_out_of_the_list() -> None:
    app = tab(MemoryStore())
    assert offered(app.game.to_record(), app.embed)
    first = app.game.record.id
    app.new_game(settings_for(app.settings(), "computer"))
    assert app.game.record.id != first
    assert app.game.seats == ("human", COMPUTER_LEVEL)
    assert chosen(tuple(app.game.seats)) == "computer"
    entries, total = app.games()
    assert total == 1 and entries[0].id == app.game.record.id  # the empty game was not kept


def test_the_level_beside_the_computer() -> None:
    from sos.app.share.params import Settings
    from sos.app.start import level_of

    medium = Settings(5, seats=("human", "medium"))
    assert level_of(medium.seats) == "medium" and level_of(("human", "human")) is None
    hard = with_level(medium, "hard")
    assert hard is not None and hard.seats == ("human", "hard")
    assert with_level(medium, "medium") is None  # that level already
    assert with_level(medium, "perfect") is None  # not offered on 5x5
    assert with_level(Settings(5), "hard") is None  # no computer seat
    assert with_level(Settings(4, seats=("human", "easy")), "perfect") is not None


def test_computer_seats_at_different_levels_are_mixed_until_one_level_is_chosen() -> None:
    from sos.app.share.params import Settings
    from sos.app.start import MIXED, level_of

    mixed = Settings(5, players=4, seats=("human", "easy", "medium", "hard"))
    assert level_of(mixed.seats) == MIXED  # not the first computer's level
    easy = with_level(mixed, "easy")  # the first computer's level is a change for the others
    assert easy is not None and easy.seats == ("human", "easy", "easy", "easy")
    assert level_of(easy.seats) == "easy"
    assert with_level(mixed, MIXED) is None  # shown, never chosen


def test_a_choice_after_the_first_move_keeps_it_and_changes_the_seats_of_the_game() -> None:
    """A square tapped before the engine was ready is the game's first move: choosing the
    computer then keeps it (same game, same id) and the computer is to answer."""
    store = MemoryStore()
    app = tab(store)
    app.game.play(Action(2, 3, "S"))
    app.commit()
    game_id, line = app.game.record.id, tuple(app.game.line)
    assert offered(app.game.to_record(), app.embed)
    wanted = start_for(app.settings(), "computer")
    assert wanted is not None
    assert apply(app, wanted) == "seats"
    assert app.game.record.id == game_id and tuple(app.game.line) == line
    assert app.game.seats == ("human", COMPUTER_LEVEL)
    assert app.game.computer_to_move() == 1
    app.commit()
    again = tab_sharing(store, app, f"g={game_id}")  # a reload: the move and the seats
    assert again.game.record.id == game_id and tuple(again.game.line) == line
    assert again.game.seats == ("human", COMPUTER_LEVEL)
    assert not offered(app.game.to_record(), app.embed)  # the computer's turn: no choice
    assert app.games()[1] == 1  # one game: the one in play, not a copy


def test_four_players_after_the_first_move_get_three_computers() -> None:
    app = tab(MemoryStore(), [("players", "4"), ("size", "6")])
    app.game.play(Action(0, 0, "O"))
    wanted = start_for(app.settings(), "computer")
    assert wanted is not None and apply(app, wanted) == "seats"
    assert app.game.seats == ("human", *(COMPUTER_LEVEL,) * 3)
    assert [str(a) for a in app.game.line] == ["O@a1"]


def test_the_choice_is_refused_once_the_game_is_under_way() -> None:
    app = tab(MemoryStore())
    app.game.play(Action(0, 0, "S"))
    app.game.play(Action(1, 1, "O"))
    wanted = settings_for(app.settings(), "computer")
    seats, line = app.game.seats, tuple(app.game.line)
    with pytest.raises(ValueError, match="first reply"):
        apply(app, wanted)
    assert app.game.seats == seats and tuple(app.game.line) == line  # nothing changed


def test_set_seats_checks_the_number_of_players_and_keeps_a_link_game() -> None:
    app = tab(MemoryStore())
    with pytest.raises(ValueError, match="3 seats for 2 players"):
        app.set_seats(("human", "human", "easy"))
    assert app.game.seats == ("human", "human")
    app.game.record = new_record(RULES, 0, "Anna")
    assert not offered(app.game.to_record(), app.embed)
    with pytest.raises(ValueError, match="link"):
        app.set_seats(("human", "easy"))


@pytest.mark.parametrize(
    "query",
    [
        [("size", "4"), ("seats", "easy,human")],  # the computer opens
        [("size", "4"), ("seats", "medium,human,human,human")],  # a computer opens, four players
    ],
)
def test_a_first_move_made_by_a_computer_is_never_rewritten_by_the_choice(
    query: list[tuple[str, str]],
) -> None:
    """Issue 50, item 2: once a computer has moved, the row is gone; "a friend here" would
    have turned that computer into "Player 1", credited with the computer's move."""
    app = tab(MemoryStore(), query)
    assert offered(app.game.to_record(), app.embed)  # nothing played yet: a choice is free
    app.game.play(Action(0, 0, "S"))  # the computer's opening move
    seats, line = app.game.seats, tuple(app.game.line)
    assert not opening(app.game.to_record())
    assert not offered(app.game.to_record(), app.embed)
    wanted = start_for(app.settings(), "here")
    assert wanted is not None
    with pytest.raises(ValueError, match="first reply"):
        apply(app, wanted)
    assert app.game.seats == seats and tuple(app.game.line) == line


@pytest.mark.parametrize(
    "seats", ["human,easy", "human,human,human,easy"]
)
def test_after_a_rematch_where_the_computer_opens_its_move_stays_the_computers(
    seats: str,
) -> None:
    app = tab(MemoryStore(), [("size", "4"), ("seats", seats)])
    app.rematch()  # seats rotated: the computer opens
    assert app.game.seats[0] == "easy"
    app.game.play(Action(1, 1, "O"))  # the computer's opening move
    assert not offered(app.game.to_record(), app.embed)


def test_a_choice_after_a_persons_first_move_keeps_that_person_and_changes_only_the_others(
) -> None:
    """The person who made the first move stays a person with it; only seats that have not
    moved change, and the page's address names the new seats (the URL's ``seats=``)."""
    app = tab(MemoryStore(), [("size", "4"), ("players", "3")])
    app.game.play(Action(0, 0, "S"))
    wanted = start_for(app.settings(), "computer")
    assert wanted is not None and apply(app, wanted) == "seats"
    assert app.game.seats == ("human", COMPUTER_LEVEL, COMPUTER_LEVEL)
    assert f"seats=human,{COMPUTER_LEVEL},{COMPUTER_LEVEL}" in app.location()
    forged = replace(wanted, seats=(COMPUTER_LEVEL, "human", "human"))
    app.set_seats(("human", "human", "human"))
    with pytest.raises(ValueError, match="first move keeps it"):
        apply(app, forged)  # (no choice makes the mover a computer)
    assert app.game.seats == ("human",) * 3
