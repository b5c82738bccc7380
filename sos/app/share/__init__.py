"""Links and embeds: the page's URL parameters (:mod:`.params`), the link format of
games by link (:mod:`.link`) and what a device does with a link (:mod:`.remote`), the players'
names and the rematch (:mod:`.players`: a game by link carries its names and its seat, which
both follow), and the messages to a page that embeds the game (:mod:`.embed`).

Of :mod:`sos.app`, imports only :mod:`sos.app.text`, :mod:`sos.app.saving` and
:mod:`sos.app.game`.
"""
