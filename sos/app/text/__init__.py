"""Texts a player reads: every message's key and English text, the languages and the
catalogs of the others (:mod:`.i18n`, with each language's numbers from CLDR in :mod:`.cldr`),
and texts kept as (key, values) until they are shown (:mod:`.message`).

Imports no other part of :mod:`sos.app`.
"""
