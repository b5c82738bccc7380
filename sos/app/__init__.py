"""The app layer: what the page decides that is not DOM (pure, tested under CPython).

- :mod:`sos.app.session`: one game's line of play, undo/redo (one rule) with computer seats,
  variations.
- :mod:`sos.app.outcome`: every way a game ends, and whether and how it ended.
- :mod:`sos.app.library`: the saved games (one storage key each, two-tab safe writes).
- :mod:`sos.app.app`: one tab (made of :mod:`~sos.app.tab`, :mod:`~sos.app.restore` and
  :mod:`~sos.app.games_list`): the restore policy at start, new games, saving, preferences.
- :mod:`sos.app.link` and :mod:`sos.app.remote`: games by link.
"""
