"""Strength matches of the project's levels (``sos.ai.agents``) against independent peers in C
(``benchmarks/csos``): UCT Monte-Carlo tree search with random playouts, and a depth-4
alpha-beta on the score difference — the kinds of program published SOS players use.

Games come in pairs: a seeded random 2-move opening is played twice, with the seats swapped.
``hard`` searches a fixed number of nodes a move (``--hard-nodes``, default the page's budget
of ``benchmarks.bench_ai.PAGE_NODES``), so results do not depend on the machine's load; the
UCT peer gets ``--mcts-iterations`` a move (default 200 000: about one second of the C program
on one core of the machines of ``benchmarks/RESULTS.md``).

``--playouts N`` sets hard's safe-move playouts a leaf in simple mode (default
``sos.ai.agents.hard_playouts`` of the board; 0: none), ``--first K`` starts at game K
(opening seed ``seed + K // 2``), so a long match can run in parts. Hard's CPU seconds a
move are reported.

Prints one line a game and a summary: wins, draws and losses of the level, its share of game
points (win 1, draw 1/2) and, in general mode, its share of the SOSs scored; the last line is
``JSON {...}``.

    python -m benchmarks.peer_match --size 6 --mode simple --peer mcts --games 40
    python -m benchmarks.peer_match --size 8 --mode general --peer ab4 --games 40 --level hard
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from benchmarks.csos.driver import CSolver
from sos import Action, GameState, Rules, new_game
from sos.ai.agents import Agent, HardAgent, make_agent
from sos.rules import Mode

#: The UCT peer's iterations a move: ~1 s of csos on one core.
MCTS_ITERATIONS = 200_000
#: The alpha-beta peer's depth in plies (a scoring move is a ply).
AB_DEPTH = 4


def default_hard_nodes(size: int) -> int:
    """The page's node budget for ``size`` (``benchmarks.bench_ai.PAGE_NODES``, 8 000 above)."""
    from benchmarks.bench_ai import PAGE_NODES

    return PAGE_NODES.get(size, 8_000)


def make_level(level: str, seed: int, hard_nodes: int, playouts: int | None = None) -> Agent:
    """The project's player of ``level``; ``hard`` at ``hard_nodes`` nodes a move (and
    ``playouts`` safe-move playouts a leaf in simple mode instead of
    ``sos.ai.agents.hard_playouts`` of the board)."""
    if level == "hard":
        agent = HardAgent(seed=seed, budget=None, node_budget=hard_nodes)
        if playouts is not None:
            agent.playouts = playouts
        return agent
    return make_agent(level, seed)


def peer_action(c: CSolver, peer: str, state: GameState, seed: int, iterations: int) -> Action:
    """The action of peer ``mcts`` or ``ab4`` for the side to move."""
    if peer == "mcts":
        return c.mcts_action(state, seconds=0.0, seed=seed, iterations=iterations)[0]
    if peer == "ab4":
        return c.alphabeta_action(state, depth=AB_DEPTH, seed=seed)[0]
    raise ValueError(f"unknown peer {peer!r}; expected mcts or ab4")


def play_game(
    c: CSolver,
    size: int,
    mode: Mode,
    level: str,
    peer: str,
    level_seat: int,
    opening_seed: int,
    hard_nodes: int,
    iterations: int,
    playouts: int | None = None,
) -> dict[str, Any]:
    """One game; returns the level's result (``win``/``draw``/``loss``), both sides' points,
    the plies played and the moves."""
    rng = random.Random(opening_seed)
    state = new_game(Rules.square(size, mode))
    for _ in range(2):
        state.apply(rng.choice(state.legal_actions()))
    agent = make_level(level, opening_seed * 2 + level_seat, hard_nodes, playouts)
    cpu = 0.0
    ply = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == level_seat:
            t0 = time.process_time()
            action = agent.choose_action(state)
            cpu += time.process_time() - t0
        else:
            action = peer_action(c, peer, state, opening_seed * 1000 + ply, iterations)
        state.apply(action)
        ply += 1
    outcome = state.outcome()
    assert outcome is not None
    winner = outcome.winner
    result = "draw" if winner is None else ("win" if winner == level_seat else "loss")
    return {
        "result": result,
        "level_points": state.scores[level_seat],
        "peer_points": state.scores[1 - level_seat],
        "level_seat": level_seat,
        "opening_seed": opening_seed,
        "level_cpu": cpu,
        "size": size,
        "mode": mode,
        "moves": [str(a) for a in state.history],
    }


def _mover(record: dict[str, Any], ply: int) -> int:
    """The seat that made move ``ply`` of a game record (a scoring move keeps the turn)."""
    moves = record.get("_movers")
    if moves is None:
        moves = record["_movers"] = _movers(record["moves"], record["size"], record["mode"])
    return int(moves[ply])


def _movers(moves: list[str], size: int, mode: Mode) -> list[int]:
    state = new_game(Rules.square(size, mode))
    out = []
    for text in moves:
        out.append(state.current_player())
        state.apply(Action.parse(text))
    return out


def match(
    size: int,
    mode: Mode,
    level: str,
    peer: str,
    games: int,
    seed: int,
    hard_nodes: int,
    iterations: int,
    verbose: bool = True,
    playouts: int | None = None,
    first: int = 0,
) -> dict[str, Any]:
    """``games`` games (pairs with seats swapped); the summary figures."""
    tally = {"win": 0, "draw": 0, "loss": 0}
    level_points = peer_points = 0
    losses: list[dict[str, Any]] = []
    level_cpu = 0.0
    level_moves = 0
    t0 = time.perf_counter()
    with CSolver() as c:
        for g in range(first, first + games):
            record = play_game(
                c, size, mode, level, peer, g % 2, seed + g // 2, hard_nodes, iterations,
                playouts,
            )
            level_cpu += record["level_cpu"]
            level_moves += sum(
                1 for i in range(len(record["moves"])) if _mover(record, i) == record["level_seat"]
            )
            tally[record["result"]] += 1
            level_points += record["level_points"]
            peer_points += record["peer_points"]
            if record["result"] == "loss":
                losses.append(record)
            record.pop("_movers", None)
            if verbose:
                print(
                    f"game {g + 1}: {level} seat {record['level_seat']} "
                    f"{record['result']} {record['level_points']}-{record['peer_points']} "
                    f"({len(record['moves'])} plies; opening seed {record['opening_seed']})",
                    flush=True,
                )
    played = sum(tally.values())
    share = (tally["win"] + tally["draw"] / 2) / played if played else 0.0
    sos_share = level_points / (level_points + peer_points) if level_points + peer_points else 0.5
    return {
        "size": size,
        "mode": mode,
        "level": level,
        "peer": peer,
        "games": played,
        **tally,
        "game_points_pct": round(100 * share, 1),
        "sos_share_pct": round(100 * sos_share, 1),
        "hard_nodes": hard_nodes,
        "mcts_iterations": iterations,
        "seconds": round(time.perf_counter() - t0, 1),
        "level_cpu_per_move": round(level_cpu / level_moves, 3) if level_moves else 0.0,
        "lost_games": [" ".join(r["moves"]) for r in losses],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--mode", choices=("general", "simple"), default="simple")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--peer", choices=("mcts", "ab4"), default="mcts")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard-nodes", type=int)
    parser.add_argument("--mcts-iterations", type=int, default=MCTS_ITERATIONS)
    parser.add_argument("--playouts", type=int, help="hard's safe-move playouts a leaf")
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    args = parser.parse_args(argv)
    nodes = args.hard_nodes or default_hard_nodes(args.size)
    figures = match(
        args.size,
        args.mode,
        args.level,
        args.peer,
        args.games,
        args.seed,
        nodes,
        args.mcts_iterations,
        playouts=args.playouts,
        first=args.first,
    )
    print(
        f"{args.level} vs {args.peer} on {args.size}x{args.size} {args.mode}: "
        f"{figures['win']}/{figures['draw']}/{figures['loss']} (W/D/L) in {figures['games']} "
        f"games, {figures['game_points_pct']} % of game points, "
        f"{figures['sos_share_pct']} % of SOSs; hard {nodes} nodes a move, "
        f"mcts {args.mcts_iterations} iterations a move; {figures['seconds']} s, "
        f"{figures['level_cpu_per_move']} CPU s a {args.level} move"
    )
    print("JSON " + json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
