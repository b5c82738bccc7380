"""One rule for "a board the app plays" (sos.rules.app_allows): every way a board reaches the
app -- URL parameters, a saved game, the first version's save, an imported record, a game
link, a puzzle file -- accepts and refuses the same boards, at and just past the limits of
sos/rules.py."""

from __future__ import annotations

import json

import pytest

from sos import Rules, new_game
from sos.app.app import AppSession
from sos.app.learn.puzzle_set import PuzzleFormatError, parse_puzzles
from sos.app.saving.library import LEGACY_KEY, GameRecord, MemoryStore, dump_game, load_game
from sos.app.saving.transcript import RecordError, SavedGame, dump_save, format_transcript
from sos.app.share.params import parse_params
from sos.app.share.remote import RemoteLink, encode_link
from sos.rules import MAX_APP_SIZE, MAX_PLAYERS, MIN_APP_SIZE, MIN_PLAYERS, app_allows
from tests.app.support import factory

#: Boards at and just past each limit (a 2x2 board is no game at all, so not among them).
BOARDS = [
    *(Rules.square(n) for n in (MIN_APP_SIZE - 1, MIN_APP_SIZE) if n >= 3),
    Rules.square(MAX_APP_SIZE, "simple", MAX_PLAYERS),
    Rules.square(MAX_APP_SIZE + 1),
    Rules(MIN_APP_SIZE, MIN_APP_SIZE + 1),
    Rules(MAX_APP_SIZE, MIN_APP_SIZE, players=MIN_PLAYERS),
]


@pytest.mark.parametrize("rules", BOARDS, ids=lambda r: f"{r.rows}x{r.cols}-{r.players}p")
def test_every_door_agrees(rules: Rules) -> None:
    allowed = app_allows(rules)
    seats = ("human",) * rules.players
    # URL parameters (square boards only: the URL has one size)
    if rules.rows == rules.cols:
        parsed = parse_params(f"?size={rules.rows}")
        assert (parsed.settings.size == rules.rows) == allowed
        assert (parsed.notices == []) == allowed
    # a saved game of the library
    text = dump_game(GameRecord("g1", rules, seats))
    if allowed:
        assert load_game(text).rules == rules
    else:
        with pytest.raises(RecordError):
            load_game(text)
    # the first version's single save: migrated into the library, or reported
    store = MemoryStore()
    store.data[LEGACY_KEY] = dump_save(SavedGame(rules, seats, "Sa1", 1, {}))
    app = AppSession(store, *factory(), "en")
    app.start([], "")
    assert (app.game.record.rules == rules) == allowed
    assert (app.notices == []) == allowed
    # an imported game record (one move in)
    state = new_game(rules)
    state.apply(state.legal_actions()[0])
    refused = app.import_transcript(format_transcript(state))
    assert (refused is None) == allowed
    if refused is not None:
        reason = refused.text("en")
        assert f"{MIN_APP_SIZE} × {MIN_APP_SIZE} to {MAX_APP_SIZE} × {MAX_APP_SIZE}" in reason
    # a game link
    link = RemoteLink("g1", rules, (), 0, ("",) * rules.players)
    if allowed:
        encode_link(link)
    else:
        with pytest.raises(ValueError, match="not an app board"):
            encode_link(link)


@pytest.mark.parametrize("size", [MIN_APP_SIZE - 1, MAX_APP_SIZE + 1])
def test_a_puzzle_file_with_a_board_outside_the_limits_is_refused(size: int) -> None:
    puzzle = {"id": "p1", "size": size, "mode": "general", "moves": "", "goal": "win",
              "value": 1, "rating": 1, "line": "", "wrong": []}
    data = json.dumps({"format": "sos-puzzles", "version": 1, "puzzles": [puzzle]})
    with pytest.raises(PuzzleFormatError, match="bad board"):
        parse_puzzles(data)
