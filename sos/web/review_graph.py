"""The review's evaluation graph (:mod:`sos.web.review` draws the rest of the panel): draws a
:class:`~sos.app.learn.review.GraphView` -- one point per judged move at its place in the
game, the segments between neighbouring ones, a hit area per point for clicks.

The axis, segments and hit areas are an SVG stretched to the box (``preserveAspectRatio=
"none"``, lines of a constant width). The points are HTML dots laid over it, placed by
percentage of the same box: a round dot drawn in a stretched SVG is round in Chromium and
Firefox only (WebKit stretches a zero-length round-capped line into a flat ellipse), and an
HTML dot keeps its size and shape everywhere. The box's padding (static/css/review.css) is
the room the largest dot takes beyond its centre, so no dot is cut at an edge."""

from __future__ import annotations

from typing import Any

from pyscript import document

from sos.app.learn.review import HEIGHT, STEP, GraphView
from sos.web.dom import SVG_NS, by_id, element


def _svg(tag: str, cls: str = "", **attrs: object) -> Any:
    node = document.createElementNS(SVG_NS, tag)
    if cls:
        node.setAttribute("class", cls)
    for name, value in attrs.items():
        node.setAttribute(name.replace("_", "-"), str(value))
    return node


def draw_graph(box: Any, graph: GraphView) -> list[tuple[int, Any]]:
    """Draw ``graph`` in ``box`` (the graph's element, and its side labels); returns each
    point's (ply from 1, dot)."""
    box.setAttribute("aria-label", graph.label)
    for side, caption in (("review-up", graph.up), ("review-down", graph.down)):
        by_id(side).textContent = caption
    svg = _svg("svg", "review-lines", viewBox=f"0 0 {graph.width} {HEIGHT}")
    svg.setAttribute("preserveAspectRatio", "none")
    svg.setAttribute("aria-hidden", "true")
    nodes = [_svg("line", "axis", x1=0, y1=HEIGHT / 2, x2=graph.width, y2=HEIGHT / 2)]
    for point in graph.points:
        hit = _svg("rect", "hit", x=(point.ply - 1) * STEP, y=0, width=STEP, height=HEIGHT)
        hit.dataset.ply = str(point.ply)
        nodes.append(hit)
    for seg in graph.segments:
        kind = "exact" if seg.exact else "estimate"
        nodes.append(_svg("line", f"seg {kind}", x1=seg.x1, y1=seg.y1, x2=seg.x2, y2=seg.y2))
    svg.replaceChildren(*nodes)
    layer = element("div", "review-dots")
    dots = []
    for point in graph.points:
        kind = "exact" if point.exact else "estimate"
        dot = element("span", f"pt {kind} v-{point.verdict}")
        dot.style.left = f"{point.x / graph.width * 100:.3f}%"
        dot.style.top = f"{point.y / HEIGHT * 100:.3f}%"
        dot.dataset.ply = str(point.ply)
        dots.append((point.ply, dot))
        layer.appendChild(dot)
    box.replaceChildren(svg, layer)  # dots above the segments
    return dots
