"""One tab's decisions (sos.app.app.AppSession): what a URL restores, new games, game links,
two tabs, storage trouble, the legacy save, deleting, and the games list -- under CPython."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sos import Action, Rules
from sos.app.app import AppSession, Prefs, SettingsApplied, SettingsForm
from sos.app.i18n import text
from sos.app.library import GAME_PREFIX, LEGACY_KEY, PREFS_KEY, MemoryStore, load_game
from sos.app.record import SavedGame, dump_save
from sos.app.remote import RemoteSession
from sos.rules import MAX_APP_SIZE, MIN_APP_SIZE
from tests.app.support import A1, B1, C1, D4, factory, tab, tab_sharing


def test_url_with_settings_keeps_the_game_in_progress() -> None:
    store = MemoryStore()
    first = tab(store, [("size", "4")])
    first.game.play(A1)
    first.commit()
    kept = first.game.record.id
    second = tab(store, [("size", "7")])  # a link with settings, opened later
    assert second.game.state.rules.rows == 7 and second.game.record.id != kept
    assert [e.id for e in second.entries()][1] == kept
    # The kept game reopens by its id (Back, or the list), moves included.
    third = tab(store, [], f"g={kept}")
    assert third.game.record.id == kept and third.game.line == [A1]


def test_restore_precedence() -> None:
    store = MemoryStore()
    app = tab(store, [("size", "4")])
    app.game.play(A1)
    app.commit()
    game_id = app.game.record.id
    assert tab(store).game.record.id == game_id  # plain URL: the latest game
    assert tab(store, [("size", "5")], f"g={game_id}").game.record.id == game_id  # id wins
    missing = tab(store, [], "g=nothere")
    assert missing.notice_texts() == [
        "That game is not saved in this browser, so another one was opened."
    ]
    shared = tab(store, [("size", "4"), ("game", "Sa1Sc1")])
    assert shared.game.line == [A1, C1] and shared.game.record.id != game_id
    assert "Shared game loaded: 2 moves." in shared.notice_texts()
    bad = tab(store, [("size", "4"), ("game", "Sa1Sa1")])
    assert bad.game.line == [] and bad.notice_texts() == [
        "The shared game link could not be read (move 2 (S@a1) of the shared game is not"
        " legal), so a new game was started."
    ]


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


def test_game_link_updates_opens_or_forks() -> None:
    store = MemoryStore()
    app = tab(store, [("size", "4")])
    for action in (A1, C1):
        app.game.play(action)
    app.commit()
    gid = app.game.record.id
    link = [("size", "4"), ("gid", gid)]
    older = tab(store, [*link, ("game", "Sa1")])
    assert older.game.record.id == gid and older.game.line == [A1, C1]
    assert any("earlier position" in n for n in older.notice_texts())
    newer = tab(store, [*link, ("game", "Sa1Sc1Ob1")])
    assert newer.game.record.id == gid and newer.game.line == [A1, C1, B1]
    forked = tab(store, [*link, ("game", "Sa1Od4")])
    assert forked.game.record.id != gid and forked.game.line == [A1, D4]
    assert tab(store, [], f"g={gid}").game.line == [A1, C1, B1]
    fresh = tab(MemoryStore(), [*link, ("game", "Sa1")])  # another device: same id
    assert fresh.game.record.id == gid


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
    app = tab(store, [("size", "12")])
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


def legacy_store(prefs: Prefs | None = None) -> MemoryStore:
    store = MemoryStore()
    store.data[LEGACY_KEY] = dump_save(
        SavedGame(Rules.square(4), ("human", "human"), "Sa1", 1, {"lang": "de", "letter": "S"})
    )
    if prefs is not None:
        store.data[PREFS_KEY] = prefs.dump()
    return store


def test_the_language_is_decided_once_by_the_start() -> None:
    """The URL's language, else the saved preference, else a first-version save's, else the
    browser's -- decided by the start, before anything is translated."""
    clock, new_id = factory()

    def started(store: MemoryStore, query: list[tuple[str, str]], browser: str) -> AppSession:
        app = AppSession(store, clock, new_id, browser)
        app.start(query)
        return app

    assert started(legacy_store(), [], "en").lang == "de"
    assert started(legacy_store(), [("lang", "fr")], "en").lang == "fr"
    assert started(legacy_store(Prefs(lang="tr")), [], "en").lang == "tr"
    assert started(MemoryStore(), [], "el").lang == "el"
    assert started(MemoryStore(), [("lang", "xx")], "el").lang == "el"


def test_a_links_language_applies_to_that_visit_only() -> None:
    """``?lang=de`` shows the page in German while the user stays on it (new game, rematch,
    a game from the list, a reload of the page's own URL), but is never saved: a later visit
    by ``#g=`` or a friend link follows Settings, then the browser. Only Settings saves."""
    store = MemoryStore()
    app = tab(store, [("size", "4"), ("lang", "de")])
    assert app.lang == "de" and app.prefs.lang is None and PREFS_KEY not in store.data
    app.game.play(A1)
    app.commit()
    first = app.game.record.id
    for step in (app.new_game, app.rematch, lambda: app.open(first)):
        step()
        assert app.lang == "de" and "lang=de" in app.location()
    query, fragment = app.location()[1:].split("#")
    reloaded = tab(store, [tuple(p.split("=", 1)) for p in query.split("&")], fragment)  # type: ignore[misc]
    assert reloaded.lang == "de" and reloaded.game.record.id == first
    # a later visit without lang=: the browser's language (nothing was saved)
    later = tab(store, [], f"g={first}")
    assert later.game.record.id == first and later.lang == "en"
    link = later.share_query()
    assert "lang" not in link
    # Settings saves; a link's language still wins for its visit and leaves the choice alone
    assert later.set_language("fr") and tab(store, [], f"g={first}").lang == "fr"
    visit = tab(store, [("lang", "tr")], f"g={first}")
    assert visit.lang == "tr" and visit.prefs.lang == "fr"
    assert tab(store).lang == "fr"


def test_notices_are_translated_when_shown() -> None:
    """A notice queued in one language reads in another after a change of language."""
    app = tab(MemoryStore(), [("size", "99"), ("game", "Sa1Sa1")])
    english = app.notice_texts()
    assert len(english) == 2 and english[0].startswith("Ignored size=99")
    assert "move 2 (S@a1)" in english[1]
    app.prefs.lang = app.url_lang = "de"
    german = app.notice_texts()
    assert german[0].startswith("size=99 ignoriert") and "Zug 2 (S@a1)" in german[1]
    assert german != english and len(german) == 2


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


# ---------------------------------------------------------------------- the property
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("play"), st.integers(0, 8), st.sampled_from("SO")),
        st.tuples(st.just("undo")),
        st.tuples(st.just("redo")),
        st.tuples(st.just("go"), st.integers(0, 9)),
        st.tuples(st.just("line"), st.integers(0, 3)),
        st.tuples(st.just("new")),
        st.tuples(st.just("reload")),
        st.tuples(st.just("tab2"), st.integers(0, 8), st.sampled_from("SO")),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(OPS, st.sampled_from([("human", "human"), ("human", "easy")]))
def test_every_move_ever_made_stays_reachable(
    ops: list[tuple[object, ...]], seats: tuple[str, ...]
) -> None:
    """Any sequence of moves, undo, redo, go-to, line switches, new games, reloads and a second
    tab's moves keeps every sequence of moves ever played a prefix of some saved line."""
    store = MemoryStore()
    query = [("size", "3"), ("seats", ",".join(seats))]
    app = tab(store, query)
    played: set[tuple[Action, ...]] = set()

    def move(session: AppSession, cell: int, letter: str) -> None:
        game = session.game
        action = Action(cell // 3, cell % 3, letter)
        if game.state.is_legal(action):
            game.play(action)
            played.add(tuple(game.state.history))
            session.commit()

    for op in ops:
        game = app.game
        if op[0] == "play":
            move(app, int(op[1]), str(op[2]))  # type: ignore[arg-type]
        elif op[0] == "undo":
            game.undo() and app.commit()
        elif op[0] == "redo":
            game.redo() and app.commit()
        elif op[0] == "go":
            game.go_to(int(op[1])) and app.commit()  # type: ignore[arg-type]
        elif op[0] == "line":
            game.switch_line(int(op[1])) and app.commit()  # type: ignore[arg-type]
        elif op[0] == "new":
            app.new_game()
        elif op[0] == "reload":
            app = tab_sharing(store, app, f"g={app.game.record.id}")
        elif op[0] == "tab2":
            other = tab_sharing(store, app, f"g={app.game.record.id}")
            move(other, int(op[1]), str(op[2]))  # type: ignore[arg-type]
    kept = [line for r in app.library.entries() for line in r.lines()]
    for history in played:
        assert any(line[: len(history)] == history for line in kept), history


def test_a_game_by_link_without_moves_is_not_pruned() -> None:
    """Letting the friend start: the game has no move yet but holds this device's seat."""
    store = MemoryStore()
    app = tab(store, [("size", "4")])
    app.new_remote(app.settings(), seat=1, name="Ben")
    remote_id = app.game.record.id
    app.new_game()
    assert remote_id in {e.id for e in app.entries()}


def test_list_entries_say_what_each_game_is() -> None:
    store = MemoryStore()
    app = tab(store, [("size", "4"), ("lang", "de")])
    app.game.play(A1)
    app.commit()
    (entry,) = app.entries()
    assert entry.current and not entry.finished
    assert entry.title == "4 × 4 · normal · 2 Spieler"
    assert entry.detail == "1 Zug · Spieler 2 ist am Zug"
    app.game.play(C1)
    assert app.entries()[0].detail == "2 Züge · Spieler 1 ist am Zug"


def test_a_game_left_at_an_earlier_position_reopens_without_the_computer_moving() -> None:
    """Browsing the move list, then reload / Back / the list: the computer to move at the
    shown position must not play over the later moves; the list shows the real game."""
    store = MemoryStore()
    app = tab(store, [("size", "4"), ("seats", "human,medium")])
    for action in (A1, C1, D4, Action(3, 0, "S")):  # human, computer, human, computer
        app.game.play(action)
    app.game.go_to(1)  # the computer is to move there
    app.commit()
    assert app.game.computer_to_move() is None
    assert app.entries()[0].detail == "4 moves · Player 1 vs Computer 2 · medium · Player 1 to move"
    again = tab_sharing(store, app, f"g={app.game.record.id}")
    assert again.game.cursor == 1 and again.game.paused
    assert again.game.computer_to_move() is None
    assert again.game.redo() and again.game.computer_to_move() is None  # a human's turn now


def test_other_lines_name_where_they_leave_the_line() -> None:
    app = tab(MemoryStore(), [("size", "4")])
    for action in (A1, C1, B1):
        app.game.play(action)
    app.game.go_to(1)
    app.game.play(D4)
    assert app.other_lines() == [(0, 1, 3, "S@c1")]


def test_refused_storage_is_a_notice_except_in_an_embed() -> None:
    clock, new_id = factory()
    page = AppSession(None, clock, new_id, "en")
    page.start([("size", "3")])
    assert page.notice_texts()[-1].startswith("This browser does not let the game save")
    frame = AppSession(None, clock, new_id, "en")
    frame.start([("size", "3"), ("embed", "1")])
    assert frame.notice_texts() == []


# ---------------------------------------------------------------------- the dialogs
def form(**changes: object) -> SettingsForm:
    values: dict[str, object] = {
        "size": "5",
        "mode": "simple",
        "players": "2",
        "seats": ("human", "hard"),
        "lang": "en",
        "theme": "auto",
    }
    values.update(changes)
    return SettingsForm(**values)  # type: ignore[arg-type]


def test_settings_start_a_new_game_and_keep_the_old_one() -> None:
    app = tab(MemoryStore(), [("size", "4")])
    app.game.play(A1)
    app.commit()
    old = app.game.record.id
    applied = app.apply_settings(form())
    assert applied == SettingsApplied(False, False, False)
    rules = app.game.rules
    assert (rules.rows, rules.mode, app.game.seats) == (5, "simple", ("human", "hard"))
    assert app.game.record.id != old and old in {e.id for e in app.entries()}
    assert app.notices == []


def test_settings_change_theme_and_language_at_once() -> None:
    store = MemoryStore()
    app = tab(store, [("size", "4"), ("lang", "en")])
    applied = app.apply_settings(form(theme="dark", lang="de"))
    assert applied.theme_changed and applied.language_changed
    assert app.lang == "de" and app.prefs.theme == "dark"
    again = tab(store)  # kept as preferences
    assert again.lang == "de" and again.prefs.theme == "dark"
    assert not app.apply_settings(form(theme="sepia", lang="de")).language_changed
    assert app.prefs.theme == "auto"  # an unknown theme is the default


def test_settings_with_bad_values_say_so_and_replace_the_notices_shown() -> None:
    app = tab(MemoryStore(), [("size", "99")])
    assert len(app.notices) == 1
    app.apply_settings(form(size="2", seats=("human", "perfect"), lang="de"))
    texts = app.notice_texts()
    assert len(texts) == 2 and texts[0].startswith("size=2 ignoriert")
    assert texts[1].startswith("seats=human,perfect ignoriert")  # not on the default 6 x 6
    assert app.game.rules.rows == 6  # the default size


def test_perfect_is_replaced_where_the_solver_does_not_reach() -> None:
    app = tab(MemoryStore())
    app.apply_settings(form(size="8", seats=("perfect", "human")))
    assert app.game.seats == ("hard", "human") and len(app.notices) == 1


def test_settings_with_a_friend_start_a_game_by_link() -> None:
    app = tab(MemoryStore())
    applied = app.apply_settings(
        form(size="3", seats=(), friend=True, friend_seat="1", friend_name=" Ben ")
    )
    game = app.game
    assert applied.remote and isinstance(game, RemoteSession)
    assert game.remote.seat == 1 and game.remote.names[1] == "Ben"
    app.apply_settings(form(size="3", players="2", friend=True, friend_seat="7"))
    assert app.game.remote.seat == 1  # type: ignore[attr-defined]  # (the last seat)


def test_import_record_shows_it_as_a_new_game() -> None:
    app = tab(MemoryStore(), [("size", "4"), ("seats", "human,easy")])
    app.game.play(D4)
    app.commit()
    old = app.game.record.id
    assert app.import_record("SOS 4x4 general, 2 players\n1. S@a1\n2. S@c1\n") is None
    assert app.game.line == [A1, C1] and app.game.record.origin == "record"
    assert app.game.seats == ("human", "easy")  # same player count: the seats are kept
    assert app.notice_texts() == [text("en", "record.loaded")]
    assert old in {e.id for e in app.entries()}
    assert app.import_record("SOS 3x3 general, 3 players\n1. S@a1\n") is None
    assert app.game.seats == ("human",) * 3  # another player count: every seat human


def test_import_record_refuses_what_the_app_cannot_show() -> None:
    app = tab(MemoryStore(), [("size", "4")])
    app.game.play(A1)
    shown = (app.game.record.id, list(app.game.line))
    entries = len(app.entries())
    refused = app.import_record("SOS 4x5 general, 2 players\n1. S@a1\n")
    assert refused is not None
    size_error = text("de", "record.size_error", min=MIN_APP_SIZE, max=MAX_APP_SIZE)
    assert refused.text("de") == text("de", "record.error", error=size_error)
    assert f"{MIN_APP_SIZE} × {MIN_APP_SIZE} bis {MAX_APP_SIZE} × {MAX_APP_SIZE}" in size_error
    bad = app.import_record("SOS 4x4 general, 2 players\n1. S@a1\n2. S@a1\n")
    assert bad is not None and "Line 3: S@a1" in bad.text("en")
    assert "Zeile 3" in bad.text("de")
    assert (app.game.record.id, list(app.game.line)) == shown
    assert len(app.entries()) == entries


def test_back_and_forward_open_the_game_named_in_the_fragment() -> None:
    app = tab(MemoryStore(), [("size", "4")])
    app.game.play(A1)
    app.commit()
    first = app.game.record.id
    app.new_game()
    assert app.open_fragment(f"g={first}") and app.game.record.id == first
    assert not app.open_fragment("g=missing") and app.game.record.id == first
    assert not app.open_fragment(f"x={first}") and not app.open_fragment("")


def test_puzzles_keep_progress_unless_storage_is_refused() -> None:
    store = MemoryStore()
    app = tab(store, [("puzzle", "daily")])
    assert app.wanted_puzzle == "daily"
    assert app.puzzle_session(()).store is store
    clock, new_id = factory()
    refused = AppSession(None, clock, new_id, "en")
    refused.start([])
    assert refused.wanted_puzzle is None
    assert refused.puzzle_session(()).store is None


def test_links_to_the_position_and_to_the_full_game() -> None:
    app = tab(MemoryStore(), [("size", "4"), ("seats", "human,easy"), ("lang", "de")])
    app.game.play(A1)
    assert app.share_query() == "?size=4&mode=general&players=2&seats=human,easy&game=Sa1"
    gid = app.game.record.id
    full = app.full_game_query()
    assert full == f"?size=4&mode=general&players=2&seats=human,easy&lang=de&game=Sa1&gid={gid}"
    # the full page opened with that link shows the same game, moves included
    again = tab(MemoryStore(), [tuple(p.split("=", 1)) for p in full[1:].split("&")])  # type: ignore[misc]
    assert again.game.record.id == gid and again.game.line == [A1]


def test_an_embed_without_storage_gets_a_quiet_note() -> None:
    clock, new_id = factory()
    frame = AppSession(None, clock, new_id, "en")
    frame.start([("embed", "1")])
    note = frame.embed_note()
    assert note is not None and note.text("en") == text("en", "embed.not_saved")
    assert tab(MemoryStore(), [("embed", "1")]).embed_note() is None
