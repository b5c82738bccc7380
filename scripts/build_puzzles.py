#!/usr/bin/env python3
"""Build the puzzle set static/puzzles/puzzles-v1.json (format: :mod:`sos.app.learn.puzzle_set`).

Plays engine games (hard vs hard and hard vs medium, seeded; boards 4x4 … 8x8, general and
simple mode) and, in each, looks at the positions with at most ``--max-empty`` empty squares:
the exact solver (:class:`sos.ai.solver.Solver`) keeps a position where the player to move has
exactly one move that keeps the position's value (simple: the only win; general: the only move
that does not give away points, with a final result of a draw or better). The solution line is
extended while the opponent's best reply leaves the player again exactly one such move (up to
``--max-steps`` moves to find). Every other move of each step is stored with its exact value and
the opponent's best reply (the refutation the page plays back).

Difficulty 1–5 from: how often ``hard`` at a small node budget (4 seeds) and ``medium``
(4 seeds) find the move, the number of moves to find, and whether the move scores at once.

Usage (a few minutes of CPU; deterministic for a given seed)::

    nice -n 10 python3 scripts/build_puzzles.py [--count 320] [--seed 1] [--out FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sos.ai.agents import HardAgent, MediumAgent  # noqa: E402
from sos.ai.search import run_to_end  # noqa: E402
from sos.ai.solver import Solver  # noqa: E402
from sos.app.learn.puzzle_set import Puzzle, Refutation, dump_puzzles, final_margin  # noqa: E402
from sos.app.saving.transcript import encode_moves  # noqa: E402
from sos.notation import Action  # noqa: E402
from sos.rules import Rules  # noqa: E402
from sos.state import GameState, new_game  # noqa: E402

T = TypeVar("T")

SIZES = (4, 5, 6, 7, 8)
MODES = ("general", "simple")
MATCHES = (("hard", "hard"), ("hard", "medium"), ("medium", "hard"))
#: Nodes per move of ``hard`` in the generated games, and when rating a puzzle.
GAME_NODES = 1500
RATE_NODES = 150
#: Fewest wrong moves a puzzle offers (so at least 3 empty squares).
MIN_WRONG = 5


class TooSlow(Exception):
    """A solve went over its node cap: the position is skipped."""


def bounded(solver: Solver, gen: Generator[None, None, T], cap: int) -> T:
    """Run a solver generator; raise :class:`TooSlow` after ``cap`` more nodes."""
    limit = solver.nodes + cap
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            result: T = stop.value
            return result
        if solver.nodes > limit:
            gen.close()
            raise TooSlow


def agent(level: str, seed: int) -> HardAgent | MediumAgent:
    if level == "hard":
        return HardAgent(seed, budget=None, node_budget=GAME_NODES)
    return MediumAgent(seed)


def unique_best(solver: Solver, state: GameState, cap: int) -> tuple[int, Action] | None:
    """(value, the one action that keeps it), or None when several (or none) do."""
    value, keep = bounded(solver, solver.optimal_actions(state), cap)
    return (value, keep[0]) if len(keep) == 1 else None


def wrong_moves(
    solver: Solver, state: GameState, best: Action, cap: int
) -> dict[Action, Refutation]:
    """Every other legal action with its exact value and the opponent's best reply."""
    out: dict[Action, Refutation] = {}
    me = state.current_player()
    for action, value in bounded(solver, solver.action_values(state), cap):
        if action == best:
            continue
        child = state.child(action)
        reply = None
        if not child.is_terminal() and child.current_player() != me:
            _, replies = bounded(solver, solver.optimal_actions(child), cap)
            reply = replies[0]
        out[action] = Refutation(action, value, reply)
    return out


def goal_of(state: GameState, value: int, wrong: dict[Action, Refutation]) -> str | None:
    me = state.current_player()
    if len(wrong) < MIN_WRONG:
        return None  # too few squares left to make it a puzzle
    if state.rules.mode == "simple":
        return "win" if value > 0 else None
    margin = final_margin(state, me, value)
    if margin < 0:
        return None
    if margin == 0:
        return "draw"
    others_win = any(final_margin(state, me, r.value) > 0 for r in wrong.values())
    return "lead" if others_win else "win"


def make_puzzle(
    solver: Solver, state: GameState, source: str, max_steps: int, cap: int
) -> Puzzle | None:
    """The puzzle at ``state`` (a clone is used), or None."""
    found = unique_best(solver, state, cap)
    if found is None:
        return None
    value, best = found
    if value <= 0 and state.rules.mode == "simple":
        return None
    wrong0 = wrong_moves(solver, state, best, cap)
    goal = goal_of(state, value, wrong0)
    if goal is None:
        return None
    me = state.current_player()
    start = state.clone()
    line: list[Action] = [best]
    wrongs = [wrong0]
    work = state.child(best)
    while len(wrongs) < max_steps and not work.is_terminal():
        if work.current_player() == me:
            nxt = unique_best(solver, work, cap)
            if nxt is None:
                break
            wrongs.append(wrong_moves(solver, work, nxt[1], cap))
            line.append(nxt[1])
            work.apply(nxt[1])
            continue
        _, replies = bounded(solver, solver.optimal_actions(work), cap)
        chosen = None
        for reply in replies[:4]:
            after = work.child(reply)
            if after.is_terminal() or after.current_player() != me:
                continue
            nxt = unique_best(solver, after, cap)
            if nxt is not None:
                chosen = (reply, after, nxt[1])
                break
        if chosen is None:
            break
        reply, after, move = chosen
        wrongs.append(wrong_moves(solver, after, move, cap))
        line.extend([reply, move])
        work = after.child(move)
    digest = hashlib.sha256(
        f"{state.rules.rows}{state.rules.mode}{encode_moves(start.history)}".encode()
    ).hexdigest()[:6]
    pid = f"{state.rules.rows}{state.rules.mode[0]}-{digest}"
    rating = rate(start, line, len(wrongs))
    return Puzzle(pid, state.rules, start.history, goal, value, tuple(line), tuple(wrongs),
                  rating, source)


def rate(state: GameState, line: list[Action], steps: int) -> int:
    """Difficulty 1..5 (see the module docstring)."""
    best = line[0]
    hard_found = sum(
        run_to_end(HardAgent(seed, budget=None, node_budget=RATE_NODES).plan(state)) == best
        for seed in range(4)
    ) / 4
    medium_found = sum(run_to_end(MediumAgent(seed).plan(state)) == best for seed in range(4)) / 4
    scores_at_once = bool(state.scoring_lines(best))
    points = 2.0 * (1 - hard_found) + 1.0 * (1 - medium_found) + 0.75 * (steps - 1)
    points += 0.0 if scores_at_once else 0.5
    return max(1, min(5, 1 + round(points)))


def play_game(
    rules: Rules, levels: tuple[str, str], seed: int, max_empty: int, max_steps: int,
    per_game: int, cap: int,
) -> list[Puzzle]:
    """One engine game; the puzzles found in it (at most ``per_game``, 3 plies apart)."""
    seats = (agent(levels[0], seed), agent(levels[1], seed + 1000))
    state = new_game(rules)
    solver = Solver(tt_limit=400_000)
    found: list[Puzzle] = []
    last = -10
    while not state.is_terminal() and len(found) < per_game:
        ply = len(state.history)
        if state.empty_squares <= max_empty and ply - last >= 3:
            try:
                puzzle = make_puzzle(solver, state, "-".join(levels), max_steps, cap)
            except TooSlow:
                puzzle = None
            if puzzle is not None:
                found.append(puzzle)
                last = ply
        mover = seats[state.current_player()]
        state.apply(run_to_end(mover.plan(state)))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=320, help="puzzles to build")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--max-empty", type=int, default=12, help="empty squares at most (simple mode: +2)"
    )
    parser.add_argument("--max-steps", type=int, default=3, help="moves to find at most")
    parser.add_argument("--per-game", type=int, default=2, help="puzzles per game at most")
    parser.add_argument("--cap", type=int, default=150_000, help="solver nodes per search")
    parser.add_argument("--out", default=str(ROOT / "static" / "puzzles" / "puzzles-v1.json"))
    args = parser.parse_args(argv)
    started = time.process_time()
    buckets = [(size, mode) for size in SIZES for mode in MODES]
    quota = -(-args.count // len(buckets))
    found: dict[tuple[int, str], list[Puzzle]] = {b: [] for b in buckets}
    seen: set[str] = set()
    seed = args.seed * 100_000
    games = 0
    # Rounds of one game per board and mode; a bucket may collect up to twice its share, so
    # that boards where puzzles are rare (e.g. 8x8 simple: games end early) are made up for.
    while sum(len(v) for v in found.values()) < args.count and games < 5_000:
        for size, mode in buckets:
            if len(found[(size, mode)]) >= 2 * quota:
                continue
            levels = MATCHES[games % len(MATCHES)]
            games += 1
            seed += 1
            max_empty = args.max_empty + (2 if mode == "simple" else 0)
            for puzzle in play_game(Rules.square(size, mode), levels, seed, max_empty,
                                    args.max_steps, args.per_game, args.cap):
                if puzzle.id not in seen and len(found[(size, mode)]) < 2 * quota:
                    seen.add(puzzle.id)
                    found[(size, mode)].append(puzzle)
        counts = " ".join(f"{s}{m[0]}:{len(found[(s, m)])}" for s, m in buckets)
        print(f"{games} games, {time.process_time() - started:.0f} s CPU: {counts}",
              file=sys.stderr, flush=True)
    # Each bucket's share first, then the rest in round-robin order.
    puzzles = [p for b in buckets for p in found[b][:quota]]
    extra = [p for b in buckets for p in found[b][quota:]]
    puzzles = (puzzles + extra)[: args.count]
    puzzles.sort(key=lambda p: (p.rules.rows, p.rules.mode, p.rating, p.id))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dump_puzzles(puzzles), encoding="utf-8")
    ratings = [sum(p.rating == r for p in puzzles) for r in range(1, 6)]
    print(f"wrote {len(puzzles)} puzzles to {out} ({out.stat().st_size} bytes; ratings 1-5: "
          f"{ratings}; {games} games; {time.process_time() - started:.0f} s CPU)",
          file=sys.stderr)
    return 0 if len(puzzles) >= args.count else 1


if __name__ == "__main__":
    raise SystemExit(main())
