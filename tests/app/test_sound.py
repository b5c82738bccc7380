"""The optional sounds (sos.app.game.sound): which cue a move makes, the cues' notes, and the sound
preference (off by default, kept across loads, damaged values read as off)."""

from __future__ import annotations

import json

from sos import Action, Rules
from sos.app.app import Prefs
from sos.app.game.session import GameSession
from sos.app.game.sound import CUES, cue
from sos.app.saving.library import GameRecord, MemoryStore

from .support import tab


def strip(mode: str) -> GameSession:
    return GameSession(GameRecord("g", Rules(1, 4, mode, 2), ("human", "human")))  # type: ignore[arg-type]


def test_each_move_has_its_cue() -> None:
    game = strip("general")
    assert cue(game) is None  # no move yet
    game.play(Action(0, 0, "S"))
    assert cue(game) == "move"
    game.play(Action(0, 1, "O"))
    assert cue(game) == "move"
    game.play(Action(0, 2, "S"))  # S-O-S: a point
    assert cue(game) == "sos"
    game.play(Action(0, 3, "O"))  # the board is full: the end
    assert cue(game) == "end"
    game.undo()  # the cue follows the position shown
    assert cue(game) == "sos"
    simple = strip("simple")
    for col, letter in enumerate("SOS"):
        simple.play(Action(0, col, letter))
    assert cue(simple) == "end"  # the first SOS ends a simple game


def test_the_cues_are_short_quiet_tones() -> None:
    assert set(CUES) == {"move", "sos", "end"}
    for notes in CUES.values():
        assert notes
        assert max(n.start + n.duration for n in notes) < 1.0
        assert all(0 < n.gain <= 0.2 and 20 <= n.frequency <= 4000 for n in notes)


def test_sound_is_off_by_default_and_kept() -> None:
    assert Prefs().sound is False and Prefs.load(None).sound is False
    for damaged in ('{"sound": "yes"}', '{"sound": 1}', "[true]", "{"):
        assert Prefs.load(damaged).sound is False
    assert Prefs.load(Prefs(sound=True).dump()).sound is True
    store = MemoryStore()
    app = tab(store)
    app.set_sound(True)
    assert tab(store).prefs.sound is True  # another load of the page
    app.set_sound(False)
    assert tab(store).prefs.sound is False
    stored = [json.loads(v) for v in store.data.values() if '"sound"' in v]
    assert stored and stored[-1]["sound"] is False
