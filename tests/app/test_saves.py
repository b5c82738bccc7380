"""Nothing lost (issue 25) under CPython: content-compared writes between tabs, entries this
version cannot read kept untouched, a cleared storage written again, the index that keeps the
list, New game and the start fast at any size, any clock, and a migration test for every older
save format (docs/saves.md)."""

from __future__ import annotations

import gc
import itertools
import json
import random
import time
from collections.abc import Callable

import pytest

from sos import Action, Rules
from sos.app.app import AppSession
from sos.app.saving.library import (
    EMPTY,
    GAME_PREFIX,
    INDEX_KEY,
    LEGACY_ID,
    LEGACY_KEY,
    LOG_KEY,
    LOG_MAX,
    GameRecord,
    Library,
    MemoryStore,
    Unreadable,
    dump_game,
    load_game,
)
from sos.app.saving.transcript import SavedGame, dump_save
from sos.rules import MAX_APP_SIZE, MIN_APP_SIZE

A1, C1, B1, A3, D4 = (Action.parse(t) for t in ("S@a1", "S@c1", "O@b1", "S@a3", "O@d4"))
_CLOCK = itertools.count(1_000)


class CountingStore(MemoryStore):
    """A MemoryStore that counts the game values read (``sos-g:`` keys), the listings of all
    key names and the characters written per key."""

    def __init__(self) -> None:
        super().__init__()
        self.game_reads = 0
        self.listings = 0
        self.written: dict[str, int] = {}
        self.sets: dict[str, int] = {}

    def get(self, key: str) -> str | None:
        if key.startswith(GAME_PREFIX):
            self.game_reads += 1
        return super().get(key)

    def set(self, key: str, value: str) -> None:
        super().set(key, value)
        self.written[key] = self.written.get(key, 0) + len(value)
        self.sets[key] = self.sets.get(key, 0) + 1

    def keys(self) -> list[str]:
        self.listings += 1
        return super().keys()

    def reset(self) -> None:
        self.game_reads, self.listings, self.written, self.sets = 0, 0, {}, {}


def tab(
    store: MemoryStore, fragment: str = "", clock: Callable[[], float] | None = None
) -> AppSession:
    ids = (f"t{random.randrange(10**9)}x{n}" for n in itertools.count())
    app = AppSession(store, clock or (lambda: float(next(_CLOCK))), lambda: next(ids), "en")
    app.start([], fragment)
    return app


def stored_lines(store: MemoryStore) -> list[tuple[Action, ...]]:
    lines = []
    for key, text in store.data.items():
        if key.startswith(GAME_PREFIX):
            lines.extend(load_game(text).lines())
    return lines


def kept(position: tuple[Action, ...], store: MemoryStore) -> bool:
    return any(line[: len(position)] == position for line in stored_lines(store))


# ---------------------------------------------------------------------- writes compare content
def test_equal_revisions_with_other_content_are_not_overwritten() -> None:
    """The issue's case: two tabs at the same revision; the second write used to win."""
    store = MemoryStore()
    ids = (f"g{n}" for n in itertools.count())
    lib = Library(store, lambda: float(next(_CLOCK)), lambda: next(ids))
    base = lib.create(GameRecord("", Rules.square(4), ("human", "human"), (A1,), 1))
    one = lib.save(GameRecord(**{**base.__dict__, "line": (A1, C1), "cursor": 2}))
    assert one.status == "saved" and one.record.rev == 2
    # Another tab read rev 1 too, then wrote its own rev 2 elsewhere: same rev number, other
    # content and token. A third writer at "rev 2" with a different line must not overwrite.
    two = lib.save(GameRecord(**{**one.record.__dict__, "line": (A1, D4), "token": "other"}))
    assert two.status == "forked"
    assert lib.get(base.id).line == (A1, C1)  # type: ignore[union-attr]
    assert lib.get(two.record.id).line == (A1, D4)  # type: ignore[union-attr]
    # Same content written by someone else: adopted as saved, no copy.
    same = lib.save(GameRecord(**{**one.record.__dict__, "token": "stale"}))
    assert same.status == "saved" and len(lib.recent()) == 2


def test_a_tab_whose_write_was_overwritten_writes_again_on_the_storage_event() -> None:
    """Without a lock, two tabs can read the same stored game before either writes: the
    second write overwrites the first. The storage event tells the first tab, which then
    keeps its moves (here as a copy, and says so)."""
    store = MemoryStore()
    one = tab(store)
    one.game.play(A1)
    one.commit()
    two = tab(store, f"g={one.game.record.id}")
    one.game.play(C1)
    two.game.play(D4)
    stale = two.game.record  # two read the game before one wrote
    one.commit()
    # Two's write ran on the stale read: the library saw the token it expected.
    store.data[GAME_PREFIX + stale.id] = dump_game(replace_token(two.game.to_record(), "zz"))
    assert not kept((A1, C1), store)  # one's move is overwritten in storage...
    assert one.external_change(GAME_PREFIX + stale.id)  # ... until its storage event
    assert kept((A1, C1), store) and kept((A1, D4), store)
    assert one.notice_texts()[-1].startswith("This game was continued differently in another tab")


def replace_token(record: GameRecord, token: str) -> GameRecord:
    return GameRecord(**{**record.__dict__, "token": token})


@pytest.mark.parametrize("seed", range(4))
def test_three_tabs_racing_lose_nothing(seed: int) -> None:
    """Three tabs of one game move in random order; storage events arrive late and in any
    order; each tab's every position ends up in some stored game."""
    rng = random.Random(seed)
    store = MemoryStore()
    first = tab(store)
    tabs = [first, *(tab(store, f"g={first.game.record.id}") for _ in range(2))]
    events: list[tuple[int, str]] = []
    seen: list[tuple[Action, ...]] = []
    for _round in range(30):
        for index in rng.sample(range(3), 3):
            app = tabs[index]
            free = app.game.state.legal_actions()
            if app.game.state.is_terminal() or not free:
                app.new_game()
                continue
            app.game.play(rng.choice(free))
            seen.append(tuple(app.game.state.history))
            app.commit()
            events.extend((other, GAME_PREFIX + app.game.record.id) for other in range(3))
        rng.shuffle(events)
        for other, key in events[: rng.randrange(len(events) + 1)]:
            tabs[other].external_change(key)
            seen.append(tuple(tabs[other].game.state.history))
        events = events[len(events) // 2 :]
    lines = stored_lines(store)
    missing = [p for p in seen if not any(line[: len(p)] == p for line in lines)]
    assert not missing


# ---------------------------------------------------------------------- never delete
def _game(
    game_id: str, line: str = "Sa1Ob1", variations: tuple[str, ...] = ()
) -> dict[str, object]:
    return {
        "format": "sos-game", "version": 2, "id": game_id, "rows": 4, "cols": 4,
        "mode": "general", "players": 2, "seats": ["human", "human"], "line": line,
        "cursor": len(line) // 3, "variations": list(variations), "created": 5.0,
        "updated": 9.0e15, "rev": 3, "origin": "new",
    }  # fmt: skip


DAMAGED = {
    "cut": json.dumps(_game("cut"))[:60],
    "newer": json.dumps({**_game("newer"), "version": 3, "line": {"v3": "Sa1"}}),
    "side": json.dumps(_game("side", variations=("Sa1Sa1",))),  # illegal move in a side line
    "wrongid": json.dumps(_game("other")),
}


def test_unreadable_entries_stay_untouched_listed_and_named() -> None:
    store = MemoryStore()
    for game_id, text in DAMAGED.items():
        store.data[GAME_PREFIX + game_id] = text
    app = tab(store, "g=side")
    assert app.notice_texts() == [
        "The saved game “side” is damaged and cannot be opened. It is kept unchanged: in "
        "“Your games” you can copy or download its saved text."
    ]
    entries, total = app.games()
    assert total == 5
    kinds = {e.id: e.kind for e in entries}
    assert kinds == {"cut": "damaged", "newer": "newer", "side": "damaged", "wrongid": "damaged",
                     app.game.record.id: "game"}  # fmt: skip
    newer = next(e for e in entries if e.id == "newer")
    assert newer.detail.startswith("Saved by a newer version") and "Reload" in newer.detail
    side = next(e for e in entries if e.id == "side")
    assert "illegal" in side.detail or "damaged" in side.detail or "not" in side.detail
    app.game.play(A1)
    app.commit()
    app.new_game()
    for game_id, text in DAMAGED.items():  # never removed, never rewritten
        assert store.data[GAME_PREFIX + game_id] == text
        assert app.library.raw(game_id) == text
    again = tab(store, "g=newer")
    assert again.notice_texts()[0].startswith("The saved game “newer” was written by a newer")


def test_the_most_recent_unreadable_entry_is_named_and_a_readable_one_shown() -> None:
    store = MemoryStore()
    first = tab(store)
    first.game.play(A1)
    first.commit()
    store.data[GAME_PREFIX + "newer"] = DAMAGED["newer"]  # written later by a newer build
    app = tab(store)
    assert app.game.record.id == first.game.record.id and app.game.line == [A1]
    assert app.notice_texts() == [
        "The saved game “newer” was written by a newer version of SOS, which this page cannot "
        "open. Reload the page to update; the game is kept unchanged."
    ]


def test_an_older_build_never_writes_over_a_newer_builds_save() -> None:
    store = MemoryStore()
    app = tab(store)
    app.game.play(A1)
    app.commit()
    game_id = app.game.record.id
    newer = json.dumps({**_game(game_id, "Sa1"), "version": 3})
    store.data[GAME_PREFIX + game_id] = newer  # a newer build in another tab upgraded it
    assert not app.external_change(GAME_PREFIX + game_id)
    app.game.play(C1)
    assert app.commit() == "forked"
    assert store.data[GAME_PREFIX + game_id] == newer
    assert app.game.record.id != game_id and app.game.line == [A1, C1]
    assert "can no longer be read by this version" in app.notice_texts()[-1]
    # A game link for that id does not write over it either.
    lib = app.library
    copy = lib.create(GameRecord(game_id, Rules.square(4), ("human", "human"), (A1,), 1))
    assert copy.id != game_id and store.data[GAME_PREFIX + game_id] == newer


def test_fields_of_a_later_version_are_written_back() -> None:
    store = MemoryStore()
    store.data[GAME_PREFIX + "g1"] = json.dumps({**_game("g1"), "clock": {"a": 1}, "z": [1]})
    app = tab(store, "g=g1")
    app.game.play(C1)
    assert app.commit() == "saved"
    data = json.loads(store.data[GAME_PREFIX + "g1"])
    assert data["clock"] == {"a": 1} and data["z"] == [1] and data["line"] == "Sa1Ob1Sc1"


def test_a_damaged_first_version_save_is_kept() -> None:
    store = MemoryStore()
    store.data[LEGACY_KEY] = '{"format": "sos-save", "ver'
    app = tab(store)
    assert app.notice_texts() == [
        "The save of an earlier version of SOS could not be read; it is kept unchanged in this "
        "browser."
    ]
    assert store.data[LEGACY_KEY] == '{"format": "sos-save", "ver'


def test_a_first_version_save_of_a_board_no_longer_played_is_kept_and_listed() -> None:
    """A version-1 save whose board lies outside today's limits cannot be migrated: it stays
    in ``sos-game`` byte for byte, is listed last as not openable, and only the user's Delete
    removes it (with an undo)."""
    store = MemoryStore()
    text = dump_save(SavedGame(Rules.square(MAX_APP_SIZE + 1), ("human", "human"), "Sa1", 1, {}))
    store.data[LEGACY_KEY] = text
    app = tab(store)
    assert app.notice_texts()[0].startswith("The save of an earlier version of SOS could not")
    app.game.play(A1)
    app.commit()
    entries, total = app.games()
    assert total == 2 and [e.kind for e in entries] == ["game", "damaged"]
    legacy = entries[-1]
    assert legacy.id == LEGACY_ID and legacy.title == "A game saved by the first version of SOS"
    size = MAX_APP_SIZE + 1
    limits = f"{MIN_APP_SIZE} × {MIN_APP_SIZE} to {MAX_APP_SIZE} × {MAX_APP_SIZE}"
    assert f"its board is {size} × {size}, and this version plays {limits}" in legacy.detail
    assert app.games(30, 1)[0] == [legacy] and app.games(1)[0] == entries[:1]
    assert app.library.raw(LEGACY_ID) == text
    tab(store)
    assert store.data[LEGACY_KEY] == text  # every start leaves it as it is
    removed = app.delete(LEGACY_ID)
    assert LEGACY_KEY not in store.data and app.games()[1] == 1
    assert removed is not None
    app.undelete(removed)
    assert store.data[LEGACY_KEY] == text and app.games()[0][-1].id == LEGACY_ID


def test_an_unreadable_entry_can_be_deleted_by_the_user_and_put_back() -> None:
    store = MemoryStore()
    for game_id, text in DAMAGED.items():
        store.data[GAME_PREFIX + game_id] = text
    app = tab(store)
    assert app.games()[1] == 5
    removed = app.delete("cut")
    assert removed is not None and GAME_PREFIX + "cut" not in store.data
    assert [e.id for e in app.games()[0]].count("cut") == 0 and app.games()[1] == 4
    assert app.game.record.id not in DAMAGED  # the game shown stays
    app.undelete(removed)
    assert store.data[GAME_PREFIX + "cut"] == DAMAGED["cut"]
    assert {e.id: e.kind for e in app.games()[0]}["cut"] == "damaged"
    assert app.library.remove_unreadable(app.game.record.id) is None  # a readable game: no


# ---------------------------------------------------------------------- cleared storage
def test_a_cleared_storage_gets_the_game_shown_back() -> None:
    store = MemoryStore()
    one = tab(store)
    one.game.play(A1)
    one.commit()
    one.prefs.letter = "O"
    one.save_prefs()
    two = tab(store)
    two.new_game()
    two.game.play(D4)
    two.commit()
    store.data.clear()  # another tab's localStorage.clear(), or "clear site data"
    one.external_change(None)  # the storage event with key == null
    assert two.ensure_saved()  # the other tab, on focus / visibility
    assert not two.ensure_saved()  # nothing to do the second time
    assert kept((A1,), store) and kept((D4,), store)
    assert json.loads(store.data["sos-prefs"])["letter"] == "O"
    assert tab(store, f"g={one.game.record.id}").game.line == [A1]
    assert set(Library(store, time.time, lambda: "x").recent()) == {
        one.game.record.id,
        two.game.record.id,
    }


def test_a_game_deleted_in_another_tab_is_not_brought_back_by_a_focus() -> None:
    store = MemoryStore()
    one = tab(store)
    one.game.play(A1)
    one.commit()
    gid = one.game.record.id
    two = tab(store)
    two.new_game()
    two.delete(gid)  # the user's choice, in the other tab's list
    assert not one.ensure_saved(cleared_only=True)
    assert GAME_PREFIX + gid not in store.data
    store.data.clear()  # now storage is cleared: the tab that shows it brings it back
    assert one.ensure_saved(cleared_only=True) and kept((A1,), store)
    assert one.notice_texts()[-1] == (
        "The storage of this browser was cleared; the game shown here was saved again."
    )


def test_a_frame_whose_empty_game_another_frame_tidied_says_nothing_of_a_clear() -> None:
    """Two embeds of one origin in one page share storage: the second frame's new game prunes
    the first frame's empty one. That is not a cleared storage: the first frame writes its
    game again on focus or at its move, with no notice."""
    store = MemoryStore()
    one = AppSession(store, lambda: float(next(_CLOCK)), iter(["f1", "f3"]).__next__, "en")
    one.start([("embed", "1"), ("size", "4")])
    two = AppSession(store, lambda: float(next(_CLOCK)), iter(["f2", "f4"]).__next__, "en")
    two.start([("embed", "1"), ("size", "4")])
    assert GAME_PREFIX + "f1" not in store.data  # tidied away by the second frame's start
    assert one.ensure_saved(cleared_only=True)  # the focus: written again ...
    assert GAME_PREFIX + "f1" in store.data
    assert one.notice_texts() == []  # ... quietly
    two.game.play(D4)
    assert two.commit() == "saved" and two.notice_texts() == []
    one.game.play(A1)
    assert one.commit() == "saved" and one.notice_texts() == []
    store.data.clear()  # a real clear: the game with a move is written again, and said so
    assert one.ensure_saved(cleared_only=True) and kept((A1,), store)
    assert one.notice_texts()[-1].startswith("The storage of this browser was cleared")


# ---------------------------------------------------------------------- the index
def _library_of(count: int) -> CountingStore:
    store = CountingStore()
    for n in range(count):
        record = GameRecord(f"g{n}", Rules.square(6), ("human", "human"),
                            tuple(Action.parse(t) for t in ("S@a1", "O@b1", "S@c1")), 3,
                            updated=float(n), created=float(n), rev=1, token="t")  # fmt: skip
        store.data[GAME_PREFIX + record.id] = dump_game(record)
    return store


def test_the_start_the_list_new_game_and_a_move_at_2000_games() -> None:
    """After the first start (which indexes the games), each step reads a few games, never
    lists the key names, and a move writes its game and the index's log, not the index."""
    store = _library_of(2000)
    tab(store)  # the first start after the update builds the index (reads each game once)
    assert json.loads(store.data[INDEX_KEY])["version"] == 2
    store.reset()
    gc.collect()  # a collection of the 2000 games' objects is not the step's own cost
    started = time.process_time()
    app = tab(store)  # a new tab: reads the index once
    start_cpu = time.process_time() - started
    assert app.game.record.id == "g1999"
    assert store.game_reads <= 3 and store.listings == 0
    store.reset()
    gc.collect()  # a collection of the 2000 games' objects is not the step's own cost
    started = time.process_time()
    entries, total = app.games()
    list_cpu = time.process_time() - started
    assert total == 2000 and len(entries) == 30 and entries[0].id == "g1999"
    assert store.game_reads <= 31 and store.listings == 0
    store.reset()
    gc.collect()  # a collection of the 2000 games' objects is not the step's own cost
    started = time.process_time()
    app.new_game()
    new_cpu = time.process_time() - started
    assert store.game_reads <= 5 and store.listings == 0
    store.reset()
    gc.collect()  # a collection of the 2000 games' objects is not the step's own cost
    started = time.process_time()
    app.game.play(A1)
    assert app.commit() == "saved"
    move_cpu = time.process_time() - started
    assert store.listings == 0 and set(store.written) == {LOG_KEY, GAME_PREFIX + app.game.record.id}
    # CPU-time bounds (CPython; the page's figures at 10 000 games: benchmarks/bench_library.py)
    assert start_cpu < 0.1 and list_cpu < 0.05, (start_cpu, list_cpu)
    assert new_cpu < 0.02 and move_cpu < 0.02, (new_cpu, move_cpu)
    more, total = app.games(60)
    assert total == 2001 and [e.id for e in more[:31]] == [e.id for e in app.games(31)[0]]
    assert [e.id for e in app.games(30, 30)[0]] == [e.id for e in more[30:]]


@pytest.mark.parametrize("games", [200, 2000])
def test_a_write_costs_the_same_at_any_library_size(games: int) -> None:
    """The index's log takes each write's summary; it is folded into the index once every
    LOG_MAX writes, so a write's size does not grow with the library."""
    store = _library_of(games)
    lib = Library(store, lambda: float(next(_CLOCK)), lambda: f"n{next(_CLOCK)}")
    lib.summaries()
    store.reset()
    rules, seats = Rules.square(4), ("human", "human")
    made = [lib.create(GameRecord("", rules, seats, (A1,), 1)).id for _ in range(2 * LOG_MAX)]
    assert store.listings == 0
    assert store.sets.get(INDEX_KEY, 0) in (1, 2)  # folded once or twice in 2 x LOG_MAX writes
    assert store.sets[LOG_KEY] == 2 * LOG_MAX
    per_write = store.written[LOG_KEY] / store.sets[LOG_KEY]
    assert per_write < 60 * LOG_MAX, per_write  # about 40 characters a summary, whatever `games`
    assert lib.count() == games + 2 * LOG_MAX
    assert lib.recent(3) == made[:-4:-1]
    assert lib.recent(2, 2 * LOG_MAX) == [f"g{games - 1}", f"g{games - 2}"]
    again = Library(store, time.time, lambda: "x")  # another tab reads the same index
    assert again.recent() == lib.recent() and again.summaries() == lib.summaries()


def test_a_fold_cut_short_or_a_damaged_log_is_repaired_from_the_keys() -> None:
    """The log names the stamp of the folded index it belongs to: a log of another one (a
    fold whose log was not written) or a damaged log is dropped, and the keys are checked."""
    store = _library_of(LOG_MAX + 5)
    lib = Library(store, lambda: float(next(_CLOCK)), lambda: f"n{next(_CLOCK)}")
    assert lib.count() == LOG_MAX + 5  # the first reading folds at once
    made = [lib.create(GameRecord("", Rules.square(4), ("human",) * 2, (A1,), 1)).id for _ in "ab"]
    index = json.loads(store.data[INDEX_KEY])
    store.data[INDEX_KEY] = json.dumps({**index, "stamp": "another"})
    store.reset()
    other = Library(store, time.time, lambda: "x")  # another tab
    assert other.count() == LOG_MAX + 7 and other.recent(2) == made[::-1]
    assert store.listings == 1 and json.loads(store.data[LOG_KEY])["index"] == "another"
    store.data[LOG_KEY] = store.data[LOG_KEY][:-9]  # cut
    third = Library(store, time.time, lambda: "x")
    assert third.count() == LOG_MAX + 7 and third.recent(2) == made[::-1]
    assert json.loads(store.data[LOG_KEY])["format"] == "sos-index-log"


def test_migration_from_index_version_1() -> None:
    """``sos-index`` version 1 (one JSON object rewritten on every write): its order and its
    deleted ids are kept, and it is written again as version 2 with a log."""
    store = _library_of(3)
    games = {"g0": [7, 0.0, 6, "general", 2, 3, 0], "g1": [9, 1.0, 6, "general", 2, 3, 0],
             "g2": [8, 2.0, 6, "general", 2, 3, 0]}  # fmt: skip
    old = {"format": "sos-index", "version": 1, "next": 10, "games": games, "deleted": ["gx"]}
    store.data[INDEX_KEY] = json.dumps(old)
    store.reset()
    app = tab(store)
    assert app.game.record.id == "g1" and store.game_reads <= 2  # by seq, not by time
    assert app.library.was_deleted("gx") and app.library.recent() == ["g1", "g2", "g0"]
    index = json.loads(store.data[INDEX_KEY])
    assert index["version"] == 2 and index["games"]["g2"][0] == 8
    assert json.loads(store.data[LOG_KEY])["deleted"] == ["gx"]


def test_the_index_is_rebuilt_when_damaged_and_a_newer_one_is_not_written() -> None:
    store = _library_of(5)
    store.data[INDEX_KEY] = '{"format": "sos-index", "ver'
    assert tab(store).game.record.id == "g4"
    assert json.loads(store.data[INDEX_KEY])["version"] == 2  # folded again at once
    newer = json.dumps({"format": "sos-index", "version": 3, "games": []})
    store.data[INDEX_KEY] = newer
    app = tab(store)
    assert app.game.record.id == "g4"
    log = store.data[LOG_KEY]
    app.game.play(D4)
    app.commit()
    assert store.data[INDEX_KEY] == newer and store.data[LOG_KEY] == log
    assert len(app.games(None)[0]) == 5
    newer_log = json.dumps({"format": "sos-index-log", "version": 2, "games": {}})
    store.data[LOG_KEY] = newer_log  # a newer build's log: not used, not written
    del store.data[INDEX_KEY]
    app = tab(store)
    app.game.play(Action.parse("S@f6"))
    app.commit()
    assert store.data[LOG_KEY] == newer_log and INDEX_KEY not in store.data
    assert app.game.record.id == "g4" and len(app.games(None)[0]) == 5


def test_games_removed_or_added_behind_the_index_are_found() -> None:
    """The key count tells at once; the key check after the start finds what it cannot (one
    game removed and one added by a build without the index)."""
    store = _library_of(3)
    app = tab(store)
    store.data[GAME_PREFIX + "x8"] = dump_game(GameRecord("x8", Rules.square(5), ("human",) * 2))
    assert "x8" in [e.id for e in app.games(None)[0]]
    del store.data[GAME_PREFIX + "g0"]  # another build deleted it...
    store.data[GAME_PREFIX + "x9"] = dump_game(GameRecord("x9", Rules.square(5), ("human",) * 2))
    ids = [e.id for e in app.games(None)[0]]  # ... and added one: the same key count
    assert "x9" not in ids and app.library.summary("g0") is not None
    assert app.library.check_keys() and not app.library.check_keys()
    ids = [e.id for e in app.games(None)[0]]
    assert "g0" not in ids and "x9" in ids and "x8" in ids


# ---------------------------------------------------------------------- any clock
def test_a_game_saved_with_the_clock_far_ahead_does_not_stay_most_recent() -> None:
    store = MemoryStore()
    year_10000 = 253_402_300_800_000.0
    ahead = tab(store, clock=lambda: year_10000)
    ahead.game.play(A1)
    ahead.commit()
    fixed = tab(store, clock=lambda: 1.7e12)
    fixed.new_game()
    fixed.game.play(D4)
    fixed.commit()
    again = tab(store)
    assert again.game.line == [D4]
    entry = next(e for e in again.games()[0] if e.id == ahead.game.record.id)
    assert entry.updated == year_10000  # shown as it was saved


# ---------------------------------------------------------------------- migrations
def test_migration_from_version_1_the_single_save_slot() -> None:
    store = MemoryStore()
    save = SavedGame(Rules.square(5), ("human", "easy"), "Sa1Ob1", 2, {"lang": "de"})
    store.data[LEGACY_KEY] = dump_save(save)
    app = tab(store)
    assert app.game.line == [A1, Action.parse("O@b1")] and app.game.seats == ("human", "easy")
    assert LEGACY_KEY not in store.data and app.lang == "de"
    assert app.game.record.origin == "saved"


def test_migration_from_version_2_without_token_or_index() -> None:
    """Version 2 as written before the index and the write tokens: read as it is, indexed,
    and given a token at its next write (the version number does not change)."""
    store = MemoryStore()
    old = _game("old1", "Sa1Ob1")
    store.data[GAME_PREFIX + "old1"] = json.dumps(old)
    app = tab(store)
    assert app.game.record.id == "old1" and app.game.record.token == ""
    assert json.loads(store.data[LOG_KEY])["games"]["old1"][5] == 2
    app.game.play(C1)
    assert app.commit() == "saved"
    data = json.loads(store.data[GAME_PREFIX + "old1"])
    assert data["version"] == 2 and data["token"] and data["rev"] == 4


def test_every_entry_this_version_writes_reads_back() -> None:
    store = MemoryStore()
    app = tab(store)
    app.game.play(A1)
    app.commit()
    text = store.data[GAME_PREFIX + app.game.record.id]
    record = load_game(text)
    assert dump_game(record) == text
    assert isinstance(app.library.read("nope"), type(None))
    store.data[GAME_PREFIX + "bad"] = "{"
    assert isinstance(app.library.read("bad"), Unreadable)


#: First-version saves (``sos-game``) that cannot be read, one of each kind (they were the
#: browser test tests/e2e/test_experience.py::test_bad_saved_game_is_reported_and_replaced).
UNREADABLE_FIRST_SAVES = {
    "corrupt": "not json at all {",
    "old-version": json.dumps({"format": "sos-save", "version": 0, "moves": ""}),
    "illegal-moves": json.dumps(
        {"format": "sos-save", "version": 1, "rows": 4, "cols": 4, "mode": "general",
         "players": 2, "seats": ["human", "human"], "moves": "Sa1Sa1", "cursor": 2,
         "prefs": {}}
    ),
    "strip-board": json.dumps(
        {"format": "sos-save", "version": 1, "rows": 1, "cols": 9, "mode": "general",
         "players": 2, "seats": ["human", "human"], "moves": "", "cursor": 0, "prefs": {}}
    ),
}


@pytest.mark.parametrize("kind", sorted(UNREADABLE_FIRST_SAVES))
def test_an_unreadable_first_version_save_is_said_once_kept_and_a_new_game_is_saved(
    kind: str,
) -> None:
    """The start says once that the first version's save could not be read, shows an empty
    game (not the save's moves), keeps ``sos-game`` byte for byte, and the next move is saved
    as a game of today's format."""
    saved = UNREADABLE_FIRST_SAVES[kind]
    store = MemoryStore()
    store.data[LEGACY_KEY] = saved
    app = tab(store)  # the plain address, as a returning player opens it
    (said,) = app.notice_texts()
    assert said.startswith("The save of an earlier version of SOS could not be read"), said
    assert app.game.line == []
    app.game.play(Action.parse("S@b2"))
    assert app.commit() == "saved"
    stored = json.loads(store.data[GAME_PREFIX + app.game.record.id])
    assert stored["version"] == 2 and stored["line"] == "Sb2"
    assert store.data[LEGACY_KEY] == saved  # kept as it was


def test_a_summary_that_fits_where_its_game_does_not_is_taken_back() -> None:
    """Storage full: a move's summary (as long as the one it replaces) fits in the index's
    log, its game does not: the log is put back, so the index never lists moves the stored
    game lacks (an empty game listed with a move, never pruned; found by
    tests/app/test_tabs_machine.py)."""
    store = MemoryStore()
    app = tab(store)
    gid = app.game.record.id
    store.quota = sum(len(k) + len(v) for k, v in store.data.items())
    app.game.play(A1)
    assert app.commit() == "failed"
    fresh = tab(store, f"g={gid}")
    assert fresh.game.line == []
    summary = fresh.library.summary(gid)
    assert summary is not None and summary.moves == 0 and summary.flags & EMPTY
