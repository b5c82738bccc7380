"""Games by link (correspondence): what a device does with a link, and the session it plays.

Two people on two devices play one game with no server: after each turn the page offers a link
that carries the whole game, and the friend opens it in any browser. Each device keeps the game
in its own library (same game id on both) and lets only its own seat move.

The link format (what a link carries, its versions, its damage) is described once, in
:mod:`sos.app.share.link`; this module keeps a game by link in the library (:class:`RemoteInfo` in
``GameRecord.extra``), decides what a device does with a link (:func:`receive`) and lets only
this device's seat move (:class:`RemoteSession`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from ...board import Line as SosLine
from ...notation import Action
from ...rules import InvalidRulesError, Rules
from ...state import IllegalActionError, replay
from ..game import outcome as outcomes
from ..game.session import GameSession
from ..saving.library import GameRecord, is_prefix, merge_lines
from ..text.i18n import text
from ..text.message import Message
from .link import (
    ALPHABET,
    ENDING_VERSION,
    LINK_VERSION,
    MAX_NAME,
    MOVES_BITS,
    NAME_FIELD_MAX,
    PLAYERS_BASE,
    PLAYERS_BITS,
    SEAT_BITS,
    SIZE_BASE,
    SIZE_BITS,
    LinkError,
    RemoteLink,
    clean_name,
    decode_link,
    encode_link,
    link_url,
)

ORIGIN: Final = "remote"

__all__ = [
    "ALPHABET", "LINK_VERSION", "MAX_NAME", "MOVES_BITS", "NAME_FIELD_MAX", "ORIGIN",
    "PLAYERS_BASE", "PLAYERS_BITS", "SEAT_BITS", "SIZE_BASE", "SIZE_BITS", "LinkError", "Received",
    "RemoteInfo", "RemoteLink", "RemoteSession", "RemoteView", "WrongSeatError", "clean_name",
    "decode_link", "display_message", "display_name", "encode_link", "info", "is_remote",
    "link_of", "link_url", "new_record", "receive", "remote_view", "session_for", "with_info",
]


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
    """The link this device sends for ``record``: the moves up to the position shown, and the
    game's ending there when it is one kept in the game's data (:mod:`sos.app.game.outcome`)."""
    remote = info(record)
    line = record.line[: record.cursor]
    ended = outcomes.outcome_of(record.state(), record)
    known = outcomes.ending(ended.termination) if ended is not None else None
    kept = (ended.termination, ended.winner) if ended and known and not known.on_board else None
    return RemoteLink(record.id, record.rules, line, remote.seat, remote.names, kept)


def _with_ending(record: GameRecord, link: RemoteLink, seat: int) -> GameRecord:
    """``record`` (whose line ends with the link's) with the link's kept ending, if any, as the
    device playing ``seat`` receives it.

    Raises:
        LinkError: ``seat``, for an ending made by ``seat`` that this device did not make
            (nobody ends the game for the receiving seat:
            :func:`sos.app.game.outcome.kept_outcome`);
            ``version`` for one that does not hold.
    """
    if link.ending is None:
        return record
    state = replace(record, cursor=len(link.line)).state()
    if outcomes.outcome_of(state, record) is not None:
        return record  # ended here already
    try:
        outcomes.kept_outcome(state, *link.ending, receiver=seat)
    except outcomes.EndingError as error:
        if error.reason == "seat":
            raise LinkError("seat", player=seat + 1) from None
        raise LinkError("version", version=ENDING_VERSION) from None
    return outcomes.with_ending(record, state, link.ending[0])


def display_name(names: tuple[str, ...], seat: int, lang: str) -> str:
    """``"Anna (Player 1)"``, or ``"Player 1"`` without a name."""
    return display_message(names, seat).text(lang)


def display_message(names: tuple[str, ...], seat: int) -> Message:
    """:func:`display_name` as a :class:`~sos.app.text.message.Message` (translated when shown)."""
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
    made here, or ends the game for that seat: nothing changes; ``error`` says so).
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
    the sender's (then the first other seat); in a game the link ends, the first seat that
    neither sent it nor made its ending."""
    state = replay(link.rules, link.line)
    seat = state.current_player()
    known = outcomes.ending(link.ending[0]) if link.ending is not None else None
    author = seat if known is not None and known.by_player else None
    over = link.ending is not None or outcomes.outcome_of(state) is not None
    if over or not 0 <= seat < link.rules.players or seat == link.sender:
        others = [s for s in range(link.rules.players) if s != link.sender]
        seat = next((s for s in others if s != author), others[0])
    return seat


def _new_game(link: RemoteLink, seat: int) -> Received:
    """The link's game as a new game on this device, playing ``seat``; ``wrong_seat`` when
    the link ends it for that seat."""
    remote = RemoteInfo(seat, link.names, len(link.line))
    line = link.line
    record = GameRecord(
        link.game_id, link.rules, ("human",) * link.rules.players, line, len(line), origin=ORIGIN
    )
    record = with_info(record, remote)
    try:
        return Received("new", _with_ending(record, link, seat), len(line))
    except LinkError as error:
        return Received("wrong_seat", record, error=error)


def receive(stored: GameRecord | None, link: RemoteLink) -> Received:
    """Decide what a device does with ``link``, given its stored game of the same id (or None).

    No move is ever lost: an older link never rewinds the stored game; a link that disagrees is
    kept as another game; a link that moves for this device's seat, or ends the game for it
    (:func:`sos.app.game.outcome.kept_outcome`), is refused.
    """
    line = link.line
    if stored is None:
        return _new_game(link, _seat_for(link))
    if not is_remote(stored) or stored.rules != link.rules:
        return _fork_of(stored, link)
    mine = info(stored)
    names = _merge_names(mine, link)
    shown = stored.line[: stored.cursor]
    if is_prefix(line, shown):
        kind = "same" if len(line) == len(shown) else "old"
        kept = with_info(stored, replace(mine, names=names))
        if kind == "old":
            return Received(kind, kept)
        try:
            return Received(kind, _with_ending(kept, link, mine.seat))
        except LinkError as refused:
            return Received("wrong_seat", stored, error=refused)
    if not is_prefix(shown, line):
        if any(is_prefix(line, kept) for kept in stored.lines()):
            return Received("old", with_info(stored, replace(mine, names=names)))
        return _fork_of(stored, link)
    state = stored.state()
    for index in range(len(shown), len(line)):
        made_here = any(is_prefix(line[: index + 1], kept) for kept in stored.lines())
        if state.current_player() == mine.seat and not made_here:
            error = LinkError("seat", player=mine.seat + 1)
            return Received("wrong_seat", stored, error=error)
        state.apply(line[index])
    variations = tuple(v for v in merge_lines(stored.lines()) if not is_prefix(v, line))
    record = replace(stored, line=line, cursor=len(line), variations=variations)
    remote = replace(mine, names=names, base=len(line))
    try:
        updated = _with_ending(with_info(record, remote), link, mine.seat)
    except LinkError as refused:
        return Received("wrong_seat", stored, error=refused)
    return Received("updated", updated, len(line) - len(shown))


def _fork_of(stored: GameRecord, link: RemoteLink) -> Received:
    """The link's game as a separate game (a new id) next to ``stored`` (``fork``), played by
    this device's seat when ``stored`` is a game by link (``wrong_seat`` when the link ends it
    for that seat)."""
    mine = is_remote(stored) and stored.rules == link.rules
    got = _new_game(link, info(stored).seat if mine else _seat_for(link))
    if got.kind == "wrong_seat":
        return replace(got, record=stored)
    return Received("fork", replace(got.record, id=""))


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

    def undo_may_fork(self) -> bool:
        """Undo would take back a move whose link was on offer (another device's turn: the
        link may have gone out by a way the page does not see, e.g. the address bar): the
        page asks before it does, since an answer to that link would fork the game."""
        return self.can_undo() and self.waiting_for() is not None

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
