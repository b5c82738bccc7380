#!/usr/bin/env python3
"""One computer turn on the largest board: a long chain of scoring moves, before and after the
turn's one budget (prints figures; not a timed test).

Plays easy-vs-easy games (easy leaves most SOSs open, so chains grow) on the largest board
(``sos.rules.MAX_APP_SIZE``, general mode, ``--seed``) and keeps the position where the player
to move has the longest chain of SOSs to take (as :func:`sos.ai.agents.obvious_capture` takes
them). From there ``hard`` plays its whole turn twice:

* ``per move``: one search per move at a move's budget (``HardAgent.plan``, what the page did
  before a turn had one budget), the chain followed until a move does not score;
* ``turn``: ``HardAgent.plan_turn``, the whole turn under one budget
  (``sos.ai.agents.TURN_BUDGET`` moves' budgets).

For each: the moves of the turn, the points scored, CPU seconds (``time.process_time``) and
wall seconds. The page adds its visible pace and renders (``sos.app.game.computer.turn_steps``);
the browser's figures at 1x and 4x CPU are in docs/performance.md.

    python benchmarks/bench_turn.py                 # the page's budget (0.4 s a move on 12x12)
    python benchmarks/bench_turn.py --games 6 --seed 3

``--browser`` instead opens that position in headless Chromium (``dist/``, after
``node scripts/build.mjs``; ``CHROMIUM``) with hard in the seat of the chain, writes the person's
move before it, and times the computer's turn from the tap to the person's turn again, at the
page's pace and without it (``COMPUTER_PAUSE = 0``), with the CPU at 1x and slowed 4x (a phone):
wall seconds and the main thread's CPU seconds (DevTools tracing, as ``bench_tasks.py``).

``--match N`` instead plays N games (seats swapped every game) of ``hard`` by turns (one
budget a turn) against ``hard`` by moves (a move's budget each move, as before) at a node
budget a move (``--nodes``, deterministic) on ``--size`` boards, general mode: W/D/L and the
points of the turn player, to show that the turn's budget costs no strength.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sos import GameState, Rules, new_game  # noqa: E402
from sos.ai import agents  # noqa: E402
from sos.ai.agents import HardAgent, make_agent, obvious_capture  # noqa: E402
from sos.ai.base import run_to_end  # noqa: E402
from sos.ai.search import Position  # noqa: E402
from sos.rules import MAX_APP_SIZE  # noqa: E402


def chain_length(state: GameState) -> int:
    """Moves of the chain that :func:`sos.ai.agents.obvious_capture` takes, until no SOS is left."""
    import random

    board = state.clone()
    rng = random.Random(0)
    moves = 0
    while not board.is_terminal():
        pos = Position(board)
        if not pos.scoring_moves():
            break
        board.apply(obvious_capture(pos, rng))
        moves += 1
    return moves


def longest_chain(games: int, seed: int) -> tuple[GameState, int]:
    """The position of ``games`` easy-vs-easy games with the longest chain to take, among
    those where a turn starts (the move before it scored nothing: another seat made it)."""
    best: tuple[GameState, int] | None = None
    for g in range(games):
        state = new_game(Rules.square(MAX_APP_SIZE))
        seats = [make_agent("easy", seed=seed * 100 + g), make_agent("easy", seed=seed + g)]
        while not state.is_terminal():
            records = state.records
            if records and records[-1].player != state.current_player():
                length = chain_length(state)
                if best is None or length > best[1]:
                    best = (state.clone(), length)
            state.apply(seats[state.current_player()].choose_action(state))
    assert best is not None
    return best


def per_move_turn(agent: HardAgent, state: GameState) -> GameState:
    board = state.clone()
    me = board.current_player()
    while board.current_player() == me:
        board.apply(run_to_end(agent.plan(board)))
    return board


def whole_turn(agent: HardAgent, state: GameState) -> GameState:
    board = state.clone()
    for action in run_to_end(agent.plan_turn(board)):
        board.apply(action)
    return board


def match(games: int, size: int, nodes: int, first: int = 0) -> None:
    """Hard by turns against hard by moves (see the module docstring): games ``first`` ..
    ``first + games - 1`` (seeds from the index)."""
    wins = draws = losses = margin = 0
    start = time.perf_counter()
    for g in range(first, first + games):
        by_turn = HardAgent(seed=1000 + g, budget=None, node_budget=nodes)
        by_move = HardAgent(seed=2000 + g, budget=None, node_budget=nodes)
        me = g % 2
        state = new_game(Rules.square(size))
        while not state.is_terminal():
            if state.current_player() == me:
                for action in run_to_end(by_turn.plan_turn(state)):
                    state.apply(action)
            else:
                state.apply(run_to_end(by_move.plan(state)))
        diff = state.scores[me] - state.scores[1 - me]
        wins, draws, losses = wins + (diff > 0), draws + (diff == 0), losses + (diff < 0)
        margin += diff
    print(
        f"hard by turns vs hard by moves, {size}x{size} general, {nodes} nodes a move, "
        f"{games} games: W/D/L {wins}/{draws}/{losses}, mean margin {margin / games:+.2f} "
        f"({time.perf_counter() - start:.0f} s)"
    )


def browser(games: int, seed: int, runs: int) -> None:
    """The turn in Chromium (see the module docstring)."""
    import functools
    import http.server
    import threading

    from playwright.sync_api import sync_playwright

    sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
    from helpers import GRAB_INTERPRETER, CpuTrace

    from sos.app.saving.transcript import encode_moves

    state, length = longest_chain(games, seed)
    seats = ["human", "human"]
    seats[state.current_player()] = "hard"
    *before, last = state.history
    query = f"?size={MAX_APP_SIZE}&seats={','.join(seats)}&game={encode_moves(before)}"
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=os.path.join(ROOT, "dist"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html{query}"
    print(f"chain of {length} SOSs for hard on {MAX_APP_SIZE}x{MAX_APP_SIZE}, {runs} runs each")
    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        for throttle in (1, 4):
            for pace in (True, False):
                figures = []
                for _ in range(runs):
                    page = chromium.new_page(viewport={"width": 1280, "height": 800})
                    page.goto(url)
                    page.wait_for_selector('html[data-ready="1"]', state="attached",
                                           timeout=300_000)
                    if not pace:
                        page.evaluate(GRAB_INTERPRETER)
                        page.evaluate("__py.runPython('import sos.web.computer; "
                                      "sos.web.computer.COMPUTER_PAUSE = 0')")
                    if throttle != 1:
                        cdp = page.context.new_cdp_session(page)
                        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                    plies = page.locator("#move-list button.ply")
                    start_plies = plies.count()
                    trace = CpuTrace(page)
                    page.get_by_test_id(f"letter-{last.letter}").click()
                    cell = f"button.cell[data-row='{last.row}'][data-col='{last.col}']"
                    started = time.perf_counter()
                    page.locator(cell).click()
                    page.wait_for_function(
                        f"document.querySelectorAll('#move-list button.ply').length > "
                        f"{start_plies + 1} && document.querySelector("
                        "'button.cell:not([aria-disabled])') !== null",
                        timeout=600_000, polling=20,
                    )
                    wall = time.perf_counter() - started
                    cpu = sum(c for c, _ in trace.stop(page)) / 1000
                    figures.append((wall, cpu, plies.count() - start_plies - 1))
                    page.close()
                walls = ", ".join(f"{w:.1f}" for w, _, _ in figures)
                cpus = ", ".join(f"{c:.2f}" for _, c, _ in figures)
                print(
                    f"  CPU {throttle}x, {'page pace' if pace else 'no pause'}: "
                    f"{figures[0][2]} moves; wall s {walls}; main-thread CPU s {cpus} "
                    f"(load {os.getloadavg()[0]:.1f})"
                )
        chromium.close()
    server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games searched for a long chain")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-before", action="store_true", help="only the turn's budget")
    parser.add_argument("--match", type=int, default=0, help="games of turn vs move budgets")
    parser.add_argument("--size", type=int, default=8, help="--match: board size")
    parser.add_argument("--nodes", type=int, default=3000, help="--match: nodes a move")
    parser.add_argument("--first", type=int, default=0, help="--match: index of the first game")
    parser.add_argument(
        "--set", default="", help="NAME=VALUE,... of sos.ai.agents' turn constants to try"
    )
    parser.add_argument("--browser", action="store_true", help="the turn in Chromium")
    parser.add_argument("--runs", type=int, default=2, help="--browser: runs per condition")
    args = parser.parse_args()
    if args.browser:
        browser(args.games, args.seed, args.runs)
        return
    for item in filter(None, args.set.split(",")):
        name, value = item.split("=")
        setattr(agents, name, type(getattr(agents, name))(float(value)))
        print(f"{name} = {getattr(agents, name)}")
    if args.match:
        match(args.match, args.size, args.nodes, args.first)
        return
    state, length = longest_chain(args.games, args.seed)
    me = state.current_player()
    print(
        f"{MAX_APP_SIZE}x{MAX_APP_SIZE} general, {state.empty_squares} empty, "
        f"greedy chain {length} moves, scores {state.scores}"
    )
    ways = [("turn", whole_turn)] if args.skip_before else [
        ("per move", per_move_turn), ("turn", whole_turn)
    ]
    for name, play in ways:
        agent = HardAgent(seed=1)
        cpu, wall = time.process_time(), time.perf_counter()
        after = play(agent, state)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        moves = len(after.history) - len(state.history)
        gained = after.scores[me] - state.scores[me]
        print(
            f"{name:>8}: {moves} moves, {gained} points, CPU {cpu:.2f} s, wall {wall:.2f} s"
        )


if __name__ == "__main__":
    main()
