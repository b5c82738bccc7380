"""Games by link (sos.app.share.remote): what a device does with a link (new, updated, out of date,
fork, a move for its seat), the session that lets only this device's seat move -- and two
devices playing a whole game, in CPython (the link format itself: test_link.py)."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import strategies as st

from sos import Action, Rules
from sos.app.app import AppSession
from sos.app.game import outcome as outcomes
from sos.app.game.view import result_text
from sos.app.saving.library import GAME_PREFIX, MemoryStore, dump_game, load_game
from sos.app.share import remote
from sos.app.share.params import Settings
from sos.app.share.remote import (
    RemoteLink,
    RemoteSession,
    WrongSeatError,
    decode_link,
    encode_link,
    remote_view,
)
from sos.app.text.i18n import text as translated
from sos.state import IllegalActionError
from tests import fuzz_inputs as fz

randoms = st.randoms(use_true_random=False)


def play_random(rules: Rules, rng: random.Random, plies: int | None = None) -> tuple[Action, ...]:
    return fz.random_game(rules, rng, plies).history


# ---------------------------------------------------------------------------- two devices


def device(
    query: list[tuple[str, str]] | None = None, store: MemoryStore | None = None, lang: str = "en"
) -> AppSession:
    ids = (f"{lang}id{n}" for n in itertools.count())
    clock = itertools.count(1_000)
    app = AppSession(store or MemoryStore(), lambda: float(next(clock)), lambda: next(ids), lang)
    app.start(query or [])
    return app


def reopen(app: AppSession, code: str) -> AppSession:
    """The same device (same storage) opening a link in a new page."""
    return device([("r", code)], app.library.store, app.browser_lang)  # type: ignore[arg-type]


def code_of(app: AppSession) -> str:
    app.commit()
    return encode_link(remote.link_of(app.game.to_record()))


def test_two_devices_play_a_whole_game() -> None:
    anna = device()
    anna.new_remote(Settings(3), 0, "Anna")
    game = anna.game
    assert isinstance(game, RemoteSession) and game.human_to_move()
    game.play(Action.parse("S@a1"))
    assert not game.human_to_move() and game.waiting_for() == 1
    with pytest.raises(WrongSeatError):
        game.play(Action.parse("S@b2"))  # Player 2's turn: not this device's
    first = code_of(anna)

    ben = device([("r", first)], lang="de")
    assert isinstance(ben.game, RemoteSession)
    assert ben.game.remote.seat == 1 and ben.game.remote.names == ("Anna", "")
    assert ben.notice_texts() == ["Spiel per Link geöffnet: Auf diesem Gerät spielst du Spieler 2."]
    assert ben.game.record.id == anna.game.record.id
    assert ben.game.set_name("Ben")
    ben.game.play(Action.parse("S@c1"))
    anna = reopen(anna, code_of(ben))
    assert anna.notice_texts() == ["Link opened: the game now has 2 moves."]
    assert anna.game.remote.names == ("Anna", "Ben")  # type: ignore[attr-defined]
    anna.game.play(Action.parse("S@a3"))
    third = code_of(anna)

    ben = reopen(ben, third)
    ben.game.play(Action.parse("O@b1"))  # scores: Ben moves again
    assert ben.game.human_to_move() and ben.game.state.scores == (0, 1)
    ben.game.play(Action.parse("S@c3"))
    fourth = code_of(ben)

    anna = reopen(anna, fourth)
    assert anna.game.state.scores == (0, 1) and anna.game.human_to_move()
    assert len(anna.game.line) == 5
    # Out of date: never rewinds.
    old = reopen(anna, first)
    assert old.notice_texts() == [
        "This link is older than your game (1 move, yours has 5); your game is shown."
    ]
    assert len(old.game.line) == 5
    # Damaged: refused with its reason, the game is shown as it was, storage untouched.
    before = dict(anna.library.store.data)  # type: ignore[attr-defined]
    bad = reopen(anna, fourth[:-1] + ("A" if fourth[-1] != "A" else "B"))
    assert bad.notice_texts() == [
        "This game link could not be used: it was changed or damaged on the way (its check "
        "code does not match). Nothing was changed."
    ]
    assert bad.game.record.id == anna.game.record.id and len(bad.game.line) == 5
    assert {k: v for k, v in bad.library.store.data.items() if k.startswith(GAME_PREFIX)} == {  # type: ignore[attr-defined]
        k: v for k, v in before.items() if k.startswith(GAME_PREFIX)
    }
    for text in ("O@b2", "O@a2", "O@c2", "O@b3"):
        anna.game.play(Action.parse(text))
    assert anna.game.state.is_terminal()
    last = code_of(anna)
    ben = reopen(ben, last)
    assert result_text(ben.game.state, "en") == result_text(anna.game.state, "en")
    assert result_text(ben.game.state, "en") == "Player 1 wins, 5–1"
    entry = next(e for e in ben.entries() if e.id == anna.game.record.id)
    assert entry.detail.endswith(  # the names given (issue 26)
        "Anna gewinnt, 5–1 · Per Link · du: Ben (Spieler 2) · Anna (Spieler 1)"
    ), entry.detail
    assert decode_link(entry.link).line == decode_link(last).line


def test_a_move_for_this_devices_seat_made_elsewhere_is_refused() -> None:
    anna = device()
    anna.new_remote(Settings(4), 0, "")
    anna.game.play(Action.parse("S@a1"))
    ben = device([("r", code_of(anna))])
    ben.game.play(Action.parse("S@d4"))
    anna = reopen(anna, code_of(ben))
    assert anna.game.human_to_move()
    # Someone with Ben's link moves for Anna too and sends it to her.
    state = anna.game.state.clone()
    state.apply(Action.parse("O@b2"))
    forged = RemoteLink(anna.game.record.id, state.rules, state.history, 1, ("", ""))
    refused = reopen(anna, encode_link(forged))
    assert refused.notice_texts() == [
        "This game link could not be used: it has a move for your seat (Player 1) that was not "
        "made on this device. Nothing was changed."
    ]
    assert len(refused.game.line) == 2 and refused.game.human_to_move()


def test_a_disagreeing_link_keeps_both_games() -> None:
    anna = device()
    anna.new_remote(Settings(4), 0, "")
    anna.game.play(Action.parse("S@a1"))
    code = code_of(anna)
    ben = device([("r", code)])
    ben.game.play(Action.parse("S@d4"))
    # Anna's device meanwhile has another line of the game (e.g. restored from elsewhere).
    other = RemoteLink(anna.game.record.id, Rules.square(4), (Action.parse("O@c3"),), 1, ("", ""))
    forked = reopen(anna, encode_link(other))
    assert forked.notice_texts() == [
        "This link disagrees with the moves of your game; both games are kept."
    ]
    assert forked.game.record.id != anna.game.record.id
    assert forked.game.remote.seat == 0  # type: ignore[attr-defined]
    kept = forked.library.get(anna.game.record.id)
    assert kept is not None and kept.line == (Action.parse("S@a1"),)


def test_undo_takes_back_only_this_devices_moves_since_the_last_link() -> None:
    anna = device()
    anna.new_remote(Settings(4), 0, "")
    game = anna.game
    game.play(Action.parse("S@a1"))
    assert game.can_undo() and game.undo() and game.cursor == 0
    assert game.redo() and game.cursor == 1
    ben = device([("r", code_of(anna))])
    assert not ben.game.can_undo() and not ben.game.undo()  # Anna's move: not Ben's to undo
    ben.game.play(Action.parse("S@d4"))
    assert ben.game.can_undo()
    anna = reopen(anna, code_of(ben))
    assert not anna.game.can_undo()  # Ben's move, received by link
    anna.game.go_to(0)
    assert not anna.game.human_to_move()  # an earlier position is shown: no move from there
    with pytest.raises(WrongSeatError):
        anna.game.play(Action.parse("O@b2"))
    anna.game.go_to(2)
    with pytest.raises(IllegalActionError):
        anna.game.play(Action.parse("O@a1"))  # a written square: the engine's error
    assert anna.game.cursor == 2


def test_a_garbage_link_is_explained_plainly() -> None:
    """``?r=garbage`` (a link cut, mangled, or made by a newer build): one notice in plain
    words, with no format number, and the page shows a game of its own, not a game by link
    (tests/e2e/test_remote_games.py's case, moved here)."""
    app = device([("r", "garbage")])
    said = app.notice_texts()
    assert len(said) == 1, said
    assert said[0] == (
        "This game link could not be used: it is damaged, or it comes from a newer version of"
        " this game (reload the page to get it). Nothing was changed."
    )
    assert "format" not in said[0] and "32" not in said[0]
    assert not remote.is_remote(app.game.record) and app.game.line == []


def test_a_move_in_a_link_that_went_out_cannot_be_taken_back() -> None:
    anna = device()
    anna.new_remote(Settings(4), 0, "")
    game = anna.game
    assert isinstance(game, RemoteSession)
    game.play(Action.parse("S@a1"))
    assert game.can_undo()  # not sent yet: a slip can still be taken back
    assert game.mark_sent() and not game.can_undo() and not game.undo()
    assert not game.mark_sent()  # nothing new to send
    anna.commit()
    stored = load_game(dump_game(anna.game.to_record()))
    assert remote.info(stored).sent == 1
    again = device([], anna.library.store)  # type: ignore[arg-type]
    assert again.open(stored.id) and not again.game.can_undo()  # also after a reload
    damaged = remote.info(replace(stored, extra={**stored.extra, "sent": 9}))
    assert damaged.sent == 0  # more moves than the game has: ignored


def test_remote_data_survives_saving_and_damage() -> None:
    anna = device()
    anna.new_remote(Settings(5, players=3), 2, "Zoë")
    anna.commit()
    stored = load_game(dump_game(anna.game.to_record()))
    assert remote.is_remote(stored) and remote.info(stored) == remote.RemoteInfo(
        2, ("", "", "Zoë"), 0
    )
    damaged = remote.info(replace(stored, extra={"seat": "x", "names": 5, "base": -1}))
    assert damaged == remote.RemoteInfo(0, ("", "", ""), 0)
    with pytest.raises(ValueError):
        remote.new_record(Rules.square(3), 2, "")


def test_three_players_each_device_takes_the_seat_to_move() -> None:
    a = device()
    a.new_remote(Settings(4, players=3), 0, "A")
    a.game.play(Action.parse("S@a1"))
    b = device([("r", code_of(a))])
    assert b.game.remote.seat == 1  # type: ignore[attr-defined]
    b.game.play(Action.parse("S@d4"))
    c = device([("r", code_of(b))])
    assert c.game.remote.seat == 2 and c.game.human_to_move()  # type: ignore[attr-defined]
    c.game.play(Action.parse("O@c3"))
    a = reopen(a, code_of(c))
    assert a.game.human_to_move() and len(a.game.line) == 3


def test_the_panel_says_whose_turn_and_when_to_send() -> None:
    anna = device()
    anna.new_remote(Settings(3), 0, "Anna")
    game = anna.game
    assert isinstance(game, RemoteSession)
    view = remote_view(game, "en")
    assert view.you == "On this device you play Anna (Player 1)."
    assert view.status == "Your turn." and not view.send and view.name == "Anna"
    game.play(Action.parse("S@a1"))
    view = remote_view(game, "en")
    assert view.status == "Player 2 is to move on another device: send this link." and view.send
    game.go_to(0)
    assert remote_view(game, "en").status.startswith("An earlier position is shown")
    game.go_to(1)
    game.record = replace(game.record, line=(), cursor=0)  # (not used by the view)
    for action in ("O@b1", "S@c1", "O@a2", "S@b2", "O@c2", "S@a3", "O@b3", "S@c3"):
        game.state.apply(Action.parse(action))  # fill the board: the game is over
    over = remote_view(game, "de")
    assert over.send and over.status == translated("de", "remote.over")


RESIGN = outcomes.Ending("resign", on_board=False, win_text="result.win", by_player=True,
                         decide=outcomes.best_other)


def test_nobody_ends_the_game_for_the_receiving_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """A link that ends the game by a resignation of this device's seat, made elsewhere, is
    refused like a move for that seat (the one validity rule of kept endings, with the
    receiving seat); the sender's own resignation is taken."""
    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, RESIGN))
    anna = device()
    anna.new_remote(Settings(4), 0, "")
    anna.game.play(Action.parse("S@a1"))
    ben = device([("r", code_of(anna))])
    ben.game.play(Action.parse("S@d4"))
    anna = reopen(anna, code_of(ben))  # Anna's turn
    record = anna.game.record
    # Someone with Ben's link resigns for Anna (to move there) and sends it to her: refused,
    # whether it is the whole game (a first opening elsewhere) or the stored game's next step.
    forged = RemoteLink(record.id, record.rules, record.line, 1, ("", ""), ("resign", 1))
    for stored in (record, None):
        got = remote.receive(stored, forged)
        assert got.kind == "wrong_seat" and got.error is not None and got.error.key == "seat"
    refused = reopen(anna, encode_link(forged))
    assert refused.notice_texts() == [
        "This game link could not be used: it has a move for your seat (Player 1) that was not "
        "made on this device. Nothing was changed."
    ]
    assert refused.game.outcome is None and refused.game.human_to_move()
    # nor in a game the link forks off (another first move), which Anna's seat would play
    other = (Action.parse("O@c3"), Action.parse("S@d4"))
    fork = RemoteLink(record.id, record.rules, other, 1, ("", ""), ("resign", 1))
    got = remote.receive(record, fork)
    assert got.kind == "wrong_seat" and got.record == record
    assert remote.receive(record, replace(fork, ending=None)).kind == "fork"
    # Anna resigns herself: Ben's device takes it (and Anna's own link back changes nothing)
    anna.game.end("resign")
    ben = reopen(ben, code_of(anna))
    assert ben.game.outcome == anna.game.outcome
    assert ben.game.outcome is not None and ben.game.outcome.by == 0
    assert remote.receive(anna.game.to_record(), decode_link(code_of(anna))).kind == "same"


def test_an_ending_kept_in_the_games_data_travels_in_the_link(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game by link that ends off the board (an ending added to ENDINGS for the test: a
    resignation) is over on the friend's device too, with the same outcome, once the link is
    opened there -- whether the link carries new moves or none."""
    from sos.app.share.link import ENDING_VERSION, LINK_VERSION

    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, RESIGN))
    anna = device()
    anna.new_remote(Settings(4), 0, "Anna")
    anna.game.play(Action.parse("S@a1"))
    assert code_of(anna)[0] == remote.ALPHABET[LINK_VERSION]  # no ending: version 1 as ever
    ben = device([("r", code_of(anna))])
    ben.game.play(Action.parse("O@b1"))
    anna = reopen(anna, code_of(ben))
    anna.game.end("resign")  # Anna resigns on her turn: Ben wins
    code = code_of(anna)
    assert code[0] == remote.ALPHABET[ENDING_VERSION]
    assert decode_link(code).ending == ("resign", 1)
    ben = reopen(ben, code)
    assert ben.game.outcome == anna.game.outcome is not None
    assert ben.game.outcome.termination == "resign" and ben.game.outcome.winner == 1
    assert remote_view(ben.game, "en").status == translated("en", "remote.over")  # type: ignore[arg-type]
    assert ben.library.get(ben.game.record.id) is not None
    stored = ben.library.get(ben.game.record.id)
    assert stored is not None and stored.extra.get(outcomes.ENDING_KEY) is not None  # saved


def test_undo_of_a_move_whose_link_was_on_offer_is_asked_first() -> None:
    anna = device()
    anna.new_remote(Settings(4), 0, "")
    game = anna.game
    assert isinstance(game, RemoteSession)
    assert not game.undo_may_fork()  # nothing to take back
    game.play(Action.parse("S@a1"))  # the friend's turn: the link to send is on offer
    assert game.can_undo() and game.undo_may_fork()
    game.undo()
    assert not game.undo_may_fork()
    game.play(Action.parse("S@a1"))
    assert game.mark_sent() and not game.undo_may_fork()  # sent: not to be taken back at all


def test_the_notices_of_a_link_opened_go_at_the_next_move() -> None:
    """"Game by link opened: ..." and "Link opened: ..." only confirm what the player did, as
    "Game loaded." does: they go at the player's next move (issue 50, item 10); a link that
    disagrees or is behind says so until closed."""
    anna = device()
    anna.new_remote(Settings(3), 0, "Anna")
    anna.game.play(Action.parse("S@a1"))
    first = code_of(anna)
    ben = device([("r", first)])
    assert [n.key for n in ben.notices] == ["remote.new"]
    ben.game.play(Action.parse("S@c1"))
    ben.moved_on()
    assert ben.notices == []
    anna = reopen(anna, code_of(ben))
    assert [n.key for n in anna.notices] == ["remote.updated"]
    anna.game.play(Action.parse("S@a3"))
    anna.moved_on()
    assert anna.notices == []
    old = reopen(anna, first)
    old.moved_on()
    assert [n.key for n in old.notices] == ["remote.old"]  # a warning: it stays
