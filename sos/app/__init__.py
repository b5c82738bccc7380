"""The app layer: what the page decides that is not DOM (pure, tested under CPython).

- :mod:`sos.app.session`: one game's line of play, undo/redo with computer seats, variations.
- :mod:`sos.app.library`: the saved games (one storage key each, two-tab safe writes).
- :mod:`sos.app.app`: one tab: the restore policy at start, new games, saving, preferences.
"""
