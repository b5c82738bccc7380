"""A start again in place, for the browser tests: the page's app is ended and started anew on
another URL without a navigation, so that a test file pays one Pyodide start instead of one a
test (as pytest-pyodide's module-scoped ``selenium`` fixture keeps one interpreter a module).

Inert in the shipped page: it acts only where ``window.__sosTest`` is an object before the page
starts, which only the tests' init script makes (``tests/e2e/conftest.py``). There,
:func:`capture` keeps the page as static/boot.js left it (the ``<body>``, the root's
attributes, the manifest link) before Python changes anything, and :func:`expose` gives the
tests two functions:

- ``__sosTest.stop()``: the page's Python side retired (:func:`sos.web.guard.retire`: no
  listener, timer, task or stale callback of it acts any more) and ``data-ready`` removed;
- ``await __sosTest.start(url)``: the URL replaced (same document: query and fragment), the
  captured page put back, module values the tests may change put back, and the page's
  ``main`` run again, which sets ``data-ready="1"`` as on a real start.

What a start again does not repeat, and the tests that need it navigate for real (boot, reload,
offline, lifecycle, embeds, the lazy start, updates): static/boot.js (the taps before Python
ran: none are handed over again), the interpreter's start and the catalogs already loaded.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from pyscript import document, window

from sos.web import computer, dom, guard

_kept: dict[str, Any] = {}


def enabled() -> bool:
    """Whether the tests asked for the hook (``window.__sosTest`` set before the start), on a
    full page (an embed's page is drawn for its frame by static/boot.js: it navigates)."""
    query = window.URLSearchParams.new(window.location.search)
    return getattr(window, "__sosTest", None) is not None and not query.has("embed")


def capture() -> None:
    """Keep the page as it is before the app first changes it (once; only where enabled)."""
    if _kept or not enabled():
        return
    root = document.documentElement
    body = document.body.cloneNode(True)
    for script in body.querySelectorAll("script"):  # PyScript would run a py script again
        script.remove()
    _kept["body"] = body
    _kept["root"] = [(str(a.name), str(a.value)) for a in root.attributes]
    link = document.querySelector('link[rel="manifest"]')
    _kept["manifest"] = str(link.getAttribute("href")) if link is not None else None
    _kept["pause"] = computer.COMPUTER_PAUSE
    _kept["boot"] = getattr(window, "sosBoot", None)


def stop() -> None:
    """Retire the running page's Python side (see the module docstring)."""
    guard.retire()
    document.documentElement.removeAttribute("data-ready")


def _restore() -> None:
    root = document.documentElement
    for name in [str(a.name) for a in root.attributes]:
        root.removeAttribute(name)
    for name, value in _kept["root"]:
        if name != "data-ready":
            root.setAttribute(name, value)
    link = document.querySelector('link[rel="manifest"]')
    if link is not None and _kept["manifest"] is not None:
        link.setAttribute("href", _kept["manifest"])
    document.body.replaceWith(_kept["body"].cloneNode(True))
    dom.forget_shown()
    computer.COMPUTER_PAUSE = _kept["pause"]
    window.scrollTo(0, 0)


def running() -> Any:
    """The page the last start made (:class:`sos.web.main.Page`), for tests that look inside
    it through PyScript's interpreter; None where the hook is off."""
    return _kept.get("page")


def expose(main: Callable[[], Awaitable[Any]], page: Any) -> None:
    """Give the tests ``__sosTest.stop()`` and ``__sosTest.start(url)`` and keep ``page``, the
    page just started (only where enabled); ``main`` starts the page (:func:`sos.web.main.main`)."""
    if not enabled():
        return
    _kept["page"] = page
    if getattr(window.__sosTest, "start", None) is not None:
        return
    hook = window.__sosTest

    async def start(url: str) -> None:
        stop()
        await guard.retired()  # the old page's tasks have ended; nothing of it acts any more
        window.history.replaceState(None, "", url)
        _restore()
        boot = _kept.get("boot")
        if boot is not None:
            boot.take().taps.splice(0)  # the taps before Python ran are not handed over again
        await main()

    hook.stop = guard.lasting(lambda: stop(), "test hook stop")
    hook.start = guard.lasting(lambda url: guard.future(start(str(url))), "test hook start")
