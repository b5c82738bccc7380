"""The computer player: search, exact solver, levels and review analysis (pure, standard library).

- :mod:`sos.ai.search`: bitboard positions, alpha-beta with a transposition table, quiescence.
- :mod:`sos.ai.solver`: the exact solver (proofs, opening books ``book_<rows>x<cols>.txt``).
- :mod:`sos.ai.agents`: the levels (easy, medium, hard, perfect) and hints.
- :mod:`sos.ai.review`: a finished game's review (values, verdicts, accuracy).

The page reaches these only through :mod:`sos.app`.
"""

from typing import Final

from ..rules import Rules

#: The computer levels, weakest first (what :func:`sos.ai.agents.make_agent` accepts).
LEVELS: Final[tuple[str, ...]] = ("easy", "medium", "hard", "perfect")
#: The one limit of exact play: with two players, boards of at most this many squares (3x3, 4x4,
#: 3x4, 3x5) are solved from the first move on — ``perfect`` is offered there, ``hard`` proves
#: its moves, a review is exact and only such boards can have an opening book.
EXACT_MAX_CELLS: Final = 16


def levels_for(rules: Rules) -> tuple[str, ...]:
    """The levels offered for a game under ``rules``: ``perfect`` only on boards of at most
    :data:`EXACT_MAX_CELLS` squares."""
    if rules.cells <= EXACT_MAX_CELLS:
        return LEVELS
    return LEVELS[:-1]


__all__ = ["EXACT_MAX_CELLS", "LEVELS", "levels_for"]
