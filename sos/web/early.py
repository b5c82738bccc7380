"""The handover from the page drawn before Python ran (static/boot.js) to the app.

static/boot.js records the taps made on its board (``window.sosBoot``) and shows their letters;
:func:`hand_over` takes them -- which closes that queue, so from then on every event is the
app's -- and lets :func:`sos.app.early.take_early` decide what they become: moves, in order, of
the game drawn under them (an embed's own game, drawn from its record) or of the empty board,
or a notice saying why not. It runs once, in the same task as the page's
first render (no tap can fall between the two) and before ``data-ready``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyscript import window

from sos.app.early import take_early
from sos.web.dom import by_id

if TYPE_CHECKING:
    from sos.web.page import Page


def _taps(raw: Any) -> list[tuple[int, int, str]]:
    """The recorded taps as ``(row, col, letter)``; anything malformed is left out."""
    taps = []
    for item in raw or []:
        try:
            row, col, letter = int(item[0]), int(item[1]), str(item[2])
        except (TypeError, ValueError, IndexError):
            continue
        taps.append((row, col, letter))
    return taps


def hand_over(page: Page) -> None:
    """Take the static page's taps and letter choice into ``page`` (see the module docstring);
    hide the puzzle embed's start button. Nothing to do where static/boot.js did not run."""
    card = by_id("start-card")
    if card:
        card.hidden = True
    by_id("board").inert = False
    boot = getattr(window, "sosBoot", None)
    if not boot:
        return
    taken = boot.take().to_py()
    letter = taken.get("letter")
    if letter in ("S", "O"):
        page.select_letter(str(letter))  # chosen before the app was up: kept (and saved)
    taps = _taps(taken.get("taps"))
    if not taps:
        return
    board = (int(taken.get("rows") or 0), int(taken.get("cols") or 0))
    drawn = taken.get("shown")
    shown = None
    if isinstance(drawn, dict) and isinstance(drawn.get("id"), str):
        shown = (str(drawn["id"]), str(drawn.get("line") or ""))
    before = page.app.game
    result = take_early(page.app, board, taps, shown)
    if result.notice is not None:
        page.app.notices.append(result.notice)
    if page.app.game is not before:  # the taps went to a new game: the address names it
        window.history.replaceState(None, "", page.app.location())
    if result.played:
        page.changed(announce=True)  # rendered, announced, saved; a computer seat answers
    else:
        page.refresh()  # the squares tapped show the game's own letters again, and the notice
