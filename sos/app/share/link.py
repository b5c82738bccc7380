"""The link format of games by link (the one description of it): what a link carries,
:func:`encode_link` and :func:`decode_link`, and every kind of damage as a :class:`LinkError`.
What a device does with a link is :mod:`sos.app.share.remote`'s.

The link is ``<page>?r=<code>``. The code is URL-safe base64 text (``A-Z a-z 0-9 - _``, six
bits per character, no padding), version :data:`LINK_VERSION`::

    char 0       the format version (alphabet index: ``B`` = 1)
    chars 1-4    check code: the low 24 bits of CRC-32 (ISO-HDLC, ``binascii.crc32``) of the
                 version character followed by the body characters
    body, a bit string (most significant bit first), zero-padded to whole characters:
      4 bits     board size - 3 (sizes 3..18 fit)            SIZE_BITS, SIZE_BASE
      1 bit      mode: 0 general, 1 simple
      2 bits     players - 2 (2..5 fit)                      PLAYERS_BITS, PLAYERS_BASE
      2 bits     the sender's seat (0-based, 0..3 fit)       SEAT_BITS
      5 bits     game id length - 1; then 6 bits per id character (letters and digits)
      per seat   7 bits name length in UTF-8 bytes (0 = no name), then 8 bits per byte
      8 bits     number of moves (0..255 fit)                MOVES_BITS
      per move   ceil(log2(size*size)) bits square (row * size + col), 1 bit letter (0 S, 1 O)

Version :data:`ENDING_VERSION` (2) is version 1 with, after the moves, the ending of a game
that ended in a way kept in the game's data (:data:`sos.app.game.outcome.ENDINGS`, e.g. a
resignation; it holds at the link's last move)::

      5 bits     the ending's name length - 1; then 6 bits per character (ALPHABET)
      3 bits     the winner's seat + 1 (0: a draw)

Only such a link is written as version 2: every other link stays version 1, which every build
reads. The ending is checked by the one validity rule of kept endings
(:func:`sos.app.game.outcome.kept_outcome`) when the link is written and when it is read: a build
that does not know the ending's name, or finds that the ending does not hold there (say, a
winner its rule does not name), refuses the link as one of a newer version, or damaged.

These widths and bases are the format's, not the app's limits: a link keeps its meaning when
:data:`sos.rules.MIN_APP_SIZE` .. :data:`~sos.rules.MAX_APP_SIZE` or the player limits change
within them. ``tests/app/test_remote.py`` fails if a limit outgrows its field (then the format
needs a new version). A link for a board the app does not offer (:func:`sos.rules.app_allows`)
is neither made nor read.

A full 12 x 12 game (144 moves, a 10-character id, two 8-letter names) is 259 characters of
code; :func:`encode_link` is tested to stay under 300 for any game with such names on the
largest board the app offers.

The check code finds damage (a character changed, lost or added on the way through a
messenger); it is **not** a signature: anyone can make a valid link. Whoever has a link can read
the game and move for the seat whose turn it is. Every move of a link is replayed by the engine,
so a link cannot put an illegal position on the board.

Errors: :class:`LinkError` with a ``key`` under ``remote.reason.`` in :mod:`sos.app.text.i18n`.
"""

from __future__ import annotations

import binascii
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ...notation import Action, square_name
from ...rules import Mode, Rules, app_allows, app_rules
from ...state import IllegalActionError, new_game, replay
from ..game import outcome as outcomes
from ..saving.library import PlayLine
from ..text.message import Message

ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
LINK_VERSION: Final = 1
#: The version of a link that carries an ending kept in the game's data.
ENDING_VERSION: Final = 2
#: Longest player name kept, in characters (a longer name is cut at a word, with "…":
#: :func:`shorten`). A link carries at most :data:`LINK_NAME_BYTES` of it.
MAX_NAME: Final = 96
#: How many characters a name field takes (its ``maxlength``): more than :data:`MAX_NAME`,
#: so that a longer name pasted into it reaches :func:`clean_name` whole and is cut at its
#: last whole word, not by the browser at character 96 in the middle of one.
NAME_FIELD_MAX: Final = 2 * MAX_NAME
#: Longest name a link carries, in UTF-8 bytes (its 7-bit length field).
LINK_NAME_BYTES: Final = 127
#: Fields of format version 1 tied to the game's limits (see the module docstring): a board
#: size is stored as ``size - SIZE_BASE`` in ``SIZE_BITS`` bits, a player count as
#: ``players - PLAYERS_BASE`` in ``PLAYERS_BITS``, the sender's seat in ``SEAT_BITS`` and the
#: number of moves (at most the board's squares) in ``MOVES_BITS``.
SIZE_BASE: Final = 3
SIZE_BITS: Final = 4
PLAYERS_BASE: Final = 2
PLAYERS_BITS: Final = 2
SEAT_BITS: Final = 2
MOVES_BITS: Final = 8
_INDEX: Final = {ch: i for i, ch in enumerate(ALPHABET)}
_CHECK_CHARS: Final = 4


class LinkError(ValueError):
    """A game link that cannot be used. ``key``: what is wrong (``truncated``, ``checksum``,
    ``taken``, ``seat`` …, an i18n key under ``remote.reason.``); ``params`` fill its text."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(self.reason_in("en"))

    def reason_in(self, lang: str) -> str:
        """Why, in ``lang``."""
        return self.message.text(lang)

    @property
    def message(self) -> Message:
        """Why, translated when shown."""
        count = self.params.get("extra") if self.key == "too_long" else None  # a plural
        return Message(f"remote.reason.{self.key}", tuple(self.params.items()),
                       count if isinstance(count, int) else None)


@dataclass(frozen=True)
class RemoteLink:
    """What a link carries.

    Attributes:
        game_id: the library id of the game on every device (letters and digits, 1-32).
        rules: rules the app plays (:func:`sos.rules.app_allows`).
        line: every move from the empty board, in order (each legal).
        sender: the seat (0-based) of the device that made the link.
        names: one name per seat, ``""`` where none was given.
        ending: (name, winner seat or None for a draw) of an ending kept in the game's data
            at the end of ``line`` (:mod:`sos.app.game.outcome`), or None.
    """

    game_id: str
    rules: Rules
    line: PlayLine
    sender: int
    names: tuple[str, ...]
    ending: tuple[str, int | None] | None = None


def clean_name(name: str) -> str:
    """A player name as kept: control characters dropped, spaces collapsed, at most
    :data:`MAX_NAME` characters (cut at a word: :func:`shorten`)."""
    kept = "".join(ch for ch in str(name) if ch.isprintable())
    return shorten(" ".join(kept.split()), MAX_NAME)


def shorten(name: str, limit: int, size: Callable[[str], int] = len) -> str:
    """``name`` if its ``size`` (characters, or e.g. UTF-8 bytes) is at most ``limit``, else
    cut to fit with "…": after the last whole word when that keeps over half of what fits
    ("Maximilian-Alexander von …"), else between characters."""
    if size(name) <= limit:
        return name
    end = min(len(name), limit)  # (a character is at least 1 of ``size``)
    while end and size(name[:end] + "…") > limit:
        end -= 1
    cut = name[:end]
    space = cut.rfind(" ")
    if name[end : end + 1] != " " and space > end // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


# ---------------------------------------------------------------------------- bits


class _Bits:
    def __init__(self) -> None:
        self.value = 0
        self.size = 0

    def put(self, number: int, width: int) -> None:
        if not 0 <= number < 1 << width:  # a limit outgrew its field: never write a wrong link
            raise ValueError(f"{number} does not fit in {width} bits")
        self.value = (self.value << width) | number
        self.size += width

    def chars(self) -> str:
        pad = -self.size % 6
        value, size = self.value << pad, self.size + pad
        return "".join(ALPHABET[(value >> shift) & 63] for shift in range(size - 6, -1, -6))


class _Reader:
    def __init__(self, chars: str) -> None:
        self.value = 0
        for ch in chars:
            self.value = (self.value << 6) | _INDEX[ch]
        self.size = 6 * len(chars)
        self.pos = 0

    def take(self, width: int) -> int:
        if self.pos + width > self.size:
            raise LinkError("truncated")
        self.pos += width
        return (self.value >> (self.size - self.pos)) & ((1 << width) - 1)


def _cell_bits(size: int) -> int:
    return max(1, (size * size - 1).bit_length())


def _check(chars: str) -> str:
    crc = binascii.crc32(chars.encode("ascii")) & 0xFFFFFF
    return "".join(ALPHABET[(crc >> shift) & 63] for shift in (18, 12, 6, 0))


# ---------------------------------------------------------------------------- format


def write_code(
    size: int,
    mode: int,
    players: int,
    sender: int,
    game_id: str,
    names: Sequence[bytes],
    moves: Sequence[tuple[int, int]],
    version: int = LINK_VERSION,
    ending: tuple[str, int | None] | None = None,
) -> str:
    """The format's one writer: the code of these field values, laid out as the module
    docstring says (``mode``: 0 general, 1 simple; ``names``: one UTF-8 name per seat;
    ``moves``: (square ``row * size + col``, letter 0 S / 1 O) pairs; ``version``: the first
    character; ``ending``: the trailer of version 2, (name, winner seat or None)). Values are
    checked only for fitting their fields: :func:`encode_link` checks a link first; the tests
    write the links no app makes (every kind of damage) with it.

    Raises:
        ValueError: for a value that does not fit its field, or a game id character outside
            :data:`ALPHABET`.
    """
    bits = _Bits()
    bits.put(size - SIZE_BASE, SIZE_BITS)
    bits.put(mode, 1)
    bits.put(players - PLAYERS_BASE, PLAYERS_BITS)
    bits.put(sender, SEAT_BITS)
    bits.put(len(game_id) - 1, 5)
    for ch in game_id:
        if ch not in _INDEX:
            raise ValueError(f"{ch!r} is not a character of a link")
        bits.put(_INDEX[ch], 6)
    for raw in names:
        bits.put(len(raw), 7)
        for byte in raw:
            bits.put(byte, 8)
    width = _cell_bits(size)
    bits.put(len(moves), MOVES_BITS)
    for cell, letter in moves:
        bits.put(cell, width)
        bits.put(letter, 1)
    if ending is not None:
        name, winner = ending
        bits.put(len(name) - 1, 5)
        for ch in name:
            if ch not in _INDEX:
                raise ValueError(f"{ch!r} is not a character of a link")
            bits.put(_INDEX[ch], 6)
        bits.put(0 if winner is None else winner + 1, 3)
    body = bits.chars()
    head = ALPHABET[version]
    return head + _check(head + body) + body


def encode_link(link: RemoteLink) -> str:
    """The code of ``link`` (the value of the ``r`` URL parameter), by :func:`write_code`.

    Raises:
        ValueError: for a link no device could have made (a board the app does not offer, a
            bad id, a sender seat out of range, more moves than squares).
    """
    rules, size = link.rules, link.rules.rows
    if not app_allows(rules):
        raise ValueError(f"not an app board: {rules}")
    if not (link.game_id.isascii() and link.game_id.isalnum() and 1 <= len(link.game_id) <= 32):
        raise ValueError(f"bad game id {link.game_id!r}")
    if not 0 <= link.sender < rules.players or len(link.line) > rules.cells:
        raise ValueError("bad sender seat or too many moves")
    names = []
    for seat in range(rules.players):
        name = clean_name(link.names[seat]) if seat < len(link.names) else ""
        names.append(shorten(name, LINK_NAME_BYTES, lambda n: len(n.encode())).encode())
    moves = [(a.row * size + a.col, 1 if a.letter == "O" else 0) for a in link.line]
    mode = 1 if rules.mode == "simple" else 0
    if link.ending is not None:
        outcomes.kept_outcome(replay(rules, link.line), *link.ending)  # raises EndingError
        return write_code(size, mode, rules.players, link.sender, link.game_id, names, moves,
                          ENDING_VERSION, link.ending)
    return write_code(size, mode, rules.players, link.sender, link.game_id, names, moves)


def decode_link(code: str) -> RemoteLink:
    """Read and check a link's code; every move is replayed by the engine.

    Raises:
        LinkError: ``empty``, ``unreadable`` (a character outside the alphabet, e.g. a link
            mangled by a messenger), ``not_link`` (format 0, which no app made), ``version``
            (another format version, or an ending this build does not know: a newer app, or
            damage), ``truncated`` (shorter than its
            contents say: cut off, or a changed length character), ``too_long`` (a whole link
            followed by extra characters), ``checksum`` (changed or damaged),
            ``rules``, ``game_id``, ``sender``, ``names``, ``too_many`` (settings that no app
            makes), ``off_board``, ``taken``, ``over`` (an illegal move, with its number).
    """
    if not isinstance(code, str) or not code.strip():
        raise LinkError("empty")
    code = code.strip()
    bad = next((i for i, ch in enumerate(code) if ch not in _INDEX), None)
    if bad is not None:
        raise LinkError("unreadable", position=bad + 1)
    if _INDEX[code[0]] == 0:
        raise LinkError("not_link")  # no format 0 was ever made
    version = _INDEX[code[0]]
    if version not in (LINK_VERSION, ENDING_VERSION):
        raise LinkError("version", version=version)
    if len(code) <= 1 + _CHECK_CHARS:
        raise LinkError("truncated")
    check, body = code[1 : 1 + _CHECK_CHARS], code[1 + _CHECK_CHARS :]
    bits = _Reader(body)
    size = bits.take(SIZE_BITS) + SIZE_BASE
    mode: Mode = "simple" if bits.take(1) else "general"
    players = bits.take(PLAYERS_BITS) + PLAYERS_BASE
    sender = bits.take(SEAT_BITS)
    game_id = "".join(ALPHABET[bits.take(6)] for _ in range(bits.take(5) + 1))
    raw_names = [bytes(bits.take(8) for _ in range(bits.take(7))) for _ in range(players)]
    count = bits.take(MOVES_BITS)
    width = _cell_bits(size)
    moves = [(bits.take(width), bits.take(1)) for _ in range(count)]
    ending: tuple[str, int | None] | None = None
    if version == ENDING_VERSION:
        name = "".join(ALPHABET[bits.take(6)] for _ in range(bits.take(5) + 1))
        winner = bits.take(3)
        ending = (name, winner - 1 if winner else None)
    needed = -(-bits.pos // 6)
    if len(body) > needed:
        if check != _check(code[0] + body[:needed]):
            raise LinkError("checksum")  # a changed character made the game shorter
        raise LinkError("too_long", extra=len(body) - needed)
    if check != _check(code[0] + body):
        raise LinkError("checksum")
    rules = app_rules(size, mode, players)
    if rules is None:
        raise LinkError("rules")
    if not game_id.isalnum():
        raise LinkError("game_id")
    if sender >= players:
        raise LinkError("sender", seat=sender + 1)
    try:
        names = tuple(raw.decode("utf-8") for raw in raw_names)
    except UnicodeDecodeError:
        raise LinkError("names") from None
    if any(clean_name(name) != name for name in names):
        raise LinkError("names")
    if count > rules.cells:
        raise LinkError("too_many", count=count, cells=rules.cells)
    state = new_game(rules)
    for number, (cell, letter) in enumerate(moves, start=1):
        action = Action(cell // size, cell % size, "O" if letter else "S")
        if cell >= rules.cells:
            raise LinkError("off_board", number=number)
        try:
            state.apply(action)
        except IllegalActionError:
            if outcomes.outcome_of(state) is not None:
                raise LinkError("over", number=number, action=str(action)) from None
            square = square_name(action.row, action.col)
            raise LinkError("taken", number=number, action=str(action), square=square) from None
    if ending is not None:
        try:
            outcomes.kept_outcome(state, *ending)
        except outcomes.EndingError:
            raise LinkError("version", version=version) from None  # a newer build's, or damage
    return RemoteLink(game_id, rules, state.history, sender, names, ending)


def link_url(base: str, code: str) -> str:
    """The link a player sends: the page address ``base`` (no query) and the code."""
    return f"{base}?r={code}"
