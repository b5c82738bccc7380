"""The flake finder: run the given tests N times, each run a pytest process of its own as CI
runs it (a first visit, a fresh interpreter), and print how often each test failed.

    python scripts/repeat.py -n 10 tests/e2e/test_game.py [pytest args...]
    scripts/test.sh --repeat 10 tests/e2e/test_game.py          (the same, after the set-up)

Every run writes a JUnit XML report (test-results/repeat/run-K.xml); the table lists each test
that failed or errored at least once, with its count and the first line of its first failure.
The exit status is 1 if any run failed. There is no retry anywhere: a test that fails once in
N runs is a flake to find and fix (docs/contributing.md, "How the tests are built").
``benchmarks/suite_runs.py`` uses :func:`tally` for whole-suite runs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "test-results" / "repeat"


def outcomes(report: Path) -> dict[str, str]:
    """``{test id: first line of its failure}`` of the failed or errored tests of a JUnit XML
    report (``classname::name``); an empty dict for a clean run."""
    failed: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        for kind in ("failure", "error"):
            found = case.find(kind)
            if found is not None:
                test = f"{case.get('classname', '')}::{case.get('name', '')}"
                message = (found.get("message") or found.text or kind).strip().splitlines()
                failed.setdefault(test, message[0][:160] if message else kind)
    return failed


def tally(reports: list[Path]) -> tuple[Counter[str], dict[str, str]]:
    """Failures per test over ``reports`` and the first message of each."""
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}
    for report in reports:
        if not report.is_file():
            continue
        for test, message in outcomes(report).items():
            counts[test] += 1
            first.setdefault(test, message)
    return counts, first


def print_table(counts: Counter[str], first: dict[str, str], runs: int) -> None:
    if not counts:
        print(f"repeat: no test failed in {runs} runs")
        return
    print(f"repeat: failures per test in {runs} runs")
    for test, count in counts.most_common():
        print(f"  {count:3d}/{runs}  {test}\n         {first[test]}")


def run_once(
    command: list[str], report: Path
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``command`` (which writes the JUnit XML ``report``) from the project's root, a
    report left by an earlier run removed first; returns the finished process and its seconds."""
    report.unlink(missing_ok=True)
    began = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    return done, time.monotonic() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--runs", type=int, default=10, help="how many runs (default 10)")
    parser.add_argument("pytest_args", nargs=argparse.REMAINDER, help="paths and pytest arguments")
    args = parser.parse_args(argv)
    if args.runs < 1 or not args.pytest_args:
        parser.error("give a count of at least 1 and the tests to run")
    OUT.mkdir(parents=True, exist_ok=True)
    reports = []
    for run in range(1, args.runs + 1):
        report = OUT / f"run-{run}.xml"
        done, seconds = run_once(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             f"--junitxml={report}", *args.pytest_args],
            report,
        )
        reports.append(report)
        last = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
        print(f"run {run}/{args.runs}: {last} ({seconds:.0f} s)", flush=True)
        if done.returncode not in (0, 1) or not report.is_file():
            print(done.stdout[-3000:] + done.stderr[-3000:])
            return 2
    counts, first = tally(reports)
    print_table(counts, first, args.runs)
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
