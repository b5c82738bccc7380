"""A game's board drawn small, for the entries of "Your games" (:mod:`sos.app.game.thumbnail` says
what is drawn)."""

from __future__ import annotations

from typing import Any

from pyscript import document

from sos.app.game.thumbnail import Thumbnail
from sos.app.game.view import PLAYER_STYLES
from sos.web.dom import SVG_NS, draw_mark


def draw_thumbnail(thumb: Thumbnail) -> Any:
    """The game's board drawn small (SVG, one unit a square): letters and SOS marks, hidden
    from screen readers (the entry's text says what the game is)."""
    svg = document.createElementNS(SVG_NS, "svg")
    svg.setAttribute("class", "game-thumb")
    svg.setAttribute("viewBox", f"0 0 {thumb.cols} {thumb.rows}")
    svg.setAttribute("aria-hidden", "true")
    svg.setAttribute("focusable", "false")
    svg.dataset.testid = "game-thumb"
    back = document.createElementNS(SVG_NS, "rect")
    for name, value in (("width", thumb.cols), ("height", thumb.rows), ("class", "thumb-paper")):
        back.setAttribute(name, str(value))
    svg.appendChild(back)
    grid = document.createElementNS(SVG_NS, "path")
    cuts = [f"M0 {r}H{thumb.cols}" for r in range(1, thumb.rows)]
    cuts += [f"M{c} 0V{thumb.rows}" for c in range(1, thumb.cols)]
    grid.setAttribute("d", "".join(cuts))
    grid.setAttribute("class", "thumb-grid")
    svg.appendChild(grid)
    for line in thumb.lines:
        draw_mark(svg, line, PLAYER_STYLES[line.player % len(PLAYER_STYLES)], legend=True)
    for row, col, letter in thumb.letters:
        glyph = document.createElementNS(SVG_NS, "text")
        glyph.setAttribute("x", str(col + 0.5))
        glyph.setAttribute("y", str(row + 0.8))
        glyph.setAttribute("class", "thumb-letter")
        glyph.dataset.at = f"{row},{col}"
        glyph.textContent = letter
        svg.appendChild(glyph)
    return svg
