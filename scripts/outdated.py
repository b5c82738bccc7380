#!/usr/bin/env python3
"""Which pinned packages have newer releases: a patch in the same series, or a newer series.

Usage (from anywhere; paths are relative to the repository):

  python scripts/outdated.py            the npm runtime packages of package.json
                                        (dependencies and devDependencies; ``npm view``)
  python scripts/outdated.py --python   also the exact pins of requirements-*.txt
                                        (``pip index versions``)

One line per package, e.g.::

  pyodide           314.0.2  -> 314.0.8 (patch)   newest 314.0.8
  @pyscript/core    0.7.31      up to date         newest 0.7.31
  babel             2.18.0      up to date         newest 2.19.0 (newer series)

A *patch* is a newer stable release with the same first two version numbers (314.0.2 ->
314.0.8; 2.18 -> 2.18.1); *newest* is the newest stable release of any series, shown so that a
new major or minor version is seen too. Pre-releases (``-alpha.1``, ``rc1``, ``.dev0``) never
count. Exit status: 0 when no pinned package has a newer patch, 1 when at least one has, 2 when
a registry could not be asked (the other packages are still listed).

Needs ``npm`` (and for ``--python`` pip) and network access to the registries; it changes no
file. Bump a pin by editing package.json, then ``npm install --package-lock-only`` and
``scripts/test.sh`` (which runs ``npm ci`` when the lock changed).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_JSON = ROOT / "package.json"
#: A release: dotted numbers, optionally a post-release (PEP 440 ``.post1``). Anything else
#: after the numbers (``-alpha.1``, ``rc1``, ``b2``, ``.dev0``, ``+local``) is not a release.
_RELEASE = re.compile(r"^v?(\d+(?:\.\d+)*)(?:[.-]?post(\d+))?$", re.IGNORECASE)
_PIN = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*==\s*([^\s;#]+)")


@dataclass(frozen=True, order=True)
class Version:
    """A stable release number: ``release`` (e.g. (314, 0, 2)) and ``post`` (0 if none).

    Compared numerically with trailing zeros ignored (1.0 == 1.0.0), post-releases after
    their release.
    """

    key: tuple[int, ...]
    post: int
    text: str = field(compare=False)

    @property
    def series(self) -> tuple[int, int]:
        """The first two numbers (major, minor): releases sharing them are patches."""
        padded = (*self.key, 0, 0)
        return padded[0], padded[1]


def parse_version(text: str) -> Version | None:
    """``"314.0.2"`` -> Version; None for a pre-release or anything that is not a version."""
    match = _RELEASE.match(text.strip())
    if match is None:
        return None
    numbers = tuple(int(part) for part in match.group(1).split("."))
    key = numbers
    while len(key) > 1 and key[-1] == 0:
        key = key[:-1]
    return Version(key=key, post=int(match.group(2) or 0), text=text.strip())


@dataclass(frozen=True)
class Report:
    """What the registry knows about one pin.

    ``patch``: the newest stable release in the pin's series if newer than the pin, else None.
    ``newest``: the newest stable release of any series (None if the registry lists none).
    ``newer_series``: ``newest`` is in a later series than the pin (a minor or major release).
    ``note``: why the pin could not be judged ("" when it could).
    """

    name: str
    pinned: str
    patch: str | None
    newest: str | None
    newer_series: bool = False
    note: str = ""


def judge(name: str, pinned: str, available: Iterable[str]) -> Report:
    """Compare the pinned version with the versions a registry lists (any order, any kind)."""
    pin = parse_version(pinned)
    if pin is None:
        return Report(name, pinned, None, None, note="not an exact stable version")
    stable = [v for v in (parse_version(text) for text in available) if v is not None]
    newest = max(stable, default=None)
    same_series = [v for v in stable if v.series == pin.series and v > pin]
    patch = max(same_series, default=None)
    return Report(
        name,
        pinned,
        patch.text if patch else None,
        newest.text if newest else None,
        newer_series=newest is not None and newest.series > pin.series,
    )


def npm_pins(package_json: Path = PACKAGE_JSON) -> dict[str, str]:
    """``{name: version}`` of package.json's dependencies and devDependencies."""
    data = json.loads(package_json.read_text(encoding="utf-8"))
    pins: dict[str, str] = {}
    for section in ("dependencies", "devDependencies"):
        pins.update(data.get(section, {}))
    return pins


def requirement_pins(files: Sequence[Path]) -> dict[str, str]:
    """``{name: version}`` of the ``name==version`` lines of pip requirement files.

    ``-r other.txt`` lines are not followed (pass every file); other lines are skipped.
    """
    pins: dict[str, str] = {}
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            match = _PIN.match(line)
            if match:
                pins[match.group(1)] = match.group(2)
    return pins


def parse_npm_versions(output: str) -> list[str]:
    """The versions in ``npm view NAME versions --json`` output (a list, or one string)."""
    data = json.loads(output)
    if isinstance(data, str):
        return [data]
    if isinstance(data, list) and all(isinstance(v, str) for v in data):
        return list(data)
    raise ValueError(f"unexpected npm output: {output[:80]!r}")


def parse_pip_versions(output: str) -> list[str]:
    """The versions in ``pip index versions NAME`` output (its "Available versions:" line)."""
    for line in output.splitlines():
        if line.strip().startswith("Available versions:"):
            listed = line.split(":", 1)[1]
            return [v.strip() for v in listed.split(",") if v.strip()]
    raise ValueError(f"no 'Available versions:' in pip output: {output[:80]!r}")


def _run(command: list[str]) -> str:
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).strip().splitlines()
        raise RuntimeError(lines[-1] if lines else f"exit status {result.returncode}")
    return result.stdout


def npm_versions(name: str) -> list[str]:
    return parse_npm_versions(_run(["npm", "view", name, "versions", "--json"]))


def pip_versions(name: str) -> list[str]:
    command = [sys.executable, "-m", "pip", "index", "versions", name]
    return parse_pip_versions(_run([*command, "--disable-pip-version-check"]))


def check(
    pins: dict[str, str], versions: Callable[[str], list[str]]
) -> tuple[list[Report], list[str]]:
    """Reports for every pin, and the errors of the pins whose versions could not be fetched."""
    reports: list[Report] = []
    errors: list[str] = []
    for name, pinned in pins.items():
        try:
            available = versions(name)
        except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as error:
            errors.append(f"{name}: could not list its versions ({error})")
            continue
        reports.append(judge(name, pinned, available))
    return reports, errors


def format_report(report: Report, width: int) -> str:
    """One aligned line for ``report``."""
    if report.note:
        state = f"({report.note})"
    elif report.patch:
        state = f"-> {report.patch} (patch)"
    else:
        state = "   up to date"
    newest = f"newest {report.newest}" if report.newest else "no stable release listed"
    if report.newer_series:
        newest += " (newer series)"
    return f"{report.name:<{width}}  {report.pinned:<10} {state:<20} {newest}"


def main(argv: Sequence[str]) -> int:
    args = list(argv[1:])
    if any(a not in ("--python",) for a in args):
        print(__doc__, file=sys.stderr)
        return 2
    groups: list[tuple[str, dict[str, str], Callable[[str], list[str]]]] = [
        ("npm (package.json)", npm_pins(), npm_versions)
    ]
    if "--python" in args:
        files = sorted(ROOT.glob("requirements-*.txt"))
        label = "pip (" + ", ".join(f.name for f in files) + ")"
        groups.append((label, requirement_pins(files), pip_versions))
    status = 0
    for label, pins, versions in groups:
        print(f"{label}:")
        reports, errors = check(pins, versions)
        width = max((len(name) for name in pins), default=0)
        for report in reports:
            print("  " + format_report(report, width))
            if report.patch:
                status = max(status, 1)
        for error in errors:
            print(f"  {error}", file=sys.stderr)
            status = 2
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
