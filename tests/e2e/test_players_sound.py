"""Optional sound (issue 26): off by default, one checkbox in Settings that applies at once and
is kept across a reload, every sound synthesised with Web Audio (oscillators counted by a
wrapper around ``AudioContext``) and no audio file ever requested; the SOS marks' drawing
animation follows ``prefers-reduced-motion``. English, German and Arabic; desktop and phone."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import cell, write
from playwright.sync_api import Page, Request, expect

Opener = Callable[..., Page]
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
AUDIO_FILE = re.compile(r"\.(mp3|ogg|oga|wav|m4a|aac|flac|opus|webm)(\?|$)", re.IGNORECASE)
# Counts the tones the page synthesises: every AudioContext it makes, every oscillator.
COUNT_TONES = """
  window.tones = 0; window.contexts = 0;
  const Real = window.AudioContext;
  if (Real) {
    window.AudioContext = class extends Real {
      constructor(...args) { super(...args); window.contexts += 1; }
      createOscillator() { window.tones += 1; return super.createOscillator(); }
    };
  }
"""


def tones(page: Page) -> int:
    return int(page.evaluate("window.tones"))


@pytest.mark.parametrize("lang,size", [("en", "desktop"), ("de", "phone"), ("ar", "phone")])
def test_sound_is_off_by_default_synthesised_and_kept(
    open_app: Opener, page: Page, shot: Callable[[Page, str], Path], lang: str, size: str
) -> None:
    audio: list[str] = []

    def seen(request: Request) -> None:
        if request.resource_type == "media" or AUDIO_FILE.search(request.url):
            audio.append(request.url)

    page.on("request", seen)
    page.add_init_script(COUNT_TONES)
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    page = open_app(f"?size=4&lang={lang}")
    write(page, 0, 0, "S")
    # A move's tone is made in the task that shows its letter (sos/web/main.py changed): none
    # made by the time the letter shows is none at all -- no wait on the wall clock.
    assert tones(page) == 0 and page.evaluate("window.contexts") == 0  # off by default

    page.get_by_test_id("settings").click()
    box = page.get_by_test_id("settings-sound")
    expect(box).not_to_be_checked()
    box.check()
    box.scroll_into_view_if_needed()
    shot(page, f"players-sound-setting-{lang}-{size}")
    page.locator("#settings-cancel").click()  # applies at once: no Start, the game stays
    expect(cell(page, 0, 0)).to_have_text("S")
    write(page, 0, 1, "O")
    page.wait_for_function("window.tones === 1")  # a letter: one tone
    write(page, 0, 2, "S")  # S-O-S: a point, a rising pair
    page.wait_for_function("window.tones === 3")

    page.reload()
    page.locator('html[data-ready="1"]').wait_for(state="attached", timeout=90_000)
    page.get_by_test_id("settings").click()
    expect(page.get_by_test_id("settings-sound")).to_be_checked()  # kept
    page.get_by_test_id("settings-sound").uncheck()
    page.locator("#settings-cancel").click()
    write(page, 1, 0, "S")
    assert tones(page) == 0  # off again (made with the letter or never; a new page counts from 0)
    assert audio == []


@pytest.mark.parametrize("motion,animation", [("reduce", "none"),
                                              ("no-preference", "draw-in")])
def test_the_marks_animate_only_without_reduced_motion(
    open_app: Opener, page: Page, motion: str, animation: str
) -> None:
    page.emulate_media(reduced_motion=motion)  # type: ignore[arg-type]
    page = open_app("?size=3&lang=de&game=Sa1Ob1Sc1")
    mark = page.locator("#marks .mark").first
    expect(mark).to_be_attached()
    assert mark.evaluate("m => getComputedStyle(m).animationName") == animation
