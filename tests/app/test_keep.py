"""Asking the browser to keep the library (sos.app.saving.keep): when, once, the answer
remembered, and what "Your games" says -- under CPython."""

from __future__ import annotations

from sos import Action
from sos.app.saving.keep import (
    KEEP_KEY,
    KEEP_MOVES,
    BrowserFacts,
    Keeper,
    KeepState,
    is_safari,
    keep_status,
    library_worth_keeping,
    seven_day_rule,
    worth_keeping,
)
from sos.app.saving.library import MemoryStore, StorageError
from tests.app.support import A1, A3, B1, C1, D4
from tests.app.test_backup import game, library


def test_worth_keeping() -> None:
    assert not worth_keeping(KEEP_MOVES - 1, False)
    assert worth_keeping(KEEP_MOVES, False)
    assert worth_keeping(3, True)  # a short finished game (simple mode)
    lib = library()
    lib.create(game("short", (A1, B1)))
    assert not library_worth_keeping(lib)
    lib.create(game("long", (A1, B1, C1, A3, D4, Action.parse("S@b2"))))
    assert library_worth_keeping(lib)


def test_asked_once_and_the_answer_remembered() -> None:
    store = MemoryStore()
    keeper = Keeper(store)
    assert keeper.should_ask()
    keeper.answered("denied", 1_764_720_000_000.0)
    assert not keeper.should_ask()
    assert store.get(KEEP_KEY) == '{"v":1,"asked":1764720000000.0,"answer":"denied"}'
    again = Keeper(store)  # the next visit
    assert not again.should_ask() and again.state == KeepState(1_764_720_000_000.0, "denied")


def test_unreadable_state_counts_as_never_asked() -> None:
    for raw in ("{cut", '{"v": 2, "asked": 5}', '{"v": 1, "asked": true}', "[]", ""):
        assert KeepState.load(raw) == KeepState()
    assert KeepState.load('{"v": 1, "asked": 5, "answer": "maybe"}') == KeepState(5.0, "")


def test_a_refused_write_keeps_the_answer_for_this_page() -> None:
    class Refusing(MemoryStore):
        def set(self, key: str, value: str) -> None:
            raise StorageError("full")

    keeper = Keeper(Refusing())
    keeper.answered("granted", 9.0)
    assert not keeper.should_ask()
    no_storage = Keeper(None)
    assert no_storage.should_ask()
    no_storage.answered("unsupported", 9.0)
    assert not no_storage.should_ask()


def test_what_your_games_says() -> None:
    def said(storage: str, persisted: bool | None) -> str:
        return keep_status(storage, persisted).text("en")

    assert said("ok", True).startswith("This browser keeps your games")
    assert said("ok", False).startswith("This browser may clear your games")
    assert said("full", False).startswith("This browser may clear your games")
    assert said("ok", None).startswith("This browser cannot be asked to keep your games")
    assert said("refused", None).startswith("This browser does not let the page save")
    for persisted in (True, False, None):
        assert "xport" in said("ok", persisted)  # what to do
        assert keep_status("ok", persisted).text("de")


#: User agent strings as the browsers send them (iPhone Safari 18, iPad in desktop mode,
#: macOS Safari, WebKitGTK's MiniBrowser 2.50, and browsers that are not Safari).
IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
)
IPAD_SAFARI = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.1 Safari/605.1.15"
)
WEBKITGTK = (
    "Mozilla/5.0 (X11; Ubuntu; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/18.0 Safari/605.1.15"
)
NOT_SAFARI = (
    # Chromium on Linux and Android, Edge
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Safari/537.36 Edg/156.0.0.0",
    # Firefox, and Chrome and Firefox on iOS (WebKit inside, their own name outside)
    "Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) CriOS/156.0.0.0 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) FxiOS/153.0 Mobile/15E148 Safari/605.1.15",
    # an app's web view on iOS (no "Version/", no "Safari/")
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Mobile/15E148",
    "",
)


def test_safari_is_told_from_the_others_by_its_user_agent() -> None:
    for agent in (IPHONE_SAFARI, IPAD_SAFARI, WEBKITGTK):
        assert is_safari(agent), agent
    for agent in NOT_SAFARI:
        assert not is_safari(agent), agent


def test_the_seven_day_rule_applies_to_safari_outside_the_home_screen() -> None:
    assert seven_day_rule(BrowserFacts(IPHONE_SAFARI, "browser"))
    assert seven_day_rule(BrowserFacts(IPAD_SAFARI, ""))  # no display-mode feature: a tab
    # on the Home Screen (iOS says so twice), in a dock app or a standalone window: not
    assert not seven_day_rule(BrowserFacts(IPHONE_SAFARI, "standalone", True))
    assert not seven_day_rule(BrowserFacts(IPHONE_SAFARI, "", True))
    assert not seven_day_rule(BrowserFacts(IPHONE_SAFARI, "standalone"))
    for mode in ("fullscreen", "minimal-ui", "window-controls-overlay"):
        assert not seven_day_rule(BrowserFacts(IPAD_SAFARI, mode)), mode
    for agent in NOT_SAFARI:
        assert not seven_day_rule(BrowserFacts(agent, "browser")), agent


def test_your_games_tells_safari_of_the_seven_days_beside_the_export() -> None:
    tab = BrowserFacts(IPHONE_SAFARI, "browser")
    home = BrowserFacts(IPHONE_SAFARI, "standalone", True)
    # whatever persisted() answers: persist() protects from eviction for space only
    for persisted in (True, False, None):
        said = keep_status("ok", persisted, tab)
        assert said.key == "games.keep.safari"
        english = said.text("en")
        assert "7 days" in english and "Home Screen" in english and "export" in english
        assert keep_status("full", persisted, tab).key == "games.keep.safari"
    # a page that cannot save at all says that first; the Home Screen app and other browsers
    # say what they said before
    assert keep_status("refused", None, tab).key == "games.keep.refused"
    assert keep_status("ok", True, home).key == "games.keep.kept"
    assert keep_status("ok", False, home).key == "games.keep.evictable"
    chromium = BrowserFacts(NOT_SAFARI[0], "browser")
    assert keep_status("ok", False, chromium) == keep_status("ok", False)
    for lang in ("de", "ar", "hi"):
        assert keep_status("ok", None, tab).text(lang) != keep_status("ok", None, tab).text("en")
