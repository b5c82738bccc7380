"""Texts whose short units never break across lines (:mod:`sos.app.game.nobreak`): each score
("21–0") and seat name with its number ("Computer 2") in a ``span.nb`` (``white-space: nowrap``,
static/css/app.css). Text only: nothing is inserted as HTML."""

from __future__ import annotations

from typing import Any

from pyscript import document

from sos.app.game.nobreak import seat_names, segments

__all__ = ["seat_names", "set_text"]


def set_text(node: Any, content: str, units: tuple[str, ...] = ()) -> Any:
    """``node``'s text ``content``, with each score and each of ``units`` (:func:`seat_names`)
    in a ``span.nb``; untouched when it already shows that. Returns ``node``."""
    parts = segments(content, units)
    kept = sum(1 for _, whole in parts if whole)
    if node.textContent == content and node.childElementCount == kept:
        return node
    if not kept:
        node.textContent = content
        return node
    runs = []
    for run, whole in parts:
        if whole:
            span = document.createElement("span")
            span.className = "nb"
            span.textContent = run
            runs.append(span)
        else:
            runs.append(document.createTextNode(run))
    node.replaceChildren(*runs)
    return node
