"""Your record against the computer: wins, draws and losses per computer level and board size,
computed from the library of games (so it survives reloads and follows deletes), and the view
model of the "Statistics" view with its bar chart as SVG data. Pure: no DOM.

Which games count, and with which result, is :mod:`sos.app.game.counted`'s: a game of the library
with exactly one human seat ("you") and at least one computer, counted with the result it ended
with (kept in the game when it ended: a later undo, review or variation does not change it).
Games by link (two people) and games among people only do not count.

Reset (``sos-stats``, JSON, version 1: ``{"v": 1, "since": <ms since the epoch>}``): games
created before ``since`` are left out. No game is deleted: they stay in "Your games".
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from ...ai import LEVELS
from ..game.counted import RESULTS, counted_result
from ..saving.library import GameRecord, Library, StorageError
from ..text.i18n import ntext, percent, text
from .rating import KEEP_HISTORY, RATING_KEY, START_RATING, Chart, RatingBook, history_chart

STATS_KEY: Final = "sos-stats"
STATS_VERSION: Final = 1
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


def dump_since(since: float) -> str:
    """The text stored under :data:`STATS_KEY` for a reset at ``since`` (ms)."""
    return json.dumps({"v": STATS_VERSION, "since": since}, separators=(",", ":"))


@dataclass(frozen=True)
class Tally:
    """Wins, draws and losses of one row (a level, or a level on one board size)."""

    level: str
    size: int  # 0 for every size together
    win: int = 0
    draw: int = 0
    loss: int = 0

    @property
    def games(self) -> int:
        """Games counted."""
        return self.win + self.draw + self.loss

    @property
    def score(self) -> float:
        """Points share: (wins + half the draws) / games, 0 with no game."""
        return (self.win + 0.5 * self.draw) / self.games if self.games else 0.0


def tally(records: Iterable[GameRecord], since: float = 0.0) -> list[Tally]:
    """One :class:`Tally` per (level, board size) with at least one game, levels in order
    easy … perfect, sizes ascending, for the games created at or after ``since`` (ms)."""
    counts: dict[tuple[str, int], dict[str, int]] = {}
    for record in records:
        if record.created < since:
            continue
        found = counted_result(record)
        if found is None:
            continue
        level, size, result = found
        row = counts.setdefault((level, size), dict.fromkeys(RESULTS, 0))
        row[result] += 1
    return [
        Tally(level, size, row["win"], row["draw"], row["loss"])
        for (level, size), row in sorted(counts.items(), key=lambda kv: (LEVELS.index(kv[0][0]),
                                                                         kv[0][1]))
    ]


def by_level(rows: Iterable[Tally]) -> list[Tally]:
    """The rows summed over board sizes, one per level (size 0)."""
    sums: dict[str, list[int]] = {}
    for row in rows:
        total = sums.setdefault(row.level, [0, 0, 0])
        total[0] += row.win
        total[1] += row.draw
        total[2] += row.loss
    return [Tally(level, 0, *sums[level]) for level in LEVELS if level in sums]


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

    @property
    def can_reset(self) -> bool:
        """Whether "Reset the record" is offered: only with something recorded."""
        return bool(self.rows)


def stats_view(lang: str, rows: list[Tally], width: int = 300, bar_height: int = 18) -> StatsView:
    """The view model of the record (text in ``lang``); the chart has one bar per level (all
    sizes together), each as long as the chart with its games split into wins, draws and
    losses."""
    table = tuple(
        (
            text(lang, f"level.{row.level}"),
            f"{row.size} × {row.size}",
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
            lang, "stats.bar", level=text(lang, f"level.{row.level}"), win=row.win,
            draw=row.draw, loss=row.loss,
        )
        bars.append(Bar(text(lang, f"level.{row.level}"), index * (bar_height + 6.0),
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
        #: what the last reset replaced (the stored text, None for none), until undone
        self.undo: tuple[str | None] | None = None

    def _get(self, key: str) -> str | None:
        try:
            return self.library.store.get(key)
        except Exception:  # a store that cannot be read counts as empty
            return None

    def rows(self) -> list[Tally]:
        """The record since the last reset."""
        return tally(self.library.entries(), read_since(self._get(STATS_KEY)))

    def view(self, lang: str) -> StatsView:
        """:func:`stats_view` of the record since the last reset."""
        return stats_view(lang, self.rows())

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
        (nothing changed then). No game is deleted; :meth:`undo_reset` takes it back."""
        before = self._get(STATS_KEY)
        try:
            self.library.store.set(STATS_KEY, dump_since(self.clock()))
        except StorageError:
            return False
        self.undo = (before,)
        return True

    def undo_reset(self) -> bool:
        """Take the last :meth:`reset` back: the record counts from where it did before it.
        False when there is none to take back or the storage refused the write (nothing
        changed then)."""
        if self.undo is None:
            return False
        (before,) = self.undo
        try:
            if before is None:
                self.library.store.remove(STATS_KEY)
            else:
                self.library.store.set(STATS_KEY, before)
        except StorageError:
            return False
        self.undo = None
        return True


__all__ = [
    "STATS_KEY", "Bar", "RatingView", "StatsBook", "StatsView", "Tally",
    "by_level", "dump_since", "read_since", "stats_view", "tally",
]
