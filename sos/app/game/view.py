"""A pure view model of a game state: everything the page shows, as plain data.

The web layer renders :func:`view_model` into the DOM; it never decides a rule itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from ...board import Line as SosLine
from ...notation import EMPTY, Action, square_name
from ...rules import Rules
from ...state import GameState, replay
from ..text.i18n import decimal, ntext, text
from .outcome import FROM_BOARD, OutcomeArg, ending, resolve

if TYPE_CHECKING:
    from .session import GameSession

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
    kind: str  # "human" or a computer level: "easy", "medium", "hard", "perfect"
    level_label: str  # "" for a human, else the level in words


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
    thinking: bool
    #: No square takes a letter now (a computer's turn or thinking, the game over, another
    #: device's turn): set by :func:`session_view`; the puzzle panel decides its own.
    locked: bool = False


def player_name(lang: str, seat: int, kind: str = "human") -> str:
    """Display name of ``seat`` (0-based): ``"Player 1"``, or ``"Computer 2"`` for a computer."""
    if kind != "human":
        return text(lang, "player.computer", n=seat + 1)
    return text(lang, "player.name", n=seat + 1)


def seat_choice(lang: str, kind: str) -> str:
    """The label of ``kind`` (``"human"`` or a level) as a choice in the settings' seat menu.

    The catalog's level text (``level.<kind>``, lowercase where it continues a sentence or sits
    under a name: "easy") with a first capital, as menu items are written ("Easy", "Mensch",
    "Facile"); Turkish maps i to İ. Scripts without case (Arabic, Hindi) are unchanged.
    """
    return capitalised(lang, text(lang, f"level.{kind}"))


def capitalised(lang: str, label: str) -> str:
    """``label`` with a first capital, as a menu item or a table's cell starts ("easy" ->
    "Easy"; Turkish maps i to İ); scripts without case (Arabic, Hindi) are unchanged."""
    if not label:
        return label
    first = label[0]
    upper = "\u0130" if lang == "tr" and first == "i" else first.upper()
    return upper + label[1:] if len(upper) == 1 else label


class _Kinds(list[str]):
    """Each seat's kind, carrying the names given (``""`` for none)."""

    names: tuple[str, ...] = ()


def _kinds(
    state: GameState, seats: Sequence[str] | None, names: Sequence[str] | None = None
) -> _Kinds:
    kinds = list(seats or ())[: state.rules.players]
    result = _Kinds(kinds + ["human"] * (state.rules.players - len(kinds)))
    result.names = tuple(names or ())
    return result


#: The result lines of a game one person (not named) plays against the computer, when that
#: person wins.
YOU_WIN: Final = {"result.win": "result.you.win", "result.win.simple": "result.you.win.simple"}


def _scores_text(scores: tuple[int, ...]) -> str:
    return "–".join(str(s) for s in scores)


def _join_names(lang: str, names: list[str]) -> str:
    if len(names) <= 2:
        return text(lang, "result.and").join(names)
    return ", ".join(names[:-1]) + text(lang, "result.and") + names[-1]


def result_text(
    state: GameState,
    lang: str,
    seats: Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    outcome: OutcomeArg = FROM_BOARD,
) -> str | None:
    """The result line of a finished game (``None`` while it goes on); ``names``: one per
    seat, ``""`` for the default ("Player 1").

    Args:
        outcome: the game's outcome (:attr:`sos.app.game.session.GameSession.outcome`); by default
            the outcome of ``state`` alone.
    """
    outcome = resolve(state, outcome)
    if outcome is None:
        return None
    kinds = _kinds(state, seats, names)

    scores = _scores_text(outcome.scores)
    known = ending(outcome.termination)
    by = "" if outcome.by is None else _name(lang, outcome.by, kinds)  # who made the ending
    if outcome.winner is not None:
        name = _name(lang, outcome.winner, kinds)
        # the winner's score first, then the others from highest to lowest: "11–2", "9–4–2"
        others = sorted(
            (s for seat, s in enumerate(outcome.scores) if seat != outcome.winner), reverse=True
        )
        scores = _scores_text((outcome.scores[outcome.winner], *others))
        key = known.win_text if known is not None else "result.win"
        if kinds.count("human") == 1 and kinds[outcome.winner] == "human" and name == (
            player_name(lang, outcome.winner)
        ):  # one unnamed person beat the computer: "You win, 20–0"
            key = YOU_WIN.get(key, key)
        return text(lang, key, name=name, scores=scores, by=by)
    if known is not None and known.draw_text:
        return text(lang, known.draw_text, scores=scores, by=by)
    if state.rules.mode == "simple":
        return text(lang, "result.draw.simple")
    if len(outcome.tied) < state.rules.players:
        names = _join_names(lang, [_name(lang, p, kinds) for p in outcome.tied])
        points = outcome.scores[outcome.tied[0]]
        return ntext(lang, "result.draw.between", points, names=names, points=points)
    return text(lang, "result.draw", scores=scores)


def _name(lang: str, seat: int, kinds: _Kinds) -> str:
    names = kinds.names
    if seat < len(names) and names[seat]:
        return names[seat]
    return player_name(lang, seat, kinds[seat])


def status_text(
    state: GameState,
    lang: str,
    seats: Sequence[str] | None = None,
    thinking: bool = False,
    names: Sequence[str] | None = None,
    outcome: OutcomeArg = FROM_BOARD,
) -> str:
    """The status line: whose turn (or that a computer is thinking), that the last mover scored
    and moves again, or the result (``outcome`` as in :func:`result_text`)."""
    result = result_text(state, lang, seats, names, outcome)
    if result is not None:
        return result
    player = state.current_player()
    name = _name(lang, player, _kinds(state, seats, names))
    if thinking:
        return text(lang, "status.thinking", name=name)
    records = state.records
    if records and records[-1].lines and records[-1].player == player:
        points = len(records[-1].lines)
        return ntext(lang, "status.scored", points, name=name, points=points)
    return text(lang, "status.turn", name=name)


def view_model(
    state: GameState,
    lang: str = "en",
    seats: Sequence[str] | None = None,
    thinking: bool = False,
    names: Sequence[str] | None = None,
    outcome: OutcomeArg = FROM_BOARD,
) -> ViewModel:
    """The :class:`ViewModel` of ``state`` with text in ``lang``.

    Args:
        seats: kind of each seat, ``"human"`` or a computer level (default all human).
        thinking: a computer seat is choosing its move (the status line says so).
        names: one name per seat, ``""`` (or missing) for the default "Player 1".
        outcome: the game's outcome (:attr:`sos.app.game.session.GameSession.outcome`); by default
            the outcome of ``state`` alone (a puzzle's position).
    """
    outcome = resolve(state, outcome)
    rules = state.rules
    kinds = _kinds(state, seats, names)
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
    current = state.current_player()
    players = []
    for seat, score in enumerate(state.scores):
        kind = kinds[seat]
        name = _name(lang, seat, kinds)
        style = PLAYER_STYLES[seat % len(PLAYER_STYLES)]
        style_words = text(lang, f"player.style.{seat % len(PLAYER_STYLES)}")
        level = "" if kind == "human" else text(lang, f"level.{kind}")
        if kind == "human":
            label = ntext(lang, "score.label", score, name=name, score=score, style=style_words)
        else:
            label = ntext(
                lang,
                "score.label.computer",
                score,
                name=name,
                level=level,
                score=score,
                style=style_words,
            )
        players.append(
            PlayerView(
                index=seat,
                name=name,
                score=score,
                current=seat == current,
                winner=outcome is not None and outcome.winner == seat,
                style=style,
                label=label,
                kind=kind,
                level_label=level,
            )
        )
    return ViewModel(
        rows=rules.rows,
        cols=rules.cols,
        mode=rules.mode,
        cells=tuple(cells),
        lines=lines,
        players=tuple(players),
        status=status_text(state, lang, seats, thinking and outcome is None, names, outcome),
        game_over=outcome is not None,
        result=result_text(state, lang, seats, names, outcome),
        board_label=text(lang, "board.label", rows=rules.rows, cols=rules.cols),
        current_player=current,
        thinking=thinking and outcome is None,
    )


def lines_of(state: GameState) -> list[tuple[SosLine, int]]:
    """Every SOS completed in this game with the seat that scored it, oldest first."""
    return [(line, record.player) for record in state.records for line in record.lines]


def hint_text(
    state: GameState,
    lang: str,
    action: Action,
    value: float,
    exact: bool,
    result: int | None = None,
) -> str:
    """The hint line: the suggested move and what it is worth for the player to move.

    It claims no more than the search knows: "perfect play" with the margin only when the
    value is proven, "proven" with the result (win / draw / loss) when only that is proven,
    otherwise an estimate marked as one.

    Args:
        action: the suggested action.
        value: for the player to move — with ``exact`` and two players, the solver's value
            (general mode: own future points minus the opponent's; simple mode: +1/0/-1);
            otherwise the search's estimate of own future points minus the others'.
        exact: the value is proven (perfect play), not an estimate.
        result: with two players, the proven result for the player to move (+1 / 0 / -1,
            counting the points already scored; :attr:`sos.ai.agents.Analysis.result`), or
            ``None`` when it is not proven.
    """
    move = text(
        lang, "hint.move", letter=action.letter, square=square_name(action.row, action.col)
    )
    me = state.current_player()
    two = state.rules.players == 2 and me >= 0
    if exact and two:
        if state.rules.mode == "simple":
            key = "win" if value > 0 else "loss" if value < 0 else "draw"
            return f"{move} {text(lang, f'hint.exact.simple.{key}')}"
        margin = state.scores[me] - state.scores[1 - me] + round(value)
        if margin > 0:
            return f"{move} {ntext(lang, 'hint.exact.win', margin, points=margin)}"
        if margin < 0:
            return f"{move} {ntext(lang, 'hint.exact.loss', -margin, points=-margin)}"
        return f"{move} {text(lang, 'hint.exact.draw')}"
    if result is not None and two:
        key = "win" if result > 0 else "loss" if result < 0 else "draw"
        return f"{move} {text(lang, f'hint.proven.{key}')}"
    if two and state.rules.mode == "general":
        # Two players: the predicted final score difference (lead plus future points).
        final = state.scores[me] - state.scores[1 - me] + value
        points = round(abs(final), 1)
        shown = decimal(lang, points)
        if points < 0.5:
            return f"{move} {text(lang, 'hint.estimate2.even')}"
        key = "ahead" if final > 0 else "behind"
        return f"{move} {text(lang, f'hint.estimate2.{key}', points=shown)}"
    if two:  # simple mode: the search's estimate of who makes the first SOS
        key = "ahead" if value >= 0.5 else "behind" if value <= -0.5 else "even"
        return f"{move} {text(lang, f'hint.estimate2.simple.{key}')}"
    points = round(abs(value), 1)
    shown = decimal(lang, points)
    if points < 0.5:
        return f"{move} {text(lang, 'hint.estimate.even')}"
    key = "ahead" if value > 0 else "behind"
    return f"{move} {text(lang, f'hint.estimate.{key}', points=shown)}"


@dataclass(frozen=True)
class PlyView:
    """One action in the move list; ``index`` counts from 0 in the whole line of play; ``label``,
    its accessible name in the page's language, is in the view: a language change redraws it."""

    index: int
    text: str
    points: int
    current: bool  # the position shown is the one right after this action
    future: bool  # undone, can be redone
    label: str = ""


@dataclass(frozen=True)
class TurnView:
    """One player's turn in the move list: the numbers of its moves, from 1 in the whole line
    of play (``first`` to ``last``; a turn with extra moves after scoring spans several), the
    same numbers the status line ("Viewing move 6 of 36"), the review and the list of games
    count."""

    first: int
    last: int
    player: int
    title: str
    plies: tuple[PlyView, ...]


def move_list(
    rules: Rules,
    line: Sequence[Action],
    cursor: int,
    lang: str = "en",
    seats: Sequence[str] | None = None,
    names: Sequence[str] | None = None,
) -> tuple[TurnView, ...]:
    """The move list of the whole line of play (``line``), of which ``cursor`` actions are
    applied to the position shown; later ones are marked ``future`` (redoable).

    Each turn's title numbers its moves, not the turns: ``"12. Player 1"`` for one move,
    ``"12–13. Player 1"`` (en dash) for a turn that scored and moved again, so the numbers
    match "Viewing move 13 of 36", the review's "Move 13" and "36 moves" in the games list.

    Raises:
        sos.state.IllegalActionError: if ``line`` is not a legal game under ``rules``.
    """
    from ..saving.transcript import (
        turns,  # local: record imports state, view is imported by the page
    )

    state = replay(rules, line)
    kinds = _kinds(state, seats, names)
    result = []
    for turn in turns(state):
        plies = tuple(
            PlyView(index, str(action), points, index == cursor - 1, index >= cursor, label)
            for index, action, points in turn.plies
            for label in (text(lang, "moves.ply.label", action=str(action)),)
        )
        first, last = plies[0].index + 1, plies[-1].index + 1
        number = str(first) if first == last else f"{first}–{last}"
        title = text(lang, "moves.turn", number=number, name=_name(lang, turn.player, kinds))
        result.append(TurnView(first, last, turn.player, title, plies))
    return tuple(result)


def announcement(
    state: GameState,
    lang: str = "en",
    seats: Sequence[str] | None = None,
    names: Sequence[str] | None = None,
    outcome: OutcomeArg = FROM_BOARD,
) -> str:
    """What a screen reader hears after the last action: who wrote what where, the points it
    scored, and who moves next (or the result; ``outcome`` as in :func:`result_text`). Empty
    before the first action."""
    records = state.records
    if not records:
        return ""
    kinds = _kinds(state, seats, names)
    last = records[-1]
    name = _name(lang, last.player, kinds)
    square = square_name(last.action.row, last.action.col)
    parts = [text(lang, "announce.move", name=name, letter=last.action.letter, square=square)]
    if last.lines:
        points = len(last.lines)
        parts.append(ntext(lang, "announce.scored", points, name=name, points=points))
    result = result_text(state, lang, seats, names, outcome)
    if result is not None:
        parts.append(result + ".")
    elif last.lines:
        parts.append(text(lang, "announce.again", name=name))
    else:
        next_name = _name(lang, state.current_player(), kinds)
        parts.append(text(lang, "announce.next", name=next_name))
    return " ".join(parts)


def session_view(
    game: GameSession,
    lang: str,
    thinking: bool = False,
    names: Sequence[str] | None = None,
) -> ViewModel:
    """The :class:`ViewModel` of the game shown (``game``): its outcome, whether the board
    takes a letter now (:attr:`ViewModel.locked`), and the status line -- which, while an
    earlier position of the line is shown (:attr:`~sos.app.game.session.GameSession.paused`), says
    so, and that a computer to move there waits for Redo.

    Args:
        thinking: a computer seat is choosing its move.
        names: the players' names, one per seat (``""``: "Player 1"); see
            :func:`sos.app.share.players.names_of`.
    """
    state = game.state
    vm = view_model(state, lang, game.seats, thinking, names, outcome=game.outcome)
    status = vm.status
    if game.paused and not vm.game_over:
        waiting = game.seat_kind(state.current_player()) != "human"
        key = "status.viewing.computer" if waiting else "status.viewing"
        status = text(lang, key, ply=game.cursor, total=len(game.line))
    locked = thinking or not game.human_to_move()
    return replace(vm, status=status, locked=locked)
