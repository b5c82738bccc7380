"""sos.app.fault: the calm line of a fault, the bug-report details, what a refused write means,
the game in play as a file; and the tab's answers to storage that keeps nothing and to a tab
that comes back (:meth:`sos.app.tab.TabCore.catch_up`)."""

from __future__ import annotations

import json

from sos import Action
from sos.app.backup import Importer
from sos.app.fault import (
    FAULT_NOT_KEPT,
    FAULT_SAVED,
    MAX_DETAILS,
    NOT_KEPT,
    Fault,
    fault_details,
    fault_notice,
    game_file,
    game_file_name,
    has_fault,
    storage_failure,
    with_fault,
)
from sos.app.saving.library import GAME_PREFIX, MemoryStore, StorageError
from sos.app.tab import STORAGE_FULL
from sos.app.text.message import message

from .support import A1, B1, C1, tab, tab_sharing

FAULT = Fault(
    "click #undo-button", "RuntimeError: injected", "Traceback ...\nRuntimeError: injected\n"
)


def test_the_calm_line_says_saved_only_where_storage_keeps_the_game() -> None:
    assert fault_notice("ok") == FAULT_SAVED
    assert fault_notice("full") == FAULT_NOT_KEPT == fault_notice("refused")
    assert "your game is saved" in FAULT_SAVED.text("en")
    assert "export" in FAULT_NOT_KEPT.text("en")


def test_one_line_however_many_faults() -> None:
    notices = [message("notice.followed")]
    once = with_fault(notices, "ok")
    twice = with_fault(with_fault(once, "ok"), "refused")
    assert once == [message("notice.followed"), FAULT_SAVED]
    assert twice == [message("notice.followed"), FAULT_NOT_KEPT]
    assert has_fault(twice) and not has_fault(notices)


def test_details_name_the_fault_and_never_the_moves() -> None:
    text = fault_details(
        FAULT, runtime="Python 3.14", browser="Chromium", storage="ok", lang="de", count=2,
        url="https://x.github.io/sos/index.html?size=5&game=Sa1Ob2#g=abc123",
    )
    assert text.startswith(
        "SOS bug report\nwhat: click #undo-button\nerror: RuntimeError: injected"
    )
    assert "page: /sos/index.html?game&size" in text
    assert "Sa1Ob2" not in text and "abc123" not in text
    assert "faults in this page: 2" in text and "language: de" in text
    assert text.rstrip().endswith("RuntimeError: injected")
    long = fault_details(
        Fault("x", "E", "line\n" * 10_000), runtime="", browser="", url="", storage="ok", lang="en"
    )
    assert len(long) <= MAX_DETAILS and long.endswith("[… cut]\n")


def test_a_full_storage_that_holds_nothing_keeps_nothing() -> None:
    assert storage_failure("full", 0) == "refused"  # a quota of zero: nothing to free
    assert storage_failure("full", 12) == "full"
    assert storage_failure("full", -1) == "full"  # unknown: space may be freed
    assert storage_failure("refused", 3) == "refused"


def test_the_game_file_imports_as_the_game_in_play() -> None:
    game = tab(MemoryStore())
    game.load_state(game.game.state, ("human", "human"), "new")
    for action in (A1, C1, B1):
        game.game.play(action)
    played = game.game.to_record()
    text = game_file(played, 1764650000000.0)
    head, line = text.splitlines()
    assert json.loads(head) == {
        "format": "sos-library", "version": 1, "exported": 1764650000000.0, "games": 1
    }
    assert json.loads(line)["line"] == "Sa1Sc1Ob1" and "token" not in json.loads(line)
    other = tab(MemoryStore())
    for _step in Importer(text, other.library).steps():
        pass
    assert other.library.get(played.id) is not None
    assert other.library.get(played.id).line == played.line  # type: ignore[union-attr]
    assert game_file_name(played, "2026-12-05") == f"sos-game-2026-12-05-{played.id}.jsonl"


class ZeroQuota(MemoryStore):
    """A store whose every write is refused as over quota (some private windows)."""

    def set(self, key: str, value: str) -> None:
        raise StorageError("full")


def test_a_quota_of_zero_says_once_that_nothing_is_kept() -> None:
    app = tab(ZeroQuota(), [("size", "4")])
    assert app.storage == "refused"
    assert app.notices == [NOT_KEPT]
    app.game.play(A1)
    assert app.commit() == "failed"
    app.game.play(C1)
    assert app.commit() == "failed"
    assert app.notices == [NOT_KEPT]  # once
    assert app.game.state.history == (A1, C1)  # the game plays on


def test_an_embed_with_a_quota_of_zero_shows_its_quiet_note_instead() -> None:
    app = tab(ZeroQuota(), [("size", "4"), ("embed", "1")])
    assert app.storage == "refused" and app.notices == []
    assert app.embed_note() == message("embed.not_saved")


class Failing(MemoryStore):
    """A store that starts refusing (``refused`` or ``full``) once :attr:`kind` is set."""

    kind = ""

    def set(self, key: str, value: str) -> None:
        if self.kind:
            raise StorageError(self.kind)
        super().set(key, value)


def test_storage_refused_in_the_middle_of_a_game_says_so_once() -> None:
    store = Failing()
    app = tab(store, [("size", "4")])
    app.game.play(A1)
    assert app.commit() == "saved"
    store.kind = "refused"
    app.game.play(C1)
    assert app.commit() == "failed"
    app.game.play(B1)
    app.commit()
    assert app.storage == "refused" and app.notices == [NOT_KEPT]
    assert app.library.get(app.game.record.id).line == (A1,)  # type: ignore[union-attr]


def test_a_full_storage_with_games_in_it_still_offers_to_free_space() -> None:
    store = Failing()
    app = tab(store, [("size", "4")])
    app.game.play(A1)
    app.commit()
    store.kind = "full"
    app.game.play(C1)
    assert app.commit() == "failed"
    assert app.storage == "full" and app.notices == [STORAGE_FULL]


def test_catch_up_follows_what_another_tab_wrote_meanwhile() -> None:
    store = MemoryStore()
    one = tab(store, [("size", "4")])
    one.game.play(A1)
    one.commit()
    two = tab_sharing(store, one, f"g={one.game.record.id}")
    two.game.play(C1)
    two.commit()
    assert one.catch_up()  # it heard no storage event while frozen
    assert one.game.state.history == (A1, C1)
    assert not one.catch_up()  # nothing new


def test_catch_up_keeps_this_tabs_own_moves() -> None:
    store = MemoryStore()
    one = tab(store, [("size", "4")])
    one.game.play(A1)
    one.commit()
    two = tab_sharing(store, one, f"g={one.game.record.id}")
    two.game.play(C1)
    two.commit()
    d4 = Action.parse("O@d4")
    one.game.play(d4)  # made before the freeze, its save not yet made
    one.catch_up()
    games = [one.library.get(i) for i in one.library.recent()]
    kept = [tuple(g.line) for g in games if g is not None]
    kept += [tuple(v) for g in games if g is not None for v in g.variations]
    assert (A1, C1) in kept  # the other tab's move
    assert (A1, d4) in kept  # and this tab's own


def test_catch_up_writes_a_cleared_game_again() -> None:
    store = MemoryStore()
    one = tab(store, [("size", "4")])
    one.game.play(A1)
    one.commit()
    store.data.clear()
    assert one.catch_up()
    assert store.get(GAME_PREFIX + one.game.record.id) is not None


def test_catch_up_where_storage_keeps_nothing_changes_nothing() -> None:
    app = tab(ZeroQuota(), [("size", "4")])
    app.game.play(A1)
    assert not app.catch_up()
    assert app.game.state.history == (A1,)
