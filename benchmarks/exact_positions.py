"""Build ``benchmarks/data/exact_positions.txt``: positions with exact values, for tuning and for
held-out accuracy checks of the page's AI.

Positions come from games played by the project's levels (``sos.ai.agents``: ``hard`` at a
fixed node budget, ``medium``) after a seeded random 2-move opening, stopped at a random number
of empty squares in 12..16 (a game that ends sooner is replayed with the next seed). Each is
solved by the independent C solver (``benchmarks/csos``): its exact value for the side to move
and the set of actions that keep that value.

File format (one position a line, ``#`` comments; fields separated by one space)::

    <board> <mode> <to_move> <score0>,<score1> <value> <split> <best> <source>

* ``board``: ``GameState.to_text()`` (rows from the top, ``/`` between rows, ``.`` empty);
* ``mode``: ``general`` or ``simple``; ``to_move``: the seat to move (0 or 1);
* ``score0,score1``: points already scored (general mode; ``0,0`` in simple mode);
* ``value``: exact value for the side to move as :func:`sos.solve` gives it: general, own
  future points minus the opponent's under optimal play (add the score difference for the
  final margin); simple, +1 win, 0 draw, -1 loss;
* ``split``: ``tune`` (may be used to tune the AI) or ``heldout`` (never used for tuning;
  report accuracy on these), half of each board size and mode;
* ``best``: the actions that keep the exact value, comma-separated (``S@b3`` notation);
* ``source``: the two seats' levels and the game's seed, e.g. ``hard+medium:17``.

Load a position with ``GameState.from_text(board, mode=mode, to_move=to_move,
scores=[score0, score1])``.

    python -m benchmarks.exact_positions [--per-group 50] [--seed 2026] [--out PATH]
    # a second held-out set, 12-14 empty squares, never used for tuning:
    python -m benchmarks.exact_positions --seed 2027 --empties 12-14 --split-all heldout \\
        --out benchmarks/data/exact_positions_b.txt
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import NamedTuple

from benchmarks.csos.driver import CSolver
from sos import GameState, Rules, new_game
from sos.ai.agents import HardAgent, make_agent
from sos.rules import Mode

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "data", "exact_positions.txt")
SIZES = (4, 5, 6)
MODES: tuple[Mode, ...] = ("general", "simple")
#: Nodes per move of the ``hard`` players of the generating games.
HARD_NODES = 2000
#: Seat pairings of the generating games.
PAIRINGS = (("hard", "hard"), ("hard", "medium"), ("medium", "hard"))


class ExactPosition(NamedTuple):
    """One line of the file (see the module docstring)."""

    board: str
    mode: Mode
    to_move: int
    scores: tuple[int, int]
    value: int
    split: str
    best: tuple[str, ...]
    source: str

    def state(self) -> GameState:
        """The position as a :class:`GameState`."""
        return GameState.from_text(
            self.board, mode=self.mode, to_move=self.to_move, scores=list(self.scores)
        )

    def line(self) -> str:
        """The file line of this position."""
        return (
            f"{self.board} {self.mode} {self.to_move} {self.scores[0]},{self.scores[1]} "
            f"{self.value} {self.split} {','.join(self.best)} {self.source}"
        )


def parse_line(line: str) -> ExactPosition:
    """An :class:`ExactPosition` from a file line.

    Raises:
        ValueError: for a line that does not have the 8 fields.
    """
    fields = line.split()
    if len(fields) != 8:
        raise ValueError(f"expected 8 fields, got {len(fields)}: {line!r}")
    board, mode, to_move, scores, value, split, best, source = fields
    if mode not in MODES:
        raise ValueError(f"bad mode {mode!r}")
    s0, s1 = (int(x) for x in scores.split(","))
    return ExactPosition(
        board,
        mode,
        int(to_move),
        (s0, s1),
        int(value),
        split,
        tuple(best.split(",")),
        source,  # type: ignore[arg-type]
    )


def load(path: str = DEFAULT_OUT) -> list[ExactPosition]:
    """Every position of the file at ``path``."""
    with open(path, encoding="ascii") as handle:
        return [parse_line(x) for x in handle if x.strip() and not x.startswith("#")]


def play_to(
    size: int,
    mode: Mode,
    empties: int,
    seed: int,
    pairings: tuple[tuple[str, str], ...] = PAIRINGS,
) -> tuple[GameState, str] | None:
    """A game on ``size`` x ``size`` from a seeded 2-move random opening, played by a pairing
    of levels (one of ``pairings`` by the seed) until ``empties`` squares are empty; ``None``
    if it ended before."""
    rng = random.Random(seed)
    names = pairings[seed % len(pairings)]
    agents = [
        HardAgent(seed=seed * 2 + k, budget=None, node_budget=HARD_NODES)
        if name == "hard"
        else make_agent(name, seed * 2 + k)
        for k, name in enumerate(names)
    ]
    state = new_game(Rules.square(size, mode))
    for _ in range(2):
        state.apply(rng.choice(state.legal_actions()))
    while not state.is_terminal() and state.empty_squares > empties:
        state.apply(agents[state.current_player()].choose_action(state))
    if state.is_terminal():
        return None
    return state, f"{names[0]}+{names[1]}:{seed}"


def generate(
    per_group: int,
    seed: int,
    out: str,
    empties_range: tuple[int, int] = (12, 16),
    split_all: str | None = None,
    pairings: tuple[tuple[str, str], ...] = PAIRINGS,
) -> None:
    """Write ``per_group`` positions for each board size and mode to ``out``, with a number of
    empty squares drawn from ``empties_range`` (inclusive); ``split_all`` puts every position
    in that split (e.g. ``heldout`` for a set never tuned on) instead of half and half."""
    positions: list[ExactPosition] = []
    t_start = time.perf_counter()
    total_nodes = 0
    with CSolver() as c:
        for size in SIZES:
            for mode in MODES:
                group: list[ExactPosition] = []
                game_seed = seed * 1000 + size * 100 + (0 if mode == "general" else 50)
                t0 = time.perf_counter()
                while len(group) < per_group:
                    game_seed += 1
                    empties = random.Random(game_seed).randint(*empties_range)
                    empties = min(empties, size * size - 3)
                    played = play_to(size, mode, empties, game_seed, pairings)
                    if played is None:
                        continue
                    state, source = played
                    value, nodes = c.solve(state)
                    actions, move_nodes = c.action_values(state)
                    total_nodes += nodes + move_nodes
                    best = tuple(sorted(str(a) for a, v in actions.items() if v == value))
                    me = state.current_player()
                    group.append(
                        ExactPosition(
                            state.to_text(),
                            mode,
                            me,
                            (state.scores[0], state.scores[1]),
                            value,
                            "",
                            best,
                            source,
                        )
                    )
                # half for tuning, half held out: a seeded shuffle of the group
                order = list(range(len(group)))
                random.Random(seed + size * 10 + len(mode)).shuffle(order)
                for rank, k in enumerate(order):
                    split = "tune" if rank < len(group) // 2 else "heldout"
                    split = split_all or split
                    positions.append(group[k]._replace(split=split))
                print(
                    f"{size}x{size} {mode}: {len(group)} positions, "
                    f"{time.perf_counter() - t0:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    os.makedirs(os.path.dirname(out), exist_ok=True)
    header = __doc__.split("File format", 1)[1].split("    python -m", 1)[0]
    with open(out, "w", encoding="ascii") as handle:
        handle.write(
            "# SOS positions with exact values (benchmarks/exact_positions.py; values by the\n"
            "# independent C solver benchmarks/csos).\n"
            + "".join(
                f"#{(' ' + x) if x else ''}\n"
                for x in ("File format" + header.rstrip()).splitlines()
            )
            + f"# generated with --per-group {per_group} --seed {seed} "
            f"--empties {empties_range[0]}-{empties_range[1]}"
            + (f" --split-all {split_all}" if split_all else "")
            + (
                " --pairings " + ",".join("+".join(p) for p in pairings)
                if pairings != PAIRINGS
                else ""
            )
            + "; "
            f"hard at {HARD_NODES} nodes a move\n"
        )
        for p in positions:
            handle.write(p.line() + "\n")
    print(
        f"wrote {len(positions)} positions to {out} "
        f"({total_nodes} solver nodes, {time.perf_counter() - t_start:.0f} s)",
        file=sys.stderr,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-group", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--empties", default="12-16", help="range of empty squares, LO-HI")
    parser.add_argument("--split-all", help="put every position in this split (e.g. heldout)")
    parser.add_argument(
        "--pairings",
        default="hard+hard,hard+medium,medium+hard",
        help="comma list of level pairs that play the games, e.g. easy+medium,medium+easy",
    )
    args = parser.parse_args(argv)
    lo, hi = (int(x) for x in args.empties.split("-"))
    pairs = tuple(tuple(p.split("+")) for p in args.pairings.split(","))
    generate(args.per_group, args.seed, args.out, (lo, hi), args.split_all, pairs)  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
