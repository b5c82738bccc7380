"""What WebKitGTK (Safari's engine) does with the game's storage, Home Screen and first-visit
bytes: one MiniBrowser session driven over plain W3C WebDriver (WebKitWebDriver from Debian's
``webkit2gtk-driver``, under ``xvfb-run``), against the built site served as GitHub Pages does.

    .venv/bin/python benchmarks/webkit_probe.py [--plain]

Prints the user agent and what the page can know (display-mode, ``navigator.standalone``,
``navigator.storage.persist``, JSPI), what "Your games" says after a finished game, the bytes the
server sent until the worker controls the page and the snapshot is made (WebDriver sessions of
WebKitGTK are ephemeral: a private window), the files sent more than once, then the offline
start with the server stopped and a move played. ``--plain``: a server that does not compress.
Figures: benchmarks/RESULTS.md; what it means: docs/saves.md, "Safari's seven-day limit".
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import site_server  # benchmarks/, the script's folder

DIST = Path(__file__).resolve().parents[1] / "dist"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
READY = "document.documentElement.dataset.ready === '1'"
FACTS = """return {ua: navigator.userAgent,
  displayModes: ['browser', 'standalone', 'fullscreen', 'minimal-ui']
    .filter((m) => matchMedia('(display-mode: ' + m + ')').matches),
  standalone: navigator.standalone, serviceWorker: 'serviceWorker' in navigator,
  persist: !!(navigator.storage && navigator.storage.persist),
  jspi: typeof WebAssembly.Suspending !== 'undefined'}"""


def _call(method: str, url: str, body: Any = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=300) as answer:
        return json.loads(answer.read())["value"]


def main() -> int:
    if not (DIST / "sw.js").is_file():
        print("dist/ is missing: run `node scripts/build.mjs` first", file=sys.stderr)
        return 1
    site, log, stop_site = site_server.serve(DIST, compress="--plain" not in sys.argv)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    driver = subprocess.Popen(
        ["xvfb-run", "-a", "WebKitWebDriver", f"--port={port}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/status", timeout=1)
            break
        except OSError:
            time.sleep(0.2)
    options = {"binary": MINIBROWSER, "args": ["--automation"]}
    capabilities = {"browserName": "MiniBrowser", "webkitgtk:browserOptions": options}
    session = base + "/session/" + _call(
        "POST", base + "/session", {"capabilities": {"alwaysMatch": capabilities}}
    )["sessionId"]

    def js(script: str) -> Any:
        return _call("POST", session + "/execute/sync", {"script": script, "args": []})

    def wait(condition: str, timeout: float = 240) -> float:
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            try:
                if js("return " + condition):
                    return time.monotonic() - start
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit(f"not reached in {timeout:.0f} s: {condition}")

    def play(row: int, col: int, letter: str) -> None:
        js(f"document.querySelector('[data-testid=letter-{letter}]').click();"
           f"document.querySelector('button.cell[data-row=\"{row}\"][data-col=\"{col}\"]').click()")

    try:
        _call("POST", session + "/window/rect", {"width": 390, "height": 844})
        _call("POST", session + "/url", {"url": site + "index.html?size=3&mode=simple"})
        print(f"ready after {wait(READY):.1f} s")
        print(json.dumps(js(FACTS), indent=1))
        for col, letter in enumerate("SOS"):
            play(0, col, letter)
            time.sleep(0.5)
        js("document.querySelector('[data-testid=games]').click()")
        wait("document.querySelector('[data-testid=games-keep]').textContent.length > 0", 30)
        print("Your games says:", js(
            "return document.querySelector('[data-testid=games-keep]').textContent"))
        js("document.querySelector('[data-close=games-dialog]').click()")
        wait("navigator.serviceWorker.controller !== null "
             "&& document.documentElement.dataset.snapshot === 'made'")
        time.sleep(5)
        hits = list(log.hits)
        big = [(h.status, h.path.split("?")[0].rsplit("/", 1)[1]) for h in hits
               if h.path.split("?")[0].endswith((".wasm", ".zip", "-lock.json"))]
        ok, revalidated = sum(h.status == 200 for h in hits), sum(h.status == 304 for h in hits)
        total = sum(h.bytes for h in hits) / 1e6
        print(f"first visit: {total:.2f} MB, {ok} x 200, {revalidated} x 304")
        print("the big files in order:", big)
        print("sent more than once:", site_server.duplicates(hits))
        stop_site()  # offline: the site is gone
        _call("POST", session + "/refresh", {})
        print(f"offline: ready after {wait(READY):.1f} s")
        js("document.querySelector('[data-testid=new-game]').click()")
        time.sleep(1)
        play(1, 1, "S")
        wait("document.querySelector('button.cell[data-row=\"1\"][data-col=\"1\"]')"
             ".textContent === 'S'", 30)
        print("offline: a move played")
    finally:
        try:
            _call("DELETE", session)
        finally:
            driver.terminate()
            stop_site()
    return 0


if __name__ == "__main__":
    sys.exit(main())
