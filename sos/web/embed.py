"""Posts the messages of :mod:`sos.app.share.embed` to the page that embeds the game in an iframe
(``window.parent.postMessage``), only when the page runs inside a frame.

Target origin ``"*"``: a blog embedding the game can be on any origin and the game cannot
know it (``document.referrer`` is stripped by many referrer policies), and the messages carry
nothing secret -- only what the embedded page itself displays. The game accepts **no**
incoming messages: static/start.js drops every message from another window before the runtime
sees it, so no other page can drive it.
"""

from __future__ import annotations

import json

from pyscript import window

from sos.app.share.embed import EmbedMessage


def _embedded() -> bool:
    try:
        return bool(window.parent != window.self)
    except Exception:  # an odd browser refusing the comparison: treat as top level
        return False


def post(message: EmbedMessage | None) -> None:
    """Send ``message`` to the host page (nothing for ``None`` or outside a frame). Sent as
    the browser's JSON parse of it, so that ``None`` arrives as ``null`` (a Python-to-JS
    conversion would make it ``undefined`` and drop the key)."""
    if message is None or not _embedded():
        return
    window.parent.postMessage(window.JSON.parse(json.dumps(message)), "*")
