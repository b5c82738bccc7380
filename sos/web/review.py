"""The game review in the page (issue 14): the Review button, the review run in time slices
with a progress bar and Cancel, the verdicts in the move list (drawn as they come while the
review runs: :meth:`~sos.app.learn.review.ReviewRun.so_far`), the best move on the board, the
evaluation graph and each player's summary. The judging and what is shown are
:mod:`sos.app.learn.review`'s; this module runs the review in slices, stores it in the game's record
(``GameRecord.extra["review"]``, tied to the line it reviewed: shown at once when opened again;
a changed line is reviewed anew) and draws."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from pyscript import document

from sos.app.app import AppSession
from sos.app.game.computer import book_needed
from sos.app.game.session import GameSession
from sos.app.learn.review import (
    GraphView,
    exit_cursor,
    review_view,
    start_review,
    step_target,
    stored_review,
    with_review,
)
from sos.web.computer import SLICE_SECONDS, fetch_book
from sos.web.dom import by_id, element, hide_result
from sos.web.guard import spawn
from sos.web.host import Host
from sos.web.render import BoardView
from sos.web.review_graph import draw_graph

if TYPE_CHECKING:
    from sos.app.learn.review import GameReview, VerdictMark
    from sos.notation import Action

#: Verdicts found while the review runs are drawn at most this often (seconds), and at most
#: :data:`DRAW_SHARE` of the time goes to drawing them (a long game's panel takes longer).
DRAW_GAP, DRAW_SHARE = 0.25, 0.1


class ReviewPanel:
    """The review of the game shown (``app``: the tab's session; ``host``: the page)."""

    def __init__(self, app: AppSession, host: Host, board: BoardView) -> None:
        self.app = app
        self.host = host
        self.board = board  # the game's board: the best moves are marked on its squares
        self.review: GameReview | None = None
        self.game: GameSession | None = None  # the game the panel belongs to
        self.running = False
        self.cancelled = False
        #: ``saved`` (read from the library) or ``computed`` (made now): data-source, for tests.
        self.source = ""
        self._marked: list[Any] = []
        self._graph: GraphView | None = None
        self._dots: list[tuple[int, Any]] = []  # (ply from 1, its point on the graph)
        self._summary: tuple[str, ...] | None = None
        # (the cursor and line when the review opened; whether the result card was open)
        self._opened: tuple[int, tuple[Action, ...]] = (0, ())
        self._card_open = False

    def listen(self) -> None:
        """Attach the panel's event handlers."""
        on = self.host.on
        on(by_id("review-button"), "click", self.on_review)
        on(by_id("review-cancel"), "click", self.on_cancel)
        on(by_id("review-close"), "click", lambda _e: self.close())
        on(by_id("review-play"), "click", lambda _e: self.close(play_here=True))
        on(by_id("review-end"), "click", lambda _e: self.go_end())
        on(by_id("review-graph"), "click", self.on_graph_click)
        on(by_id("review-prev"), "click", lambda _e: self.go(-1))
        on(by_id("review-next"), "click", lambda _e: self.go(1))

    # ------------------------------------------------------------------ events
    def on_review(self, _event: Any) -> None:
        game = self.app.game
        if self.running or not game.line:
            return
        self.game, self._opened = game, (game.cursor, tuple(game.line))
        self._card_open = not (card := by_id("result")).hidden and not card.classList.contains(
            "folded")
        by_id("review-panel").hidden = False
        hide_result()  # the board, not the game-over card, while reviewing
        document.documentElement.classList.add("reviewing")
        by_id("review-message").textContent = ""
        saved = stored_review(game.record, game.line)
        if saved is not None:
            self._show(saved, "saved")
            return
        spawn(self._run(game))

    def on_cancel(self, _event: Any) -> None:
        self.cancelled = True

    def on_graph_click(self, event: Any) -> None:
        target = event.target.closest("[data-ply]")
        if target:
            self.host.step(self.app.game.go_to(int(target.dataset.ply)))

    def go(self, delta: int) -> None:
        """Show the position after the previous (-1) or next (+1) reviewed move."""
        game = self.app.game
        if self.review is None:
            return
        target = step_target(self.review, game.line, game.cursor, delta)
        if target is not None:
            self.host.step(game.go_to(target))

    def go_end(self) -> None:
        """"▶|": show the final position of the line of play."""
        if (game := self.app.game).cursor < len(game.line):
            self.host.step(game.go_to(len(game.line)))

    def close(self, play_here: bool = False) -> None:
        """Hide the panel (a running review is cancelled), remove the verdicts; back where the
        game stood at opening (:func:`~sos.app.learn.review.exit_cursor`) unless ``play_here``."""
        game = self.app.game
        back = None if play_here or self.game is not game else exit_cursor(
            self._opened, game.line, game.cursor)
        if back is not None:
            self.host.step(game.go_to(back))
        if self._card_open and not play_here:  # (as it was: the review folded it)
            by_id("result").classList.remove("folded")
        self.cancelled = True
        self.review = None
        self.game = None
        self.source = ""
        by_id("review-panel").hidden = True
        by_id("review-panel").removeAttribute("data-source")
        document.documentElement.classList.remove("reviewing")
        self._clear_marks()
        by_id("move-list").replaceChildren()  # redrawn plain at the next render
        self._graph = self._summary = None
        self.host.refresh()

    # ------------------------------------------------------------------ the run
    async def _run(self, game: GameSession) -> None:
        self.running, self.cancelled, self.review, self.source = True, False, None, ""
        by_id("review-result").hidden = True
        by_id("review-run").hidden = False
        by_id("review-panel").removeAttribute("data-source")
        self.render()
        run = start_review(game.rules, game.line)
        progress = run.progress
        self._progress(progress.done, progress.total)
        result: GameReview | None = None
        drawn, next_draw = 0, 0.0  # (moves judged when last drawn; when to draw again)
        try:
            if book_needed(game.rules, None):
                await fetch_book(game.rules)
            gen = run.steps
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
                if self.cancelled or self.app.game is not game:
                    gen.close()
                    break
                if run.judged != drawn and time.perf_counter() >= next_draw:
                    # The verdicts known so far, in a task of their own.
                    began, drawn = time.perf_counter(), run.judged
                    self.review = run.so_far()
                    by_id("review-result").hidden = False
                    self.render()
                    cost = time.perf_counter() - began
                    next_draw = began + max(DRAW_GAP, cost / DRAW_SHARE)
                    await asyncio.sleep(0)
        finally:
            self.running = False
            by_id("review-run").hidden = True
        if result is None:
            if self.game is game:  # (cancelled: the verdicts drawn so far go)
                self.review = None
                by_id("review-result").hidden = True
                self._decorate(())
                self._graph = self._summary = None
                by_id("review-message").textContent = self.app.t("review.cancelled")
            self.render()
            return
        # Kept with the game (tied to the line reviewed), so it is not made again.
        game.record = with_review(game.record, result)
        self.app.commit()
        await asyncio.sleep(0)  # saving and drawing in two tasks (each well under 50 ms)
        if self.game is game and self.app.game is game:
            self._show(result, "computed")

    def _progress(self, done: int, total: int) -> None:
        bar = by_id("review-progress")
        bar.max = total
        bar.value = done
        by_id("review-run-text").textContent = self.app.t(
            "review.running", done=done, total=total
        )

    def _show(self, review: GameReview, source: str) -> None:
        self.review = review
        self.source = source
        by_id("review-panel").dataset.source = source
        by_id("review-result").hidden = False
        self._graph = self._summary = None
        self.host.refresh()

    # ------------------------------------------------------------------ drawing
    def render(self) -> None:
        """Draw the panel for the game shown (after every render of the page)."""
        app = self.app
        game = app.game
        by_id("review-button").disabled = not game.line or self.running
        if self.game is not None and self.game is not game:
            self.close()
            return
        if by_id("review-panel").hidden or self.review is None:
            self._clear_marks()
            return
        view = review_view(  # (still running: the moves judged so far, no summary yet)
            app, app.lang, self.review, game.line, game.cursor, game.seats, not self.running
        )
        if view.summary != self._summary:
            self._summary = view.summary
            by_id("review-summary").replaceChildren(
                *[element("li", f"p{player}", line) for player, line in enumerate(view.summary)]
            )
        if view.graph != self._graph:
            self._graph = view.graph
            self._dots = draw_graph(by_id("review-graph"), view.graph)
        for ply, dot in self._dots:
            dot.classList.toggle("sel", ply == view.selected + 1)
        by_id("review-message").textContent = view.message
        by_id("review-prev").disabled = view.prev_disabled
        by_id("review-next").disabled = view.next_disabled
        by_id("review-end").disabled = by_id("review-play").hidden = view.at_end
        by_id("review-move").textContent = view.move
        self._clear_marks()
        self._mark_best(view.marks)
        self._decorate(view.verdicts)

    def _mark_best(self, marks: tuple[tuple[int, int, str], ...]) -> None:
        cells = self.board.cells
        for row, col, shown in marks:
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

    def _decorate(self, verdicts: tuple[VerdictMark, ...]) -> None:
        """The verdicts in the move list: a symbol and a colour (data-verdict), and the verdict
        in the button's accessible name (the moves not judged yet have none)."""
        marks = {mark.ply: mark for mark in verdicts}
        for button in document.querySelectorAll("#move-list button.ply"):
            mark = marks.get(int(button.dataset.ply))
            verdict = mark.verdict if mark is not None else ""
            if (button.getAttribute("data-verdict") or "") == verdict:
                continue
            old = button.querySelector(".verdict")
            if old:
                old.remove()
            if mark is None:
                button.removeAttribute("data-verdict")
                continue
            button.dataset.verdict = mark.verdict
            symbol = element("span", "verdict", mark.symbol)
            symbol.setAttribute("aria-hidden", "true")
            button.appendChild(symbol)
            button.setAttribute("aria-label", mark.label)
