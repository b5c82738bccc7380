"""The page's language in the browser: loads the gettext catalog of the language in use and
applies what the language decides beyond the texts (direction, manifest, the language menu).

The language itself is decided once, by :class:`sos.app.app.AppSession` (the URL's, the saved
preference, the browser's: :func:`browser_languages`). Only the catalog of the language shown
is downloaded (``static/vendor/i18n/<lang>.mo.gz``, built by ``scripts/i18n.py compile``:
gzip-compressed, as GitHub Pages does not compress a ``.mo``; :func:`sos.app.text.i18n.install`
decompresses it); English is the source text and needs no download.
"""

from __future__ import annotations

from pyscript import document, window

from sos.app.text.i18n import LANGUAGE_NAMES, direction, install, installed
from sos.web.dom import by_id, element

CATALOG_URL = "./static/vendor/i18n/{lang}.mo.gz"
MANIFEST_URL = "./static/vendor/i18n/manifest.{lang}.webmanifest"
ENGLISH_MANIFEST = "./static/manifest.webmanifest"


async def load(lang: str) -> bool:
    """Download and install the catalog of ``lang`` unless it is there; False when it cannot be
    had (the page then shows English, as gettext does for a missing catalog)."""
    if installed(lang):
        return True
    try:
        response = await window.fetch(CATALOG_URL.format(lang=lang))
        if not response.ok:
            return False
        install(lang, (await response.arrayBuffer()).to_bytes())
    except Exception as error:  # offline without the service worker, or a damaged file
        window.console.warn(f"SOS: no catalog for {lang}: {error}")
        return False
    return True


def apply(lang: str) -> None:
    """``<html lang dir>``, the manifest of ``lang`` and the language menu (each language by
    its own name, marked with its ``lang`` for screen readers)."""
    root = document.documentElement
    root.lang = lang
    root.dir = direction(lang)
    link = document.querySelector('link[rel="manifest"]')
    if link is not None:
        href = ENGLISH_MANIFEST if lang == "en" else MANIFEST_URL.format(lang=lang)
        link.setAttribute("href", href)
    select = by_id("settings-lang")
    if select.options.length != len(LANGUAGE_NAMES):
        select.replaceChildren()
        for code, (name, writing) in LANGUAGE_NAMES.items():
            option = element("option", "", name)
            option.value = code
            option.lang = code
            option.dir = writing
            select.appendChild(option)
    select.value = lang


def browser_languages() -> list[str]:
    """The browser's preferred language tags (``navigator.languages``), best first."""
    langs = window.navigator.languages
    return [str(x) for x in langs] if langs else [str(window.navigator.language or "en")]


def query_pairs(query: str) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of a URL query string, decoded by the browser's
    ``URLSearchParams`` (WHATWG URL standard, application/x-www-form-urlencoded parsing)."""
    return [(str(pair[0]), str(pair[1])) for pair in window.URLSearchParams.new(query).entries()]
