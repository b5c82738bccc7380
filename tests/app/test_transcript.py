"""Game records: text export/import, share codes and saved games."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sos import Action, GameState, Rules, new_game
from sos.app.saving.transcript import (
    RecordError,
    SavedGame,
    decode_moves,
    dump_save,
    encode_moves,
    format_transcript,
    load_save,
    parse_transcript,
    transcript_names,
    turns,
)
from sos.app.share.params import SEAT_KINDS


def _game(rules: Rules, seed: int, plies: int | None = None) -> GameState:
    rng = random.Random(seed)
    state = new_game(rules)
    while not state.is_terminal() and (plies is None or len(state.history) < plies):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_turns_group_extra_moves() -> None:
    state = new_game(Rules(3, 3))
    for text in ("S@a1", "S@c1", "O@b1", "S@a3", "O@b2"):
        state.apply(Action.parse(text))
    # seat 0: S@a1 | seat 1: S@c1 | seat 0: O@b1 (scores) S@a3 | seat 1: O@b2 (scores 1)
    assert [(t.number, t.player, [str(a) for _, a, _ in t.plies]) for t in turns(state)] == [
        (1, 0, ["S@a1"]),
        (2, 1, ["S@c1"]),
        (3, 0, ["O@b1", "S@a3"]),
        (4, 1, ["O@b2"]),
    ]
    assert turns(state)[2].plies[0][2] == 1
    text = format_transcript(state)
    assert text.splitlines()[0] == "SOS 3x3 general, 2 players"
    assert text.splitlines()[3] == "3. O@b1 S@a3"


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(3, 8),
    mode=st.sampled_from(["general", "simple"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
)
def test_record_and_share_code_round_trip(size: int, mode: str, players: int, seed: int) -> None:
    rules = Rules(size, size, mode, players)  # type: ignore[arg-type]
    state = _game(rules, seed)
    again = parse_transcript(format_transcript(state))
    assert again == state
    assert decode_moves(encode_moves(state.history), rules) == state


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("", None, "empty"),
        ("hello\n1. S@a1", 1, "header"),
        ("SOS 3x3 general, 2 players\n1. S@a1\n3. O@b1", 3, "expected turn 2"),
        ("SOS 3x3 general, 2 players\n1. S@a1\n2. S@a1", 3, "already written"),
        ("SOS 3x3 general, 2 players\n1. S@z9", 2, "off the 3x3 board"),
        ("SOS 3x3 general, 2 players\n1. X@a1", 2, "not an action"),
        ("SOS 3x3 general, 2 players\nS@a1", 2, "numbered turn"),
        ("SOS 2x2 general, 2 players", 1, "cannot be played"),
        ("SOS 3x3 simple, 2 players\n1. S@a1\n2. O@b1\n3. S@c1\n4. S@c2", 5, "already over"),
    ],
)
def test_import_errors_name_the_line(text: str, line: int | None, fragment: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_transcript(text)
    assert caught.value.line == line
    assert fragment in str(caught.value)
    # The page shows the reason in its language (German here), with the same details.
    german = caught.value.reason_in("de")
    assert german != caught.value.reason
    for value in caught.value.params.values():
        assert str(value) in german


def test_a_german_header_is_read_too() -> None:
    state = parse_transcript("SOS 4x4 einfach, 3 Spieler\n1. S@a1\n2. O@b1\n")
    assert state.rules == Rules(4, 4, "simple", 3) and len(state.history) == 2
    assert parse_transcript("SOS 5×5 Normal, 2 spieler").rules == Rules(5, 5, "general", 2)
    with pytest.raises(RecordError) as caught:
        parse_transcript("Hallo\n1. S@a1")
    assert "SOS 6x6 normal, 2 Spieler" in caught.value.reason_in("de")


def test_comments_and_blank_lines_are_ignored() -> None:
    state = parse_transcript(
        "# my game\n\nSOS 4x4 simple, 3 players\n1. S@a1  # opening\n\n2. O@b1\n"
    )
    assert state.rules == Rules(4, 4, "simple", 3) and len(state.history) == 2


@pytest.mark.parametrize("code", ["Sa1Sa1", "Sa1x", "Xa1", "Sz1", "Sa99", "Sa1 Ob1"])
def test_bad_share_codes(code: str) -> None:
    with pytest.raises(RecordError):
        decode_moves(code, Rules(3, 3))


def test_save_round_trip_with_cursor() -> None:
    state = _game(Rules(5, 5), seed=3, plies=10)
    saved = SavedGame(Rules(5, 5), ("human", "hard"), encode_moves(state.history), 7, {"a": "b"})
    loaded, replayed = load_save(dump_save(saved), SEAT_KINDS)
    assert loaded == saved
    assert replayed.history == state.history[:7]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "[]",
        '{"format": "other"}',
        '{"format": "sos-save", "version": 0}',
        '{"format": "sos-save", "version": 1}',
        '{"format":"sos-save","version":1,"rows":3,"cols":3,"mode":"general","players":2,'
        '"seats":["human","robot"],"moves":"","cursor":0}',
        '{"format":"sos-save","version":1,"rows":3,"cols":3,"mode":"general","players":2,'
        '"seats":["human","human"],"moves":"Sa1","cursor":2}',
        '{"format":"sos-save","version":1,"rows":3,"cols":3,"mode":"general","players":2,'
        '"seats":["human","human"],"moves":"Sa1Sa1","cursor":1}',
        '{"format":"sos-save","version":1,"rows":30,"cols":3,"mode":"general","players":2,'
        '"seats":["human","human"],"moves":"","cursor":0}',
    ],
)
def test_corrupt_saves_are_rejected(text: str) -> None:
    with pytest.raises(RecordError):
        load_save(text, SEAT_KINDS)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_record_or_a_record_error(text: str) -> None:
    with contextlib.suppress(RecordError):
        parse_transcript(text)
    with contextlib.suppress(RecordError):
        load_save(text, SEAT_KINDS)
    with contextlib.suppress(RecordError):
        decode_moves(text, Rules(4, 4))


def test_names_ride_in_a_comment_that_old_readers_skip() -> None:
    state = _game(Rules(4, 4), 1, plies=3)
    written = format_transcript(state, None, ("Ænne \"the #1\"", ""))
    assert written.splitlines()[1] == '# names: ["Ænne \\"the #1\\"", ""]'
    assert transcript_names(written, 2) == ('Ænne "the #1"', "")
    assert parse_transcript(written).history == state.history  # a comment to the reader
    assert "# names" not in format_transcript(state, None, ("", ""))  # no name: no line
    assert transcript_names(format_transcript(state), 2) == ()


@pytest.mark.parametrize(
    "line",
    ['# names: ["Anna"]', '# names: ["Anna", 3]', "# names: [oops", '# names: {"a": 1}'],
)
def test_a_names_line_that_does_not_fit_is_a_comment_and_said_unread(line: str) -> None:
    text = f"SOS 4x4 general, 2 players\n{line}\n1. S@a1\n"
    assert transcript_names(text, 2) is None  # the importer says the names were not read
    assert [str(a) for a in parse_transcript(text).history] == ["S@a1"]
