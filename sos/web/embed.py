"""Events for the page that embeds the game in an iframe (``window.parent.postMessage``).

Sent only when the page runs inside a frame. Every message is a plain object with
``source: "sos-game"``, ``version: 1`` and a ``type``:

- ``"sos:ready"`` once the game accepts input: ``settings`` = ``{size, mode, players, seats,
  lang}``.
- ``"sos:game-over"`` once per finished game: ``winner`` (seat index from 0, or ``null`` for a
  draw), ``draw``, ``tied`` (seats sharing a draw), ``scores`` (one per seat),
  ``termination`` (``"full_board"`` or ``"sos"``: simple mode's first SOS), ``text`` (the
  result as the page shows it) and ``settings``.

Target origin ``"*"``: a blog embedding the game can be on any origin and the game cannot
know it (``document.referrer`` is stripped by many referrer policies), and the messages carry
nothing secret -- only what the embedded page itself displays. The game accepts **no**
incoming messages: static/start.js drops every message from another window before the runtime
sees it, so no other page can drive it.
"""

from __future__ import annotations

from typing import Any, Final

from pyodide.ffi import to_js
from pyscript import window

from sos.app.params import Settings
from sos.state import GameState

SOURCE: Final = "sos-game"
VERSION: Final = 1

_reported: tuple[int, int] | None = None  # (id of the state, moves) of the last game-over sent


def _embedded() -> bool:
    try:
        return bool(window.parent != window.self)
    except Exception:  # an odd browser refusing the comparison: treat as top level
        return False


def _post(kind: str, **fields: Any) -> None:
    if not _embedded():
        return
    message = {"source": SOURCE, "version": VERSION, "type": kind, **fields}
    window.parent.postMessage(to_js(message, dict_converter=window.Object.fromEntries), "*")


def _settings(settings: Settings, lang: str) -> dict[str, Any]:
    return {
        "size": settings.size,
        "mode": settings.mode,
        "players": settings.players,
        "seats": list(settings.seats),
        "lang": lang,
    }


def post_ready(settings: Settings, lang: str) -> None:
    """Tell the host page the game accepts input."""
    _post("sos:ready", settings=_settings(settings, lang))


def post_game_over(state: GameState, text: str, settings: Settings, lang: str) -> None:
    """Tell the host page how the game ended (once per game; renders after the end repeat)."""
    global _reported
    outcome = state.outcome()
    if outcome is None:
        return
    key = (id(state), len(state.history))
    if key == _reported:
        return
    _reported = key
    _post(
        "sos:game-over",
        winner=outcome.winner,
        draw=outcome.is_draw,
        tied=list(outcome.tied),
        scores=list(outcome.scores),
        termination=outcome.termination,
        text=text,
        settings=_settings(settings, lang),
    )
