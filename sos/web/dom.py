"""Small DOM helpers for the PyScript layer (text only: nothing is ever inserted as HTML)."""

from __future__ import annotations

import math
from typing import Any

from pyscript import document

from sos.app.game.view import LineView, PlayerView, TurnView
from sos.web.listscroll import scroll_later
from sos.web.nobreak import Names, set_text

SVG_NS = "http://www.w3.org/2000/svg"


def by_id(element_id: str) -> Any:
    """``document.getElementById``."""
    return document.getElementById(element_id)


def element(tag: str, cls: str = "", content: str = "") -> Any:
    """A new HTML element with a class and text content."""
    node = document.createElement(tag)
    if cls:
        node.className = cls
    if content:
        node.textContent = content
    return node


def draw_mark(parent: Any, line: LineView, style: str, legend: bool = False) -> None:
    """Append the SVG mark of one SOS (or a legend swatch) to ``parent``.

    Coordinates are in squares: the centre of square (r, c) is (c + 0.5, r + 0.5).
    Styles: ``ring`` (a rounded outline around the three letters), ``strike`` (a line through
    them), ``dash`` (a dashed line), ``double`` (two thin parallel lines).
    """
    x1, y1 = line.c1 + 0.5, line.r1 + 0.5
    x2, y2 = line.c2 + 0.5, line.r2 + 0.5
    group = document.createElementNS(SVG_NS, "g")
    if not legend:  # legend swatches are not SOSs on the board
        group.setAttribute("data-sos", line.key)
        group.setAttribute("data-player", str(line.player))
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    cls = f"mark {style} p{line.player}"
    if style == "ring":
        angle = math.degrees(math.atan2(dy, dx))
        rect = document.createElementNS(SVG_NS, "rect")
        height = 0.78
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        for name, value in (
            ("x", cx - (length + height) / 2),
            ("y", cy - height / 2),
            ("width", length + height),
            ("height", height),
            ("rx", height / 2),
            ("transform", f"rotate({angle:.2f} {cx} {cy})"),
            ("class", cls),
        ):
            rect.setAttribute(name, str(value))
        group.appendChild(rect)
    else:
        ext = 0.32
        offsets = [(0.0, 0.0)]
        if style == "double":  # two parallel strokes, 0.2 squares apart
            offsets = [(-uy * 0.1, ux * 0.1), (uy * 0.1, -ux * 0.1)]
        for ox, oy in offsets:
            seg = document.createElementNS(SVG_NS, "line")
            for name, value in (
                ("x1", x1 - ux * ext + ox),
                ("y1", y1 - uy * ext + oy),
                ("x2", x2 + ux * ext + ox),
                ("y2", y2 + uy * ext + oy),
                ("class", cls),
            ):
                seg.setAttribute(name, str(value))
            group.appendChild(seg)
    parent.appendChild(group)


#: What the scoreboard and the move list show now, so that a render touches only what changed.
_shown_players: list[tuple[PlayerView, bool]] = []
_shown_turns: list[TurnView] = []
_shown_empty: list[str] = []


def forget_shown() -> None:
    """Forget what is shown (the DOM was drawn anew in place: sos/web/testing.py)."""
    for shown in (_shown_players, _shown_turns, _shown_empty):
        shown.clear()


def _player_item(p: PlayerView, thinking: bool) -> Any:
    item = element("li")
    classes = ["player", f"p{p.index}"]
    if p.current:
        classes.append("current")
        if thinking:
            classes.append("thinking")
    if p.winner:
        classes.append("winner")
    item.className = " ".join(classes)
    item.dataset.player = str(p.index)
    item.dataset.kind = p.kind
    item.setAttribute("aria-label", p.label)
    if p.current:
        item.setAttribute("aria-current", "true")
    swatch = document.createElementNS(SVG_NS, "svg")
    swatch.setAttribute("class", "swatch")
    swatch.setAttribute("viewBox", "0 0 3 1")
    swatch.setAttribute("aria-hidden", "true")
    draw_mark(swatch, LineView(0, 0, 0, 2, p.index), p.style, legend=True)
    name = element("span", "name")
    name.setAttribute("aria-hidden", "true")  # the card's label says it all, name in full
    shown = element("span", "name-text", p.name)  # one line; a long name ends with "…"
    shown.title = p.name
    shown.dir = "auto"  # a Latin name on a right-to-left page is cut at its own end
    name.appendChild(shown)
    if p.level_label:
        name.appendChild(element("span", "level", p.level_label))
    score = element("span", "score", str(p.score))
    score.dataset.testid = f"score-{p.index}"
    score.setAttribute("aria-hidden", "true")
    item.append(swatch, name, score)
    return item


def render_players(players: tuple[PlayerView, ...], thinking: bool) -> None:
    """The scoreboard: swatch of the mark style, name (and level), score. Only the seats whose
    view changed are redrawn."""
    box = by_id("players")
    wanted = [(p, thinking and p.current) for p in players]
    if len(wanted) != len(_shown_players) or box.childElementCount != len(_shown_players):
        box.replaceChildren(*[_player_item(p, t) for p, t in wanted])
    else:
        for index, (shown, want) in enumerate(zip(_shown_players, wanted, strict=True)):
            if shown != want:
                box.children.item(index).replaceWith(_player_item(*want))
    _shown_players[:] = wanted


def _turn_item(turn: TurnView) -> Any:
    item = element("li")
    title = element("span", f"turn-title p{turn.player}", turn.title)
    title.title = turn.title  # one line: a long name ends with "…"
    item.appendChild(title)
    plies = element("span", "plies")
    item.appendChild(plies)
    for ply in turn.plies:
        classes = ["ply"]
        if ply.current:
            classes.append("current")
        if ply.future:
            classes.append("future")
        button = element("button", " ".join(classes), ply.text)
        button.type = "button"
        button.dataset.ply = str(ply.index + 1)
        button.setAttribute("aria-label", ply.label)
        if ply.current:
            button.setAttribute("aria-current", "step")
        if ply.points:
            button.appendChild(element("span", "points", f"+{ply.points}"))
        plies.appendChild(button)
    return item


def render_move_list(turns: tuple[TurnView, ...], empty_text: str) -> None:
    """The move list: one item per turn, each action a button that shows that position.

    Only the turns whose view changed are redrawn (after a move: the new turn and the one
    that was current), new turns are appended, and the list is scrolled (never the page) to
    the current action at the next animation frame, so no layout is forced here.
    A ply's accessible name is its view's ``label`` (a language change redraws every turn).
    """
    box = by_id("move-list")
    if not turns:
        if _shown_turns or _shown_empty != [empty_text] or box.childElementCount != 1:
            box.replaceChildren(element("li", "empty", empty_text))
        _shown_turns.clear()
        _shown_empty[:] = [empty_text]
        return
    if _shown_empty or box.childElementCount != len(_shown_turns):
        box.replaceChildren()
        _shown_turns.clear()
        _shown_empty.clear()
    changed = False
    for index, turn in enumerate(turns):
        if index < len(_shown_turns):
            if _shown_turns[index] != turn:
                box.children.item(index).replaceWith(_turn_item(turn))
                _shown_turns[index] = turn
                changed = True
        else:
            box.appendChild(_turn_item(turn))
            _shown_turns.append(turn)
            changed = True
    while len(_shown_turns) > len(turns):
        box.lastElementChild.remove()
        _shown_turns.pop()
        changed = True
    current = next(
        (i for i, turn in enumerate(turns) if any(ply.current for ply in turn.plies)), None
    )
    if changed and current is not None:
        scroll_later(box, current)


def show_result(
    result: str | None, ending: str, units: tuple[str, ...], names: Names, winner: int | None
) -> None:
    """The game-over panel beside the board: shown with ``result`` (its text) when a game ends,
    hidden while it goes on; ``winner`` (a seat from 0, None for a draw) gives its border the
    winner's colour (``data-winner``). ``ending`` names the finished game independently of the
    language (game id and number of moves): once folded (:func:`hide_result`) the panel stays
    folded for that ending, so re-rendering the finished game — in another language too — does
    not unfold it; its text (``units``, ``names``: :func:`.nobreak.set_text`) follows the
    language."""
    panel = by_id("result")
    if result is None:
        panel.hidden = True
        panel.removeAttribute("data-shown")
        panel.classList.remove("folded")
        return
    set_text(by_id("result-text"), result, units, names)
    if winner is None:
        panel.removeAttribute("data-winner")
    else:
        panel.dataset.winner = str(winner)
    shown = ending or result
    if panel.getAttribute("data-shown") != shown:
        panel.setAttribute("data-shown", shown)
        panel.classList.remove("folded")
    panel.hidden = False


def hide_result() -> None:
    """Fold the game-over panel to its buttons (Rematch, New game): the card never covers the
    board, and the status line keeps the result. The focus moves to Rematch (× is gone)."""
    by_id("result").classList.add("folded")
    by_id("rematch").focus()
