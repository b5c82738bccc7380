"""SOS: the paper-and-pencil game, as a pure-Python engine.

Public API::

    from sos import Rules, Action, GameState, new_game
    state = new_game(Rules.square(5))
    lines = state.apply(Action.parse("S@a1"))
"""

from typing import TYPE_CHECKING, Any

from .board import Line
from .notation import Action, InvalidNotationError
from .rules import InvalidRulesError, Rules
from .state import TERMINAL, GameState, IllegalActionError, Outcome, PlyRecord, new_game, replay

if TYPE_CHECKING:
    from .ai.solver import solve


def __getattr__(name: str) -> Any:
    """``sos.solve`` is imported on first use (PEP 562): the solver and the search are not
    needed to start the page, and compiling them costs boot time under Pyodide."""
    if name == "solve":
        from .ai.solver import solve

        return solve
    raise AttributeError(f"module 'sos' has no attribute {name!r}")

__all__ = [
    "TERMINAL",
    "Action",
    "GameState",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidRulesError",
    "Line",
    "Outcome",
    "PlyRecord",
    "Rules",
    "new_game",
    "replay",
    "solve",
]
