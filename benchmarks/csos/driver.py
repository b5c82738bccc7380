"""Python driver of the offline C tools in ``benchmarks/csos`` (exact solver and peers).

The C program ``csos`` is built with ``make`` (or straight with the C compiler when ``make`` is
missing) and kept running as a child process that answers one line per request
(``csos serve``; the protocol is described in ``main.c``). It is independent of the page's
solver: its own board code, search and table. Values follow :mod:`sos.ai.solver`: for the side
to move, ``general`` = own future points - opponent's future points under optimal play (a player
who scores moves again), ``simple`` = +1 win, 0 draw, -1 loss; a move's value includes the
points it scores. Two players only; boards up to 12x12 for the peers, about 6x6 for the solver.

Example::

    with CSolver() as c:
        value, nodes = c.solve(GameState.from_text("S.S/.../...", mode="general"))
"""

from __future__ import annotations

import os
import shutil
import subprocess
from types import TracebackType

from sos import Action, GameState

#: This folder (sources, Makefile, and the built program ``csos``).
HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.join(HERE, "csos")
SOURCES = ("board.c", "solver.c", "peers.c", "main.c")
HEADERS = ("board.h", "solver.h", "peers.h")


class CompilerMissingError(RuntimeError):
    """Raised by :func:`build` when no C compiler is found."""


def compiler() -> str | None:
    """The C compiler to use (``$CC``, ``gcc``, ``cc`` or ``clang``), or ``None``."""
    for name in (os.environ.get("CC"), "gcc", "cc", "clang"):
        if name and shutil.which(name):
            return name
    return None


def build(force: bool = False) -> str:
    """Build ``csos`` if it is missing or older than its sources; returns its path.

    Raises:
        CompilerMissingError: without a C compiler.
        subprocess.CalledProcessError: if compiling fails.
    """
    newest = max(os.path.getmtime(os.path.join(HERE, f)) for f in SOURCES + HEADERS)
    if not force and os.path.exists(BINARY) and os.path.getmtime(BINARY) >= newest:
        return BINARY
    cc = compiler()
    if cc is None:
        raise CompilerMissingError("no C compiler (gcc, cc or clang) found")
    # Straight compile (no make needed; portable flags: the binary may be built on CI).
    subprocess.run(
        [cc, "-O2", "-std=c99", "-D_DEFAULT_SOURCE", "-o", BINARY, *SOURCES, "-lm"],
        cwd=HERE,
        check=True,
        capture_output=True,
    )
    return BINARY


def mode_letter(state: GameState) -> str:
    """``"g"`` or ``"s"`` for the state's mode."""
    return "s" if state.rules.mode == "simple" else "g"


class CSolver:
    """A running ``csos serve`` process: exact values and peer moves for two-player states.

    Use as a context manager (or call :meth:`close`). Not thread-safe.

    Raises:
        ValueError: from any method, for more than two players or an error line from ``csos``.
    """

    def __init__(self) -> None:
        path = build()
        # the table of csos serve: 2^22 entries (64 MB), cleared when the shape or mode changes
        self._proc = subprocess.Popen(
            [path, "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def __enter__(self) -> CSolver:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the child process."""
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            try:
                self._proc.stdin.write("quit\n")
                self._proc.stdin.flush()
            except BrokenPipeError:
                pass
            self._proc.wait(timeout=10)

    def _ask(self, line: str) -> str:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(line + "\n")
        self._proc.stdin.flush()
        answer = self._proc.stdout.readline().strip()
        if not answer or answer.startswith("error"):
            raise ValueError(f"csos: {answer or 'no answer'} (request {line!r})")
        return answer

    @staticmethod
    def _check(state: GameState) -> None:
        if state.rules.players != 2:
            raise ValueError("csos plays two-player games only")

    def solve(self, state: GameState) -> tuple[int, int]:
        """Exact value of ``state`` for the side to move, and the nodes searched.

        A finished game is worth 0 (as :func:`sos.solve`).
        """
        self._check(state)
        if state.is_terminal():
            return 0, 0
        value, nodes = self._ask(f"solve {mode_letter(state)} {state.to_text()}").split()
        return int(value), int(nodes)

    def action_values(self, state: GameState) -> tuple[dict[Action, int], int]:
        """Exact value of every legal action (its points included) and the nodes searched."""
        self._check(state)
        parts = self._ask(f"moves {mode_letter(state)} {state.to_text()}").split()
        values: dict[Action, int] = {}
        nodes = 0
        for part in parts:
            name, value = part.split("=")
            if name == "nodes":
                nodes = int(value)
            else:
                values[Action.parse(name)] = int(value)
        return values, nodes

    def _lead(self, state: GameState) -> int:
        me = state.current_player()
        return state.scores[me] - state.scores[1 - me]

    def mcts_action(
        self, state: GameState, seconds: float, seed: int, iterations: int = 0
    ) -> tuple[Action, int]:
        """The UCT peer's action after ``seconds`` of search (0: no time limit) or
        ``iterations`` iterations (0: no limit), whichever comes first, and its iteration
        count. One of the two limits must be set."""
        self._check(state)
        if seconds <= 0 and iterations <= 0:
            raise ValueError("mcts_action needs seconds or iterations")
        ms = max(1, round(seconds * 1000)) if seconds > 0 else 0
        answer = self._ask(
            f"mcts {mode_letter(state)} {state.to_text()} {self._lead(state)} {ms} {seed} "
            f"{iterations}"
        )
        name, count = answer.split()
        return Action.parse(name), int(count.split("=")[1])

    def alphabeta_action(self, state: GameState, depth: int, seed: int) -> tuple[Action, int]:
        """The depth-``depth`` alpha-beta peer's action, and its node count."""
        self._check(state)
        answer = self._ask(
            f"ab {mode_letter(state)} {state.to_text()} {self._lead(state)} {depth} {seed}"
        )
        name, nodes = answer.split()
        return Action.parse(name), int(nodes.split("=")[1])


__all__ = ["BINARY", "CSolver", "CompilerMissingError", "build", "compiler", "mode_letter"]
