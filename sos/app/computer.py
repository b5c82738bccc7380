"""The computer seats and hints as the app decides them, with no DOM: which agent plays which
seat, what a search needs before it starts (the opening book, where it is served and where it
goes), and the searches themselves as pausable generators. The page (:mod:`sos.web.computer`)
only steps the generators in time slices, fetches the book when told to, and plays the action.

The AI (:mod:`sos.ai`) is imported on first use, so that a game between people never loads it.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Final

from ..notation import Action
from ..rules import Rules

if TYPE_CHECKING:
    from ..ai.agents import Agent
    from ..ai.agents import Analysis as Analysis
    from .session import GameSession

#: Where the page serves the solver's opening book (relative to the page; precached by the
#: service worker). Not in pyscript.toml ``[files]``: most games never read it, and 185 KB
#: fetched and written at start-up is boot time.
BOOK_URL: Final = "./sos/ai/book_4x4.txt"
#: The levels whose search reads the opening book (on a board it covers).
BOOK_LEVELS: Final = frozenset({"hard", "perfect"})


def book_covers(rules: Rules) -> bool:
    """True when the page's opening book answers positions under ``rules`` (two players on
    the book's board, :data:`sos.ai.solver.BOOK_SHAPE`)."""
    from ..ai.solver import BOOK_SHAPE

    return (rules.rows, rules.cols) == BOOK_SHAPE and rules.players == 2


def book_needed(rules: Rules, level: str | None) -> bool:
    """True when a search of ``level`` (``None``: a hint or a review, which read it at every
    level) under ``rules`` should have the opening book before it starts."""
    return (level is None or level in BOOK_LEVELS) and book_covers(rules)


def book_path() -> str:
    """Where the solver reads the book in the interpreter's file system (write the text
    fetched from :data:`BOOK_URL` there; without it the solver searches, slower but exact)."""
    from ..ai.solver import BOOK_PATH

    return str(BOOK_PATH)


def load_ai() -> None:
    """Import the AI (compile it once, at idle time after start-up or before a game with a
    computer seat starts), so that the first move or hint does not pay for it."""
    import sos.ai.agents  # noqa: F401


class ComputerSeats:
    """The agents of the computer seats: one per (game, seat, level), made on first use with
    a seed from ``seed`` (the page passes the system's random source), forgotten when another
    game is shown.

    Args:
        seed: a fresh 32-bit seed for each new agent.
    """

    def __init__(self, seed: Callable[[], int]) -> None:
        self._seed = seed
        self._agents: dict[tuple[int, int, str], Agent] = {}

    def level(self, game: GameSession, seat: int) -> str:
        """The computer level of ``seat`` in ``game`` (``human`` for a person)."""
        return game.seat_kind(seat)

    def agent(self, game: GameSession, seat: int) -> Agent:
        """The agent of ``seat`` in ``game``.

        Raises:
            ValueError: ``seat`` is not a computer seat.
        """
        kind = game.seat_kind(seat)
        key = (id(game), seat, kind)
        if key not in self._agents:
            from ..ai.agents import make_agent

            agent = make_agent(kind, seed=self._seed())
            self._agents = {k: v for k, v in self._agents.items() if k[0] == id(game)}
            self._agents[key] = agent
        return self._agents[key]

    def plan(self, game: GameSession, seat: int) -> Generator[None, None, Action]:
        """The search of ``seat``'s agent on a copy of the position shown (step it until it
        returns the action; the session is untouched)."""
        return self.agent(game, seat).plan(game.state.clone())


def worth_skipping(seats: Sequence[str], run_moves: int) -> bool:
    """Whether a run of computer moves under way is worth a "Skip" control (issue 26): two or
    more computer seats (they may play on for a long time), or one computer on a chain of extra
    turns (two moves or more in this run: scores that can go on for a hundred moves on a large
    board). A single computer's single move gets no control (it would only flash).

    Args:
        seats: the game's seat kinds (``"human"`` or a level).
        run_moves: computer moves played so far in the run.
    """
    return run_moves >= 2 or sum(kind != "human" for kind in seats) >= 2


def hint_steps(game: GameSession) -> Generator[None, None, Analysis]:
    """The hint's search (:func:`sos.ai.agents.analyse_steps`) on a copy of the position
    shown: the best action, its value and what is proven of it."""
    from ..ai.agents import analyse_steps

    return analyse_steps(game.state.clone())
