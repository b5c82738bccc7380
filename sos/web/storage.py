"""``localStorage`` access that never breaks the page: blocked storage (private mode, a
cross-site iframe) or a full quota turn into ``available = False`` / a failed write."""

from __future__ import annotations

import contextlib

from pyscript import window

SAVE_KEY = "sos-game"


class Storage:
    """The page's saved game, if the browser allows storage."""

    def __init__(self) -> None:
        self.available = False
        self._store = None
        try:
            store = window.localStorage
            store.setItem("sos-probe", "1")
            store.removeItem("sos-probe")
        except Exception:  # a JS SecurityError or missing storage, whatever the browser says
            return
        self._store = store
        self.available = True

    def read(self) -> str | None:
        """The saved text, or ``None``."""
        if self._store is None:
            return None
        try:
            value = self._store.getItem(SAVE_KEY)
        except Exception:
            return None
        # A missing key is JS null, which Pyodide passes as ``jsnull``, not ``None``.
        return value if isinstance(value, str) else None

    def write(self, text: str) -> bool:
        """Save ``text``; ``False`` when the browser refused."""
        if self._store is None:
            return False
        try:
            self._store.setItem(SAVE_KEY, text)
        except Exception:
            return False
        return True

    def remove(self) -> None:
        """Forget the saved game."""
        if self._store is not None:
            with contextlib.suppress(Exception):
                self._store.removeItem(SAVE_KEY)
