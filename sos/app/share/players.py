"""Players by name, and the rematch. Pure: no DOM, no storage, no clock.

A game's names live in ``GameRecord.extra["names"]``: a list of one string per seat, ``""``
where no name was given — the same key and shape a game by link keeps
(:class:`sos.app.share.remote.RemoteInfo`), so a local game and a remote one read their names alike.
A game without names has no such key (older saves read as "no names").

Shown names (:func:`shown_names`): the name given, else the default — "Player 1" for a person,
"Computer 2" for a computer (the score card adds the level; records and lists say
"Computer 2 · hard", :func:`seat_label`).

Rematch (:func:`rematch`): a new game with the same board, mode and players, every seat's kind
and name moved one seat on (seat 0's player becomes seat 1, the last becomes seat 0), so who
moves first rotates; no moves, a new id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from ..game.view import player_name
from ..saving.library import GameRecord
from ..text.i18n import text
from ..text.message import Message, message
from .remote import MAX_NAME, NAME_FIELD_MAX, clean_name, info, is_remote, with_info

NAMES_KEY: Final = "names"


def names_of(record: GameRecord) -> tuple[str, ...]:
    """One name per seat of ``record`` (``""`` where none was given); damaged values read as
    no name, so a game always opens."""
    raw = record.extra.get(NAMES_KEY)
    players = record.rules.players
    kept = [clean_name(n) if isinstance(n, str) else "" for n in raw] if isinstance(
        raw, list
    ) else []
    return tuple((kept + [""] * players)[:players])


def clean_names(names: Sequence[str], players: int) -> tuple[str, ...]:
    """``names`` cleaned (:func:`sos.app.share.remote.clean_name`: printable, spaces collapsed, at
    most :data:`sos.app.share.remote.MAX_NAME` characters) and fitted to ``players`` seats."""
    kept = [clean_name(n) for n in names][:players]
    return tuple(kept + [""] * (players - len(kept)))


def with_names(record: GameRecord, names: Sequence[str]) -> GameRecord:
    """``record`` with ``names`` (cleaned); a game with no name at all keeps no ``names`` key
    (so an unnamed game without moves is still "empty" and pruned)."""
    kept = clean_names(names, record.rules.players)
    extra = {k: v for k, v in record.extra.items() if k != NAMES_KEY}
    if any(kept) or is_remote(record):
        extra[NAMES_KEY] = list(kept)
    return replace(record, extra=extra)


def shown_names(
    lang: str, seats: Sequence[str], names: Sequence[str] | None = None
) -> tuple[str, ...]:
    """The name shown for each seat: the given name, else "Player 1" / "Computer 2"."""
    given = list(names or ())
    return tuple(
        (given[seat] if seat < len(given) and given[seat] else player_name(lang, seat, kind))
        for seat, kind in enumerate(seats)
    )


def seat_label(lang: str, seat: int, kind: str, name: str = "") -> str:
    """A seat as a record or list names it: "Alice", "Player 1", "Computer 2 · hard"
    (a named computer: "Deep Blue · hard")."""
    shown = name or player_name(lang, seat, kind)
    if kind == "human":
        return shown
    return text(lang, "player.with_level", name=shown, level=text(lang, f"level.{kind}"))


def opponents_text(lang: str, record: GameRecord) -> str:
    """The players of ``record`` as "Your games" names them: "Alice vs Computer 2 · hard"
    ("Player 1 vs Player 2" without names)."""
    names = names_of(record)
    labels = [
        seat_label(lang, seat, kind, names[seat]) for seat, kind in enumerate(record.seats)
    ]
    return text(lang, "players.versus").join(labels)


def rotate(values: Sequence[str]) -> tuple[str, ...]:
    """Every value moved one seat on: ``(a, b, c)`` → ``(c, a, b)``."""
    items = tuple(values)
    return items[-1:] + items[:-1] if items else items


def rematch(record: GameRecord) -> GameRecord:
    """A new game (no id, no moves) with the settings and names of ``record``, seats rotated.

    A game by link stays a game by link: this device's seat moves on with its player, the
    names too; the new link is sent as for any game by link.
    """
    names = rotate(names_of(record) if not is_remote(record) else info(record).names)
    fresh = GameRecord("", record.rules, rotate(record.seats), origin=record.origin)
    if is_remote(record):
        remote = info(record)
        seat = (remote.seat + 1) % record.rules.players
        return with_info(fresh, replace(remote, seat=seat, names=names, base=0))
    return with_names(fresh, names)


def rematch_notice(record: GameRecord) -> Message | None:
    """What a rematch tells its one person against the computer: the seat they now play, its
    colour and its mark ("Rematch: you are now Player 2, in red (struck through); Computer 1
    moves first."). ``None`` for a game of several people (or of none) and a game by link
    (its seats are named in the link's notices)."""
    people = [seat for seat, kind in enumerate(record.seats) if kind == "human"]
    if len(people) != 1 or len(record.seats) < 2 or is_remote(record):
        return None
    seat = people[0]
    names = names_of(record)

    def name_of(index: int) -> Message | str:
        if names[index]:
            return names[index]
        key = "player.name" if record.seats[index] == "human" else "player.computer"
        return message(key, n=index + 1)

    return message(
        "notice.rematch_seat", name=name_of(seat), colour=message(f"player.colour.{seat}"),
        mark=message(f"player.style.{seat}"), first=name_of(0),
    )


__all__ = [
    "MAX_NAME", "NAMES_KEY", "NAME_FIELD_MAX", "clean_names", "names_of", "opponents_text",
    "rematch", "rematch_notice", "rotate",
    "seat_label", "shown_names", "with_names",
]
