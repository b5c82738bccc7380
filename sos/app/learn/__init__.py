"""Learning from games: the review of a game (:mod:`.review`), the puzzles
(:mod:`.puzzle_set`: the format and an attempt, :mod:`.puzzles`: the session,
:mod:`.puzzle_why`: why a solution is the move), the puzzle rating (:mod:`.rating`) and your
record against the computer (:mod:`.stats`).

Of :mod:`sos.app`, imports only :mod:`sos.app.text`, :mod:`sos.app.saving` and
:mod:`sos.app.game`.
"""
