"""The deployed site (dist/) served under a sub-path, as a GitHub Pages project site is (/repo/)."""

from __future__ import annotations

import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Response, expect

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"


@pytest.fixture
def project_site(tmp_path: Path, static_server: Callable[..., str], guard: Any) -> str:
    """dist/ copied to <tmp>/sos/ and served: returns the project site's URL (".../sos/")."""
    if not (DIST / "index.html").is_file():
        pytest.fail("dist/ is missing: run `node scripts/build.mjs`", pytrace=False)
    shutil.copytree(DIST, tmp_path / "sos")
    (tmp_path / "index.html").write_text("<!doctype html><title>user site</title>", "utf-8")
    root = static_server(tmp_path)
    guard.allow_origin(root)
    return root + "sos/"


def test_dist_holds_the_site_and_nothing_else() -> None:
    files = {p.relative_to(DIST).as_posix() for p in DIST.rglob("*") if p.is_file()}
    for needed in (
        ".nojekyll",
        "index.html",
        "sw.js",
        "pyscript.toml",
        "sos/web/main.py",
        "static/manifest.webmanifest",
        "static/vendor/pyodide/pyodide.asm.wasm",
        "static/vendor/pyscript/core.js",
    ):
        assert needed in files, f"dist/ lacks {needed}"
    with (ROOT / "pyscript.toml").open("rb") as f:
        shipped = [source.removeprefix("./") for source in tomllib.load(f)["files"]]
    missing = [source for source in shipped if source not in files]
    assert not missing, f"pyscript.toml loads files that dist/ (and the precache) lacks: {missing}"
    stray = sorted(f for f in files if f.split("/")[0] in ("tests", "node_modules", "scripts"))
    assert not stray, f"dist/ ships files the site does not need: {stray[:5]}"
    assert not [f for f in files if f.endswith((".map", ".pyc"))]
    # The page offers square boards only: it fetches the 4x4 opening book, never the books of
    # the engine-only rectangles (3x4, 3x5), which are neither shipped nor precached.
    precache = (DIST / "sw.js").read_text("utf-8")
    assert "sos/ai/book_4x4.txt" in files and '"sos/ai/book_4x4.txt"' in precache
    rectangles = sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "sos" / "ai").glob("book_*x*.txt")
        if len(set(p.stem.removeprefix("book_").split("x"))) == 2  # rows != cols
    )
    assert "sos/ai/book_3x4.txt" in rectangles and "sos/ai/book_3x5.txt" in rectangles
    for path in rectangles:
        assert path not in files, f"dist/ ships {path}, a book of a board the page does not offer"
        assert path not in precache, f"sw.js precaches {path}"


@pytest.mark.unrouted
def test_site_under_a_sub_path_loads_everything(
    new_context: Callable[..., Any],
    project_site: str,
    wait_ready: Callable[..., float],
) -> None:
    context = new_context()
    page: Page = context.new_page()
    requests: list[Request] = []
    bad: list[str] = []
    page.on("request", lambda request: requests.append(request))

    def check(response: Response) -> None:
        if response.status >= 400:
            bad.append(f"{response.status} {response.url}")

    page.on("response", check)
    page.goto(project_site + "index.html?size=4&lang=en")
    wait_ready(page)
    page.locator('button.cell[data-row="0"][data-col="0"]').click()
    expect(page.locator('button.cell[data-row="0"][data-col="0"]')).to_have_text("S")

    # The service worker is registered for the project site, not the host's root.
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=90_000)
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == project_site

    # The manifest and every icon it names resolve under the sub-path.
    icons = page.evaluate(
        """async () => {
             const link = document.querySelector('link[rel=manifest]');
             const manifest = await (await fetch(link.href)).json();
             const out = [new URL(manifest.start_url, link.href).href,
                          new URL(manifest.scope, link.href).href];
             for (const icon of manifest.icons) {
               const url = new URL(icon.src, link.href).href;
               const response = await fetch(url);
               out.push(response.ok ? url : `${response.status} ${url}`);
             }
             return out;
           }"""
    )
    assert icons[0] == project_site + "index.html" and icons[1] == project_site, icons
    assert all(url.startswith(project_site) for url in icons), icons

    assert not bad, f"failed responses: {bad}"
    outside = [r.url for r in requests if not r.url.startswith(project_site)]
    assert not outside, f"requests outside the project site {project_site}: {outside}"
