"""Render the PNG app icons from the SVGs in static/icons/ with headless Chromium.

Run by hand after changing an icon SVG (the PNGs are committed):
    .venv/bin/python scripts/make_icons.py
Uses the same Chromium as the tests (CHROMIUM, default /usr/bin/chromium).
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
# (source svg, png name, size in px)
TARGETS = [
    # apple-touch-icon: opaque and square (iOS fills transparent corners with black, then
    # rounds the icon itself)
    ("icon-apple.svg", "icon-180.png", 180),
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    ("icon-maskable.svg", "icon-maskable-512.png", 512),  # full bleed, content in the safe zone
]


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu"],
        )
        for source, name, size in TARGETS:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (ICONS / source).read_text(encoding="utf-8")
            page.set_content(
                "<style>html,body{margin:0;background:transparent}svg{display:block;"
                f"width:{size}px;height:{size}px}}</style>{svg}"
            )
            page.screenshot(path=str(ICONS / name), omit_background=True)
            page.close()
            print(f"{name}: {size}x{size}")
        browser.close()


if __name__ == "__main__":
    main()
