"""Taps made before the engine was up: what becomes of them once it is (pure; no DOM).

The page draws its board from the static HTML before Python runs (``static/boot.js``), and a
tap on a square there only *records* ``(row, col, letter)`` and shows the letter; no rule of
the game runs in JavaScript. Once the session has chosen the game to show (the restore policy,
:meth:`sos.app.app.AppSession.start`), :func:`play_early` decides, here, what those taps do:

- On an empty board they are played, in order, as the game's first moves -- on a game with
  **no move at all** (no line, no undone moves, no other line) and the **same board** as the
  one tapped. On the full page, a restored game that has moves (a reload of an ongoing game,
  ``#g=<id>``, a link ``game=`` / ``r=``, the last game of the library) is never changed by
  them: they are dropped with a notice, so a saved game is neither overwritten nor forked
  behind the player's back. In an embed (the frame's own game, docs/embedding.md) they are
  never dropped for that: they start a new game there, and the other stays in the library.
- On an embed's game drawn before the engine was up (its record,
  :func:`sos.app.share.embed.paint_of`: ``shown`` = its id and moves) they are played into
  that game, after its moves, as the reader saw it. If the game changed since it was drawn
  (another frame or tab moved on), they are played into a copy of the position drawn (a new
  game, with a notice): what the reader tapped on is what they get, and the other game is
  untouched.
- Each is played through :meth:`GameSession.play <sos.app.game.session.GameSession.play>` while a
  person may move there (:meth:`~sos.app.game.session.GameSession.human_to_move`). The first one
  that cannot be played -- a computer's turn, the other device's turn in a game by link, the
  game over -- stops the replay: it and every later tap are dropped (a later tap was made
  after it, on the board as the player saw it), with one notice saying why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..notation import Action
from ..state import IllegalActionError
from .game.session import GameSession
from .saving.transcript import RecordError, decode_moves, encode_moves
from .tab import TabCore
from .text.message import Message, message, plural


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
        :class:`~sos.app.text.message.Message` with the count and the reason).
    """
    if not taps:
        return EarlyResult(0, None)
    rules = game.rules
    if (rules.rows, rules.cols) != board:
        return _refused(taps, 0, "notice.early.board")
    if game.line or game.variations:
        return _refused(taps, 0, "notice.early.started")
    return _replay(game, taps)


def _refused(taps: Sequence[tuple[int, int, str]], played: int, reason: str) -> EarlyResult:
    """Taps from ``played`` on are not played, for ``reason`` (one plural notice)."""
    left = len(taps) - played
    return EarlyResult(played, plural("notice.early", left, squares=left, reason=message(reason)))


def _replay(game: GameSession, taps: Sequence[tuple[int, int, str]]) -> EarlyResult:
    """Play ``taps`` in order on ``game`` while a person may move there (see the docstring)."""
    for played, (row, col, letter) in enumerate(taps):
        if not game.human_to_move():
            return _refused(taps, played, _why_not(game))
        try:
            game.play(Action(row, col, letter))
        except IllegalActionError:  # not a free square of this board: not the board tapped
            return _refused(taps, played, "notice.early.board")
    return EarlyResult(len(taps), None)


def take_early(
    app: TabCore,
    board: tuple[int, int],
    taps: Sequence[tuple[int, int, str]],
    shown: tuple[str, str] | None = None,
) -> EarlyResult:
    """Play the taps made before the engine was up on the game ``app`` shows, by the rules in
    the module docstring: on the empty board (``shown`` None, :func:`play_early`; in an embed a
    restored game with moves makes way for a new game), or on the game an embed drew under them
    (``shown`` = ``(id, line)``: the record's id and moves as a share code).

    Returns:
        as :func:`play_early`; the game the taps went to is :attr:`TabCore.game` afterwards
        (a new one in the cases above; the one shown before stays in the library).
    """
    if not taps:
        return EarlyResult(0, None)
    game = app.game
    rules = game.rules
    if shown is not None and shown[1] and (rules.rows, rules.cols) == board:
        shown_id, shown_line = shown
        if game.record.id == shown_id and encode_moves(game.state.history) == shown_line:
            return _replay(game, taps)
        try:
            state = decode_moves(shown_line, rules)
        except RecordError:  # not a position of this board: as a tap on another board
            return _refused(taps, 0, "notice.early.board")
        app.load_state(state, game.seats, "new")  # changed since it was drawn: a copy
        result = _replay(app.game, taps)
        return EarlyResult(result.played, result.notice or message("notice.forked"))
    if app.embed and (game.line or game.variations) and (rules.rows, rules.cols) == board:
        app.new_game()  # the frame showed an empty board: a new game of its settings and names
    return play_early(app.game, board, taps)
