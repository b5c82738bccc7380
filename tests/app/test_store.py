"""Where the library keeps its text (sos.app.saving.store): the in-memory store counts its quota as
browsers count localStorage use, and a refused write changes nothing -- under CPython."""

from __future__ import annotations

import pytest

from sos.app.saving.store import MemoryStore, StorageError


def test_the_quota_counts_keys_and_values_and_a_refused_write_changes_nothing() -> None:
    store = MemoryStore(quota=10)
    store.set("ab", "cdef")  # 6 characters
    store.set("ab", "cdefghij")  # 10: a key written over counts once
    with pytest.raises(StorageError) as caught:
        store.set("x", "y")  # 12 > 10
    assert caught.value.kind == "full"
    assert store.keys() == ["ab"] and store.get("ab") == "cdefghij" and store.length() == 1
    store.remove("ab")
    store.remove("missing")  # no error
    assert store.get("ab") is None and store.length() == 0
    unlimited = MemoryStore()
    unlimited.set("k", "v" * 100_000)
    assert unlimited.get("k") == "v" * 100_000
