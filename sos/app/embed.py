"""What the game tells a page that embeds it in an iframe, as plain data (the messages of
``window.parent.postMessage``; :mod:`sos.web.embed` posts them, only inside a frame).

Every message is a JSON object with ``source: "sos-game"``, ``version: 1`` and a ``type``:

- ``"sos:ready"`` once the game accepts input: ``settings`` = ``{size, mode, players, seats,
  lang}`` and ``names`` (one per seat, as the page shows them: the name given, else "Player 1"
  / "Computer 2", in ``lang``).
- ``"sos:game-over"`` once per finished game: ``winner`` (seat index from 0, or ``null`` for a
  draw -- the key is always there), ``draw``, ``tied`` (seats sharing a draw), ``scores`` (one
  per seat), ``termination`` (how it ended: a name of :data:`sos.app.outcome.ENDINGS`), ``by``
  (the seat that made an ending a player makes, e.g. who resigned, else ``null``), ``text``
  (the result as the page shows it, with the players' names), ``names`` (as in ``sos:ready``)
  and ``settings``. It reads the session's outcome
  (:attr:`sos.app.session.GameSession.outcome`), like the page's result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..notation import Action
from .params import Settings
from .players import names_of, shown_names
from .session import GameSession
from .view import result_text

SOURCE: Final = "sos-game"
VERSION: Final = 1

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
