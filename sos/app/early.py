"""Taps made before the engine was up: what becomes of them once it is (pure; no DOM).

The page draws its board from the static HTML before Python runs (``static/boot.js``), and a
tap on a square there only *records* ``(row, col, letter)`` and shows the letter; no rule of
the game runs in JavaScript. Once the session has chosen the game to show (the restore policy,
:meth:`sos.app.app.AppSession.start`), :func:`play_early` decides, here, what those taps do:

- They are played, in order, as the game's first moves -- only on a game with **no move at
  all** (no line, no undone moves, no other line) and the **same board** as the one tapped.
  A restored game that has moves (a reload of an ongoing game, ``#g=<id>``, a link ``game=`` /
  ``r=``, the last game of the library) is never changed by them: they are dropped with a
  notice, so a saved game is neither overwritten nor forked behind the player's back.
- Each is played through :meth:`GameSession.play <sos.app.session.GameSession.play>` while a
  person may move there (:meth:`~sos.app.session.GameSession.human_to_move`). The first one
  that cannot be played -- a computer's turn, the other device's turn in a game by link, the
  game over -- stops the replay: it and every later tap are dropped (a later tap was made
  after it, on the board as the player saw it), with one notice saying why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..notation import Action
from ..state import IllegalActionError
from .message import Message, message, plural
from .session import GameSession


@dataclass(frozen=True)
class EarlyResult:
    """What :func:`play_early` did: ``played`` taps became moves (the first ones, in order);
    ``notice`` says why the others were not played (None when all were)."""

    played: int
    notice: Message | None


def _why_not(game: GameSession) -> str:
    """The reason key for a tap the game does not take now (no person to move)."""
    if game.outcome is not None:
        return "notice.early.over"
    if game.computer_to_move() is not None:
        return "notice.early.computer"
    return "notice.early.turn"


def play_early(
    game: GameSession, board: tuple[int, int], taps: Sequence[tuple[int, int, str]]
) -> EarlyResult:
    """Play ``taps`` (``(row, col, letter)`` from 0, in the order they were made) on ``game``,
    the game the session shows, by the rules in the module docstring.

    Args:
        game: the game shown once the session started (changed in place by the taps played).
        board: ``(rows, cols)`` of the board the taps were made on (the static page's).
        taps: the taps; one that is not a free square of ``game``'s board with S or O (the
            page never sends such a tap) stops the replay like a tap on another board.

    Returns:
        How many taps were played and, if some were not, the notice (a plural
        :class:`~sos.app.message.Message` with the count and the reason).
    """
    if not taps:
        return EarlyResult(0, None)
    rules = game.rules

    def refused(played: int, reason: str) -> EarlyResult:
        left = len(taps) - played
        notice = plural("notice.early", left, squares=left, reason=message(reason))
        return EarlyResult(played, notice)

    if (rules.rows, rules.cols) != board:
        return refused(0, "notice.early.board")
    if game.line or game.variations:
        return refused(0, "notice.early.started")
    for played, (row, col, letter) in enumerate(taps):
        if not game.human_to_move():
            return refused(played, _why_not(game))
        try:
            game.play(Action(row, col, letter))
        except IllegalActionError:  # not a free square of this board: not the board tapped
            return refused(played, "notice.early.board")
    return EarlyResult(len(taps), None)
