"""Security: the Content-Security-Policy of the page, and no HTML or code from outside.

Every e2e test already fails on a CSP violation (conftest.CSP_WATCH). Here: the policy itself
is checked (no inline script, no other origin, only the sources the runtime needs), the whole
app is driven through its features under it, the policy is shown to be enforced, and our own
sources are checked for HTML and code sinks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

Opener = Callable[..., Page]
ROOT = Path(__file__).resolve().parents[2]

#: The policy and why each source is there (index.html repeats this; docs/security.md).
EXPECTED_POLICY = {
    "default-src": ["'none'"],
    # our modules, PyScript core + chunks, pyodide.mjs; compiling the wasm; PyScript's
    # Function constructor joining its lifecycle hooks (a bare Pyodide page needs no 'unsafe-eval')
    "script-src": ["'self'", "'wasm-unsafe-eval'", "'unsafe-eval'"],
    "connect-src": ["'self'"],  # fetch of the wasm, stdlib, lock file, pyscript.toml, sos/
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "manifest-src": ["'self'"],
    "worker-src": ["'self'"],  # ./sw.js
    "base-uri": ["'none'"],
    "form-action": ["'none'"],  # the settings form is method="dialog": it never navigates
}
PAGES = [ROOT / "index.html", ROOT / "benchmarks" / "hello" / "index.html"]


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.policies: list[str] = []
        self.inline_scripts = 0
        self.handlers: list[str] = []
        self.styles = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "meta" and (values.get("http-equiv") or "").lower() == (
            "content-security-policy"
        ):
            self.policies.append(values.get("content") or "")
        if tag == "script" and not values.get("src"):
            self.inline_scripts += 1
        self.handlers += [f"<{tag} {name}>" for name in values if name.startswith("on")]
        self.styles += "style" in values


def _policy(text: str) -> dict[str, list[str]]:
    directives: dict[str, list[str]] = {}
    for part in text.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_policy_is_strict(path: Path) -> None:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    assert len(page.policies) == 1, "exactly one CSP meta tag"
    policy = _policy(page.policies[0])
    expected = dict(EXPECTED_POLICY)
    if "hello" in path.parts:
        expected["img-src"] = ["'self'", "data:"]  # its empty icon, href="data:,"
    assert policy == expected
    sources = [s for values in policy.values() for s in values]
    assert "'unsafe-inline'" not in sources and "*" not in sources
    assert not [s for s in sources if re.match(r"^[a-z-]+://|^https?:$", s)], "no other origin"
    assert page.inline_scripts == 0 and page.handlers == [] and page.styles == 0


def test_policy_is_the_first_thing_in_head() -> None:
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    head = html.split("<head>", 1)[1]
    assert head.index('http-equiv="Content-Security-Policy"') < head.index("<link")
    assert head.index('http-equiv="Content-Security-Policy"') < head.index("<script")


def _our_sources() -> list[Path]:
    files = [*ROOT.glob("sos/**/*.py"), *ROOT.glob("static/*.js"), ROOT / "index.html"]
    files += [*ROOT.glob("benchmarks/hello/*"), *ROOT.glob("scripts/*.mjs")]
    return sorted(f for f in files if f.is_file())


SINKS = re.compile(
    r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\s*\(|\bexec\s*\("
    r"|new\s+Function|\bFunction\s*\(|setTimeout\s*\(\s*['\"`]|runPython|createContextualFragment"
    r"|srcdoc|javascript:"
)


def test_nothing_is_inserted_as_html_or_run_as_code() -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _our_sources()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SINKS.search(line)
    ]
    assert hits == []


def test_messages_from_other_windows_are_dropped() -> None:
    """The game accepts no postMessage (docs/security.md). Our only "message" listener is the
    filter in static/start.js that stops foreign messages before the runtime's own listeners
    (tests/e2e/test_fuzz_browser.py posts them from a host page)."""
    pattern = re.compile(r"""addEventListener\(\s*['"]message|onmessage|"message"|'message'""")
    hits = [
        str(path.relative_to(ROOT))
        for path in _our_sources()
        if path.suffix in (".py", ".js", ".html") and pattern.search(path.read_text("utf-8"))
    ]
    assert hits == ["static/start.js"]
    start = (ROOT / "static" / "start.js").read_text("utf-8")
    assert "if (event.source !== window) event.stopImmediatePropagation();" in start
    assert start.index('addEventListener(\n  "message"') < start.index("vendor/pyscript/core.js")


def test_the_app_runs_under_the_policy(open_app: Opener, guard: Any) -> None:
    """Every feature once, then the policy's own violations list must be empty."""
    page = open_app("?size=4&seats=human,easy")
    page.locator("button.cell:not([aria-disabled])").first.click()
    page.wait_for_function(
        "() => document.querySelector('button.cell:not([aria-disabled])') !== null", timeout=30_000
    )
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-text")).not_to_have_text("", timeout=30_000)
    page.get_by_test_id("share").click()
    expect(page.get_by_test_id("share-url")).to_have_value(re.compile(r"game="))
    page.locator("#share-dialog [data-close]").click()
    page.get_by_test_id("record").click()
    page.get_by_test_id("record-text").fill("SOS 3x3 simple, 3 players\n1. S@a1\n2. O@b1\n3. S@c1")
    page.get_by_test_id("record-import").click()
    expect(page.get_by_test_id("notice")).to_contain_text("Game loaded.")
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-size").select_option("5")
    page.get_by_test_id("settings-theme").select_option("dark")
    page.get_by_test_id("settings-start").click()  # a method="dialog" form: no navigation
    expect(page.locator("button.cell")).to_have_count(25)
    page.get_by_test_id("help").click()
    page.locator("#help-dialog [data-close]").click()
    expect(page.locator("html[data-sw=registered]")).to_be_attached(timeout=30_000)
    page.reload()
    page.wait_for_selector('html[data-ready="1"]', state="attached")
    assert page.evaluate("window.__cspViolations") == []

    # ... and the policy is enforced: an inline script and a foreign fetch are refused.
    guard.allow_console_error(r"CSP violation: (script-src-elem blocked inline|connect-src)")
    guard.allow_console_error(
        r"^(Executing inline script|Connecting to 'https://example\.com/x') violates the "
        r"following Content Security Policy"
    )
    guard.allow_console_error(r"^Fetch API cannot load https://example\.com/x\. Refused")
    page.evaluate(
        """() => { const s = document.createElement('script');
        s.textContent = 'window.__inlineRan = true'; document.body.append(s); }"""
    )
    page.evaluate("() => fetch('https://example.com/x').catch(() => null)")
    page.wait_for_function("() => window.__cspViolations.length >= 2")
    assert page.evaluate("window.__inlineRan") is None
    directives = page.evaluate("window.__cspViolations.map((v) => v.split(' ')[2])")
    assert sorted(directives) == ["connect-src", "script-src-elem"]


def test_embed_view_runs_under_the_policy(open_app: Opener) -> None:
    page = open_app("?embed=1&size=3&seats=easy,easy")
    expect(page.get_by_test_id("result")).to_be_visible(timeout=60_000)
    assert page.evaluate("window.__cspViolations") == []
