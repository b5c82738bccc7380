"""Your record against the computer: wins, draws and losses per computer level, board size and
mode (general and simple apart), each mode's winning streaks, computed from the library of
games (so it survives reloads and follows deletes), and the view model of the "Statistics"
view with its bar chart as SVG data. Pure: no DOM.

Winning streaks (our choice, where the issue is silent): the games that count, in the order
they were started (``GameRecord.created``); the current streak is the wins since the last game
that was not a win, the best the longest run of wins. A draw ends a streak as a loss does.

Which games count, and with which result, is :mod:`sos.app.game.counted`'s: a game of the library
with exactly one human seat ("you") and at least one computer, counted with the result it ended
with (kept in the game when it ended: a later undo, review or variation does not change it).
Games by link (two people) and games among people only do not count.

Reset (``sos-stats``, JSON, version 1: ``{"v": 1, "since": <ms since the epoch>}``): games
created before ``since`` are left out. No game is deleted: they stay in "Your games". A reset
keeps what it replaced, ``"before": <the previous since, 0 for none>``, so that "Undo reset"
is offered whenever Statistics opens until it is used or another reset replaces it (a reader
without that field ignores it: the version stays 1).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from ...ai import LEVELS
from ...rules import MODES
from ..game.counted import RESULTS, counted_result
from ..game.view import capitalised
from ..saving.library import GameRecord, Library, StorageError
from ..text.i18n import ntext, percent, text
from .rating import KEEP_HISTORY, RATING_KEY, START_RATING, Chart, RatingBook, history_chart

STATS_KEY: Final = "sos-stats"
STATS_VERSION: Final = 1
_MODE_ORDER: Final[dict[str, int]] = {mode: index for index, mode in enumerate(MODES)}
#: SVG units left of the rating history for its labels ("1500": 4 digits of 11 units).
LABEL_ROOM: Final = 34


def read_since(raw: str | None) -> float:
    """The reset time stored under :data:`STATS_KEY` (0 when none or unreadable)."""
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        return 0.0
    since = data.get("since") if isinstance(data, dict) and data.get("v") == STATS_VERSION else 0
    return float(since) if isinstance(since, (int, float)) and not isinstance(since, bool) else 0.0


def dump_since(since: float, before: float | None = None) -> str:
    """The text stored under :data:`STATS_KEY` for a reset at ``since`` (ms); ``before``: the
    reset time it replaced (0 for none), kept for "Undo reset", or None for no undo."""
    data: dict[str, object] = {"v": STATS_VERSION, "since": since}
    if before is not None:
        data["before"] = before
    return json.dumps(data, separators=(",", ":"))


def read_before(raw: str | None) -> float | None:
    """The reset time that the stored reset replaced (0: none), or None when there is no
    reset to take back (none stored, already undone, or unreadable)."""
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("v") != STATS_VERSION:
        return None
    before = data.get("before")
    if isinstance(before, bool) or not isinstance(before, (int, float)):
        return None
    return float(before)


@dataclass(frozen=True)
class Tally:
    """Wins, draws and losses of one row (a level, or a level on one board size)."""

    level: str
    size: int  # 0 for every size together
    win: int = 0
    draw: int = 0
    loss: int = 0
    mode: str = ""  # "general" or "simple"; "" for both together

    @property
    def games(self) -> int:
        """Games counted."""
        return self.win + self.draw + self.loss

    @property
    def score(self) -> float:
        """Points share: (wins + half the draws) / games, 0 with no game."""
        return (self.win + 0.5 * self.draw) / self.games if self.games else 0.0


def _counted(
    records: Iterable[GameRecord], since: float
) -> list[tuple[float, str, int, str, str]]:
    """(created, level, size, mode, result) of each game that counts, created at or after
    ``since``, in the order the games were started."""
    found: list[tuple[float, str, int, str, str]] = []
    for record in records:
        if record.created < since:
            continue
        result = counted_result(record)
        if result is not None:
            level, size, outcome = result
            found.append((record.created, level, size, record.rules.mode, outcome))
    found.sort(key=lambda item: item[0])
    return found


def tally(records: Iterable[GameRecord], since: float = 0.0) -> list[Tally]:
    """One :class:`Tally` per (level, board size, mode) with at least one game, levels in
    order easy … perfect, sizes ascending, general before simple, for the games created at or
    after ``since`` (ms)."""
    counts: dict[tuple[str, int, str], dict[str, int]] = {}
    for _created, level, size, mode, result in _counted(records, since):
        row = counts.setdefault((level, size, mode), dict.fromkeys(RESULTS, 0))
        row[result] += 1
    return [
        Tally(level, size, row["win"], row["draw"], row["loss"], mode)
        for (level, size, mode), row in sorted(
            counts.items(),
            key=lambda kv: (LEVELS.index(kv[0][0]), kv[0][1], _MODE_ORDER[kv[0][2]]),
        )
    ]


@dataclass(frozen=True)
class Streak:
    """Winning streaks of one mode: ``current`` (wins since the last game that was not one)
    and ``best`` (the longest run of wins), with that mode's wins, draws and losses."""

    mode: str
    current: int
    best: int
    win: int
    draw: int
    loss: int


def streaks(records: Iterable[GameRecord], since: float = 0.0) -> list[Streak]:
    """One :class:`Streak` per mode with at least one counted game (general, then simple),
    over every level and board, for the games created at or after ``since`` (ms), in the
    order they were started."""
    found = _counted(records, since)
    shown = []
    for mode in MODES:
        results = [result for _c, _l, _s, m, result in found if m == mode]
        if not results:
            continue
        run = best = 0
        for result in results:
            run = run + 1 if result == "win" else 0
            best = max(best, run)
        shown.append(Streak(mode, run, best, results.count("win"), results.count("draw"),
                            results.count("loss")))
    return shown


def by_level(rows: Iterable[Tally]) -> list[Tally]:
    """The rows summed over board sizes, one per level (size 0)."""
    sums: dict[str, list[int]] = {}
    for row in rows:
        total = sums.setdefault(row.level, [0, 0, 0])
        total[0] += row.win
        total[1] += row.draw
        total[2] += row.loss
    return [
        Tally(level, 0, sums[level][0], sums[level][1], sums[level][2])
        for level in LEVELS if level in sums
    ]


def level_label(lang: str, level: str) -> str:
    """A level as the Statistics name it, as Settings and the level menu do: "Easy"."""
    return capitalised(lang, text(lang, f"level.{level}"))


def mode_label(lang: str, mode: str) -> str:
    """A mode as the Statistics name it: "General", "Simple"."""
    return capitalised(lang, text(lang, f"games.mode.{mode}"))


@dataclass(frozen=True)
class Bar:
    """One stacked bar of the chart: a row label and three segments (x, width) in SVG units,
    for wins, draws and losses; ``title`` is the row in words (the SVG ``<title>``)."""

    label: str
    y: float
    segments: tuple[tuple[str, float, float], ...]
    title: str


@dataclass(frozen=True)
class StatsView:
    """The "Statistics" view: ``rows`` (level, size, W, D, L, score %) as text cells, the
    chart's bars in a ``width`` × ``height`` box, its ``legend`` (one ``(result, label)`` per
    segment colour, in the bars' order: won, drawn, lost), and ``empty`` (the text shown with
    no game)."""

    heading: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    bars: tuple[Bar, ...]
    width: int
    height: int
    bar_height: int
    empty: str
    total: str
    legend: tuple[tuple[str, str], ...] = ()
    #: One line per mode played: its wins, draws, losses and winning streaks ("General: 3
    #: won, 1 drawn, 0 lost · winning streak 2, best 2").
    modes: tuple[str, ...] = ()

    @property
    def can_reset(self) -> bool:
        """Whether "Reset the record" is offered: only with something recorded."""
        return bool(self.rows)


def stats_view(
    lang: str,
    rows: list[Tally],
    width: int = 300,
    bar_height: int = 18,
    by_mode: Iterable[Streak] = (),
) -> StatsView:
    """The view model of the record (text in ``lang``); the table has a row per level, board
    and mode ("6 × 6 · Simple"); the chart has one bar per level (all sizes and modes
    together), each as long as the chart with its games split into wins, draws and losses;
    ``by_mode``: each mode's line with its streaks (:func:`streaks`)."""
    table = tuple(
        (
            level_label(lang, row.level),
            f"{row.size} × {row.size} · {mode_label(lang, row.mode)}" if row.mode
            else f"{row.size} × {row.size}",
            str(row.win),
            str(row.draw),
            str(row.loss),
            percent(lang, 100 * row.score, 0),
        )
        for row in rows
    )
    label_width = 70
    bars = []
    for index, row in enumerate(by_level(rows)):
        x = float(label_width)
        segments = []
        for result, count in zip(RESULTS, (row.win, row.draw, row.loss), strict=True):
            share = (width - label_width) * count / row.games
            segments.append((result, round(x, 1), round(share, 1)))
            x += share
        title = text(
            lang, "stats.bar", level=level_label(lang, row.level), win=row.win,
            draw=row.draw, loss=row.loss,
        )
        bars.append(Bar(level_label(lang, row.level), index * (bar_height + 6.0),
                        tuple(segments), title))
    games = sum(row.games for row in rows)
    return StatsView(
        heading=text(lang, "stats.heading"),
        columns=tuple(text(lang, f"stats.col.{c}") for c in
                      ("level", "size", "win", "draw", "loss", "score")),
        rows=table,
        bars=tuple(bars),
        width=width,
        height=max(1, len(bars)) * (bar_height + 6),
        bar_height=bar_height,
        empty=text(lang, "stats.empty"),
        total=ntext(lang, "stats.total", games, games=games),
        legend=tuple((result, text(lang, f"stats.col.{result}")) for result in RESULTS),
        modes=tuple(
            text(lang, "stats.mode_line", mode=mode_label(lang, streak.mode), win=streak.win,
                 draw=streak.draw, loss=streak.loss, current=streak.current, best=streak.best)
            for streak in by_mode
        ),
    )


@dataclass(frozen=True)
class RatingView:
    """The puzzle rating as the Statistics view shows it: ``text`` ("Puzzle rating: 1532?
    (provisional…)" or "No puzzle rated yet."), the history ``chart`` and its description."""

    text: str
    chart: Chart
    label: str


class StatsBook:
    """The Statistics view's data, read from the library and storage when asked (so it is
    always current: every game is saved after every move).

    Args:
        library: the page's library of games (its store holds :data:`STATS_KEY` and the
            puzzle rating, :data:`sos.app.learn.rating.RATING_KEY`).
        clock: milliseconds since the Unix epoch (the time of a reset).
    """

    def __init__(self, library: Library, clock: Callable[[], float]) -> None:
        self.library = library
        self.clock = clock

    def _get(self, key: str) -> str | None:
        try:
            return self.library.store.get(key)
        except Exception:  # a store that cannot be read counts as empty
            return None

    def rows(self) -> list[Tally]:
        """The record since the last reset."""
        return tally(self.library.entries(), read_since(self._get(STATS_KEY)))

    def view(self, lang: str) -> StatsView:
        """:func:`stats_view` of the record since the last reset, with each mode's streaks."""
        entries = self.library.entries()
        since = read_since(self._get(STATS_KEY))
        return stats_view(lang, tally(entries, since), by_mode=streaks(entries, since))

    def can_undo(self) -> bool:
        """Whether "Undo reset" is offered: the stored reset keeps what it replaced (from
        :meth:`reset` until :meth:`undo_reset` or another reset -- closing and opening
        Statistics, or the page, changes nothing)."""
        return read_before(self._get(STATS_KEY)) is not None

    def rating(self, lang: str) -> RatingView:
        """The puzzle rating and its history chart."""
        book = RatingBook.load(self._get(RATING_KEY))
        history = list(book.history)
        if history and len(history) < KEEP_HISTORY:  # the whole history: it began at the start
            history.insert(0, (history[0][0], round(START_RATING)))
        chart = history_chart(history, left=LABEL_ROOM)  # labels beside, not under
        if not book.history:
            return RatingView(text(lang, "stats.no_rating"), chart, "")
        key = "rating.provisional" if book.rating.provisional else "rating.value"
        return RatingView(
            text(lang, key, rating=round(book.rating.rating)),
            chart,
            text(lang, "rating.history", low=chart.low, high=chart.high),
        )

    def reset(self) -> bool:
        """Count only games started from now on; False when the storage refused the write
        (nothing changed then). No game is deleted; :meth:`undo_reset` takes it back (the
        reset it replaced is stored with it: ``before``)."""
        before = read_since(self._get(STATS_KEY))
        try:
            self.library.store.set(STATS_KEY, dump_since(self.clock(), before))
        except StorageError:
            return False
        return True

    def undo_reset(self) -> bool:
        """Take the last :meth:`reset` back: the record counts from where it did before it.
        False when there is none to take back or the storage refused the write (nothing
        changed then)."""
        before = read_before(self._get(STATS_KEY))
        if before is None:
            return False
        try:
            if before:
                self.library.store.set(STATS_KEY, dump_since(before))
            else:
                self.library.store.remove(STATS_KEY)
        except StorageError:
            return False
        return True


__all__ = [
    "STATS_KEY", "Bar", "RatingView", "StatsBook", "StatsView", "Streak", "Tally",
    "by_level", "dump_since", "level_label", "mode_label", "read_before", "read_since",
    "stats_view", "streaks", "tally",
]
