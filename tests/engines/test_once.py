"""A first visit downloads each file of the runtime once (issue 40, item 6), in every engine.

The page asks for the runtime's big files early (``<link rel=preload as=fetch>`` in
static/boot.js and the interpreter's module), so that they are on the way before the chain
core.js -> pyodide.mjs -> pyodide.asm.mjs asks for them. An engine that does not give a
preloaded response to the runtime's ``fetch()`` downloads the file a second time: WebKit did
(about 6 MB more on every first visit; docs/browsers.md, "Preloads"). This test counts, at the
server, the full answers (200) per path from the page's first request until ``data-ready``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from drivers import Engine, Profile, Server

#: The runtime's files that a start downloads (the wasm, the zips, the lock file).
RUNTIME = (
    "/static/vendor/pyodide/pyodide.asm.wasm",
    "/static/vendor/pyodide/sos-stdlib.zip",
    "/static/vendor/pyodide/pyodide-lock.json",
    "/static/vendor/sos-python.zip",
)


def test_a_first_visit_downloads_each_runtime_file_once(
    engine: Engine, new_server: Callable[[], Server], other_profile: Callable[..., Profile]
) -> None:
    site = new_server()  # an origin this engine has never seen: a first visit
    page = other_profile()
    page.open(site.url + "index.html?size=6")
    sent = list(site.sent)  # what the server had sent when the page said data-ready
    full = Counter(path.split("?")[0] for path, status in sent if status == 200)
    for path in RUNTIME:
        assert full[path] >= 1, f"[{engine.name}] {path} was not downloaded: {sorted(full)}"
    twice = {path: full[path] for path in RUNTIME if full[path] > 1}
    assert not twice, f"[{engine.name}] sent more than once before data-ready: {twice}"
