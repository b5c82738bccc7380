"""The library of games (sos.app.saving.library): compare-and-set saves between tabs and a full
storage -- under CPython, no browser (the stored format of one game: test_gamerecord.py; the
index: test_library_index.py and test_saves.py)."""

from __future__ import annotations

import pytest

from sos import Action, Rules
from sos.app.saving.library import (
    GAME_PREFIX,
    GameRecord,
    Library,
    MemoryStore,
    StorageError,
)
from sos.rules import MAX_APP_SIZE
from tests.app.support import A1, B1, C1, D4, factory


def test_library_compare_and_set_merges_follows_and_forks() -> None:
    clock, new_id = factory()
    lib = Library(MemoryStore(), clock, new_id)
    base = lib.create(GameRecord("", Rules.square(4), ("human", "human"), (A1,), 1))
    # Tab 2 extends the game; tab 1 (still at rev 1) extends it further: merged.
    two = lib.save(GameRecord(**{**base.__dict__, "line": (A1, C1), "cursor": 2}))
    assert two.status == "saved"
    one = lib.save(GameRecord(**{**base.__dict__, "line": (A1, C1, B1), "cursor": 3}))
    assert one.status == "merged" and one.record.line == (A1, C1, B1)
    # A tab still at rev 1 with a line the stored one already holds: followed, nothing written.
    stale = lib.save(GameRecord(**{**base.__dict__, "line": (A1, C1), "cursor": 2}))
    assert stale.status == "followed" and stale.record.line == (A1, C1, B1)
    # A tab at rev 1 that continued differently: kept as a copy, the stored game untouched.
    fork = lib.save(GameRecord(**{**base.__dict__, "line": (A1, D4), "cursor": 2}))
    assert fork.status == "forked" and fork.record.id != base.id
    assert lib.get(base.id).line == (A1, C1, B1)  # type: ignore[union-attr]
    assert lib.get(fork.record.id).line == (A1, D4)  # type: ignore[union-attr]


def test_full_storage_raises_and_keeps_the_last_good_save() -> None:
    clock, new_id = factory()
    store = MemoryStore(quota=500)
    lib = Library(store, clock, new_id)
    saved = lib.create(GameRecord("", Rules.square(MAX_APP_SIZE), ("human", "human")))
    good = store.get(GAME_PREFIX + saved.id)
    big = GameRecord(**{**saved.__dict__, "line": tuple(
        Action(r, c, "S") for r in range(MAX_APP_SIZE) for c in range(MAX_APP_SIZE)
    )[:100], "cursor": 100})
    with pytest.raises(StorageError) as caught:
        lib.save(big)
    assert caught.value.kind == "full"
    assert store.get(GAME_PREFIX + saved.id) == good
