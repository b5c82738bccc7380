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
its thread CPU time ``tdur``) while the script runs, and prints how many there were and the
longest by CPU time (ms, with their wall time): a script that awaits between pieces of work
(bench_ai's ``steps-sliced``) gets one task a piece. The first task (loading Pyodide and the
synchronous part of the script) is among them.

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

RUN = """async ([files, script, code, argv, env]) => {
  const { loadPyodide } = await import("/node_modules/pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({
    indexURL: "/node_modules/pyodide/",
    stdout: (s) => console.log(s),
    stderr: (s) => console.log(s),
  });
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
  await pyodide.runPythonAsync(`
import os, sys
os.chdir("/home/pyodide")
os.environ.update(ENV)
sys.path[:0] = ["/home/pyodide", "/home/pyodide/benchmarks"]
sys.dont_write_bytecode = True
sys.argv = [SCRIPT, *ARGV]
g = {"__name__": "__main__", "__file__": SCRIPT}
exec(compile(CODE, SCRIPT, "exec"), g)
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

    def stop(self, page: Any) -> list[tuple[float, float]]:
        """End the trace; ``(cpu_ms, wall_ms)`` of every main-thread task, longest CPU first."""
        self.session.send("Tracing.end")
        deadline = time.monotonic() + 60
        while not self.done and time.monotonic() < deadline:
            page.wait_for_timeout(50)  # lets Playwright dispatch the protocol events
        if not self.done:
            raise RuntimeError("the trace did not complete")
        main = {(e["pid"], e["tid"]) for e in self.events
                if e.get("ph") == "M" and e.get("name") == "thread_name"
                and e.get("args", {}).get("name") == "CrRendererMain"}
        tasks = [(e["tdur"] / 1000, e["dur"] / 1000) for e in self.events
                 if e.get("ph") == "X" and e.get("name") == "RunTask"
                 and (e["pid"], e["tid"]) in main and "tdur" in e]
        self.session.detach()
        return sorted(tasks, reverse=True)


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
            trace = _TaskTrace(page) if os.environ.get("SOS_TRACE_TASKS") else None
            page.evaluate(RUN, [engine_files(), rel, script.read_text(encoding="utf-8"), argv, env])
            if trace is not None:
                tasks = trace.stop(page)
                top = ", ".join(f"{cpu:.1f} ({wall:.1f})" for cpu, wall in tasks[:12])
                print(f"pyodide_browser: {len(tasks)} main-thread tasks; longest by CPU ms "
                      f"(wall ms): {top}", flush=True)
                print("TASKS " + json.dumps([round(cpu, 2) for cpu, _ in tasks]), flush=True)
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
