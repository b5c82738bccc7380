"""Game review: every move of a game judged against the solver (or the search).

:func:`review_game` replays a game and evaluates each position once, **from the last to the
first** (so the exact solver's transposition table, filled by the endgame, answers the earlier
positions faster), and judges each move as soon as the positions before and after it are valued:
the last moves first. :func:`review_steps` is the same work as a pausable generator for the page
(drive it like :meth:`sos.ai.agents.Agent.plan`; :class:`Progress` says how far it got).

Values
------
Every value is seen **by the player who moved** and predicts the end of the game:

* ``general`` mode: the final score margin, own final score minus the opponent's (with three
  or four players: minus all the others' scores combined, the paranoid value of
  :mod:`sos.ai.search`), i.e. the points already scored plus the future points under best play;
* ``simple`` mode: the result, ``+1`` win, ``0`` draw, ``-1`` loss (an estimate is a float).

``value_before`` is the value of the position before the move (best play from there),
``value_after`` the value of the position the move made. ``loss = value_before - value_after``
(at least 0; exactly 0 for a move among ``best_actions``).

Exact or estimated
------------------
With two players a position is solved exactly (:class:`sos.ai.solver.Solver`, with the 4x4 opening
book) on boards of at most :data:`EXACT_MAX_CELLS` squares, and on larger boards from
:data:`EXACT_EMPTIES` empty squares down, each position within :data:`EXACT_NODES` nodes; when
that budget runs out, that position and every earlier one with at least as many empty squares
get the search's estimate instead (:class:`sos.ai.search.AlphaBeta`, :data:`ESTIMATE_NODES` nodes,
deterministic). With three or four players every value is an estimate. ``exact`` is True for a
move when both its values are proven. The estimates of one review share :data:`ESTIMATE_TOTAL`
nodes (:func:`estimate_budget`): each gets :data:`ESTIMATE_NODES` on boards up to 8x8 or so and
fewer on larger boards (3 125 on 12x12), at least :data:`ESTIMATE_MIN`, so that a review's time
grows little with the board.

Verdicts (after Lichess's idea of judging a move by the winning chances it loses)
----------------------------------------------------------------------------------
First the **result**: each value is classed as win / draw / loss (exact: its sign; an estimate:
at least +0.5 is a win, at most -0.5 a loss). A move that turns a position that was not lost
into a lost one is a **blunder**; a move that throws a win into a draw is a **mistake**. In
``simple`` mode this is the whole scale (a move that keeps the result is **best** when it is
among the best actions, else **good**; an estimate that drops by at least
:data:`SIMPLE_INACCURACY` without changing the class is an **inaccuracy**). In ``general`` mode a
move that keeps the result is judged by the **points lost**: less than 0.5 is **best** (among
the best actions) or **good**; from 0.5 up to 1.5 (one point) an **inaccuracy**; from 1.5 up
to 3 (two points) a **mistake**; 3 or more a **blunder**. (:data:`POINT_THRESHOLDS`.)

Estimates that disagree
-----------------------
Two estimates come from two searches (of the position before the move and of the one after
it), so they may disagree: a move among the search's best actions, whose value after is
nevertheless a worse result class or at least half a point lower. A move that is only tied with
the search's own choice (alpha-beta gives the other root moves a bound, "not better than the
best", so a tie may be a worse move) is taken out of the best actions, and judged by its values.
The search's own choice is searched again (the position after it, with :data:`RESEARCH_FACTOR`
times the nodes); if the values still disagree, it stays **best** (a move among the best actions
always is) and is marked ``unsure``: the page says that the engine is unsure there. A move is
never called a blunder while listed among the best.

Accuracy
--------
A player's **accuracy** (0-100 %) is Lichess's accuracy (https://lichess.org/page/accuracy;
``modules/analyse/src/main/AccuracyPercent.scala`` in lichess-org/lila) adapted to SOS: it is
built from the **winning chances** each move loses, not from a count of moves kept.

* **Winning chances** of a value (:func:`win_chance`, percent): in ``general`` mode a logistic
  curve of the score margin whose width grows with the empty squares left,
  ``100 / (1 + exp(-margin / width))``, ``width`` = :data:`WIN_SCALE` x sqrt(empty squares +
  1) points (at least :data:`WIN_SCALE_MIN`): a lead of 3 points is about 3 chances in 5 at
  the start of a 12x12 game, where dozens of points are still to be made, and nearly a won
  game with 4 squares left. Lichess maps a chess evaluation the same way, ``50 + 50 * (2 /
  (1 + exp(-0.00368208 * centipawns)) - 1)``, with a fixed width: a pawn is worth the same all
  game long, an SOS point more the fewer squares are left. In ``simple`` mode the value is
  already a result: ``50 + 50 * value``.
* **The chances a move loses** are measured **as in a level game at that stage**: 50 minus the
  chances of a margin of minus the points it lost (``loss``, 0 for a move among the best), at
  the width of the position before it. Lichess takes the chances of the actual evaluations,
  so that a move in a game already decided loses nothing; SOS is counted in points to the
  end (the result says "a win by 30"), so a move that hands over 15 points is a blunder in a
  decided game too, and costs accuracy there as well.
* **A move's accuracy** (:func:`move_accuracy`): ``103.1668 * exp(-0.04354 * lost) -
  3.1669``, between 0 and 100: 100 when nothing is lost, about 64 for 10 chances in 100, 8
  for 50.
* **A game's accuracy** (:func:`game_accuracy`): the mean of a volatility-weighted mean and the
  harmonic mean of the player's move accuracies (each at least 1 in the harmonic mean). The
  weight of a move is the standard deviation (between 0.5 and 12) of the first player's
  winning chances (of the actual values) over a window of moves around it (len(line) / 10
  moves, 2 to 8), as Lichess does: moves where the game swings weigh most, and the harmonic
  mean lets a few thrown moves pull the figure down. With three or four players the weights
  are equal (each value is its own mover's).

A player whose moves gave a game away therefore scores low, however many moves kept what was
left; a game of best moves scores 100.
"""

from __future__ import annotations

import math
import random
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..notation import Action
from ..state import GameState
from . import EXACT_MAX_CELLS
from .base import Budget, SearchTimeout, run_to_end
from .search import AlphaBeta, action_move, move_action
from .solver import Solver

#: The verdicts, best first.
VERDICTS: Final = ("best", "good", "inaccuracy", "mistake", "blunder")
#: General mode, points lost: the least loss of an inaccuracy, a mistake and a blunder.
POINT_THRESHOLDS: Final = (0.5, 1.5, 3.0)
#: Simple mode, an estimate: the least drop (in result units, -1..+1) of an inaccuracy.
SIMPLE_INACCURACY: Final = 0.25
#: An estimate of at least this (at most minus this) counts as a win (a loss).
RESULT_BAND: Final = 0.5
#: Two players, larger boards: positions with at most this many empty squares are solved.
EXACT_EMPTIES: Final = 16
#: Node budget of one exact solve on a board over :data:`EXACT_MAX_CELLS` squares.
EXACT_NODES: Final = 60_000
#: Node budget of one estimate (alpha-beta search of one position).
ESTIMATE_NODES: Final = 12_000
#: Node budget of all the estimates of one review, shared by its estimated positions
#: (:func:`estimate_budget`): a 12x12 game has some 128 of them, where the searches at
#: :data:`ESTIMATE_NODES` each made its review take 126 s in the page.
ESTIMATE_TOTAL: Final = 400_000
#: The least node budget of one estimate, however many positions share :data:`ESTIMATE_TOTAL`.
ESTIMATE_MIN: Final = 3_000
#: Node budget factor of the second search of a move whose estimates disagree.
RESEARCH_FACTOR: Final = 4
#: Winning chances (:func:`win_chance`), general mode: the logistic curve's width in points is
#: this times the square root of (the empty squares left + 1) ...
WIN_SCALE: Final = 0.5
#: ... and at least this many points.
WIN_SCALE_MIN: Final = 0.5
#: A move's accuracy from the winning chances (percent) it loses (:func:`move_accuracy`):
#: ``ACCURACY_A * exp(-ACCURACY_K * lost) + ACCURACY_B``, Lichess's fit.
ACCURACY_A: Final = 103.1668
ACCURACY_K: Final = 0.04354
ACCURACY_B: Final = -3.1669
#: Volatility weights of the game's accuracy: the window (moves) is len(line) / 10, within
#: these bounds, and a weight (the standard deviation of the chances in it) within these.
WINDOW_MIN, WINDOW_MAX = 2, 8
WEIGHT_MIN, WEIGHT_MAX = 0.5, 12.0
#: Format version of :meth:`GameReview.to_dict` (2: ``unsure`` added; a review of version 1
#: may call a move among the best a blunder, and is made again).
REVIEW_VERSION: Final = 2


@dataclass(frozen=True)
class PlyReview:
    """The review of one move.

    Attributes:
        ply: 0-based index of the move in the game.
        action: the move played.
        player: the seat that played it (0-based).
        value_before: value of the position before the move, for ``player`` (module docstring).
        value_after: value of the position after the move, for ``player``.
        best_actions: the actions that keep ``value_before`` (exact), or the search's best
            (estimate), in board order.
        loss: ``value_before - value_after``, at least 0 (0 for a move among ``best_actions``).
        verdict: one of :data:`VERDICTS`.
        exact: True when both values are proven by the solver.
        unsure: True when the move is among the best actions but the estimate after it
            disagrees (a worse result, or half a point less), even after a second search.
    """

    ply: int
    action: Action
    player: int
    value_before: float
    value_after: float
    best_actions: tuple[Action, ...]
    loss: float
    verdict: str
    exact: bool
    unsure: bool = False


@dataclass(frozen=True)
class PlayerSummary:
    """One player's figures: ``moves`` judged, ``inaccuracies``, ``mistakes``, ``blunders``,
    and ``accuracy`` (percent, 0-100, from the winning chances their moves lost: see the module
    docstring; 100 with no move)."""

    player: int
    moves: int
    inaccuracies: int
    mistakes: int
    blunders: int
    accuracy: float


@dataclass(frozen=True)
class GameReview:
    """The review of a game: ``plies`` (one :class:`PlyReview` per move, in order), for the
    game of ``mode`` with ``players`` seats whose moves are ``line``, on a board of ``cells``
    squares (0: not known, then taken as ``len(line)``: the empty squares before each move
    weigh the winning chances, :func:`win_chance`)."""

    mode: str
    players: int
    line: tuple[Action, ...]
    plies: tuple[PlyReview, ...] = field(default=())
    cells: int = 0

    def empties(self, ply: int) -> int:
        """The empty squares before move ``ply`` (0-based): a game starts on an empty board."""
        return max(0, (self.cells or len(self.line)) - ply)

    def summary(self) -> tuple[PlayerSummary, ...]:
        """One :class:`PlayerSummary` per seat; accuracy: :func:`game_accuracy`."""
        accuracies = game_accuracy(self)
        out = []
        for seat in range(self.players):
            mine = [p for p in self.plies if p.player == seat]
            out.append(
                PlayerSummary(
                    seat,
                    len(mine),
                    sum(1 for p in mine if p.verdict == "inaccuracy"),
                    sum(1 for p in mine if p.verdict == "mistake"),
                    sum(1 for p in mine if p.verdict == "blunder"),
                    round(accuracies[seat], 1),
                )
            )
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``GameRecord.extra["review"]``): version, the reviewed ``line``
        (text actions joined by spaces) and one list per ply ``[before, after, loss, verdict
        index, exact 0/1, "best actions", unsure 0/1]``."""
        return {
            "v": REVIEW_VERSION,
            "mode": self.mode,
            "players": self.players,
            "line": " ".join(str(a) for a in self.line),
            "plies": [
                [
                    _num(p.value_before),
                    _num(p.value_after),
                    _num(p.loss),
                    VERDICTS.index(p.verdict),
                    int(p.exact),
                    " ".join(str(a) for a in p.best_actions),
                    int(p.unsure),
                ]
                for p in self.plies
            ],
        }

    @classmethod
    def from_dict(cls, data: object, start: GameState) -> GameReview | None:
        """The review saved by :meth:`to_dict` for a game that starts at ``start``, or None
        when ``data`` is not a valid saved review (it is then simply made again)."""
        try:
            if not isinstance(data, dict) or data.get("v") != REVIEW_VERSION:
                return None
            text = str(data["line"])
            line = tuple(Action.parse(t) for t in text.split()) if text else ()
            rows = data["plies"]
            if not isinstance(rows, list) or len(rows) != len(line):
                return None
            state = start.clone()
            plies = []
            for index, (action, row) in enumerate(zip(line, rows, strict=True)):
                before, after, loss, verdict, exact, best, unsure = row
                player = state.current_player()
                state.apply(action)
                plies.append(
                    PlyReview(
                        index, action, player, float(before), float(after),
                        tuple(Action.parse(t) for t in str(best).split()), float(loss),
                        VERDICTS[int(verdict)], bool(exact), bool(unsure),
                    )
                )
            return cls(
                str(data["mode"]), int(data["players"]), line, tuple(plies), start.rules.cells
            )
        except (KeyError, TypeError, ValueError, IndexError):
            return None


def _num(x: float) -> float | int:
    r = round(x, 2)
    return int(r) if r == int(r) else r


@dataclass
class Progress:
    """How far a review has got: ``done`` of ``total`` positions evaluated, and ``plies``, the
    moves judged so far by their index (final: the same :class:`PlyReview` as in the
    finished review). Positions are valued from the last to the first, so the moves are judged
    from the last to the first too, each as soon as the positions before and after it are
    valued -- except a move whose estimates disagree, judged when every position is valued."""

    done: int = 0
    total: int = 0
    plies: dict[int, PlyReview] = field(default_factory=dict)


class _Eval:
    """The evaluation of one position for its player to move (future points / result)."""

    __slots__ = ("best", "chosen", "exact", "root_values", "value")

    def __init__(
        self, value: float, exact: bool, best: tuple[Action, ...], root_values: dict[int, float],
        chosen: Action | None = None,
    ) -> None:
        self.value = value
        self.exact = exact
        self.best = best
        self.root_values = root_values
        #: The search's own choice (an estimate): the one move of ``best`` whose value is not
        #: possibly a bound (alpha-beta searches the others with a window that only tells
        #: "not better", so a tie with it may be a move that is worse).
        self.chosen = chosen


def _result_class(value: float, exact: bool) -> int:
    if exact:
        return (value > 0) - (value < 0)
    return 1 if value >= RESULT_BAND else -1 if value <= -RESULT_BAND else 0


def verdict(mode: str, before: float, after: float, exact: bool, among_best: bool) -> str:
    """The verdict of a move whose mover's values are ``before`` and ``after`` (see the module
    docstring); ``exact``: both are proven; ``among_best``: the move keeps the best value (it is
    then ``best``, whatever a second estimate says: see "Estimates that disagree")."""
    if among_best:
        return "best"
    loss = max(0.0, before - after)
    was, now = _result_class(before, exact), _result_class(after, exact)
    if now < was:
        return "blunder" if now < 0 else "mistake"
    if mode == "simple":
        return "inaccuracy" if loss >= SIMPLE_INACCURACY else "good"
    if loss < POINT_THRESHOLDS[0]:
        return "good"
    if loss < POINT_THRESHOLDS[1]:
        return "inaccuracy"
    if loss < POINT_THRESHOLDS[2]:
        return "mistake"
    return "blunder"


def win_chance(mode: str, value: float, empties: int) -> float:
    """The winning chances, in percent (0-100), of a player whose value (module docstring:
    the final score margin in ``general`` mode, the result -1..+1 in ``simple`` mode) is
    ``value`` with ``empties`` empty squares left. General mode: a logistic curve of the
    margin, ``100 / (1 + exp(-value / scale))``, ``scale`` = :data:`WIN_SCALE` x
    sqrt(``empties`` + 1), at least :data:`WIN_SCALE_MIN` (after Lichess's map of a chess
    evaluation to winning chances, https://lichess.org/page/accuracy, whose width is fixed)."""
    if mode == "simple":
        return 50.0 + 50.0 * max(-1.0, min(1.0, value))
    scale = max(WIN_SCALE_MIN, WIN_SCALE * math.sqrt(empties + 1))
    x = max(-60.0, min(60.0, value / scale))
    return 100.0 / (1.0 + math.exp(-x))


def move_accuracy(before: float, after: float) -> float:
    """A move's accuracy (percent, 0-100) from the mover's winning chances ``before`` and
    ``after`` it (:func:`win_chance`; :func:`game_accuracy` measures them as in a level game:
    50 and the chances of minus the points lost): 100 when it lost none, else Lichess's
    ``103.1668 * exp(-0.04354 * lost) - 3.1669`` (lila's ``AccuracyPercent.fromWinPercents``,
    without its bonus of 1 for an engine's imperfect analysis)."""
    lost = before - after
    if lost <= 0:
        return 100.0
    raw = ACCURACY_A * math.exp(-ACCURACY_K * lost) + ACCURACY_B
    return max(0.0, min(100.0, raw))


def _stdev(xs: Sequence[float]) -> float:
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))


def game_accuracy(review: GameReview) -> tuple[float, ...]:
    """Each seat's accuracy in ``review`` (percent, 0-100; 100 for a seat without a judged
    move): the mean of the volatility-weighted mean and the harmonic mean of its moves'
    :func:`move_accuracy` (module docstring; lila's ``AccuracyPercent.gameAccuracy``). Only the
    judged moves count (a running review's so far)."""
    plies = review.plies
    mode = review.mode
    moves: list[tuple[int, float]] = []  # (seat, accuracy)
    series: list[float] = []  # the first player's chances before each move, and after the last
    for ply in plies:
        empties = review.empties(ply.ply)
        # The chances lost as in a level game at this stage (module docstring).
        moves.append((ply.player, move_accuracy(50.0, win_chance(mode, -ply.loss, empties))))
        first = ply.value_before if ply.player == 0 else -ply.value_before
        series.append(win_chance(mode, first, empties))
    if plies:
        last = plies[-1]
        first = last.value_after if last.player == 0 else -last.value_after
        series.append(win_chance(mode, first, review.empties(last.ply)))
    if review.players == 2 and len(series) > 2:
        size = max(WINDOW_MIN, min(WINDOW_MAX, len(plies) // 10))
        size = min(size, len(series))
        windows = [series[:size]] * (size - 2) + [
            series[i:i + size] for i in range(len(series) - size + 1)
        ]
        weights = [max(WEIGHT_MIN, min(WEIGHT_MAX, _stdev(w))) for w in windows]
    else:
        weights = [1.0] * len(moves)
    out = []
    for seat in range(review.players):
        mine = [(acc, w) for (who, acc), w in zip(moves, weights, strict=False) if who == seat]
        if not mine:
            out.append(100.0)
            continue
        weighted = sum(a * w for a, w in mine) / sum(w for _, w in mine)
        harmonic = len(mine) / sum(1.0 / max(1.0, a) for a, _ in mine)
        out.append((weighted + harmonic) / 2)
    return tuple(out)


def estimate_budget(estimated: int, nodes: int = ESTIMATE_NODES,
                    total: int | None = ESTIMATE_TOTAL) -> int:
    """The node budget of each estimate of a review with ``estimated`` positions to estimate:
    ``nodes``, or ``total`` shared by them when that is less, at least :data:`ESTIMATE_MIN`
    (``total`` None: ``nodes``)."""
    if total is None or estimated <= 0:
        return nodes
    return max(min(nodes, ESTIMATE_MIN), min(nodes, total // estimated))


def _lead(state: GameState, seat: int) -> int:
    scores = state.scores
    return scores[seat] - sum(s for p, s in enumerate(scores) if p != seat)


def review_steps(
    state: GameState,
    progress: Progress | None = None,
    exact_nodes: int = EXACT_NODES,
    estimate_nodes: int = ESTIMATE_NODES,
    solver: Solver | None = None,
    estimate_total: int | None = ESTIMATE_TOTAL,
) -> Generator[None, None, GameReview]:
    """:func:`review_game` as a pausable generator (a bare ``yield`` between slices of work of
    at most :data:`sos.ai.search.STEP_SECONDS`); ``progress`` is updated as positions are done,
    and each move's final :class:`PlyReview` is put in ``progress.plies`` as soon as it is judged
    (the page shows the verdicts as they come; see :class:`Progress`).

    ``solver``: a solver to reuse (its table is kept between reviews of one game).
    ``estimate_nodes``: the node budget of one estimate, or less when the positions to estimate
    share ``estimate_total`` (:func:`estimate_budget`; None: not shared).
    """
    rules = state.rules
    start = state.clone()
    while start.history:
        start.undo()
    line = state.history
    positions = [start.clone()]
    gains: list[int] = []
    for index, action in enumerate(line):
        nxt = positions[-1].clone()
        gains.append(len(nxt.apply(action)))
        positions.append(nxt)
        if index % 16 == 15:
            yield  # (a long game's replay is a few steps, not one)
    prog = progress if progress is not None else Progress()
    prog.total, prog.done = len(positions), 0
    prog.plies.clear()
    solver = solver if solver is not None else Solver()
    two = rules.players == 2
    estimated = sum(
        1 for pos in positions
        if not pos.is_terminal() and not (
            two and (rules.cells <= EXACT_MAX_CELLS or pos.empty_squares <= EXACT_EMPTIES))
    )
    estimate_nodes = estimate_budget(estimated, estimate_nodes, estimate_total)
    searcher = AlphaBeta(budget=None, rng=random.Random(0), node_budget=estimate_nodes)
    failed_at = 1 << 30  # least empties where an exact solve ran out of nodes
    evals: list[_Eval | None] = [None] * len(positions)
    for k in range(len(positions) - 1, -1, -1):
        pos = positions[k]
        if pos.is_terminal():
            evals[k] = _Eval(0.0, True, (), {})
            prog.done += 1
            yield
            continue
        need_best = k < len(line)
        empties = pos.empty_squares
        found: _Eval | None = None
        if two and empties < failed_at and (
            rules.cells <= EXACT_MAX_CELLS or empties <= EXACT_EMPTIES
        ):
            budget = None if rules.cells <= EXACT_MAX_CELLS else exact_nodes
            try:
                found = yield from _exact(solver, pos, need_best, budget)
            except SearchTimeout:
                failed_at = empties
        if found is None:
            result = yield from searcher.search(pos.clone())
            values = dict(result.root_values)
            top = max(values.values()) if values else result.value
            best = tuple(move_action(m, rules.cols) for m in sorted(values) if values[m] == top)
            if not best and result.move >= 0:
                best = (move_action(result.move, rules.cols),)
            chosen = move_action(result.move, rules.cols) if result.move >= 0 else None
            found = _Eval(float(result.value), bool(result.exact), best, values, chosen)
        evals[k] = found
        if k < len(line):  # the move from here: judged now unless it is to be searched again
            judged = yield from _judge(rules.mode, two, k, line[k], positions, gains[k], evals)
            if judged is not None:
                prog.plies[k] = judged
        prog.done += 1
        yield
    deeper = AlphaBeta(budget=None, rng=random.Random(0),
                       node_budget=estimate_nodes * RESEARCH_FACTOR)
    plies: list[PlyReview] = []
    for k, action in enumerate(line):
        ply = prog.plies.get(k)
        if ply is None:  # searched again (in move order, after every position is valued)
            ply = yield from _judge(rules.mode, two, k, action, positions, gains[k], evals, deeper)
            assert ply is not None
            prog.plies[k] = ply
        plies.append(ply)
    return GameReview(rules.mode, rules.players, tuple(line), tuple(plies), rules.cells)


def _judge(
    mode: str, two: bool, k: int, action: Action, positions: list[GameState], gain: int,
    evals: list[_Eval | None], deeper: AlphaBeta | None = None,
) -> Generator[None, None, PlyReview | None]:
    """The review of move ``k`` (``action``, which completed ``gain`` SOSs) from the values of
    the positions before and after it. A move among the best whose two estimates disagree is
    searched again with ``deeper``; without ``deeper`` it is None (not judged yet: the searches
    again run after every position is valued, in move order, as the search's table carries
    from one to the next)."""
    pos, nxt = positions[k], positions[k + 1]
    here, there = evals[k], evals[k + 1]
    assert here is not None and there is not None
    mover = pos.current_player()
    before = _lead(pos, mover) + here.value if mode == "general" else here.value
    after = _after(mode, two, pos, nxt, action, gain, here, there)
    best = here.best
    among = action in best
    exact = here.exact and there.exact
    unsure = False
    if among and not exact and _disagree(before, after):
        if here.chosen is not None and action != here.chosen:
            # Tied with the search's choice by a bound only; its own search says worse.
            best = tuple(a for a in best if a != action)
            among = False
        else:
            if two and not there.exact and not nxt.is_terminal():  # again, deeper
                if deeper is None:
                    return None
                result = yield from deeper.search(nxt.clone())
                again = _Eval(float(result.value), bool(result.exact), (), {})
                after = _after(mode, two, pos, nxt, action, gain, here, again)
            unsure = _disagree(before, after)
    loss = 0.0 if among else max(0.0, before - after)
    return PlyReview(
        k, action, mover, float(before), float(after), best, round(loss, 2),
        verdict(mode, before, after, exact, among), exact, unsure,
    )


def _disagree(before: float, after: float) -> bool:
    """True when a move among the best actions has estimates that contradict that: a worse
    result class after it, or at least half a point (:data:`POINT_THRESHOLDS`) less."""
    return (
        _result_class(after, False) < _result_class(before, False)
        or before - after >= POINT_THRESHOLDS[0]
    )


def _after(
    mode: str, two: bool, pos: GameState, nxt: GameState, action: Action, gain: int,
    here: _Eval, there: _Eval,
) -> float:
    """The value for the mover of the position ``nxt`` that ``action`` (which completed
    ``gain`` SOSs) made from ``pos`` (see the module docstring)."""
    mover = pos.current_player()
    if mode == "simple" and gain:
        return 1.0
    if nxt.is_terminal():
        return float(_lead(nxt, mover)) if mode == "general" else 0.0
    if nxt.current_player() == mover:
        future = there.value
    elif two:
        future = -there.value
    else:  # paranoid values belong to their root seat: the mover's own search
        future = here.root_values.get(action_move(action, pos.rules.cols), here.value)
        future -= gain  # (root values count the move's own points)
    if mode == "simple":
        return future
    return _lead(nxt, mover) + future


def _exact(
    solver: Solver, pos: GameState, need_best: bool, nodes: int | None
) -> Generator[None, None, _Eval]:
    """The exact value (and with ``need_best`` every action keeping it) within ``nodes``."""
    with solver.budgeted(Budget(None, nodes)):
        if need_best:
            value, best = yield from solver.optimal_actions(pos)
        else:
            value, best = (yield from solver.value(pos)), []
    return _Eval(float(value), True, tuple(best), {})


def review_game(state: GameState) -> GameReview:
    """Review every move of ``state``'s game (its history from the start position).

    Returns a :class:`GameReview`; see the module docstring for values, verdicts, budgets.
    The state is not changed.
    """
    return run_to_end(review_steps(state))


def graph_points(review: GameReview) -> list[tuple[float, bool]]:
    """The evaluation graph's points, one per move: the value after the move and whether it
    is exact. With two players the value is seen by the first player (positive: the first
    player is ahead); with more players it is the mover's own value."""
    out = []
    for p in review.plies:
        value = p.value_after
        if review.players == 2 and p.player == 1:
            value = -value
        out.append((value, p.exact))
    return out


__all__ = [
    "ESTIMATE_MIN",
    "ESTIMATE_NODES",
    "ESTIMATE_TOTAL",
    "EXACT_EMPTIES",
    "EXACT_NODES",
    "POINT_THRESHOLDS",
    "RESEARCH_FACTOR",
    "VERDICTS",
    "WIN_SCALE",
    "GameReview",
    "PlayerSummary",
    "PlyReview",
    "Progress",
    "estimate_budget",
    "game_accuracy",
    "graph_points",
    "move_accuracy",
    "review_game",
    "review_steps",
    "verdict",
    "win_chance",
]
