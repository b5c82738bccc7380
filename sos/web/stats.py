"""The Statistics dialog: your record against the computer (a table and a bar chart per level)
and the puzzle rating with its history chart. Renders :class:`sos.app.learn.stats.StatsBook`'s view
models; decides nothing (which games count, the reset and the rating are :mod:`sos.app`'s)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyscript import document

from sos.app.learn.stats import StatsBook, StatsView
from sos.app.text.i18n import text
from sos.web.dom import SVG_NS, by_id, element
from sos.web.store import with_lock


def _svg(tag: str, **attributes: object) -> Any:
    node = document.createElementNS(SVG_NS, tag)
    for name, value in attributes.items():
        node.setAttribute(name.replace("_", "-"), str(value))
    return node


class StatsPanel:
    """The Statistics dialog (``[data-testid=stats]`` opens it).

    Args:
        book: the record and rating reader.
        lang: returns the page's language.
        on: the page's event binder (``on(target, event, handler)``).
    """

    def __init__(
        self, book: StatsBook, lang: Callable[[], str], on: Callable[[Any, str, Any], None]
    ) -> None:
        self.book = book
        self.lang = lang
        on(by_id("stats-button"), "click", self.open)
        on(by_id("stats-reset"), "click", self.on_reset)
        on(by_id("stats-undo"), "click", self.on_undo)

    def open(self, _event: Any = None) -> None:
        """Fill the dialog and show it, scrolled to the top with the heading focused; fill it
        again under the library's lock, so that a save still waiting for the lock (the game
        just finished: a move's save lands a task later) is counted once it has landed."""
        by_id("stats-message").textContent = ""
        by_id("stats-undo").hidden = not self.book.can_undo()  # (until undone or replaced)
        self.render()
        with_lock(self._render_if_open)
        dialog = by_id("stats-dialog")
        if not dialog.open:
            dialog.showModal()
        dialog.scrollTop = 0
        by_id("stats-title").focus()

    def on_reset(self, _event: Any) -> None:
        ok = self.book.reset()
        self._said("stats.reset.done" if ok else "puzzles.not_saved", undo=ok)

    def on_undo(self, _event: Any) -> None:
        ok = self.book.undo_reset()
        self._said("stats.reset.undone" if ok else "puzzles.not_saved", undo=not ok)

    def _said(self, key: str, undo: bool) -> None:
        by_id("stats-message").textContent = text(self.lang(), key)
        by_id("stats-undo").hidden = not undo or not self.book.can_undo()
        self.render()

    def _render_if_open(self) -> None:
        if by_id("stats-dialog").open:
            self.render()

    def render(self) -> None:
        """Show the record and the rating in the page's language (also after a language
        change while the dialog is open)."""
        lang = self.lang()
        view = self.book.view(lang)
        by_id("stats-total").textContent = view.total if view.rows else view.empty
        by_id("stats-reset").hidden = not view.can_reset
        modes = by_id("stats-modes")  # each mode's record and winning streaks
        modes.replaceChildren(*[element("li", "", line) for line in view.modes])
        modes.hidden = not view.modes
        self._table(view)
        self._chart(view)
        rating = self.book.rating(lang)
        by_id("stats-rating").textContent = rating.text
        chart = by_id("rating-chart")
        chart.replaceChildren()
        chart.toggleAttribute("hidden", not rating.chart.points)  # an <svg> has no .hidden
        if rating.chart.points:
            c = rating.chart
            chart.setAttribute("viewBox", f"0 0 {c.width} {c.height}")
            chart.setAttribute("aria-label", rating.label)
            chart.append(
                _svg("line", x1=0, y1=c.height - 1, x2=c.width, y2=c.height - 1,
                     **{"class": "axis"}),
                _svg("polyline", points=c.points, **{"class": "rating-line"}),
            )
            if c.last is not None:
                chart.appendChild(
                    _svg("circle", cx=c.last[0], cy=c.last[1], r=3, **{"class": "rating-dot"})
                )
            for value, y in ((c.high, 10), (c.low, c.height - 4)):
                label = _svg("text", x=4, y=y, **{"class": "chart-label"})
                label.textContent = str(value)
                chart.appendChild(label)

    def _table(self, view: StatsView) -> None:
        table = by_id("stats-table")
        table.replaceChildren()
        table.hidden = not view.rows
        if not view.rows:
            return
        head = element("thead")
        row = element("tr")
        for column in view.columns:
            cell = element("th", "", column)
            cell.setAttribute("scope", "col")
            row.appendChild(cell)
        head.appendChild(row)
        body = element("tbody")
        for cells in view.rows:
            line = element("tr")
            line.dataset.testid = "stats-row"
            for index, value in enumerate(cells):
                cell = element("th" if index == 0 else "td", "", value)
                if index == 0:
                    cell.setAttribute("scope", "row")
                else:  # the column's name, shown beside the value where rows become lines
                    cell.dataset.label = view.columns[index]
                line.appendChild(cell)
            body.appendChild(line)
        table.append(head, body)

    def _chart(self, view: StatsView) -> None:
        svg = by_id("stats-chart")
        svg.replaceChildren()
        svg.toggleAttribute("hidden", not view.bars)  # an <svg> has no .hidden property
        legend = by_id("stats-legend")
        legend.replaceChildren()
        legend.hidden = not view.bars
        for result, label in view.legend:
            item = element("li", f"legend-{result}", label)
            item.dataset.outcome = result
            legend.appendChild(item)
        if not view.bars:
            return
        svg.setAttribute("viewBox", f"0 0 {view.width} {view.height}")
        svg.setAttribute("aria-label", text(self.lang(), "stats.chart"))
        for bar in view.bars:
            group = _svg("g", **{"class": "stats-bar"})
            title = _svg("title")
            title.textContent = bar.title
            label = _svg("text", x=0, y=bar.y + view.bar_height * 0.72, **{"class": "chart-label"})
            label.textContent = bar.label
            group.append(title, label)
            for result, x, width in bar.segments:
                if width > 0:
                    group.appendChild(_svg("rect", x=x, y=bar.y, width=width,
                                           height=view.bar_height, **{"class": f"seg {result}"}))
            svg.appendChild(group)
