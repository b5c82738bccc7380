"""The optional sounds (off by default; Settings → Sounds): which sound a move makes, and each
sound as notes for the browser's Web Audio API to synthesise (:mod:`sos.web.sound`). Pure: no
DOM, no audio. No sound file exists: every sound is a few short sine tones.

Cues (:func:`cue`) after a move is shown: ``"end"`` when it ended the game, ``"sos"`` when it
completed at least one SOS, ``"move"`` otherwise; nothing after undo, redo, a jump in the move
list or another game being opened (only moves make sounds).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .session import GameSession


class Note(NamedTuple):
    """One tone: ``start`` and ``duration`` in seconds from the cue's start, ``frequency`` in
    hertz, ``gain`` the peak volume (0–1; the tone rises in 5 ms and fades out)."""

    start: float
    duration: float
    frequency: float
    gain: float


#: The notes of each cue: a soft tick for a letter, a rising pair for an SOS, a major arpeggio
#: (C5 E5 G5 C6) at the end of a game. Quiet (peak gain ≤ 0.2) and under a second.
CUES: Final[dict[str, tuple[Note, ...]]] = {
    "move": (Note(0.0, 0.06, 440.0, 0.08),),
    "sos": (Note(0.0, 0.09, 659.25, 0.15), Note(0.08, 0.16, 987.77, 0.15)),
    "end": (
        Note(0.0, 0.14, 523.25, 0.18),
        Note(0.12, 0.14, 659.25, 0.18),
        Note(0.24, 0.14, 783.99, 0.18),
        Note(0.36, 0.4, 1046.5, 0.2),
    ),
}


def cue(game: GameSession) -> str | None:
    """The cue for the move that led to the position ``game`` shows (``None`` at the start of
    the game, before any move)."""
    records = game.state.records
    if not records:
        return None
    if game.outcome is not None:
        return "end"
    return "sos" if records[-1].lines else "move"


__all__ = ["CUES", "Note", "cue"]
