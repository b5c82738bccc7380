#!/usr/bin/env python3
"""Run a benchmark under Pyodide in headless Chromium: the runtime the game's players use.

    .venv/bin/python benchmarks/pyodide_browser.py [SECTIONS]
    .venv/bin/python benchmarks/pyodide_browser.py --script benchmarks/runtime_floor.py [ARGS...]

The first form runs ``benchmarks/bench_ai.py --sections SECTIONS`` (default ``playouts``), the
second any script, like ``node benchmarks/pyodide_bench.mjs`` does under Node. The page is
served from the repository root on 127.0.0.1 and loads ``node_modules/pyodide`` (``npm ci``);
``sos/`` (without ``sos/web/``), ``benchmarks/bench_ai.py``, ``benchmarks/ai_accuracy.py`` and
``benchmarks/data/exact_positions*.txt`` are copied into the Pyodide file system. Python runs
on the page's main thread, as the game's does. Chromium is ``CHROMIUM`` (default Debian's
/usr/bin/chromium); ``SOS_CPU_THROTTLE=4`` slows its CPU 4x (DevTools' CPU throttling, as
``bench_boot.py`` uses it) for a slow phone. Prints what the script prints.

``SOS_TRACE_TASKS=1`` records the page's main-thread tasks with the DevTools protocol's tracing
(as ``tests/e2e/helpers.py``'s ``CpuTrace``: each top-level ``RunTask`` on ``CrRendererMain``,
its thread CPU time ``tdur``) while the script runs (after Pyodide has loaded), and prints how
many there were and the longest by CPU time (ms, with their wall time and the
``console.timeStamp`` labels the script set in them and the longest events nested in them, e.g.
V8's garbage collections): a script that awaits between pieces of
work (bench_ai's ``steps-sliced``) gets one task a piece. The first task (the synchronous part
of the script: its imports and set-up) is among them.

Why a browser as well as Node: Node 20's V8 has no WebAssembly GC, so Pyodide's CPython calls
every C function (``len``, ``list.copy``, ``tuple.__new__``, ...) through a JavaScript
trampoline there; browsers (Chromium 119+, Firefox 120+, Safari 18.2+) take the wasm-GC
trampoline, and their V8 is newer. Node's figures overstate what a player sees.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
PYODIDE = ROOT / "node_modules" / "pyodide"
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
         ".json": "application/json", ".py": "text/x-python", ".zip": "application/zip"}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

LOAD = """async () => {
  const { loadPyodide } = await import("/node_modules/pyodide/pyodide.mjs");
  window.pyodide = await loadPyodide({
    indexURL: "/node_modules/pyodide/",
    stdout: (s) => console.log(s),
    stderr: (s) => console.log(s),
  });
}"""

RUN = """async ([files, script, code, argv, env]) => {
  console.timeStamp("harness: run starts");
  const pyodide = window.pyodide;
  const HOME = "/home/pyodide/";
  for (const [path, text] of files) {
    const dest = HOME + path;
    pyodide.FS.mkdirTree(dest.slice(0, dest.lastIndexOf("/")));
    pyodide.FS.writeFile(dest, text);
  }
  pyodide.globals.set("ARGV", pyodide.toPy(argv));
  pyodide.globals.set("SCRIPT", HOME + script);
  pyodide.globals.set("CODE", code);
  pyodide.globals.set("ENV", pyodide.toPy(env));
  console.timeStamp("harness: files written");
  await pyodide.runPythonAsync(`
import os, sys
os.chdir("/home/pyodide")
os.environ.update(ENV)
sys.path[:0] = ["/home/pyodide", "/home/pyodide/benchmarks"]
sys.dont_write_bytecode = True
sys.argv = [SCRIPT, *ARGV]
g = {"__name__": "__main__", "__file__": SCRIPT}
exec(compile(CODE, SCRIPT, "exec"), g)
import js
js.console.timeStamp("harness: the script's synchronous part ran")
if "AFTER_MAIN" in g:  # work that needs the page's event loop (bench_ai's endgame-sliced)
    await g["AFTER_MAIN"]()
`);
}"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _TaskTrace:
    """Main-thread tasks with their CPU time, from the DevTools protocol's tracing (the same
    recipe as ``tests/e2e/helpers.py``'s ``CpuTrace``, which the benchmarks do not import)."""

    CATEGORIES = ("disabled-by-default-devtools.timeline", "devtools.timeline", "toplevel")

    def __init__(self, page: Any) -> None:
        self.session = page.context.new_cdp_session(page)
        self.events: list[dict[str, Any]] = []
        self.done = False
        self.session.on("Tracing.dataCollected", lambda params: self.events.extend(params["value"]))
        self.session.on("Tracing.tracingComplete", lambda _params: setattr(self, "done", True))
        self.session.send("Tracing.start", {
            "transferMode": "ReportEvents",
            "traceConfig": {"includedCategories": list(self.CATEGORIES),
                            "excludedCategories": ["*"], "recordMode": "recordContinuously"},
        })

    def stop(self, page: Any) -> list[tuple[float, float, list[str]]]:
        """End the trace; ``(cpu_ms, wall_ms, labels)`` of every main-thread task, longest CPU
        first (``labels``: the messages of the ``console.timeStamp`` calls made in it)."""
        self.session.send("Tracing.end")
        deadline = time.monotonic() + 60
        while not self.done and time.monotonic() < deadline:
            page.wait_for_timeout(50)  # lets Playwright dispatch the protocol events
        if not self.done:
            raise RuntimeError("the trace did not complete")
        main = {(e["pid"], e["tid"]) for e in self.events
                if e.get("ph") == "M" and e.get("name") == "thread_name"
                and e.get("args", {}).get("name") == "CrRendererMain"}
        runs = sorted((e["ts"], e["dur"], e["tdur"]) for e in self.events
                      if e.get("ph") == "X" and e.get("name") == "RunTask"
                      and (e["pid"], e["tid"]) in main and "tdur" in e)
        marks = sorted((e["ts"], str(e.get("args", {}).get("data", {}).get("message", "")))
                       for e in self.events if e.get("name") == "TimeStamp"
                       and (e["pid"], e["tid"]) in main)
        tasks: list[tuple[float, float, list[str]]] = []
        k = 0
        for ts, dur, tdur in runs:
            while k < len(marks) and marks[k][0] < ts:
                k += 1
            labels = []
            while k < len(marks) and marks[k][0] <= ts + dur:
                labels.append(marks[k][1])
                k += 1
            tasks.append((tdur / 1000, dur / 1000, labels))
        tasks.sort(key=lambda t: t[0], reverse=True)
        # The longest: the names of the longest events nested in them (garbage collections,
        # ...), besides the task's own wrappers.
        wrappers = {"RunTask", "ThreadControllerImpl::RunTask", "FunctionCall", "RunMicrotasks",
                    "BlinkScheduler_PerformMicrotaskCheckpoint", "v8.callFunction",
                    "TimerFire", "v8.run", "EvaluateScript", "ProfileCall"}
        nested = sorted((e["ts"], e["dur"], e["name"]) for e in self.events
                        if e.get("ph") == "X" and e.get("name") not in wrappers and "dur" in e
                        and (e["pid"], e["tid"]) in main)
        spans = {(round(t[1] * 1000), round(t[0] * 1000)): t for t in tasks[:12]}
        for ts, dur, tdur in runs:
            task = spans.get((dur, tdur))
            if task is None:
                continue
            inner = sorted(((d, name) for t, d, name in nested if ts <= t <= ts + dur),
                           reverse=True)[:3]
            task[2].extend(f"[{name} {d / 1000:.1f} ms]" for d, name in inner if d >= 1000)
        self.session.detach()
        return tasks


def engine_files() -> list[tuple[str, str]]:
    """(path from the repository root, text) of sos/ (not sos/web/) and bench_ai.py."""
    out = []
    for path in sorted((ROOT / "sos").rglob("*")):
        rel = path.relative_to(ROOT)
        if path.suffix in (".py", ".txt") and "__pycache__" not in rel.parts \
                and rel.parts[:2] != ("sos", "web"):
            out.append((rel.as_posix(), path.read_text(encoding="utf-8")))
    data = sorted((ROOT / "benchmarks" / "data").glob("exact_positions*.txt"))
    names = ["bench_ai.py", "ai_accuracy.py", *("data/" + path.name for path in data)]
    for name in names:
        out.append(("benchmarks/" + name,
                    (ROOT / "benchmarks" / name).read_text(encoding="utf-8")))
    baseline = os.environ.get("SOS_BASELINE")
    if baseline:  # the older engine bench_ai's ``speed`` compares with, as baseline/sos/
        for path in sorted((Path(baseline) / "sos").rglob("*.py")):
            rel = path.relative_to(baseline)
            if "__pycache__" not in rel.parts and rel.parts[:2] != ("sos", "web"):
                out.append(("baseline/" + rel.as_posix(), path.read_text(encoding="utf-8")))
    return out


def run(script: Path, argv: list[str]) -> int:
    if not (PYODIDE / "pyodide.mjs").exists():
        print(f"pyodide_browser: no {PYODIDE} (run npm ci)", file=sys.stderr)
        return 2
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Handler, directory=str(ROOT)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    rel = script.resolve().relative_to(ROOT).as_posix() if script.resolve().is_relative_to(ROOT) \
        else script.name
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=ARGS)
            page = browser.new_page()
            page.on("console", lambda message: print(message.text, flush=True))
            throttle = float(os.environ.get("SOS_CPU_THROTTLE", "1"))
            if throttle != 1:  # a slower device, as DevTools' CPU throttling emulates it
                cdp = page.context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                print(f"pyodide_browser: CPU throttled {throttle:g}x", flush=True)
            page.goto(base + "benchmarks/")
            env = {"SOS_BASELINE": "/home/pyodide/baseline"} if os.environ.get("SOS_BASELINE") \
                else {}
            page.evaluate(LOAD)
            trace = _TaskTrace(page) if os.environ.get("SOS_TRACE_TASKS") else None
            page.evaluate(RUN, [engine_files(), rel, script.read_text(encoding="utf-8"), argv, env])
            if trace is not None:
                tasks = trace.stop(page)
                print(f"pyodide_browser: {len(tasks)} main-thread tasks; the longest by CPU:",
                      flush=True)
                for cpu, wall, marks in tasks[:12]:
                    print(f"  {cpu:.1f} ms CPU ({wall:.1f} ms wall) {' | '.join(marks)}",
                          flush=True)
                print("TASKS " + json.dumps({  # CPU ms: every task of 5 ms or more
                    "n": len(tasks), "over_20": sum(cpu > 20 for cpu, _, _ in tasks),
                    "cpu_ms": [round(cpu, 1) for cpu, _, _ in tasks if cpu >= 5]}), flush=True)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--script"] and len(argv) >= 2:
        return run(Path(argv[1]), argv[2:])
    sections = argv[0] if argv else "playouts"
    return run(ROOT / "benchmarks" / "bench_ai.py", ["--sections", sections])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
