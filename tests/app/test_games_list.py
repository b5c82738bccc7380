"""The "Your games" list (sos.app.games_list): what each line says -- under CPython."""

from __future__ import annotations

from sos.app.saving.library import MemoryStore
from tests.app.support import A1, C1, tab


def test_list_entries_say_what_each_game_is() -> None:
    store = MemoryStore()
    app = tab(store, [("size", "4"), ("lang", "de")])
    app.game.play(A1)
    app.commit()
    (entry,) = app.entries()
    assert entry.current and not entry.finished
    assert entry.title == "4 × 4 · normal · 2 Spieler"
    assert entry.detail == "1 Zug · Spieler 2 ist am Zug"
    app.game.play(C1)
    assert app.entries()[0].detail == "2 Züge · Spieler 1 ist am Zug"
