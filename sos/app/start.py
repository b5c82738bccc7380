"""The first screen's start choice: how to play a game that has no move yet — against the
computer, with a friend on this device, or with a friend by link. Pure: no DOM.

The choice is a compact row above the board, never over it (the board is playable at once,
as on any start): it is offered while the game shown has no move -- or only its first move,
made by a person, with no reply yet and a person to move (:func:`opening`: a square tapped
before the engine was ready, static/boot.js, is such a move) -- outside an embed and outside a
game by link. A seat that has moved is never changed by it: once a computer has moved (it
opened the game) the row is gone, and after a person's first move the choice changes only the
seats that have not moved (the page's URL follows the game's new seats). Choosing
*the computer* or *a friend here* starts the same board and mode at once with other seats
(:func:`settings_for`); after a first move, the game in play keeps that move and takes the new
seats (:func:`apply`), so the computer answers it. *A friend by link* opens Settings with "Play
a friend on another device" ticked (a game by link needs this device's seat and name).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final, Literal

from .saving.library import GameRecord
from .share.params import Settings, seat_for, seat_kinds_for
from .share.remote import is_remote
from .tab import TabCore

Choice = Literal["computer", "here", "link"]

#: The choices, in the order shown.
CHOICES: Final[tuple[Choice, ...]] = ("computer", "here", "link")

#: The level of the computer seats that "the computer" starts: a fair first opponent (Settings
#: offers the others). On a board the level is not offered on, the nearest offered one plays
#: (:func:`sos.app.share.params.seat_for`).
COMPUTER_LEVEL: Final = "medium"


def opening(record: GameRecord) -> bool:
    """Whether ``record`` holds the game's first move alone, made by a person: one move, shown
    (not undone), no other line, the first seat a person (who made it) and a person to move
    next (no reply yet). A first move never scores, so this is the same as "only the first
    player, a person, has moved": a choice then changes only seats that have not moved, and
    the move stays that person's. A first move made by a computer (``seats=easy,human``, a
    rematch where the computer opens) is history the choice must not rewrite: not an opening.
    static/boot.js reads the same rule from the saved record (``startOffered``), so the choice
    is drawn from the first paint."""
    if len(record.line) != 1 or record.cursor != 1 or record.variations:
        return False
    return record.seats[:1] == ("human",) and (len(record.seats) < 2 or record.seats[1] == "human")


def offered(record: GameRecord, embed: bool) -> bool:
    """Whether the start choice is shown for the game ``record``: it has no move (its line is
    empty) or only its first one (:func:`opening`), it is not a game by link, and the page is
    not an embed (no chrome there)."""
    return not embed and not is_remote(record) and (not record.line or opening(record))


def chosen(seats: tuple[str, ...]) -> Choice:
    """The choice that the ``seats`` of the game shown stand for: ``computer`` when any seat is
    a computer, else ``here``."""
    return "computer" if any(kind != "human" for kind in seats) else "here"


def settings_for(settings: Settings, choice: Choice) -> Settings:
    """The settings of the game that ``choice`` starts from ``settings`` (the game shown):
    the same board, mode and number of players; seat 1 is a person, every other seat the
    computer (``computer``) or a person (``here``).

    Raises:
        ValueError: for ``link`` (it starts nothing by itself: Settings asks for the seat).
    """
    if choice == "link":
        raise ValueError("a game by link is started from Settings")
    players = settings.players
    if choice == "computer":
        level = seat_for(COMPUTER_LEVEL, settings.size)
        seats = ("human", *(level,) * (players - 1))
    else:
        seats = ("human",) * players
    return replace(settings, seats=seats, game=None)


def start_for(settings: Settings, choice: str) -> Settings | None:
    """What a tap on ``choice`` (the button's name) starts from ``settings`` (the game shown):
    the settings of a new game for ``computer`` or ``here``; None when the game shown already is
    that choice (a computer's level chosen in Settings is kept), for ``link`` (Settings asks for
    the seat) and for an unknown name."""
    if choice == chosen(tuple(settings.seats)):
        return None
    if choice == "computer":
        return settings_for(settings, "computer")
    if choice == "here":
        return settings_for(settings, "here")
    return None


def apply(app: TabCore, wanted: Settings) -> str:
    """Play the choice that :func:`start_for` or :func:`with_level` made (``wanted``) on the
    game ``app`` shows: with no move, a new game of ``wanted`` (``"new"``); with the first move
    alone (:func:`opening`), the game in play keeps its move and takes ``wanted``'s seats
    (``"seats"``: same id, so a reload shows it; the caller saves it and lets a computer seat
    answer).

    Raises:
        ValueError: when the start choice is not offered for the game shown, or ``wanted`` is
            another board or number of players (the game in play would not fit it).
    """
    record = app.game.to_record()
    if not offered(record, app.embed):
        raise ValueError("the start choice is offered only before the game's first reply")
    if not record.line:
        app.new_game(wanted)
        return "new"
    current = app.settings()
    if (wanted.size, wanted.mode, wanted.players) != (current.size, current.mode, current.players):
        raise ValueError("a first move is kept only on the same board, mode and players")
    if tuple(wanted.seats[:1]) != record.seats[:1]:
        raise ValueError("the seat that made the first move keeps it")
    app.set_seats(tuple(wanted.seats))
    return "seats"


#: What :func:`level_of` says of computer seats at different levels (``seats=human,easy,hard``
#: from a link or Settings): the level menu shows "Mixed" until a level is chosen.
MIXED: Final = "mixed"


def level_of(seats: tuple[str, ...]) -> str | None:
    """The level of the computer seats of the game shown: the one they share, :data:`MIXED`
    when they differ, None without a computer seat."""
    levels = {kind for kind in seats if kind != "human"}
    if not levels:
        return None
    return levels.pop() if len(levels) == 1 else MIXED


def with_level(settings: Settings, level: str) -> Settings | None:
    """The level chosen beside "the computer": the same game with every computer seat at
    ``level`` (from :data:`MIXED` too); None when there is nothing to change (no computer seat,
    every computer seat at that level already, or a level not offered on the board)."""
    seats = tuple(settings.seats)
    if level == "human" or level not in seat_kinds_for(settings.size) or level_of(seats) in (
        None, level
    ):
        return None
    return replace(settings, seats=tuple(k if k == "human" else level for k in seats), game=None)


__all__ = [
    "CHOICES", "COMPUTER_LEVEL", "MIXED", "Choice", "apply", "chosen", "level_of", "offered",
    "opening",
    "settings_for", "start_for", "with_level",
]
