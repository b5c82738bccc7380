"""URL parameters: valid values are taken, bad ones reported and replaced by defaults."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sos.app.share.params import DEFAULT_SIZE, Settings, parse_params, seat_for, to_query
from sos.app.text.i18n import LANGUAGES
from sos.rules import APP_SIZES, MAX_APP_SIZE, MAX_PLAYERS, MIN_APP_SIZE, MIN_PLAYERS


def test_defaults() -> None:
    parsed = parse_params("")
    assert parsed.settings == Settings()
    assert parsed.texts() == []


def test_valid_values() -> None:
    parsed = parse_params(f"?size={MAX_APP_SIZE}&mode=simple&players=3&lang=de&embed=1")
    s = parsed.settings
    assert (s.size, s.mode, s.players, s.lang, s.embed) == (MAX_APP_SIZE, "simple", 3, "de", True)
    assert s.seats == ("human", "human", "human")
    assert parsed.texts() == []


def test_seats_set_the_number_of_players() -> None:
    s = parse_params("?seats=human,hard,easy").settings
    assert s.players == 3 and s.seats == ("human", "hard", "easy")


def test_seats_disagreeing_with_players_are_reported() -> None:
    parsed = parse_params("?players=2&seats=human,hard,easy")
    assert parsed.settings.players == 2 and parsed.settings.seats == ("human", "human")
    assert len(parsed.texts()) == 1 and "seats=" in parsed.texts()[0]


def test_bad_values_reported_in_the_page_language() -> None:
    parsed = parse_params("?size=2&mode=x&players=9&lang=ja&embed=maybe&seats=robot")
    assert parsed.settings == Settings()
    assert len(parsed.texts()) == 6
    too_big = MAX_APP_SIZE + 1
    german = parse_params(f"?size={too_big}&lang=de")
    assert german.settings.lang == "de"
    assert german.texts() == [
        f"size={too_big} ignoriert: die Spielfeldgröße muss eine ganze Zahl von {MIN_APP_SIZE} "
        f"bis {MAX_APP_SIZE} sein; es gilt {DEFAULT_SIZE}."
    ]
    arabic = parse_params("?lang=xx", "ar")
    assert arabic.texts()[0].startswith("تم تجاهل lang=xx: اللغة يجب أن تكون إحدى: en, de, ")


def test_start_now_or_at_the_first_tap() -> None:
    assert parse_params("?embed=1").settings.start_now is False
    assert parse_params("?embed=1&start=tap").settings.start_now is False
    eager = parse_params("?embed=1&start=now")
    assert eager.settings.start_now is True and eager.texts() == []
    assert "start=now" in to_query(eager.settings)
    assert "start=" not in to_query(parse_params("?start=now").settings)  # only in an embed
    bad = parse_params("?embed=1&start=later")
    assert bad.settings.start_now is False
    assert bad.texts() == ["Ignored start=later: start must be tap or now; using tap."]


def test_long_values_are_shortened_in_notices() -> None:
    parsed = parse_params("?mode=" + "x" * 500)
    assert len(parsed.texts()[0]) < 200


def test_control_characters_are_shown_as_a_replacement_mark_in_notices() -> None:
    """A NUL, a bidi override or a tab from the URL is not echoed as it is into the page."""
    text = parse_params("?size=%00%E2%80%AEab%09c").texts()[0]
    assert text.startswith("Ignored size=\ufffd\ufffdab c:")
    assert not any(ch in text for ch in "\x00\u202e\t")


def test_round_trip() -> None:
    s = Settings(size=9, mode="simple", players=3, seats=("human", "hard", "easy"), lang="de")
    assert parse_params(to_query(s)).settings == s


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_query_gives_valid_settings(query: str) -> None:
    parsed = parse_params(query)
    s = parsed.settings
    assert s.size in APP_SIZES and s.mode in ("general", "simple")
    assert MIN_PLAYERS <= s.players <= MAX_PLAYERS
    assert len(s.seats) == s.players
    assert all(isinstance(n, str) and n for n in parsed.texts())


def test_perfect_needs_a_small_board() -> None:
    assert parse_params("?size=4&seats=human,perfect").settings.seats == ("human", "perfect")
    parsed = parse_params("?size=5&seats=perfect,human")
    assert parsed.settings.seats == ("hard", "human")
    assert len(parsed.texts()) == 1 and "4 × 4" in parsed.texts()[0]


def test_size_and_player_limits_come_from_the_rules() -> None:
    assert DEFAULT_SIZE in APP_SIZES
    for size in (MIN_APP_SIZE, MAX_APP_SIZE):
        parsed = parse_params(f"?size={size}")
        assert parsed.settings.size == size and parsed.texts() == []
    for players in (MIN_PLAYERS, MAX_PLAYERS):
        parsed = parse_params(f"?players={players}")
        assert parsed.settings.players == players and parsed.texts() == []
    for lang in LANGUAGES:  # every language states the limits themselves
        for size in (MIN_APP_SIZE - 1, MAX_APP_SIZE + 1):
            parsed = parse_params(f"?size={size}&lang={lang}")
            assert parsed.settings.size == DEFAULT_SIZE and len(parsed.texts()) == 1
            reason = parsed.texts()[0].replace(f"size={size}", "")
            assert str(MIN_APP_SIZE) in reason and str(MAX_APP_SIZE) in reason, reason
        for players in (MIN_PLAYERS - 1, MAX_PLAYERS + 1):
            parsed = parse_params(f"?players={players}&lang={lang}")
            assert parsed.settings.players == Settings().players and len(parsed.texts()) == 1
            reason = parsed.texts()[0].replace(f"players={players}", "")
            assert str(MIN_PLAYERS) in reason and str(MAX_PLAYERS) in reason, reason


def test_digits_that_int_rejects_are_reported_not_raised() -> None:
    # Found by tests/app/test_fuzz.py: "²".isdigit() is True but int("²") raises.
    for value in ("\u00b2", "\u00b9\u00b2", "\uff16", "\u0663", "0006"):
        parsed = parse_params(f"?size={value}&players={value}")
        assert parsed.settings.size == 6 and parsed.settings.players == 2
        assert len(parsed.texts()) == 2


def test_a_seat_falls_back_to_what_the_board_offers() -> None:
    assert seat_for("perfect", 4) == "perfect"
    assert seat_for("perfect", 5) == "hard"
    assert seat_for("hard", MAX_APP_SIZE) == "hard" and seat_for("human", MIN_APP_SIZE) == "human"
    assert seat_for("god", 4) == "human"


def test_the_settings_say_why_perfect_is_not_offered() -> None:
    from sos.app.share.params import perfect_note, seat_kinds_for

    assert perfect_note("en", 4) == "" and "perfect" in seat_kinds_for(4)
    assert perfect_note("en", 5).startswith("Perfect play is offered on boards up to 4 × 4:")
    assert "4 × 4" in perfect_note("de", 12)
