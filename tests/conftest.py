"""Shared set-up of the unit tests: the app speaks every language of locale/*.po.

The page installs the compiled catalog of its language (sos/web/locale.py); here every catalog
is compiled in memory with Babel (as scripts/i18n.py compile does) and installed once.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.mofile import write_mo

from sos.app import i18n

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import i18n as i18n_tool  # scripts/i18n.py


def _install_catalogs() -> None:
    for lang in i18n_tool.languages():
        buffer = io.BytesIO()
        write_mo(buffer, i18n_tool.read(lang), use_fuzzy=False)
        i18n.install(lang, buffer.getvalue())


_install_catalogs()
