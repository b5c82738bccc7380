"""One tab's core (sos.app.tab.TabCore): new games, two tabs, storage trouble, the legacy
save, deleting -- under CPython."""

from __future__ import annotations

from sos import Action, Rules
from sos.app.app import AppSession
from sos.app.saving.library import GAME_PREFIX, LEGACY_KEY, MemoryStore, load_game
from sos.app.saving.transcript import SavedGame, dump_save
from sos.rules import MAX_APP_SIZE
from tests.app.support import A1, B1, C1, D4, factory, tab, tab_sharing


def test_new_game_keeps_the_old_one_and_prunes_empty_ones() -> None:
    store = MemoryStore()
    app = tab(store, [("size", "4")])
    app.game.play(A1)
    app.commit()
    old = app.game.record.id
    app.new_game()
    empty = app.game.record.id
    app.new_game()
    ids = {e.id for e in app.entries()}
    assert old in ids and empty not in ids and app.game.record.id in ids


def test_two_tabs_never_lose_a_move() -> None:
    store = MemoryStore()
    one = tab(store, [("size", "4")])
    one.game.play(A1)
    one.commit()
    gid = one.game.record.id
    two = tab_sharing(store, one, f"g={gid}")
    two.game.play(C1)
    assert two.commit() == "saved"
    assert one.external_change(GAME_PREFIX + gid)  # the storage event: tab one follows
    assert one.game.line == [A1, C1]
    # Both continue differently before either hears of the other.
    one.game.play(B1)
    two.game.play(D4)
    assert two.commit() == "saved"
    assert one.commit() == "forked"
    lines = {tuple(r.line) for r in one.library.entries()}
    assert (A1, C1, B1) in lines and (A1, C1, D4) in lines


def test_storage_full_gives_the_notice_once_and_recovers() -> None:
    store = MemoryStore(quota=900)
    app = tab(store, [("size", str(MAX_APP_SIZE))])
    used = sum(len(k) + len(v) for k, v in store.data.items())
    filler = "x" * (900 - used - len("other-app") - 10)
    store.data["other-app"] = filler  # another app of the origin fills the storage
    for r in range(6):
        app.game.play(Action(r, 0, "S"))
        app.commit()
    assert app.storage == "full"
    full = "Storage is full: this game is not being saved. Free space by deleting old games."
    assert app.notice_texts().count(full) == 1
    kept = load_game(store.data[GAME_PREFIX + app.game.record.id])
    # The last good save is untouched: the moves up to the first refused write.
    assert 0 < len(kept.line) < 6 and kept.line == tuple(app.game.line[: len(kept.line)])
    del store.data["other-app"]
    app.game.play(Action(6, 0, "S"))
    assert app.commit() == "saved" and app.storage == "ok" and full not in app.notice_texts()


def test_storage_full_is_said_in_the_pages_language() -> None:
    """Storage another app filled before the first move, a German page: the notice says so
    once, in German (tests/e2e/test_library.py's German case, moved here)."""
    store = MemoryStore(quota=700)
    app = tab(store, [("size", "3"), ("lang", "de")])
    used = sum(len(k) + len(v) for k, v in store.data.items())
    store.data["fill"] = "x" * (700 - used - len("fill"))
    for col in range(3):
        app.game.play(Action(0, col, "S"))
        app.commit()
    assert app.storage == "full"
    assert app.notice_texts() == [
        "Der Speicher ist voll: Dieses Spiel wird nicht gespeichert. Lösche alte Spiele, um"
        " Platz zu schaffen."
    ]


def test_legacy_save_is_migrated() -> None:
    store = MemoryStore()
    store.data[LEGACY_KEY] = dump_save(
        SavedGame(Rules.square(4), ("human", "human"), "Sa1Sc1", 1, {"lang": "de", "letter": "O"})
    )
    app = tab(store)
    assert app.game.line == [A1, C1] and app.game.cursor == 1
    assert app.lang == "de" and app.prefs.letter == "O"
    assert LEGACY_KEY not in store.data
    broken = MemoryStore()
    broken.data[LEGACY_KEY] = "not json {"
    app = tab(broken)
    assert app.notice_texts() == [
        "The save of an earlier version of SOS could not be read; it is kept unchanged in this "
        "browser."
    ]
    assert broken.data[LEGACY_KEY] == "not json {"  # never delete what cannot be read


def test_delete_and_undelete() -> None:
    store = MemoryStore()
    app = tab(store, [("size", "4")])
    app.game.play(A1)
    app.commit()
    gid = app.game.record.id
    app.new_game()
    removed = app.delete(gid)
    assert removed is not None and gid not in {e.id for e in app.entries()}
    app.undelete(removed)
    assert app.library.get(gid).line == (A1,)  # type: ignore[union-attr]


def test_a_game_by_link_without_moves_is_not_pruned() -> None:
    """Letting the friend start: the game has no move yet but holds this device's seat."""
    store = MemoryStore()
    app = tab(store, [("size", "4")])
    app.new_remote(app.settings(), seat=1, name="Ben")
    remote_id = app.game.record.id
    app.new_game()
    assert remote_id in {e.id for e in app.entries()}


def test_a_move_not_yet_saved_does_not_make_a_tidied_empty_game_a_cleared_storage() -> None:
    """The first frame plays on its empty game while the second frame's start tidies that game
    away, and its focus check runs before its save lands (the page saves a task later): what
    was stored held no move, so it is written again quietly -- the session's record is current
    (it holds the move), the question is what was stored (``last_stored``)."""
    clock, _new_id = factory()
    store = MemoryStore()
    one = AppSession(store, clock, iter(["f1", "f3"]).__next__, "en")
    one.start([("embed", "1"), ("size", "4")])
    one.game.play(A1)  # the save of this move waits for the library's lock
    two = AppSession(store, clock, iter(["f2", "f4"]).__next__, "en")
    two.start([("embed", "1"), ("size", "4")])
    assert GAME_PREFIX + "f1" not in store.data  # tidied: it was stored without a move
    assert one.game.record.line == (A1,) and one.game.last_stored.line == ()
    assert one.ensure_saved(cleared_only=True)  # the focus: written again, with the move ...
    assert load_game(store.data[GAME_PREFIX + "f1"]).line == (A1,)
    assert one.notice_texts() == []  # ... and quietly


def test_a_move_whose_save_waits_is_kept_when_another_game_is_shown() -> None:
    """The page saves a move a task later, under the library's lock; New game, a game opened
    from the list or Back in between must not leave it unsaved -- nor prune its game as empty
    (fresh-clone CI under load: a move, New game at once, then Back found no game)."""
    store = MemoryStore()
    app = tab(store, [("size", "4")])
    first = app.game.record.id
    app.game.play(A1)  # its save waits for the lock
    app.new_game()
    second = app.game.record.id
    assert app.library.get(first).line == (A1,)  # type: ignore[union-attr]
    app.game.play(B1)
    app.set_names(("Ann", "Ben"))
    assert app.open(first) and app.game.line == [A1]
    stored = app.library.get(second)
    assert stored is not None and stored.line == (B1,)
    assert app.open(second) and app.names() == ("Ann", "Ben")


def test_showing_another_game_writes_nothing_for_an_unchanged_one() -> None:
    """An unchanged game is not written again on leaving it: one another tab removed stays
    removed, and one deleted here with a move not yet saved is not brought back."""
    store = MemoryStore()
    app = tab(store, [("size", "4")])
    app.game.play(A1)
    app.commit()
    gid = app.game.record.id
    other = tab_sharing(store, app, f"g={gid}")
    other.delete(gid)
    app.new_game()
    assert gid not in {e.id for e in app.entries()}
    app.game.play(C1)  # not saved yet ...
    shown = app.game.record.id
    app.delete(shown)  # ... and deleted
    assert GAME_PREFIX + shown not in store.data and app.game.record.id != shown


def test_a_game_storage_lost_before_the_tab_heard_of_it_is_written_when_left() -> None:
    """Storage cleared (another tab, or "clear site data") and this tab left its game before
    its ``storage`` event or focus check came: the game is written again as it is left, not
    lost with the clear (found by tests/app/test_tabs_machine.py)."""
    store = MemoryStore()
    app = tab(store, [("size", "4")])
    first = app.game.record.id
    app.game.play(A1)
    app.commit()
    store.data.clear()  # no event yet
    app.new_game()
    assert app.library.get(first).line == (A1,)  # type: ignore[union-attr]
    assert app.open(first) and app.game.line == [A1]


def test_a_copy_written_back_without_this_tabs_moves_is_answered_by_the_focus_check() -> None:
    """Two tabs of one game, storage cleared: the other tab writes its older copy back first;
    this tab's focus check (its storage event still on the way, e.g. a reload at once) finds
    the game stored but without its move, and keeps the move (found by
    tests/app/test_tabs_machine.py)."""
    store = MemoryStore()
    one = tab(store, [("size", "4")])
    gid = one.game.record.id
    two = tab_sharing(store, one, f"g={gid}")
    two.game.play(A1)
    two.commit()
    store.data.clear()
    assert one.ensure_saved(cleared_only=True)  # its copy, without the move
    assert two.ensure_saved(cleared_only=True)
    assert any(line[:1] == (A1,) for e in two.library.entries() for line in e.lines())
