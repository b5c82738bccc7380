#!/usr/bin/env python3
"""AI and engine benchmarks: prints figures (not a timed test).

Sections (``--sections``, comma list; default ``playouts,hard,perfect``):

* ``playouts``  random playouts per second on 8x8 through the public engine API.
* ``hard``      seconds per ``hard`` move on 8x8 mid-game positions (mean, max).
* ``nodes``     nodes hard searches in the page's time per move (1.2 s up to 7x7, 0.4 s above)
                on 4x4, 6x6, 8x8, 10x10: the node budget that stands for the page's time
                budget on this Python (``--sections nodes,browser``: in Chromium too).
* ``endgame``   nodes hard counts in the page's time per move on the 5x5 and 6x6 endgame
                positions (12-16 empty) of ``benchmarks/data/exact_positions.txt`` (``--split``,
                default tune; ``--stride``), by board and mode, the nodes per second and the
                node budget the time stands for: what ``benchmarks.ai_accuracy --nodes`` must
                be. In Chromium: ``benchmarks/pyodide_browser.py endgame`` (``SOS_CPU_THROTTLE=4``
                for a slow phone). ``endgame-sliced``: the same with each move stepped as the
                page steps it (20 ms slices, a yield to the event loop between).
* ``perfect``   seconds for ``perfect`` to choose the first move on an empty 4x4 board.
* ``speed``     search nodes per second (hard's alpha-beta at a fixed node budget) on 8x8 and
                the largest board's (``sos.rules.MAX_APP_SIZE``) mid-game positions
                (medium-vs-medium games, 20-65 % full), of this
                engine and, with ``SOS_BASELINE=/path/to/an/older/checkout``, of that engine
                in the same run, interleaved; best of ``--rounds`` rounds; prints the ratio
                (target >= 2). ``--sections speed,browser`` runs it in Chromium too.
* ``strength``  hard vs medium and medium vs easy, ``--games`` games on 6x6, 8x8 and 10x10,
                seats swapped every game; win/draw/loss of the first-named level.
* ``vs-perfect`` hard vs perfect on small boards (``--boards``, default 3x3, 3x4, 3x5, 4x4),
                ``--games`` games per board and mode, seats swapped, at the node budget that
                stands for the page's 1.2 s; W/D/L of hard (target: no loss).
* ``accuracy``  hard's move and the hint's sign against the exact values of the data set
                ``tests/data/positions.txt`` (``scripts/build_positions.py``), by board and
                by empty squares.
* ``steps``     longest single generator step (ms) of hard 8x8 and perfect 4x4, GC pauses.
* ``leaves``    ms of one quiet leaf's safe-move playouts in simple mode on 6x6, 7x7, 8x8
                (median, longest): work a search step cannot pause inside.
* ``steps-sliced`` longest single step of hard in whole hard-vs-hard games on 5x5 general,
                6x6 simple and 8x8 simple at the page's time budget (``--games``, default 200:
                give 1 or 2), a yield to the event loop after every step (``--slice-ms 0``)
                or every 20 ms of steps (the page's slices); in Chromium with
                ``SOS_TRACE_TASKS=1 benchmarks/pyodide_browser.py steps-sliced`` each step is
                a browser task whose CPU time the trace gives.
* ``proofs``    exact values of small boards by the solver (and its time).
* ``pyodide``   runs ``node benchmarks/pyodide_bench.mjs`` (the same figures under Pyodide in
                Node, the browser's Python) and prints the Pyodide / CPython ratios.
* ``browser``   the same in headless Chromium (``benchmarks/pyodide_browser.py``; playouts
                only): the runtime players have. Node 20 lacks WebAssembly GC, so there every
                C-function call goes through a JavaScript trampoline; see RESULTS.md.

Run from the repository root, e.g.::

    python benchmarks/bench_ai.py --sections playouts,hard,perfect,pyodide
    python benchmarks/bench_ai.py --sections strength --games 200 --hard-budget 0.1 --jobs 2

The last line is ``JSON {...}`` with every figure, for the Node runner and for tooling.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
#: ``SOS_ENGINE=/path/to/checkout`` measures the engine (``sos``) of another checkout, e.g. a
#: ``git worktree`` of an older commit as a baseline, with this script and this data set.
ENGINE = os.environ.get("SOS_ENGINE")
if ENGINE:
    sys.path.insert(0, os.path.abspath(ENGINE))

from sos import Action, GameState, Rules, new_game  # noqa: E402
from sos.ai.agents import ENDGAME_EMPTIES, make_agent  # noqa: E402
from sos.ai.search import AlphaBeta, run_to_end  # noqa: E402
from sos.ai.solver import Solver  # noqa: E402
from sos.rules import MAX_APP_SIZE  # noqa: E402


def _cpu_clock() -> Any:
    """A CPU-time clock: ``time.thread_time``, or under Pyodide in Node the process's CPU time
    (``process.cpuUsage()``); wall time if neither works."""
    try:
        time.thread_time()
    except (OSError, AttributeError):
        try:
            import js  # type: ignore[import-not-found]  # Pyodide only

            usage = js.process.cpuUsage

            def node_cpu() -> float:
                u = usage()
                return float(u.user + u.system) / 1e6

            node_cpu()
            return node_cpu
        except Exception:  # any failure: fall back to wall time
            return time.perf_counter
    return time.thread_time


_cpu = _cpu_clock()


def playouts(seconds: float = 2.0, warmup: float = 1.0) -> float:
    """Random playouts per second of CPU time on 8x8 (legal_actions + apply until full).

    CPU time (see :func:`_cpu_clock`), so that a loaded machine does not skew the
    CPython / Pyodide ratio. ``warmup`` seconds of untimed playouts come first, the same in
    every runtime: under Pyodide, V8 compiles the hot WebAssembly (the interpreter loop) with
    its optimizing tier during the first second or so, and counts that compilation in the
    process's CPU time; a game is long past it by the time the AI plays.
    """
    rng = random.Random(1)
    rules = Rules.square(8)
    for timed in (False, True):
        count = 0
        start = time.perf_counter()
        cpu0 = _cpu()
        while time.perf_counter() - start < (seconds if timed else warmup):
            state = new_game(rules)
            while not state.is_terminal():
                actions = state.legal_actions()
                state.apply(actions[rng.randrange(len(actions))])
            count += 1
    return count / (_cpu() - cpu0)


def midgame_positions(count: int, size: int = 8, seed: int = 7) -> list[GameState]:
    """Positions 25-60 % full, reached by medium play with some random moves (seeded)."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        state = new_game(Rules.square(size))
        agent = make_agent("medium", seed=seed + k)
        target = int(size * size * rng.uniform(0.25, 0.6))
        while not state.is_terminal() and size * size - state.empty_squares < target:
            if rng.random() < 0.8:
                state.apply(agent.choose_action(state))
            else:
                state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


def hard_moves(count: int = 12, budget: float | str | None = None) -> dict[str, float]:
    """Seconds of wall time per hard move on 8x8 mid-game positions."""
    times = []
    for k, state in enumerate(midgame_positions(count)):
        agent = make_agent("hard", seed=k)
        if budget is not None:
            agent.budget = budget  # type: ignore[attr-defined]
        start = time.perf_counter()
        agent.choose_action(state)
        times.append(time.perf_counter() - start)
    return {"mean": sum(times) / len(times), "max": max(times), "n": len(times)}


def game_positions(size: int, games: int = 3, seed: int = 5) -> list[GameState]:
    """Positions 5, 20, 35, 50 and 65 % full from medium-vs-medium games (seeded)."""
    out = []
    cells = size * size
    for g in range(games):
        state = new_game(Rules.square(size))
        agent = make_agent("medium", seed=seed + g)
        fills = [int(cells * f) for f in (0.05, 0.2, 0.35, 0.5, 0.65)]
        while not state.is_terminal() and fills:
            if cells - state.empty_squares >= fills[0]:
                fills.pop(0)
                out.append(state.clone())
            state.apply(agent.choose_action(state))
    return out


def hard_nodes(sizes: tuple[int, ...] = (4, 6, 8, 10)) -> dict[str, Any]:
    """Nodes hard searches in the page's time budget per move (:func:`hard_budget`: 1.2 s up
    to 7x7, 0.4 s above; its endgame prover's nodes and its search's, as a node budget counts
    them), on 15 positions per size (4x4: the 8 of them past the opening book's 4 letters),
    and the nodes per CPU second: what a node budget (``--hard-nodes``, :data:`PAGE_NODES`)
    for this Python must be to play like the page's time budget."""
    from sos.ai.agents import hard_budget

    out: dict[str, Any] = {}
    for size in sizes:
        counts = []
        cpu = 0.0
        positions = game_positions(size)
        if size == 4:
            positions = [s for s in game_positions(4, games=8) if s.empty_squares < 12]
        rates = []
        budget = hard_budget(Rules.square(size))
        for state in positions:
            agent = make_agent("hard", seed=1)
            agent.budget = budget  # type: ignore[attr-defined]
            c0 = _cpu()
            w0 = time.perf_counter()
            agent.choose_action(state)
            wall = time.perf_counter() - w0
            cpu += _cpu() - c0
            nodes = agent.searcher.nodes + agent.endgame.nodes  # type: ignore[attr-defined]
            counts.append(nodes)
            if nodes:
                rates.append(nodes / wall)
        counts.sort()
        rates.sort()
        out[str(size)] = {
            "budget": budget,
            # nodes per budget at the median rate (a move proved early stops short of it)
            "stands_for": int(budget * rates[len(rates) // 2]) if rates else 0,
            "mean": sum(counts) // len(counts),
            "median": counts[len(counts) // 2],
            "min": counts[0],
            "max": counts[-1],
            "per_cpu_s": int(sum(counts) / max(cpu, 1e-9)),
        }
    return out


ENDGAME_DATA = os.path.join(ROOT, "benchmarks", "data", "exact_positions.txt")


def _endgame_groups(split: str, stride: int) -> dict[str, list[GameState]]:
    """The 5x5 and 6x6 positions of every ``stride``-th line of ``split`` of
    ``benchmarks/data/exact_positions.txt``, by ``"5x5 general"`` etc."""
    groups: dict[str, list[GameState]] = {}
    with open(ENDGAME_DATA, encoding="ascii") as handle:
        items = [line.split() for line in handle if line.strip() and not line.startswith("#")]
    for i, (board, mode, to_move, scores, _value, _part, _best, _src) in enumerate(
            [x for x in items if x[5] == split]):
        if i % stride:
            continue
        state = GameState.from_text(
            board, mode=mode, to_move=int(to_move),  # type: ignore[arg-type]
            scores=[int(x) for x in scores.split(",")],
        )
        if state.rules.rows < 5:
            continue
        groups.setdefault(f"{state.rules.rows}x{state.rules.cols} {mode}", []).append(state)
    return groups


def _endgame_moves(split: str, stride: int) -> Any:
    """Generator behind :func:`endgame_nodes`: yields ``(agent, state)`` for each move to
    time (the caller plays it and sends back its wall seconds); returns the figures."""
    from sos.ai.agents import hard_budget

    groups = _endgame_groups(split, stride)
    out: dict[str, Any] = {}
    every: list[tuple[int, float, float]] = []
    for name in sorted(groups):
        counts, rates, early = [], [], 0
        budget = hard_budget(groups[name][0].rules)
        for k, state in enumerate(groups[name]):
            agent = make_agent("hard", seed=k)
            agent.budget = budget  # type: ignore[attr-defined]
            wall = yield agent, state
            nodes = agent.searcher.nodes + agent.endgame.nodes  # type: ignore[attr-defined]
            counts.append(nodes)
            early += wall < 0.9 * budget
            if nodes:
                rates.append(nodes / wall)
            every.append((nodes, wall, budget))
        out[name] = _node_figures(counts, rates, budget, early)
    out["all"] = _node_figures(
        [n for n, _, _ in every], [n / w for n, w, _ in every if n],
        every[0][2] if every else 0.0, sum(w < 0.9 * b for _, w, b in every))
    return out


def endgame_nodes(split: str = "tune", stride: int = 1) -> dict[str, Any]:
    """Nodes hard counts in the page's time budget per move (:func:`hard_budget`, 1.2 s on
    these boards; its search's nodes and its endgame prover's, as :func:`hard_nodes` counts
    them) on the 5x5 and 6x6 endgame positions of ``benchmarks/data/exact_positions.txt``
    (12-16 empty squares; every ``stride``-th of ``split``), by board and mode: the nodes
    per move (median, mean, min, max), how many moves finished before the budget (proved
    early), the nodes per wall second (median over moves) and the node budget the time
    budget stands for (budget x median rate; ai_accuracy's ``--nodes``). Each move runs in
    one piece (``choose_action``)."""
    gen = _endgame_moves(split, stride)
    try:
        agent, state = next(gen)
        while True:
            w0 = time.perf_counter()
            agent.choose_action(state)
            agent, state = gen.send(time.perf_counter() - w0)
    except StopIteration as stop:
        result: dict[str, Any] = stop.value
        return result


#: The page's slice of search between yields to the browser (sos/web/computer.py).
SLICE_SECONDS = 0.02


async def endgame_nodes_sliced(split: str = "tune", stride: int = 1) -> dict[str, Any]:
    """:func:`endgame_nodes` with each move stepped as the page steps it
    (``sos/web/computer.py`` ``run_sliced``: ``agent.plan`` in slices of
    :data:`SLICE_SECONDS`, ``await asyncio.sleep(0)`` between, which in a browser yields to
    its event loop)."""
    import asyncio

    gen = _endgame_moves(split, stride)
    try:
        agent, state = next(gen)
        while True:
            w0 = time.perf_counter()
            plan = agent.plan(state)
            try:
                while True:
                    deadline = time.perf_counter() + SLICE_SECONDS
                    while time.perf_counter() < deadline:
                        next(plan)
                    await asyncio.sleep(0)
            except StopIteration:
                pass
            agent, state = gen.send(time.perf_counter() - w0)
    except StopIteration as stop:
        result: dict[str, Any] = stop.value
        return result


#: Boards of ``steps-sliced``: where hard's costliest steps are (5x5 general: the solver from
#: the first move's book-less search to the endgame proofs; 6x6 and 8x8 simple: the safe-move
#: playouts at the search's leaves and the safe-square proof).
STEP_BOARDS = ("5x5 general", "6x6 simple", "8x8 simple")


#: Steps longer than this (wall) are labelled in the browser's trace (``console.timeStamp``).
MARK_SECONDS = 0.012


async def game_steps_sliced(games: int = 1, slice_seconds: float = 0.0,
                            boards: tuple[str, ...] = STEP_BOARDS,
                            predict: bool = False) -> dict[str, Any]:
    """Longest single step of hard as the page runs it: whole hard-vs-hard games on
    ``boards`` (``"ROWSxCOLS mode"``), one agent a seat kept across the game, each at the
    page's time budget (:func:`sos.ai.agents.hard_budget`), every move stepped by ``next()``
    with ``await asyncio.sleep(0)`` (a yield to the browser's event loop) after each slice of
    ``slice_seconds`` (0: after every step, so that each step is a browser task of its own and
    ``pyodide_browser.py``'s ``SOS_TRACE_TASKS=1`` gives its CPU time; 0.02: the page's
    slices; ``predict``: a slice also ends before a step when the last step's wall time would
    take it past ``slice_seconds``, a variant of the page's rule tried here). By board: steps,
    the longest steps (ms of CPU time by ``time.thread_time``, and wall ms) with their game,
    ply, empty squares, whether the endgame prover applies, and the longest GC pass (ms). In
    the browser, which has no CPU clock for Python, the "CPU" figure is wall time, which on a
    loaded machine overstates a step (the trace's figure does not)."""
    import asyncio

    from sos.ai.agents import prover_applies

    mark = heap = None
    if sys.platform == "emscripten":  # label long steps in pyodide_browser.py's trace
        import js  # type: ignore[import-not-found]
        import pyodide_js  # type: ignore[import-not-found]

        mark = js.console.timeStamp
        module = pyodide_js._module

        def heap() -> int:
            return int(module.HEAP8.length)

    out: dict[str, Any] = {}
    for name in boards:
        size, mode = name.split()
        rows, cols = (int(x) for x in size.split("x"))
        steps: list[tuple[float, float, int, int, int, bool]] = []
        with _GcTimer() as gct:
            for g in range(games):
                state = new_game(Rules(rows, cols, mode))  # type: ignore[arg-type]
                agents = [make_agent("hard", seed=1000 * g + seat) for seat in (0, 1)]
                ply = 0
                resumed = time.perf_counter()
                while not state.is_terminal():
                    prover = prover_applies(state)
                    agent = agents[state.current_player()]
                    plan = agent.plan(state)
                    action = None
                    last = 0.0
                    while action is None:
                        deadline = time.perf_counter() + slice_seconds
                        first = True
                        while True:
                            if predict and not first and time.perf_counter() + last > deadline:
                                break
                            first = False
                            size0 = heap() if heap else 0
                            n0 = agent.searcher.nodes + agent.endgame.nodes  # type: ignore[attr-defined]
                            t0 = time.perf_counter()
                            c0 = _cpu()
                            try:
                                next(plan)
                            except StopIteration as stop:
                                action = stop.value
                            cpu, wall = _cpu() - c0, time.perf_counter() - t0
                            last = wall
                            steps.append((cpu, wall, g, ply, state.empty_squares, prover))
                            if mark is not None and heap and wall > MARK_SECONDS:
                                nodes = (agent.searcher.nodes  # type: ignore[attr-defined]
                                         + agent.endgame.nodes - n0)  # type: ignore[attr-defined]
                                mark(f"{name} game {g} ply {ply}: step {1000 * wall:.1f} ms"
                                     f"{' (prover)' if prover else ''}, {nodes} nodes, wasm "
                                     f"heap {size0 >> 20} -> {heap() >> 20} MiB")
                            if action is not None or time.perf_counter() >= deadline:
                                break
                        if action is not None:
                            state.apply(action)
                            ply += 1
                        if mark is not None and time.perf_counter() - resumed > MARK_SECONDS:
                            mark(f"{name} game {g} ply {ply}: "
                                 f"{1000 * (time.perf_counter() - resumed):.1f} ms of Python "
                                 "between two yields")
                        await asyncio.sleep(0)
                        resumed = time.perf_counter()
        if mark is not None:
            mark(f"{name}: games over")
        steps.sort(reverse=True)
        out[name] = {
            "steps": len(steps),
            "longest": [{"ms": round(1000 * c, 1), "wall_ms": round(1000 * w, 1), "game": g,
                         "ply": p, "empty": e, "prover": pr} for c, w, g, p, e, pr in steps[:5]],
            "gc_ms": round(1000 * max(gct.pauses, default=0.0), 1),
        }
    return out


def leaf_playouts(sizes: tuple[int, ...] = (6, 7, 8), games: int = 6) -> dict[str, Any]:
    """Seconds of one quiet leaf's safe-move playouts in simple mode
    (:func:`sos.ai.search.safe_playouts`, :func:`sos.ai.agents.hard_playouts` games a leaf),
    which a search step cannot pause inside: on every other position of ``games`` seeded
    medium games (some random moves) with a safe square left, the least of three timings of
    the same games (load); by board the median and the longest, with its empty squares and
    playout moves."""
    from sos.ai.agents import hard_playouts
    from sos.ai.search import Position, safe_playouts

    out: dict[str, Any] = {}
    for size in sizes:
        rules = Rules(size, size, "simple")
        playouts = hard_playouts(rules)
        times: list[tuple[float, int, int]] = []
        for seed in range(games):
            rng = random.Random(seed)
            state = new_game(rules)
            medium = make_agent("medium", seed=seed)
            ply = 0
            while not state.is_terminal():
                pos = Position(state, symmetric=False)
                if ply % 2 == 0 and pos.safe_squares():
                    best = float("inf")
                    moves = 0
                    for _ in range(3):
                        t0 = time.perf_counter()
                        _, moves = safe_playouts(pos, playouts, pos.key)
                        best = min(best, time.perf_counter() - t0)
                    times.append((best, state.empty_squares, moves))
                state.apply(medium.choose_action(state) if rng.random() < 0.8
                            else rng.choice(state.legal_actions()))
                ply += 1
        times.sort()
        top = times[-1]
        out[f"{size}x{size}"] = {
            "playouts": playouts, "n": len(times),
            "median_ms": round(1000 * times[len(times) // 2][0], 2),
            "max_ms": round(1000 * top[0], 2), "max_empty": top[1], "max_moves": top[2],
        }
        f = out[f"{size}x{size}"]
        print(f"leaves: {size}x{size} simple, {playouts} playouts a leaf, {f['n']} positions: "
              f"median {f['median_ms']} ms, longest {f['max_ms']} ms ({f['max_empty']} empty, "
              f"{f['max_moves']} playout moves)", flush=True)
    return out


def _print_steps(figures: dict[str, Any]) -> None:
    for name, f in figures.items():
        top = "; ".join(f"{s['ms']} / {s['wall_ms']} ms (game {s['game']} ply {s['ply']}, "
                        f"{s['empty']} empty{', prover' if s['prover'] else ''})"
                        for s in f["longest"])
        print(f"  {name:<12} {f['steps']} steps; longest GC pass {f['gc_ms']} ms; longest steps "
              f"(CPU / wall): {top}", flush=True)


def _print_endgame(title: str, figures: dict[str, Any]) -> None:
    print(title)
    for name, f in figures.items():
        print(f"  {name:<12} n {f['n']:>3}: median {f['median']}, mean {f['mean']}, min "
              f"{f['min']}, max {f['max']}; {f['early']} proved before the budget; "
              f"{f['per_s']} nodes/s: {f['budget']} s stands for {f['stands_for']} nodes",
              flush=True)


def _node_figures(counts: list[int], rates: list[float], budget: float,
                  early: int) -> dict[str, Any]:
    counts = sorted(counts)
    rates = sorted(rates)
    rate = rates[len(rates) // 2] if rates else 0.0
    return {
        "n": len(counts), "budget": budget, "median": counts[len(counts) // 2],
        "mean": sum(counts) // max(1, len(counts)), "min": counts[0], "max": counts[-1],
        "early": early, "per_s": int(rate), "stands_for": int(budget * rate),
    }


def perfect_first_move() -> dict[str, float]:
    """Seconds for perfect to choose the first move on an empty 4x4 board (fresh agent)."""
    out = {}
    for mode in ("general", "simple"):
        start = time.perf_counter()
        make_agent("perfect", seed=0).choose_action(new_game(Rules(4, 4, mode)))
        out[mode] = time.perf_counter() - start
    return out


class _GcTimer:
    """Collects the duration of every cyclic-GC pass (``gc.callbacks``) while active."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._t0 = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._t0)

    def __enter__(self) -> _GcTimer:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def _steps(gen: Any) -> tuple[float, float, float]:
    """Drive a pausable generator; (longest step in wall s, longest in CPU s, total wall s).

    The CPU-time figure (``time.thread_time``) leaves out the time the OS gave to other
    processes, which on a loaded machine makes single wall-clock steps look long.
    """
    longest = cpu_longest = 0.0
    start = time.perf_counter()
    done = False
    while not done:
        t0 = time.perf_counter()
        c0 = _cpu()
        try:
            next(gen)
        except StopIteration:
            done = True
        cpu_longest = max(cpu_longest, _cpu() - c0)
        longest = max(longest, time.perf_counter() - t0)
    return longest, cpu_longest, time.perf_counter() - start


def midgame_4x4(count: int, seed: int = 3) -> list[GameState]:
    """4x4 positions with 4-6 letters (random moves, seeded), both modes."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        mode = "general" if len(out) % 2 == 0 else "simple"
        state = new_game(Rules(4, 4, mode))  # type: ignore[arg-type]
        for _ in range(4 + len(out) % 3):
            state.apply(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        if not state.is_terminal():
            out.append(state)
    return out


def step_lengths(positions: int = 8) -> dict[str, Any]:
    """Longest single generator step (ms) of hard on 8x8 and perfect on 4x4, and GC pauses.

    Plays the way the page does: one agent per seat kept across moves (its tables grow),
    every step driven by ``next()``.
    """
    out: dict[str, Any] = {}
    with _GcTimer() as gct:
        hard = make_agent("hard", seed=1)
        longest = cpu = 0.0
        for state in midgame_positions(positions):
            step, step_cpu, _ = _steps(hard.plan(state))
            longest = max(longest, step)
            cpu = max(cpu, step_cpu)
        out["hard_8x8_step_ms"] = 1000 * longest
        out["hard_8x8_step_cpu_ms"] = 1000 * cpu
        out["hard_8x8_gc_ms"] = 1000 * max(gct.pauses, default=0.0)
    with _GcTimer() as gct:
        mid = []
        perfect = make_agent("perfect", seed=1)
        longest, cpu, first_total = _steps(perfect.plan(new_game(Rules(4, 4))))
        for state in midgame_4x4(positions):
            step, step_cpu, total = _steps(perfect.plan(state))
            longest = max(longest, step)
            cpu = max(cpu, step_cpu)
            mid.append(total)
        out["perfect_4x4_step_ms"] = 1000 * longest
        out["perfect_4x4_step_cpu_ms"] = 1000 * cpu
        out["perfect_4x4_first_s"] = first_total
        out["perfect_4x4_mid_mean_s"] = sum(mid) / len(mid)
        out["perfect_4x4_mid_max_s"] = max(mid)
        out["perfect_4x4_gc_ms"] = 1000 * max(gct.pauses, default=0.0)
    return out


SPEED_NODES = 20_000


def search_speed(rounds: int = 3, sizes: tuple[int, ...] = (8, MAX_APP_SIZE)) -> dict[str, Any]:
    """Nodes per second of hard's alpha-beta (``SPEED_NODES`` nodes a search) on mid-game
    positions, this engine and (if ``SOS_BASELINE`` is set) the baseline's, interleaved; the
    best of ``rounds`` per position (CPU time where the platform has a process clock)."""
    engines: dict[str, Any] = {"new": AlphaBeta}
    if os.environ.get("SOS_BASELINE"):
        _load_baseline()
        import sos_baseline.search  # type: ignore[import-not-found]

        engines["base"] = sos_baseline.search.AlphaBeta
    clock = time.process_time if sys.platform != "emscripten" else time.perf_counter
    out: dict[str, Any] = {}
    for size in sizes:
        positions = [
            p for p in game_positions(size, games=2)
            if 0.2 <= 1 - p.empty_squares / p.rules.cells <= 0.65
        ]
        best = {name: [0.0] * len(positions) for name in engines}
        for _ in range(rounds):
            for k, state in enumerate(positions):
                for name, cls in engines.items():
                    search = cls(budget=None, node_budget=SPEED_NODES)
                    start = clock()
                    result = run_to_end(search.search(state))
                    rate = result.nodes / max(clock() - start, 1e-9)
                    best[name][k] = max(best[name][k], rate)
        figures = {name: sum(rates) / len(rates) for name, rates in best.items()}
        line = f"speed: {size}x{size}, {len(positions)} positions: {figures['new']:.0f} nodes/s"
        if "base" in figures:
            figures["ratio"] = figures["new"] / figures["base"]
            line += f", baseline {figures['base']:.0f}: x{figures['ratio']:.2f} (target >= 2)"
        print(line, flush=True)
        out[f"{size}x{size}"] = figures
    return out


def _baseline_agent(level: str, seed: int) -> Any:
    """An agent of ``level`` from the engine of the checkout named by ``SOS_BASELINE`` (e.g. a
    ``git worktree`` of the commit before a change), loaded as the package ``sos_baseline``
    beside this checkout's ``sos``; it plays on this engine's states (duck-typed)."""
    _load_baseline()
    import sos_baseline.agents  # type: ignore[import-not-found]

    return sos_baseline.agents.make_agent(level, seed=seed)


def _load_baseline() -> None:
    """Import the checkout named by ``SOS_BASELINE`` as the package ``sos_baseline``."""
    import importlib.util

    if "sos_baseline" not in sys.modules:
        root = os.environ.get("SOS_BASELINE")
        if not root:
            raise SystemExit("base-* levels need SOS_BASELINE=/path/to/an/older/checkout")
        pkg = os.path.join(os.path.abspath(root), "sos")
        spec = importlib.util.spec_from_file_location(
            "sos_baseline", os.path.join(pkg, "__init__.py"), submodule_search_locations=[pkg]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["sos_baseline"] = module
        spec.loader.exec_module(module)


def _make(level: str, seed: int) -> Any:
    """This engine's agent of ``level``, or the baseline's for ``base-<level>``."""
    if level.startswith("base-"):
        return _baseline_agent(level[5:], seed)
    return make_agent(level, seed=seed)


#: A node budget per hard move: one figure, or (search phase, prover phase) -- see
#: :func:`parse_nodes`.
NodeBudget = int | tuple[int, int] | None


def phase_nodes(nodes: NodeBudget, state: GameState) -> int | None:
    """The node budget of a move in ``state``: a pair (search, prover) picks by phase (the
    prover runs first at most :data:`sos.ai.agents.ENDGAME_EMPTIES` empty squares)."""
    if isinstance(nodes, tuple):
        return nodes[1] if state.empty_squares <= ENDGAME_EMPTIES else nodes[0]
    return nodes


def _game(args: tuple[str, str, int, int, float | str | None, NodeBudget, NodeBudget]) -> int:
    """One game; returns +1/0/-1 for the first-named level (seat 0 on even games). A
    baseline's hard (``base-hard``) gets ``base_nodes`` when given (its own speed's budget)."""
    first, second, size, index, budget, nodes, base_nodes = args
    a = _make(first, seed=1000 + index)
    b = _make(second, seed=2000 + index)
    own: dict[int, NodeBudget] = {}
    for name, agent in ((first, a), (second, b)):
        if agent.level == "hard":
            agent.budget = budget
            own[id(agent)] = base_nodes if name.startswith("base-") and base_nodes else nodes
    seats = [a, b] if index % 2 == 0 else [b, a]
    state = new_game(Rules.square(size))
    while not state.is_terminal():
        agent = seats[state.current_player()]
        if id(agent) in own:
            agent.node_budget = phase_nodes(own[id(agent)], state)
        action = agent.choose_action(state)
        state.apply(Action(action.row, action.col, action.letter))
    me = 0 if index % 2 == 0 else 1
    diff = state.scores[me] - state.scores[1 - me]
    return (diff > 0) - (diff < 0)


def parse_nodes(text: str | None) -> dict[int, NodeBudget]:
    """``--hard-nodes``: ``N`` (every size) or ``SIZE:N,...`` (per board size; others: none);
    ``SIZE:S/P`` gives S nodes to moves above ``ENDGAME_EMPTIES`` empty squares (the heuristic
    search alone) and P to the others (the prover first): each phase's nodes in the page's
    time (``benchmarks/phase_nodes.py``)."""
    if not text:
        return {}
    if ":" not in text:
        return {0: int(text)}
    out: dict[int, NodeBudget] = {}
    for item in text.split(","):
        size, nodes = item.split(":")
        if "/" in nodes:
            search, prover = nodes.split("/")
            out[int(size)] = (int(search), int(prover))
        else:
            out[int(size)] = int(nodes)
    return out


def strength(
    games: int,
    budget: float | str | None,
    jobs: int,
    nodes: dict[int, NodeBudget] | None = None,
    sizes: tuple[int, ...] = (6, 8, 10),
    first_game: int = 0,
    pairings: tuple[tuple[str, str], ...] = (("hard", "medium"), ("medium", "easy")),
    base_nodes: dict[int, NodeBudget] | None = None,
) -> dict[str, dict[str, int]]:
    """Games ``first_game`` .. ``first_game + games - 1`` of each pairing and size (game i:
    seeds 1000 + i and 2000 + i, seats swapped on odd i); W/D/L of the first-named level."""
    out: dict[str, dict[str, int]] = {}
    nodes = nodes or {}
    for first, second in pairings:
        for size in sizes:
            per_move = nodes.get(size, nodes.get(0))
            indices = range(first_game, first_game + games)
            base = (base_nodes or {}).get(size, (base_nodes or {}).get(0))
            tasks = [(first, second, size, i, budget, per_move, base) for i in indices]
            start = time.perf_counter()
            if jobs > 1:
                with ProcessPoolExecutor(jobs) as pool:
                    results = list(pool.map(_game, tasks))
            else:
                results = [_game(t) for t in tasks]
            wdl = {"win": results.count(1), "draw": results.count(0), "loss": results.count(-1)}
            name = f"{first}-vs-{second} {size}x{size}"
            out[name] = wdl
            print(
                f"  {name}: W/D/L {wdl['win']}/{wdl['draw']}/{wdl['loss']} "
                f"({100 * wdl['win'] / games:.1f} % wins, "
                f"{100 * (wdl['win'] + wdl['draw'] / 2) / games:.1f} % points, "
                f"{time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    return out


#: Node budgets per hard move that stand for the page's time budget in the browser
#: (hard_budget: 1.2 s up to 7x7 = 33 000 nodes, 0.4 s on larger boards = 8 000 nodes;
#: see RESULTS.md, "Nodes hard searches").
PAGE_NODES: dict[int, int] = {3: 33_000, 4: 33_000, 5: 33_000, 6: 33_000, 7: 33_000}
#: Small boards of the hard-vs-perfect section (rows, cols).
PERFECT_BOARDS = ((3, 3), (3, 4), (3, 5), (4, 4))

_perfect_solvers: dict[tuple[int, int, str], Solver] = {}


def _vs_perfect_game(args: tuple[int, int, str, int, int | None]) -> int:
    """One game of hard (node budget ``nodes``) against perfect; +1/0/-1 for hard, which
    sits first on even games. The perfect player's solver (and its table) is shared by the
    games of one process and board, which only saves time: its play is exact either way."""
    rows, cols, mode, index, nodes = args
    hard = make_agent("hard", seed=1000 + index)
    hard.budget = None  # type: ignore[attr-defined]
    hard.node_budget = nodes  # type: ignore[attr-defined]
    perfect = make_agent("perfect", seed=2000 + index)
    key = (rows, cols, mode)
    if key not in _perfect_solvers:
        _perfect_solvers[key] = Solver()
    perfect.solver = _perfect_solvers[key]  # type: ignore[attr-defined]
    seats = [hard, perfect] if index % 2 == 0 else [perfect, hard]
    state = new_game(Rules(rows, cols, mode))  # type: ignore[arg-type]
    while not state.is_terminal():
        state.apply(seats[state.current_player()].choose_action(state))
    me = 0 if index % 2 == 0 else 1
    diff = state.scores[me] - state.scores[1 - me]
    return (diff > 0) - (diff < 0)


def vs_perfect(
    games: int, jobs: int, boards: tuple[tuple[int, int], ...] = PERFECT_BOARDS,
    nodes: int | None = None,
) -> dict[str, dict[str, int]]:
    """hard vs perfect, ``games`` games per board and mode, seats swapped every game, at the
    node budget standing for the page's (``nodes``, default :data:`PAGE_NODES`); W/D/L of
    hard. Target: no loss."""
    out: dict[str, dict[str, int]] = {}
    for rows, cols in boards:
        for mode in ("general", "simple"):
            per_move = nodes if nodes is not None else PAGE_NODES[max(rows, cols)]
            tasks = [(rows, cols, mode, i, per_move) for i in range(games)]
            start = time.perf_counter()
            if jobs > 1:
                with ProcessPoolExecutor(jobs) as pool:
                    results = list(pool.map(_vs_perfect_game, tasks))
            else:
                results = [_vs_perfect_game(t) for t in tasks]
            wdl = {"win": results.count(1), "draw": results.count(0), "loss": results.count(-1)}
            name = f"hard-vs-perfect {rows}x{cols} {mode}"
            out[name] = wdl
            lost = [i for i, r in enumerate(results) if r < 0]
            print(
                f"  {name}: W/D/L {wdl['win']}/{wdl['draw']}/{wdl['loss']} at {per_move} nodes "
                f"a move ({time.perf_counter() - start:.0f} s; target: no loss)"
                + (f"; games lost: {lost}" if lost else ""),
                flush=True,
            )
    return out


#: Node budget standing for the Hint button's 1.0 s (analyse_steps' default) in the browser.
HINT_NODES = 28_000
POSITIONS_PATH = os.path.join(ROOT, "tests", "data", "positions.txt")


_positions: dict[str, list[dict[str, Any]]] = {}


def load_positions(path: str = POSITIONS_PATH) -> list[dict[str, Any]]:
    """The accuracy data set (format: scripts/build_positions.py), read once per process."""
    if path in _positions:
        return _positions[path]
    out = []
    with open(path, encoding="ascii") as handle:
        for text in handle:
            if not text.strip() or text.startswith("#"):
                continue
            size, mode, to_move, scores, board, value, result, optimal, keeping, source = (
                text.split()
            )
            state = GameState.from_text(
                board, mode=mode, to_move=int(to_move),  # type: ignore[arg-type]
                scores=[int(x) for x in scores.split(",")],
            )
            out.append({
                "board": size, "state": state, "value": int(value), "result": int(result),
                "optimal": set(optimal.split(",")), "keeping": set(keeping.split(",")),
                "source": source,
            })
    _positions[path] = out
    return out


def _accuracy_one(args: tuple[int, int | None, int | None]) -> dict[str, Any]:
    """hard's move and analyse()'s claim on position ``index`` of the data set."""
    from sos.ai.agents import HardAgent, analyse_steps

    index, nodes, hint_nodes = args
    item = load_positions()[index]
    state: GameState = item["state"]
    per_move = nodes if nodes is not None else PAGE_NODES.get(state.rules.rows, 8_000)
    hard = HardAgent(seed=index, budget=None, node_budget=per_move)
    action = str(hard.choose_action(state))
    hint = run_to_end(analyse_steps(state, budget=None, seed=index, node_budget=hint_nodes))
    proven = getattr(hint, "result", None)  # (None in engines before Analysis.result)
    if proven is None and hint.exact:
        proven = _sign(hint.margin)
    claimed = proven if proven is not None else _sign(round(hint.margin))
    return {
        "board": item["board"], "empty": state.empty_squares,
        "optimal": action in item["optimal"], "keeping": action in item["keeping"],
        "hint_sign": claimed == item["result"], "hint_exact": hint.exact,
        "hint_proven": proven is not None,
        "hint_overclaims": proven is not None and claimed != item["result"],
    }


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def accuracy(jobs: int, nodes: int | None = None, hint_nodes: int = HINT_NODES,
             stride: int = 1, offset: int = 0) -> dict[str, Any]:
    """hard's move vs the data set's exact values, by board and by empty squares, and the
    sign (win / draw / loss for the player to move) of analyse()'s hint, on every
    ``stride``-th position from ``offset``. Targets: hard keeps the exact value in >= 97 %
    of positions; the hint's sign is right in >= 95 %."""
    count = len(load_positions())
    tasks = [(i, nodes, hint_nodes) for i in range(offset, count, stride)]
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            rows = list(pool.map(_accuracy_one, tasks))
    else:
        rows = [_accuracy_one(t) for t in tasks]

    def pct(group: list[dict[str, Any]], field: str) -> float:
        return 100.0 * sum(r[field] for r in group) / max(1, len(group))

    out: dict[str, Any] = {"n": len(rows)}
    groups: list[tuple[str, list[dict[str, Any]]]] = [("all", rows)]
    boards = sorted({r["board"] for r in rows})
    groups += [(b, [r for r in rows if r["board"] == b]) for b in boards]
    bands = ((4, 8), (9, 12), (13, 14), (15, 16))
    groups += [
        (f"{lo}-{hi} empty", [r for r in rows if lo <= r["empty"] <= hi]) for lo, hi in bands
    ]
    print(f"  {'positions':<14} {'n':>4} {'keeps value':>12} {'keeps result':>13} "
          f"{'hint sign':>10} {'hint proven':>12}")
    for name, group in groups:
        if not group:
            continue
        out[name] = {
            "n": len(group), "optimal": pct(group, "optimal"), "keeping": pct(group, "keeping"),
            "hint_sign": pct(group, "hint_sign"), "hint_proven": pct(group, "hint_proven"),
        }
        f = out[name]
        print(f"  {name:<14} {f['n']:>4} {f['optimal']:>11.1f}% {f['keeping']:>12.1f}% "
              f"{f['hint_sign']:>9.1f}% {f['hint_proven']:>11.1f}%", flush=True)
    wrong = sum(r["hint_overclaims"] for r in rows)
    out["hint_overclaims"] = wrong
    print(f"  hints that claimed a proven result and were wrong: {wrong} (must be 0); "
          f"{time.perf_counter() - start:.0f} s; targets: keeps value >= 97 %, "
          "hint sign >= 95 %")
    return out


PROOFS = [
    (3, 3, "general"), (3, 3, "simple"), (3, 4, "general"), (3, 4, "simple"),
    (4, 4, "general"), (4, 4, "simple"), (3, 5, "general"), (3, 5, "simple"),
    (2, 6, "general"), (2, 6, "simple"),
] + [(1, n, mode) for mode in ("general", "simple") for n in range(3, 17)]


def proofs(max_seconds: float) -> dict[str, Any]:
    """Exact values from the empty board (first player's view), without the book."""
    out: dict[str, Any] = {}
    for rows, cols, mode in PROOFS:
        solver = Solver(use_book=False)
        start = time.perf_counter()
        value = run_to_end(solver.value(new_game(Rules(rows, cols, mode))))  # type: ignore[arg-type]
        took = time.perf_counter() - start
        word = "draw" if value == 0 else ("first player" if value > 0 else "second player")
        if mode == "general" and value:
            word += f" by {abs(value)}"
        elif value:
            word += " wins"
        name = f"{rows}x{cols} {mode}"
        out[name] = {"value": value, "seconds": round(took, 2), "nodes": solver.nodes}
        print(f"  {name}: {value:+d} ({word}); {took:.2f} s, {solver.nodes} nodes", flush=True)
        if took > max_seconds:
            print(f"  (stopping proofs: over {max_seconds} s)")
            break
    return out


def _budget(text: str) -> float | str:
    """``--hard-budget``: seconds, or ``auto`` (the agent's own budget by board size)."""
    return "auto" if text == "auto" else float(text)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description="SOS AI benchmarks")
    parser.add_argument("--sections", default="playouts,hard,perfect")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--hard-budget", type=_budget, default=None,
                        help="search seconds per hard move (default 0.4; 'auto': each agent's "
                             "own page budget, hard_budget(): 1.2 s up to 7x7, 0.4 s above)")
    parser.add_argument("--hard-nodes", default=None,
                        help="nodes per hard move, N or per size SIZE:N,... (deterministic; with "
                             "--hard-budget 0: no time limit)")
    parser.add_argument("--sizes", default="6,8,10", help="board sizes for strength")
    parser.add_argument("--base-nodes", default=None,
                        help="node budget of the baseline's hard (base-hard), as --hard-nodes: "
                             "what the baseline searches in the page's time")
    parser.add_argument("--first-game", type=int, default=0,
                        help="strength: index (and seeds) of the first game, for a fresh sample")
    parser.add_argument("--pairings", default="hard-medium,medium-easy",
                        help="strength: comma list of FIRST-SECOND levels; base-LEVEL is the "
                             "level of the checkout named by SOS_BASELINE (e.g. "
                             "hard-base-hard)")
    parser.add_argument("--boards", default="3x3,3x4,3x5,4x4",
                        help="vs-perfect: comma list of ROWSxCOLS boards")
    parser.add_argument("--stride", type=int, default=1,
                        help="accuracy: every STRIDE-th position of the data set")
    parser.add_argument("--split", default="tune",
                        help="endgame: half of benchmarks/data/exact_positions.txt (tune, heldout)")
    parser.add_argument("--offset", type=int, default=0,
                        help="accuracy: index of the first position")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="speed: rounds (best of)")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--proof-limit", type=float, default=120.0)
    parser.add_argument("--slice-ms", type=float, default=0.0,
                        help="steps-sliced: ms of steps between yields (0: every step; the "
                             "page: 20)")
    parser.add_argument("--predict", action="store_true",
                        help="steps-sliced: end a slice early when the last step would overrun")
    parser.add_argument("--step-boards", default=",".join(STEP_BOARDS),
                        help='steps-sliced: comma list of boards, e.g. "6x6 simple,8x8 simple"')
    args = parser.parse_args(argv)
    sections = args.sections.split(",")
    figures: dict[str, Any] = {"python": sys.version.split()[0], "platform": sys.platform}
    print(f"Python {figures['python']} on {sys.platform}")
    if "playouts" in sections:
        figures["playouts_per_s"] = playouts()
        print(f"playouts: {figures['playouts_per_s']:.1f} random 8x8 playouts/s")
    if "hard" in sections:
        figures["hard"] = hard_moves(args.positions, args.hard_budget)
        h = figures["hard"]
        print(f"hard: 8x8 mid-game, {h['n']} moves: mean {h['mean']:.3f} s, max {h['max']:.3f} s")
    if "nodes" in sections:
        figures["nodes"] = hard_nodes()
        for size, f in figures["nodes"].items():
            print(f"nodes: hard in {f['budget']} s on {size}x{size}: mean {f['mean']}, median "
                  f"{f['median']}, min {f['min']}, max {f['max']} ({f['per_cpu_s']} per CPU s); "
                  "the "
                  f"budget stands for {f['stands_for']} nodes")
    if "endgame" in sections:
        figures["endgame"] = endgame_nodes(args.split, args.stride)
        _print_endgame(f"endgame: hard in the page's time on the {args.split} endgame positions "
                       "of benchmarks/data/exact_positions.txt (nodes a move; wall-clock rate):",
                       figures["endgame"])
    if "endgame-sliced" in sections:
        title = (f"endgame-sliced: the same, each move in {SLICE_SECONDS * 1000:g} ms slices with "
                 "a yield to the event loop between (the page's run_sliced):")
        if sys.platform == "emscripten":  # the page's event loop: awaited by pyodide_browser.py
            async def after() -> None:
                figures["endgame_sliced"] = await endgame_nodes_sliced(args.split, args.stride)
                _print_endgame(title, figures["endgame_sliced"])
                print("JSON " + json.dumps(figures))

            globals()["AFTER_MAIN"] = after
            return figures
        import asyncio

        figures["endgame_sliced"] = asyncio.run(endgame_nodes_sliced(args.split, args.stride))
        _print_endgame(title, figures["endgame_sliced"])
    if "steps-sliced" in sections:
        title = (f"steps-sliced: hard vs hard, {args.games} game(s) a board at the page's budget, "
                 f"a yield to the event loop every {args.slice_ms:g} ms of steps (0: every step):")
        if sys.platform == "emscripten":  # the page's event loop: awaited by pyodide_browser.py
            async def after_steps() -> None:
                figures["steps_sliced"] = await game_steps_sliced(
                    args.games, args.slice_ms / 1000, tuple(args.step_boards.split(",")),
                    args.predict)
                print(title)
                _print_steps(figures["steps_sliced"])
                print("JSON " + json.dumps(figures))

            globals()["AFTER_MAIN"] = after_steps
            return figures
        import asyncio

        figures["steps_sliced"] = asyncio.run(game_steps_sliced(
            args.games, args.slice_ms / 1000, tuple(args.step_boards.split(",")), args.predict))
        print(title)
        _print_steps(figures["steps_sliced"])
    if "leaves" in sections:
        figures["leaves"] = leaf_playouts()
    if "speed" in sections:
        figures["speed"] = search_speed(args.rounds)
    if "perfect" in sections:
        figures["perfect_first_4x4"] = perfect_first_move()
        p = figures["perfect_first_4x4"]
        print(f"perfect: first move on 4x4: general {p['general']:.3f} s, "
              f"simple {p['simple']:.3f} s")
    if "steps" in sections:
        figures["steps"] = st = step_lengths()
        print(f"steps: longest single step (wall / CPU): hard 8x8 {st['hard_8x8_step_ms']:.1f} / "
              f"{st['hard_8x8_step_cpu_ms']:.1f} ms (longest GC pass {st['hard_8x8_gc_ms']:.1f} "
              f"ms), perfect 4x4 {st['perfect_4x4_step_ms']:.1f} / "
              f"{st['perfect_4x4_step_cpu_ms']:.1f} ms (GC {st['perfect_4x4_gc_ms']:.1f} ms)")
        print(f"perfect 4x4: first move {st['perfect_4x4_first_s']:.3f} s; moves 4-6 letters: "
              f"mean {st['perfect_4x4_mid_mean_s']:.3f} s, max {st['perfect_4x4_mid_max_s']:.3f} s")
    if "proofs" in sections:
        print("proofs (solver, no book):")
        figures["proofs"] = proofs(args.proof_limit)
    if "strength" in sections:
        budget: float | str | None = args.hard_budget if args.hard_budget is not None else 0.4
        if budget == 0:
            budget = None
        print(f"strength: {args.games} games per pairing and size, hard budget {budget} s, "
              f"{args.hard_nodes} nodes:")
        sizes = tuple(int(x) for x in args.sizes.split(","))
        pairings = tuple(
            (p.split("-", 1)[0], p.split("-", 1)[1]) for p in args.pairings.split(",")
        )
        figures["strength"] = strength(
            args.games, budget, args.jobs, parse_nodes(args.hard_nodes), sizes,
            args.first_game, pairings, parse_nodes(args.base_nodes),
        )
    if "vs-perfect" in sections:
        boards = tuple(
            (int(b.split("x")[0]), int(b.split("x")[1])) for b in args.boards.split(",")
        )
        print(f"vs-perfect: {args.games} games per board and mode, seats swapped:")
        figures["vs_perfect"] = vs_perfect(args.games, args.jobs, boards)
    if "accuracy" in sections:
        print(f"accuracy: hard at the page's node budget, hint at {HINT_NODES} nodes, vs the "
              "exact values of tests/data/positions.txt:")
        figures["accuracy"] = accuracy(args.jobs, stride=args.stride, offset=args.offset)
    if "pyodide" in sections:
        figures["pyodide"] = pyodide_ratio(figures, sections)
    if "browser" in sections:
        figures["browser"] = browser_ratio(figures)
    print("JSON " + json.dumps(figures))
    return figures


def _run_runner(cmd: list[str], label: str, echo: bool = True) -> dict[str, Any] | None:
    """Run a benchmark runner; its figures (the last ``JSON`` line), or None if it failed.

    With ``echo``, its other output lines are printed, prefixed with ``[label]``.
    """
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=ROOT)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("JSON ")]
    if proc.returncode != 0 or not lines:
        print(f"{label}: runner failed:\n" + proc.stdout[-2000:] + proc.stderr[-2000:])
        return None
    if echo:
        for line in proc.stdout.splitlines():
            if not line.startswith("JSON "):
                print(f"  [{label}] " + line)
    figures: dict[str, Any] = json.loads(lines[-1][5:])
    return figures


def pyodide_ratio(figures: dict[str, Any], sections: list[str]) -> dict[str, Any]:
    """Run the Node/Pyodide runner and compare with this run's CPython figures."""
    wanted = [s for s in sections if s in ("playouts", "hard", "nodes", "perfect", "steps")]
    py = _run_runner(
        ["node", os.path.join(ROOT, "benchmarks", "pyodide_bench.mjs"),
         ",".join(wanted or ["playouts"])],
        "pyodide",
    )
    if py is None:
        return {}
    out: dict[str, Any] = {"figures": py}
    if "playouts_per_s" in figures and "playouts_per_s" in py:
        ratio = figures["playouts_per_s"] / py["playouts_per_s"]
        out["engine_slowdown"] = ratio
        print(f"pyodide / CPython time ratio on engine playouts: {ratio:.2f} (target <= 1.5)")
    if "perfect_first_4x4" in py:
        p = py["perfect_first_4x4"]
        print(f"pyodide perfect first move 4x4: general {p['general']:.3f} s, "
              f"simple {p['simple']:.3f} s (target <= 2 s)")
    if "hard" in py:
        h = py["hard"]
        print(f"pyodide hard 8x8: mean {h['mean']:.3f} s, max {h['max']:.3f} s (target <= 0.5 s)")
    return out


def browser_ratio(figures: dict[str, Any]) -> dict[str, Any]:
    """Run the playouts (and the search speed, if this run measured it) under Pyodide in
    headless Chromium and compare with this run's."""
    wanted = ",".join(["playouts"] + [name for name in ("speed", "nodes") if name in figures])
    py = _run_runner(
        [sys.executable, os.path.join(ROOT, "benchmarks", "pyodide_browser.py"), wanted],
        "browser",
        echo=False,
    )
    if py is None:
        return {}
    for size, speed in py.get("speed", {}).items():
        line = f"  [chromium] speed {size}: {speed['new']:.0f} nodes/s (wall time)"
        if "ratio" in speed:
            line += f", baseline {speed['base']:.0f}: x{speed['ratio']:.2f} (target >= 2)"
        if size in figures.get("speed", {}):
            ratio = figures["speed"][size]["new"] / speed["new"]
            line += f"; chromium / CPython time ratio {ratio:.2f}"
        print(line)
    for size, f in py.get("nodes", {}).items():
        print(f"  [chromium] nodes: hard in {f['budget']} s on {size}x{size}: mean {f['mean']}, "
              "median "
              f"{f['median']}, min {f['min']}, max {f['max']}; the budget stands for "
              f"{f['stands_for']} nodes (PAGE_NODES)")
    print(f"  [chromium] playouts: {py['playouts_per_s']:.1f} random 8x8 playouts/s "
          "(wall time: no CPU clock in a page)")
    out: dict[str, Any] = {"figures": py}
    if "playouts_per_s" in figures:
        ratio = figures["playouts_per_s"] / py["playouts_per_s"]
        out["engine_slowdown"] = ratio
        print(f"chromium pyodide / CPython time ratio on engine playouts: {ratio:.2f} "
              "(target <= 1.5)")
    return out


if __name__ == "__main__":
    main()
