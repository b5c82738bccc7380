"""Game rules: board size, scoring mode and number of players.

The rules are those of the paper-and-pencil game SOS: players take turns writing S or O in an
empty square; a straight S-O-S of adjacent squares (row, column or either diagonal) scores a
point for the player who completed it, who then moves again. Mode ``general`` plays to a full
board (most points wins); mode ``simple`` ends at the first SOS (its maker wins).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Mode = Literal["general", "simple"]

MODES: Final[tuple[Mode, ...]] = ("general", "simple")
#: Number of players a game can have (seats in fixed order).
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
#: Square board sizes the app offers, in squares on a side (the engine also accepts rectangles
#: and strips). The one owner of these limits: the settings form, URL parameters, saved games,
#: records, links, puzzles, messages and the board drawn before Python runs
#: (``static/vendor/limits.js``, written by ``scripts/limits.mjs``) all derive from them.
MIN_APP_SIZE: Final = 3
MAX_APP_SIZE: Final = 12
#: The board sizes the app offers, smallest first: ``range(MIN_APP_SIZE, MAX_APP_SIZE + 1)``.
APP_SIZES: Final = range(MIN_APP_SIZE, MAX_APP_SIZE + 1)
#: Largest side the engine accepts (column letters a..z in the action notation).
MAX_SIDE: Final = 26


class InvalidRulesError(ValueError):
    """Raised for a board size, mode or player count the game does not allow."""


@dataclass(frozen=True)
class Rules:
    """Immutable description of one game's rules.

    Attributes:
        rows: board height in squares, 1..26.
        cols: board width in squares, 1..26. At least one side must be >= 3 so that an SOS fits.
        mode: ``"general"`` (play to a full board, most SOSs wins) or ``"simple"`` (first SOS
            wins; a full board without one is a draw).
        players: number of players in fixed seat order, 2..4.

    Raises:
        InvalidRulesError: for any value outside those ranges.
    """

    rows: int = 3
    cols: int = 3
    mode: Mode = "general"
    players: int = 2

    def __post_init__(self) -> None:
        for name in ("rows", "cols", "players"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidRulesError(f"{name} must be an integer, got {value!r}")
        if not (1 <= self.rows <= MAX_SIDE and 1 <= self.cols <= MAX_SIDE):
            raise InvalidRulesError(
                f"board must be between 1 and {MAX_SIDE} squares on each side, "
                f"got {self.rows}x{self.cols}"
            )
        if max(self.rows, self.cols) < 3:
            raise InvalidRulesError(
                f"a {self.rows}x{self.cols} board has no line of 3 squares for an SOS"
            )
        if self.mode not in MODES:
            raise InvalidRulesError(f"mode must be 'general' or 'simple', got {self.mode!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidRulesError(
                f"players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, got {self.players}"
            )

    @classmethod
    def square(cls, size: int, mode: Mode = "general", players: int = 2) -> Rules:
        """Rules for a ``size`` x ``size`` board."""
        return cls(rows=size, cols=size, mode=mode, players=players)

    @property
    def cells(self) -> int:
        """Number of squares on the board (rows * cols)."""
        return self.rows * self.cols


def app_allows(rules: Rules) -> bool:
    """Whether the app plays a game with ``rules``: a square board whose side is in
    :data:`APP_SIZES` (any mode and any player count :class:`Rules` accepts).

    The one check behind URL parameters, saved games, imported records, game links and puzzles
    (those that read a size, a mode and a player count go through :func:`app_rules`); the
    engine itself plays any :class:`Rules`.
    """
    return rules.rows == rules.cols and rules.rows in APP_SIZES


def app_rules(size: int, mode: Mode = "general", players: int = 2) -> Rules | None:
    """The :class:`Rules` of a ``size`` x ``size`` board the app plays (:func:`app_allows`),
    or None for a size or player count that makes no such game: what a URL, a link or a
    puzzle file asks for."""
    try:
        rules = Rules.square(size, mode, players)
    except InvalidRulesError:
        return None
    return rules if app_allows(rules) else None
