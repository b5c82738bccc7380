"""The first screen's start choice (issue 32): when it is offered, which choice the game shown
stands for, and the settings each choice starts -- under CPython."""

from __future__ import annotations

import pytest

from sos.app.library import GameRecord, MemoryStore
from sos.app.params import Settings
from sos.app.remote import new_record
from sos.app.start import COMPUTER_LEVEL, chosen, offered, settings_for, start_for
from sos.notation import Action
from sos.rules import MAX_APP_SIZE, Rules
from tests.app.support import tab

RULES = Rules.square(6)


def test_offered_only_for_a_game_without_moves_outside_embeds_and_link_games() -> None:
    fresh = GameRecord("g1", RULES, ("human", "human"))
    assert offered(fresh, embed=False)
    assert not offered(fresh, embed=True)  # no chrome in a frame
    played = GameRecord("g1", RULES, ("human", "human"), line=(Action(0, 0, "S"),))
    assert not offered(played, embed=False)
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
    from sos.app.params import Settings
    from sos.app.start import level_of, with_level

    medium = Settings(5, seats=("human", "medium"))
    assert level_of(medium.seats) == "medium" and level_of(("human", "human")) is None
    hard = with_level(medium, "hard")
    assert hard is not None and hard.seats == ("human", "hard")
    assert with_level(medium, "medium") is None  # that level already
    assert with_level(medium, "perfect") is None  # not offered on 5x5
    assert with_level(Settings(5), "hard") is None  # no computer seat
    assert with_level(Settings(4, seats=("human", "easy")), "perfect") is not None
