"""Helpers shared by the app-layer tests (not a test module): moves, a game record, clocks and
ids that keep increasing across tabs, and tabs (:class:`~sos.app.app.AppSession`) on a store."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from sos import Action, Rules
from sos.app.app import AppSession
from sos.app.saving.library import GameRecord, MemoryStore

A1, C1, B1, A3, D4 = (Action.parse(t) for t in ("S@a1", "S@c1", "O@b1", "S@a3", "O@d4"))


def record(seats: tuple[str, ...] = ("human", "human"), size: int = 4) -> GameRecord:
    """A new game record ``g1`` on a ``size`` x ``size`` board."""
    return GameRecord("g1", Rules.square(size), seats)


_CLOCK = itertools.count(1_000)  # one clock for every tab of a test: later is later


def factory() -> tuple[Callable[[], float], Callable[[], str]]:
    """A clock (shared by all tabs: later is later) and a fresh id generator."""
    ids = (f"id{n}" for n in itertools.count())
    return (lambda: float(next(_CLOCK))), (lambda: next(ids))


def tab(
    store: MemoryStore, query: list[tuple[str, str]] | None = None, fragment: str = ""
) -> AppSession:
    """A tab opened on ``store`` with the URL's ``query`` and ``fragment``, started in English."""
    clock, new_id = factory()
    app = AppSession(store, clock, new_id, "en")
    app.start(query or [], fragment)
    return app


def tab_sharing(store: MemoryStore, other: AppSession, fragment: str = "") -> AppSession:
    """A second tab on the same store, with a clock and ids that continue the first one's."""
    app = AppSession(store, other.library.clock, other.library._new_id, "en")
    app.start([], fragment)
    return app
