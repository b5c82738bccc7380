"""A pure view model of a game state: everything the page shows, as plain data.

The web layer renders :func:`view_model` into the DOM; it never decides a rule itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .board import Line
from .i18n import text
from .notation import EMPTY, square_name
from .state import GameState

#: How each seat marks its SOSs, so that players differ by shape as well as by colour.
PLAYER_STYLES: Final[tuple[str, ...]] = ("ring", "strike", "dash", "double")


@dataclass(frozen=True)
class CellView:
    """One square: its letter (``""`` when empty), accessible label, last-move flag."""

    row: int
    col: int
    letter: str
    label: str
    last: bool


@dataclass(frozen=True)
class LineView:
    """A completed SOS between ``(r1, c1)`` and ``(r2, c2)`` and the seat that scored it."""

    r1: int
    c1: int
    r2: int
    c2: int
    player: int

    @property
    def key(self) -> str:
        """The ``data-sos`` attribute value ``"r1,c1,r2,c2"``."""
        return f"{self.r1},{self.c1},{self.r2},{self.c2}"


@dataclass(frozen=True)
class PlayerView:
    """A seat on the scoreboard."""

    index: int
    name: str
    score: int
    current: bool
    winner: bool
    style: str
    label: str


@dataclass(frozen=True)
class ViewModel:
    """Everything the page shows about a game."""

    rows: int
    cols: int
    mode: str
    cells: tuple[tuple[CellView, ...], ...]
    lines: tuple[LineView, ...]
    players: tuple[PlayerView, ...]
    status: str
    game_over: bool
    result: str | None
    board_label: str
    current_player: int


def player_name(lang: str, seat: int) -> str:
    """Display name of ``seat`` (0-based): ``"Player 1"``."""
    return text(lang, "player.name", n=seat + 1)


def _scores_text(scores: tuple[int, ...]) -> str:
    return "–".join(str(s) for s in scores)


def _join_names(lang: str, names: list[str]) -> str:
    if len(names) <= 2:
        return text(lang, "result.and").join(names)
    return ", ".join(names[:-1]) + text(lang, "result.and") + names[-1]


def result_text(state: GameState, lang: str) -> str | None:
    """The result line of a finished game (``None`` while it goes on)."""
    outcome = state.outcome()
    if outcome is None:
        return None
    scores = _scores_text(outcome.scores)
    if outcome.winner is not None:
        name = player_name(lang, outcome.winner)
        if outcome.termination == "sos":
            return text(lang, "result.win.simple", name=name)
        return text(lang, "result.win", name=name, scores=scores)
    if state.rules.mode == "simple":
        return text(lang, "result.draw.simple")
    if len(outcome.tied) < state.rules.players:
        names = _join_names(lang, [player_name(lang, p) for p in outcome.tied])
        points = outcome.scores[outcome.tied[0]]
        return text(lang, "result.draw.between", names=names, points=points)
    return text(lang, "result.draw", scores=scores)


def status_text(state: GameState, lang: str) -> str:
    """The status line: whose turn, or that the last mover scored and moves again, or result."""
    result = result_text(state, lang)
    if result is not None:
        return result
    player = state.current_player()
    name = player_name(lang, player)
    records = state.records
    if records and records[-1].lines and records[-1].player == player:
        points = len(records[-1].lines)
        if points == 1:
            return text(lang, "status.scored.one", name=name)
        return text(lang, "status.scored", name=name, points=points)
    return text(lang, "status.turn", name=name)


def view_model(state: GameState, lang: str = "en") -> ViewModel:
    """The :class:`ViewModel` of ``state`` with text in ``lang`` (``"en"`` or ``"de"``)."""
    rules = state.rules
    records = state.records
    last = records[-1].action if records else None
    cells = []
    for r in range(rules.rows):
        row = []
        for c in range(rules.cols):
            letter = state.letter_at(r, c)
            square = square_name(r, c)
            is_last = last is not None and last.row == r and last.col == c
            if letter == EMPTY:
                label = text(lang, "cell.empty", square=square)
            elif is_last:
                label = text(lang, "cell.last", square=square, letter=letter)
            else:
                label = text(lang, "cell.letter", square=square, letter=letter)
            row.append(CellView(r, c, "" if letter == EMPTY else letter, label, is_last))
        cells.append(tuple(row))
    lines = tuple(
        LineView(line.r1, line.c1, line.r2, line.c2, record.player)
        for record in records
        for line in record.lines
    )
    outcome = state.outcome()
    current = state.current_player()
    players = []
    for seat, score in enumerate(state.scores):
        name = player_name(lang, seat)
        style = PLAYER_STYLES[seat % len(PLAYER_STYLES)]
        players.append(
            PlayerView(
                index=seat,
                name=name,
                score=score,
                current=seat == current,
                winner=outcome is not None and outcome.winner == seat,
                style=style,
                label=text(
                    lang,
                    "score.label",
                    name=name,
                    score=score,
                    style=text(lang, f"player.style.{seat % len(PLAYER_STYLES)}"),
                ),
            )
        )
    return ViewModel(
        rows=rules.rows,
        cols=rules.cols,
        mode=rules.mode,
        cells=tuple(cells),
        lines=lines,
        players=tuple(players),
        status=status_text(state, lang),
        game_over=outcome is not None,
        result=result_text(state, lang),
        board_label=text(lang, "board.label", rows=rules.rows, cols=rules.cols),
        current_player=current,
    )


def lines_of(state: GameState) -> list[tuple[Line, int]]:
    """Every SOS completed in this game with the seat that scored it, oldest first."""
    return [(line, record.player) for record in state.records for line in record.lines]
