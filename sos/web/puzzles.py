"""The puzzle panel (``[data-testid=puzzles]`` opens it; ``?puzzle=daily`` / ``?puzzle=<id>``
opens it at start): a dialog with its own board, rendered from the pure
:class:`sos.app.learn.puzzles.PuzzleSession`. It decides nothing: attempts, verdicts, texts and the
stored progress are the session's.

The puzzle set (``static/puzzles/puzzles-v1.json``) is fetched the first time the panel opens,
not at start-up; the service worker precaches it like every file of the site, so puzzles work
offline. The game shown in the page is never touched: a puzzle is not a library game.
"""

from __future__ import annotations

import asyncio
from datetime import date
from typing import TYPE_CHECKING, Any

from pyscript import document, window

from sos.app.learn.puzzle_set import (
    DATA_PATH,
    PuzzleFormatError,
    UnknownPuzzleError,
    parse_puzzles_steps,
)
from sos.app.learn.puzzles import calendar_day, date_text
from sos.app.text.message import Message, message

if TYPE_CHECKING:
    from sos.app.learn.puzzles import PuzzleSession
from sos.app.game.view import view_model
from sos.notation import Action
from sos.state import GameState, IllegalActionError
from sos.web import guard
from sos.web.dom import by_id, element
from sos.web.guard import spawn
from sos.web.render import BoardIds, BoardView, render_notices

if TYPE_CHECKING:
    from sos.app.app import AppSession
    from sos.web.host import Host

#: The puzzle dialog's board (drawn by the game board's :class:`~sos.web.render.BoardView`).
PUZZLE_BOARD = BoardIds("puzzle-board", "puzzle-wrap", "puzzle-marks", "puzzle-cols", "puzzle-rows")
#: Pause before the board shows a reply (the refutation or the forced answer), in seconds.
REPLY_DELAY = 0.6


def _clock() -> tuple[int, int, int]:
    now = window.Date.new()
    return int(now.getFullYear()), int(now.getMonth()) + 1, int(now.getDate())


def today() -> date | None:
    """The browser's local calendar date (the daily puzzle's day), or None when the clock
    gives one that cannot be used (:func:`sos.app.learn.puzzles.calendar_day`)."""
    return calendar_day(*_clock())


class PuzzlePanel:
    """The puzzle dialog of the page (made by ``Panels.open_puzzles`` on first use)."""

    def __init__(self, app: AppSession, host: Host) -> None:
        self.app = app
        self.host = host
        self.session: PuzzleSession | None = None
        self.board = BoardView(PUZZLE_BOARD, roving=False)
        self.busy = False  # a reply is being played back: the board waits
        self._load: Any = None

    def listen(self) -> None:
        on = self.host.on
        on(by_id("puzzle-board"), "click", self.on_board_click)
        on(by_id("puzzle-dialog"), "keydown", self.on_key)
        on(by_id("puzzle-retry"), "click", lambda _e: self.retry())
        on(by_id("puzzle-solution"), "click", lambda _e: self.show_solution())
        on(by_id("puzzle-next"), "click", lambda _e: self._choose(None))
        on(by_id("puzzle-daily"), "click", lambda _e: self._choose("daily"))
        on(by_id("puzzle-difficulty"), "change", self.on_difficulty)

    def on_difficulty(self, event: Any) -> None:
        """A difficulty chosen: kept, and used for the next puzzle offered."""
        if self.session is not None:
            self.session.difficulty = str(event.target.value)
            by_id("puzzle-difficulty-line").textContent = self.session.difficulty_text()

    # ------------------------------------------------------------------ loading
    async def _session(self) -> PuzzleSession | None:
        """The session, after fetching the puzzle set once; None (and a notice) on failure."""
        if self.session is not None:
            return self.session
        if self._load is None:
            self._load = guard.future(self._fetch())
        text = await self._load
        app = self.app
        try:
            if text is None:
                raise PuzzleFormatError(app.t("puzzles.fetch_failed"))
            steps = parse_puzzles_steps(text)
            while True:  # in slices: the page stays responsive while the set is read
                try:
                    next(steps)
                except StopIteration as stop:
                    puzzles = stop.value
                    break
                await asyncio.sleep(0)
        except PuzzleFormatError as error:
            self._load = None  # try again next time
            self._notice(message("puzzles.load_failed", reason=str(error)))
            return None
        session = app.puzzle_session(puzzles)
        self.session = self.session or session  # (two callers may have awaited the fetch)
        return self.session

    async def _fetch(self) -> str | None:
        try:
            response = await window.fetch("./" + DATA_PATH)
            if not response.ok:
                return None
            return str(await response.text())
        except Exception:  # a JsException: offline without the service worker
            return None

    def _notice(self, notice: Message) -> None:
        self.app.notices.append(notice)
        render_notices(self.app)

    # ------------------------------------------------------------------ showing
    async def show(self, wanted: str | None) -> None:
        """Open the panel on puzzle ``wanted`` (``daily``, an id, or None: the next one not
        solved). An unknown id gets a notice in the page's language and changes nothing."""
        by_id("puzzles-button").disabled = True
        try:
            session = await self._session()
        finally:
            by_id("puzzles-button").disabled = False
        if session is None:
            return
        if not self._choose(wanted):
            return
        dialog = by_id("puzzle-dialog")
        if not dialog.open:
            dialog.showModal()

    def _choose(self, wanted: str | None) -> bool:
        session = self.session
        if session is None or self.busy:
            return False
        day = today()
        try:
            if wanted == "daily" and day is None:
                self._notice(message("puzzles.bad_date", date=date_text(*_clock())))
                return False
            if wanted is not None:
                session.open(wanted, day or date.min)
            else:
                session.open_next()
        except UnknownPuzzleError:
            self._notice(message("puzzles.unknown", id=(wanted or "")[:40]))
            return False
        self.render()
        return True

    # ------------------------------------------------------------------ playing
    def on_board_click(self, event: Any) -> None:
        button = event.target.closest("button.cell")
        if button:
            self.play(int(button.dataset.row), int(button.dataset.col))

    def on_key(self, event: Any) -> None:
        key = str(event.key).upper()
        if key not in ("S", "O") or event.ctrlKey or event.metaKey or event.altKey:
            return
        self.host.select_letter(key)
        target = event.target
        if target and target.classList and target.classList.contains("cell"):
            self.play(int(target.dataset.row), int(target.dataset.col))
        event.preventDefault()

    def play(self, row: int, col: int) -> None:
        session = self.session
        if session is None or session.run is None or self.busy or not session.run.can_play():
            return
        try:
            verdict = session.attempt(Action(row, col, self.app.prefs.letter))
        except IllegalActionError:
            return  # a written square
        if verdict.replies:
            self.busy = True
            shown = session.run.state.clone()
            for _ in verdict.replies:
                shown.undo()
            self.render(shown, feedback=False)
            spawn(self._after_reply())
        else:
            self.render()
            if verdict.kind == "solved":
                by_id("puzzle-next").focus()

    async def _after_reply(self) -> None:
        await asyncio.sleep(REPLY_DELAY)
        self.busy = False
        self.render()
        session = self.session
        if session is not None and session.last is not None and session.last.kind == "wrong":
            by_id("puzzle-retry").focus()

    def retry(self) -> None:
        if self.session is not None and not self.busy:
            self.session.retry()
            self.render()

    def show_solution(self) -> None:
        """"Show the solution" (after a miss): the session plays it out; then Next is next."""
        if self.session is not None and not self.busy:
            self.session.show_solution()
            self.render()
            by_id("puzzle-next").focus()

    # ------------------------------------------------------------------ rendering
    def render(self, state: GameState | None = None, feedback: bool = True) -> None:
        """Show the puzzle: ``state`` (default the attempt's position) on the board, the
        title, the prompt, the verdict (unless ``feedback`` is False: a reply is coming) and
        the buttons."""
        session = self.session
        if session is None or session.run is None:
            return
        run, lang = session.run, self.app.lang
        state = state or run.state
        rules = state.rules
        if self.board.rules != rules:
            self.board.build(rules)
        vm = view_model(state, lang)
        board = by_id(PUZZLE_BOARD.board)
        board.setAttribute("aria-label", session.t("puzzles.board", rows=rules.rows,
                                                    cols=rules.cols))
        # While a reply plays back the board waits, marked busy like the game's board.
        board.classList.toggle("thinking", self.busy)
        if self.busy:
            board.setAttribute("aria-busy", "true")
        else:
            board.removeAttribute("aria-busy")
        self.board.show(vm.cells, self.busy or not run.can_play())
        self.board.show_marks(vm.lines)
        by_id("puzzle-title").textContent = session.title()
        by_id("puzzle-prompt").textContent = session.prompt()
        out = by_id("puzzle-feedback")
        kind = session.last.kind if session.last is not None and feedback else ""
        out.textContent = session.feedback() if feedback else ""
        out.dataset.kind = kind
        by_id("puzzle-retry").hidden = not (run.showing_wrong and not self.busy)
        by_id("puzzle-solution").hidden = self.busy or not session.can_show_solution()
        day = today()
        by_id("puzzle-daily").hidden = day is not None and session.daily == day
        solved = day is not None and session.solved_on(day)  # "Daily puzzle ✓"
        by_id("puzzle-daily").textContent = session.t("puzzles.daily") + (" ✓" if solved else "")
        by_id("puzzle-daily").title = session.t("puzzles.daily.solved") if solved else ""
        by_id("puzzle-difficulty-line").textContent = session.difficulty_text()
        by_id("puzzle-stats").textContent = session.stats(day or date.max)
        by_id("puzzle-context").textContent = session.context()
        rating = by_id("puzzle-rating")
        rating.title = full = session.rating_text()  # title: whole where the short one shows
        rating.replaceChildren(  # CSS shows one: the short one in a short frame
            element("span", "rating-full", full),
            element("span", "rating-short", session.rating_text(short=True)),
        )
        rating.lastChild.setAttribute("aria-hidden", "true")  # screen readers read the whole
        by_id("puzzle-difficulty").value = session.difficulty
        document.getElementById("puzzle-dialog").dataset.puzzle = run.puzzle.id
