"""Shared set-up of the unit tests: the app speaks every language of locale/*.po.

The page installs the compiled catalog of its language (sos/web/locale.py); here every catalog
is compiled in memory with Babel (as scripts/i18n.py compile does) and installed once.
"""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.mofile import write_mo

from sos.app.text import i18n

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import i18n as i18n_tool  # scripts/i18n.py


def _install_catalogs() -> None:
    for lang in i18n_tool.languages():
        buffer = io.BytesIO()
        write_mo(buffer, i18n_tool.read(lang), use_fuzzy=False)
        i18n.install(lang, buffer.getvalue())


_install_catalogs()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The cross-engine tests (tests/engines/) first: they are the longest files, and
    pytest-xdist's ``--dist loadfile`` hands out files in this order, so that they run while the
    other worker takes the rest instead of starting last and ending the run late."""
    engines = Path(__file__).resolve().parent / "engines"

    def rank(item: pytest.Item) -> int:
        if engines not in item.path.parents:
            return 2
        return 0 if item.path.name == "test_scenarios.py" else 1

    items.sort(key=rank)


@pytest.fixture(scope="session", autouse=True)
def delete_output_dir() -> None:
    """Replaces pytest-playwright's fixture of this name, which deletes ``--output``
    (test-results/) at the first test of *each* xdist worker: a worker started late, or
    restarted after its process died, would delete what the other worker kept there meanwhile
    -- its failure screenshots and the renderer crash dumps (tests/e2e/conftest.py). The
    folder is emptied once instead, by the controller (:func:`pytest_configure`)."""


def pytest_configure(config: pytest.Config) -> None:
    """Empty ``--output`` once, before any worker starts (not in a worker: see
    :func:`delete_output_dir`)."""
    if hasattr(config, "workerinput"):
        return
    output = config.getoption("--output", default=None)
    if output:
        shutil.rmtree(output, ignore_errors=True)
        Path(output).mkdir(parents=True, exist_ok=True)


# --------------------------------------------------------------------------- page starts
# The browser tests' workers write their counts of the app's page loads (tests/e2e/conftest.py
# PAGES); the summary is printed here, by the process that runs the session (the pytest-xdist
# controller loads this conftest, not the one of tests/e2e/).
RESULTS = Path(__file__).resolve().parents[1] / "test-results"


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):
        for old in RESULTS.glob("page-starts-*.json"):
            old.unlink()


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Print the app's page loads, first visits and starts in place of the run."""
    if hasattr(config, "workerinput"):
        return
    totals = {"loads": 0, "first": 0, "in_place": 0}
    files = sorted(RESULTS.glob("page-starts-*.json"))
    for path in files:
        for key, value in json.loads(path.read_text()).items():
            totals[key] = totals.get(key, 0) + int(value)
    if files:
        terminalreporter.write_line(
            f"page starts: {totals['loads']} loads of the app ({totals['first']} first visits),"
            f" {totals['in_place']} starts in place"
        )
