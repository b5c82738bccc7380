"""The computer seats and hints as the app decides them, with no DOM: which agent plays which
seat, what a search needs before it starts (the opening book, where it is served and where it
goes), and the searches themselves as pausable generators. The page (:mod:`sos.web.computer`)
only steps the generators in time slices, fetches the book when told to, and plays the action.

The AI (:mod:`sos.ai`) is imported on first use, so that a game between people never loads it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Final

from ...notation import Action
from ...rules import Rules

if TYPE_CHECKING:
    from ...ai.agents import Agent, Turn
    from ...ai.agents import Analysis as Analysis
    from .session import GameSession

#: Where the page serves the solver's opening book (relative to the page; precached by the
#: service worker). Not in pyscript.toml ``[files]``: most games never read it, and 185 KB
#: fetched and written at start-up is boot time.
BOOK_URL: Final = "./sos/ai/book_4x4.txt"
#: The levels whose search reads the opening book (on a board it covers).
BOOK_LEVELS: Final = frozenset({"hard", "perfect"})
#: Visible pause before a computer's turn (seconds): its first move appears this long after
#: the move before it, or when the search ends if that takes longer.
TURN_PAUSE: Final = 0.45
#: The most seconds of visible pauses between the moves of one turn (a chain of SOSs), spread
#: evenly over them, at most :data:`TURN_PAUSE` each (:func:`turn_steps`): a chain of 2 or 3
#: moves is followed move by move, one of 80 moves passes in about this time.
CHAIN_PACE: Final = 1.2
#: The most steps (renders) in which the moves of a turn after its first are shown.
CHAIN_STEPS: Final = 12
#: Seconds of search a computer's turn is expected to take at the levels with no time budget
#: (``easy``, ``medium`` answer at once; ``perfect`` reads the opening book or solves a board
#: of at most 16 squares: 0.09 s for the first move of 4x4 in Chromium).
QUICK_TURN: Final = {"easy": 0.05, "medium": 0.05, "perfect": 1.0}
#: A search that has run this many times its expected time (:func:`turn_seconds`), and at least
#: :data:`OFFER_AFTER_FLOOR` seconds, has overrun: the player is offered to stop it (Skip).
OVERRUN_FACTOR: Final = 2.0
OFFER_AFTER_FLOOR: Final = 2.0
#: The page cuts a search off after this many times its expected time, and at least
#: :data:`SEARCH_LIMIT_FLOOR` seconds of its steps (:func:`search_limit`).
SEARCH_LIMIT_FACTOR: Final = 4.0
SEARCH_LIMIT_FLOOR: Final = 6.0


class SearchCutOff(Exception):
    """A computer's search was stopped before it answered: it ran past :func:`search_limit`
    (``budget``: the page's budget cut it off), or the player stopped it after it overran
    (Skip). The page plays :func:`quick_move` instead, and tells the player of a budget's
    cut-off (:meth:`sos.app.app.AppSession.computer_played`).

    Args:
        budget: True when the page's budget cut the search off, False when the player did.
    """

    def __init__(self, budget: bool = True) -> None:
        super().__init__("budget" if budget else "skip")
        self.budget = budget


def turn_seconds(rules: Rules, level: str) -> float:
    """Seconds of search a computer turn of ``level`` is expected to take under ``rules``:
    ``hard``'s turn budget (:data:`sos.ai.agents.TURN_BUDGET` moves' budgets, and the least
    budget of the move that ends the turn, :data:`sos.ai.agents.QUIET_FLOOR`), or
    :data:`QUICK_TURN` of the other levels."""
    if level == "hard":
        from ...ai.agents import QUIET_FLOOR, TURN_BUDGET, hard_budget

        return hard_budget(rules) * (TURN_BUDGET + QUIET_FLOOR)
    return QUICK_TURN.get(level, QUICK_TURN["perfect"])


def overrun_after(rules: Rules, level: str) -> float:
    """Seconds of search after which a computer's turn has overrun (offer to stop it)."""
    return max(OFFER_AFTER_FLOOR, OVERRUN_FACTOR * turn_seconds(rules, level))


def search_limit(rules: Rules, level: str) -> float:
    """Seconds of search after which the page cuts a computer's turn off
    (:class:`SearchCutOff`): :data:`SEARCH_LIMIT_FACTOR` times :func:`turn_seconds`, at least
    :data:`SEARCH_LIMIT_FLOOR`. A search that works as documented never gets there; one that
    never answers (a bug) cannot hold the game."""
    return max(SEARCH_LIMIT_FLOOR, SEARCH_LIMIT_FACTOR * turn_seconds(rules, level))


def turn_steps(moves: int, first: float = TURN_PAUSE) -> list[tuple[int, float]]:
    """How the page shows a computer turn of ``moves`` moves: ``(moves shown at once, seconds
    of pause before them)`` per step, in order. The first move comes alone after ``first``
    (:data:`TURN_PAUSE`; the search runs during it); the others follow in at most
    :data:`CHAIN_STEPS` steps of about equal size, :data:`CHAIN_PACE` spread over them, at
    most ``first`` each (``first=0``: no pause at all). A chain of a few moves is followed
    move by move; one of 100 moves is drawn a dozen times, not 100 (each render of the
    largest board costs about 20 ms of CPU, four times that on a phone).
    """
    if moves <= 0:
        return []
    rest = moves - 1
    count = min(rest, CHAIN_STEPS)
    pause = min(first, CHAIN_PACE / count) if count else 0.0
    steps = [(1, first)]
    for k in range(count):
        steps.append(((k + 1) * rest // count - k * rest // count, pause))
    return steps


def quick_move(game: GameSession) -> Action:
    """A legal action for the player to move, found at once (``medium``'s rule: the SOS worth
    the most, else a move that opens none): what the page plays after :class:`SearchCutOff`,
    so that the game goes on.

    Raises:
        ValueError: if the game is over.
    """
    from ...ai.agents import make_agent

    return make_agent("medium", seed=random.SystemRandom().randrange(2**32)).choose_action(
        game.state.clone()
    )


def book_covers(rules: Rules) -> bool:
    """True when the page's opening book answers positions under ``rules`` (two players on
    the book's board, :data:`sos.ai.solver.BOOK_SHAPE`)."""
    from ...ai.solver import BOOK_SHAPE

    return (rules.rows, rules.cols) == BOOK_SHAPE and rules.players == 2


def book_needed(rules: Rules, level: str | None) -> bool:
    """True when a search of ``level`` (``None``: a hint or a review, which read it at every
    level) under ``rules`` should have the opening book before it starts."""
    return (level is None or level in BOOK_LEVELS) and book_covers(rules)


def book_path() -> str:
    """Where the solver reads the book in the interpreter's file system (write the text
    fetched from :data:`BOOK_URL` there; without it the solver searches, slower but exact)."""
    from ...ai.solver import BOOK_PATH

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
            from ...ai.agents import make_agent

            agent = make_agent(kind, seed=self._seed())
            self._agents = {k: v for k, v in self._agents.items() if k[0] == id(game)}
            self._agents[key] = agent
        return self._agents[key]

    def plan_turn(self, game: GameSession, seat: int) -> Generator[None, None, Turn]:
        """The search of ``seat``'s whole turn (:meth:`sos.ai.agents.Agent.plan_turn`: a chain
        of scoring moves and the move that ends it, under one budget) on a copy of the
        position shown: step it until it returns the actions; the session is untouched."""
        return self.agent(game, seat).plan_turn(game.state.clone())


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
    from ...ai.agents import analyse_steps

    return analyse_steps(game.state.clone())
