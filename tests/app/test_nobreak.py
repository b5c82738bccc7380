"""The units of a shown text kept on one line (sos/app/game/nobreak.py, issue 43): scores, board
sizes and the seats' names with their number, nothing else."""

from __future__ import annotations

from sos.app.game.nobreak import LONGEST, runs, seat_names, segments
from sos.app.game.view import player_name

NAMES = ("Player 1", "Computer 2", "Player 2")


def test_a_score_and_a_name_with_its_number_are_units() -> None:
    assert segments("Computer 2 wins, 21–0", NAMES) == [
        ("Computer 2", True),
        (" wins, ", False),
        ("21–0", True),
    ]
    assert segments("Draw, 9–4–4–2", NAMES) == [("Draw, ", False), ("9–4–4–2", True)]
    assert segments("Player 1 and Player 2 draw", NAMES) == [
        ("Player 1", True),
        (" and ", False),
        ("Player 2", True),
        (" draw", False),
    ]


def test_a_board_size_is_a_unit_in_any_language() -> None:
    """Issue 50: the Arabic settings' perfect-play note broke "4 × 4" across two lines."""
    from sos.app.share.params import perfect_note

    for lang in ("ar", "en", "fr", "hi"):
        note = perfect_note(lang, 5)
        assert ("4 × 4", True) in segments(note, seat_names(lang)), lang
        assert "".join(run for run, _ in segments(note)) == note
        assert ("4 × 4", "size") in runs(note, seat_names(lang))  # left to right on its own
    assert segments("6 × 6 · general", NAMES) == [("6 × 6", True), (" · general", False)]


def test_the_runs_join_to_the_text_and_plain_text_is_one_run() -> None:
    for content in ("", "Player 1 to move", "Viewing move 11 of 16", "Computer 2 wins, 3–0"):
        assert "".join(run for run, _ in segments(content, NAMES)) == content
    assert segments("Tap a square to start", NAMES) == [("Tap a square to start", False)]
    # numbers alone are not a score; "Player 12" is not "Player 1"
    assert segments("Viewing move 11 of 16", NAMES) == [("Viewing move 11 of 16", False)]
    assert segments("Player 12 to move", NAMES) == [("Player 12 to move", False)]


def test_a_long_name_is_never_a_unit() -> None:
    long = "W" * 96
    assert segments(f"{long} wins, 5–3", (long, *NAMES)) == [
        (f"{long} wins, ", False),
        ("5–3", True),
    ]
    assert all(
        len(player_name(lang, 3, kind)) <= LONGEST
        for lang in ("en", "de", "el", "fr", "pt", "tr", "hi", "ar", "es")
        for kind in ("human", "easy")
    )


def test_names_in_other_scripts() -> None:
    greek = player_name("el", 1, "easy")
    assert segments(f"Νίκη: {greek}, 34–16", (greek,)) == [
        ("Νίκη: ", False),
        (greek, True),
        (", ", False),
        ("34–16", True),
    ]


def test_the_seat_names_are_every_default_name() -> None:
    assert seat_names("en") == (
        "Player 1", "Computer 1", "Player 2", "Computer 2",
        "Player 3", "Computer 3", "Player 4", "Computer 4",
    )  # fmt: skip
    assert "Υπολογιστής 2" in seat_names("el")


def test_a_long_given_name_is_a_run_of_its_own() -> None:
    """A name given to a seat longer than a unit is a ``"name"`` run (the page cuts it to two
    lines), found before the scores and units inside it; shorter names stay plain text."""
    long = "Wolfgang Amadeus " * 5 + "Mozart 3–0"
    assert runs(f"{long} wins, 3–0", NAMES, (long, "Alice")) == [
        (long, "name"),
        (" wins, ", ""),
        ("3–0", "nb"),
    ]
    assert runs("Alice to move", NAMES, ("Alice", "")) == [("Alice to move", "")]
    assert runs("Player 1 to move", NAMES, ()) == [("Player 1", "nb"), (" to move", "")]
    w = "W" * 96
    content = f"{w} and Player 2 draw, 1–1"
    parts = runs(content, NAMES, (w, ""))
    assert "".join(run for run, _ in parts) == content
    assert parts == [(w, "name"), (" and ", ""), ("Player 2", "nb"), (" draw, ", ""), ("1–1", "nb")]
    assert runs("", NAMES, (w,)) == [("", "")]
