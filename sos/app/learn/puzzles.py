"""The puzzles as the app plays them, with no DOM: which puzzle is shown (daily, by id, the next
one), the attempt at it (:class:`sos.app.learn.puzzle_set.PuzzleRun`), the player's progress kept in
storage under its own key, and every text the puzzle panel shows, in the page's language.

A puzzle is not a library game: nothing here reads or writes a game key (``sos-g:<id>``), so
opening, solving or failing a puzzle never changes, prunes or replaces the user's games.

Progress (``sos-puzzles``, JSON, version 1)::

    {"v": 1, "results": {"<puzzle id>": "solved" | "failed"}, "days": {"2026-12-01": "solved"}}

``results``: the last outcome of each puzzle tried ("failed" when a wrong move was tried first);
``days``: the first outcome of the daily puzzle of each date. The daily streak counts the days
in a row, back from today (or from yesterday while today's is not solved), whose daily puzzle was
solved. A refused or full storage does not stop the puzzles: :attr:`PuzzleSession.saved` turns
False and the panel says that progress is not being kept.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Final

from ...notation import Action, square_name
from ..game.view import player_name
from ..saving.library import StorageError, Store
from ..text.i18n import ntext, text
from .puzzle_set import (
    Puzzle,
    PuzzleRun,
    UnknownPuzzleError,
    Verdict,
    daily_index,
    final_margin,
    find_puzzle,
)
from .puzzle_why import why
from .rating import DIFFICULTIES, RATING_KEY, RatingBook, choose_near, history_chart

PUZZLES_KEY: Final = "sos-puzzles"
PROGRESS_VERSION: Final = 1
#: Days of daily results kept (older ones are dropped when saving).
KEEP_DAYS: Final = 400


@dataclass
class Progress:
    """Solved and failed puzzles and the daily results (see the module docstring)."""

    results: dict[str, str] = field(default_factory=dict)
    days: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, raw: str | None) -> Progress:
        """Read stored progress; anything unreadable counts as none (never raises)."""
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict) or data.get("v") != PROGRESS_VERSION:
            return cls()
        results, days = data.get("results"), data.get("days")
        ok = ("solved", "failed")
        return cls(
            {k: v for k, v in results.items() if isinstance(k, str) and v in ok}
            if isinstance(results, dict)
            else {},
            {k: v for k, v in days.items() if isinstance(k, str) and v in ok}
            if isinstance(days, dict)
            else {},
        )

    def dump(self) -> str:
        """JSON text of the progress (the last :data:`KEEP_DAYS` daily results)."""
        days = dict(sorted(self.days.items())[-KEEP_DAYS:])
        return json.dumps({"v": PROGRESS_VERSION, "results": self.results, "days": days},
                          separators=(",", ":"))

    def record(self, puzzle_id: str, solved: bool, day: date | None = None) -> None:
        """Note the outcome of a puzzle (and, for a daily puzzle, of ``day`` if not yet)."""
        outcome = "solved" if solved else "failed"
        self.results[puzzle_id] = outcome
        if day is not None:
            self.days.setdefault(day.isoformat(), outcome)

    def count(self, outcome: str) -> int:
        """How many puzzles have ``outcome`` (``solved`` or ``failed``)."""
        return sum(1 for v in self.results.values() if v == outcome)

    def streak(self, today: date) -> int:
        """Daily puzzles solved on consecutive days up to today (or up to yesterday while
        today's is not done yet)."""
        day = today if self.days.get(today.isoformat()) == "solved" else today - timedelta(1)
        count = 0
        while self.days.get(day.isoformat()) == "solved":
            count += 1
            day -= timedelta(1)
        return count


class PuzzleSession:
    """The puzzle panel's state for one tab.

    Args:
        puzzles: the puzzle set (:func:`sos.app.learn.puzzle_set.parse_puzzles`).
        store: the page's storage, or None where the browser refuses it.
        lang: a callable giving the page's language (it may change while the panel is open).
        clock: milliseconds since the Unix epoch (the rating history's times); default 0.

    The puzzle rating (:mod:`sos.app.learn.rating`) is kept under its own key
    (:data:`sos.app.learn.rating.RATING_KEY`); :attr:`difficulty` (a key of
    :data:`sos.app.learn.rating.DIFFICULTIES`) moves the puzzles :meth:`open_next` offers above or
    below the player's rating.
    """

    def __init__(
        self,
        puzzles: tuple[Puzzle, ...],
        store: Store | None,
        lang: Callable[[], str],
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.puzzles = puzzles
        self.store = store
        self._lang = lang
        self._clock = clock or (lambda: 0.0)
        self.progress = Progress.load(self._get(PUZZLES_KEY))
        self.rating = RatingBook.load(self._get(RATING_KEY))
        #: The rating change of the last rated result (0 before one, or for a replay).
        self.change = 0
        #: False once a write was refused (storage full or blocked): progress lives in memory.
        self.saved = store is not None
        self.run: PuzzleRun | None = None
        self.daily: date | None = None  # the date, when the puzzle shown is that day's
        self.daily_done = False  # it was solved that day before it was opened
        self.last: Verdict | None = None
        #: The solution shown after a miss (:meth:`show_solution`): its moves, from the step
        #: that was to find; empty while not shown.
        self.solution: tuple[Action, ...] = ()
        self._recorded = False

    def reload(self) -> None:
        """Read the progress and rating from storage again (after an import merged them)."""
        self.progress = Progress.load(self._get(PUZZLES_KEY))
        self.rating = RatingBook.load(self._get(RATING_KEY))

    def t(self, key: str, **values: object) -> str:
        """``key`` in the page's language."""
        return text(self._lang(), key, **values)

    # ------------------------------------------------------------------ choosing
    def open(self, wanted: str, today: date) -> None:
        """Show the puzzle ``wanted``: ``daily`` or a puzzle id.

        Raises:
            UnknownPuzzleError: no puzzle has that id (nothing changes).
        """
        puzzle = find_puzzle(self.puzzles, wanted, today)
        self._show(puzzle, today if wanted == "daily" else None)

    def _get(self, key: str) -> str | None:
        if self.store is None:
            return None
        try:
            return self.store.get(key)
        except Exception:  # a store that fails to read counts as empty
            return None

    @property
    def difficulty(self) -> str:
        """The difficulty chosen (a key of :data:`sos.app.learn.rating.DIFFICULTIES`)."""
        return self.rating.difficulty

    @difficulty.setter
    def difficulty(self, value: str) -> None:
        if value in DIFFICULTIES and value != self.rating.difficulty:
            self.rating.difficulty = value
            self._save_rating()

    def _save_rating(self) -> None:
        if self.store is None or self.rating.damaged:
            return
        try:
            self.store.set(RATING_KEY, self.rating.dump())
        except StorageError:
            self.saved = False

    def context(self) -> str:
        """The puzzle's game: "General: most SOSs wins · score 2–1" (the goal depends on it)."""
        assert self.run is not None
        state = self.run.state
        mode = self.t(f"settings.mode.{state.rules.mode}")
        return self.t("puzzles.context", mode=mode, scores="–".join(map(str, state.scores)))

    def target(self) -> float:
        """The rating the next puzzle is chosen near: the player's, moved by the difficulty."""
        return self.rating.rating.rating + DIFFICULTIES.get(self.difficulty, 0)

    def difficulty_text(self) -> str:
        """What the difficulty chosen does, said beside it: "Next puzzles are chosen near a
        rating of 1800 (yours: 1500)."."""
        return self.t("puzzles.difficulty.line", target=round(self.target()),
                      rating=round(self.rating.rating.rating))

    def solved_on(self, day: date) -> bool:
        """Whether the daily puzzle of ``day`` was solved (its first result that day)."""
        return self.progress.days.get(day.isoformat()) == "solved"

    def open_next(self) -> None:
        """Show the puzzle not yet tried (else not yet solved, else any other) whose rating is
        nearest :meth:`target`; among equals the next one after the one shown, in the set's
        order."""
        current = self.puzzles.index(self.run.puzzle) if self.run is not None else -1
        ratings = [p.rating for p in self.puzzles]
        results = self.progress.results
        for done in (("solved", "failed"), ("solved",), ()):
            skip = {i for i, p in enumerate(self.puzzles) if results.get(p.id) in done}
            skip.add(current)
            index = choose_near(self.target(), ratings, skip, current)
            if index is not None:
                self._show(self.puzzles[index], None)
                return
        self._show(self.puzzles[0], None)

    def _show(self, puzzle: Puzzle, day: date | None) -> None:
        self.run = PuzzleRun(puzzle)
        self.daily = day
        # "✓ solved today" in the title: decided when the puzzle opens, so that solving it
        # now changes no line above the board (the verdict says it)
        self.daily_done = day is not None and self.solved_on(day)
        self.last = None
        self.solution = ()
        self._recorded = False
        self.change = 0  # the last puzzle's "+64 points" is not this one's

    # ------------------------------------------------------------------ playing
    def attempt(self, action: Action) -> Verdict:
        """Try ``action``; the outcome is saved once the puzzle is solved or first failed.

        Raises:
            IllegalActionError: as :meth:`sos.app.learn.puzzle_set.PuzzleRun.attempt` (nothing
                changes).
            RuntimeError: when no puzzle is shown.
        """
        if self.run is None:
            raise RuntimeError("no puzzle is shown")
        verdict = self.run.attempt(action)
        self.last = verdict
        if verdict.kind == "wrong" and not self._recorded:
            self._record(False)
        elif verdict.kind == "solved" and not self.run.failed:
            self._record(True)
        return verdict

    def retry(self) -> None:
        """Take back the wrong move shown."""
        if self.run is not None:
            self.run.retry()
            self.last = None

    def can_show_solution(self) -> bool:
        """True when "Show the solution" is offered: after a miss, until the puzzle is solved
        or its solution shown."""
        return self.run is not None and self.run.can_reveal()

    def show_solution(self) -> None:
        """Show the solution (:meth:`sos.app.learn.puzzle_set.PuzzleRun.reveal`); the puzzle
        stays failed (it was recorded so at the miss). Does nothing unless
        :meth:`can_show_solution`."""
        if self.run is None or not self.run.can_reveal():
            return
        self.solution = self.run.reveal()
        self.last = None

    def solution_text(self) -> str:
        """The solution shown, in words: "The solution: S@c3, Player 2 answers O@d4, S@e5."
        then why it is the move (:meth:`reasons`); ``""`` while none is shown."""
        if not self.solution or self.run is None:
            return ""
        run, lang = self.run, self._lang()
        state = run.state.clone()
        for _ in self.solution:
            state.undo()
        parts = []
        for action in self.solution:
            if state.current_player() == run.player:
                parts.append(_move(action))
            else:
                parts.append(self.t("puzzles.solution.answer", reply=_move(action),
                                    name=player_name(lang, state.current_player())))
            state.apply(action)
        line = self.t("puzzles.solution", moves=", ".join(parts))
        return " ".join([line, *self.reasons()])

    def _record(self, solved: bool) -> None:
        assert self.run is not None
        self._recorded = True
        puzzle = self.run.puzzle
        self.progress.record(puzzle.id, solved, self.daily)
        self.change = self.rating.record(puzzle.id, puzzle.rating, solved, self._clock())
        if self.store is None:
            return
        try:
            self.store.set(PUZZLES_KEY, self.progress.dump())
            if not self.rating.damaged:  # never over a stored rating it could not read
                self.store.set(RATING_KEY, self.rating.dump())
        except StorageError:
            self.saved = False
        else:
            self.saved = True

    def rating_text(self, short: bool = False) -> str:
        """"Puzzle rating: 1532" ("1532?" and a note while provisional), with the last
        change ("+64 points") after a rated result. ``short``: without the provisional note
        ("Puzzle rating: 1532?"), for a line with little room (the page keeps the whole text
        as the element's title)."""
        book = self.rating
        rating = round(book.rating.rating)
        if book.rating.provisional:
            key = "rating.provisional_short" if short else "rating.provisional"
        else:
            key = "rating.value"
        line = self.t(key, rating=rating)
        if self.rating.damaged:
            line += " · " + self.t("puzzles.not_saved")
        if self.change:
            line += " · " + ntext(self._lang(), "rating.change", abs(self.change),
                                  change=f"{self.change:+d}")
        return line

    def rating_chart(self, width: int = 300, height: int = 80) -> tuple[str, str]:
        """The rating history chart: (SVG polyline points, its text description)."""
        chart = history_chart(self.rating.history, width, height)
        return chart.points, self.t("rating.history", low=chart.low, high=chart.high)

    # ------------------------------------------------------------------ texts
    def title(self) -> str:
        """``Daily puzzle · 2026-12-01`` or ``Puzzle 17``, with the difficulty."""
        assert self.run is not None
        puzzle = self.run.puzzle
        stars = self.t("puzzles.rating", rating=puzzle.rating)
        if self.daily is not None:
            title = f"{self.t('puzzles.daily_title', date=self.daily.isoformat())} · {stars}"
            return f"{title} · {self.t('puzzles.daily.solved')}" if self.daily_done else title
        return f"{self.t('puzzles.numbered', number=self.number(puzzle))} · {stars}"

    def number(self, puzzle: Puzzle) -> int:
        """The puzzle's number, from 1, in the order of the set (its name in the page; the id
        stays the ``?puzzle=`` value)."""
        return self.puzzles.index(puzzle) + 1

    def prompt(self) -> str:
        """What to find, for whom: "Player 1 to move: find the move that wins." (and, for a
        longer puzzle not solved yet, how many moves it has and which one is to find now)."""
        assert self.run is not None
        run = self.run
        name = player_name(self._lang(), run.player)
        line = self.t(f"puzzles.goal.{run.puzzle.goal}", name=name)
        if run.steps > 1 and not run.solved:
            line += " " + self.t("puzzles.steps", step=run.step + 1, steps=run.steps)
        return line

    def feedback(self) -> str:
        """What the last attempt earned: right (and the reply played), solved, or wrong and
        why (the refutation played on the board); once the solution is shown, the solution and
        why (:meth:`solution_text`)."""
        verdict, run = self.last, self.run
        if self.solution:
            return self.solution_text()
        if verdict is None or run is None:
            return ""
        lang = self._lang()
        move = _move(verdict.action)
        if verdict.kind == "solved":
            solved = self.t("puzzles.solved" if not run.failed else "puzzles.solved.after",
                            action=move)
            return " ".join([solved, *self.reasons()])
        if verdict.kind == "right" and not verdict.replies:  # it scored: the player again
            return self.t("puzzles.right.again", action=move)
        if verdict.kind == "right":
            reply = ", ".join(_move(a) for a in verdict.replies)
            return self.t("puzzles.right", action=move, reply=reply,
                          name=player_name(lang, 1 - run.player))
        refutation = verdict.refutation
        assert refutation is not None
        outcome = self._outcome(refutation.value)
        if verdict.replies:
            return self.t("puzzles.wrong.reply", action=move, reply=_move(verdict.replies[0]),
                          outcome=outcome)
        return self.t("puzzles.wrong", action=move, outcome=outcome)

    def reasons(self) -> list[str]:
        """Why the solution is the move (:func:`sos.app.learn.puzzle_why.why`), in words: the SOSs
        the player's moves made, that the opponent is left no SOS to complete, and what the
        best other first move would have given."""
        assert self.run is not None
        run = self.run
        found = why(run.puzzle)
        lang = self._lang()
        out = []
        if found.made:
            out.append(ntext(lang, "puzzles.why.sos", found.made, count=found.made))
        if found.safe:
            out.append(self.t("puzzles.why.safe", name=player_name(lang, 1 - run.player)))
        if found.best_other is not None:
            out.append(self.t("puzzles.why.others", outcome=self._outcome(found.best_other, 0)))
        return out

    def _outcome(self, value: int, index: int | None = None) -> str:
        """The result of a wrong move worth ``value`` to the player at the step's position
        (``index``: at that many moves of the line instead, e.g. 0 for the first move)."""
        assert self.run is not None
        run = self.run
        if run.puzzle.rules.mode == "simple":
            return self.t("puzzles.outcome.simple_loss" if value < 0 else "puzzles.outcome.draw")
        at = run.puzzle.start()
        for action in run.puzzle.line[: self._line_index() if index is None else index]:
            at.apply(action)
        got = final_margin(at, run.player, value)
        best = final_margin(at, run.player, run.value_now() if index is None else
                            run.puzzle.value)
        if got > 0:
            return self.t("puzzles.outcome.less", points=got, best=best)
        if got == 0:
            return self.t("puzzles.outcome.draw")
        return self.t("puzzles.outcome.loss", points=-got)

    def _line_index(self) -> int:
        assert self.run is not None
        return self.run._at

    def stats(self, today: date) -> str:
        """``Solved 3 · Failed 1 · Daily streak 2`` (and a note when progress is not kept)."""
        line = self.t(
            "puzzles.stats",
            solved=self.progress.count("solved"),
            failed=self.progress.count("failed"),
            streak=self.progress.streak(today),
        )
        if not self.saved:
            line += " · " + self.t("puzzles.not_saved")
        return line

    def daily_number(self, today: date) -> int:
        """Index of today's puzzle in the set (for tests and the page)."""
        return daily_index(today, len(self.puzzles))


def _move(action: Action) -> str:
    return f"{action.letter}@{square_name(action.row, action.col)}"


def calendar_day(year: int, month: int, day: int) -> date | None:
    """The device's calendar date as a :class:`~datetime.date` (the daily puzzle's day), or
    None where the clock gives a date Python cannot represent (before year 1 or after 9999, e.g.
    a clock set to the year 10 000): the page then says that the date is unusable, and the
    other puzzles work."""
    try:
        return date(year, month, day)
    except (ValueError, OverflowError):
        return None


def date_text(year: int, month: int, day: int) -> str:
    """A date as ``YYYY-MM-DD`` for any year (the message about an unusable date)."""
    return f"{year:04d}-{month:02d}-{day:02d}"


__all__ = [
    "PUZZLES_KEY",
    "Progress",
    "PuzzleSession",
    "UnknownPuzzleError",
    "calendar_day",
    "date_text",
]
