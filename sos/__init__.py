"""SOS: the paper-and-pencil game, as a pure-Python engine.

Public API::

    from sos import Rules, Action, GameState, new_game
    state = new_game(Rules.square(5))
    lines = state.apply(Action.parse("S@a1"))
"""

from .board import Line
from .notation import Action, InvalidNotationError
from .rules import InvalidRulesError, Rules
from .solver import solve
from .state import TERMINAL, GameState, IllegalActionError, Outcome, PlyRecord, new_game, replay

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
