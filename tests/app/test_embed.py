"""The embed's messages (sos.app.share.embed): ready, and game-over once per finished game with the
session's outcome; a draw carries ``winner: null`` (the key is always there)."""

from __future__ import annotations

import json

from sos import Action, Rules
from sos.app.game.session import GameSession
from sos.app.saving.library import GameRecord
from sos.app.share.embed import (
    SOURCE,
    VERSION,
    GameOverReports,
    paint_of,
    painted_id,
    ready_message,
    valid_key,
)
from sos.app.share.params import Settings
from sos.app.share.players import with_names

SETTINGS = Settings(3, "general", 3, ("human",) * 3)


def strip_game(mode: str = "general", players: int = 3) -> GameSession:
    return GameSession(GameRecord("g", Rules(1, 3, mode, players), ("human",) * players))  # type: ignore[arg-type]


def test_ready_carries_the_settings() -> None:
    message = ready_message(Settings(5, "simple", 2, ("human", "hard")), "de")
    assert message == {
        "source": SOURCE,
        "version": VERSION,
        "type": "sos:ready",
        "settings": {"size": 5, "mode": "simple", "players": 2, "seats": ["human", "hard"],
                     "lang": "de"},
        "names": ["Spieler 1", "Computer 2"],
    }


def test_a_draw_says_winner_null() -> None:
    game = strip_game()
    reports = GameOverReports()
    assert reports.message(game, SETTINGS, "en") is None  # still playing
    for col in range(3):
        game.play(Action(0, col, "O"))
    message = reports.message(game, SETTINGS, "en")
    assert message is not None
    assert json.loads(json.dumps(message))["winner"] is None  # JSON null, key present
    assert '"winner": null' in json.dumps(message)
    assert message["draw"] is True and message["tied"] == [0, 1, 2]
    assert message["scores"] == [0, 0, 0] and message["termination"] == "full_board"
    assert message["text"] == "Draw, 0–0–0"


def test_game_over_is_sent_once_per_ending() -> None:
    game = strip_game("simple", 2)
    reports = GameOverReports()
    for col, letter in enumerate("SOS"):
        game.play(Action(0, col, letter))
    first = reports.message(game, SETTINGS, "en")
    assert first is not None and first["winner"] == 0 and first["termination"] == "sos"
    assert reports.message(game, SETTINGS, "en") is None  # a render after the end
    game.undo()
    assert reports.message(game, SETTINGS, "en") is None
    game.play(Action(0, 2, "S"))  # the same ending again after an undo: already reported
    assert reports.message(game, SETTINGS, "en") is None
    game.go_to(0)
    game.play(Action(0, 2, "S"))  # another line of play to another ending: reported
    game.play(Action(0, 1, "O"))
    game.play(Action(0, 0, "S"))
    again = reports.message(game, SETTINGS, "en")
    assert again is not None and again["winner"] == 0
    other = strip_game("simple", 2)  # another game
    for col, letter in enumerate("SOS"):
        other.play(Action(0, col, letter))
    assert reports.message(other, SETTINGS, "en") is not None


def test_the_messages_name_the_players() -> None:
    """Names given to the seats are in ``names`` and in the result ``text``; a seat without a
    name gets the page's default, in the page's language."""
    settings = Settings(3, "simple", 2, ("human", "hard"))
    assert ready_message(settings, "en", ("Alice", ""))["names"] == ["Alice", "Computer 2"]
    assert ready_message(settings, "ar", ("", "Deep"))["names"] == ["اللاعب 1", "Deep"]
    record = with_names(
        GameRecord("g", Rules(1, 3, "simple", 2), ("human", "hard")),  # type: ignore[arg-type]
        ("Alice", ""),
    )
    game = GameSession(record)
    for col, letter in enumerate("SOS"):
        game.play(Action(0, col, letter))
    message = GameOverReports().message(game, settings, "en")
    assert message is not None
    assert message["names"] == ["Alice", "Computer 2"]
    assert message["text"] == "Alice wins with the first SOS"
    assert message["winner"] == 0


def test_the_embed_record_draws_the_position_shown() -> None:
    line = tuple(Action.parse(a) for a in ("S@a1", "O@b1", "S@c1", "O@d4"))
    game = GameSession(GameRecord("g7", Rules.square(4), ("human", "human"), line, 3))
    data = json.loads(paint_of(game, "de"))
    assert data == {
        "format": "sos-embed", "version": 1, "id": "g7", "size": 4, "line": "Sa1Ob1Sc1",
        "scores": [1, 0], "status": "Spieler 1 hat 1 Punkt erzielt und ist noch einmal am Zug",
        "lang": "de",
    }
    assert painted_id(paint_of(game, "en")) == "g7"
    for raw in (None, "", "[]", '{"format":"sos-embed","version":2,"id":"g7"}', "{"):
        assert painted_id(raw) is None
    assert valid_key("sos-embed:1x2y") == "sos-embed:1x2y"
    for key in ("sos-embed:", "sos-g:abc", "sos-embed:ABC", None, 3):
        assert valid_key(key) is None
