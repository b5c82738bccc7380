"""The review's evaluation graph in SVG (:mod:`sos.web.review` draws the rest of the panel):
draws a :class:`~sos.app.learn.review.GraphView` -- one point per judged move at its place in
the game, the segments between neighbouring ones, a hit area per point for clicks."""

from __future__ import annotations

from typing import Any

from pyscript import document

from sos.app.learn.review import HEIGHT, STEP, GraphView
from sos.web.dom import SVG_NS, by_id


def _svg(tag: str, cls: str = "", **attrs: object) -> Any:
    node = document.createElementNS(SVG_NS, tag)
    if cls:
        node.setAttribute("class", cls)
    for name, value in attrs.items():
        node.setAttribute(name.replace("_", "-"), str(value))
    return node


def draw_graph(svg: Any, graph: GraphView) -> list[tuple[int, Any]]:
    """Draw ``graph`` in ``svg`` (and its side labels); returns each point's (ply from 1, dot)."""
    svg.setAttribute("viewBox", f"0 0 {graph.width} {HEIGHT}")
    svg.setAttribute("preserveAspectRatio", "none")
    svg.setAttribute("aria-label", graph.label)
    for side, caption in (("review-up", graph.up), ("review-down", graph.down)):
        by_id(side).textContent = caption
    nodes = [_svg("line", "axis", x1=0, y1=HEIGHT / 2, x2=graph.width, y2=HEIGHT / 2)]
    for point in graph.points:
        hit = _svg("rect", "hit", x=(point.ply - 1) * STEP, y=0, width=STEP, height=HEIGHT)
        hit.dataset.ply = str(point.ply)
        nodes.append(hit)
    for seg in graph.segments:
        kind = "exact" if seg.exact else "estimate"
        nodes.append(_svg("line", f"seg {kind}", x1=seg.x1, y1=seg.y1, x2=seg.x2, y2=seg.y2))
    dots = []
    for point in graph.points:
        kind = "exact" if point.exact else "estimate"
        dot = _svg(
            "line", f"pt {kind} v-{point.verdict}", x1=point.x, y1=point.y, x2=point.x, y2=point.y
        )
        dot.dataset.ply = str(point.ply)
        dots.append((point.ply, dot))
    svg.replaceChildren(*nodes, *(dot for _, dot in dots))  # dots above the segments
    return dots
