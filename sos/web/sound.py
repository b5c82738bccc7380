"""The optional sounds: the Settings checkbox ``[data-testid=settings-sound]`` (applies at once,
kept in the preferences) and the cues of :mod:`sos.app.game.sound`, synthesised with the Web Audio
API (an oscillator and a gain envelope per note: no audio file is ever loaded). Off by default;
which cue a move makes is :func:`sos.app.game.sound.cue`'s decision.

The audio context is created on the first cue, which always follows a click or a key (the
player's move, or the computer's reply to it), so browsers that require a gesture allow it. A
browser without Web Audio, or one that refuses it, stays silent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyscript import window

from sos.app.game.sound import CUES, cue
from sos.web.dom import by_id

if TYPE_CHECKING:
    from sos.app.app import AppSession
    from sos.web.page import Page

_context: Any = None


def listen(page: Page) -> None:
    """Show the preference in Settings and apply a change of it at once."""
    box = by_id("settings-sound")
    box.checked = page.app.prefs.sound
    page.on(box, "change", lambda e: page.app.set_sound(bool(e.target.checked)))


def after_move(app: AppSession) -> None:
    """The cue of the move just shown, if sounds are on."""
    if not app.prefs.sound:
        return
    name = cue(app.game)
    if name is not None:
        play(name)


def play(name: str) -> None:
    """Synthesise the cue ``name`` of :data:`sos.app.game.sound.CUES` now."""
    global _context
    try:
        if _context is None:
            make = getattr(window, "AudioContext", None) or getattr(
                window, "webkitAudioContext", None
            )
            if make is None:
                return
            _context = make.new()
        if str(_context.state) == "suspended":
            _context.resume()
        now = float(_context.currentTime)
        for note in CUES[name]:
            start, end = now + note.start, now + note.start + note.duration
            oscillator = _context.createOscillator()
            oscillator.type = "sine"
            oscillator.frequency.value = note.frequency
            gain = _context.createGain()
            gain.gain.setValueAtTime(0.0001, start)
            gain.gain.linearRampToValueAtTime(note.gain, start + 0.005)
            gain.gain.exponentialRampToValueAtTime(0.0001, end)
            oscillator.connect(gain)
            gain.connect(_context.destination)
            oscillator.start(start)
            oscillator.stop(end + 0.02)
    except Exception:  # no audio device, or audio refused: play on in silence
        return
