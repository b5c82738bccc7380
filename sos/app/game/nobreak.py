"""The short units of a shown text that must not break across lines: a score ("21–0",
"9–4–2": a line may otherwise end after an en dash), a board's size ("4 × 4": in the Arabic
settings its three parts fell on two lines) and a seat's name with its number
("Computer 2", "Player 1"). :func:`sos.web.nobreak.set_text` puts each in a ``span.nb``
(``white-space: nowrap``); the rest of the text wraps as usual, and a long name that is not such
a unit (up to :data:`sos.app.share.players.MAX_NAME` characters, maybe without a space) still breaks
anywhere (``overflow-wrap: anywhere``) rather than widen the page (issue 43).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from sos.rules import MAX_PLAYERS

from .view import player_name

#: A score as the result texts write it (:func:`sos.app.game.view.result_text`): numbers joined by
#: en dashes.
SCORE = r"\d+(?:–\d+)+"
#: A board's size as the texts write it ("4 × 4", :data:`sos.app.share.params` and the
#: games list): numbers joined by a spaced multiplication sign.
SIZE = r"\d+ × \d+"
#: A unit longer than this is not kept whole (it could be wider than a phone's line).
LONGEST = 24


@lru_cache(maxsize=16)
def _pattern(units: tuple[str, ...]) -> re.Pattern[str]:
    names = sorted({u for u in units if u.strip() and len(u) <= LONGEST}, key=len, reverse=True)
    # a name is a unit only as a whole word ("Player 1", not the start of "Player 12")
    alternatives = [rf"(?<!\w){re.escape(name)}(?!\w)" for name in names]
    return re.compile("|".join([*alternatives, SCORE, SIZE]))


def segments(content: str, units: Iterable[str] = ()) -> list[tuple[str, bool]]:
    """``content`` cut into runs, each with whether it is kept whole: every score and every one
    of ``units`` (names of at most :data:`LONGEST` characters) is a run of its own, marked
    ``True``, as is every score and board size. Joined, the runs are ``content``."""
    out: list[tuple[str, bool]] = []
    at = 0
    for match in _pattern(tuple(units)).finditer(content):
        if match.start() > at:
            out.append((content[at : match.start()], False))
        out.append((match.group(), True))
        at = match.end()
    if at < len(content) or not out:
        out.append((content[at:], False))
    return out


def runs(
    content: str, units: Iterable[str] = (), names: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """``content`` cut into runs, each with its kind: ``"name"`` for each of ``names`` (the names
    given to the seats) longer than :data:`LONGEST` characters -- the page shows such a name on
    at most two lines, cut with an ellipsis, so that it cannot push the letters off a desktop's
    screen (:mod:`sos.web.nobreak`) --, ``"size"`` for a board's size (kept whole and laid out
    left to right on its own: in a right-to-left text its numbers and sign were three runs),
    ``"nb"`` for another unit kept whole (:func:`segments`), ``""`` for the rest. Joined, the
    runs are ``content``."""
    long = sorted({n for n in names if len(n) > LONGEST}, key=len, reverse=True)
    if not long:
        return [(run, _kind(run) if whole else "") for run, whole in segments(content, units)]
    out: list[tuple[str, str]] = []
    at = 0
    for match in re.finditer("|".join(re.escape(name) for name in long), content):
        if match.start() > at:
            out += runs(content[at : match.start()], units)
        out.append((match.group(), "name"))
        at = match.end()
    if at < len(content) or not out:
        out += runs(content[at:], units)
    return out


def _kind(unit: str) -> str:
    return "size" if re.fullmatch(SIZE, unit) else "nb"


def seat_names(lang: str) -> tuple[str, ...]:
    """Every seat's name without a given one, in ``lang``: "Player 1" ... "Computer 4" (the
    units the status line and the result keep on one line)."""
    return tuple(
        player_name(lang, seat, kind) for seat in range(MAX_PLAYERS) for kind in ("human", "easy")
    )
