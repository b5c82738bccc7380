"""One saved game (sos.app.saving.gamerecord): its stored format and each damage reason, and the
rules of lines of play that saving relies on -- under CPython."""

from __future__ import annotations

import json

import pytest

from sos.app.game.session import GameSession
from sos.app.saving.gamerecord import dump_game, is_prefix, load_game, merge_lines
from sos.app.saving.transcript import RecordError
from tests.app.support import A1, A3, B1, C1, D4, record


def test_game_round_trip_and_damage() -> None:
    game = GameSession(record())
    for action in (A1, C1, B1):
        game.play(action)
    game.go_to(1)
    game.play(D4)
    saved = game.to_record()
    assert load_game(dump_game(saved)) == saved
    data = json.loads(dump_game(saved))
    for key, value, reason in [
        ("version", 1, "save_version"),
        ("line", "Sa1Sa1", "share_illegal"),
        ("cursor", 99, "save_cursor"),
        ("seats", ["human", "god"], "save_seats"),
        ("rows", 30, "save_damaged"),
        ("id", "../x", "save_damaged"),
    ]:
        broken = dict(data, **{key: value})
        with pytest.raises(RecordError) as caught:
            load_game(json.dumps(broken))
        assert caught.value.key == reason, key
    with pytest.raises(RecordError):
        load_game("{not json")


def test_merged_lines_keep_every_line_as_a_prefix() -> None:
    lines = [(A1,), (A1, C1), (A1, D4), (A1, C1, B1), (A3,), (A1, D4)]
    merged = merge_lines(lines)
    assert merged == ((A1, D4), (A1, C1, B1), (A3,))  # first-seen order, no prefix, no repeat
    assert all(any(is_prefix(line, kept) for kept in merged) for line in lines)
    assert is_prefix((), (A1,)) and is_prefix((A1,), (A1,)) and not is_prefix((A1, C1), (A1,))


#: A game as stored by the builds before the library was split (docs/saves.md's example, byte
#: for byte): the format is unchanged, so it loads as it did.
STORED_BEFORE = (
    '{"format":"sos-game","version":2,"id":"k3x9q0m2ab","rows":6,"cols":6,"mode":"general",'
    '"players":2,"seats":["human","hard"],"line":"Sa1Ob1Sc1","cursor":3,"variations":["Sa1Od4"],'
    '"created":1764650000000,"updated":1764650093000,"rev":7,"origin":"new",'
    '"extra":{"names":["Ann","Bo"]}}'
)


def test_a_game_stored_by_an_earlier_build_still_loads() -> None:
    game = load_game(STORED_BEFORE)
    assert (game.id, game.rules.rows, game.seats, game.cursor, game.rev) == (
        "k3x9q0m2ab", 6, ("human", "hard"), 3, 7,
    )
    assert game.line == (A1, B1, C1) and game.variations == ((A1, D4),)
    assert game.extra == {"names": ["Ann", "Bo"]} and game.origin == "new"
    assert load_game(dump_game(game)) == game
