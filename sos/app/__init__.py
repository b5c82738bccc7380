"""The app layer: what the page decides that is not DOM (pure, tested under CPython).

Grouped by subject, each group importing only the groups above it:

- :mod:`sos.app.text`: the texts a player reads (messages, languages, catalogs).
- :mod:`sos.app.saving`: a game written down (its stored format, the transcript) and where it
  is kept (the library, one storage key each, two-tab safe writes; the preferences).
- :mod:`sos.app.game`: one game played and shown: the session (line of play, undo/redo), every
  way a game ends (:mod:`~sos.app.game.outcome`), the computer seats, the view model.
- :mod:`sos.app.share`: links and embeds: URL parameters, games by link, players' names, the
  messages to a host page.
- :mod:`sos.app.learn`: review, puzzles, the puzzle rating, the record against the computer.

Here, one tab made of them: :mod:`sos.app.app` (made of :mod:`~sos.app.tab`,
:mod:`~sos.app.restore` and :mod:`~sos.app.games_list`), the start choice
(:mod:`~sos.app.start`), taps made before the engine was up (:mod:`~sos.app.early`), the
library file (:mod:`~sos.app.backup`) and faults (:mod:`~sos.app.fault`).
"""
