"""``window.localStorage`` as a :class:`sos.app.saving.library.Store`: reads never raise, a refused
write raises :class:`~sos.app.saving.library.StorageError` saying whether the quota is full or
storage is blocked (the page tells the two apart for the user). And :func:`with_lock`, which
runs the library's writes of all the origin's tabs one at a time (Web Locks)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from pyscript import window

from sos.app.saving.library import StorageError
from sos.web import guard

#: ``DOMException`` names browsers use for a full quota (Chromium/WebKit, old Firefox).
QUOTA_ERRORS = ("QuotaExceededError", "NS_ERROR_DOM_QUOTA_REACHED")


def _error_kind(error: Exception) -> str:
    name = str(getattr(error, "name", "") or "")
    if name in QUOTA_ERRORS or "quota" in str(error).lower():
        return "full"
    return "refused"


class LocalStore:
    """``localStorage`` of the page's origin."""

    def __init__(self, store: Any) -> None:
        self._store = store

    @classmethod
    def open(cls) -> LocalStore | None:
        """The page's storage, or None where the browser refuses it (a blocked frame, a
        disabled setting). Nothing is written to find out: a full storage is still readable."""
        try:
            store = window.localStorage
            store.getItem("sos-prefs")
        except Exception:  # a JS SecurityError or a missing storage, whatever the browser says
            return None
        return cls(store)

    def get(self, key: str) -> str | None:
        try:
            value = self._store.getItem(key)
        except Exception:
            return None
        # A missing key is JS null, which Pyodide passes as ``jsnull``, not ``None``.
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> None:
        try:
            self._store.setItem(key, value)
        except Exception as error:  # a JsException carrying the DOMException's name
            raise StorageError(_error_kind(error)) from None

    def remove(self, key: str) -> None:
        with contextlib.suppress(Exception):
            self._store.removeItem(key)

    def keys(self) -> list[str]:
        try:  # one call for all the names (a library of 10 000 games has 10 000 keys)
            return [str(key) for key in window.Object.keys(self._store).to_py()]
        except Exception:
            return []

    def length(self) -> int:
        try:
            return int(self._store.length)
        except Exception:  # unknown: -1 never matches the count the index recorded
            return -1


#: The Web Lock every write of the library is made under, in every tab of the origin.
LOCK_NAME = "sos-library"


def with_lock(task: Callable[[], None]) -> None:
    """Run ``task`` (a read-compare-write of the library, then its rendering) under the Web
    Lock :data:`LOCK_NAME`: the tabs of the origin take turns, so no tab reads a game between
    another tab's read and write. The lock is held while ``task`` runs (it returns no promise).
    Where the browser has no ``navigator.locks`` (older browsers, some embedded views) ``task``
    runs at once: the writes still compare content, and the ``storage`` event lets a tab whose
    write was overwritten write again (:meth:`sos.app.app.AppSession.external_change`)."""
    locks = getattr(window.navigator, "locks", None)
    if not locks:
        task()
        return
    ran = False

    def locked(_lock: Any) -> None:
        nonlocal ran
        ran = True
        task()

    def settled(request: Any) -> None:
        # A refused request (SecurityError where storage is blocked, e.g. a cross-site iframe)
        # rejects its promise without calling ``locked``: run the task without the lock then.
        # Reading the exception also keeps the browser console free of "never retrieved".
        error = request.exception()
        if error is None:
            return
        if ran:  # the task itself failed: say so, as an uncaught error would
            window.console.error(f"sos: saving failed: {error!r}")
        else:
            task()

    try:
        request = locks.request(LOCK_NAME, guard.once(locked, "a save under the library's lock"))
    except Exception:  # a browser that has the object but refuses the request at once
        task()
        return
    if hasattr(request, "add_done_callback"):  # Pyodide turns the returned promise into a future
        request.add_done_callback(settled)
