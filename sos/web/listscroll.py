"""The move list's scrolling (:func:`sos.web.dom.render_move_list` asks for it): the list, never
the page, is scrolled so that the current move is in view, and its view starts with a whole line
-- a turn's first line, or inside a turn of many moves (a long chain of a computer's SOSs) one
of its lines of moves. At the end of a game the last move is at the list's foot with the turns
before it above (a turn taller than the list once left only the last turn at the top, above
hundreds of pixels of blank room, issue 50)."""

from __future__ import annotations

import math
from typing import Any

from pyodide.ffi import to_js
from pyscript import window

from sos.web import guard

_scroll_state: dict[str, Any] = {"index": 0, "pending": False}


def scroll_later(box: Any, index: int) -> None:
    """Scroll ``box`` to its child ``index`` at the next animation frame (the layout is then
    computed once for the frame, not forced by this task); a newer request replaces a pending
    one."""
    _scroll_state["index"] = index
    if _scroll_state.get("observer") is None:  # a resized list is aligned again

        def resized(_entries: Any, _observer: Any) -> None:
            item = box.children.item(_scroll_state["index"])
            if item:  # a missing child is JS null (Pyodide's falsy ``jsnull``, not None)
                scroll_into_list(box, item, again=True)

        _scroll_state["observer"] = window.ResizeObserver.new(
            guard.proxy(resized, "resize the move list")
        )
        options = to_js({"box": "border-box"}, dict_converter=window.Object.fromEntries)
        _scroll_state["observer"].observe(box, options)
    if _scroll_state["pending"]:
        return
    _scroll_state["pending"] = True

    def run(_time: float) -> None:
        _scroll_state["pending"] = False
        item = box.children.item(_scroll_state["index"])
        if item:  # (JS null when the list got shorter meanwhile)
            scroll_into_list(box, item)

    window.requestAnimationFrame(guard.once(run, "frame: scroll the move list"))


def scroll_into_list(box: Any, item: Any, again: bool = False) -> None:
    """Scroll the list ``box`` (only the list, never the page) so that its child ``item`` is in
    view -- of a turn taller than the list, its current move --, starting with a whole line
    (:func:`_line_top`). ``again``: the list was resized (e.g. a notice closed), align it
    afresh."""
    height = box.clientHeight
    unit = item
    if item.offsetHeight > height:  # a turn taller than the list: its current move
        unit = item.querySelector(".ply.current") or item
    top = unit.offsetTop - box.offsetTop
    bottom = top + unit.offsetHeight
    view_top = box.scrollTop
    if again and bottom > height:
        view_top = -1.0  # treat the item as out of view: the scroll is computed anew
    elif again:
        box.style.paddingBottom = ""
        box.scrollTop = 0
        return
    if top >= view_top and bottom <= view_top + height:
        if view_top == 0:
            box.style.paddingBottom = ""  # no slack needed while the list is not scrolled
        return
    if (top < view_top and not again) or unit.offsetHeight >= height:
        box.scrollTop = top
        return
    target = _line_top(box, bottom - height)  # the least scroll that shows it, on a line
    # Near the end, a line's top may lie beyond the farthest scroll: add just that much room
    # below the last row, so the list still starts with a whole line.
    padding = float(str(box.style.paddingBottom or "0px").removesuffix("px") or 0)
    content_end = box.scrollHeight - padding
    slack = max(0.0, target + height - content_end)
    box.style.paddingBottom = f"{math.ceil(slack)}px" if slack else ""
    box.scrollTop = target


def _line_top(box: Any, lowest: float) -> float:
    """The top (px from the list's top) of the first line of ``box`` at or below ``lowest``: a
    turn's top, or, where a turn reaches over ``lowest``, the top of one of its lines of moves
    (rounding up to the next turn left a turn taller than the list out of view)."""
    items = box.children
    lo, hi = 0, int(items.length) - 1
    while lo < hi:  # rows are in order: binary search for the first row starting at ``lowest``
        mid = (lo + hi) // 2
        if items[mid].offsetTop - box.offsetTop >= lowest:
            hi = mid
        else:
            lo = mid + 1
    target: float = items[lo].offsetTop - box.offsetTop
    row = lo - 1 if target >= lowest else lo  # the turn over ``lowest``, if any
    if target != lowest and row >= 0:
        tops = [p.offsetTop - box.offsetTop for p in items[row].querySelectorAll(".ply")]
        inside = [t for t in tops if t >= lowest and (t < target or target < lowest)]
        if inside:
            return float(min(inside))
    return max(target, lowest)
