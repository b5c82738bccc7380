"""The four levels: API, determinism, behaviour, and the analysis for hints."""

from __future__ import annotations

import random
from collections.abc import Generator

import pytest

from sos import Action, GameState, Rules, new_game, solve
from sos.ai import LEVELS, agents, levels_for
from sos.ai import search as search_module
from sos.ai.agents import (
    BoardTooLargeError,
    HardAgent,
    action_move,
    analyse,
    analyse_steps,
    make_agent,
)
from sos.ai.base import Budget
from sos.ai.search import AlphaBeta, Pacer, Position, SearchResult, run_to_end
from sos.ai.solver import solve_actions
from sos.rules import MAX_APP_SIZE


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        make_agent("grandmaster")


def test_perfect_refuses_large_boards() -> None:
    agent = make_agent("perfect")
    with pytest.raises(BoardTooLargeError):
        agent.choose_action(new_game(Rules.square(5)))
    with pytest.raises(ValueError):
        next(agent.plan(new_game(Rules.square(5))))
    assert "perfect" in levels_for(Rules.square(4))
    assert "perfect" not in levels_for(Rules.square(5))


@pytest.mark.parametrize("level", LEVELS)
def test_plays_legal_moves_and_leaves_state_alone(level: str) -> None:
    state = GameState.from_text("S.../.O../..../...S")
    before = (repr(state), state.history)
    agent = make_agent(level, seed=1)
    action = agent.choose_action(state)
    assert state.is_legal(action)
    assert (repr(state), state.history) == before
    with pytest.raises(ValueError):
        agent.choose_action(GameState.from_text("SOS/OOO/SOS"))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_seeded_agents_repeat(level: str) -> None:
    def game(seed: int) -> tuple[Action, ...]:
        state = new_game(Rules.square(5))
        agents = [make_agent(level, seed=seed), make_agent(level, seed=seed + 1)]
        if level == "hard":
            for agent in agents:
                agent.budget = None  # type: ignore[attr-defined]
                agent.node_budget = 300  # type: ignore[attr-defined]
        while not state.is_terminal():
            state.apply(agents[state.current_player()].choose_action(state))
        return state.history

    assert game(4) == game(4)


def test_medium_takes_sos_and_avoids_opening() -> None:
    agent = make_agent("medium", seed=0)
    state = GameState.from_text("S.S../...../.....")
    assert agent.choose_action(state) == Action(0, 1, "O")
    state = GameState.from_text("S..../...../.....")
    for _ in range(20):
        action = agent.choose_action(state)
        after = state.child(action)
        assert not any(after.scoring_lines(a) for a in after.legal_actions())


def test_easy_sometimes_skips_an_open_sos() -> None:
    state = GameState.from_text("S.S../...../.....")
    agent = make_agent("easy", seed=0)
    took = sum(bool(state.scoring_lines(agent.choose_action(state))) for _ in range(200))
    assert 20 < took < 180


def test_hard_sees_the_trap() -> None:
    state = GameState.from_text("OO.S/OO.S/S..S/SOSO")
    assert make_agent("hard", seed=0).choose_action(state) == Action(0, 2, "O")


def test_perfect_plays_optimally() -> None:
    rng = random.Random(5)
    agent = make_agent("perfect", seed=2)
    for _ in range(8):
        state = new_game(Rules(3, 3, rng.choice(["general", "simple"])))
        for _ in range(rng.randint(0, 4)):
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        action = agent.choose_action(state)
        assert dict(solve_actions(state))[action] == solve(state)


def test_perfect_first_move_on_4x4_from_book() -> None:
    for mode in ("general", "simple"):
        state = new_game(Rules(4, 4, mode))  # type: ignore[arg-type]
        action = make_agent("perfect", seed=0).choose_action(state)
        assert state.is_legal(action)


def test_perfect_with_three_players() -> None:
    state = GameState.from_text("S.S/.../...", players=3, to_move=1)
    assert make_agent("perfect").choose_action(state) == Action(0, 1, "O")


def test_hard_proves_the_endgame(monkeypatch: pytest.MonkeyPatch) -> None:
    # 6x6, 17 empty squares (from a hard-vs-medium game): only S in the top left corner wins
    # (+4; every other action loses by 5 or more), which the heuristic search alone misses.
    state = GameState.from_text("..S.OO/SS..SO/...S.O/.O...S/O...SO/OOS.OO", to_move=1)
    hard = HardAgent(seed=1, budget=None, node_budget=22_000)
    assert hard.choose_action(state) == Action(0, 0, "S")
    assert hard.endgame.tt  # the proof ran (and its table is kept for the next move)
    monkeypatch.setattr(agents, "ENDGAME_EMPTIES", 0)
    blind = HardAgent(seed=1, budget=None, node_budget=22_000)
    assert blind.choose_action(state) != Action(0, 0, "S")
    assert not blind.endgame.tt


def test_hard_endgame_budget_is_shared() -> None:
    # A proof that does not finish in its share leaves the rest of the budget to the search.
    state = GameState.from_text("..S.OO/SS..SO/...S.O/.O...S/O...SO/OOS.OO", to_move=1)
    hard = HardAgent(seed=1, budget=None, node_budget=600)
    action = hard.choose_action(state)
    assert state.is_legal(action)
    assert hard.endgame.nodes + hard.searcher.nodes <= 600 + 64


@pytest.mark.slow
def test_hard_beats_medium_on_5x5() -> None:
    # A node budget, not seconds: the result must not depend on the machine's speed or load.
    wins = 0
    for g in range(8):
        state = new_game(Rules.square(5))
        hard = HardAgent(seed=g, budget=None, node_budget=2000)
        seats = [hard, make_agent("medium", seed=g)] if g % 2 == 0 else [
            make_agent("medium", seed=g), hard]
        while not state.is_terminal():
            state.apply(seats[state.current_player()].choose_action(state))
        me = 0 if g % 2 == 0 else 1
        wins += state.scores[me] > state.scores[1 - me]
    assert wins >= 7  # (8 of 8 when measured)


def test_analysis() -> None:
    exact = analyse(GameState.from_text("OO.S/OO.S/S..S/SOSO", scores=[1, 4]))
    assert exact.exact and exact.value == 2 and exact.action == Action(0, 2, "O")
    assert exact.margin == 2 + 1 - 4
    simple = analyse(new_game(Rules(1, 7, "simple")))
    assert simple.exact and simple.value == 1 and simple.margin == 1
    rough = run_to_end(analyse_steps(new_game(Rules.square(6)), budget=None, node_budget=2000))
    assert not rough.exact and rough.action is not None and rough.result is None
    done = analyse(GameState.from_text("SOS/OOO/SOS"))
    assert done.action is None and done.exact


def test_hard_budget_belongs_to_the_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    # make_agent("hard") searches as long as the page's budget for the board it is given.
    seen: list[float | None] = []
    real_search = AlphaBeta.search

    def spy(
        self: AlphaBeta, state: GameState, budget: Budget | None = None
    ) -> Generator[None, None, SearchResult]:
        seen.append(budget.seconds if budget is not None else self.budget)
        return real_search(self, state, budget)

    monkeypatch.setattr(AlphaBeta, "search", spy)
    monkeypatch.setattr(agents, "HARD_BUDGET", 0.01)
    monkeypatch.setattr(agents, "HARD_BUDGET_SMALL", 0.02)
    monkeypatch.setattr(agents, "HARD_BUDGET_PROOF", 0.025)
    hard = make_agent("hard", seed=0)
    assert hard.budget == "auto"  # type: ignore[attr-defined]
    hard.choose_action(new_game(Rules.square(8)))
    hard.choose_action(new_game(Rules.square(6)))
    hard.choose_action(new_game(Rules.square(5)))
    assert seen == [agents.hard_budget(Rules.square(s)) for s in (8, 6, 5)]
    assert seen == [0.01, 0.02, 0.025]
    hard.budget = 0.03  # type: ignore[attr-defined]  # an explicit budget still wins
    hard.choose_action(new_game(Rules.square(8)))
    assert seen[-1] == 0.03


def test_hard_budget_by_board() -> None:
    # 5x5 gets the endgame proof's longer budget; 4x4 and smaller (book and exact play from
    # the first move) and 6x6 the small boards' one; larger boards the short one.
    sizes = (3, 4, 5, 6, 7, 8, MAX_APP_SIZE)  # up to the largest board
    budget = {size: agents.hard_budget(Rules.square(size)) for size in sizes}
    assert budget == {3: agents.HARD_BUDGET_SMALL, 4: agents.HARD_BUDGET_SMALL,
                      5: agents.HARD_BUDGET_PROOF, 6: agents.HARD_BUDGET_SMALL,
                      7: agents.HARD_BUDGET_SMALL, 8: agents.HARD_BUDGET,
                      MAX_APP_SIZE: agents.HARD_BUDGET}
    assert agents.HARD_BUDGET < agents.HARD_BUDGET_SMALL < agents.HARD_BUDGET_PROOF
    assert agents.hard_budget(Rules(4, 5)) == agents.HARD_BUDGET_PROOF  # 20 squares


@pytest.mark.parametrize(
    ("rows", "cols", "mode"), [(3, 3, "general"), (4, 4, "simple"), (3, 5, "general")]
)
def test_hard_holds_perfect_play_on_small_boards(rows: int, cols: int, mode: str) -> None:
    # On boards of at most 16 squares hard proves a move that keeps at least a draw (the
    # book of the board's shape answers the opening): it never loses to perfect play.
    perfect = make_agent("perfect", seed=3)
    for g in range(2):
        hard = HardAgent(seed=g, budget=None, node_budget=33_000)
        state = new_game(Rules(rows, cols, mode))  # type: ignore[arg-type]
        seats = [hard, perfect] if g % 2 == 0 else [perfect, hard]
        while not state.is_terminal():
            agent = seats[state.current_player()]
            state.apply(agent.choose_action(state))
        assert state.returns()[0 if g % 2 == 0 else 1] >= 0  # a draw or a win


@pytest.mark.slow
def test_analysis_proves_the_endgame_result() -> None:
    # 6x6, 17 empty squares: only S in the top left corner wins (+4 by the solver).
    state = GameState.from_text("..S.OO/SS..SO/...S.O/.O...S/O...SO/OOS.OO", to_move=1)
    proof = run_to_end(analyse_steps(state, budget=None, node_budget=30_000))
    assert proof.result == 1 and proof.action == Action(0, 0, "S")
    full = run_to_end(analyse_steps(state, budget=None, node_budget=None))
    assert full.exact and full.value == 4 and full.result == 1
    # Too small a budget to prove anything: an estimate, with no result claimed.
    rough = run_to_end(analyse_steps(state, budget=None, node_budget=300))
    assert rough.result is None and not rough.exact


def test_analysis_claims_only_true_results() -> None:
    rng = random.Random(4)
    for k in range(6):
        state = new_game(Rules(5, 5, "general" if k % 2 else "simple"))
        while state.empty_squares > 11 and not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        me = state.current_player()
        lead = 0 if k % 2 == 0 else state.scores[me] - state.scores[1 - me]
        total = lead + solve(state)
        hint = run_to_end(analyse_steps(state, budget=None, node_budget=4000 * (k % 3)))
        if hint.result is not None:
            assert hint.result == (total > 0) - (total < 0)
        if hint.exact:
            assert hint.margin == total


# 8x8 simple mode, 22 empty squares but only 8 safe ones: the player to move wins (exact), by
# the parity of the safe moves left, far beyond the 18 empty squares where proofs used to start.
PARITY_WIN = "OSOO..SO/OS..S..S/O.OO.S.O/OOOO..SO/.OOO..SO/S..O.SSS/SS..S..O/OSSSOO.O"


def test_simple_mode_proves_by_safe_squares_not_empty_ones() -> None:
    state = GameState.from_text(PARITY_WIN, mode="simple")
    assert state.empty_squares > agents.ENDGAME_EMPTIES
    assert agents.prover_applies(state)
    general = GameState.from_text(PARITY_WIN, mode="general")
    assert not agents.prover_applies(general)  # general mode: empty squares decide
    hard = HardAgent(seed=1, budget=None, node_budget=20_000)
    action = hard.choose_action(state)
    assert not state.scoring_lines(action)  # nothing to take: a quiet move
    child = state.clone()
    child.apply(action)
    assert solve(child) == -1  # the opponent, to move, loses: hard kept the win
    hint = run_to_end(agents.analyse_steps(state, budget=None, node_budget=20_000))
    assert hint.result == 1  # and the hint says it is proven


def test_hard_seeks_the_least_loss_when_every_action_loses() -> None:
    # 5x5, 10 empty squares, 20 points behind: every action loses; only O at c5 keeps the
    # exact value (0 from here on). The solver finds it; the heuristic search does not run.
    state = GameState.from_text(
        "OSSS./OSSSS/.O.../OOO../O...S", mode="general", to_move=1, scores=[20, 0]
    )
    values = dict(solve_actions(state))
    assert max(values.values()) == 0 and [a for a, v in values.items() if v == 0] == [
        Action(4, 2, "O")
    ]
    hard = HardAgent(seed=1, budget=None, node_budget=20_000)
    assert hard.choose_action(state) == Action(4, 2, "O")
    assert hard.searcher.nodes == 0


def test_hard_playouts_follow_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    # Simple mode: 2 safe-move playouts a quiet leaf up to 6x6 and above 8x8, more on 7x7 and
    # 8x8 (where a mean of 2 random games judges the middle game too coarsely;
    # benchmarks/RESULTS.md).
    counts = {size: agents.hard_playouts(Rules.square(size, "simple")) for size in (5, 6, 7, 8, 9)}
    assert counts == {5: agents.HARD_PLAYOUTS, 6: agents.HARD_PLAYOUTS,
                      7: agents.HARD_PLAYOUTS_WIDE, 8: agents.HARD_PLAYOUTS_WIDE,
                      9: agents.HARD_PLAYOUTS}
    assert agents.HARD_PLAYOUTS_WIDE > agents.HARD_PLAYOUTS
    seen: list[int] = []
    real = search_module.safe_playout_steps

    def spy(
        pos: Position, playouts: int, seed: int, pacer: Pacer | None = None
    ) -> Generator[None, None, tuple[int, int]]:
        seen.append(playouts)
        return real(pos, playouts, seed, pacer)

    monkeypatch.setattr(search_module, "safe_playout_steps", spy)
    # Middle games (no proof applies: too many safe squares), searched 3 000 nodes a move.
    for size, expected in ((8, agents.HARD_PLAYOUTS_WIDE), (6, agents.HARD_PLAYOUTS)):
        state = new_game(Rules.square(size, "simple"))
        for text in ("S@a1", "O@f6"):
            state.apply(Action.parse(text))
        assert not agents.prover_applies(state)
        seen.clear()
        HardAgent(seed=1, budget=None, node_budget=3000).choose_action(state)
        assert seen and set(seen) == {expected}, (size, set(seen))
    hard = HardAgent(seed=1, budget=None, node_budget=3000)
    hard.playouts = 0  # an explicit count wins (0: a quiet leaf is worth 0)
    seen.clear()
    hard.choose_action(state)
    assert not seen and hard.searcher.playouts == 0


def test_hard_plays_a_proven_draw_when_the_win_search_runs_out() -> None:
    # 5x5 general, 13 empty squares, a draw (csos: O@b1, O@b2 and O@c5 keep it; position 107
    # of benchmarks/data/exact_positions_b.txt). At 9 000 nodes the proof of "no action wins"
    # does not finish; proving a draw first leaves a drawing move to play (a win first left
    # nothing proven, and the heuristic search's move lost a point).
    state = GameState.from_text("O.S.O/O..../O..S./S..SS/OO.OO", mode="general", to_move=1)
    action = HardAgent(seed=107, budget=None, node_budget=9_000).choose_action(state)
    assert str(action) in {"O@b1", "O@b2", "O@c5"}


def test_hard_plans_a_whole_turn_under_one_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # Twelve SOSs to take, one a gap: hard takes them all in one turn, searches at most
    # TURN_MOVES of its moves and the move that ends the turn, and takes the rest at once.
    state = GameState.from_text("/".join(["SO.SO.SO.SO."] * 3), to_move=1)
    searches: list[int] = []
    real_search = AlphaBeta.search

    def spy(
        self: AlphaBeta, state: GameState, budget: Budget | None = None
    ) -> Generator[None, None, SearchResult]:
        searches.append(state.empty_squares)
        return real_search(self, state, budget)

    monkeypatch.setattr(AlphaBeta, "search", spy)
    hard = HardAgent(seed=1, budget=None, node_budget=400)
    turn = run_to_end(hard.plan_turn(state))
    board = state.clone()
    points = [len(board.apply(action)) for action in turn]
    assert all(points[:-1]) and sum(points) >= 12
    assert board.current_player() == 0 or board.is_terminal()
    assert len(searches) <= agents.TURN_MOVES + 1 < len(turn)
    assert state.empty_squares == 12  # the state given is untouched


def test_an_obvious_capture_keeps_the_chain_going() -> None:
    # Two SOSs to take, a point each: S@c1 (a1-c1) lines up the next one (S@e1: c1-e1),
    # O@b4 (a4-c4) lines up nothing. The chain goes on through S@c1.
    state = GameState.from_text("SO.O.S/....../....../S.S...")
    pos = Position(state)
    assert sorted(pos.scoring_moves()) == sorted(
        [(1, action_move(Action(0, 2, "S"), 6)), (1, action_move(Action(3, 1, "O"), 6))]
    )
    for seed in range(5):
        assert agents.obvious_capture(pos, random.Random(seed)) == Action(0, 2, "S")
    assert Position(state).tt_key() == pos.tt_key()  # unchanged
    with pytest.raises(ValueError):
        agents.obvious_capture(Position(new_game(Rules.square(4))), random.Random(0))
