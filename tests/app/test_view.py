"""The view model and the text catalogs."""

from __future__ import annotations

import re
import string

from sos import Action, GameState, Rules, new_game
from sos.app.game.session import GameSession
from sos.app.game.view import session_view, view_model
from sos.app.saving.library import GameRecord
from sos.app.text.i18n import EN, LANGUAGES, pick_language, text


def test_pick_language() -> None:
    assert pick_language(["de-AT", "en"]) == "de"
    assert pick_language(["ja", "en-GB"]) == "en"
    assert pick_language(["ja"]) == "en"
    assert pick_language(["xx-YY", "de", "en"]) == "de"


def test_view_of_a_scoring_move() -> None:
    state = GameState.from_text("S.S/.../S.S")
    state.apply(Action(1, 1, "O"))
    vm = view_model(state)
    assert vm.status == "Player 1 scored 2 and moves again"
    assert [(line.key, line.player) for line in vm.lines] == [("0,0,2,2", 0), ("0,2,2,0", 0)]
    assert vm.cells[1][1].last and vm.cells[1][1].letter == "O"
    assert vm.cells[1][1].label == "b2, O, last move"
    assert vm.cells[0][1].label == "b1, empty"
    assert [p.score for p in vm.players] == [2, 0]
    assert vm.players[0].current and not vm.game_over


def test_view_of_results() -> None:
    state = GameState.from_text("OOO/OOO/SO.", to_move=1, scores=[3, 0])
    state.apply(Action(2, 2, "S"))
    vm = view_model(state)
    assert vm.game_over and vm.result == "Player 1 wins, 3–1" and vm.players[0].winner
    # The winner's score comes first, then the others from highest to lowest.
    late = GameState.from_text("OOO/OOO/SO.", to_move=0, scores=[2, 11])
    late.apply(Action(2, 2, "O"))
    assert view_model(late, "en", ("human", "hard")).result == "Computer 2 wins, 11–2"
    four = GameState.from_text("OOO/OOO/SO.", players=4, to_move=0, scores=[2, 9, 4, 0])
    four.apply(Action(2, 2, "O"))
    assert view_model(four, "de").result == "Spieler 2 gewinnt, 9–4–2–0"
    draw = GameState.from_text("OOO/OOO/OO.", players=3, scores=[2, 2, 1])
    draw.apply(Action(2, 2, "O"))
    assert view_model(draw).result == "Draw between Player 1 and Player 2, 2 each"
    assert view_model(draw, "de").result == (
        "Unentschieden zwischen Spieler 1 und Spieler 2, je 2 Punkte"
    )
    simple = new_game(Rules(3, 3, "simple"))
    for a in ("S@a1", "S@c1", "O@b1"):
        simple.apply(Action.parse(a))
    assert view_model(simple).result == "Player 1 wins with the first SOS"


def test_no_markup_in_catalogs() -> None:
    for lang in LANGUAGES:
        for key, english in EN.items():
            names = {f for _, f, _, _ in string.Formatter().parse(english) if f}
            assert not re.search(r"<[a-z/]", text(lang, key, **dict.fromkeys(names, 1))), key


def test_hint_texts() -> None:
    from sos.app.game.view import hint_text

    state = GameState.from_text("S.S/.../...", scores=[0, 2])
    action = Action(0, 1, "O")
    assert hint_text(state, "en", action, 3, exact=True) == (
        "Hint: write O on b1. Perfect play: you win by 1."
    )
    assert hint_text(state, "en", action, 2, exact=True).endswith("Perfect play: draw.")
    assert hint_text(state, "de", action, 1, exact=True).endswith("verlierst du mit 1 Punkt.")
    # Two players: an estimate says so, and gives the predicted final difference (2 behind
    # now, about 1.26 to gain: about 0.7 behind), never "more than the others".
    assert hint_text(state, "en", action, 1.26, exact=False).endswith(
        "Estimate (not proven): you finish about 0.7 behind."
    )
    assert "3,3" in hint_text(state, "de", action, -1.26, exact=False)
    assert "others" not in hint_text(state, "en", action, 5, exact=False)
    # Only the result proven: the words name the result and no margin.
    proven = hint_text(state, "en", action, 3, exact=False, result=1)
    assert proven.endswith("Proven: you can win, whatever the opponent plays.")
    assert "Bewiesen" in hint_text(state, "de", action, -3, exact=False, result=-1)
    three = GameState.from_text("S.S/.../...", players=3)
    assert hint_text(three, "en", action, 1.26, exact=False).endswith(
        "you gain about 1.3 more than the others from here."
    )
    simple = GameState.from_text("S.S/.../...", mode="simple")
    assert hint_text(simple, "en", action, 1, exact=True).endswith("Perfect play: you win.")


def test_move_list_and_announcements() -> None:
    from sos.app.game.view import announcement, move_list

    rules = Rules(3, 3)
    line = [Action.parse(t) for t in ("S@a1", "S@c1", "O@b1", "S@a3", "O@b2")]
    turns = move_list(rules, line, cursor=4, seats=("human", "hard"))
    # Moves are numbered, not turns: the scoring O@b1 (move 3) and S@a3 share turn 3.
    assert [t.title for t in turns] == [
        "1. Player 1",
        "2. Computer 2",
        "3–4. Player 1",
        "5. Computer 2",
    ]
    assert [(t.first, t.last) for t in turns] == [(1, 1), (2, 2), (3, 4), (5, 5)]
    assert [p.index + 1 for p in turns[2].plies] == [3, 4]
    assert [(p.text, p.points, p.current, p.future) for p in turns[2].plies] == [
        ("O@b1", 1, False, False),
        ("S@a3", 0, True, False),
    ]
    assert turns[3].plies[0].future and turns[3].plies[0].points == 1
    state = new_game(rules)
    assert announcement(state) == ""
    state.apply(line[0])
    assert announcement(state) == "Player 1 wrote S on a1. Player 2 to move."
    state.apply(line[1])
    state.apply(line[2])
    assert announcement(state, "en", ("human", "easy")) == (
        "Player 1 wrote O on b1. Player 1 scored 1. Player 1 moves again."
    )


def test_move_list_labels_are_in_the_language_asked_and_differ_by_language() -> None:
    """Issue 50: the ply buttons' accessible names stayed English after a switch to German,
    as the list was redrawn only where its view changed and the names were not in the view.
    A computer's turn ("Computer 2") has the same title in both, so only the labels differ."""
    from sos.app.game.view import move_list

    rules = Rules(3, 3)
    line = [Action.parse(t) for t in ("S@a1", "S@c1")]
    seats = ("human", "hard")
    english = move_list(rules, line, 2, "en", seats)
    german = move_list(rules, line, 2, "de", seats)
    assert english[1].plies[0].label == "Go to the position after S@c1"
    assert german[1].plies[0].label == text("de", "moves.ply.label", action="S@c1")
    assert german[1].plies[0].label != english[1].plies[0].label
    assert german[1] != english[1]  # so the page redraws that turn on a language change


def test_move_numbers_agree_with_the_status_line_after_extra_moves() -> None:
    """The move list, the status line while viewing, the review's text and the games list
    count the same moves: after two scoring turns, move 9's turn starts with "9"."""
    from sos.app.game.view import move_list

    game = GameSession(GameRecord("g", Rules.square(4), ("human", "human")))
    # turns: S@a1 | S@c1 | O@b1+1 S@a3 | S@c3 | O@b3+1 O@b2+2 S@d4 | O@d1
    for move in ("S@a1", "S@c1", "O@b1", "S@a3", "S@c3", "O@b3", "O@b2", "S@d4", "O@d1"):
        game.play(Action.parse(move))
    turns = move_list(game.state.rules, game.line, len(game.line), "de")
    assert [t.title.split(".")[0] for t in turns] == ["1", "2", "3–4", "5", "6–8", "9"]
    assert game.go_to(7)
    assert session_view(game, "en").status == "Viewing move 7 of 9"
    turns = move_list(game.state.rules, game.line, game.cursor, "en")
    shown = [(t.title, p.text) for t in turns for p in t.plies if p.current]
    assert shown == [("6–8. Player 1", "O@b2")]


def test_session_view_locks_the_board_and_says_an_earlier_position_is_shown() -> None:
    game = GameSession(GameRecord("g", Rules.square(4), ("human", "medium")))
    game.play(Action.parse("S@a1"))
    assert session_view(game, "en").locked  # the computer's turn
    assert session_view(game, "en", thinking=True).status == "Computer 2 is thinking…"
    game.play(Action.parse("S@c1"))
    vm = session_view(game, "en")
    assert not vm.locked and vm.status == "Player 1 to move"
    game.go_to(1)
    assert session_view(game, "en").status == "Viewing move 1 of 2: Redo plays on"
    game.go_to(0)
    assert session_view(game, "de").status == text("de", "status.viewing", ply=0, total=2)


def test_seat_choices_start_with_a_capital_in_every_language() -> None:
    from sos.app.game.view import seat_choice
    from sos.app.share.params import SEAT_KINDS
    from sos.app.text.i18n import LANGUAGE_NAMES

    assert [seat_choice("en", kind) for kind in SEAT_KINDS[:3]] == ["Human", "Easy", "Medium"]
    assert seat_choice("de", "human") == "Mensch" and seat_choice("de", "easy") == "Leicht"
    assert seat_choice("fr", "hard") == "Difficile"
    assert seat_choice("tr", "human") == "İnsan"  # Turkish: dotted capital I
    assert seat_choice("el", "easy") == "Εύκολο"
    assert seat_choice("hi", "easy") == text("hi", "level.easy")  # no case: unchanged
    for lang in LANGUAGE_NAMES:
        for kind in SEAT_KINDS:
            level, shown = text(lang, f"level.{kind}"), seat_choice(lang, kind)
            assert shown[1:] == level[1:] and not shown[0].islower(), (lang, kind, shown)
    assert text("en", "level.easy") == "easy"  # elsewhere (under a name) it stays lowercase
