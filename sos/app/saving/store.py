"""Where the library keeps its text: the :class:`Store` protocol (the semantics of
``window.localStorage``), :class:`MemoryStore` (tests, and pages where the browser refuses
storage) and :class:`StorageError` (a write the browser refused).
"""

from __future__ import annotations

from typing import Protocol


class StorageError(Exception):
    """A write the browser refused. ``kind`` is ``"full"`` (quota exceeded) or ``"refused"``
    (storage blocked: a private mode or a frame without storage access)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class Store(Protocol):
    """A string key-value store with the semantics of ``window.localStorage``."""

    def get(self, key: str) -> str | None:
        """The value under ``key``, or None."""

    def set(self, key: str, value: str) -> None:
        """Write ``value``; raises :class:`StorageError` and changes nothing when refused."""

    def remove(self, key: str) -> None:
        """Forget ``key`` (no error when it is missing)."""

    def keys(self) -> list[str]:
        """Every key in the store."""

    def length(self) -> int:
        """How many keys the store holds (``localStorage.length``: no key is read)."""


class MemoryStore:
    """A :class:`Store` in a dict, with an optional quota in characters (keys + values), as
    browsers count ``localStorage`` use. For tests, and for pages where storage is refused."""

    def __init__(self, quota: int | None = None) -> None:
        self.data: dict[str, str] = {}
        self.quota = quota

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        if self.quota is not None:
            used = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
            if used + len(key) + len(value) > self.quota:
                raise StorageError("full")
        self.data[key] = value

    def remove(self, key: str) -> None:
        self.data.pop(key, None)

    def keys(self) -> list[str]:
        return list(self.data)

    def length(self) -> int:
        return len(self.data)
