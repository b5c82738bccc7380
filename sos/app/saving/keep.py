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

Safari's seven-day limit (:func:`seven_day_rule`): WebKit's tracking prevention deletes every
script-writable storage of a site (localStorage, IndexedDB, Cache Storage, the service worker)
after 7 days of Safari use without a visit to it, unless the site was added to the Home Screen,
which runs it as an app with storage of its own (WebKit blog, "Full Third-Party Cookie Blocking
and More", 2020-03-24). ``persist()`` is documented against eviction for space only, so in
Safari outside the Home Screen "Your games" says so whatever ``persisted()`` answers, beside
**Export all games** (docs/saves.md, "Safari's seven-day limit").
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Final

from ..text.message import Message, message
from .library import Library, StorageError, Store

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


#: ``display-mode`` values (CSS Media Queries 5, the web app manifest's ``display``) in which
#: the page runs as an installed app, not in a browser tab.
APP_DISPLAY_MODES: Final = ("standalone", "fullscreen", "minimal-ui", "window-controls-overlay")
#: Tokens of a user agent string that name a browser other than Safari that is built on WebKit
#: or says "Safari" (Chromium-based ones, and the other browsers of iOS: CriOS, FxiOS, EdgiOS).
NOT_SAFARI: Final = ("Chrome/", "Chromium/", "CriOS/", "FxiOS/", "EdgiOS/", "OPiOS/", "Android")


@dataclass(frozen=True)
class BrowserFacts:
    """What the page knows of its browser: ``user_agent`` (``navigator.userAgent``),
    ``display_mode`` (the ``display-mode`` media feature that matches: "browser" in a tab,
    "standalone" for an app on the Home Screen; "" when none matches, e.g. a browser without
    the feature) and ``ios_standalone`` (``navigator.standalone``: true only in a Home Screen
    app of iOS or iPadOS)."""

    user_agent: str
    display_mode: str = "browser"
    ios_standalone: bool = False

    @property
    def installed(self) -> bool:
        """True when the page runs as an installed app (Home Screen, dock, standalone window)."""
        return self.ios_standalone or self.display_mode in APP_DISPLAY_MODES


def is_safari(user_agent: str) -> bool:
    """True for Safari's user agent string (macOS, iOS, iPadOS; WebKitGTK's and Epiphany's,
    which are built the same way, too): ``AppleWebKit/``, ``Version/`` and ``Safari/``, and none
    of :data:`NOT_SAFARI`. iOS's other browsers are WebKit too but say their own name."""
    return (
        all(token in user_agent for token in ("AppleWebKit/", "Version/", "Safari/"))
        and not any(token in user_agent for token in NOT_SAFARI)
    )


def seven_day_rule(facts: BrowserFacts) -> bool:
    """True when Safari's seven-day limit applies to this page and "Your games" must say so:
    Safari (:func:`is_safari`) outside the Home Screen (not :attr:`BrowserFacts.installed`)."""
    return is_safari(facts.user_agent) and not facts.installed


def keep_status(
    storage: str, persisted: bool | None, facts: BrowserFacts | None = None
) -> Message:
    """What "Your games" says about keeping the library: ``storage`` is the tab's storage
    health (``ok``, ``full``, ``refused``: :attr:`sos.app.app.AppSession.storage`),
    ``persisted`` the browser's ``navigator.storage.persisted()`` (None: it cannot say),
    ``facts`` the browser's (None: unknown), for Safari's seven-day limit
    (:func:`seven_day_rule`), said whatever ``persisted`` is."""
    if storage == "refused":
        return message("games.keep.refused")
    if facts is not None and seven_day_rule(facts):
        return message("games.keep.safari")
    if persisted is None:
        return message("games.keep.unknown")
    return message("games.keep.kept" if persisted else "games.keep.evictable")


__all__ = [
    "ANSWERS", "APP_DISPLAY_MODES", "ASKING", "KEEP_KEY", "KEEP_MOVES", "KEEP_VERSION",
    "NOT_SAFARI", "BrowserFacts", "KeepState", "Keeper", "is_safari", "keep_status",
    "library_worth_keeping", "seven_day_rule", "worth_keeping",
]
