"""A game written down, and where it is kept: one saved game and its stored format
(:mod:`.gamerecord`), the transcript and the share code (:mod:`.transcript`), the library of
saved games (:mod:`.library`, its index :mod:`.library_index`, the storage :mod:`.store`), the
preferences (:mod:`.prefs`) and asking the browser to keep it all (:mod:`.keep`).

Of :mod:`sos.app`, imports only :mod:`sos.app.text`.
"""
