"""Which games count in your record against the computer, and with which result: the result a
game ended with, kept in the game once it ends, so that a later undo, redo, review or variation
never takes it out of the record or changes it. Pure: no DOM, no clock.

A game counts (our choice, where the issue is silent) when it has exactly one human seat and at
least one computer, and is not a game by link -- that human is "you". Its level is the strongest
computer level at the table (easy < medium < hard < perfect). You win when the game's outcome
(:func:`sos.app.game.outcome.outcome_of`, whichever way it ended) names you the winner, draw when
it is a draw you share, lose otherwise -- and always lose an ending you made (a resignation:
:meth:`GameOutcome.result_for <sos.app.game.outcome.GameOutcome.result_for>`).

When it counts: the first time the game is saved with its line of play ended
(:func:`stamp`), its result goes into ``GameRecord.extra["result"]``::

    {"v": 1, "result": "win" | "draw" | "loss", "moves": <actions of the line that ended>}

and from then on the record reads that entry only (:func:`counted_result`): undoing moves,
showing an earlier position, redoing, or a takeback that starts a new line and ends
differently never rewrites it (the game stays one entry of the record, with its first result).

A game saved before this entry existed (or by a build that did not write it) has none: it counts
with the result at the end of its line of play (all its moves, including those undone; not
the position shown), and gets the entry at its next save.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ...ai import LEVELS
from ..saving.library import RESULT_KEY, GameRecord
from . import outcome as outcomes

#: Version of the entry under :data:`RESULT_KEY`.
RESULT_VERSION: Final = 1
#: The results, as stored.
RESULTS: Final = ("win", "draw", "loss")
#: sos.app.share.remote.ORIGIN (that module imports this one's users)
_ORIGIN_REMOTE: Final = "remote"


def counts(record: GameRecord) -> tuple[int, str] | None:
    """(your seat, the level) of a game that counts in the record, else None (module
    docstring): one human seat, at least one computer, not a game by link."""
    humans = [seat for seat, kind in enumerate(record.seats) if kind == "human"]
    levels = [kind for kind in record.seats if kind in LEVELS]
    if len(humans) != 1 or not levels or record.origin == _ORIGIN_REMOTE:
        return None
    return humans[0], max(levels, key=LEVELS.index)


def line_result(record: GameRecord) -> str | None:
    """``win`` / ``draw`` / ``loss`` of the human seat at the end of the record's line of play
    (every move, the undone ones included; its outcome by :func:`sos.app.game.outcome.line_outcome`,
    on the board or kept in the game's data), or None when the line has not ended the game or
    the game does not count."""
    seat = counts(record)
    if seat is None:
        return None
    outcome = outcomes.line_outcome(record)[1]
    return None if outcome is None else outcome.result_for(seat[0])


def stored_result(record: GameRecord) -> str | None:
    """The result kept in ``record.extra`` (:data:`RESULT_KEY`), or None when there is none or
    it cannot be read by this version."""
    entry = record.extra.get(RESULT_KEY)
    if not isinstance(entry, dict) or entry.get("v") != RESULT_VERSION:
        return None
    result = entry.get("result")
    return result if isinstance(result, str) and result in RESULTS else None


def counted_result(record: GameRecord) -> tuple[str, int, str] | None:
    """(level, board size, ``win`` | ``draw`` | ``loss``) of a game that counts, else None:
    the result kept when it ended, or for a game without one the end of its line."""
    seat = counts(record)
    if seat is None:
        return None
    result = stored_result(record) or line_result(record)
    return None if result is None else (seat[1], record.rules.rows, result)


def stamp(record: GameRecord) -> GameRecord:
    """``record`` with its result kept (:data:`RESULT_KEY`) when its line has ended and no
    result is kept yet; else ``record`` itself (a kept result is never changed, and an entry
    of another version is left as it is)."""
    if RESULT_KEY in record.extra:
        return record
    result = line_result(record)
    if result is None:
        return record
    entry = {"v": RESULT_VERSION, "result": result, "moves": len(record.line)}
    return replace(record, extra={**record.extra, RESULT_KEY: entry})


__all__ = [
    "RESULTS", "RESULT_KEY", "RESULT_VERSION", "counted_result", "counts", "line_result",
    "stamp", "stored_result",
]
