"""Renderer crashes per condition, with JSPI shown to Pyodide or hidden (docs/crash.md).

    .venv/bin/python benchmarks/bench_crash.py paths [--jspi hidden,hidden,shown] [--repeat 3]
        [--until 09:30] [--batches N] [--workers 1] [--cpu 1] [--conditions embed-tap,...]
    .venv/bin/python benchmarks/bench_crash.py starts [--jspi both] [--runs 20] [--cpu 1,4]
    .venv/bin/python benchmarks/bench_crash.py cost [--runs 5] [--reloads 6]
    .venv/bin/python benchmarks/bench_crash.py table [--since 2026-12-05T08:00] [--markdown]

Every run is appended to a JSON-lines log (``--log``, default /tmp/sos-bench-crash/runs.jsonl)
with its condition, JSPI mode, outcome, whether the renderer crashed, the 1-minute load average
when it ended, and its duration; ``table`` prints the counts per condition and mode from it. The
machine's load is whatever else runs beside it (on the 2-core box shared by several engineers,
the "under load" condition); the load average is recorded per run.

- ``paths``: the browser tests whose renderers crashed in CI (``PATHS``: a tap in an embed, a
  puzzle embed behind its button, names/language/theme changed in place, the hint, the daily
  puzzle offline) run through pytest, in one pytest session per batch, each test ``--repeat``
  times (interleaved; with ``--workers`` over 1, ``--repeat`` sessions in a row, as pytest-xdist
  schedules one item a node id), ``--workers`` browsers (pytest-xdist; 1 = one browser, several
  contexts in it: the files share a context as in CI, the others open their own). A test that
  fails on a renderer crash (the e2e guard's "renderer crashed", Playwright's "Target crashed")
  counts as a crash; another failure (a timeout under load) is counted apart. The minidumps
  Chromium writes (tests/e2e/conftest.py: test-results/crash-dumps/) are moved to ``--dumps``
  after each batch. With ``--jspi both`` the batches alternate hidden / shown.
- ``starts``: plain starts of the game and of a hello-world PyScript page (benchmarks/hello/) on
  the same runtime, a fresh profile each (first visit) and a reload in it (returning: the
  service worker serves, the game restores its snapshot), at each ``--cpu`` slow-down
  (DevTools ``Emulation.setCPUThrottlingRate``).
- ``cost``: what hiding JSPI costs, A/B paired and alternating, a fresh profile per mode and run:
  ms to ``data-ready`` on a first visit and on returning ones (snapshot restored), and ms
  the computer (hard, 5x5, the page's pause set to 0) takes for its first reply (a time budget:
  about the budget either way), and ms of a search at a fixed node budget in the page
  (``SEARCH``: the same work in both modes).

"JSPI shown" keeps ``WebAssembly.Suspending``/``promising`` in every page by making them
non-configurable in an init script (``KEEP_JSPI``): the page's ``Reflect.deleteProperty`` then
leaves them, Pyodide uses JSPI, and so does the worker that makes the snapshot (the mode the page
had before it hid JSPI). "JSPI hidden" is the page as built; the hello page gets ``HIDE_JSPI``.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import datetime as dt
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LOG = Path("/tmp/sos-bench-crash/runs.jsonl")
DUMPS = Path("/tmp/sos-bench-crash/dumps")
TEST_DUMPS = ROOT / "test-results" / "crash-dumps"

#: condition -> the pytest node ids (without the browser suffix) of the tests that crashed in CI.
PATHS = {
    "embed-tap": [
        "tests/e2e/test_lazy_start.py::test_a_tap_in_an_embed_shows_at_once_and_becomes_the_first_move"
    ],
    "puzzle-embed": ["tests/e2e/test_lazy_start.py::test_a_puzzle_embed_waits_behind_its_button"],
    "language-in-place": [
        "tests/e2e/test_players.py::test_names_everywhere_and_language_and_theme_change_in_place"
    ],
    "hint": ["tests/e2e/test_players.py::test_the_hint_selects_its_letter"],
    "puzzle-offline": [
        "tests/e2e/test_puzzle_page.py::test_the_daily_puzzle_offline_from_the_service_worker"
    ],
}

KEEP_JSPI = """for (const name of ["Suspending", "promising"])
  if (name in WebAssembly) Object.defineProperty(WebAssembly, name, { configurable: false });"""
HIDE_JSPI = """for (const name of ["Suspending", "promising", "Suspender"])
  Reflect.deleteProperty(WebAssembly, name);"""
CRASH_WORDS = ("renderer crashed", "Target crashed")


def load1() -> float:
    return round(os.getloadavg()[0], 2)


def record(log: Path, **fields: Any) -> None:
    log.parent.mkdir(parents=True, exist_ok=True)
    fields = {"at": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S"), **fields}
    with log.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(fields) + "\n")


# --------------------------------------------------------------------------- pytest plugin
# Loaded into the pytest session of a batch with ``-p bench_crash`` (PYTHONPATH=benchmarks);
# configured by environment variables. Inert when this file runs as a script.


def _condition_of(nodeid: str) -> str:
    base = nodeid.split("[", 1)[0]
    for condition, ids in PATHS.items():
        if base in ids:
            return condition
    return "other"


def pytest_collection_modifyitems(items: list[Any]) -> None:
    repeat = int(os.environ.get("BENCH_CRASH_REPEAT", "0"))
    if repeat > 1:  # (under pytest-xdist, run_batch repeats whole sessions instead: its
        # scheduler keeps one item a node id)
        items[:] = items * repeat  # re-run as pytest-rerunfailures does: interleaved rounds


def pytest_sessionstart(session: Any) -> None:
    mode = os.environ.get("BENCH_CRASH_JSPI")
    cpu = float(os.environ.get("BENCH_CRASH_CPU", "1"))
    if mode is None:
        return
    from playwright.sync_api import Browser, BrowserContext, Page

    original = Browser.new_context

    def new_context(self: Browser, *args: Any, **kwargs: Any) -> BrowserContext:
        context = original(self, *args, **kwargs)
        if mode == "shown":
            context.add_init_script(KEEP_JSPI)
        if cpu > 1:

            def throttle(page: Page) -> None:
                with contextlib.suppress(Exception):
                    cdp = context.new_cdp_session(page)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})

            context.on("page", throttle)
        return context

    Browser.new_context = new_context  # type: ignore[method-assign]


def pytest_runtest_logreport(report: Any) -> None:
    log = os.environ.get("BENCH_CRASH_LOG")
    if log is None:
        return
    xdist_controller = "PYTEST_XDIST_WORKER" not in os.environ
    if os.environ.get("BENCH_CRASH_WORKERS", "1") != "1" and xdist_controller:
        return  # it hears each worker's report again
    failed_setup = report.when == "setup" and report.failed
    if report.when != "call" and not failed_setup:
        return
    text = report.longreprtext if report.failed else ""
    crashed = any(word in text for word in CRASH_WORDS)
    first = next((line.strip() for line in text.splitlines() if line.startswith("E ")), "")
    record(
        Path(log),
        kind="path",
        condition=_condition_of(report.nodeid),
        test=report.nodeid,
        jspi=os.environ.get("BENCH_CRASH_JSPI"),
        cpu=float(os.environ.get("BENCH_CRASH_CPU", "1")),
        workers=int(os.environ.get("BENCH_CRASH_WORKERS", "1")),
        batch=os.environ.get("BENCH_CRASH_BATCH"),
        outcome="crashed" if crashed else report.outcome,
        error=first[:300],
        load1=load1(),
        seconds=round(report.duration, 1),
    )


# --------------------------------------------------------------------------- paths


def run_batch(args: argparse.Namespace, mode: str, batch: str) -> int:
    ids = [node for condition in args.conditions for node in PATHS[condition]]
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        *ids,
        "-p",
        "bench_crash",
        "-p",
        "no:cacheprovider",
        "-q",
    ]
    if args.workers > 1:
        cmd += ["-n", str(args.workers), "--dist", "loadfile"]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "benchmarks"), os.environ.get("PYTHONPATH", "")]),
        "BENCH_CRASH_JSPI": mode,
        "BENCH_CRASH_REPEAT": str(args.repeat if args.workers == 1 else 1),
        "BENCH_CRASH_LOG": str(args.log),
        "BENCH_CRASH_CPU": str(args.cpu),
        "BENCH_CRASH_WORKERS": str(args.workers),
        "BENCH_CRASH_BATCH": batch,
    }
    started = time.monotonic()
    for _ in range(1 if args.workers == 1 else args.repeat):
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    dumps = sorted(TEST_DUMPS.glob("pending/*.dmp")) if TEST_DUMPS.is_dir() else []
    if dumps:
        target = args.dumps / batch
        target.mkdir(parents=True, exist_ok=True)
        for dump in dumps:
            shutil.move(str(dump), target / dump.name)
            meta = dump.with_suffix(".meta")
            if meta.exists():
                shutil.move(str(meta), target / meta.name)
    summary = done.stdout.strip().splitlines()[-1:] or ["(no output)"]
    print(
        f"{batch} jspi={mode}: {summary[0]}; {len(dumps)} dumps; load {load1()};"
        f" {time.monotonic() - started:.0f} s",
        flush=True,
    )
    return len(dumps)


def paths(args: argparse.Namespace) -> None:
    modes = args.jspi.split(",")
    deadline = None
    if args.until:
        hour, minute = map(int, args.until.split(":"))
        now = dt.datetime.now(dt.UTC)
        deadline = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    stamp = dt.datetime.now(dt.UTC).strftime("%H%M%S")
    for number in range(args.batches):
        if deadline is not None and dt.datetime.now(dt.UTC) >= deadline:
            break
        mode = modes[number % len(modes)]
        run_batch(args, mode, f"b{stamp}-{number:03d}")


# --------------------------------------------------------------------------- starts and cost

#: ms from navigation start to data-ready, and whether the snapshot was restored.
READY = """() => new Promise((done) => {
  const check = () => {
    if (document.documentElement.dataset.ready === "1")
      done([performance.now(), document.documentElement.dataset.snapshot ?? null,
            "Suspending" in WebAssembly]);
    else setTimeout(check, 20);
  };
  check();
})"""


def _browser(pw: Any, profile: str, mode: str, hello: bool) -> Any:
    from bench_boot import launch

    context = launch(pw, profile)
    if mode == "shown":
        context.add_init_script(KEEP_JSPI)
    elif hello:
        context.add_init_script(HIDE_JSPI)
    return context


def _open(context: Any, url: str, cpu: float) -> tuple[Any, list[Any]]:
    page = context.new_page()
    crashed: list[Any] = []
    page.on("crash", lambda _page: crashed.append(True))
    if cpu > 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    page.goto(url)
    return page, crashed


def _ready(page: Any) -> list[Any]:
    page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=180_000)
    result: list[Any] = page.evaluate(READY)
    return result


def starts(args: argparse.Namespace) -> None:
    from bench_boot import serve
    from playwright.sync_api import sync_playwright

    base = serve()
    modes = args.jspi.split(",")
    cases = [(page, cpu) for cpu in args.cpu_list for page in ("game", "hello")]
    with sync_playwright() as pw:
        for run in range(args.runs):
            for mode in modes:
                for what, cpu in cases:
                    url = base + ("index.html?size=5" if what == "game" else "benchmarks/hello/")
                    for visit in ("fresh", "returning"):
                        record_start(pw, args, url, what, mode, cpu, visit, run)


def record_start(
    pw: Any,
    args: argparse.Namespace,
    url: str,
    what: str,
    mode: str,
    cpu: float,
    visit: str,
    run: int,
) -> None:
    condition = f"start-{what}-{visit}-{cpu:g}x"
    with tempfile.TemporaryDirectory() as profile:
        context = _browser(pw, profile, mode, what == "hello")
        outcome, error, started = "passed", "", time.monotonic()
        try:
            page, crashed = _open(context, url, 1 if visit == "returning" else cpu)
            _ready(page)
            if visit == "returning" and what == "game":
                # the game's second start: from its service worker, with the snapshot (the
                # hello page has neither: its second start is from the HTTP and code caches)
                page.wait_for_function(
                    "navigator.serviceWorker.controller !== null", timeout=120_000
                )
                page.wait_for_function(
                    "document.documentElement.dataset.snapshot === 'made'", timeout=180_000
                )
                page.close()
                started = time.monotonic()
                page, crashed = _open(context, url, cpu)
                _ready(page)
            if crashed:
                outcome = "crashed"
        except Exception as exc:  # a crash surfaces as "Target crashed"
            text = str(exc)
            outcome = "crashed" if any(w in text for w in CRASH_WORDS) else "failed"
            error = text.splitlines()[0][:300] if text else type(exc).__name__
        finally:
            with contextlib.suppress(Exception):
                context.close()
    record(
        args.log,
        kind="start",
        condition=condition,
        jspi=mode,
        cpu=cpu,
        run=run,
        outcome=outcome,
        error=error,
        load1=load1(),
        seconds=round(time.monotonic() - started, 1),
    )
    print(f"{condition} jspi={mode}: {outcome} {error}", flush=True)


def cost(args: argparse.Namespace) -> None:
    """A/B, paired: per run, one fresh profile per mode (two browsers, one page working at a
    time): a first visit in each, then ``--reloads`` returning starts alternating between them,
    then the computer's reply and the fixed-budget search alternating."""
    from bench_boot import serve
    from playwright.sync_api import sync_playwright

    base = serve()
    url = base + "index.html?size=5&seats=human,hard"
    figures: dict[str, dict[str, list[float]]] = collections.defaultdict(
        lambda: collections.defaultdict(list)
    )
    with sync_playwright() as pw:
        for run in range(args.runs):
            order = ("hidden", "shown") if run % 2 == 0 else ("shown", "hidden")
            with contextlib.ExitStack() as stack:
                contexts = {}
                for mode in order:
                    profile = stack.enter_context(tempfile.TemporaryDirectory())
                    contexts[mode] = _browser(pw, profile, mode, hello=False)
                    stack.callback(contexts[mode].close)
                for mode in order:
                    page, _ = _open(contexts[mode], url, 1)
                    first, _snap, jspi = _ready(page)
                    assert jspi == (mode == "shown"), (mode, jspi)
                    page.wait_for_function(
                        "document.documentElement.dataset.snapshot === 'made'", timeout=180_000
                    )
                    page.close()
                    figures[mode]["first"].append(first)
                    record(
                        args.log,
                        kind="cost",
                        what="first",
                        jspi=mode,
                        run=run,
                        ms=round(first),
                        load1=load1(),
                    )
                for visit in range(args.reloads):
                    for mode in order if visit % 2 == 0 else order[::-1]:
                        page, _ = _open(contexts[mode], url, 1)
                        again, snapshot, _ = _ready(page)
                        assert snapshot == "restored", snapshot
                        figures[mode]["returning"].append(again)
                        record(
                            args.log,
                            kind="cost",
                            what="returning",
                            jspi=mode,
                            run=run,
                            ms=round(again),
                            load1=load1(),
                        )
                        if visit == args.reloads - 1:
                            think = computer_reply_ms(page)
                            search = statistics.median(page.evaluate(SEARCH) for _ in range(3))
                            figures[mode]["think"].append(think)
                            figures[mode]["search"].append(search)
                            record(
                                args.log,
                                kind="cost",
                                what="think",
                                jspi=mode,
                                run=run,
                                ms=round(think),
                                load1=load1(),
                            )
                            record(
                                args.log,
                                kind="cost",
                                what="search",
                                jspi=mode,
                                run=run,
                                ms=round(search),
                                load1=load1(),
                            )
                        page.close()
                for mode in order:
                    f = figures[mode]
                    print(
                        f"run {run} jspi={mode}: first {f['first'][-1]:.0f} ms, returning"
                        f" {statistics.median(f['returning'][-args.reloads :]):.0f} ms, computer"
                        f" {f['think'][-1]:.0f} ms, search {f['search'][-1]:.0f} ms,"
                        f" load {load1()}",
                        flush=True,
                    )
    print("\nmedians (ms)   first visit  returning  computer's reply  search  (n first/returning)")
    for mode in ("hidden", "shown"):
        f = figures[mode]
        print(
            f"JSPI {mode:<8} {statistics.median(f['first']):>12.0f}"
            f" {statistics.median(f['returning']):>10.0f} {statistics.median(f['think']):>17.0f}"
            f" {statistics.median(f['search']):>7.0f}  ({len(f['first'])}/{len(f['returning'])})"
        )


#: ms of one search of hard at a fixed node budget (its play and work do not depend on the
#: machine's speed), 6x6 empty board, run in the page's interpreter (window.__py).
SEARCH = """() => __py.runPython(`
import time
from sos.ai.agents import HardAgent
from sos.rules import Rules
from sos.state import new_game
_t0 = time.perf_counter()
HardAgent(seed=1, budget=None, node_budget=20_000).choose_action(new_game(Rules(rows=6, cols=6)))
(time.perf_counter() - _t0) * 1000
`)"""


#: The computer's reply to S@a1 on 5x5 against hard: ms from the click to its letter.
def computer_reply_ms(page: Any) -> float:
    from helpers import no_computer_pause  # tests/e2e

    no_computer_pause(page)
    page.evaluate(
        """() => { window.__reply = new Promise((done) => {
             const t0 = performance.now();
             new MutationObserver((_, observer) => {
               if (document.querySelectorAll("#board button.cell:not(:empty)").length >= 2) {
                 observer.disconnect(); done(performance.now() - t0); }
             }).observe(document.getElementById("board"), { subtree: true, childList: true,
                                                            characterData: true });
           }); }"""
    )
    page.locator('button.cell[data-row="0"][data-col="0"]').click()
    value: float = page.evaluate("window.__reply")
    return value


# --------------------------------------------------------------------------- table


def table(args: argparse.Namespace) -> None:
    rows: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(
        collections.Counter
    )
    loads: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
    if not args.log.exists():
        print(f"no runs in {args.log}")
        return
    for line in args.log.read_text(encoding="utf-8").splitlines():
        run = json.loads(line)
        if run.get("kind") not in ("path", "start") or run["at"] < args.since:
            continue
        key = (
            run["condition"]
            + (f" {run['cpu']:g}x" if run.get("cpu", 1) > 1 and run["kind"] == "path" else ""),
            run["jspi"],
        )
        rows[key][run["outcome"]] += 1
        loads[key].append(run["load1"])
    header = ["condition", "JSPI", "runs", "crashed", "other failures", "load1 min-median-max"]
    lines = []
    totals: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for (condition, mode), counts in sorted(rows.items()):
        n = sum(counts.values())
        fails = n - counts["passed"] - counts["crashed"] - counts["skipped"]
        lo = loads[(condition, mode)]
        spread = f"{min(lo):.1f}-{statistics.median(lo):.1f}-{max(lo):.1f}"
        lines.append([condition, mode, str(n), str(counts["crashed"]), str(fails), spread])
        totals[mode].update(counts)
    for mode, counts in sorted(totals.items()):
        n = sum(counts.values())
        fails = n - counts["passed"] - counts["crashed"] - counts["skipped"]
        lines.append(["all", mode, str(n), str(counts["crashed"]), str(fails), ""])
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|---|---|---:|---:|---:|---|")
        for line in lines:
            print("| " + " | ".join(line) + " |")
        return
    print(
        f"{header[0]:<28} {header[1]:<7} {header[2]:>5} {header[3]:>8} {header[4]:>15} {header[5]}"
    )
    for line in lines:
        print(f"{line[0]:<28} {line[1]:<7} {line[2]:>5} {line[3]:>8} {line[4]:>15} {line[5]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["paths", "starts", "cost", "table"])
    parser.add_argument(
        "--jspi",
        default="hidden",
        help="hidden, shown or both; paths: a comma list the batches cycle through "
        "(hidden,hidden,shown)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="paths: each test this often a batch")
    parser.add_argument("--batches", type=int, default=1_000)
    parser.add_argument("--until", help="paths: start no batch after this UTC time (HH:MM)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cpu", default="1", help="slow-down; starts: a comma list (1,4)")
    parser.add_argument("--conditions", default=",".join(PATHS))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reloads", type=int, default=6, help="cost: returning starts a run")
    parser.add_argument("--log", type=Path, default=LOG)
    parser.add_argument("--dumps", type=Path, default=DUMPS)
    parser.add_argument("--since", default="", help="table: only runs from this UTC time on")
    parser.add_argument("--markdown", action="store_true", help="table: as a Markdown table")
    args = parser.parse_args()
    args.conditions = args.conditions.split(",")
    if args.jspi == "both":
        args.jspi = "hidden,shown"
    args.cpu_list = [float(c) for c in args.cpu.split(",")]
    args.cpu = args.cpu_list[0]
    sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "tests" / "e2e")]
    {"paths": paths, "starts": starts, "cost": cost, "table": table}[args.what](args)


if __name__ == "__main__":
    main()
