"""URL parameters of the app, validated (docs/playing.md, "URL parameters"). Pure functions; no DOM.

Parameters (all optional): ``size`` a side in :data:`sos.rules.APP_SIZES`, ``mode``
general|simple, ``players`` :data:`~sos.rules.MIN_PLAYERS`..:data:`~sos.rules.MAX_PLAYERS`,
``seats`` comma list of :data:`SEAT_KINDS` (one per player), ``lang`` one of
:data:`sos.app.text.i18n.LANGUAGES`, ``embed`` 1|0, ``start`` tap|now (an embed's start: at the
reader's first tap, the default, or at once; ``static/boot.js`` reads it before Python runs),
``game`` a share code, ``names`` the players' names with it (a JSON array of one string per
seat, ``""`` for a seat without one: the shape of a game record's ``# names:`` line), ``id`` an
embed's game named by its host. ``perfect`` seats need a board the exact solver covers
(:func:`sos.ai.levels_for`). A bad value is replaced by the default and reported as a notice.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from ...ai import LEVELS, levels_for
from ...rules import (
    APP_SIZES,
    MAX_APP_SIZE,
    MAX_PLAYERS,
    MIN_APP_SIZE,
    MIN_PLAYERS,
    Mode,
    Rules,
    app_rules,
)
from ..saving.transcript import names_from_json
from ..text.i18n import LANGUAGES, text
from ..text.message import Message, message

#: What a seat can be: a human or a computer level.
SEAT_KINDS: Final[tuple[str, ...]] = ("human", *LEVELS)
#: The board size of a game whose URL names none (also drawn before Python runs:
#: ``scripts/limits.mjs`` writes it into ``static/vendor/limits.js``).
DEFAULT_SIZE: Final = 6
_MAX_SHOWN: Final = 24
#: A valid ``id`` (an embed's game, named by its host; ``static/boot.js`` checks the same).
EMBED_ID: Final = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def seat_kinds_for(size: int) -> tuple[str, ...]:
    """What a seat can be on a ``size`` x ``size`` board: human, then the levels offered there
    (:func:`sos.ai.levels_for`: ``perfect`` only where the solver covers the board)."""
    return ("human", *levels_for(Rules.square(size)))


def perfect_note(lang: str, size: int) -> str:
    """Why the settings grey out ``perfect`` on a ``size`` x ``size`` board ("" where it is
    offered): "Perfect play is offered on boards up to 4 × 4: a larger board is too big for
    the solver to finish."."""
    if "perfect" in seat_kinds_for(size):
        return ""
    return text(lang, "settings.perfect_note", side=_PERFECT_MAX_SIZE)


def seat_for(kind: str, size: int) -> str:
    """``kind`` if a seat can be that on a ``size`` x ``size`` board, else the nearest offered
    there (``perfect`` where the solver does not cover the board -> ``hard``; an unknown kind
    -> ``human``)."""
    if kind in seat_kinds_for(size):
        return kind
    return "hard" if kind == "perfect" else "human"


#: The largest side of a square board with ``perfect`` seats (a message states it).
_PERFECT_MAX_SIZE: Final = max(
    (size for size in APP_SIZES if "perfect" in seat_kinds_for(size)), default=0
)
#: The values that fill each notice reason's placeholders.
_REASON_VALUES: Final[dict[str, dict[str, object]]] = {
    "notice.reason.size": {"min": MIN_APP_SIZE, "max": MAX_APP_SIZE},
    "notice.reason.players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
    "notice.reason.lang": {"codes": ", ".join(LANGUAGES)},
    "notice.reason.perfect": {"side": _PERFECT_MAX_SIZE},
}


@dataclass(frozen=True)
class Settings:
    """Settings of a new game as chosen by URL or by the settings form."""

    size: int = DEFAULT_SIZE
    mode: Mode = "general"
    players: int = 2
    seats: tuple[str, ...] = ("human", "human")
    lang: str | None = None
    embed: bool = False
    game: str | None = None
    #: ``start=now``: an embed starts the game engine at once instead of at the first tap.
    start_now: bool = False
    #: ``names``: one name per seat as the URL gives it (``""`` for none; cleaned where a game
    #: takes them, :func:`sos.app.share.players.with_names`), or ``()`` without the parameter.
    names: tuple[str, ...] = ()

    def with_players(self, players: int) -> Settings:
        """The same settings with ``players`` seats (new seats are human; no names)."""
        seats = (self.seats + ("human",) * MAX_PLAYERS)[:players]
        return Settings(
            self.size, self.mode, players, seats, self.lang, self.embed, self.game, self.start_now
        )


@dataclass
class ParsedParams:
    """Result of :func:`parse_params`: the settings and the notices about bad values."""

    settings: Settings
    #: One :class:`~sos.app.text.message.Message` per bad value (translated when shown).
    notices: list[Message] = field(default_factory=list)
    #: Names of the game-setting parameters present in the URL (size, mode, players, seats).
    explicit: frozenset[str] = frozenset()
    #: The language of the page these settings give (the URL's, else ``browser_lang``).
    lang: str = "en"
    #: ``id``: the name a host page gives an embed's game (1-64 letters, digits, ``-_.``;
    #: frames with the same id share one game), else None (docs/embedding.md).
    embed_id: str | None = None

    def texts(self) -> list[str]:
        """The notices in :attr:`lang`."""
        return [notice.text(self.lang) for notice in self.notices]


def _small_int(raw: str) -> int | None:
    """``raw`` as a small whole number written with ASCII digits, else ``None``.

    (``str.isdigit`` is not enough: it accepts ``"²"``, which ``int`` then rejects.)
    """
    raw = raw.strip()
    return int(raw) if 0 < len(raw) <= 3 and raw.isascii() and raw.isdigit() else None


def _shown(value: str) -> str:
    """``value`` as a notice quotes it: a control or format character (``%00``, a bidi
    override) as U+FFFD "�", at most :data:`_MAX_SHOWN` characters."""
    value = "".join(" " if c.isspace() else c if c.isprintable() else "\ufffd" for c in value)
    return value if len(value) <= _MAX_SHOWN else value[: _MAX_SHOWN - 1] + "…"


def parse_params(query: str | Iterable[tuple[str, str]], browser_lang: str = "en") -> ParsedParams:
    """Validate a URL query: a query string (with or without the leading ``?``) or its decoded
    ``(name, value)`` pairs. A name given more than once counts with its last value.

    Args:
        query: e.g. ``"?size=8&mode=simple"`` (decoded with ``urllib.parse.parse_qsl``), or
            ``[("size", "8"), ("mode", "simple")]`` -- the page passes the pairs that the
            browser's ``URLSearchParams`` decoded, because importing ``urllib.parse`` (and
            ``ipaddress`` with it) costs 0.1-0.2 s of boot time under Pyodide.
        browser_lang: language for the notices when ``lang`` is absent or bad.

    Returns:
        The settings (defaults for missing or bad values), one notice per bad value (a
        :class:`~sos.app.text.message.Message`, translated when shown) and the page's language.
    """
    if isinstance(query, str):
        from urllib.parse import parse_qsl  # only here: see above

        pairs: Iterable[tuple[str, str]] = parse_qsl(query.lstrip("?"), keep_blank_values=True)
    else:
        pairs = query
    values = dict(pairs)  # the last value of each name

    def last(name: str) -> str | None:
        return values.get(name)

    bad: list[tuple[str, str, str, str]] = []  # name, value, reason key, default shown

    lang: str | None = None
    raw = last("lang")
    if raw is not None:
        if raw.lower() in LANGUAGES:
            lang = raw.lower()
        else:
            bad.append(("lang", raw, "notice.reason.lang", browser_lang))

    size = DEFAULT_SIZE
    raw = last("size")
    if raw is not None:
        number = _small_int(raw)
        if number is not None and app_rules(number) is not None:
            size = number
        else:
            bad.append(("size", raw, "notice.reason.size", str(DEFAULT_SIZE)))

    mode: Mode = "general"
    raw = last("mode")
    if raw is not None:
        if raw.lower() == "general":
            mode = "general"
        elif raw.lower() == "simple":
            mode = "simple"
        else:
            bad.append(("mode", raw, "notice.reason.mode", "general"))

    players: int | None = None
    raw = last("players")
    if raw is not None:
        number = _small_int(raw)
        if number is not None and MIN_PLAYERS <= number <= MAX_PLAYERS:
            players = number
        else:
            bad.append(("players", raw, "notice.reason.players", "2"))

    seats: tuple[str, ...] | None = None
    raw = last("seats")
    if raw is not None:
        parts = tuple(part.strip().lower() for part in raw.split(","))
        if not all(part in SEAT_KINDS for part in parts) or not (
            MIN_PLAYERS <= len(parts) <= MAX_PLAYERS
        ):
            bad.append(("seats", raw, "notice.reason.seats", "human"))
        elif players is not None and len(parts) != players:
            bad.append(("seats", raw, "notice.reason.seats_count", "human"))
        else:
            seats = parts
            players = len(parts)
    if players is None:
        players = 2
    if seats is None:
        seats = ("human",) * players
    elif "perfect" in seats and "perfect" not in seat_kinds_for(size):
        bad.append(("seats", raw or "", "notice.reason.perfect", "hard"))
        seats = tuple(seat_for(seat, size) for seat in seats)

    embed = False
    raw = last("embed")
    if raw is not None:
        if raw in ("1", "true"):
            embed = True
        elif raw not in ("0", "false", ""):
            bad.append(("embed", raw, "notice.reason.embed", "0"))

    start_now = False
    raw = last("start")
    if raw is not None:
        if raw.lower() == "now":
            start_now = True
        elif raw.lower() != "tap":
            bad.append(("start", raw, "notice.reason.start", "tap"))

    embed_id = last("id")
    extra: list[Message] = []
    if embed_id is not None and not EMBED_ID.fullmatch(embed_id):
        extra.append(message("notice.bad_id", value=_shown(embed_id)))
        embed_id = None

    game = last("game")
    names: tuple[str, ...] = ()
    raw = last("names")
    if raw is not None:
        read = read_names(raw, players)
        if read is None:
            extra.append(message("notice.bad_names"))
        else:
            names = read
    notices = [
        message(
            "notice.bad_param",
            name=name,
            value=_shown(value),
            reason=message(reason, **_REASON_VALUES.get(reason, {})),
            default=default,
        )
        for name, value, reason, default in bad
    ]
    explicit = frozenset(values) & {"size", "mode", "players", "seats"}
    settings = Settings(size, mode, players, seats, lang, embed, game, start_now, names)
    return ParsedParams(settings, notices + extra, explicit, lang or browser_lang, embed_id)


#: The characters a query value keeps as they are (RFC 3986 "unreserved"); every other byte of
#: its UTF-8 is written ``%XX``.
_UNRESERVED: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
)
#: The longest ``names`` value read, in characters (4 seats of a name field's length, as JSON).
_MAX_NAMES_CHARS: Final = 4_000


def quote_value(value: str) -> str:
    """``value`` percent-encoded for a URL's query (UTF-8; ``"Zoë & Bo"`` ->
    ``Zo%C3%AB%20%26%20Bo``), which ``URLSearchParams`` and ``urllib.parse.parse_qsl`` decode
    back to ``value``."""
    return "".join(
        chr(byte) if chr(byte) in _UNRESERVED else f"%{byte:02X}" for byte in value.encode("utf-8")
    )


def names_value(names: Sequence[str]) -> str:
    """The ``names`` value for one name per seat: a JSON array (``["Anna", ""]``), not yet
    percent-encoded (:func:`quote_value`)."""
    return json.dumps(list(names), ensure_ascii=False, separators=(",", ":"))


def read_names(raw: str, players: int) -> tuple[str, ...] | None:
    """The names of a ``names`` value (as :func:`names_value` writes it: ``players`` strings),
    else None (not such an array, another number of seats, or too long). The names are as
    written: whoever gives them to a game cleans them (length, control and bidi characters:
    :func:`sos.app.share.players.with_names`)."""
    if len(raw) > _MAX_NAMES_CHARS:
        return None
    return names_from_json(raw, players)


def to_query(settings: Settings) -> str:
    """The query string (with ``?``) that :func:`parse_params` reads back as ``settings``."""
    parts = [f"size={settings.size}", f"mode={settings.mode}", f"players={settings.players}"]
    if any(seat != "human" for seat in settings.seats):
        parts.append("seats=" + ",".join(settings.seats))
    if settings.lang:
        parts.append(f"lang={settings.lang}")
    if settings.embed:
        parts.append("embed=1")
        if settings.start_now:
            parts.append("start=now")
    return "?" + "&".join(parts)
