"""Computer players at four levels, and position analysis for a hint button.

Levels (see :data:`LEVELS`):

* ``easy``: a legal move with little foresight; takes an open SOS only some of the time.
* ``medium``: takes every SOS it can (most points first) and otherwise avoids leaving an SOS
  to the next player where it can.
* ``hard``: iterative-deepening alpha-beta with a transposition table (see
  :class:`sos.ai.search.AlphaBeta`); paranoid search with three or four players. With two players
  and at most :data:`ENDGAME_EMPTIES` empty squares (simple mode: or at most
  :data:`SIMPLE_PROOF_SAFE` safe squares, :func:`prover_applies`) it first tries to prove a
  win, else a draw
  (:meth:`sos.ai.solver.Solver.result_action`); on boards of at most :data:`EXACT_MAX_CELLS`
  squares it proves from the first move on a move that draws at least, then a win
  (:meth:`sos.ai.solver.Solver.secure_action`). Its time budget follows the board
  (:func:`hard_budget`).
* ``perfect``: exact play by :class:`sos.ai.solver.Solver` (opening books on 4x4, 3x4, 3x5); offered
  on boards of at most :data:`EXACT_MAX_CELLS` squares.

Every agent has ``choose_action(state) -> Action`` (runs to the end) and ``plan(state)``, a
generator that does the same work in small steps: the caller calls ``next()`` on it until
``StopIteration``, whose ``value`` is the action. A page on the browser's main thread runs it in
slices of a few tens of milliseconds and yields to the browser between them; ``hard`` counts
only the time spent inside the generator against its budget. Agents never change the state
they are given, never read the page, and draw randomness only from their seeded
``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from time import perf_counter
from typing import Final, Literal, NamedTuple, TypeVar

from ..notation import Action
from ..rules import Rules
from ..state import GameState
from . import EXACT_MAX_CELLS, LEVELS, levels_for
from .base import Budget, SearchTimeout, run_to_end
from .search import AlphaBeta, Move, Position, action_move, move_action
from .solver import Solver

#: Search seconds per ``hard`` move (browser target 0.5 s on 8x8).
HARD_BUDGET: Final = 0.4
#: Search seconds per ``hard`` move on boards up to :data:`SMALL_BOARD_CELLS` squares, in the
#: page (:func:`hard_budget`). The page shows each computer move at least 0.45 s after the
#: previous one and searches during that pause. On 6x6 the fight for the last safe move is
#: decided in the middle game, where more depth pays: against ``medium`` (200 fresh games at
#: the node counts of the browser) hard won 93.5 % at 0.8 s and 96 % at 1.2 s
#: (benchmarks/RESULTS.md).
HARD_BUDGET_SMALL: Final = 1.2
#: Boards up to 7x7 count as small for :func:`hard_budget`.
SMALL_BOARD_CELLS: Final = 49
#: Search seconds per ``hard`` move on boards of more than :data:`EXACT_MAX_CELLS` and at most
#: :data:`PROOF_BOARD_CELLS` squares (5x5 in the app), where the endgame proof decides: proofs
#: of 5x5 general positions with 12-16 empty squares take up to about 105 000 nodes. In
#: headless Chromium 1.2 s stands for about 72 000 nodes of the proof; with it hard kept the
#: exact value in 84 % of the held-out 5x5 general positions, at 108 000 nodes (1.8 s) in 96 %
#: (benchmarks/RESULTS.md). Most endgame moves are proved well before the budget ends, so the
#: longer wait falls on the few hard positions.
HARD_BUDGET_PROOF: Final = 1.8
#: The largest board (in squares) that gets :data:`HARD_BUDGET_PROOF`.
PROOF_BOARD_CELLS: Final = 25
#: ``hard``'s contempt for open quiet positions: 1/100 point per safe square left (see
#: :func:`sos.ai.search.quiet_eval`). It steers towards positions where the opponent runs out of
#: safe moves; without it most games against ``medium`` drift to a full, SOS-free board
#: (a draw). Measured vs medium on 8x8 at 4000 nodes a move: 13/5/2 without, 20/0/0 with.
HARD_TENSION: Final = 3
#: Simple mode (two players): random games of safe moves that ``hard`` plays out at each quiet
#: leaf of its search (:func:`sos.ai.search.safe_playouts`), where a score-based evaluation
#: sees only 0; the fight is over who runs out of safe moves first (benchmarks/RESULTS.md).
#: This many on boards of at most :data:`PLAYOUT_BOARD_CELLS` squares and on those of more than
#: :data:`WIDE_PLAYOUT_MAX_CELLS` (:func:`hard_playouts`).
HARD_PLAYOUTS: Final = 2
#: Safe-move playouts a leaf on boards of more than :data:`PLAYOUT_BOARD_CELLS` and at most
#: :data:`WIDE_PLAYOUT_MAX_CELLS` squares (7x7 and 8x8). There the middle game has 20-45 safe
#: squares, the search reaches one or two plies before the proof takes over, and the mean of 2
#: random games (one of three values) judges a leaf too coarsely. Their moves count as search
#: nodes, so a move costs the same nodes (about the same time). On 8x8 at 15 000 nodes against the
#: UCT peer (benchmarks/RESULTS.md) 2 playouts lost 3 of 80 games by hard's own moves, 8 none.
HARD_PLAYOUTS_WIDE: Final = 8
#: The largest board (in squares, 6x6 in the app) that gets :data:`HARD_PLAYOUTS`.
PLAYOUT_BOARD_CELLS: Final = 36
#: The largest board (8x8) that gets :data:`HARD_PLAYOUTS_WIDE`. On larger boards a playout is
#: longer still and the page's nodes would buy fewer leaves than the first ply has moves (not
#: measured there; they keep :data:`HARD_PLAYOUTS`).
WIDE_PLAYOUT_MAX_CELLS: Final = 64
#: ``hard`` tries to prove a win (else a draw) from this many empty squares on
#: (:meth:`sos.ai.solver.Solver.result_action`), with up to :data:`ENDGAME_SHARE` of its budget;
#: if that runs out, the heuristic search gets the rest. In general mode the proof pays more
#: than the search: on the tune half of benchmarks/data/exact_positions.txt (5x5 and 6x6
#: general) hard kept the exact value in 45/50 at a share of 0.5 and 48/50 at 0.9 (35 000
#: nodes), 35/50 and 39/50 at 8 750 nodes.
ENDGAME_EMPTIES: Final = 18
ENDGAME_SHARE: Final = 0.9
#: The share in simple mode, where the search's safe-move playouts (:func:`hard_playouts`)
#: need the rest when a proof does not finish.
SIMPLE_ENDGAME_SHARE: Final = 0.5
#: Simple mode, two players: ``hard`` and the hint also try to prove a move when at most this
#: many empty squares are safe (some letter there opens no SOS), however many are empty. A move
#: that opens an SOS loses at once, so the solver searches only safe moves and the proof's size
#: follows the safe squares: at 12 of them 8 000-72 000 nodes, at 8 a few thousand (6x6 and 8x8
#: positions of medium-vs-medium games, benchmarks/RESULTS.md). The mid-game of simple mode is
#: decided by who runs out of safe moves first, which a depth-limited search does not see.
SIMPLE_PROOF_SAFE: Final = 14
#: On boards of at most :data:`EXACT_MAX_CELLS` squares (two players) ``hard`` proves its
#: move from the first move on (:meth:`sos.ai.solver.Solver.secure_action`: first a move that
#: draws at least, then a win), with up to this share of its budget.
SMALL_PROOF_SHARE: Final = 0.8
#: Entries of ``hard``'s endgame table before it is replaced (about 100 bytes each).
ENDGAME_TT_LIMIT: Final = 300_000
#: Chance that ``easy`` takes an open SOS when there is one.
EASY_TAKES_SOS: Final = 0.4
#: ``hard``'s budget for a whole turn (:meth:`HardAgent.plan_turn`: a chain of scoring moves
#: and the move that ends it), in moves' budgets (:func:`hard_budget`). A chain can run to a
#: hundred moves on 12x12 (every SOS scored keeps the turn); at a move's budget each, one turn
#: took 34 s. No single move of a turn gets more than a move's budget, so a turn of one move
#: searches as long as before. Against hard searching every move of a chain at a move's budget
#: (8x8 general, 3 000 nodes a move, 40 games each; benchmarks/RESULTS.md, 2026-12-05), a turn
#: budget of 1.5 (and 30 % a decision) won 13 and lost 26 games, 2.0 won 15 and lost 24, 4.0 won
#: 17 and lost 22: the searches of the first SOSs weigh the whole turn, so they keep a move's
#: budget for the first two.
TURN_BUDGET: Final = 3.0
#: The share of what is left of the turn's budget that one scoring decision (a position with
#: an SOS to take) may spend. Its search follows the chain to its end (a scoring move costs
#: no depth), so it already weighs the move that will end the turn; the table keeps what it
#: found for the next moves.
CAPTURE_SHARE: Final = 0.5
#: The least budget, in moves' budgets, of the move that ends a turn (no SOS left to take),
#: however much of the turn's budget the chain spent: the move that decides what the next
#: player gets.
QUIET_FLOOR: Final = 0.5
#: Moves of a turn that are searched. From then on, while an SOS is left to take, the turn
#: takes one without a search (:func:`obvious_capture`): on a chain of 74 moves on 12x12 that
#: scored 79 points where a search at every move scored 81 (benchmarks/bench_turn.py).
TURN_MOVES: Final = 4

T = TypeVar("T")

#: A computer's turn: its actions in order. Every one but the last scores (an SOS keeps the
#: turn); the last one scores nothing or ends the game.
Turn = tuple[Action, ...]


class BoardTooLargeError(ValueError):
    """Raised when ``perfect`` play or an exact solve is asked for on a board that is too big."""


def _done(value: T) -> Generator[None, None, T]:
    """A generator that returns ``value`` at once (for agents that need no slicing)."""
    yield from ()
    return value


class _Clock:
    """Seconds a generator spends in its own steps (the time between a resume and the next
    pause: what a search's time budget counts)."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def run(self, gen: Generator[None, None, T]) -> Generator[None, None, T]:
        """Step ``gen`` to its end, adding up the time of its steps; returns its result."""
        while True:
            start = perf_counter()
            try:
                next(gen)
            except StopIteration as stop:
                self.seconds += perf_counter() - start
                result: T = stop.value
                return result
            self.seconds += perf_counter() - start
            yield


def obvious_capture(pos: Position, rng: random.Random) -> Action:
    """An SOS to take in ``pos`` without a search: the one that leaves the most points to
    take next (what it scores, plus every point a move scores after it; among equals one at
    random). A chain's length depends on the order: a letter written to score often lines
    up the next SOS, and one written elsewhere can block it (taking the most points at each
    step instead ended a chain of 92 moves after 21 on 12x12, benchmarks/bench_turn.py).
    ``pos`` is unchanged.

    Raises:
        ValueError: when no move of ``pos`` scores.
    """
    scoring = pos.scoring_moves()
    if not scoring:
        raise ValueError("no SOS to take")
    best: list[Move] = []
    most = -1
    for gain, move in scoring:
        pos.play(move, gain)
        try:
            value = gain + sum(g for g, _ in pos.scoring_moves())
        finally:
            pos.unplay()
        if value > most:
            best, most = [move], value
        elif value == most:
            best.append(move)
    return move_action(rng.choice(best), pos.cols)


def _check_playable(state: GameState) -> None:
    if state.is_terminal():
        raise ValueError("the game is over: there is no action to choose")


class Agent:
    """Base class of the computer players. Subclasses implement :meth:`plan`."""

    level: str = ""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def plan(self, state: GameState) -> Generator[None, None, Action]:
        """Choose an action for the player to move, in pausable steps (see the module doc).

        Raises (on the first ``next()``):
            ValueError: if the game is over.
        """
        raise NotImplementedError

    def plan_turn(self, state: GameState) -> Generator[None, None, Turn]:
        """The player to move's whole turn, in pausable steps: :meth:`plan` move after move on
        a copy of ``state`` while the moves score (a scoring move keeps the turn), until one
        does not or the game ends. Returns the actions in order (at least one).

        Raises (on the first ``next()``):
            ValueError: if the game is over.
        """
        _check_playable(state)
        board = state.clone()
        me = board.current_player()
        actions: list[Action] = []
        while True:
            action = yield from self.plan(board)
            actions.append(action)
            board.apply(action)
            if board.current_player() != me:
                return tuple(actions)

    def choose_action(self, state: GameState) -> Action:
        """The action this agent plays for the player to move in ``state`` (not changed).

        Raises:
            ValueError: if the game is over (or, for ``perfect``, the board is too large).
        """
        return run_to_end(self.plan(state))

    def __repr__(self) -> str:
        return f"make_agent({self.level!r})"


class EasyAgent(Agent):
    """Takes an open SOS with probability :data:`EASY_TAKES_SOS`; otherwise any legal move."""

    level = "easy"

    def plan(self, state: GameState) -> Generator[None, None, Action]:
        _check_playable(state)
        pos = Position(state)
        scoring = pos.scoring_moves()
        if scoring and self.rng.random() < EASY_TAKES_SOS:
            move = self.rng.choice(scoring)[1]
        else:
            move = self.rng.choice(pos.ordered_moves()[0])
        return (yield from _done(move_action(move, pos.cols)))


class MediumAgent(Agent):
    """Takes the SOS worth the most points; else a move that opens no SOS; else any move."""

    level = "medium"

    def plan(self, state: GameState) -> Generator[None, None, Action]:
        _check_playable(state)
        pos = Position(state)
        moves, n_scoring, n_safe = pos.ordered_moves()
        if n_scoring:
            top = pos.scoring_moves()
            most = top[0][0]
            move = self.rng.choice([m for g, m in top if g == most])
        elif n_safe:
            move = self.rng.choice(moves[:n_safe])
        else:
            move = self.rng.choice(moves)
        return (yield from _done(move_action(move, pos.cols)))


class HardAgent(Agent):
    """Iterative-deepening alpha-beta within ``budget`` seconds of search time per move.

    ``budget="auto"`` (the default, what :func:`make_agent` gives) takes the page's budget
    for the board of the state to play, :func:`hard_budget`: 1.2 s up to 7x7, 0.4 s on larger
    boards. ``node_budget`` (nodes per move) instead of, or besides, the time budget makes its
    play independent of the machine's speed and load (tests, benchmarks); ``budget=None``
    drops the time limit.

    With two players, the exact solver (:attr:`endgame`, whose table is kept between moves)
    first tries to prove a move:

    * on boards of at most :data:`EXACT_MAX_CELLS` squares, from the first move on, with up
      to :data:`SMALL_PROOF_SHARE` of the budget: a move that draws at least, then, if the
      budget allows, one that wins (:meth:`sos.ai.solver.Solver.secure_action`; the opening
      book of the board's shape, 4x4, 3x4 or 3x5, answers the first moves there);
    * on larger boards with at most :data:`ENDGAME_EMPTIES` empty squares (simple mode: or
      at most :data:`SIMPLE_PROOF_SAFE` safe squares, :func:`prover_applies`), with up to
      :data:`ENDGAME_SHARE` (simple mode: :data:`SIMPLE_ENDGAME_SHARE`): in general mode, as
      on small boards, a draw first, then a win (``secure_action``: when the budget runs out
      in the second stage the drawing move is played); in simple mode a win, else a draw
      (:meth:`sos.ai.solver.Solver.result_action`).

    A proven move is played at once (general mode: after the rest of the budget raised its
    proven margin, :meth:`sos.ai.solver.Solver.improve_action`; when every action is proven to
    lose, the rest of the proof's share seeks the least loss,
    :meth:`sos.ai.solver.Solver.least_loss_action`); otherwise the search gets what is left of
    the budget. In simple mode (two players) the search judges a quiet leaf by
    :attr:`playouts` random games of safe moves (default :func:`hard_playouts` of the board).
    """

    level = "hard"

    def __init__(
        self,
        seed: int | None = None,
        budget: float | Literal["auto"] | None = "auto",
        node_budget: int | None = None,
    ) -> None:
        super().__init__(seed)
        #: Search seconds per move; ``"auto"``: :func:`hard_budget` of the game's rules.
        self.budget: float | Literal["auto"] | None = budget
        self.node_budget = node_budget
        self.searcher = AlphaBeta(budget=None, rng=self.rng, node_budget=node_budget)
        self.searcher.tension = HARD_TENSION
        #: Safe-move playouts a quiet leaf in simple mode; ``None``: :func:`hard_playouts` of
        #: the game's rules.
        self.playouts: int | None = None
        #: Endgame prover (two players), its table kept from move to move of a game; it reads
        #: the opening book of the board's shape (on 4x4 where the page has put it, see
        #: ``sos.ai.solver``).
        self.endgame = Solver(tt_limit=ENDGAME_TT_LIMIT)
        self._searched = 0  # nodes of the last move's heuristic search

    def move_budget(self, rules: Rules) -> Budget:
        """The budget of one move under ``rules``: :attr:`budget` seconds (``"auto"``:
        :func:`hard_budget`) and :attr:`node_budget` nodes."""
        seconds = hard_budget(rules) if self.budget == "auto" else self.budget
        return Budget(seconds, self.node_budget)

    def plan(self, state: GameState) -> Generator[None, None, Action]:
        _check_playable(state)
        action, _ = yield from self._move(state, self.move_budget(state.rules))
        return action

    def plan_turn(self, state: GameState) -> Generator[None, None, Turn]:
        """The whole turn of the player to move under one budget: :data:`TURN_BUDGET` moves'
        budgets for the chain of scoring moves and the move that ends it (at most
        :data:`TURN_BUDGET` + :data:`QUIET_FLOOR` in all).

        A position with an SOS to take gets up to :data:`CAPTURE_SHARE` of what is left;
        after :data:`TURN_MOVES` searched moves the SOSs left are taken without a search
        (:func:`obvious_capture`); the move that ends the turn gets what is left, at least
        :data:`QUIET_FLOOR` of a move's budget. No move gets more than a move's budget, so a
        turn of one move is searched as :meth:`plan` searches it. Returns the actions in
        order (see :data:`Turn`).

        Raises (on the first ``next()``):
            ValueError: if the game is over.
        """
        _check_playable(state)
        move = self.move_budget(state.rules)
        left = move.share(TURN_BUDGET)
        board = state.clone()
        me = board.current_player()
        actions: list[Action] = []
        searched = 0
        while True:
            pos = Position(board)
            scoring = pos.scoring_moves()
            if scoring and searched >= TURN_MOVES:
                action = obvious_capture(pos, self.rng)
                yield  # a pause point after each (a chain can run to a hundred)
            else:
                if scoring:
                    budget = move.capped(left.share(CAPTURE_SHARE))
                else:
                    budget = move.capped(left.raised(move.share(QUIET_FLOOR)))
                clock = _Clock()
                action, nodes = yield from clock.run(self._move(board, budget.at_least(1)))
                left = left.minus(clock.seconds, nodes)
                searched += 1
            actions.append(action)
            board.apply(action)
            if board.current_player() != me:
                return tuple(actions)

    def _move(self, state: GameState, budget: Budget) -> Generator[None, None, tuple[Action, int]]:
        """One move within ``budget``: the action and the nodes spent (prover and search)."""
        prover_nodes = self.endgame.nodes
        action = yield from self._search_move(state, budget)
        return action, self.endgame.nodes - prover_nodes + self._searched

    def _search_move(self, state: GameState, budget: Budget) -> Generator[None, None, Action]:
        self._searched = 0
        rules = state.rules
        small = rules.cells <= EXACT_MAX_CELLS
        self.searcher.playouts = hard_playouts(rules) if self.playouts is None else self.playouts
        if prover_applies(state):
            # Endgame (or a small board): first try to prove a move within a share of the
            # budget. On a small board a move proven to draw is kept while a win is sought.
            if small:
                share = budget.share(SMALL_PROOF_SHARE)
            else:
                simple = rules.mode == "simple"
                share = budget.share(SIMPLE_ENDGAME_SHARE if simple else ENDGAME_SHARE)
            prover = self.endgame
            before = prover.nodes, prover.pacer.spent
            try:
                if small or rules.mode == "general":
                    # A draw first, then a win: when the budget runs out looking for a win,
                    # the move proven to draw is played (benchmarks/RESULTS.md, 2026-12-03).
                    action, result, settled = yield from prover.secure_action(
                        state, self.rng, *share
                    )
                else:
                    action, result = yield from prover.result_action(state, self.rng, *share)
                    settled = True
                if action is None and rules.mode == "general":
                    # Every action loses: the rest of the proof's share seeks the least loss
                    # (the heuristic search often misses it, benchmarks/RESULTS.md); the
                    # search gets what is left if that does not finish.
                    me = state.current_player()
                    lead = state.scores[me] - state.scores[1 - me]
                    left = self._left(share, before)
                    if not left.spent:
                        action, _, _ = yield from prover.least_loss_action(
                            state, -lead - 1, self.rng, *left
                        )
                        return action
                if action is not None:
                    if settled and rules.mode == "general":
                        # The result is proven: the rest of the budget seeks the best margin.
                        me = state.current_player()
                        lead = state.scores[me] - state.scores[1 - me]
                        left = self._left(budget, before)
                        action = yield from self._best_margin(state, action, result - lead, left)
                    return action
            except SearchTimeout:
                pass
            budget = self._left(budget, before).at_least(1)
        # Actions an unfinished proof on a small board found to lose are not played.
        refuted = self.endgame.refuted if small and rules.players == 2 else []
        self.searcher.avoid = {action_move(a, rules.cols) for a in refuted}
        self.endgame.refuted = []
        found = yield from self.searcher.search(state, budget)
        self._searched = found.nodes
        return move_action(found.move, state.rules.cols)

    def _left(self, budget: Budget, before: tuple[int, float]) -> Budget:
        """What is left of ``budget`` after the prover's work since ``before`` (its nodes and
        search seconds then)."""
        nodes, seconds = before
        return budget.minus(self.endgame.pacer.spent - seconds, self.endgame.nodes - nodes)

    def _best_margin(
        self, state: GameState, action: Action, floor: int, left: Budget
    ) -> Generator[None, None, Action]:
        """The action of the best margin the solver proves within ``left``, starting from
        ``action``, which keeps a future value of at least ``floor`` (the proven result):
        :meth:`sos.ai.solver.Solver.improve_action`."""
        if left.spent:
            return action
        best, _, _ = yield from self.endgame.improve_action(state, action, floor, self.rng, *left)
        return best


class PerfectAgent(Agent):
    """Exact play (two players: the game-theoretic value; more: the paranoid value).

    Among the optimal actions it picks one at random (seeded). Raises
    :class:`BoardTooLargeError` for a board over :data:`EXACT_MAX_CELLS` squares.
    """

    level = "perfect"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.solver = Solver()

    def plan(self, state: GameState) -> Generator[None, None, Action]:
        _check_size(state)
        _check_playable(state)
        action, _ = yield from self.solver.best_action(state, self.rng)
        return action


def _check_size(state: GameState) -> None:
    if state.rules.cells > EXACT_MAX_CELLS:
        raise BoardTooLargeError(
            f"perfect play is offered on boards of at most {EXACT_MAX_CELLS} squares; "
            f"this board has {state.rules.cells}"
        )


_AGENTS: Final[dict[str, type[Agent]]] = {
    "easy": EasyAgent,
    "medium": MediumAgent,
    "hard": HardAgent,
    "perfect": PerfectAgent,
}


def make_agent(level: str, seed: int | None = None) -> Agent:
    """A computer player of ``level`` (one of :data:`LEVELS`) using ``random.Random(seed)``.

    Raises:
        ValueError: for an unknown level.
    """
    cls = _AGENTS.get(level) if isinstance(level, str) else None
    if cls is None:
        raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    return cls(seed)


# --------------------------------------------------------------------------- analysis
class Analysis(NamedTuple):
    """What the player to move can expect (for a hint).

    Attributes:
        action: the best action found (``None`` in a finished game, where all else is 0).
        value: future points for the player to move, ``own - opponents'`` from here on
            (``general``; with 3-4 players the opponents' points are summed, the paranoid
            value), or ``+1`` win / ``0`` draw / ``-1`` loss (``simple``). Exact when
            ``exact``; when only ``result`` is proven, the least value that proves it;
            otherwise a search estimate (a float).
        exact: True when ``value`` is proven: by the solver (two players, at most
            :data:`EXACT_MAX_CELLS` squares, or an endgame the solver finished within the
            budget) or because the search saw every line to the end.
        margin: the predicted final result for the player to move: in ``general`` mode
            ``value`` plus the current lead (own score minus the best other score), so
            ``margin > 0`` means "you can win by about ``margin``"; in ``simple`` mode equal
            to ``value``.
        depth: plies searched (0 for a solver or book answer).
        result: with two players, the game's result for the player to move under best play
            when it is proven (+1 win, 0 draw, -1 loss, counting the points already
            scored; ``action`` keeps it), else ``None`` (``value`` is an estimate).
    """

    action: Action | None
    value: float
    exact: bool
    margin: float
    depth: int
    result: int | None = None


def _margin(state: GameState, value: float) -> float:
    if state.rules.mode == "simple" or state.is_terminal():
        return value if state.rules.mode == "simple" else 0.0
    me = state.current_player()
    scores = state.scores
    lead = scores[me] - max(s for p, s in enumerate(scores) if p != me)
    return value + lead


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


#: Share of the hint's budget for proving the result (two players, at most
#: :data:`ENDGAME_EMPTIES` empty squares); the rest refines the margin or estimates.
HINT_PROOF_SHARE: Final = 0.8


def analyse_steps(
    state: GameState,
    budget: float | None = 1.0,
    seed: int | None = 0,
    node_budget: int | None = None,
) -> Generator[None, None, Analysis]:
    """:func:`analyse` as a pausable generator (drive it like :meth:`Agent.plan`).

    ``budget`` is in seconds of search time (pauses excluded), ``node_budget`` in nodes
    (deterministic). With two players: on boards of at most :data:`EXACT_MAX_CELLS`
    squares the exact solve runs to the end; where :func:`prover_applies` (at most
    :data:`ENDGAME_EMPTIES` empty squares, or few safe ones in simple mode) up to
    :data:`HINT_PROOF_SHARE` of the budget first goes to proving the result
    (:meth:`sos.ai.solver.Solver.result_action`), then to the exact value
    (:meth:`sos.ai.solver.Solver.best_action`); what is not proven is estimated by the
    heuristic search.
    """
    if state.is_terminal():
        return Analysis(None, 0.0, True, 0.0, 0, 0)
    rng = random.Random(seed)
    rules = state.rules
    if rules.players == 2 and rules.cells <= EXACT_MAX_CELLS:
        best, exact_value = yield from Solver().best_action(state, rng)
        margin = _margin(state, float(exact_value))
        return Analysis(best, float(exact_value), True, margin, 0, _sign(margin))
    if prover_applies(state):
        solver = Solver(use_book=False)
        total = Budget(budget, node_budget)
        try:
            proven, result = yield from solver.result_action(
                state, rng, *total.share(HINT_PROOF_SHARE)
            )
        except SearchTimeout:
            proven, result = None, None
        left = total.minus(solver.pacer.spent, solver.nodes).at_least(1)
        if result is not None:
            try:
                best, exact_value = yield from solver.best_action(state, rng, *left)
                margin = _margin(state, float(exact_value))
                return Analysis(best, float(exact_value), True, margin, 0, result)
            except SearchTimeout:
                pass
            lead = _margin(state, 0.0)
            # The least value that proves the result: a final difference of +1 / 0 / -1.
            least = float(result) if rules.mode == "simple" else float(result - lead)
            if proven is None:  # every action loses: the search picks the least bad one
                searcher = AlphaBeta(rng=rng)
                found = yield from searcher.search(state, total.rest(HINT_PROOF_SHARE))
                proven = move_action(found.move, rules.cols)
            return Analysis(proven, least, False, _margin(state, least), 0, result)
        budget, node_budget = left
    searcher = AlphaBeta(budget=budget, rng=rng, node_budget=node_budget)
    found = yield from searcher.search(state)
    action = move_action(found.move, rules.cols)
    value: float = found.value
    if rules.mode == "general" and not found.exact:
        value = round(value, 2)
    margin = _margin(state, value)
    known = _sign(margin) if found.exact and rules.players == 2 else None
    return Analysis(action, value, found.exact, margin, found.depth, known)


def prover_applies(state: GameState) -> bool:
    """Whether ``hard`` and the hint first try to prove a move in ``state`` with the exact
    solver: two players and a board of at most :data:`EXACT_MAX_CELLS` squares, at most
    :data:`ENDGAME_EMPTIES` empty squares, or (simple mode) at most :data:`SIMPLE_PROOF_SAFE`
    safe squares."""
    rules = state.rules
    if rules.players != 2:
        return False
    if rules.cells <= EXACT_MAX_CELLS or state.empty_squares <= ENDGAME_EMPTIES:
        return True
    return rules.mode == "simple" and Position(state).safe_squares() <= SIMPLE_PROOF_SAFE


def hard_budget(rules: Rules) -> float:
    """Seconds of search per ``hard`` move that the page gives on a board of ``rules``:
    :data:`HARD_BUDGET_PROOF` on 5x5 (more than :data:`EXACT_MAX_CELLS`, at most
    :data:`PROOF_BOARD_CELLS` squares), :data:`HARD_BUDGET_SMALL` on the other boards up to
    7x7, :data:`HARD_BUDGET` on larger boards (where the browser target is 0.5 s a move, and
    each search node is dearer)."""
    if EXACT_MAX_CELLS < rules.cells <= PROOF_BOARD_CELLS:
        return HARD_BUDGET_PROOF
    return HARD_BUDGET_SMALL if rules.cells <= SMALL_BOARD_CELLS else HARD_BUDGET


def hard_playouts(rules: Rules) -> int:
    """Random games of safe moves that ``hard`` plays out at each quiet leaf of its search in
    simple mode on a board of ``rules`` (:attr:`sos.ai.search.AlphaBeta.playouts`):
    :data:`HARD_PLAYOUTS_WIDE` on boards of more than :data:`PLAYOUT_BOARD_CELLS` and at most
    :data:`WIDE_PLAYOUT_MAX_CELLS` squares, else :data:`HARD_PLAYOUTS`. (General mode does not
    use them.)"""
    if PLAYOUT_BOARD_CELLS < rules.cells <= WIDE_PLAYOUT_MAX_CELLS:
        return HARD_PLAYOUTS_WIDE
    return HARD_PLAYOUTS


def analyse(state: GameState, budget: float = 1.0, seed: int | None = 0) -> Analysis:
    """The best action for the player to move and what it is worth (see :class:`Analysis`)."""
    return run_to_end(analyse_steps(state, budget, seed))


__all__ = [
    "HARD_BUDGET",
    "HARD_BUDGET_PROOF",
    "HARD_BUDGET_SMALL",
    "LEVELS",
    "Agent",
    "Analysis",
    "BoardTooLargeError",
    "Turn",
    "action_move",
    "analyse",
    "analyse_steps",
    "hard_budget",
    "hard_playouts",
    "levels_for",
    "make_agent",
    "obvious_capture",
    "prover_applies",
]
