"""Fuzzed input in the real page: URLs, saved games, game records, host messages.

Inputs come from tests/fuzz_inputs.py with fixed seeds (the same every run). A page boot costs
2-6 s, so the budget is spent where only a boot can test something:

1. ``BOOTS`` boots of one page, each with a generated/mutated URL (``game=`` included) *and* a
   generated/mutated save put into ``localStorage`` just before: the whole start-up path of
   App (params, share code, save, their interplay). Each must reach ``data-ready`` with no page
   error, show exactly the notices the validators predict (computed here in CPython, one
   sentence each), leave a readable save behind, and accept a legal click (or, with only
   computer seats, make a move by itself).
2. In one boot: game records pasted into the import dialog (loaded, or an error shown with the
   current game kept), then a legal click. In another (the game in a host page's iframe):
   hundreds of messages posted by the host, which must change nothing and break nothing.
3. In the same boot, hundreds more queries, saves and share codes through the pure validators
   under the page's own Pyodide (Python 3.14 in wasm), compared one by one with CPython.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

import pytest
from helpers import EmbedHost
from playwright.sync_api import Frame, Page, expect

from sos.app.app import AppSession, Prefs
from sos.app.saving.library import MemoryStore, load_game
from sos.app.saving.transcript import RecordError, parse_transcript
from sos.app.text.i18n import LANGUAGES
from sos.rules import app_allows
from tests import fuzz_inputs as fz

Opener = Callable[..., Page]

BOOTS = 30
RECORDS = 60
MESSAGES = 300
IN_PAGE = 300  # each of queries, saves, share codes
BROWSER_LANG = "en"  # headless Chromium's navigator.languages here: en-US

GRAB_INTERPRETER = """async () => {
  const { whenDefined } = await import('./static/vendor/pyscript/core.js');
  window.__py = (await whenDefined('py')).interpreter;
}"""
WRITTEN = "button.cell:has-text('S'), button.cell:has-text('O')"


def expected_notices(query: str, fragment: str, storage: dict[str, str]) -> list[str]:
    """The notices the page shows for this URL and storage: the pure session layer's own
    decision (sos.app.app.AppSession.start), run under CPython on the same inputs."""
    ids = (f"cpython{n}" for n in itertools.count())
    app = AppSession(MemoryStore(), lambda: 1.0, lambda: next(ids), BROWSER_LANG)
    app.library.store.data.update(storage)  # type: ignore[attr-defined]
    app.prefs = Prefs.load(storage.get("sos-prefs"))
    pairs = parse_qsl(query.lstrip("?"), keep_blank_values=True)
    app.start(pairs, fragment.lstrip("#"))
    return app.notice_texts()


def _shown_notices(page: Page) -> list[str]:
    if page.get_by_test_id("notice").is_hidden():
        return []
    return [t.strip() for t in page.locator("#notice-list li").all_inner_texts()]


def _check_playable(page: Page | Frame) -> None:
    """A legal click writes a letter; with only computer seats, the computer moves."""
    if page.get_by_test_id("result").is_visible():
        page.get_by_test_id("play-again").click()
    free = page.locator("button.cell:not([aria-disabled])")
    if free.count():
        # The last free square: in the embed view the notice floats over the top rows.
        row, col = free.last.get_attribute("data-row"), free.last.get_attribute("data-col")
        cell = page.locator(f"button.cell[data-row='{row}'][data-col='{col}']")
        cell.click()
        expect(cell).to_have_text(re.compile(r"^[SO]$"))
        return
    if page.get_by_test_id("redo").is_enabled():
        # An earlier position of the game is shown (a save made while browsing the move list),
        # a computer to move: it waits there, and Redo plays on.
        expect(page.get_by_test_id("status")).to_contain_text(
            re.compile("Redo plays on|„Wiederholen“ spielt weiter")
        )
        page.get_by_test_id("redo").click()
    before = page.locator(WRITTEN).count()
    page.wait_for_function(
        f"""() => [...document.querySelectorAll('button.cell')].filter((b) => b.textContent)
                .length > {before}
              || document.querySelector('button.cell:not([aria-disabled])') !== null
              || !document.getElementById('result').hidden""",
        timeout=60_000,
    )


@pytest.mark.unrouted  # keep Chromium's HTTP cache: ~3 s per boot instead of ~5
def test_fuzzed_urls_and_saves_boot_to_a_working_game(
    page: Page, site_url: str, wait_ready: Callable[..., float]
) -> None:
    # The URL as the page found it (it then replaces it with the URL of the game it shows).
    page.add_init_script("window.__opened = [location.search, location.hash]")
    page.goto(site_url + "index.html")
    wait_ready(page)
    for case in range(BOOTS):
        rng = random.Random(6000 + case)
        query = fz.query(rng)
        storage: dict[str, str] = {}
        if rng.random() < 0.6:  # a save of the first version's single slot
            storage["sos-game"] = fz.mutated_save(rng)
        if rng.random() < 0.6:  # a game of the library
            storage["sos-g:fuzz1"] = fz.mutated_library_game(rng)
        fragment = rng.choice(["", "", "#g=fuzz1", "#g=gone", "#" + fz.mutate_text("g=fuzz1", rng)])
        # The storage is set from a page of the same origin that runs no game (an embed waiting
        # for its first tap starts no Python): the previous case's game page saves on its way
        # out, and must be gone before the storage is set.
        page.goto(site_url + "index.html?embed=1")
        expect(page.locator("html")).to_have_attribute("data-runtime", "waiting")
        page.evaluate(
            """(storage) => { localStorage.clear();
              for (const [k, v] of Object.entries(storage)) localStorage.setItem(k, v); }""",
            storage,
        )
        url = site_url + "index.html" + (query if query.startswith("?") else "?" + query)
        page.goto(url + fragment)
        if page.locator('html[data-runtime="waiting"]').count():  # an embed waiting for a tap
            page.get_by_test_id("letter-S").click()  # starts it (a letter, not a move)
        wait_ready(page)
        where = f"case {case}: {query!r}{fragment!r} with {storage!r}"
        # What the page sees: the browser drops tabs and newlines from a URL, for one.
        search, seen_fragment = page.evaluate("window.__opened")
        before = expected_notices(search, seen_fragment, storage)
        assert _shown_notices(page) == before, where
        for notice in _shown_notices(page):
            assert "\n" not in notice and notice.endswith((".", "।"))  # Hindi: a danda, where
        _check_playable(page)
        kept = page.evaluate(
            """() => Object.fromEntries(Object.keys(localStorage)
                     .filter(k => k.startsWith('sos-g:')).map(k => [k, localStorage.getItem(k)]))"""
        )
        assert kept, where
        for key, text_ in kept.items():
            # Whatever came in is kept: a game this version reads, or the entry as it was
            # (damaged or newer: never deleted or written over, issue 25).
            if storage.get(key) != text_:
                load_game(text_)


def _record_outcome(record: str) -> str:
    try:
        state = parse_transcript(record)
    except RecordError:
        return "error"
    if not app_allows(state.rules):
        return "error"
    return f"loaded {state.rules.rows}"


def test_fuzzed_host_messages_are_ignored(page: Page, embed: EmbedHost) -> None:
    """A host page posts junk into the frame -- also the strings Pyodide's own scheduler
    listens for ("_si" once threw in the runtime): nothing changes, nothing breaks."""
    frame, game = embed.open("?size=4&embed=1")
    game.locator("button.cell").first.click()
    before = frame.locator("#board").inner_html(), frame.locator("#move-list").inner_html()
    rng = random.Random(11)
    posted = [*fz.RUNTIME_MESSAGES, *(fz.host_message(rng) for _ in range(MESSAGES))]
    page.evaluate(
        """async (messages) => {
          const target = document.getElementById('game').contentWindow;
          for (const m of messages) target.postMessage(m, '*');
          await new Promise((r) => setTimeout(r, 500)); }""",
        posted,
    )
    after = frame.locator("#board").inner_html(), frame.locator("#move-list").inner_html()
    assert after == before
    _check_playable(frame)


def test_fuzzed_records_and_validators_in_one_page(open_app: Opener) -> None:
    page = open_app("?size=5")
    rng = random.Random(7)

    # -- game records through the import dialog
    for number in range(RECORDS):
        record = fz.mutated_record(rng)
        size_before = page.locator("button.cell").count()
        page.get_by_test_id("record").click()
        page.get_by_test_id("record-text").fill(record)
        page.get_by_test_id("record-import").click()
        where = f"record {number}: {record!r}"
        if _record_outcome(record) == "error":
            expect(page.get_by_test_id("record-message")).not_to_have_text("")
            expect(page.locator("button.cell"), where).to_have_count(size_before)
            expect(page.get_by_test_id("record-text"), where).to_have_value(record)
            page.locator("#record-dialog [data-close]").click()
        else:
            expect(page.locator("#record-dialog")).not_to_have_attribute("open", "")
            size = int(_record_outcome(record).split()[1])
            expect(page.locator("button.cell"), where).to_have_count(size * size)
            expect(page.get_by_test_id("notice")).to_contain_text("Game loaded.")
        expect(page.locator("dialog[open]")).to_have_count(0)
    page.get_by_test_id("new-game").click()
    _check_playable(page)

    # -- the pure validators under the page's Pyodide agree with CPython, input by input
    queries = [fz.query(rng) for _ in range(IN_PAGE)]
    saves = [fz.mutated_save(rng) for _ in range(IN_PAGE)]
    sizes = [rng.randint(3, 8) for _ in range(IN_PAGE)]
    codes = [(size, fz.game_code(rng, size)) for size in sizes]
    page.evaluate(GRAB_INTERPRETER)
    # The page holds only its own language's catalog; the inputs ask for every language.
    page.evaluate(
        """async (langs) => { for (const lang of langs) {
          const response = await fetch(`./static/vendor/i18n/${lang}.mo.gz`);
          __py.globals.set('MO', new Uint8Array(await response.arrayBuffer()));
          __py.globals.set('LANG', lang);
          __py.runPython(
            'import sos.app.text.i18n; sos.app.text.i18n.install(LANG, MO.to_bytes())');
        } }""",
        [lang for lang in LANGUAGES if lang != "en"],
    )
    got = page.evaluate(
        """(inputs) => { __py.globals.set('FUZZ_INPUTS', JSON.stringify(inputs));
          const out = __py.runPython(VALIDATE); __py.globals.delete('FUZZ_INPUTS'); return out; }"""
        .replace("VALIDATE", json.dumps(_VALIDATE)),
        {"queries": queries, "saves": saves, "codes": codes},
    )
    assert json.loads(got) == json.loads(_validate(queries, saves, codes))
    _check_playable(page)


#: Runs in the page's Pyodide and in CPython: a summary of each input's fate.
_VALIDATE = """
import json as _json
from sos import Rules as _Rules
from sos.app.share.params import SEAT_KINDS as _KINDS, parse_params as _parse
from sos.app.saving.transcript import (
    RecordError as _Err, decode_moves as _decode, load_save as _load,
)

def _fate(run):
    try:
        return run()
    except _Err as error:
        return "RecordError"
    except Exception as error:  # any other exception is a bug the test reports
        return f"CRASH {type(error).__name__}: {error}"

def _summary(inputs):
    out = []
    for q in inputs["queries"]:
        p = _parse(q)
        out.append([repr(p.settings), p.texts()])
    for s in inputs["saves"]:
        out.append(_fate(lambda: repr(_load(s, _KINDS)[0])))
    for size, code in inputs["codes"]:
        out.append(_fate(lambda: _decode(code, _Rules(size, size)).to_text()))
    return _json.dumps(out)

_summary(_json.loads(FUZZ_INPUTS))
"""


def _validate(queries: list[str], saves: list[str], codes: list[tuple[int, str]]) -> Any:
    inputs = json.dumps({"queries": queries, "saves": saves, "codes": codes})
    scope: dict[str, Any] = {"FUZZ_INPUTS": inputs}
    exec(compile(_VALIDATE, "<validate>", "exec"), scope)  # the same code as in the page
    return scope["_summary"](json.loads(inputs))
