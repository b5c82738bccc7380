"""One game as the app plays it: its seats, the line of play with a cursor, undo/redo that
skips computer turns, and moves from an earlier position that keep the old continuation.

Pure: no DOM, no storage, no clock. :class:`GameSession` wraps a :class:`GameRecord` (what is
saved) and the engine's :class:`GameState` at the cursor (what is shown).
"""

from __future__ import annotations

from dataclasses import replace

from ...board import Line as SosLine
from ...notation import Action
from ...rules import Rules
from ...state import GameState, IllegalActionError
from ..saving.library import GameRecord, PlayLine, merge_lines
from . import outcome as outcomes
from .counted import stamp
from .outcome import GameOutcome


class GameSession:
    """The line of play of one game and the position at its cursor.

    - :meth:`play` writes an action for the player to move (rule: any empty square, S or O;
      the engine decides the extra turn). Played from an earlier position, a different action
      starts a new line and keeps the old one as a variation; the same action as the line's
      next one just moves along it.
    - :meth:`undo` / :meth:`redo` step along the line; with a computer seat they go on to a
      human's turn, so undo takes back the computer's answer together with your move.
    - :meth:`go_to` shows any position of the line (the move list); while it shows an earlier
      one, :attr:`paused` keeps the computer from playing over the later moves.

    Every action sequence ever applied stays a prefix of :attr:`line` or of a variation
    (tested as a property in ``tests/app/test_app.py``).
    """

    def __init__(self, record: GameRecord) -> None:
        self._kept = record
        self.state: GameState = record.state()
        self.line: list[Action] = list(record.line)
        self.variations: list[PlayLine] = list(record.variations)
        # A game saved while an earlier position was shown (the move list) comes back that
        # way: a computer to move there must not play over the later moves on reopening.
        self.paused = False
        self.paused = self.cursor < len(self.line) and not GameSession.human_to_move(self)
        #: Bumped by every change: a computer move planned for an older version is dropped.
        self.version = 0

    @property
    def record(self) -> GameRecord:
        """The game as it stands: its line of play, cursor and variations are this session's
        (never an older line), its other fields (id, seats, write token, revision, ``extra``)
        those of the record last set. Setting it keeps only those other fields: the line of
        play changes through :meth:`play`, :meth:`undo`, :meth:`go_to` and the like."""
        return replace(
            self._kept,
            line=tuple(self.line),
            cursor=self.cursor,
            variations=tuple(self.variations),
        )

    @record.setter
    def record(self, record: GameRecord) -> None:
        self._kept = record

    @property
    def last_stored(self) -> GameRecord:
        """The record as this session was opened with it or last given it (after a save: what
        the library held then) -- its line may be older than :attr:`record`'s. For asking
        what was stored (e.g. a game stored without a move), never what the game is now."""
        return self._kept

    # ------------------------------------------------------------------ queries
    @property
    def rules(self) -> Rules:
        """The game's :class:`~sos.rules.Rules`."""
        return self.state.rules

    @property
    def seats(self) -> tuple[str, ...]:
        """One kind per player: ``human`` or a computer level."""
        return self._kept.seats

    @property
    def cursor(self) -> int:
        """How many actions of :attr:`line` are applied to :attr:`state`."""
        return len(self.state.history)

    @property
    def outcome(self) -> GameOutcome | None:
        """How the game ended at the position shown (winner or draw, and why), or ``None``
        while it goes on there: the one answer to "is this game over" that the view, the
        games list, the embed's events and the record read
        (:func:`sos.app.game.outcome.outcome_of`).
        """
        return outcomes.outcome_of(self.state, self.record)

    def seat_kind(self, seat: int) -> str:
        """``human`` or the computer level of ``seat`` (0-based)."""
        return self.seats[seat] if 0 <= seat < len(self.seats) else "human"

    def has_computer(self) -> bool:
        """True when any seat is a computer."""
        return any(kind != "human" for kind in self.seats)

    def human_to_move(self) -> bool:
        """True when a person may write a letter now (not over, a human seat to move)."""
        return self.outcome is None and self.seat_kind(self.state.current_player()) == "human"

    def computer_to_move(self) -> int | None:
        """The computer seat that should move now, or None (a human's turn, the game over, or
        an earlier position shown from the move list)."""
        if self.paused or self.outcome is not None:
            return None
        seat = self.state.current_player()
        return seat if self.seat_kind(seat) != "human" else None

    def can_undo(self) -> bool:
        """True when Undo may take a move back (:meth:`undo_target`)."""
        return self.undo_target() is not None

    def undo_floor(self) -> int:
        """The position (a number of actions) no Undo goes before: the empty board here; a
        game by link keeps what was sent or received
        (:class:`sos.app.share.remote.RemoteSession`)."""
        return 0

    def may_take_back(self, seat: int) -> bool:
        """True when Undo may take back a move of ``seat``: any seat here; a game by link,
        only this device's."""
        return True

    def undo_target(self) -> int | None:
        """The one undo rule, asked by every session kind: the position (a number of actions)
        Undo goes back to, or None when it may take nothing back. It takes back the last move
        shown when that is above :meth:`undo_floor` and its seat's (:meth:`may_take_back`);
        with a computer seat it goes on back to a human's turn (not below the floor), so undo
        takes back the computer's answer together with your move."""
        floor, records = self.undo_floor(), self.state.records
        if self.cursor <= floor or not self.may_take_back(records[-1].player):
            return None
        target = self.cursor - 1
        if self.has_computer():
            # the seat to move at position ``target`` made the action ``records[target]``
            while target > floor and self.seat_kind(records[target].player) != "human":
                target -= 1
        return target

    def can_redo(self) -> bool:
        """True when an undone move can be replayed."""
        return self.cursor < len(self.line)

    def to_record(self) -> GameRecord:
        """The record to save: :attr:`record`, and once the line has ended a game against the
        computer, the result it ended with (:func:`sos.app.game.counted.stamp`: kept from then on,
        whatever undo or review does)."""
        return stamp(self.record)

    # ------------------------------------------------------------------ changes
    def _changed(self) -> None:
        self.version += 1

    def play(self, action: Action) -> tuple[SosLine, ...]:
        """Write ``action`` for the player to move; returns the SOS lines it completed.

        Raises:
            IllegalActionError: for an occupied or off-board square, a bad letter or a finished
                game, on the board or not (:attr:`outcome`; the session is unchanged).
        """
        if not self.state.is_legal(action):
            self.state.apply(action)  # raises the engine's specific IllegalActionError
            raise IllegalActionError(f"illegal action {action}")  # pragma: no cover
        if self.outcome is not None:
            raise IllegalActionError(f"the game is over ({self.outcome.termination})")
        cursor = self.cursor
        if cursor < len(self.line) and self.line[cursor] != action:
            old = tuple(self.line)
            branch = next(
                (
                    v
                    for v in self.variations
                    if len(v) > cursor and v[:cursor] == old[:cursor] and v[cursor] == action
                ),
                None,
            )
            if branch is not None:
                self.variations.remove(branch)
                self.line = list(branch)
            else:
                self.line = [*old[:cursor], action]
            self.variations = list(merge_lines([old, *self.variations]))
        elif cursor == len(self.line):
            self.line.append(action)
        lines = self.state.apply(action)
        self._drop_covered()
        self.paused = False
        self._changed()
        return lines

    def _drop_covered(self) -> None:
        line = tuple(self.line)
        self.variations = [v for v in merge_lines([line, *self.variations]) if v != line]

    def undo(self) -> bool:
        """Take back moves to :meth:`undo_target` (one, or with a computer seat back to a
        human's turn). False when there is nothing Undo may take back."""
        target = self.undo_target()
        if target is None:
            return False
        while self.cursor > target:
            self.state.undo()
        self.paused = False
        self._changed()
        return True

    def redo(self) -> bool:
        """Replay one undone action; with a computer seat, on to a human's turn. False when
        there is nothing to redo."""
        if self.cursor >= len(self.line):
            return False
        self.state.apply(self.line[self.cursor])
        if self.has_computer():
            while (
                self.cursor < len(self.line)
                and self.outcome is None
                and self.seat_kind(self.state.current_player()) != "human"
            ):
                self.state.apply(self.line[self.cursor])
        self.paused = False
        self._changed()
        return True

    def go_to(self, ply: int) -> bool:
        """Show the position after ``ply`` actions of the line. False when ``ply`` is out of
        range or already shown."""
        if not 0 <= ply <= len(self.line) or ply == self.cursor:
            return False
        while self.cursor > ply:
            self.state.undo()
        while self.cursor < ply:
            self.state.apply(self.line[self.cursor])
        self.paused = self.cursor < len(self.line)
        self._changed()
        return True

    def switch_line(self, index: int) -> bool:
        """Make variation ``index`` the line of play (the current line becomes a variation)
        and show its last position. False for an unknown index."""
        if not 0 <= index < len(self.variations):
            return False
        chosen = self.variations.pop(index)
        self.variations = list(merge_lines([tuple(self.line), *self.variations]))
        self.line = list(chosen)
        self.state = replace(self.record, line=chosen, cursor=len(chosen)).state()
        self.paused = False
        self._changed()
        return True

    def end(self, termination: str) -> None:
        """End the game at the position shown in a way not read off the board (an ending of
        :data:`sos.app.game.outcome.ENDINGS` kept in the game's data; one made by a player is made
        by the player to move); the ending's rule says who wins, and :attr:`outcome` says so
        from then on at this position.

        Raises:
            IllegalActionError: when the game is over here already, or an earlier position
                is shown (the later moves would come after the end).
            ValueError: (:class:`sos.app.game.outcome.EndingError`) for a name that is not an
                ending kept in the game's data.
        """
        if self.outcome is not None or self.cursor < len(self.line):
            raise IllegalActionError("the game is over, or an earlier position is shown")
        self._kept = outcomes.with_ending(self.record, self.state, termination)
        self.paused = False
        self._changed()

    def interrupt(self) -> None:
        """Invalidate a computer move or hint being computed for the current version."""
        self._changed()
