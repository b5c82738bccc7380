"""The library's index (sos.app.saving.library_index): what a summary says of a stored game without
replaying it, and the log folded into sos-index once every LOG_MAX writes -- under CPython.
(Its behaviour at 2000 games, after damage and across versions: test_saves.py.)"""

from __future__ import annotations

import json

from sos import Rules
from sos.app.saving.gamerecord import GAME_VERSION, GameRecord, dump_game
from sos.app.saving.library import Library
from sos.app.saving.library_index import (
    DAMAGED,
    EMPTY,
    INDEX_KEY,
    LOG_KEY,
    LOG_MAX,
    NEWER,
    light_summary,
)
from sos.app.saving.store import MemoryStore
from tests.app.support import A1, C1, factory


def test_a_summary_reads_the_json_alone_and_flags_what_cannot_be_opened() -> None:
    game = GameRecord("g1", Rules.square(5, "simple", 3), ("human",) * 3, (A1, C1), 2,
                      updated=7.0)
    summary = light_summary("g1", dump_game(game), 4)
    assert summary == (4, 7.0, 5, "simple", 3, 2, 0)
    empty = GameRecord("g2", Rules.square(4), ("human",) * 2)
    assert light_summary("g2", dump_game(empty), 5).flags == EMPTY
    newer = json.loads(dump_game(game)) | {"version": GAME_VERSION + 1}
    assert light_summary("g1", json.dumps(newer), 6).flags == NEWER
    assert light_summary("g1", "{cut", 7).flags == DAMAGED
    assert light_summary("other", dump_game(game), 8).flags == DAMAGED  # not its key


def test_the_log_is_folded_into_the_index_after_log_max_writes() -> None:
    clock, new_id = factory()
    store = MemoryStore()
    library = Library(store, clock, new_id)
    for _ in range(LOG_MAX):
        library.create(GameRecord("", Rules.square(3), ("human",) * 2, (A1,), 1))
    assert store.get(INDEX_KEY) is None  # every summary still in the log
    assert len(json.loads(store.get(LOG_KEY) or "{}")["games"]) == LOG_MAX
    library.create(GameRecord("", Rules.square(3), ("human",) * 2, (A1,), 1))
    folded = json.loads(store.get(INDEX_KEY) or "{}")
    assert len(folded["games"]) >= LOG_MAX and library.count() == LOG_MAX + 1
    assert len(json.loads(store.get(LOG_KEY) or "{}")["games"]) < LOG_MAX
