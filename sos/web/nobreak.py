"""Texts whose short units never break across lines (:mod:`sos.app.game.nobreak`): each score
("21–0"), board size ("4 × 4", left to right) and seat name with its number ("Computer 2") in a
``span.nb`` (``white-space: nowrap``, static/css/app.css); a long name given to a seat in a
``span.long-name`` (at most two lines, cut with an ellipsis). Text only: nothing is inserted as
HTML."""

from __future__ import annotations

from typing import Any

from pyscript import document

from sos.app.game.nobreak import runs, seat_names

__all__ = ["Names", "seat_names", "set_text"]

#: The names given to the seats (``""`` where none was).
Names = tuple[str, ...]


def set_text(
    node: Any, content: str, units: tuple[str, ...] = (), names: Names = ()
) -> Any:
    """``node``'s text ``content``, with each score and each of ``units`` (:func:`seat_names`)
    in a ``span.nb``, and each of ``names`` (the names given) too long to be a unit in a
    ``span.long-name`` that carries the whole name in its title (static/css/app.css shows it on
    at most two lines; its text stays whole for screen readers); untouched when it already shows
    that. Returns ``node``."""
    parts = runs(content, units, names)
    kept = sum(1 for _, kind in parts if kind)
    if node.textContent == content and node.childElementCount == kept:
        return node
    if not kept:
        node.textContent = content
        return node
    nodes = []
    for run, kind in parts:
        if kind:
            span = document.createElement("span")
            span.className = "long-name" if kind == "name" else "nb"
            span.textContent = run
            if kind == "size":  # "4 × 4" one left-to-right run (an isolate) in any text
                span.dir = "ltr"
            if kind == "name":
                span.title = run
            nodes.append(span)
        else:
            nodes.append(document.createTextNode(run))
    node.replaceChildren(*nodes)
    return node
