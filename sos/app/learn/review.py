"""The review panel's view model (issue 14): what the page shows of a
:class:`~sos.ai.review.GameReview`, as plain data — the verdict of each move in the move list
(symbol, colour key, accessible name), each player's summary line, the evaluation graph's
geometry (points and segments, proven or estimated), the text of the selected move, the best
actions to mark on the board, and where Previous / Next go. Pure: no DOM; texts come from the
page's translator (:meth:`sos.app.app.AppSession.t` / :meth:`~sos.app.app.AppSession.nt`).
``sos.web.review`` draws it.

:mod:`sos.ai.review` (and through it the search and the solver) is imported only when a review is
read or drawn, so that the page's start-up does not load the AI.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Final, Protocol

from ...notation import Action
from ..game.view import player_name
from ..text.i18n import decimal, percent

if TYPE_CHECKING:
    from collections.abc import Generator

    from ...ai.review import GameReview as GameReview
    from ...ai.review import PlyReview, Progress
    from ...rules import Rules
    from ..saving.library import GameRecord

#: Key of the review in ``GameRecord.extra``.
EXTRA_KEY: Final = "review"
#: Symbols of the verdicts in the move list and on the graph (with text for screen readers).
SYMBOLS: Final = {"best": "★", "good": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
#: Most best actions marked on the board at once.
MAX_MARKS: Final = 4
#: Graph geometry (SVG viewBox units): width per move, height, margin above and below.
STEP, HEIGHT, PAD = 10, 100, 8


class Texts(Protocol):
    """The page's translator (:class:`sos.app.app.AppSession` is one)."""

    def t(self, key: str, **values: object) -> str: ...

    def nt(self, key: str, n: int, **values: object) -> str: ...

    @property
    def lang(self) -> str:
        """The page's language (numbers: :func:`sos.app.text.i18n.decimal`)."""
        ...


def line_text(line: Sequence[Action]) -> str:
    """The text form of a line of actions, as :meth:`GameReview.to_dict` stores it
    (``"S@a1 O@b1"``)."""
    return " ".join(str(a) for a in line)


def stored_review(record: GameRecord, line: Sequence[Action]) -> GameReview | None:
    """The review kept in ``record.extra`` if it covers exactly ``line`` (the game's line of
    play), else None (none kept, another line, or damaged data: it is then made again)."""
    from ...ai.review import GameReview
    from ...state import new_game

    data = record.extra.get(EXTRA_KEY)
    if not isinstance(data, dict) or data.get("line") != line_text(line):
        return None
    return GameReview.from_dict(data, new_game(record.rules))


def with_review(record: GameRecord, review: GameReview) -> GameRecord:
    """``record`` with ``review`` kept in its ``extra`` (tied to the line reviewed)."""
    from dataclasses import replace

    return replace(record, extra={**record.extra, EXTRA_KEY: review.to_dict()})


@dataclass(frozen=True)
class ReviewRun:
    """A review to run (:func:`start_review`) of the game ``line`` under ``rules``: step
    ``steps`` until it returns the :class:`~sos.ai.review.GameReview`; ``progress`` says how
    far it has got and holds the moves judged so far (:meth:`so_far`)."""

    steps: Generator[None, None, GameReview]
    progress: Progress
    rules: Rules
    line: tuple[Action, ...]

    @property
    def judged(self) -> int:
        """How many moves are judged so far."""
        return len(self.progress.plies)

    def so_far(self) -> GameReview:
        """The review as far as it has got: a :class:`~sos.ai.review.GameReview` of ``line``
        whose ``plies`` are only the moves judged so far, in move order (each exactly as in the
        finished review; the last moves come first). Shown with ``review_view(..., done=False)``."""
        from ...ai.review import GameReview

        plies = self.progress.plies
        return GameReview(
            self.rules.mode, self.rules.players, self.line,
            tuple(plies[k] for k in sorted(plies)), self.rules.cells,
        )


def start_review(rules: Rules, line: Sequence[Action]) -> ReviewRun:
    """The review of the game ``line`` under ``rules`` (:func:`sos.ai.review.review_steps`) as
    a pausable generator with its progress (``done`` of ``total`` positions)."""
    from ...ai.review import Progress, review_steps
    from ...state import replay

    progress = Progress(0, len(line) + 1)
    return ReviewRun(review_steps(replay(rules, line), progress), progress, rules, tuple(line))


def matching(review: GameReview, line: Sequence[Action]) -> int:
    """How many moves of ``line`` the review covers (the first moves where both agree)."""
    n = 0
    for mine, theirs in zip(review.line, line, strict=False):
        if mine != theirs:
            break
        n += 1
    return n


def step_target(review: GameReview, line: Sequence[Action], cursor: int, delta: int) -> int | None:
    """The cursor (moves applied, 1.. the reviewed moves) that Previous (``delta`` -1) or Next
    (+1) shows from ``cursor``; None when it stays where it is."""
    last = matching(review, line)
    target = min(max(cursor + delta, 1), last)
    return target if last and target != cursor else None


def player_names(lang: str, seats: Sequence[str], players: int) -> tuple[str, ...]:
    """Display names of the ``players`` seats in ``lang`` (``seats``: their kinds, as
    :func:`sos.app.game.view.view_model` reads them; missing ones are human)."""
    kinds = [*seats[:players], *["human"] * max(0, players - len(seats))]
    return tuple(player_name(lang, seat, kind) for seat, kind in enumerate(kinds))


# ---------------------------------------------------------------------------- move list
@dataclass(frozen=True)
class VerdictMark:
    """A move of the move list as judged: ``ply`` counts from 1 (``data-ply``), ``verdict``
    (``data-verdict``: one of :data:`sos.ai.review.VERDICTS`), its ``symbol`` and the button's
    accessible ``label`` with the verdict."""

    ply: int
    verdict: str
    symbol: str
    label: str


def verdict_marks(texts: Texts, review: GameReview, count: int) -> tuple[VerdictMark, ...]:
    """The verdicts of the first ``count`` moves (the ones the review covers) that are judged
    (all of them once the review is finished)."""
    out = []
    for ply in review.plies:
        if ply.ply >= count:
            break
        plain = texts.t("moves.ply.label", action=str(ply.action))
        label = texts.t(
            "review.ply.label", label=plain, verdict=texts.t(f"review.verdict.{ply.verdict}")
        )
        out.append(VerdictMark(ply.ply + 1, ply.verdict, SYMBOLS[ply.verdict], label))
    return tuple(out)


# ---------------------------------------------------------------------------- summary
def summary_lines(texts: Texts, review: GameReview, names: Sequence[str]) -> tuple[str, ...]:
    """One line per seat: name, accuracy (percent), inaccuracies, mistakes, blunders."""
    return tuple(
        texts.t(
            "review.summary",
            name=names[s.player],
            accuracy=percent(texts.lang, s.accuracy),
            inaccuracies=s.inaccuracies,
            mistakes=s.mistakes,
            blunders=s.blunders,
        )
        for s in review.summary()
    )


# ---------------------------------------------------------------------------- graph
@dataclass(frozen=True)
class GraphPoint:
    """One move on the graph: ``ply`` from 1, centre (``x``, ``y``) in viewBox units, ``exact``
    (proven by the solver) or an estimate, and the move's ``verdict``."""

    ply: int
    x: float
    y: float
    exact: bool
    verdict: str


@dataclass(frozen=True)
class GraphSegment:
    """The line between two neighbouring points; ``exact`` when both ends are proven."""

    x1: float
    y1: float
    x2: float
    y2: float
    exact: bool


@dataclass(frozen=True)
class GraphView:
    """The evaluation graph: a ``width`` x :data:`HEIGHT` viewBox (:data:`STEP` per move), its
    accessible ``label``, the ``points`` (one per move) and the ``segments`` between them. The
    middle line (y = HEIGHT / 2) is a level game; up is good for the first player (two
    players) or for the mover (more)."""

    width: int
    label: str
    points: tuple[GraphPoint, ...]
    segments: tuple[GraphSegment, ...]
    #: The side labels above and below the graph ("▲ Player 1 ahead", "▼ Player 1 behind");
    #: empty with three or four players (each point is then the mover's own outlook).
    up: str = ""
    down: str = ""


def graph_view(
    texts: Texts, review: GameReview, count: int, names: Sequence[str]
) -> GraphView:
    """The graph of the first ``count`` moves (:func:`sos.ai.review.graph_points`), a point for
    each one judged (all once the review is finished), at its place in the game; a segment joins
    two neighbouring moves. General mode is scaled to the largest lead (at least one point);
    simple mode spans -1..+1."""
    from ...ai.review import graph_points

    shown = [
        (ply, value)
        for ply, value in zip(review.plies, graph_points(review), strict=True)
        if ply.ply < count
    ]
    values = [value for _, value in shown]
    width = max(1, count) * STEP
    scale = 1.0
    if review.mode == "general":
        scale = max([1.0, *(abs(v) for v, _ in values)])
    half = HEIGHT / 2 - PAD

    def y(value: float) -> float:
        return round(HEIGHT / 2 - max(-1.0, min(1.0, value / scale)) * half, 2)

    points = tuple(
        GraphPoint(ply.ply + 1, ply.ply * STEP + STEP / 2, y(value), exact, ply.verdict)
        for ply, (value, exact) in shown
    )
    segments = tuple(
        GraphSegment(a.x, a.y, b.x, b.y, a.exact and b.exact)
        for a, b in pairwise(points)
        if b.ply == a.ply + 1
    )
    if review.players > 2:
        return GraphView(width, texts.t("review.graph.many"), points, segments)
    return GraphView(
        width, texts.t("review.graph", name=names[0]), points, segments,
        texts.t("review.axis.up", name=names[0]), texts.t("review.axis.down", name=names[0]),
    )


# ---------------------------------------------------------------------------- the selected move
def value_text(texts: Texts, mode: str, value: float, exact: bool) -> str:
    """A value for the mover as an expected result: ``a win by 2 (proven)``, ``a draw
    (estimate)``, or in simple mode ``a win`` / ``a draw`` / ``a loss`` (see
    :mod:`sos.ai.review` for the scale)."""
    band = 0.0 if exact else 0.5
    kind = "win" if value > band else "loss" if value < -band else "draw"
    if mode == "simple":
        words = texts.t(f"review.value.simple.{kind}")
    else:
        value = shown_value(value, exact)
        points = abs(value)
        if exact:
            shown = decimal(texts.lang, points, 2)
        else:
            shown = f"≈{decimal(texts.lang, points, 1, trim=False)}"
        if kind == "draw" and value:  # an estimate near a draw: on the same scale as the rest
            kind = "draw.ahead" if value > 0 else "draw.behind"
        words = texts.t(f"review.value.{kind}", points=shown)
    return f"{words} ({texts.t('review.exact' if exact else 'review.estimate')})"


def shown_value(value: float, exact: bool) -> float:
    """A value as the review's texts show it: exact to 2 places, an estimate to 1 (so the
    points a move lost are the difference of the values shown before and after it)."""
    return round(value, 2 if exact else 1) + 0.0  # (no -0.0)


def lost_points(ply: PlyReview) -> float:
    """The points ``ply`` lost as the text says them: the value shown before it minus the
    value shown after it (0 for a move among the best)."""
    if ply.loss <= 0:
        return 0.0
    lost = shown_value(ply.value_before, ply.exact) - shown_value(ply.value_after, ply.exact)
    return max(0.0, round(lost, 2))


def move_text(texts: Texts, mode: str, ply: PlyReview, name: str) -> str:
    """What the panel says of one move: number, player ``name``, action, verdict, the
    expected results before and after, that the engine is unsure (when its estimates
    disagree), the points lost (general mode) and the best actions (at most
    :data:`MAX_MARKS`) unless it was one."""
    t = texts.t
    verdict = t(f"review.verdict.{ply.verdict}")
    parts = [
        t("review.move", ply=ply.ply + 1, name=name, action=str(ply.action), verdict=verdict),
        t(
            "review.values",
            before=value_text(texts, mode, ply.value_before, ply.exact),
            after=value_text(texts, mode, ply.value_after, ply.exact),
        ),
    ]
    if ply.unsure:  # among the best, yet the estimate after it says worse
        parts.append(t("review.unsure"))
    lost = lost_points(ply)
    if mode == "general" and lost > 0:
        # A whole number of points picks its plural form; a fraction (an estimate) takes
        # the general form, which 100 selects in every catalog (Arabic "other" included).
        count = int(lost) if lost == int(lost) else 100
        parts.append(texts.nt("review.lost", count, points=decimal(texts.lang, lost, 2)))
    if ply.verdict != "best" and ply.best_actions:
        shown = ", ".join(str(a) for a in ply.best_actions[:MAX_MARKS])
        more = len(ply.best_actions) - MAX_MARKS
        if more > 0:
            parts.append(texts.nt("review.best.more", more, actions=shown, more=more))
        else:
            parts.append(t("review.best", actions=shown))
        parts.append(t("review.best.marked"))
    return " ".join(parts)


def best_marks(ply: PlyReview) -> tuple[tuple[int, int, str], ...]:
    """The squares to mark for a move that was not the best: ``(row, col, letters)`` for its
    first :data:`MAX_MARKS` best actions, letters ``"S"``, ``"O"`` or ``"S/O"`` (both keep the
    value), in the order of the best actions. Empty for a best move (it is the move played)."""
    if ply.verdict == "best":
        return ()
    letters: dict[tuple[int, int], str] = {}
    for action in ply.best_actions[:MAX_MARKS]:
        at = (action.row, action.col)
        letters[at] = letters[at] + "/" + action.letter if at in letters else action.letter
    return tuple((row, col, shown) for (row, col), shown in letters.items())


# ---------------------------------------------------------------------------- the whole panel
@dataclass(frozen=True)
class ReviewView:
    """Everything the review panel shows for the game at its cursor.

    Attributes:
        summary: one line per seat (:func:`summary_lines`).
        graph: the evaluation graph of the reviewed moves (:func:`graph_view`).
        selected: the move shown (0-based ply, the one just before the cursor) when the review
            covers it, else -1.
        move: the text of the selected move, or the invitation to choose one.
        marks: squares to mark with the selected move's best actions (:func:`best_marks`).
        message: a note that moves were played after the review, or ``""``.
        prev_disabled, next_disabled: Previous / Next cannot move.
        at_end: the position shown is the end of the line of play (the final position: "▶|"
            has nowhere to go and there is nothing to play from here).
        verdicts: the verdicts of the reviewed moves for the move list.
        done: the review is finished (else it is still running: the moves judged so far have
            their verdicts and points, the others wait, and there is no summary yet).
    """

    summary: tuple[str, ...]
    graph: GraphView
    selected: int
    move: str
    marks: tuple[tuple[int, int, str], ...]
    message: str
    prev_disabled: bool
    next_disabled: bool
    verdicts: tuple[VerdictMark, ...]
    at_end: bool = True
    done: bool = True


def review_view(
    texts: Texts,
    lang: str,
    review: GameReview,
    line: Sequence[Action],
    cursor: int,
    seats: Sequence[str],
    done: bool = True,
) -> ReviewView:
    """The panel for a game whose line of play is ``line`` with ``cursor`` moves applied and
    seat kinds ``seats``, texts in ``lang`` through ``texts``. ``done``: the review is
    finished; else ``review`` is a running review's moves judged so far
    (:meth:`ReviewRun.so_far`)."""
    count = matching(review, line)
    names = player_names(lang, seats, review.players)
    judged = {ply.ply: ply for ply in review.plies}
    selected = cursor - 1
    marks: tuple[tuple[int, int, str], ...] = ()
    if 0 <= selected < count and selected in judged:
        ply = judged[selected]
        move, marks = move_text(texts, review.mode, ply, names[ply.player]), best_marks(ply)
    elif 0 <= selected < count and not done:
        move = texts.t("review.pending")
    else:
        selected, move = -1, texts.t("review.select")
    return ReviewView(
        summary=summary_lines(texts, review, names) if done else (),
        graph=graph_view(texts, review, count, names),
        selected=selected,
        move=move,
        marks=marks,
        message=texts.t("review.partial") if count < len(line) else "",
        prev_disabled=cursor <= 1,
        next_disabled=cursor >= count,
        verdicts=verdict_marks(texts, review, count),
        at_end=cursor >= len(line),
        done=done,
    )


def exit_cursor(
    opened: tuple[int, tuple[Action, ...]], line: Sequence[Action], cursor: int
) -> int | None:
    """Where closing the review leaves the game: back at the position it was opened at
    (``opened``: the cursor and the line of play then; for a finished game its end, so the
    result and Rematch are there again), or None to stay -- when the review never moved away,
    or a move played during the review changed the line (that move is where the game stands
    now). "Play from here" does not ask: it stays."""
    at, was = opened
    if tuple(line) != was or cursor == at:
        return None
    return at


__all__ = [
    "EXTRA_KEY",
    "MAX_MARKS",
    "SYMBOLS",
    "GraphPoint",
    "GraphSegment",
    "GraphView",
    "ReviewView",
    "Texts",
    "VerdictMark",
    "best_marks",
    "exit_cursor",
    "graph_view",
    "line_text",
    "lost_points",
    "matching",
    "move_text",
    "player_names",
    "review_view",
    "shown_value",
    "step_target",
    "stored_review",
    "summary_lines",
    "value_text",
    "verdict_marks",
]
