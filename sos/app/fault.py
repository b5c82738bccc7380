"""What the page says and keeps when something fails that the player did not cause, with no
DOM: a bug in one of the page's own event handlers (:mod:`sos.web.guard` catches it) and a
storage that refuses to keep the games (from the start, as with a quota of zero, or in the
middle of a game).

- :func:`fault_notice`: the one calm line shown after a handler failed -- the game in play is
  saved (or, where storage refuses, cannot be kept: export it);
- :func:`fault_details`: the text a player copies into a bug report (what failed, where, the
  traceback, the runtime and the browser; never the moves of a game, nor the page's address
  beyond its path and parameter names);
- :func:`storage_failure`: whether a refused write means "full" (space can be freed) or
  "refused" (nothing can be kept in this window);
- :func:`game_file`: the game in play as a library file (:mod:`sos.app.backup`'s format), for
  the export a player is offered when storage keeps nothing.

The fault handling itself is documented in docs/reliability.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Final
from urllib.parse import parse_qsl, urlsplit

from .backup import LIBRARY_FORMAT, LIBRARY_VERSION, MEDIA_TYPE
from .saving.gamerecord import GameRecord, dump_game
from .text.message import Message, message

__all__ = [
    "FAULTS",
    "FAULT_NOT_KEPT",
    "FAULT_SAVED",
    "MAX_DETAILS",
    "MEDIA_TYPE",
    "NOT_KEPT",
    "Fault",
    "fault_details",
    "fault_notice",
    "game_file",
    "game_file_name",
    "has_fault",
    "storage_failure",
    "with_fault",
]

#: The calm line after a handler failed while storage works.
FAULT_SAVED: Final = message("fault.saved")
#: The calm line after a handler failed where storage keeps nothing (export offered).
FAULT_NOT_KEPT: Final = message("fault.not_kept")
#: The notice, shown once, that the browser keeps no game in this window (the export button
#: is offered beside it while :attr:`sos.app.tab.TabCore.storage` is ``refused``).
NOT_KEPT: Final = message("notice.no_storage")
#: The longest details text (characters): a traceback of a deep recursion is cut.
MAX_DETAILS: Final = 8000


@dataclass(frozen=True)
class Fault:
    """One failure of a page handler.

    Attributes:
        where: what ran, e.g. ``click #undo-button`` or ``task Computer._turns``.
        error: the exception's type and message, e.g. ``RuntimeError: injected``.
        trace: the formatted traceback (Python's, as ``traceback.format_exception`` gives it).
    """

    where: str
    error: str
    trace: str


#: The calm lines of a fault (at most one is queued at a time).
FAULTS: Final = (FAULT_SAVED, FAULT_NOT_KEPT)


def with_fault(notices: list[Message], storage: str) -> list[Message]:
    """``notices`` with the fault's calm line (for ``storage``: :func:`fault_notice`) last,
    replacing any earlier one: one line, however many faults."""
    return [n for n in notices if n not in FAULTS] + [fault_notice(storage)]


def has_fault(notices: list[Message]) -> bool:
    """True when a fault's calm line is queued (the page then offers Copy details)."""
    return any(n in FAULTS for n in notices)


def fault_notice(storage: str) -> Message:
    """The calm line for a fault, given the storage's health (``ok``, ``full``, ``refused``:
    :attr:`sos.app.tab.TabCore.storage`): "your game is saved" only where it is."""
    return FAULT_SAVED if storage == "ok" else FAULT_NOT_KEPT


def _address(url: str) -> str:
    """``url`` without what may identify a game: the path, and the query's parameter names."""
    parts = urlsplit(url)
    names = sorted({name for name, _value in parse_qsl(parts.query, keep_blank_values=True)})
    return parts.path + (f"?{'&'.join(names)}" if names else "")


def fault_details(
    fault: Fault, *, runtime: str, browser: str, url: str, storage: str, lang: str, count: int = 1
) -> str:
    """The text a player copies into a bug report about ``fault``: its place and error, the
    ``runtime`` (Python and Pyodide versions), ``browser`` (the user agent), the address
    (:func:`_address`: path and parameter names only), the storage's health, the language,
    ``count`` (faults in this page so far) and the traceback, at most :data:`MAX_DETAILS`
    characters. English and plain text: it is read by the developers."""
    head = [
        "SOS bug report",
        f"what: {fault.where}",
        f"error: {fault.error}",
        f"runtime: {runtime or 'unknown'}",
        f"browser: {browser or 'unknown'}",
        f"page: {_address(url)}",
        f"storage: {storage}; language: {lang}; faults in this page: {count}",
        "",
    ]
    text = "\n".join(head) + fault.trace.rstrip() + "\n"
    if len(text) > MAX_DETAILS:
        text = text[: MAX_DETAILS - 20] + "\n[… cut]\n"
    return text


def storage_failure(kind: str, stored_keys: int) -> str:
    """What a refused write means for the player: ``kind`` is the store's reason (``full`` or
    ``refused``: :class:`sos.app.saving.library.StorageError`), ``stored_keys`` how many entries the
    storage holds (-1: unknown). A full storage that holds nothing at all (a quota of zero, as
    some private windows have) is ``refused``: there is nothing to free, the games cannot be
    kept in this window."""
    if kind == "full" and stored_keys == 0:
        return "refused"
    return kind


def game_file(record: GameRecord, exported: float) -> str:
    """``record`` as a library file of one game (:mod:`sos.app.backup`'s format, importable
    in "Your games" on any device); ``exported``: ms since the epoch."""
    head = {"format": LIBRARY_FORMAT, "version": LIBRARY_VERSION, "exported": exported, "games": 1}
    game = dump_game(replace(record, token=""))
    return json.dumps(head, separators=(",", ":")) + "\n" + game + "\n"


def game_file_name(record: GameRecord, day: str) -> str:
    """The name of :func:`game_file` on ``day`` (ISO date): ``sos-game-2026-12-05-<id>.jsonl``."""
    return f"sos-game-{day}-{record.id or 'new'}.jsonl"
