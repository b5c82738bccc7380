"""Computer seats and hints in the page: the searches that :mod:`sos.app.game.computer` gives
(which agent plays which seat, whether the opening book is needed) stepped on the main thread
in slices of at most :data:`SLICE_SECONDS`, yielding to the browser in between, and the book
fetched when the app says so.

A PyScript worker was not used: it would boot a second Pyodide (seconds and tens of MB) on
every page with a computer seat. A move or hint computed for a game version that has changed
meanwhile (undo, new game, another tab) is dropped.
"""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, TypeVar

from pyscript import window

from sos.app.game.computer import (
    BOOK_URL,
    TURN_PAUSE,
    ComputerSeats,
    SearchCutOff,
    book_covers,
    book_needed,
    book_path,
    hint_steps,
    load_ai,
    overrun_after,
    quick_move,
    search_limit,
    turn_steps,
    worth_skipping,
)
from sos.app.game.session import GameSession
from sos.rules import Rules
from sos.web.guard import future, spawn

if TYPE_CHECKING:
    from sos.app.game.computer import Analysis

#: Longest stretch of search work between two returns to the browser (seconds).
SLICE_SECONDS = 0.02
#: Visible pause before a computer's turn; the moves of a chain follow faster
#: (:func:`sos.app.game.computer.turn_steps`). Tests set it to 0: no pause at all.
COMPUTER_PAUSE = TURN_PAUSE

T = TypeVar("T")

_book_task: Any = None  # the opening book's download (one per page)


class Computer:
    """Plays the computer seats of the game shown and computes hints.

    Args:
        current: returns the game shown (it changes when another game is opened).
        played: called with the game after a computer action was applied to it, and the
            :class:`SearchCutOff` that made it a quick move (with a turn's first move; else
            None).
        thinking: called with True/False when a search starts/ends (to render).
    """

    def __init__(
        self,
        current: Callable[[], GameSession],
        played: Callable[[GameSession, SearchCutOff | None], None],
        thinking: Callable[[bool], None],
    ) -> None:
        self.current = current
        self.played = played
        self.set_thinking = thinking
        self.thinking = False
        #: Skip ahead (issue 26): the run plays on without the visible pause and the page
        #: renders once at its end (set by :meth:`skip`, cleared when the run ends).
        self.skipping = False
        #: Computer moves played in the current run.
        self.run_moves = 0
        #: The running search has overrun its expected time: Skip is offered and cuts it off.
        self.overran = False
        self.seats = ComputerSeats(lambda: random.SystemRandom().randrange(2**32))
        self._task: Any = None

    def running(self) -> bool:
        """True while computer seats are playing (a run of their turns is under way)."""
        return self._task is not None and not self._task.done()

    def long_run(self) -> bool:
        """True while a run of computer moves is under way that is worth skipping: two or more
        computer seats, or one computer on a chain of extra turns (:func:`worth_skipping`), or
        a search that has overrun (Skip then stops it: a quick move is played instead)."""
        return self.running() and (
            self.overran or worth_skipping(self.current().seats, self.run_moves)
        )

    def skip(self) -> bool:
        """Play the rest of the run at once (no pause between moves, one render at the end);
        False when no computer is playing."""
        if not self.running():
            return False
        self.skipping = True
        return True

    def _valid(self, game: GameSession, version: int) -> bool:
        return self.current() is game and game.version == version

    def schedule(self) -> None:
        """Start the computer seats' turns if one is to move and none is running."""
        if self._task is not None and not self._task.done():
            return
        game = self.current()
        if game.computer_to_move() is None:
            return
        self._task = spawn(self._turns(game, game.version))

    async def _turns(self, game: GameSession, version: int) -> None:
        self.run_moves = 0
        try:
            await self._play(game, version)
        finally:
            self._task = None
            skipped, self.skipping = self.skipping, False
            moved, self.run_moves = self.run_moves, 0
            if self.thinking or skipped or moved:  # (a run that moved showed Skip: hide it)
                self.thinking = False
                self.set_thinking(False)
            if not self._valid(game, version):
                self.schedule()  # interrupted (undo, another game...): maybe play on anew

    async def _play(self, game: GameSession, version: int) -> None:
        while self._valid(game, version):
            seat = game.computer_to_move()
            if seat is None:
                return
            if not self.thinking:  # (while skipping it stays on: no render between moves)
                self.thinking = True
                self.set_thinking(True)
            # The computer thinks during the visible pause: a turn's first move appears
            # COMPUTER_PAUSE after the previous move, or when the search ends if later.
            shown_at = time.perf_counter() + COMPUTER_PAUSE
            level = self.seats.level(game, seat)
            if book_needed(game.rules, level):
                await fetch_book(game.rules)
                if not self._valid(game, version):
                    return
            valid = functools.partial(self._valid, game, version)
            cut_off: SearchCutOff | None = None
            try:
                turn = await run_sliced(
                    self.seats.plan_turn(game, seat), valid, search_limit(game.rules, level),
                    self._overrun_check(overrun_after(game.rules, level)),
                )
            except SearchCutOff as cut:  # it never answered: a quick move, and the game goes on
                window.console.warn(f"SOS: the {level} search was cut off ({cut}); a quick move")
                turn, cut_off = (quick_move(game),), cut
            finally:
                self.overran = False
            if turn is None or not self._valid(game, version):
                return
            moves = iter(turn)  # one turn: a chain of SOSs, then a move; shown in steps
            for count, pause in turn_steps(len(turn), COMPUTER_PAUSE):
                if not self.skipping:
                    await asyncio.sleep(max(0.0, shown_at - time.perf_counter()))
                if not self._valid(game, version):
                    return
                for _ in range(count):
                    game.play(next(moves))
                version = game.version
                self.run_moves += count
                if not self.skipping:
                    self.thinking = False
                self.played(game, cut_off)
                cut_off = None  # (said with the turn's first move)
                await asyncio.sleep(0)  # what follows in a task of its own (docs/performance.md)
                shown_at = time.perf_counter() + pause

    def _overrun_check(self, after: float) -> Callable[[float], bool]:
        """What :func:`run_sliced` asks after each slice (``seconds`` of search so far): True
        to cut the search off, when it has overrun (``after`` seconds: Skip is offered, by a
        render) and the player chose Skip."""

        def cut(seconds: float) -> bool:
            if seconds >= after and not self.overran:
                self.overran = True
                self.set_thinking(True)  # renders Skip (long_run)
            return self.overran and self.skipping

        return cut

    async def hint(self, game: GameSession) -> Analysis | None:
        """The analysis of the position (:func:`sos.app.game.computer.hint_steps`: best action,
        value, whether the value or only the result is proven), or None when the game changed
        meanwhile."""
        version = game.version
        if book_needed(game.rules, None):
            await fetch_book(game.rules)
        analysis = await run_sliced(hint_steps(game), lambda: self._valid(game, version))
        if analysis is None or analysis.action is None or not self._valid(game, version):
            return None
        return analysis


async def run_sliced(
    gen: Generator[None, None, T],
    valid: Callable[[], bool],
    limit: float | None = None,
    cut: Callable[[float], bool] | None = None,
) -> T | None:
    """Step ``gen`` in slices of at most SLICE_SECONDS, each in a browser task of its own
    (the first too: not after a render); None (and ``gen`` closed) once ``valid()`` is false.

    Raises:
        SearchCutOff: (``gen`` closed) after ``limit`` seconds of its steps (``budget``),
            or when ``cut(seconds so far)`` says so after a slice (not ``budget``).
    """
    spent = 0.0
    while True:
        await asyncio.sleep(0)
        if not valid():
            gen.close()
            return None
        if limit is not None and spent >= limit:
            gen.close()
            raise SearchCutOff(budget=True)
        if cut is not None and cut(spent):
            gen.close()
            raise SearchCutOff(budget=False)
        start = time.perf_counter()
        deadline = start + SLICE_SECONDS
        try:
            while time.perf_counter() < deadline:
                next(gen)
        except StopIteration as stop:
            result: T = stop.value
            return result
        finally:
            spent += time.perf_counter() - start


async def fetch_book(rules: Rules) -> None:
    """Put the solver's opening book into the file system when the app says a search under
    ``rules`` reads it (:func:`sos.app.game.computer.book_covers`), fetched once per page from
    :data:`sos.app.game.computer.BOOK_URL` (our origin; the service worker has it precached). When
    that fails the solver searches without it (slower, still exact)."""
    global _book_task
    if not book_covers(rules):
        return
    if _book_task is None:  # one download per page, however many callers wait for it
        _book_task = future(_download_book())
    await _book_task


async def _download_book() -> None:
    try:
        response = await window.fetch(BOOK_URL)
        if not response.ok:
            return
        body = str(await response.text())
    except Exception:  # a JsException (offline without the service worker): no book
        return
    with open(book_path(), "w", encoding="ascii") as handle:
        handle.write(body)


async def warm_up() -> None:
    """Import the AI once the page is ready, before a hint or a computer seat needs it.

    Compiling the search modules takes one long task (about 100 ms in Pyodide); done here, at
    idle time after start-up, it is neither on the start path of a game between people nor
    inside a computer move. (A game with computer seats imports it before ``data-ready``.)
    """
    await asyncio.sleep(0.05)
    load_ai()
