"""Fuzzing of every input a user or a host page controls (hypothesis).

The plain-text fuzzing of each reader lives next to it (tests/app/test_params.py,
tests/app/test_transcript.py); here the inputs are *structured*: valid queries, share codes,
saves and records from tests/fuzz_inputs.py, then broken in the ways people and programs break them.
The generators draw from ``st.randoms()``, so a failure shrinks to a short list of choices.
Every case must end in a usable result or the module's own error (``RecordError``), never
another exception; and what is accepted must be internally consistent.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sos import Rules
from sos.app.saving.transcript import (
    RecordError,
    decode_moves,
    dump_save,
    encode_moves,
    format_transcript,
    load_save,
    parse_transcript,
)
from sos.app.share.params import SEAT_KINDS, parse_params, to_query
from sos.app.text.i18n import LANGUAGES
from sos.rules import APP_SIZES, MAX_APP_SIZE, MAX_PLAYERS, MIN_APP_SIZE, MIN_PLAYERS
from tests import fuzz_inputs as fz

randoms = st.randoms(use_true_random=False)


def _one_sentence(notice: str) -> bool:
    # a Hindi sentence ends with a danda
    return bool(notice) and "\n" not in notice and notice.rstrip().endswith((".", "।"))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(rng=randoms, lang=st.sampled_from(LANGUAGES))
def test_generated_queries_give_valid_settings_and_sentences(rng: random.Random, lang: str) -> None:
    query = fz.query(rng)
    parsed = parse_params(query, lang)
    s = parsed.settings
    assert s.size in APP_SIZES and s.mode in ("general", "simple")
    assert MIN_PLAYERS <= s.players <= MAX_PLAYERS
    assert len(s.seats) == s.players and all(seat in SEAT_KINDS for seat in s.seats)
    assert "perfect" not in s.seats or s.size * s.size <= 16
    assert s.lang in (None, *LANGUAGES)
    # One notice per bad parameter at most, each one sentence in the page's language.
    assert len(parsed.texts()) <= len(fz.GOOD_VALUES)
    assert all(_one_sentence(n) for n in parsed.texts()), parsed.texts()
    assert all(len(n) < 300 for n in parsed.texts())
    # What was accepted writes back to a query that reads back the same, without notices.
    again = parse_params(to_query(s), lang)
    assert again.texts() == []
    assert again.settings == type(s)(
        s.size, s.mode, s.players, s.seats, s.lang, s.embed, None, s.embed and s.start_now
    )


@settings(max_examples=200, deadline=None)
@given(rng=randoms)
def test_valid_queries_give_no_notice(rng: random.Random) -> None:
    size = rng.randint(MIN_APP_SIZE, MAX_APP_SIZE)
    players = rng.randint(MIN_PLAYERS, MAX_PLAYERS)
    seats = [rng.choice(["human", "easy", "medium", "hard"]) for _ in range(players)]
    lang = rng.choice(LANGUAGES)
    parts = [f"size={size}", f"players={players}", f"seats={','.join(seats)}", f"lang={lang}"]
    rng.shuffle(parts)
    parsed = parse_params("?" + "&".join(parts))
    assert parsed.texts() == []
    assert (parsed.settings.size, parsed.settings.seats) == (size, tuple(seats))


@settings(max_examples=300, deadline=None)
@given(rng=randoms, size=st.integers(3, 8))
def test_mutated_share_codes(rng: random.Random, size: int) -> None:
    code = fz.game_code(rng, size)
    rules = Rules(size, size)
    try:
        state = decode_moves(code, rules)
    except RecordError as error:
        assert str(error)
        return
    assert state.rules == rules
    assert decode_moves(encode_moves(state.history), rules) == state


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(rng=randoms)
def test_mutated_saves_load_consistently_or_are_rejected(rng: random.Random) -> None:
    text = fz.mutated_save(rng)
    try:
        saved, state = load_save(text, SEAT_KINDS)
    except RecordError as error:
        assert str(error)
        return
    assert state.rules == saved.rules and len(state.history) == saved.cursor
    assert len(saved.seats) == saved.rules.players
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in saved.prefs.items())
    again, replayed = load_save(dump_save(saved), SEAT_KINDS)
    assert again == saved and replayed == state


@settings(max_examples=100, deadline=None)
@given(rng=randoms)
def test_valid_saves_always_load(rng: random.Random) -> None:
    data = fz.valid_save(rng)
    saved, state = load_save(json.dumps(data), SEAT_KINDS)
    assert saved.cursor == data["cursor"] and len(state.history) == data["cursor"]


@settings(max_examples=300, deadline=None)
@given(rng=randoms)
def test_mutated_records_import_or_name_the_line(rng: random.Random) -> None:
    text = fz.mutated_record(rng)
    try:
        state = parse_transcript(text)
    except RecordError as error:
        assert error.reason
        assert error.line is None or 1 <= error.line <= len(text.splitlines())
        return
    assert parse_transcript(format_transcript(state)) == state


@pytest.mark.parametrize("seed", range(5))
def test_generators_are_deterministic(seed: int) -> None:
    """The browser test relies on a seed giving the same inputs every run."""
    a, b = random.Random(seed), random.Random(seed)
    assert [fz.query(a) for _ in range(20)] == [fz.query(b) for _ in range(20)]
    assert fz.mutated_save(a) == fz.mutated_save(b)
