"""The game as a player meets it, the same scenarios in Chromium, Firefox and WebKit (issue 40).

Each test runs once per engine (tests/engines/conftest.py); every click and key is a real input
event of the engine's automation (tests/engines/drivers.py). Where an engine lacks something the
game uses, the test checks the path the game takes there instead:

- **JSPI** (WebAssembly stack switching): WebKit has none, and the page hides it where the
  engine has it (docs/crash.md), so every lane runs Pyodide's path without it -- every iPhone's
  path; the game must play all the same.
- **``navigator.storage.persist()``**: Chromium and Firefox have it (and refuse it here to a
  site visited this once); WebKitGTK 2.50 has no ``navigator.storage`` at all. There "Your
  games" says what threatens the games in Safari's engine -- its seven-day rule -- with Export
  beside it; a browser without the API and without that rule is told it cannot be asked.
- **Cutting the network**: the automation of Firefox (BiDi) and WebKitGTK (classic WebDriver)
  has no offline switch here, so the offline test takes the site itself off the network: its
  server is stopped, and it sends ``Cache-Control: no-cache``, so that a page that still starts
  came from the service worker, not from the HTTP cache. That is the same in all three engines.
- **Downloads and file choosers**: neither WebDriver protocol reads a download or fills a file
  chooser the same way; the export's file is read where the page hands it to the browser (the
  Blob given to ``URL.createObjectURL``) and the import gets it as a ``File`` set on the page's
  file input, as a chooser does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from drivers import Engine, Profile, Server

from sos.app.learn.puzzle_set import DATA_PATH, parse_puzzles

ROOT = Path(__file__).resolve().parents[2]

#: The state of the board for a loop that plays a person's seat against the computer:
#: "over" (a result shown), "wait" (the computer's turn, or a move being drawn) or the
#: [row, col] of the first empty square a person may write in.
TURN = """() => {
  const result = document.querySelector('[data-testid=result]');
  if (result && !result.hidden && result.getBoundingClientRect().height > 0) return 'over';
  const board = document.getElementById('board');
  if (board.getAttribute('aria-busy') === 'true' || board.classList.contains('thinking'))
    return 'wait';
  const free = [...board.querySelectorAll('button.cell')].find(
    (b) => b.textContent === '' && b.getAttribute('aria-disabled') !== 'true');
  return free ? [Number(free.dataset.row), Number(free.dataset.col)] : 'wait';
}"""

#: The letters on the board, row by row ("." for an empty square).
BOARD = """() => [...document.querySelectorAll('#board .board-row')].map(
  (row) => [...row.querySelectorAll('button.cell')].map((b) => b.textContent || '.').join(''))
  .join('/')"""

#: Record the text of the Blob the page offers as a download (the export's file).
CATCH_DOWNLOAD = """() => {
  window.__download = null;
  const make = URL.createObjectURL.bind(URL);
  URL.createObjectURL = (blob) => { blob.text().then((t) => { window.__download = t; });
                                    return make(blob); };
}"""

#: Give the page's file input a file, as a file chooser does, and tell the page.
CHOOSE_FILE = """(name, text) => {
  const input = document.querySelector('[data-testid=games-import-file]');
  const files = new DataTransfer();
  files.items.add(new File([text], name, {type: 'application/octet-stream'}));
  input.files = files.files;
  input.dispatchEvent(new Event('change', {bubbles: true}));
}"""


def play_to_the_end(page: Profile, timeout: float = 300) -> list[str]:
    """Play the person's seat (S in the first free square) until the result shows; returns
    the boards seen after each of the person's moves."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        turn = page.wait_for(TURN, timeout=120, what="the person's turn or the result")
        if turn == "over":
            return seen
        if turn == "wait":
            time.sleep(0.1)
            continue
        row, col = turn
        page.write(row, col, "S")
        seen.append(page.call(BOARD))
    raise AssertionError(f"[{page.engine}] no result within {timeout} s: {seen}")


def games_listed(page: Profile) -> list[str]:
    return page.call(  # type: ignore[no-any-return]
        "() => [...document.querySelectorAll('[data-testid=game-entry]')]"
        ".map((e) => e.dataset.gameId)"
    )


def open_games(page: Profile) -> None:
    page.click('[data-testid="games"]')
    page.wait_visible('[data-testid="games-export"]')


def test_a_game_against_the_computer_to_its_end_undo_redo_reload_and_your_games(
    engine: Engine, profile: Profile, server: Server, shot: Callable[[Profile, str], Path]
) -> None:
    seconds = profile.open(server.url + "index.html?size=3&seats=human,easy")
    print(f"{engine.version}: ready {seconds:.1f} s")
    # Pyodide runs without stack switching in every engine: the page hides JSPI where the
    # engine has it (Chromium's renderer crashed with it, docs/crash.md), so all three lanes
    # run the path WebKit, which has none, always runs; the computer must answer all the same.
    jspi = profile.call("() => typeof WebAssembly.Suspending === 'function'")
    assert jspi is False, f"{engine.name}: JSPI {jspi}"
    profile.wait_text('[data-testid="status"]', "Player 1 to move")

    play_to_the_end(profile)
    result = profile.text("#result-text")
    assert result and ("win" in result or "draw" in result.lower()), result  # "You win", "… wins"
    profile.wait_text('[data-testid="status"]', result.strip())
    final = profile.call(BOARD)
    assert "." not in final, final  # general mode: the game ends when the board is full
    shot(profile, "game-over-3x3")

    # Undo takes back the person's last move with the computer's answers; redo puts it back.
    profile.wait_for(  # the page has settled on the end (a click on a disabled Undo is lost)
        "() => !document.querySelector('[data-testid=undo]').disabled", what="Undo enabled"
    )
    profile.click('[data-testid="undo"]')
    profile.wait_for(f"() => ({BOARD})() !== {final!r}", what="a move undone")
    undone = profile.call(BOARD)
    assert undone.count(".") >= 1 and not profile.visible('[data-testid="result"]'), undone
    profile.wait_for(  # the result card has gone and Redo is offered: the page has settled
        "() => !document.querySelector('[data-testid=redo]').disabled", what="Redo enabled"
    )
    profile.click('[data-testid="redo"]')
    profile.wait_for(
        f"() => ({BOARD})() === {final!r}",
        what=f"the move redone: {final!r} again after {undone!r}",
    )
    profile.wait_text("#result-text", result.strip())

    # A reload brings the same game back, finished.
    profile.wait_for(
        "() => Object.keys(localStorage).filter((k) => k.startsWith('sos-g:')).length === 1",
        what="the game saved",
    )
    profile.reload()
    profile.ready()
    assert profile.call(BOARD) == final
    profile.wait_text("#result-text", result.strip())

    # "Your games" lists it with its result.
    (game_id,) = profile.call(
        "() => Object.keys(localStorage).filter((k) => k.startsWith('sos-g:'))"
        ".map((k) => k.slice(6))"
    )
    open_games(profile)
    listed = games_listed(profile)
    assert len(listed) == 1, listed
    assert listed == [game_id], (listed, game_id)
    entry = profile.text('[data-testid="game-entry"]') or ""
    assert result.strip() in entry, entry


def test_export_then_import_in_a_fresh_profile(
    engine: Engine, profile: Profile, server: Server, other_profile: Callable[..., Profile]
) -> None:
    profile.open(server.url + "index.html?size=4")
    for row, col, letter in ((0, 0, "S"), (0, 2, "S"), (3, 3, "O")):
        profile.write(row, col, letter)
    profile.wait_for(
        """() => Object.keys(localStorage).some((k) => k.startsWith('sos-g:')
             && JSON.parse(localStorage.getItem(k)).line === 'Sa1Sc1Od4')""",
        what="the game saved",
    )
    open_games(profile)
    (game_id,) = games_listed(profile)
    # Keeping the library: where the engine cannot be asked (no navigator.storage, as in
    # WebKitGTK), the page says so; elsewhere it says what the engine answered.
    keep = profile.wait_for(
        "() => document.querySelector('[data-testid=games-keep]').textContent.trim()",
        what="the keep line of Your games",
    )
    askable = profile.call(
        "() => !!(navigator.storage && navigator.storage.persist && navigator.storage.persisted)"
    )
    print(f"{engine.name}: persist() {'exists' if askable else 'missing'}: {keep}")
    if engine.name == "webkit":  # Safari's engine: its seven-day rule is what threatens games
        assert keep.startswith("Safari deletes this site's data"), keep
        assert "export yours here" in keep, keep
    elif askable:
        assert keep.startswith(("This browser keeps your games", "This browser may clear")), keep
    else:
        assert keep.startswith("This browser cannot be asked to keep your games"), keep
    profile.call(CATCH_DOWNLOAD)
    profile.click('[data-testid="games-export"]')
    text = profile.wait_for("() => window.__download", what="the exported file")
    profile.wait_text('[data-testid="games-backup-message"]', "1 game exported", contains=True)
    assert game_id in text and '"sos-library"' in text, text[:300]

    fresh = other_profile()
    fresh.open(server.url + "index.html?size=4")
    open_games(fresh)
    assert game_id not in games_listed(fresh)  # another profile: nothing of the first one
    fresh.call(CHOOSE_FILE, "sos-games.jsonl", text)
    fresh.wait_text('[data-testid="games-backup-message"]', "1 game added", contains=True)
    fresh.wait_for(
        "(id) => !!document.querySelector(`[data-testid=game-entry][data-game-id='${id}']`)",
        game_id, what="the imported game listed",
    )  # fmt: skip
    fresh.click(f"[data-testid=game-entry][data-game-id='{game_id}'] button")
    fresh.wait_for(
        f"() => ({BOARD})() === 'S.S./..../..../...O'", what="the imported game on the board"
    )
    assert fresh.foreign_requests() == []


def test_a_game_by_link_between_two_profiles(
    engine: Engine, profile: Profile, server: Server, other_profile: Callable[..., Profile]
) -> None:
    anna = profile
    anna.open(server.url + "index.html?size=3")
    anna.click('[data-testid="settings"]')
    anna.click('[data-testid="remote"]')
    anna.click('[data-testid="settings-start"]')
    anna.wait_text('[data-testid="remote-status"]', "Your turn.")
    anna.write(0, 0, "S")
    link = anna.wait_for(
        "() => { const f = document.querySelector('[data-testid=remote-link]');"
        " return f && f.value.includes('?r=') ? f.value : null; }",
        what="the link to send",
    )

    ben = other_profile()
    ben.open(link)
    ben.wait_text(ben.cell(0, 0), "S")
    ben.wait_text('[data-testid="notice"]', "you play Player 2", contains=True)
    ben.write(0, 2, "S")
    back = ben.wait_for(
        "(old) => { const f = document.querySelector('[data-testid=remote-link]');"
        " return f && f.value.includes('?r=') && f.value !== old ? f.value : null; }",
        link, what="the link sent back",
    )  # fmt: skip

    anna.open(back)
    anna.wait_text(anna.cell(0, 2), "S")
    anna.wait_text('[data-testid="remote-status"]', "Your turn.")
    assert anna.call(BOARD) == "S.S/.../..."


def test_review_of_a_finished_game_and_a_puzzle(profile: Profile, server: Server) -> None:
    profile.open(server.url + "index.html?size=3&mode=simple&seats=human,hard&game=Sa1Ob1Sc1")
    profile.wait_text('[data-testid="status"]', "You win with the first SOS")
    profile.click('[data-testid="review"]')
    profile.wait_for(
        "() => document.querySelectorAll('#move-list button.ply[data-verdict]').length === 3",
        timeout=120, what="three moves reviewed",
    )  # fmt: skip
    verdicts = profile.call(
        "() => [...document.querySelectorAll('#move-list button.ply')].map(b => b.dataset.verdict)"
    )
    assert verdicts[-1] == "best", verdicts  # the winning SOS is the best move there is
    profile.wait_visible('[data-testid="review-summary"]')

    puzzles = parse_puzzles((ROOT / DATA_PATH).read_text(encoding="utf-8"))
    puzzle = next(p for p in puzzles if len(p.line) == 1 and p.rules.rows <= 4)
    profile.goto(server.url + f"index.html?puzzle={puzzle.id}")
    profile.ready()
    profile.wait_visible('[data-testid="puzzle-dialog"]')
    (move,) = puzzle.line
    profile.click(f'[data-testid="puzzle-letter-{move.letter}"]')
    profile.click(profile.cell(move.row, move.col, "#puzzle-board"))
    profile.wait_text('[data-testid="puzzle-feedback"]', "Solved", contains=True)
    saved = profile.call("() => JSON.parse(localStorage.getItem('sos-puzzles')).results")
    assert saved == {puzzle.id: "solved"}, saved


def test_arabic_right_to_left_and_back_then_keyboard_play(profile: Profile, server: Server) -> None:
    profile.open(server.url + "index.html?size=4&lang=ar")
    assert profile.call("() => [document.documentElement.lang, document.documentElement.dir]") == [
        "ar", "rtl",
    ]  # fmt: skip
    # The page mirrors; the board reads as on paper: a1 top left, b1 to its right.
    order = profile.call(
        """() => { const box = (s) => document.querySelector(s).getBoundingClientRect();
          const a1 = box('#board [data-row="0"][data-col="0"]');
          const b1 = box('#board [data-row="0"][data-col="1"]');
          return [a1.left < b1.left, box('h1').left > box('.header-actions').left]; }"""
    )
    assert order == [True, True], order
    # Back to English in Settings (the language applies at once).
    profile.click('[data-testid="settings"]')
    profile.call(
        """() => { const s = document.querySelector('[data-testid=settings-lang]');
          s.value = 'en'; s.dispatchEvent(new Event('change', {bubbles: true})); }"""
    )
    profile.wait_for(
        "() => document.documentElement.lang === 'en' && document.documentElement.dir === 'ltr'",
        what="English, left to right",
    )
    profile.click('[data-testid="settings-keep"]')  # (Cancel and Esc would put Arabic back)
    profile.wait_for("() => !document.querySelector('dialog[open]')", what="settings closed")
    profile.wait_text('[data-testid="status"]', "Player 1 to move")

    # Keyboard play: the arrow keys move between squares, O chooses the letter and writes it.
    profile.call("() => document.querySelector('#board [data-row=\"0\"][data-col=\"0\"]').focus()")
    profile.press("ArrowRight")
    profile.press("ArrowDown")
    focused = profile.call(
        "() => [document.activeElement.dataset.row, document.activeElement.dataset.col]"
    )
    assert focused == ["1", "1"], focused
    profile.press("o")
    profile.wait_text(profile.cell(1, 1), "O")
    profile.wait_text('[data-testid="status"]', "Player 2 to move")
    profile.press("ArrowLeft")
    profile.press("s")
    profile.wait_text(profile.cell(1, 0), "S")
    assert profile.call(BOARD) == "..../SO../..../...."


def test_an_embed_starts_at_the_first_tap_and_keeps_it(
    profile: Profile, new_server: Callable[[], Server]
) -> None:
    site = new_server()  # an origin this profile never saw: nothing cached
    profile.goto(site.url + "index.html?embed=1&size=5")
    profile.wait_for(
        "() => document.documentElement.dataset.runtime === 'waiting'"
        " && document.querySelectorAll('#board button.cell').length === 25",
        what="the embed waiting for a tap",
    )
    # Untouched: the page is only its static part, for a while (bounded).
    time.sleep(2)
    heavy = [p for p in site.paths if "pyodide" in p or p.endswith((".wasm", ".zip"))]
    assert heavy == [], heavy
    assert profile.call("() => navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
    assert profile.attr("html", "data-ready") is None

    profile.click(profile.cell(1, 1))
    profile.wait_text(profile.cell(1, 1), "S", timeout=10)  # at once, before the engine is up
    profile.ready()
    profile.wait_for(
        "() => document.querySelectorAll('#board .cell.pending').length === 0",
        what="the tap played",
    )
    profile.wait_text(profile.cell(1, 1), "S")
    profile.wait_text('[data-testid="status"]', "Player 2 to move")
    assert any(p.endswith("pyodide.asm.wasm") for p in site.paths)


def test_offline_reload_after_a_first_visit(
    engine: Engine, profile: Profile, new_server: Callable[[], Server]
) -> None:
    site = new_server()  # a first visit
    profile.open(site.url + "index.html?size=4")
    profile.write(0, 0, "S")
    profile.wait_for(
        "() => navigator.serviceWorker.controller !== null", timeout=180,
        what="the service worker controls the page",
    )  # fmt: skip
    # The precache is complete (the runtime's wasm in it) and the snapshot's worker is done
    # (a reload would stop its requests); whether the engine could make the snapshot is said.
    profile.wait_for(
        """async () => { for (const name of await caches.keys()) {
             const cache = await caches.open(name);
             const urls = (await cache.keys()).map((r) => r.url);
             if (urls.some((u) => u.includes('pyodide.asm.wasm'))) return true; }
           return false; }""",
        timeout=240, what="the runtime precached",
    )  # fmt: skip
    snapshot = profile.wait_for(
        "() => ['made', 'failed', 'restored'].includes(document.documentElement.dataset.snapshot)"
        " ? document.documentElement.dataset.snapshot : null",
        timeout=240, what="the memory snapshot made or given up",
    )  # fmt: skip
    print(f"{engine.name}: snapshot {snapshot}")
    site.stop()  # off the network
    profile.reload()
    profile.ready()
    profile.wait_text(profile.cell(0, 0), "S")  # the game, from storage
    profile.write(1, 1, "O")
    assert profile.call("() => navigator.serviceWorker.controller !== null")
    assert not site.running
