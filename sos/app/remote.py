"""Games by link (correspondence): the link format and what a device does with a link.

Two people on two devices play one game with no server: after each turn the page offers a link
that carries the whole game, and the friend opens it in any browser. Each device keeps the game
in its own library (same game id on both) and lets only its own seat move.

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

Errors: :class:`LinkError` with a ``key`` under ``remote.reason.`` in :mod:`sos.app.i18n`.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass, replace
from typing import Final

from ..board import Line as SosLine
from ..notation import Action, square_name
from ..rules import InvalidRulesError, Mode, Rules, app_allows
from ..state import IllegalActionError, new_game
from . import outcome as outcomes
from .i18n import text
from .library import GameRecord, PlayLine, _is_prefix, merge_lines
from .message import Message
from .session import GameSession

ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
LINK_VERSION: Final = 1
#: Longest player name kept, in characters (longer names are cut).
MAX_NAME: Final = 24
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
ORIGIN: Final = "remote"


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
    """

    game_id: str
    rules: Rules
    line: PlayLine
    sender: int
    names: tuple[str, ...]


def clean_name(name: str) -> str:
    """A player name as kept: control characters dropped, spaces collapsed, at most
    :data:`MAX_NAME` characters."""
    kept = "".join(ch for ch in str(name) if ch.isprintable())
    return " ".join(kept.split())[:MAX_NAME]


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


def encode_link(link: RemoteLink) -> str:
    """The code of ``link`` (the value of the ``r`` URL parameter).

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
    bits = _Bits()
    bits.put(size - SIZE_BASE, SIZE_BITS)
    bits.put(1 if rules.mode == "simple" else 0, 1)
    bits.put(rules.players - PLAYERS_BASE, PLAYERS_BITS)
    bits.put(link.sender, SEAT_BITS)
    bits.put(len(link.game_id) - 1, 5)
    for ch in link.game_id:
        bits.put(_INDEX[ch], 6)
    for seat in range(rules.players):
        name = clean_name(link.names[seat]) if seat < len(link.names) else ""
        raw = name.encode("utf-8")
        while len(raw) > 127:  # cut at a character boundary
            name = name[:-1]
            raw = name.encode("utf-8")
        bits.put(len(raw), 7)
        for byte in raw:
            bits.put(byte, 8)
    width = _cell_bits(size)
    bits.put(len(link.line), MOVES_BITS)
    for action in link.line:
        bits.put(action.row * size + action.col, width)
        bits.put(1 if action.letter == "O" else 0, 1)
    body = bits.chars()
    head = ALPHABET[LINK_VERSION]
    return head + _check(head + body) + body


def decode_link(code: str) -> RemoteLink:
    """Read and check a link's code; every move is replayed by the engine.

    Raises:
        LinkError: ``empty``, ``unreadable`` (a character outside the alphabet, e.g. a link
            mangled by a messenger), ``not_link`` (format 0, which no app made), ``version``
            (another format version: a newer app, or damage), ``truncated`` (shorter than its
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
    if _INDEX[code[0]] != LINK_VERSION:
        raise LinkError("version", version=_INDEX[code[0]])
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
    needed = -(-bits.pos // 6)
    if len(body) > needed:
        if check != _check(code[0] + body[:needed]):
            raise LinkError("checksum")  # a changed character made the game shorter
        raise LinkError("too_long", extra=len(body) - needed)
    if check != _check(code[0] + body):
        raise LinkError("checksum")
    try:
        rules = Rules.square(size, mode, players)
    except InvalidRulesError:
        raise LinkError("rules") from None
    if not app_allows(rules):
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
    return RemoteLink(game_id, rules, state.history, sender, names)


def link_url(base: str, code: str) -> str:
    """The link a player sends: the page address ``base`` (no query) and the code."""
    return f"{base}?r={code}"


# ---------------------------------------------------------------------------- records


@dataclass(frozen=True)
class RemoteInfo:
    """What a remote game keeps in ``GameRecord.extra``: this device's ``seat``, the players'
    ``names`` (``""`` = none given), ``base``, the number of moves of the last link opened
    here (moves before it were seen by the other side and cannot be taken back), and ``sent``,
    the number of moves of the last link copied or shared from here (0: none; a move in a link
    that went out cannot be taken back either: the friend may already have answered it)."""

    seat: int
    names: tuple[str, ...]
    base: int
    sent: int = 0

    def extra(self) -> dict[str, object]:
        """The ``GameRecord.extra`` value (``sent`` only once a link went out)."""
        out: dict[str, object] = {"seat": self.seat, "names": list(self.names), "base": self.base}
        if self.sent:
            out["sent"] = self.sent
        return out


def is_remote(record: GameRecord) -> bool:
    """True for a game played by link."""
    return record.origin == ORIGIN


def info(record: GameRecord) -> RemoteInfo:
    """The remote data of ``record``; damaged or missing values are replaced by defaults
    (seat 0, no names, base 0), so a game always opens."""
    players = record.rules.players
    extra = record.extra
    seat, names, base = extra.get("seat"), extra.get("names"), extra.get("base")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        seat = 0
    kept = (
        [clean_name(n) if isinstance(n, str) else "" for n in names]
        if isinstance(names, list)
        else []
    )
    kept = (kept + [""] * players)[:players]
    if not isinstance(base, int) or isinstance(base, bool) or not 0 <= base <= len(record.line):
        base = 0
    sent = extra.get("sent", 0)
    if not isinstance(sent, int) or isinstance(sent, bool) or not 0 <= sent <= len(record.line):
        sent = 0
    return RemoteInfo(seat, tuple(kept), base, sent)


def with_info(record: GameRecord, remote: RemoteInfo) -> GameRecord:
    """``record`` with new remote data."""
    return replace(record, extra={**record.extra, **remote.extra()})


def new_record(rules: Rules, seat: int, name: str) -> GameRecord:
    """A remote game started on this device, playing ``seat`` (0-based) as ``name``."""
    if not 0 <= seat < rules.players:
        raise InvalidRulesError(f"seat {seat + 1} is not in a {rules.players}-player game")
    names = tuple(clean_name(name) if s == seat else "" for s in range(rules.players))
    record = GameRecord("", rules, ("human",) * rules.players, origin=ORIGIN)
    return with_info(record, RemoteInfo(seat, names, 0))


def link_of(record: GameRecord) -> RemoteLink:
    """The link this device sends for ``record``: the moves up to the position shown."""
    remote = info(record)
    return RemoteLink(
        record.id, record.rules, record.line[: record.cursor], remote.seat, remote.names
    )


def display_name(names: tuple[str, ...], seat: int, lang: str) -> str:
    """``"Anna (Player 1)"``, or ``"Player 1"`` without a name."""
    return display_message(names, seat).text(lang)


def display_message(names: tuple[str, ...], seat: int) -> Message:
    """:func:`display_name` as a :class:`~sos.app.message.Message` (translated when shown)."""
    plain = Message("player.name", (("n", seat + 1),))
    if not names[seat]:
        return plain
    return Message("remote.named", (("name", names[seat]), ("player", plain)))


@dataclass(frozen=True)
class Received:
    """What opening a link decides (:func:`receive`).

    ``kind``: ``new`` (a game this device did not have: ``record`` is to be created),
    ``updated`` (the link extends the stored game: ``record`` replaces it), ``same`` (the link
    holds what is stored), ``old`` (the stored game is further along: it is kept and shown),
    ``fork`` (the link disagrees: ``record`` is the link's game, to be kept as a new game next to
    the stored one), ``wrong_seat`` (the link has a move for this device's seat that was not
    made here: nothing changes; ``error`` says so).
    """

    kind: str
    record: GameRecord
    new_moves: int = 0
    error: LinkError | None = None


def _merge_names(mine: RemoteInfo, link: RemoteLink) -> tuple[str, ...]:
    return tuple(
        mine.names[s] if s == mine.seat or not link.names[s] else link.names[s]
        for s in range(len(mine.names))
    )


def _seat_for(link: RemoteLink) -> int:
    """The seat a device takes when it first opens ``link``: the one to move, unless that is
    the sender's (then the first other seat)."""
    state = new_game(link.rules)
    for action in link.line:
        state.apply(action)
    seat = state.current_player()
    over = outcomes.outcome_of(state) is not None
    if over or not 0 <= seat < link.rules.players or seat == link.sender:
        seat = next(s for s in range(link.rules.players) if s != link.sender)
    return seat


def receive(stored: GameRecord | None, link: RemoteLink) -> Received:
    """Decide what a device does with ``link``, given its stored game of the same id (or None).

    No move is ever lost: an older link never rewinds the stored game; a link that disagrees is
    kept as another game; a link that moves for this device's seat is refused.
    """
    line = link.line
    if stored is None:
        seat = _seat_for(link)
        remote = RemoteInfo(seat, link.names, len(line))
        record = GameRecord(
            link.game_id,
            link.rules,
            ("human",) * link.rules.players,
            line,
            len(line),
            origin=ORIGIN,
        )
        return Received("new", with_info(record, remote), len(line))
    if not is_remote(stored) or stored.rules != link.rules:
        return Received("fork", _fork_of(stored, link))
    mine = info(stored)
    names = _merge_names(mine, link)
    shown = stored.line[: stored.cursor]
    if _is_prefix(line, shown):
        kind = "same" if len(line) == len(shown) else "old"
        return Received(kind, with_info(stored, replace(mine, names=names)))
    if not _is_prefix(shown, line):
        if any(_is_prefix(line, kept) for kept in stored.lines()):
            return Received("old", with_info(stored, replace(mine, names=names)))
        return Received("fork", _fork_of(stored, link))
    state = stored.state()
    for index in range(len(shown), len(line)):
        made_here = any(_is_prefix(line[: index + 1], kept) for kept in stored.lines())
        if state.current_player() == mine.seat and not made_here:
            error = LinkError("seat", player=mine.seat + 1)
            return Received("wrong_seat", stored, error=error)
        state.apply(line[index])
    variations = tuple(v for v in merge_lines(stored.lines()) if not _is_prefix(v, line))
    record = replace(stored, line=line, cursor=len(line), variations=variations)
    remote = replace(mine, names=names, base=len(line))
    return Received("updated", with_info(record, remote), len(line) - len(shown))


def _fork_of(stored: GameRecord, link: RemoteLink) -> GameRecord:
    """The link's game as a separate game (a new id) next to ``stored``, played by this
    device's seat when ``stored`` is a game by link."""
    received = receive(None, link).record
    if is_remote(stored) and stored.rules == link.rules:
        received = with_info(received, replace(info(received), seat=info(stored).seat))
    return replace(received, id="")


# ---------------------------------------------------------------------------- session


class WrongSeatError(IllegalActionError):
    """A move in a game by link for a seat that is not this device's, or not now (another
    device's turn, an earlier position shown). The session is unchanged."""


class RemoteSession(GameSession):
    """A game by link on this device: only this device's seat moves, only at the end of the
    line (not while an earlier position is shown), and undo (the session's one rule,
    :meth:`GameSession.undo_target`) takes back only this device's own moves made since the
    last link was opened or sent here."""

    @property
    def remote(self) -> RemoteInfo:
        """This device's seat, the names and the base (see :class:`RemoteInfo`)."""
        return info(self.record)

    def human_to_move(self) -> bool:
        return (
            not self.paused
            and self.outcome is None
            and self.state.current_player() == self.remote.seat
        )

    def computer_to_move(self) -> int | None:
        return None

    def play(self, action: Action) -> tuple[SosLine, ...]:
        """Write ``action`` for this device's seat (see :meth:`GameSession.play`).

        Raises:
            WrongSeatError: when it is not this device's turn (nothing changes).
            IllegalActionError: for an occupied or off-board square (nothing changes).
        """
        if not self.human_to_move():
            raise WrongSeatError(f"not the turn of seat {self.remote.seat + 1} on this device")
        return super().play(action)

    def undo_floor(self) -> int:
        """No Undo goes before the moves of the last link opened here or sent from here
        (:meth:`mark_sent`: the friend may already have answered them), nor while an earlier
        position is shown (the undo rule itself is :meth:`GameSession.undo_target`)."""
        remote = self.remote
        return self.cursor if self.paused else max(remote.base, remote.sent)

    def may_take_back(self, seat: int) -> bool:
        """Only this device's own moves are taken back."""
        return seat == self.remote.seat

    def mark_sent(self) -> bool:
        """The link of the position shown was copied or shared: its moves went out and can no
        longer be taken back here. True when that changed what Undo may take back."""
        remote = self.remote
        if self.cursor <= max(remote.base, remote.sent):
            return False
        self.record = with_info(self.to_record(), replace(remote, sent=self.cursor))
        self._changed()
        return True

    def waiting_for(self) -> int | None:
        """The seat of another device that is to move, or None (this device's turn, the game
        over, or an earlier position shown)."""
        seat = self.state.current_player()
        if self.paused or self.outcome is not None or seat == self.remote.seat:
            return None
        return seat

    def set_name(self, name: str) -> bool:
        """Set this device's player name; True when it changed."""
        remote = self.remote
        names = tuple(
            clean_name(name) if s == remote.seat else n for s, n in enumerate(remote.names)
        )
        if names == remote.names:
            return False
        self.record = with_info(self.record, replace(remote, names=names))
        self._changed()
        return True


@dataclass(frozen=True)
class RemoteView:
    """The panel of a game by link under the board, as text in the page's language.

    Attributes:
        you: "You play Anna (Player 1)".
        status: the game over, an earlier position shown, this device's turn, or whose turn
            it is on another device.
        send: show "send the link" (another device is to move, or the game is over).
        name: this device's player name ("" when none was given).
    """

    you: str
    status: str
    send: bool
    name: str


def remote_view(game: RemoteSession, lang: str) -> RemoteView:
    """The :class:`RemoteView` of ``game`` in ``lang`` (the game's outcome is
    :attr:`GameSession.outcome`, as everywhere)."""
    remote = game.remote
    waiting = game.waiting_for()
    over = game.outcome is not None
    if over:
        status = text(lang, "remote.over")
    elif game.paused:
        status = text(lang, "remote.viewing")
    elif waiting is None:
        status = text(lang, "remote.your_turn")
    else:
        status = text(lang, "remote.waiting", name=display_name(remote.names, waiting, lang))
    you = text(lang, "remote.you", name=display_name(remote.names, remote.seat, lang))
    return RemoteView(you, status, over or waiting is not None, remote.names[remote.seat])


def session_for(record: GameRecord) -> GameSession:
    """The session kind of ``record``: :class:`RemoteSession` for a game by link."""
    return RemoteSession(record) if is_remote(record) else GameSession(record)
