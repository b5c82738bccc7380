"""The link format of games by link (sos.app.share.link): its one writer and reader, each field at
its limits, and each kind of damage with its own error -- in CPython."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sos import Action, Rules
from sos.app.share import link as fmt
from sos.app.share.link import (
    ALPHABET,
    LINK_VERSION,
    LinkError,
    RemoteLink,
    decode_link,
    encode_link,
    write_code,
)
from sos.app.text.i18n import LANGUAGES
from sos.rules import MAX_APP_SIZE, MAX_PLAYERS, MIN_APP_SIZE, MIN_PLAYERS
from sos.state import new_game
from tests import fuzz_inputs as fz

randoms = st.randoms(use_true_random=False)


def play_random(rules: Rules, rng: random.Random, plies: int | None = None) -> tuple[Action, ...]:
    return fz.random_game(rules, rng, plies).history


# ---------------------------------------------------------------------------- links the app
# never makes, written by the format's own writer (sos.app.share.link.write_code) with defaults


def forge(
    size: int = 3,
    mode: int = 0,
    players: int = 2,
    sender: int = 0,
    game_id: str = "g1",
    names: list[bytes] | None = None,
    moves: list[tuple[int, int]] | None = None,
    version: int = LINK_VERSION,
    ending: tuple[str, int | None] | None = None,
) -> str:
    names = names if names is not None else [b""] * players
    return write_code(size, mode, players, sender, game_id, names, moves or [], version, ending)


def reason(code: str) -> LinkError:
    with pytest.raises(LinkError) as caught:
        decode_link(code)
    for lang in LANGUAGES:  # every reason has its text in every language
        assert caught.value.reason_in(lang)
    return caught.value


# ---------------------------------------------------------------------------- the format


def test_forged_link_matches_the_documented_format() -> None:
    code = forge(4, 1, 3, 2, "ab9", [b"Anna", b"", "Zoë".encode()], [(5, 0), (0, 1)])
    # the format of version 1, byte for byte (written once by an independent bit writer that
    # followed the docstring of sos/app/share/link.py): a change here breaks every link sent
    assert code == "B1Wc8Gwmm_QiC3NzCACLTfh1YEoI"
    link = decode_link(code)
    assert link == RemoteLink(
        "ab9",
        Rules(4, 4, "simple", 3),
        (Action(1, 1, "S"), Action(0, 0, "O")),
        2,
        ("Anna", "", "Zoë"),
    )
    assert encode_link(link) == code


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(rng=randoms)
def test_round_trip(rng: random.Random) -> None:
    link = fz.remote_link(rng)
    code = encode_link(link)
    assert code[0] == "B" and all(ch in ALPHABET for ch in code)
    assert decode_link(code) == link


def test_each_field_of_the_format_holds_its_limit() -> None:
    """The link format's fixed widths hold the app's limits (sos.rules): a larger board or more
    players than a field holds needs a new format version, and this test says so."""
    assert fmt.SIZE_BASE <= MIN_APP_SIZE
    assert MAX_APP_SIZE - fmt.SIZE_BASE < 2**fmt.SIZE_BITS, "board size field too narrow"
    assert MAX_APP_SIZE * MAX_APP_SIZE < 2**fmt.MOVES_BITS, "move count field too narrow"
    assert fmt.PLAYERS_BASE <= MIN_PLAYERS
    assert MAX_PLAYERS - fmt.PLAYERS_BASE < 2**fmt.PLAYERS_BITS, "players field too narrow"
    assert MAX_PLAYERS - 1 < 2**fmt.SEAT_BITS, "sender seat field too narrow"


@pytest.mark.parametrize("size", [MIN_APP_SIZE, MAX_APP_SIZE])
@pytest.mark.parametrize("players", [MIN_PLAYERS, MAX_PLAYERS])
def test_full_games_at_the_limits_round_trip(size: int, players: int) -> None:
    rules = Rules.square(size, players=players)
    line = play_random(rules, random.Random(size * players))
    assert len(line) == size * size
    names = ("ü" * (fmt.LINK_NAME_BYTES // 2),) * players  # the longest names a link carries
    link = RemoteLink("z" * 32, rules, line, players - 1, names)
    assert decode_link(encode_link(link)) == link


def test_boards_the_app_does_not_offer_make_no_link() -> None:
    outside = [n for n in (MIN_APP_SIZE - 1, MAX_APP_SIZE + 1) if n >= 3]  # 2x2: no SOS fits
    for rules in [*map(Rules.square, outside), Rules(MIN_APP_SIZE, MIN_APP_SIZE + 1)]:
        with pytest.raises(ValueError, match="not an app board"):
            encode_link(RemoteLink("g1", rules, (), 0, ("", "")))


def test_largest_board_full_game_is_short_enough_for_messengers() -> None:
    rules = Rules.square(MAX_APP_SIZE)
    line = play_random(rules, random.Random(5))
    code = encode_link(RemoteLink("k3j9x0q2ab", rules, line, 0, ("Annalena", "Benjamin")))
    assert len(code) < 300, len(code)


DOCSTRING_EXAMPLE_SIZE = 12  # sos/app/share/link.py: "A full 12 x 12 game ... is 259 characters"


def test_a_full_game_on_the_largest_board_is_short_enough_for_messengers() -> None:
    rng = random.Random(7)
    lengths = []
    largest = Rules.square(MAX_APP_SIZE)
    for _ in range(20):
        line = play_random(largest, rng)
        assert len(line) == largest.cells
        code = encode_link(RemoteLink("k3j9x0q2ab", largest, line, 0, ("Annalena", "Benjamin")))
        lengths.append(len(code))
    assert len(set(lengths)) == 1 and lengths[0] < 300  # fixed width (sos.app.share.link docstring)
    # the docstring's example (a board, not the limit): a full 12 x 12 game is 259 characters
    example = Rules.square(DOCSTRING_EXAMPLE_SIZE)
    names = ("Annalena", "Benjamin")
    code = encode_link(RemoteLink("k3j9x0q2ab", example, play_random(example, rng), 0, names))
    assert len(code) == 259
    url = fmt.link_url("https://someone.github.io/sos/index.html", "x" * 259)
    assert len(url) < 320


def test_names_are_cleaned_and_cut() -> None:
    assert fmt.clean_name("  Anna \n\t Lena\u0000 ") == "Anna Lena"
    assert fmt.clean_name("x" * 40) == "x" * 40
    assert fmt.clean_name("x" * 200) == "x" * (fmt.MAX_NAME - 1) + "…"
    # a longer name is cut at a word, with "…"
    words = "Maximilian-Alexander von Hohenzollern-Sigmaringen " * 3
    assert fmt.clean_name(words) == (
        "Maximilian-Alexander von Hohenzollern-Sigmaringen Maximilian-Alexander von…"
    )
    assert fmt.shorten("Maximilian-Alexander von Hohenzollern", 24) == "Maximilian-Alexander…"
    # a link carries a name up to LINK_NAME_BYTES in UTF-8, cut the same way
    long = RemoteLink("a", Rules.square(3), (), 0, ("😀" * 40, "Ümüş " * 30))
    carried = decode_link(encode_link(long)).names
    assert carried[0] == "😀" * 31 + "…"
    assert carried[1].endswith("Ümüş…") and len(carried[1].encode()) <= fmt.LINK_NAME_BYTES


@pytest.mark.parametrize(
    ("code", "key"),
    [
        ("", "empty"),
        ("B%20x", "unreadable"),
        ("BAAAA.", "unreadable"),
        (forge(version=fmt.ENDING_VERSION + 1), "version"),
        ("AbCdEfGh", "not_link"),
        ("BAAA", "truncated"),
        (forge(size=MAX_APP_SIZE + 1), "rules"),
        (forge(size=fmt.SIZE_BASE + 2**fmt.SIZE_BITS - 1), "rules"),
        (forge(players=MAX_PLAYERS + 1, names=[b""] * (MAX_PLAYERS + 1)), "rules"),
        (forge(sender=2), "sender"),
        (forge(sender=3, players=3, names=[b"", b"", b""]), "sender"),
        (forge(game_id="ab-c"), "game_id"),
        (forge(names=[b"\xff\xfe", b""]), "names"),
        (forge(names=[b"a\x07b", b""]), "names"),
        (forge(names=[b" Anna", b""]), "names"),
        (forge(moves=[(0, 0)] * 10), "too_many"),
        (forge(moves=[(9, 0)]), "off_board"),
        (forge(moves=[(15, 1)]), "off_board"),
        (forge(moves=[(4, 0), (4, 1)]), "taken"),
        # simple mode: the first SOS (S a1, O b1, S c1) ends the game; one more move is too many
        (forge(mode=1, moves=[(0, 0), (1, 1), (2, 0), (8, 0)]), "over"),
    ],
)
def test_each_kind_of_damage_has_its_own_error(code: str, key: str) -> None:
    error = reason(code)
    assert error.key == key, error


def test_illegal_move_errors_name_the_move() -> None:
    error = reason(forge(moves=[(4, 0), (0, 1), (4, 1)]))
    assert str(error) == "move 3 (O@b2) is on square b2, which is already written"
    assert error.reason_in("de") == ("Zug 3 (O@b2) steht auf Feld b2, das schon beschrieben ist")


def test_every_truncation_and_every_changed_character_is_caught() -> None:
    rng = random.Random(3)
    rules = Rules.square(5, players=3)
    code = encode_link(RemoteLink("abc123", rules, play_random(rules, rng, 12), 1, ("A", "B", "")))
    for end in range(1, len(code)):
        assert reason(code[:end]).key == "truncated"
    assert reason(code + "A").key == "too_long"
    kinds = set()
    for i, ch in itertools.product(range(len(code)), ALPHABET):
        if ch != code[i]:
            changed = code[:i] + ch + code[i + 1 :]
            kinds.add(reason(changed).key)  # never accepted
    assert kinds <= {"not_link", "version", "checksum", "truncated", "too_long"}
    last = code[:-1] + ("A" if code[-1] != "A" else "B")
    assert reason(last).key == "checksum"
    # a character changed in the middle is reported as a change, not as "too long"
    middle = len(code) // 2
    changed = code[:middle] + ("A" if code[middle] != "A" else "B") + code[middle + 1 :]
    assert reason(changed).key in {"checksum", "truncated"}
    assert reason(changed + "AB").key in {"checksum", "truncated"}


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(rng=randoms)
def test_mutated_codes_decode_to_legal_games_or_say_why(rng: random.Random) -> None:
    code = fz.remote_code(rng)
    try:
        link = decode_link(code)
    except LinkError as error:
        for lang in LANGUAGES:
            sentence = error.reason_in(lang)
            assert sentence and "\n" not in sentence and len(sentence) < 200
        return
    state = new_game(link.rules)
    for action in link.line:
        state.apply(action)  # every move legal
    assert decode_link(encode_link(link)) == link


def test_a_kept_ending_is_written_as_version_2_and_read_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sos.app.game import outcome as outcomes

    line = (Action(0, 0, "S"),)  # then seat 1 is to move
    with pytest.raises(ValueError):  # not an ending of this build: no link made
        encode_link(RemoteLink("g1", Rules.square(3), line, 0, ("", ""), ("resign", 0)))
    resign = outcomes.Ending("resign", on_board=False, win_text="result.win", by_player=True,
                             decide=outcomes.best_other)
    agreed = outcomes.Ending("agreed", on_board=False, win_text="result.win",
                             draw_text="result.draw")
    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, resign, agreed))
    for ending in (("resign", 0), ("agreed", None)):
        link = RemoteLink("g1", Rules.square(3), line, 1, ("", ""), ending)
        code = encode_link(link)
        assert code[0] == ALPHABET[fmt.ENDING_VERSION] and decode_link(code) == link
    with pytest.raises(ValueError):  # read off the board, never carried
        encode_link(RemoteLink("g1", Rules.square(3), line, 0, ("", ""), ("sos", 0)))
    unknown = forge(moves=[(0, 0)], version=fmt.ENDING_VERSION, ending=("other", None))
    assert reason(unknown).key == "version"  # a newer build's ending: refused as newer
    assert reason(forge(moves=[(0, 0)], version=fmt.ENDING_VERSION, ending=("resign", 3))).key \
        == "version"  # no seat 4 in a two-player game: damage


def test_a_link_carries_only_an_ending_that_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one validity rule of kept endings (sos.app.game.outcome.kept_outcome) is the link's,
    written and read: the one who gave up never wins, and an ending's winner is its rule's."""
    from sos.app.game import outcome as outcomes

    resign = outcomes.Ending("resign", on_board=False, win_text="result.win", by_player=True,
                             decide=outcomes.best_other)
    monkeypatch.setattr(outcomes, "ENDINGS", (*outcomes.ENDINGS, resign))
    line = (Action(0, 0, "S"),)  # seat 1 is to move: it is the one who resigns
    for forged in (("resign", 1), ("resign", None)):  # the resigner wins; a draw
        with pytest.raises(ValueError):
            encode_link(RemoteLink("g1", Rules.square(3), line, 1, ("", ""), forged))
        code = forge(moves=[(0, 0)], sender=1, version=fmt.ENDING_VERSION, ending=forged)
        assert reason(code).key == "version"
    full = [(cell, 0) for cell in range(9)]  # a full board: over already, nobody resigns
    assert reason(forge(moves=full, version=fmt.ENDING_VERSION, ending=("resign", 0))).key \
        == "version"
