"""The generated number table (sos.app.text.cldr): one row per language, CLDR's symbols."""

from __future__ import annotations

from babel import Locale

from sos.app.text.cldr import NUMBERS
from sos.app.text.i18n import LANGUAGES


def test_every_language_has_cldrs_decimal_symbol_and_percent_sign() -> None:
    assert sorted(NUMBERS) == sorted(LANGUAGES)
    for lang, (decimal, prefix, suffix) in NUMBERS.items():
        symbols = Locale.parse(lang).number_symbols["latn"]
        assert decimal == symbols["decimal"], lang
        assert symbols["percentSign"] in prefix + suffix and not (prefix and suffix), lang
    assert {lang for lang, row in NUMBERS.items() if row[0] == ","} == {
        "de", "el", "es", "fr", "pt", "tr"
    }
    assert NUMBERS["tr"][1:] == ("%", "") and NUMBERS["fr"][1:] == ("", "\u00a0%")
