"""The preferences (sos.app.saving.prefs): read back as written, and anything unreadable replaced by
its default, never an error -- under CPython."""

from __future__ import annotations

import json

from sos.app.saving.prefs import THEMES, Prefs


def test_prefs_round_trip_and_damage_falls_back_to_defaults() -> None:
    prefs = Prefs(lang="de", theme="dark", letter="O", sound=True)
    assert Prefs.load(prefs.dump()) == prefs
    assert Prefs.load(None) == Prefs() == Prefs.load("{cut") == Prefs.load("[1, 2]")
    odd = {"lang": "xx", "theme": "neon", "letter": "Q", "sound": "yes"}
    assert Prefs.load(json.dumps(odd)) == Prefs()
    assert Prefs().theme in THEMES and Prefs().lang is None  # None: follow the browser
