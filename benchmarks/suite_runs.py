"""The whole suite k times, as CI runs it: failures per test, each run's time and page starts.

    python benchmarks/suite_runs.py -k 5            # scripts/test.sh five times
    python benchmarks/suite_runs.py -k 3 -- -x      # pytest arguments after --

Each run is ``scripts/test.sh --junitxml=test-results/suite-runs/run-K.xml`` (the full lane:
set-up, ruff, mypy, the rule cases under Pyodide, pytest in two workers). Printed: per run its
wall time, pytest's closing line and the page-start line of tests/e2e/conftest.py; then the
tests that failed in any run, with their counts (scripts/repeat.py's table). Nothing is
retried. For a figure of the suite's flakiness, not a test: record the output in
benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from repeat import print_table, run_once, tally  # noqa: E402

OUT = ROOT / "test-results" / "suite-runs"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", "--runs", type=int, default=3, help="how many runs (default 3)")
    parser.add_argument("pytest_args", nargs="*", help="after --: arguments for pytest")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    reports = []
    for run in range(1, args.runs + 1):
        report = OUT / f"run-{run}.xml"
        done, took = run_once(
            ["bash", "scripts/test.sh", f"--junitxml={report}", *args.pytest_args], report
        )
        minutes, seconds = divmod(int(took), 60)
        lines = done.stdout.strip().splitlines() or ["(no output)"]
        starts = next((line for line in lines if line.startswith("page starts:")), "")
        print(f"run {run}: {minutes} min {seconds:02d} s, exit {done.returncode}: {lines[-1]}")
        if starts:
            print(f"       {starts}")
        reports.append(report)
    counts, first = tally(reports)
    print_table(counts, first, args.runs)
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
