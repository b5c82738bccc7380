"""Which game a tab shows (sos.app.restore): what a URL restores, game links, the page's
language, the links it makes, refused storage -- under CPython."""

from __future__ import annotations

import json
from urllib.parse import quote

from sos import Rules
from sos.app.app import AppSession, Prefs
from sos.app.saving.library import LEGACY_KEY, PREFS_KEY, MemoryStore
from sos.app.saving.transcript import SavedGame, dump_save
from sos.app.share.embed import painted_id
from sos.app.share.players import MAX_NAME
from sos.app.text.i18n import text
from tests.app.support import A1, B1, C1, D4, factory, tab


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
    shared.commit()
    bad = tab(store, [("size", "5"), ("game", "Sa1Sa1")])  # changes nothing: the last game stays
    assert bad.game.record.id == shared.game.record.id and bad.game.line == [A1, C1]
    assert bad.notice_texts() == [
        "This game link could not be used: move 2 (S@a1) of the shared game is not legal."
        " Nothing was changed."
    ]
    assert tab(MemoryStore(), [("game", "garbage")]).game.line == []  # nothing to show: a new one


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


def test_refused_storage_is_a_notice_except_in_an_embed() -> None:
    clock, new_id = factory()
    page = AppSession(None, clock, new_id, "en")
    page.start([("size", "3")])
    assert page.notice_texts()[-1].startswith("This browser does not let the game save")
    frame = AppSession(None, clock, new_id, "en")
    frame.start([("size", "3"), ("embed", "1")])
    assert frame.notice_texts() == []


def test_back_and_forward_open_the_game_named_in_the_fragment() -> None:
    app = tab(MemoryStore(), [("size", "4")])
    app.game.play(A1)
    app.commit()
    first = app.game.record.id
    app.new_game()
    assert app.open_fragment(f"g={first}") and app.game.record.id == first
    assert not app.open_fragment("g=missing") and app.game.record.id == first
    assert not app.open_fragment(f"x={first}") and not app.open_fragment("")


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


# ------------------------------------------------------------------ an embed's own game
def embed_tab(store: MemoryStore, key: str | None, query: list[tuple[str, str]] | None = None,
              fragment: str = "", old: tuple[str, ...] = ()) -> AppSession:
    """A frame (``embed=1`` and ``query``) with the keys static/boot.js computed."""
    clock, new_id = factory()
    app = AppSession(store, clock, new_id, "en")
    app.start([("embed", "1"), *(query or [])], fragment, key, old)
    return app


def test_each_embed_key_is_its_own_game_and_comes_back() -> None:
    store = MemoryStore()
    one = embed_tab(store, "sos-embed:one")
    one.game.play(A1)
    one.commit()
    two = embed_tab(store, "sos-embed:two")  # a second frame of the page: not frame one's game
    assert two.game.line == [] and two.game.record.id != one.game.record.id
    two.game.play(B1)
    two.commit()
    # The reader comes back: each frame finds its own game (not the library's latest).
    assert embed_tab(store, "sos-embed:one").game.line == [A1]
    assert embed_tab(store, "sos-embed:two").game.line == [B1]
    # The full page still opens the latest game; an embed without a key keeps the old rule.
    assert tab(store).game.line == [B1]
    assert embed_tab(store, None).game.line == [B1]


def test_a_frame_finds_its_game_under_the_keys_an_earlier_version_made() -> None:
    """Issue 50 item 16: the v1 keys were made from the host's referrer, which Firefox withholds
    once the service worker controls the frame; the frame's new key is made without it, and
    the game saved under an old key comes back, kept under the new key from then on."""
    store = MemoryStore()
    old = embed_tab(store, "sos-embed:referrer")  # saved by the earlier version
    old.game.play(A1)
    old.commit()
    empty = embed_tab(store, "sos-embed:noreferrer")  # a later visit without the referrer
    empty.game.play(B1)
    empty.commit()
    back = embed_tab(store, "sos-embed:new", old=("sos-embed:none", "sos-embed:referrer",
                                                  "sos-embed:noreferrer"))
    assert back.game.line == [A1] and back.game.record.id == old.game.record.id
    assert painted_id(store.get("sos-embed:new")) == old.game.record.id  # kept under the new key
    assert painted_id(store.get("sos-embed:referrer")) == old.game.record.id  # the old one stays
    back.game.play(C1)
    back.commit()
    again = embed_tab(store, "sos-embed:new", old=("sos-embed:noreferrer",))  # the new key first
    assert again.game.line == [A1, C1]
    later = embed_tab(store, "sos-embed:new2", old=("bad key", "sos-embed:noreferrer"))
    assert later.game.line == [B1]
    assert embed_tab(store, "sos-embed:new3", old=("sos-embed:none",)).game.line == []


def test_an_embed_record_that_names_no_readable_game_starts_a_new_one() -> None:
    store = MemoryStore()
    store.set("sos-embed:gone", '{"format":"sos-embed","version":1,"id":"nothere"}')
    store.set("sos-embed:bad", "{not json")
    for key in ("sos-embed:gone", "sos-embed:bad", "sos-embed:new"):
        app = embed_tab(store, key, [("size", "5")])
        assert app.game.line == [] and app.game.rules.rows == 5
    # a key that is not one static/boot.js makes is not used
    assert embed_tab(store, "sos-g:x").embed_key is None


def test_a_game_link_in_an_embed_names_its_game_itself() -> None:
    store = MemoryStore()
    app = embed_tab(store, "sos-embed:k", [("size", "4"), ("game", "Sa1")])
    assert app.embed_key is None and app.game.line == [A1]
    assert store.get("sos-embed:k") is None


def test_the_hosts_id_stays_in_the_frames_address() -> None:
    store = MemoryStore()
    app = embed_tab(store, "sos-embed:k", [("size", "4"), ("id", "puzzle-1")])
    assert "&id=puzzle-1#g=" in app.location()
    assert "id=" not in app.full_game_query().replace("gid=", "")
    bad = embed_tab(store, "sos-embed:k", [("size", "4"), ("id", "no spaces")])
    assert "id=" not in bad.location().split("#")[0]
    assert any("Ignored id=no spaces" in n for n in bad.notice_texts())


def test_a_finished_game_left_stepped_back_reopens_at_its_end_with_its_result() -> None:
    """Issue 50, item 4: the browser closed while Review (or the move list) showed an earlier
    move of a finished game: the game comes back at its end, with its result -- by a reload
    (``#g=``), as the latest game, or from the list. A game still in play keeps its undone
    moves for Redo."""
    store = MemoryStore()
    app = tab(store, [("size", "3"), ("mode", "simple")])
    for action in (A1, B1, C1):  # S@a1 O@b1 S@c1: the first SOS ends a simple game
        app.game.play(action)
    assert app.game.outcome is not None
    app.game.go_to(1)  # Review stepped back (each step is saved)
    app.commit()
    game_id = app.game.record.id
    for again in (tab(store, [], f"g={game_id}"), tab(store)):
        assert again.game.record.id == game_id
        assert again.game.cursor == 3 and again.game.outcome is not None
    other = tab(store, [("size", "4")])
    assert other.open(game_id) and other.game.cursor == 3
    playing = tab(store, [("size", "4")])
    playing.game.play(A1)
    playing.game.play(D4)
    playing.game.go_to(1)  # an undo in a game in play: Redo waits after a reload
    playing.commit()
    kept = tab(store, [], f"g={playing.game.record.id}")
    assert kept.game.cursor == 1 and len(kept.game.line) == 2


def opened(query: str, store: MemoryStore | None = None) -> AppSession:
    """A tab opened with ``query`` as a browser's ``URLSearchParams`` decodes it."""
    from urllib.parse import parse_qsl

    return tab(store or MemoryStore(), parse_qsl(query.lstrip("?"), keep_blank_values=True))


def test_share_carries_the_players_names_and_old_links_open_as_before() -> None:
    """Issue 50, item 1: Share's link carries the names (``names``, the JSON array of the
    game record's ``# names:`` line), so the friend who opens it sees Alice and Bob; a link
    without names (made before) opens exactly as before; a damaged one says so, and the game
    opens with the usual names."""
    app = tab(MemoryStore(), [("size", "4")])
    app.set_names(("Alice", "Bob & Zoë"))
    app.game.play(A1)
    link = app.share_query()
    assert link == (
        "?size=4&mode=general&players=2&game=Sa1"
        "&names=%5B%22Alice%22%2C%22Bob%20%26%20Zo%C3%AB%22%5D"
    )
    friend = opened(link)
    assert friend.names() == ("Alice", "Bob & Zoë") and friend.game.line == [A1]
    assert friend.notice_texts() == ["Shared game loaded: 1 move."]
    old = opened("?size=4&mode=general&players=2&game=Sa1")  # a link made before names rode
    assert old.names() == ("", "") and old.game.line == [A1]
    assert "names" not in old.game.record.extra
    assert "names" not in tab(MemoryStore(), [("size", "4"), ("game", "Sa1")]).share_query()
    for bad in ('["Alice"]', "[1, 2]", "{", "x" * 5000):
        damaged = opened(link.split("&names=")[0] + "&names=" + quote(bad))
        assert damaged.game.line == [A1] and damaged.names() == ("", "")
        assert damaged.notice_texts()[0] == (
            "The players' names in this link could not be read, so the usual names are shown."
        )
    full = app.full_game_query()  # the embed's "Open the full game" carries them too
    assert "&names=" in full and opened(full).names() == ("Alice", "Bob & Zoë")


def test_hostile_names_in_a_shared_link_are_kept_as_plain_text() -> None:
    """Markup stays text (the page writes names with textContent), bidi controls and control
    characters are dropped, a long name is cut at its last whole word."""
    markup, rtl = '<img src=x onerror="alert(1)">', "\u202eevil\u202c \u0623\u062d\u0645\u062f"
    long = "word " * 60
    query = "?size=3&players=3&game=Sa1&names=" + quote(json.dumps([markup, rtl, long]))
    app = opened(query)
    first, second, third = app.names()
    assert first == markup
    assert second == "evil \u0623\u062d\u0645\u062f"
    assert len(third) <= MAX_NAME and third.endswith("word…")
    assert opened(app.share_query()).names() == app.names()  # shared on: the same names
