"""Every language of the app in the page: it boots in it, no English text is left, plural forms
come from the catalog as gettext reads it in the browser, axe finds nothing serious, and
screenshots are saved (test-results/lang-*.png). Arabic is right to left with the board left to
right. One page per language, several checks on it."""

from __future__ import annotations

import gettext
import gzip
import re
from collections.abc import Callable
from pathlib import Path

import i18n as i18n_tool  # scripts/i18n.py (tests/conftest.py puts scripts/ on sys.path)
import pytest
from axe_playwright_python.sync_playwright import Axe
from helpers import cell, no_computer_pause, write
from playwright.sync_api import Page, expect

from sos.app.text.i18n import EN, LANGUAGE_NAMES, LANGUAGES, direction

ROOT = Path(__file__).resolve().parents[2]
COUNTS = (0, 1, 2, 5, 11, 100)
PHONE = {"width": 390, "height": 844}
SMALL = {"width": 320, "height": 420}
DESKTOP = {"width": 1280, "height": 800}

#: Every text a person meets on the page: text nodes (also inside closed dialogs: help,
#: settings, share, record, games) and the attributes read out or shown (aria-label, title,
#: placeholder, alt), with the page's own name.
TEXTS = """() => {
  const out = new Set([document.title]);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const skip = "script, style, noscript, template, mpy-config, .visually-hidden-never";
    if (node.parentElement.closest(skip)) continue;
    const text = node.textContent.replace(/\\s+/g, " ").trim();
    if (text) out.add(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]"))
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (value && value.trim()) out.add(value.trim());
    }
  return [...out];
}"""

GRAB_INTERPRETER = """async () => {
  const { whenDefined } = await import('./static/vendor/pyscript/core.js');
  window.__py = (await whenDefined('py')).interpreter;
}"""

#: Texts that are the same in every language: the game's letters and name, coordinates,
#: numbers, signs, and each language's own name in the language menu.
ALLOWED = {"S", "O", "SOS", "S-O-S", "×", "+", "…", "·", *(n for n, _ in LANGUAGE_NAMES.values())}


def _allowed(text: str) -> bool:
    if not re.search(r"[^\W\d_]", text):  # no letter at all: symbols such as ◀ ▶ ★
        return True
    return text in ALLOWED or re.fullmatch(r"[a-l]|\d+|[a-l]\d+|[\d\s×x.,:+–—-]+", text) is not None


#: From now on, every text written into the page (text nodes added, or changed) in
#: ``window.__written``: what a language change shows on its way, not only where it ends.
WATCH = """() => {
  window.__written = [];
  const note = (node) => {
    if (node.nodeType === Node.TEXT_NODE) window.__written.push(node.textContent);
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) window.__written.push(n.textContent);
  };
  window.__watch?.disconnect();
  window.__watch = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "characterData") window.__written.push(r.target.textContent);
      for (const n of r.addedNodes) note(n);
    }
  });
  window.__watch.observe(document, { subtree: true, childList: true, characterData: true });
}"""


def _same_as_english(lang: str) -> list[re.Pattern[str]]:
    """The messages that are the same word in ``lang`` as in English (scripts/i18n.py
    SAME_AS_ENGLISH, e.g. German "normal"), as patterns of the texts they show."""
    keys = i18n_tool.SAME_AS_ENGLISH.get(lang, frozenset())
    return [
        re.compile(re.sub(r"\\\{\w+\\\}", r".+", re.escape(EN[key])))
        for key in sorted(keys)
        if isinstance(EN.get(key), str)
    ]


_english: list[str] = []


def _english_texts(open_app: Callable[..., Page]) -> set[str]:
    if not _english:
        page = open_app("?size=3&lang=en")
        _english.extend(page.evaluate(TEXTS))
    return set(_english)


def _plural_forms(lang: str) -> list[str]:
    """What the page's ntext should give for COUNTS, read from the compiled catalog."""
    with gzip.open(ROOT / "static" / "vendor" / "i18n" / f"{lang}.mo.gz", "rb") as handle:
        catalog = gettext.GNUTranslations(handle)
    return [
        catalog.npgettext("games.moves", "{moves} move", "{moves} moves", n).format(moves=n)
        for n in COUNTS
    ]


def _no_overflow(page: Page, where: str) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"{where}: page {width[0]} px wide in a {width[1]} px window"


def _axe(page: Page, where: str) -> None:
    results = Axe().run(page, options={"resultTypes": ["violations"]})
    serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, f"{where}:\n" + results.generate_report()


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_language(
    open_app: Callable[..., Page],
    page: Page,
    lang: str,
    shot: Callable[[Page, str], Path],
) -> None:
    english = _english_texts(open_app)
    page.set_viewport_size(PHONE)
    page = open_app(f"?size=3&lang={lang}")
    html = page.locator("html")
    expect(html).to_have_attribute("lang", lang)
    expect(html).to_have_attribute("dir", direction(lang))
    assert page.locator('link[rel="manifest"]').get_attribute("href") == (
        f"./static/vendor/i18n/manifest.{lang}.webmanifest"
    )

    # No English left: every text of the English page that is also on this one is allowed.
    same = _same_as_english(lang)
    left = sorted(
        t
        for t in set(page.evaluate(TEXTS)) & english
        if not _allowed(t) and not any(pattern.fullmatch(t) for pattern in same)
    )
    assert not left, f"{lang}: English left in the page: {left}"

    # Plural forms, as the browser's gettext reads the catalog, for 0, 1, 2, 5, 11, 100.
    page.evaluate(GRAB_INTERPRETER)
    got = page.evaluate(
        "counts => __py.runPython(`from sos.app.text.i18n import ntext\\n"
        f"[ntext('{lang}', 'games.moves', n, moves=n) for n in ${{JSON.stringify(counts)}}]`)"
        ".toJs()",
        list(COUNTS),
    )
    assert got == _plural_forms(lang)

    # A scoring move: the status line and the live announcement are in the language.
    write(page, 0, 0, "S")
    write(page, 0, 2, "S")
    write(page, 0, 1, "O")
    status = page.get_by_test_id("status").inner_text()
    assert status and status not in english
    _axe(page, f"{lang} game")
    shot(page, f"lang-{lang}-phone")
    _no_overflow(page, f"{lang} phone")

    page.get_by_test_id("help").click()
    expect(page.locator("#help-dialog")).to_be_visible()
    if direction(lang) == "rtl":  # the same markup in every language: axe once more for rtl
        _axe(page, f"{lang} help")
    shot(page, f"lang-{lang}-help")
    page.keyboard.press("Escape")

    if lang in ("ar", "de", "el"):  # the longest texts and the right-to-left one
        page.set_viewport_size(SMALL)
        shot(page, f"lang-{lang}-320x420")
        _no_overflow(page, f"{lang} 320x420")
        page.set_viewport_size(DESKTOP)
        shot(page, f"lang-{lang}-desktop")
        _no_overflow(page, f"{lang} desktop")


@pytest.mark.skipif("ar" not in LANGUAGES, reason="no Arabic catalog yet")
def test_arabic_is_right_to_left_with_the_board_left_to_right(
    open_app: Callable[..., Page], page: Page, shot: Callable[[Page, str], Path]
) -> None:
    page.set_viewport_size(PHONE)
    page = open_app("?size=4&lang=ar")
    # the page mirrored: the header's buttons at the left end, the title at the right
    title = page.locator("h1").bounding_box()
    actions = page.locator(".header-actions").bounding_box()
    assert title and actions and title["x"] > actions["x"]
    # the board as on paper: a1 top left, columns a, b, c, d from left to right, rows 1.. down
    a1, b1, a2 = cell(page, 0, 0).bounding_box(), cell(page, 0, 1).bounding_box(), cell(
        page, 1, 0
    ).bounding_box()
    assert a1 and b1 and a2 and a1["x"] < b1["x"] and a1["y"] < a2["y"]
    cols = page.locator("#coords-cols span")
    assert cols.first.inner_text() == "a"
    first, second = cols.nth(0).bounding_box(), cols.nth(1).bounding_box()
    assert first and second and first["x"] < second["x"]
    rows = page.locator("#coords-rows").bounding_box()
    board = page.locator("#board").bounding_box()
    assert rows and board and rows["x"] < board["x"]
    # numbers stay readable digits (0-9) in the scores
    assert re.search(r"\d", page.get_by_test_id("score-0").inner_text())
    # the embed, in Arabic too
    page.goto(page.url.split("?")[0] + "?size=3&lang=ar&embed=1&start=now")
    expect(page.locator("html")).to_have_attribute("data-ready", "1", timeout=60_000)
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    shot(page, "lang-ar-embed")
    _no_overflow(page, "ar embed")


def test_language_chosen_in_settings_by_its_own_name(open_app: Callable[..., Page]) -> None:
    page = open_app("?size=3")
    page.get_by_test_id("settings").click()
    menu = page.get_by_test_id("settings-lang")
    names = menu.locator("option").all_inner_texts()
    assert names == [name for name, _ in LANGUAGE_NAMES.values()]
    menu.select_option(label="Deutsch")
    page.locator("#settings-form").locator("[type=submit]").click()
    expect(page.get_by_test_id("new-game")).to_have_text("Neues Spiel")
    expect(page.locator("html")).to_have_attribute("lang", "de")


def test_greek_names_stand_where_any_name_fits(open_app: Callable[..., Page]) -> None:
    """Issue 32: "Σειρά του Παίκτης 1" put a nominative name after a genitive article; the
    Greek page now says "Σειρά: Παίκτης 1" (right for any name a player types), also for the
    next player after a move."""
    page = open_app("?lang=el&size=4")
    expect(page.get_by_test_id("status")).to_have_text("Σειρά: Παίκτης 1")
    write(page, 0, 0, "S")
    expect(page.get_by_test_id("status")).to_have_text("Σειρά: Παίκτης 2")


def _switch(page: Page, lang: str) -> list[str]:
    """Choose ``lang`` in the open Settings and wait for it; what of the page's texts before
    (:data:`TEXTS`) is still there, or was written on the way, besides what is the same in both
    languages."""
    old = set(page.evaluate(TEXTS))
    before = str(page.locator("html").get_attribute("lang"))
    same = [*_same_as_english(lang), *_same_as_english(before)]
    page.evaluate(WATCH)
    page.get_by_test_id("settings-lang").select_option(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("html")).to_have_attribute("dir", direction(lang))
    seen = set(page.evaluate(TEXTS)) | {t.strip() for t in page.evaluate("window.__written")}
    return sorted(
        t
        for t in seen & old
        if not _allowed(t)
        and not re.fullmatch(r"[SO]@[a-l]\d+|[a-l]\d+, [SO]", t)  # a move; a square's label
        # (a turn in the move list: its number, then a name that may be the same: "Computer 2")
        and not any(pattern.fullmatch(re.sub(r"^[\d–]+\. ", "", t)) for pattern in same)
    )


def test_a_language_change_reaches_every_text_shown(
    open_app: Callable[..., Page], page: Page
) -> None:
    """Issue 50 (items 5, 6, 19): a language chosen in the open Settings shows the whole page
    in it at once -- the hint's line, the move list's labels (a computer's turn has the same
    title in German), this device's seat, the seat rows, the perfect-play note -- with nothing
    of the old language left, and nothing in English on the way (the catalog is loaded first:
    the dialog flashed English for 70-330 ms). There and back: English, German, Arabic,
    English."""
    page.set_viewport_size(PHONE)
    page = open_app("?size=3&seats=human,easy")
    no_computer_pause(page)
    write(page, 0, 0, "S")
    expect(page.locator("#move-list button.ply")).to_have_count(2)  # the computer answered
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-text")).to_have_text(re.compile(r"^Hint: write "))
    page.get_by_test_id("settings").click()
    page.get_by_test_id("settings-size").select_option("5")  # "perfect" greyed, and why
    expect(page.get_by_test_id("settings-perfect-note")).to_be_visible()
    page.get_by_test_id("remote").check()  # "Your seat on this device: Player 1"
    expect(page.get_by_test_id("remote-seat")).to_be_visible()

    for lang in ("de", "ar", "en"):
        left = _switch(page, lang)
        assert not left, f"after the switch to {lang}, the old language's: {left}"
    hint = page.get_by_test_id("hint-text")
    expect(hint).to_have_text(re.compile(r"^Hint: write [SO] on [a-c][1-3]\. "))

    page.get_by_test_id("remote").uncheck()  # the seat rows and the note again
    _switch(page, "ar")  # the size in the note is kept whole: one line, never split
    size = page.locator("#settings-perfect-note .nb")
    expect(size).to_have_text("4 × 4")
    assert size.evaluate("n => [n.getClientRects().length, getComputedStyle(n).whiteSpace]") == [
        1,
        "nowrap",
    ]
