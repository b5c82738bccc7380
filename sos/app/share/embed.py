"""What the game tells a page that embeds it in an iframe, as plain data (the messages of
``window.parent.postMessage``; :mod:`sos.web.embed` posts them, only inside a frame).

Every message is a JSON object with ``source: "sos-game"``, ``version: 1`` and a ``type``:

- ``"sos:ready"`` once the game accepts input: ``settings`` = ``{size, mode, players, seats,
  lang}`` and ``names`` (one per seat, as the page shows them: the name given, else "Player 1"
  / "Computer 2", in ``lang``).
- ``"sos:game-over"`` once per finished game: ``winner`` (seat index from 0, or ``null`` for a
  draw -- the key is always there), ``draw``, ``tied`` (seats sharing a draw), ``scores`` (one
  per seat), ``termination`` (how it ended: a name of :data:`sos.app.game.outcome.ENDINGS`), ``by``
  (the seat that made an ending a player makes, e.g. who resigned, else ``null``), ``text``
  (the result as the page shows it, with the players' names), ``names`` (as in ``sos:ready``)
  and ``settings``. It reads the session's outcome
  (:attr:`sos.app.game.session.GameSession.outcome`), like the page's result.

An embed's own game (docs/embedding.md, "Several frames in one page"): each frame has a key,
``sos-embed:<hash>`` (computed by ``static/boot.js`` from the host's ``id`` parameter, else the
host page, the frame's position among its frames and its settings). Under that key the storage
holds the frame's **embed record** (:func:`paint_of`, read back by :func:`painted_id`): which
library game the frame shows, and what ``static/boot.js`` needs to draw it before the engine is
up -- the moves up to the position shown (a share code), the scores and the status line, in the
language they were written in.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Final

from ...notation import Action
from ..game.session import GameSession
from ..game.view import result_text, status_text
from ..saving.transcript import encode_moves
from .params import Settings
from .players import names_of, shown_names

SOURCE: Final = "sos-game"
VERSION: Final = 1

#: The storage key of an embed's record: this prefix and the hash ``static/boot.js`` computes.
EMBED_PREFIX: Final = "sos-embed:"
#: The ``format`` and ``version`` of an embed record (a new meaning gets a new version).
EMBED_FORMAT: Final = "sos-embed"
EMBED_VERSION: Final = 1
_KEY = re.compile(r"sos-embed:[0-9a-z]{1,16}")

#: A message: JSON values only (``None`` is JSON ``null``).
EmbedMessage = dict[str, object]


def _message(kind: str, **fields: object) -> EmbedMessage:
    return {"source": SOURCE, "version": VERSION, "type": kind, **fields}


def _settings(settings: Settings, lang: str) -> dict[str, object]:
    return {
        "size": settings.size,
        "mode": settings.mode,
        "players": settings.players,
        "seats": list(settings.seats),
        "lang": lang,
    }


def ready_message(
    settings: Settings, lang: str, names: Sequence[str] = ()
) -> EmbedMessage:
    """``sos:ready``: the game accepts input, with its ``settings`` in ``lang`` and the names
    of its seats (``names``: one per seat as stored, ``""`` for the default)."""
    return _message(
        "sos:ready",
        settings=_settings(settings, lang),
        names=list(shown_names(lang, settings.seats, names)),
    )


class GameOverReports:
    """Decides when ``sos:game-over`` is sent: once per ending (a render after the end, or the
    same moves played again after an undo, repeat nothing; another line of play that ends, or
    another game, is reported)."""

    def __init__(self) -> None:
        self._reported: tuple[str, tuple[Action, ...]] | None = None

    def message(self, game: GameSession, settings: Settings, lang: str) -> EmbedMessage | None:
        """The ``sos:game-over`` message for ``game`` if it has just ended and was not
        reported yet, else ``None``."""
        outcome = game.outcome
        if outcome is None:
            return None
        key = (game.record.id, game.state.history)
        if key == self._reported:
            return None
        self._reported = key
        names = names_of(game.record)
        return _message(
            "sos:game-over",
            winner=outcome.winner,
            draw=outcome.draw,
            tied=list(outcome.tied),
            scores=list(outcome.scores),
            termination=outcome.termination,
            by=outcome.by,
            text=result_text(game.state, lang, game.seats, names, outcome=outcome),
            names=list(shown_names(lang, game.seats, names)),
            settings=_settings(settings, lang),
        )


def valid_key(key: object) -> str | None:
    """``key`` if it is an embed record's storage key (``sos-embed:`` and up to 16 base-36
    digits, as ``static/boot.js`` makes it), else None."""
    return key if isinstance(key, str) and _KEY.fullmatch(key) else None


def paint_of(game: GameSession, lang: str) -> str:
    """The embed record (JSON) of ``game``, the game a frame shows, with its status in
    ``lang``: ``{"format": "sos-embed", "version": 1, "id", "size" (rows), "line" (the moves
    up to the position shown, as a share code), "scores" (one per seat), "status" (the status
    line as the page shows it), "lang"}``. ``static/boot.js`` draws the letters, scores and
    status from it before the engine is up; nothing in it is a rule of the game."""
    state = game.state
    names = names_of(game.record)
    return json.dumps(
        {
            "format": EMBED_FORMAT,
            "version": EMBED_VERSION,
            "id": game.record.id,
            "size": game.rules.rows,
            "line": encode_moves(state.history),
            "scores": list(state.scores),
            "status": status_text(state, lang, game.seats, False, names, game.outcome),
            "lang": lang,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def painted_id(raw: str | None) -> str | None:
    """The library id an embed record (:func:`paint_of`) names, or None when ``raw`` is
    missing or not such a record (damaged, another format or version)."""
    try:
        data = json.loads(raw) if raw is not None else None
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("format") != EMBED_FORMAT:
        return None
    game_id = data.get("id")
    if data.get("version") != EMBED_VERSION or not isinstance(game_id, str) or not game_id:
        return None
    return game_id
