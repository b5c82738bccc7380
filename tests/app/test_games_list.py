"""The "Your games" list (sos.app.games_list): what each line says -- under CPython."""

from __future__ import annotations

from dataclasses import replace

from sos.app.app import AppSession
from sos.app.games_list import SEARCH_FROM
from sos.app.saving.library import MemoryStore
from tests.app.support import A1, B1, C1, tab


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


def _library_of_twelve(lang: str = "en") -> AppSession:
    """A tab whose list holds 12 games: eleven 4 × 4 with one move, the twelfth (shown) a
    6 × 6 between Alice and Bob, most recent first."""
    store = MemoryStore()
    app = tab(store, [("size", "4"), ("lang", lang)])
    for _ in range(11):
        app.game.play(A1)
        app.commit()
        app.new_game()
    app.new_game(replace(app.settings(), size=6))
    app.set_names(("Alice", "Bob"))
    app.game.play(A1)
    app.game.play(C1)
    app.commit()
    return app


def test_the_search_is_offered_from_ten_lines_on() -> None:
    app = tab(MemoryStore(), [("size", "4")])
    assert not app.search_offered(app.games()[1])
    assert not app.search_offered(SEARCH_FROM - 1) and app.search_offered(SEARCH_FROM)
    assert app.search_offered(_library_of_twelve().games()[1])


def test_a_search_keeps_the_lines_that_hold_every_word() -> None:
    app = _library_of_twelve()
    entries, total = app.games()
    assert total == 12 and len(entries) == 12
    by_name, found = app.games(query="alice")  # a name, case folded
    assert found == 1 and [e.id for e in by_name] == [entries[0].id]
    assert app.games(query="6x6")[1] == 1  # the board as typed, "6 × 6" shown
    assert app.games(query="4 × 4")[1] == 11
    assert app.games(query="alice carol")[1] == 0  # every word must be there
    assert app.games(query="  alice  2 moves ")[0] == by_name
    assert app.games(query="   ") == app.games()  # no word: the whole list, paged
    assert app.games(query="nobody")[1] == 0


def test_a_search_reads_the_date_as_shown_and_pages_its_results() -> None:
    app = _library_of_twelve()
    entries = app.entries()
    newest = max(e.updated for e in entries)
    when = lambda ms: "7 Dec 2026" if ms == newest else "1 Jan 2026"  # noqa: E731 - the page's Intl
    assert [e.id for e in app.games(query="dec", when=when)[0]] == [entries[0].id]
    page, total = app.games(2, 3, query="1 move", when=when)
    assert total == 11 and [e.id for e in page] == [e.id for e in entries[4:6]]


def test_a_search_finds_the_game_as_it_is_now_and_in_the_page_language() -> None:
    app = _library_of_twelve()
    assert app.games(query="3 moves")[1] == 0
    app.game.play(B1)
    app.commit()
    assert app.games(query="3 moves")[1] == 1
    assert app.games(query="Spieler")[1] == 0
    app.set_language("de")
    assert app.games(query="Spieler")[1] == 12  # "2 Spieler" in every title
