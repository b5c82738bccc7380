"""Fixtures of the cross-engine tests: the engines, a profile per test file, a logging server.

Each test of tests/engines/ runs once per engine (``engine`` is parametrized over
:data:`drivers.ENGINES`, or over ``SOS_ENGINES``, a comma list: ``scripts/test.sh --engine firefox``
sets it). One browser per engine and test file; the tests of a file share one profile (a returning
visit after the first, as for most players) whose site data is wiped between tests, and take
another profile when they need a first visit or a second device.

A missing engine fails the test under CI (``CI=true``: CI installs the three) and skips it
elsewhere, saying what to install. The tests are marked ``e2e`` (so ``--quick`` leaves them out)
and ``engines``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from drivers import ENGINES, Engine, Profile, Server, launch, missing

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "test-results"
HERE = Path(__file__).resolve().parent


def selected() -> tuple[str, ...]:
    """The engines this run tests (``SOS_ENGINES``, default all three)."""
    chosen = os.environ.get("SOS_ENGINES", "").strip()
    if not chosen:
        return ENGINES
    names = tuple(name.strip() for name in chosen.split(",") if name.strip())
    unknown = [name for name in names if name not in ENGINES]
    if unknown:
        raise pytest.UsageError(f"SOS_ENGINES: unknown engine(s) {unknown}; one of {ENGINES}")
    return names


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "engines: a cross-engine test (tests/engines/), run in Chromium, Firefox and WebKit",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.engines)


# --------------------------------------------------------------------------- server


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    if not (ROOT / "static" / "vendor" / "pyodide" / "pyodide.mjs").is_file():
        pytest.fail("static/vendor/ is missing: run scripts/test.sh --setup", pytrace=False)
    one = Server()
    yield one
    one.stop()


@pytest.fixture
def new_server() -> Iterator[Callable[[], Server]]:
    """Another server (another origin: a first visit, and one a test may stop)."""
    made: list[Server] = []

    def make() -> Server:
        made.append(Server())
        return made[-1]

    yield make
    for one in made:
        one.stop()


# --------------------------------------------------------------------------- engines


@pytest.fixture(scope="module", params=selected())
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    """One running engine for the test file (Chromium, Firefox or WebKitGTK)."""
    name: str = request.param
    lacking = missing(name)
    if lacking:
        why = (f"{name} is not installed: no {', '.join(lacking)}; "
               "scripts/test.sh --setup installs it (as root)")
        if os.environ.get("CI") == "true":
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    running = launch(name, lambda: request.getfixturevalue("playwright"))
    yield running
    running.close()


@pytest.fixture(scope="module")
def _main_profile(engine: Engine) -> Iterator[Profile]:
    one = engine.profile(1280, 800)
    yield one
    one.close()


@pytest.fixture
def profile(_main_profile: Profile, server: Server) -> Iterator[Profile]:
    """The file's profile at 1280 × 800, its site data (local storage) empty at the start."""
    _main_profile.resize(1280, 800)
    _main_profile.goto(server.url + "static/icons/icon.svg")
    _main_profile.call("() => { localStorage.clear(); sessionStorage.clear(); }")
    yield _main_profile
    foreign = _main_profile.foreign_requests()
    assert not foreign, f"[{_main_profile.engine}] loaded from another origin: {foreign}"


@pytest.fixture
def other_profile(engine: Engine) -> Iterator[Callable[..., Profile]]:
    """``other_profile(width=1280, height=800)``: a new, empty profile (another device),
    closed after the test."""
    made: list[Profile] = []

    def make(width: int = 1280, height: int = 800, scale: float = 1) -> Profile:
        made.append(engine.profile(width, height, scale))
        return made[-1]

    yield make
    for one in made:
        one.close()


@pytest.fixture
def shot(engine: Engine) -> Callable[[Profile, str], Path]:
    """``shot(profile, "name")`` saves test-results/engine-<engine>-<name>.png."""

    def save(profile: Profile, name: str) -> Path:
        RESULTS.mkdir(parents=True, exist_ok=True)
        path = RESULTS / f"engine-{engine.name}-{name}.png"
        path.write_bytes(profile.screenshot())
        return path

    return save
