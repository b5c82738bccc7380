"""The game review in the page (issue 14): the Review button, the review run in time slices
with a progress bar and Cancel, the verdicts in the move list, the best move on the board, the
evaluation graph and each player's summary. The judging is :mod:`sos.review`'s (pure); this
module only runs it, stores it in the game's record and draws it.

A finished review is kept in ``GameRecord.extra["review"]`` (:meth:`sos.review.GameReview.to_dict`),
tied to the line it reviewed: opening the review again shows it at once; a changed line is
reviewed anew.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pyscript import document

from sos.app.session import GameSession
from sos.state import replay
from sos.view import view_model
from sos.web.computer import SLICE_SECONDS, fetch_book, spawn
from sos.web.dom import SVG_NS, by_id, element, hide_result

if TYPE_CHECKING:
    from sos.review import GameReview, PlyReview

#: Key of the review in ``GameRecord.extra``.
EXTRA_KEY = "review"
#: Symbols of the verdicts in the move list and on the graph (with text for screen readers).
SYMBOLS = {"best": "★", "good": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
#: Most best actions marked on the board at once.
MAX_MARKS = 4
#: Graph geometry (viewBox units): width per move, height, margin above and below.
STEP, HEIGHT, PAD = 10, 100, 8


def line_text(line: Any) -> str:
    """The text form of a line of actions, as :meth:`GameReview.to_dict` stores it."""
    return " ".join(str(a) for a in line)


def stored_review(game: GameSession) -> GameReview | None:
    """The review kept with ``game`` if it covers exactly the game's line, else None."""
    from sos.review import GameReview
    from sos.state import new_game

    data = game.record.extra.get(EXTRA_KEY)
    if not isinstance(data, dict) or data.get("line") != line_text(game.line):
        return None
    return GameReview.from_dict(data, new_game(game.rules))


def _svg(tag: str, cls: str = "", **attrs: object) -> Any:
    node = document.createElementNS(SVG_NS, tag)
    if cls:
        node.setAttribute("class", cls)
    for name, value in attrs.items():
        node.setAttribute(name.replace("_", "-"), str(value))
    return node


class ReviewPanel:
    """The review of the game shown (``page`` is the running :class:`~sos.web.main.Page`)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.review: GameReview | None = None
        self.game: GameSession | None = None  # the game the panel belongs to
        self.running = False
        self.cancelled = False
        #: ``saved`` (read from the library) or ``computed`` (made now): data-source, for tests.
        self.source = ""
        self._marked: list[Any] = []
        self._graph_key: tuple[object, ...] | None = None
        self._dots: list[Any] = []
        self._summary_key: tuple[object, ...] | None = None

    def listen(self) -> None:
        """Attach the panel's event handlers."""
        on = self.page.on
        on(by_id("review-button"), "click", self.on_review)
        on(by_id("review-cancel"), "click", self.on_cancel)
        on(by_id("review-close"), "click", lambda _e: self.close())
        on(by_id("review-graph"), "click", self.on_graph_click)
        on(by_id("review-prev"), "click", lambda _e: self.go(-1))
        on(by_id("review-next"), "click", lambda _e: self.go(1))

    # ------------------------------------------------------------------ events
    def on_review(self, _event: Any) -> None:
        game = self.page.app.game
        if self.running or not game.line:
            return
        self.game = game
        by_id("review-panel").hidden = False
        hide_result()  # the board, not the game-over card, while reviewing
        document.documentElement.classList.add("reviewing")
        by_id("review-message").textContent = ""
        saved = stored_review(game)
        if saved is not None:
            self._show(saved, "saved")
            return
        spawn(self._run(game))

    def on_cancel(self, _event: Any) -> None:
        self.cancelled = True

    def on_graph_click(self, event: Any) -> None:
        target = event.target.closest("[data-ply]")
        if target:
            self.page.step(self.page.app.game.go_to(int(target.dataset.ply)))

    def go(self, delta: int) -> None:
        """Show the position after the previous (-1) or next (+1) reviewed move."""
        game = self.page.app.game
        if self.review is None:
            return
        last = self._matching(game)
        target = min(max(game.cursor + delta, 1), last)
        if last and target != game.cursor:
            self.page.step(game.go_to(target))

    def close(self) -> None:
        """Hide the panel (a running review is cancelled) and remove the verdicts."""
        self.cancelled = True
        self.review = None
        self.game = None
        self.source = ""
        by_id("review-panel").hidden = True
        by_id("review-panel").removeAttribute("data-source")
        document.documentElement.classList.remove("reviewing")
        self._clear_marks()
        by_id("move-list").replaceChildren()  # redrawn plain at the next render
        self._graph_key = self._summary_key = None
        self.page.refresh()

    # ------------------------------------------------------------------ the run
    async def _run(self, game: GameSession) -> None:
        from sos.review import Progress, review_steps

        self.running, self.cancelled, self.review, self.source = True, False, None, ""
        by_id("review-result").hidden = True
        by_id("review-run").hidden = False
        by_id("review-panel").removeAttribute("data-source")
        self.render()
        progress = Progress(0, len(game.line) + 1)
        self._progress(progress.done, progress.total)
        result: GameReview | None = None
        try:
            await fetch_book(game)
            gen = review_steps(replay(game.rules, game.line), progress)
            while result is None:
                deadline = time.perf_counter() + SLICE_SECONDS
                try:
                    while time.perf_counter() < deadline:
                        next(gen)
                except StopIteration as stop:
                    result = stop.value
                    break
                self._progress(progress.done, progress.total)
                await asyncio.sleep(0)
                if self.cancelled or self.page.app.game is not game:
                    gen.close()
                    break
        finally:
            self.running = False
            by_id("review-run").hidden = True
        if result is None:
            if self.game is game:
                by_id("review-message").textContent = self.page.app.t("review.cancelled")
            self.render()
            return
        # Kept with the game (tied to the line reviewed), so it is not made again.
        game.record = replace(
            game.record, extra={**game.record.extra, EXTRA_KEY: result.to_dict()}
        )
        self.page.app.commit()
        await asyncio.sleep(0)  # saving and drawing in two tasks (each well under 50 ms)
        if self.game is game and self.page.app.game is game:
            self._show(result, "computed")

    def _progress(self, done: int, total: int) -> None:
        bar = by_id("review-progress")
        bar.max = total
        bar.value = done
        by_id("review-run-text").textContent = self.page.app.t(
            "review.running", done=done, total=total
        )

    def _show(self, review: GameReview, source: str) -> None:
        self.review = review
        self.source = source
        by_id("review-panel").dataset.source = source
        by_id("review-result").hidden = False
        self._graph_key = self._summary_key = None
        self.page.refresh()

    # ------------------------------------------------------------------ drawing
    def _matching(self, game: GameSession) -> int:
        """How many of the game's moves the review covers (its line and the game's agree)."""
        if self.review is None:
            return 0
        n = 0
        for mine, theirs in zip(self.review.line, game.line, strict=False):
            if mine != theirs:
                break
            n += 1
        return n

    def render(self) -> None:
        """Draw the panel for the game shown (after every render of the page)."""
        app = self.page.app
        game = app.game
        by_id("review-button").disabled = not game.line or self.running
        if self.game is not None and self.game is not game:
            self.close()
            return
        if by_id("review-panel").hidden or self.review is None:
            self._clear_marks()
            return
        review, lang = self.review, app.lang
        matching = self._matching(game)
        names = [p.name for p in view_model(game.state, lang, game.seats).players]
        self._render_summary(review, names)
        self._render_graph(review, matching, game.cursor, names)
        partial = matching < len(game.line)
        by_id("review-message").textContent = app.t("review.partial") if partial else ""
        selected = game.cursor - 1
        by_id("review-prev").disabled = game.cursor <= 1
        by_id("review-next").disabled = game.cursor >= matching
        self._clear_marks()
        if 0 <= selected < matching:
            ply = review.plies[selected]
            by_id("review-move").textContent = self._move_text(ply, names[ply.player])
            if ply.verdict != "best":  # (a best move is the move played, marked as the last)
                self._mark_best(ply)
        else:
            by_id("review-move").textContent = app.t("review.select")
        self._decorate(review, matching)

    def _render_summary(self, review: GameReview, names: list[str]) -> None:
        key = (id(review), tuple(names))
        if key == self._summary_key:
            return
        self._summary_key = key
        items = []
        for s in review.summary():
            item = element(
                "li",
                f"p{s.player}",
                self.page.app.t(
                    "review.summary",
                    name=names[s.player],
                    accuracy=f"{s.accuracy:g}",
                    inaccuracies=s.inaccuracies,
                    mistakes=s.mistakes,
                    blunders=s.blunders,
                ),
            )
            items.append(item)
        by_id("review-summary").replaceChildren(*items)

    def _render_graph(
        self, review: GameReview, matching: int, cursor: int, names: list[str]
    ) -> None:
        from sos.review import graph_points

        svg = by_id("review-graph")
        key = (id(review), matching, tuple(names))
        if key != self._graph_key:
            self._graph_key = key
            points = graph_points(review)[:matching]
            plies = review.plies[:matching]
            width = max(1, len(points)) * STEP
            scale = 1.0
            if review.mode == "general":
                scale = max([1.0, *(abs(v) for v, _ in points)])

            def y(value: float) -> float:
                half = HEIGHT / 2 - PAD
                return round(HEIGHT / 2 - max(-1.0, min(1.0, value / scale)) * half, 2)

            svg.setAttribute("viewBox", f"0 0 {width} {HEIGHT}")
            svg.setAttribute("preserveAspectRatio", "none")
            many = review.players > 2
            label = (
                self.page.app.t("review.graph.many")
                if many
                else self.page.app.t("review.graph", name=names[0])
            )
            svg.setAttribute("aria-label", label)
            nodes = [_svg("line", "axis", x1=0, y1=HEIGHT / 2, x2=width, y2=HEIGHT / 2)]
            previous: tuple[float, float, bool] | None = None
            dots = []
            for index, ((value, exact), ply) in enumerate(zip(points, plies, strict=True)):
                x, yy = index * STEP + STEP / 2, y(value)
                hit = _svg("rect", "hit", x=index * STEP, y=0, width=STEP, height=HEIGHT)
                hit.dataset.ply = str(index + 1)
                nodes.append(hit)
                if previous is not None:
                    px, py, pexact = previous
                    kind = "exact" if exact and pexact else "estimate"
                    nodes.append(_svg("line", f"seg {kind}", x1=px, y1=py, x2=x, y2=yy))
                previous = (x, yy, exact)
                dot = _svg(
                    "line",
                    f"pt {'exact' if exact else 'estimate'} v-{ply.verdict}",
                    x1=x, y1=yy, x2=x, y2=yy,
                )
                dot.dataset.ply = str(index + 1)
                dots.append(dot)
            svg.replaceChildren(*nodes, *dots)  # dots above the segments
            self._dots = dots
        for index, dot in enumerate(self._dots):
            dot.classList.toggle("sel", index == cursor - 1)

    def _value_text(self, value: float, exact: bool) -> str:
        assert self.review is not None
        t = self.page.app.t
        band = 0.0 if exact else 0.5
        kind = "win" if value > band else "loss" if value < -band else "draw"
        if self.review.mode == "simple":
            words = t(f"review.value.simple.{kind}")
        else:
            points = abs(value)
            shown = f"{points:g}" if exact else f"≈{points:.1f}"
            words = t(f"review.value.{kind}", points=shown)
        return f"{words} ({t('review.exact' if exact else 'review.estimate')})"

    def _move_text(self, ply: PlyReview, name: str) -> str:
        t = self.page.app.t
        verdict = t(f"review.verdict.{ply.verdict}")
        parts = [
            t("review.move", ply=ply.ply + 1, name=name, action=str(ply.action), verdict=verdict),
            t(
                "review.values",
                before=self._value_text(ply.value_before, ply.exact),
                after=self._value_text(ply.value_after, ply.exact),
            ),
        ]
        assert self.review is not None
        nt = self.page.app.nt
        if self.review.mode == "general" and ply.loss > 0:
            # A whole number of points picks its plural form; a fraction (an estimate) takes
            # the general form, which 100 selects in every catalog (Arabic "other" included).
            count = int(ply.loss) if ply.loss == int(ply.loss) else 100
            parts.append(nt("review.lost", count, points=f"{ply.loss:g}"))
        if ply.verdict != "best" and ply.best_actions:
            shown = ", ".join(str(a) for a in ply.best_actions[:MAX_MARKS])
            more = len(ply.best_actions) - MAX_MARKS
            if more > 0:
                parts.append(nt("review.best.more", more, actions=shown, more=more))
            else:
                parts.append(t("review.best", actions=shown))
            parts.append(t("review.best.marked"))
        return " ".join(parts)

    def _mark_best(self, ply: PlyReview) -> None:
        cells = self.page.board.cells
        letters: dict[tuple[int, int], str] = {}
        for action in ply.best_actions[:MAX_MARKS]:
            at = (action.row, action.col)
            letters[at] = letters[at] + "/" + action.letter if at in letters else action.letter
        for (row, col), shown in letters.items():
            if row < len(cells) and col < len(cells[row]):
                button = cells[row][col]
                button.classList.add("best")
                button.dataset.best = shown  # e.g. "S", or "S/O" when both letters keep it
                self._marked.append(button)

    def _clear_marks(self) -> None:
        for button in self._marked:
            button.classList.remove("best")
            button.removeAttribute("data-best")
        self._marked = []

    def _decorate(self, review: GameReview, matching: int) -> None:
        """The verdicts in the move list: a symbol and a colour (data-verdict), and the verdict
        in the button's accessible name."""
        t = self.page.app.t
        for button in document.querySelectorAll("#move-list button.ply"):
            index = int(button.dataset.ply) - 1
            verdict = review.plies[index].verdict if index < matching else ""
            if (button.getAttribute("data-verdict") or "") == verdict:
                continue
            old = button.querySelector(".verdict")
            if old:
                old.remove()
            if not verdict:
                button.removeAttribute("data-verdict")
                continue
            plain = t("moves.ply.label", action=str(review.line[index]))
            button.dataset.verdict = verdict
            mark = element("span", "verdict", SYMBOLS[verdict])
            mark.setAttribute("aria-hidden", "true")
            button.appendChild(mark)
            label = t("review.ply.label", label=plain, verdict=t(f"review.verdict.{verdict}"))
            button.setAttribute("aria-label", label)
