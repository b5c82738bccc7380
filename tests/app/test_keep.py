"""Asking the browser to keep the library (sos.app.keep): when, once, the answer remembered, and
what "Your games" says -- under CPython."""

from __future__ import annotations

from sos import Action
from sos.app.keep import (
    KEEP_KEY,
    KEEP_MOVES,
    Keeper,
    KeepState,
    keep_status,
    library_worth_keeping,
    worth_keeping,
)
from sos.app.library import MemoryStore, StorageError
from tests.app.support import A1, A3, B1, C1, D4
from tests.app.test_backup import game, library


def test_worth_keeping() -> None:
    assert not worth_keeping(KEEP_MOVES - 1, False)
    assert worth_keeping(KEEP_MOVES, False)
    assert worth_keeping(3, True)  # a short finished game (simple mode)
    lib = library()
    lib.create(game("short", (A1, B1)))
    assert not library_worth_keeping(lib)
    lib.create(game("long", (A1, B1, C1, A3, D4, Action.parse("S@b2"))))
    assert library_worth_keeping(lib)


def test_asked_once_and_the_answer_remembered() -> None:
    store = MemoryStore()
    keeper = Keeper(store)
    assert keeper.should_ask()
    keeper.answered("denied", 1_764_720_000_000.0)
    assert not keeper.should_ask()
    assert store.get(KEEP_KEY) == '{"v":1,"asked":1764720000000.0,"answer":"denied"}'
    again = Keeper(store)  # the next visit
    assert not again.should_ask() and again.state == KeepState(1_764_720_000_000.0, "denied")


def test_unreadable_state_counts_as_never_asked() -> None:
    for raw in ("{cut", '{"v": 2, "asked": 5}', '{"v": 1, "asked": true}', "[]", ""):
        assert KeepState.load(raw) == KeepState()
    assert KeepState.load('{"v": 1, "asked": 5, "answer": "maybe"}') == KeepState(5.0, "")


def test_a_refused_write_keeps_the_answer_for_this_page() -> None:
    class Refusing(MemoryStore):
        def set(self, key: str, value: str) -> None:
            raise StorageError("full")

    keeper = Keeper(Refusing())
    keeper.answered("granted", 9.0)
    assert not keeper.should_ask()
    no_storage = Keeper(None)
    assert no_storage.should_ask()
    no_storage.answered("unsupported", 9.0)
    assert not no_storage.should_ask()


def test_what_your_games_says() -> None:
    def said(storage: str, persisted: bool | None) -> str:
        return keep_status(storage, persisted).text("en")

    assert said("ok", True).startswith("This browser keeps your games")
    assert said("ok", False).startswith("This browser may clear your games")
    assert said("full", False).startswith("This browser may clear your games")
    assert said("ok", None).startswith("This browser cannot be asked to keep your games")
    assert said("refused", None).startswith("This browser does not let the page save")
    for persisted in (True, False, None):
        assert "xport" in said("ok", persisted)  # what to do
        assert keep_status("ok", persisted).text("de")
