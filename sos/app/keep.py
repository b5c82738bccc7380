"""Asking the browser to keep the library: when to ask for persistent storage
(``navigator.storage.persist()``), the answer remembered, and what "Your games" says about it.
Pure: the page (``sos/web/keep.py``) makes the calls.

A site's storage is "best effort" by default: the browser may clear it when the disk runs low
(and Safari clears what scripts wrote for a site not visited for 7 days, unless it was added to
the home screen). Persistent storage is cleared only by the person. Chromium grants or refuses
it silently (from how the site is used: bookmarked, installed, often visited); Firefox asks
the person.

When (our choice): once the library holds a game worth keeping (:func:`worth_keeping`: a
finished game, or :data:`KEEP_MOVES` moves), at a moment that explains the question -- when a
finished game is saved, or when "Your games" is opened -- and only once: the answer is kept
under ``sos-keep``::

    {"v": 1, "asked": 1764650000000, "answer": "granted" | "denied" | "unsupported" | "failed"}

(``unsupported``: the browser has no ``navigator.storage.persist``.) While the request waits
for the person (Firefox's prompt), the page shows :data:`ASKING`.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Final

from .library import Library, StorageError, Store
from .message import Message, message

KEEP_KEY: Final = "sos-keep"
KEEP_VERSION: Final = 1
#: Moves from which an unfinished game is worth asking the browser to keep.
KEEP_MOVES: Final = 6
ANSWERS: Final = ("granted", "denied", "unsupported", "failed")
#: The notice while the browser asks the person (Firefox): why the site wants to keep data.
ASKING: Final = message("notice.keep_asking")


@dataclass(frozen=True)
class KeepState:
    """Whether the page asked already: ``asked`` (ms since the epoch; 0: never) and the
    browser's ``answer`` (one of :data:`ANSWERS`, "" before)."""

    asked: float = 0.0
    answer: str = ""

    @classmethod
    def load(cls, raw: str | None) -> KeepState:
        """Read ``sos-keep`` (anything unreadable counts as never asked; never raises)."""
        try:
            data = json.loads(raw) if raw else None
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict) or data.get("v") != KEEP_VERSION:
            return cls()
        asked, answer = data.get("asked"), data.get("answer")
        if isinstance(asked, bool) or not isinstance(asked, (int, float)) or asked <= 0:
            return cls()
        return cls(float(asked), answer if answer in ANSWERS else "")

    def dump(self) -> str:
        """The text stored under :data:`KEEP_KEY`."""
        data = {"v": KEEP_VERSION, "asked": self.asked, "answer": self.answer}
        return json.dumps(data, separators=(",", ":"))


def worth_keeping(moves: int, finished: bool) -> bool:
    """True for a game worth asking the browser to keep: finished, or :data:`KEEP_MOVES`
    moves or more."""
    return finished or moves >= KEEP_MOVES


def library_worth_keeping(library: Library) -> bool:
    """True when a stored game has :data:`KEEP_MOVES` moves or more (from the index: no game
    is read; a short finished game counts when it is saved, see :func:`worth_keeping`)."""
    return any(summary.moves >= KEEP_MOVES for summary in library.summaries().values())


class Keeper:
    """The remembered request of one tab (``store``: the page's storage, or None where it is
    refused; the answer is then kept for this page only)."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self.state = KeepState.load(store.get(KEEP_KEY) if store is not None else None)

    def should_ask(self) -> bool:
        """True until the page has asked once."""
        return not self.state.asked

    def answered(self, answer: str, now: float) -> None:
        """Remember the browser's ``answer`` (one of :data:`ANSWERS`) at ``now`` (ms). A
        refused write keeps it for this page only."""
        self.state = KeepState(now, answer)
        if self.store is not None:
            with contextlib.suppress(StorageError):
                self.store.set(KEEP_KEY, self.state.dump())


def keep_status(storage: str, persisted: bool | None) -> Message:
    """What "Your games" says about keeping the library: ``storage`` is the tab's storage
    health (``ok``, ``full``, ``refused``: :attr:`sos.app.app.AppSession.storage`),
    ``persisted`` the browser's ``navigator.storage.persisted()`` (None: it cannot say)."""
    if storage == "refused":
        return message("games.keep.refused")
    if persisted is None:
        return message("games.keep.unknown")
    return message("games.keep.kept" if persisted else "games.keep.evictable")


__all__ = [
    "ANSWERS", "ASKING", "KEEP_KEY", "KEEP_MOVES", "KEEP_VERSION", "KeepState", "Keeper",
    "keep_status", "library_worth_keeping", "worth_keeping",
]
