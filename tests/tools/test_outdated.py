"""scripts/outdated.py: its version logic and output, with the registries replaced by lists."""

from __future__ import annotations

import json
from pathlib import Path

import outdated  # scripts/outdated.py (tests/conftest.py puts scripts/ on sys.path)
import pytest

PYODIDE = [
    "0.29.5",
    "314.0.0-alpha.1",
    "314.0.0",
    "314.0.2",
    "314.0.7",
    "314.0.8",
    "315.0.0-alpha.2",
]


@pytest.mark.parametrize(
    ("text", "key", "post"),
    [
        ("314.0.2", (314, 0, 2), 0),
        ("1.0", (1,), 0),
        ("1.0.0", (1,), 0),
        ("v2.5.1", (2, 5, 1), 0),
        ("1.2.post3", (1, 2), 3),
        ("1.2-post3", (1, 2), 3),
    ],
)
def test_parse_version(text: str, key: tuple[int, ...], post: int) -> None:
    version = outdated.parse_version(text)
    assert version is not None
    assert (version.key, version.post, version.text) == (key, post, text)


@pytest.mark.parametrize(
    "text", ["314.0.0-alpha.1", "1.0rc1", "2.0b2", "3.1.dev0", "1.0+local", "^1.2.3", "latest", ""]
)
def test_pre_releases_and_ranges_are_not_versions(text: str) -> None:
    assert outdated.parse_version(text) is None


def test_versions_compare_numerically() -> None:
    def v(text: str) -> outdated.Version:
        parsed = outdated.parse_version(text)
        assert parsed is not None
        return parsed

    assert v("314.0.10") > v("314.0.9") > v("314.0.2")  # not as strings
    assert v("1.0") == v("1.0.0")
    assert v("1.2.post1") > v("1.2") and v("1.2.1") > v("1.2.post1")
    assert v("0.7.31").series == (0, 7) and v("2").series == (2, 0)


def test_newest_patch_of_the_series_and_pre_releases_ignored() -> None:
    report = outdated.judge("pyodide", "314.0.2", PYODIDE)
    assert report == outdated.Report("pyodide", "314.0.2", "314.0.8", "314.0.8")


def test_up_to_date_when_only_pre_releases_or_older_are_newer() -> None:
    report = outdated.judge("pyodide", "314.0.8", PYODIDE)
    assert (report.patch, report.newest, report.newer_series) == (None, "314.0.8", False)


def test_a_newer_minor_is_not_a_patch_but_is_shown() -> None:
    report = outdated.judge("babel", "2.18.0", ["2.17.0", "2.18.0", "2.19.0", "3.0.0rc1"])
    assert (report.patch, report.newest, report.newer_series) == (None, "2.19.0", True)
    line = outdated.format_report(report, 5)
    assert "up to date" in line and line.endswith("newest 2.19.0 (newer series)")


def test_a_patch_and_a_newer_major_at_once() -> None:
    report = outdated.judge("x", "1.4.2", ["1.4.2", "1.4.3", "1.5.0", "2.0.0", "1.4.10"])
    assert (report.patch, report.newest, report.newer_series) == ("1.4.10", "2.0.0", True)
    assert "-> 1.4.10 (patch)" in outdated.format_report(report, 1)


def test_two_number_pins_take_their_patches() -> None:
    assert outdated.judge("y", "2.18", ["2.18", "2.18.1", "2.19"]).patch == "2.18.1"


def test_a_pin_that_is_not_exact_is_reported_not_judged() -> None:
    report = outdated.judge("z", "^1.2.3", ["1.2.4"])
    assert (report.patch, report.note) == (None, "not an exact stable version")
    assert "(not an exact stable version)" in outdated.format_report(report, 1)


def test_registry_outputs() -> None:
    assert outdated.parse_npm_versions(json.dumps(PYODIDE)) == PYODIDE
    assert outdated.parse_npm_versions('"1.0.0"') == ["1.0.0"]  # npm prints one version bare
    with pytest.raises(ValueError):
        outdated.parse_npm_versions('{"error": "E404"}')
    pip = "babel (2.19.0)\nAvailable versions: 2.19.0, 2.18.0, 2.17.0\n  INSTALLED: 2.18.0\n"
    assert outdated.parse_pip_versions(pip) == ["2.19.0", "2.18.0", "2.17.0"]
    with pytest.raises(ValueError):
        outdated.parse_pip_versions("ERROR: No matching distribution found for nothing")


def test_pins_are_read_from_package_json_and_requirements(tmp_path: Path) -> None:
    package = tmp_path / "package.json"
    package.write_text(
        json.dumps({"dependencies": {"pyodide": "314.0.2"}, "devDependencies": {"w": "7.4.1"}})
    )
    assert outdated.npm_pins(package) == {"pyodide": "314.0.2", "w": "7.4.1"}
    requirements = tmp_path / "requirements-test.txt"
    requirements.write_text(
        "# comment\n-r requirements-build.txt\npytest==9.2.0\n"
        "uvicorn[standard]==0.30.1  # extras\nloose>=1.0\nmarked==1.0 ; python_version<'3.12'\n"
    )
    assert outdated.requirement_pins([requirements]) == {
        "pytest": "9.2.0",
        "uvicorn": "0.30.1",
        "marked": "1.0",
    }
    assert outdated.npm_pins()["pyodide"]  # the repository's own package.json pins it


def test_check_keeps_going_when_a_registry_fails() -> None:
    def versions(name: str) -> list[str]:
        if name == "gone":
            raise RuntimeError("npm error 404 Not Found")
        return ["1.0.0", "1.0.1"]

    reports, errors = outdated.check({"a": "1.0.0", "gone": "1.0.0", "b": "1.0.1"}, versions)
    assert [(r.name, r.patch) for r in reports] == [("a", "1.0.1"), ("b", None)]
    assert errors == ["gone: could not list its versions (npm error 404 Not Found)"]


def test_exit_status(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(outdated, "npm_pins", lambda: {"pyodide": "314.0.2"})
    monkeypatch.setattr(outdated, "npm_versions", lambda name: PYODIDE)
    assert outdated.main(["outdated.py"]) == 1
    assert "pyodide  314.0.2    -> 314.0.8 (patch)" in capsys.readouterr().out
    monkeypatch.setattr(outdated, "npm_pins", lambda: {"pyodide": "314.0.8"})
    assert outdated.main(["outdated.py"]) == 0
    assert outdated.main(["outdated.py", "--bogus"]) == 2
