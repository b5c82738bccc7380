"""Every piece of the page's Python that the browser calls goes through here: event handlers
(:func:`listen`, :func:`proxy`), one-shot callbacks and timers (:func:`once`, :func:`later`)
and tasks (:func:`spawn`). An exception in one of them is caught here, logged once to the
console (``sos: <what> failed`` and the traceback), and handed to the page's reporter
(:func:`install`), which saves the game in play, draws the page again and shows one calm line
("Something went wrong -- your game is saved") in the notice bar with **Copy details** for
a bug report (:class:`FaultBar`; the page's side is :mod:`sos.web.recovery`). The page stays
usable: the next event runs as usual.

What the line says and what the details hold are :mod:`sos.app.fault`'s. Nothing else in
``sos/web`` calls ``create_proxy``, ``create_once_callable``, ``addEventListener`` or
``asyncio.ensure_future`` (``tests/tools/test_guard.py`` checks it).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import traceback
from collections.abc import Callable, Coroutine
from typing import Any

from pyodide.ffi import create_once_callable, create_proxy
from pyscript import document, window

from sos.app.fault import Fault, fault_details

#: What the page does with a fault (``Fault``); None until the page is up (then: log only).
_reporter: Callable[[Fault], None] | None = None
_background: set[Any] = set()  # running tasks (kept referenced until done)
_proxies: list[Any] = []  # handlers attached for the page's lifetime
_listening: list[tuple[Any, str, Any]] = []  # (target, event, handler) of :func:`listen`
_timers: set[Any] = set()  # ids of :func:`later`'s timers not yet run
_retiring = False  # between :func:`retire` and the end of :func:`retired`: no new task
_cancelled: list[Any] = []  # tasks :func:`retire` cancelled, until :func:`retired` saw them end
#: The page's generation: bumped by :func:`retire`, after which every callback made before it
#: does nothing (a stale timer, promise or frame callback of a page started again in place).
_generation = 0
#: Faults caught in this page so far (the details say how many).
count = 0


def install(reporter: Callable[[Fault], None] | None) -> None:
    """Make ``reporter`` the page's answer to a fault (None: log only)."""
    global _reporter
    _reporter = reporter


def report(error: BaseException, where: str) -> None:
    """Log ``error`` (raised by ``where``) once and hand it to the page's reporter; never
    raises (a reporter that fails is logged too)."""
    global count
    count += 1
    trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    fault = Fault(where, f"{type(error).__name__}: {error}"[:500], trace)
    with contextlib.suppress(Exception):
        window.console.error(f"sos: {where} failed\n{trace}")
    if _reporter is None:
        return
    try:
        _reporter(fault)
    except Exception as again:  # the page cannot even say it: the console has both
        with contextlib.suppress(Exception):
            window.console.error(f"sos: reporting the failure failed: {again!r}")


def _describe(target: Any, event: str) -> str:
    name = ""
    with contextlib.suppress(Exception):
        name = str(target.id or "") if hasattr(target, "id") else ""
    if not name:
        name = "window" if target is window else "document" if target is document else "?"
    else:
        name = "#" + name
    return f"{event} {name}"


def guarded(handler: Callable[..., object], where: str) -> Callable[..., None]:
    """``handler`` wrapped so that an exception is reported (:func:`report`) as ``where``
    instead of reaching the browser. Returns what the wrapper returns: None. The wrapper does
    nothing once the page that made it is retired (:func:`retire`)."""

    generation = _generation

    def run(*args: Any) -> None:
        if generation != _generation:
            return  # made for a page since retired (:func:`retire`)
        try:
            handler(*args)
        except Exception as error:
            report(error, where)

    return run


def proxy(handler: Callable[..., object], where: str) -> Any:
    """A JS function for ``handler`` (guarded), kept for the page's lifetime."""
    made = create_proxy(guarded(handler, where))
    _proxies.append(made)
    return made


def lasting(handler: Callable[..., object], where: str) -> Any:
    """A JS function for ``handler`` that outlives :func:`retire` and returns its result (a
    coroutine's future becomes a promise); an exception is reported and gives None. For the
    tests' hook of :mod:`sos.web.testing`, which retires the page and starts it again."""

    def run(*args: Any) -> Any:
        try:
            return handler(*args)
        except Exception as error:
            report(error, where)
            return None

    return create_proxy(run)


def listen(target: Any, event: str, handler: Callable[..., object], where: str = "") -> Any:
    """Attach ``handler`` (guarded) to ``target``'s ``event`` for the page's lifetime."""
    made = proxy(handler, where or _describe(target, event))
    target.addEventListener(event, made)
    _listening.append((target, event, made))
    return made


def once(handler: Callable[..., object], where: str) -> Any:
    """A JS function for ``handler`` (guarded) that is called once (a timer, a promise, a
    frame callback)."""
    return create_once_callable(guarded(handler, where))


def later(ms: float, handler: Callable[[], object], where: str) -> Any:
    """Run ``handler`` (guarded) after ``ms`` milliseconds (``setTimeout``); returns the
    timer's id."""
    timer: Any = None

    def run() -> None:
        _timers.discard(timer)
        handler()

    timer = window.setTimeout(once(run, where), ms)
    _timers.add(timer)
    return timer


def retire() -> list[asyncio.Future[Any]]:
    """End the page's Python side without a navigation, for a start again in place
    (:mod:`sos.web.testing`): every listener :func:`listen` attached is removed, every pending
    :func:`later` timer cleared, every :func:`spawn` task cancelled (returned: their ``finally``
    blocks run at the loop's next turns, and :func:`spawn` starts nothing until
    :func:`retired` has awaited them), and every callback made before now (handlers,
    :func:`once` callbacks) does nothing if the browser still calls it."""
    global _generation, _reporter, _retiring, count
    _generation += 1
    _retiring = True
    for target, event, made in _listening:
        with contextlib.suppress(Exception):
            target.removeEventListener(event, made)
    _listening.clear()
    for timer in list(_timers):
        with contextlib.suppress(Exception):
            window.clearTimeout(timer)
    _timers.clear()
    tasks = list(_background)
    for task in tasks:
        task.cancel()
    _background.clear()
    _proxies.clear()  # (a stale call finds its handler retired anyway)
    _reporter = None
    count = 0
    _cancelled.extend(tasks)
    return tasks


async def retired() -> None:
    """Wait until the tasks :func:`retire` cancelled have ended, then retire once more what
    their ``finally`` blocks left (a timer, a listener), so that nothing of the old page acts."""
    global _retiring
    while _cancelled:
        tasks = list(_cancelled)
        _cancelled.clear()
        await asyncio.gather(*tasks, return_exceptions=True)
    retire()
    _cancelled.clear()
    _retiring = False


def _name(coroutine: Any) -> str:
    return str(getattr(coroutine, "__qualname__", "") or getattr(coroutine, "__name__", "task"))


def spawn(coroutine: Coroutine[Any, Any, Any], where: str = "") -> asyncio.Future[Any]:
    """Run ``coroutine`` as a task, keeping a reference until it is done; an exception in it
    is reported (:func:`report`) as ``task <its name>`` (or ``where``)."""
    label = where or f"task {_name(coroutine)}"
    if _retiring:  # the page is being retired: its tasks' ``finally`` blocks start nothing
        coroutine.close()
        ended: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
        ended.set_result(None)
        return ended

    async def run() -> Any:
        try:
            return await coroutine
        except Exception as error:
            report(error, label)
            return None

    task = asyncio.ensure_future(run())
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task


def future(coroutine: Coroutine[Any, Any, Any]) -> asyncio.Future[Any]:
    """A task for ``coroutine`` whose result (or exception) its callers await -- inside
    guarded handlers or tasks, which report an exception (e.g. a download shared by all)."""
    return asyncio.ensure_future(coroutine)


def runtime() -> str:
    """Python's and Pyodide's versions, for the details of a bug report."""
    version = "?"
    try:
        import pyodide

        version = str(getattr(pyodide, "__version__", "?"))
    except Exception:
        pass
    return f"Python {sys.version.split()[0]}, Pyodide {version}"


class FaultBar:
    """**Copy details** of the notice bar (``[data-testid=fault-copy]``, shown beside the
    fault's calm line): the details of the last fault, for a bug report, copied to the
    clipboard and shown selected in a box (where the clipboard is refused, to copy by hand).
    ``text(key)`` translates a message key."""

    def __init__(self, text: Callable[[str], str]) -> None:
        self.text = text
        self.details = ""
        button = document.getElementById("fault-copy")
        if button:
            listen(button, "click", lambda _e: self.copy())

    def copy(self) -> None:
        """Copy the details to the clipboard (the box shows them, selected, either way)."""
        box = document.getElementById("fault-details")
        box.value = self.details
        document.getElementById("fault-more").hidden = False
        box.select()
        spawn(self._write(self.details), "copy fault details")

    async def _write(self, details: str) -> None:
        out = document.getElementById("fault-message")
        try:
            await window.navigator.clipboard.writeText(details)
            out.textContent = self.text("fault.copied")
        except Exception:  # no clipboard permission: the details are selected in their box
            out.textContent = self.text("fault.copy_failed")


def details_of(fault: Fault, storage: str, lang: str) -> str:
    """The bug-report text of ``fault`` in this page (:func:`sos.app.fault.fault_details`)."""
    try:
        browser = str(window.navigator.userAgent)
        url = str(window.location.href)
    except Exception:
        browser, url = "", ""
    return fault_details(
        fault, runtime=runtime(), browser=browser, url=url, storage=storage, lang=lang,
        count=count,
    )
