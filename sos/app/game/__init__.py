"""One game as it is played and shown: the session (:mod:`.session`: the line of play,
undo/redo), every way a game ends (:mod:`.outcome`) and which games count against the computer
(:mod:`.counted`), the computer seats (:mod:`.computer`), the view model (:mod:`.view`) and
the units of its texts kept whole on a line (:mod:`.nobreak`), the board drawn small
(:mod:`.thumbnail`) and the sounds (:mod:`.sound`).

Of :mod:`sos.app`, imports only :mod:`sos.app.text` and :mod:`sos.app.saving`.
"""
