#!/usr/bin/env bash
# Lint, type-check and test. Three lanes:
#   scripts/test.sh [ARGS]          everything (CI's .ci/run): set-up, ruff, mypy, the rule cases
#                                   under Pyodide (Node), then pytest: CPython tests, `slow` ones
#                                   included, and the browser tests in headless Chromium
#   scripts/test.sh --quick [ARGS]  ruff, mypy and the CPython tests without `e2e`, `slow` and
#                                   `build` ones (under 2 minutes; no npm, no build, no browser)
#   scripts/test.sh --setup         set-up only: .venv, npm packages, build, Chromium; no test
# ARGS go to pytest, e.g.  scripts/test.sh -k board   scripts/test.sh tests/e2e -x
#                          scripts/test.sh --quick tests/app
# Environment: CHROMIUM (browser binary, default /usr/bin/chromium), PYTHON (default python3),
#              SOS_TEST_WORKERS (pytest-xdist workers of the full lane, default 2).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

die() { echo "test.sh: $*" >&2; exit 1; }
step() { echo; echo "==> $*"; }

lane=full
case "${1:-}" in
  --quick) lane=quick; shift ;;
  --setup)
    lane=setup; shift
    [ $# -eq 0 ] || die "--setup runs no test, so it takes no pytest arguments (got: $*)."
    ;;
  -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

PYTHON="${PYTHON:-python3}"
command -v "$PYTHON" >/dev/null 2>&1 || die "Python >= 3.11 is required but '$PYTHON' was not found."
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || die "Python >= 3.11 is required, found $("$PYTHON" --version 2>&1)."
command -v node >/dev/null 2>&1 || die "Node.js >= 20 is required but 'node' was not found."
[ "$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ] \
  || die "Node.js >= 20 is required, found $(node --version)."

step "Python environment (.venv)"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
export PATH="$PWD/.venv/bin:$PATH"
# What mypy --strict checks: the package and the build scripts written in typed Python.
TYPED="sos scripts/bytecode_zip.py scripts/snapshot_modules.py scripts/stdlib_zip.py scripts/outdated.py"

if [ "$lane" = quick ]; then
  step "ruff check sos tests scripts benchmarks"
  ruff check sos tests scripts benchmarks
  step "mypy --strict $TYPED"
  # shellcheck disable=SC2086  # word splitting wanted: a list of paths
  mypy --strict $TYPED
  step "pytest -m 'not e2e and not slow and not build' $*"
  exec python -m pytest -m "not e2e and not slow and not build" "$@"
fi

step "npm ci (when package-lock.json changed) + build static/vendor"
# shellcheck source=scripts/npm_deps.sh
. scripts/npm_deps.sh
npm_deps
node scripts/build.mjs | tail -n 1
touch static/vendor/.build-stamp  # scripts/play.sh rebuilds only after a newer input

step "Chromium"
if [ -n "${CHROMIUM:-}" ]; then
  [ -x "$CHROMIUM" ] || die "CHROMIUM=$CHROMIUM is not an executable Chromium/Chrome binary."
else
  export CHROMIUM=/usr/bin/chromium
  if [ ! -x "$CHROMIUM" ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "$CHROMIUM not found; installing Debian's chromium package (Playwright cannot download browsers here)"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
      [ -x "$CHROMIUM" ] || die "apt-get installed chromium but $CHROMIUM is still missing."
    else
      die "no Chromium at $CHROMIUM. Install it (Debian/Ubuntu: sudo apt-get install -y chromium)
or point CHROMIUM at an existing Chromium/Chrome binary, e.g. CHROMIUM=/usr/bin/google-chrome scripts/test.sh"
    fi
  fi
fi
"$CHROMIUM" --version 2>/dev/null || true

if [ "$lane" = setup ]; then
  echo
  echo "test.sh: set up (.venv, node_modules, static/vendor, Chromium); no test was run."
  echo "  scripts/test.sh --quick   lint + CPython tests      scripts/test.sh   everything"
  exit 0
fi

mkdir -p test-results

step "ruff check sos tests scripts benchmarks"
ruff check sos tests scripts benchmarks

step "mypy --strict $TYPED"
# shellcheck disable=SC2086  # word splitting wanted: a list of paths
mypy --strict $TYPED

step "rule cases under Pyodide (node tests/pyodide/run_engine_tests.mjs)"
node tests/pyodide/run_engine_tests.mjs

# Two pytest-xdist workers (SOS_TEST_WORKERS to change; 0 runs in one process), a whole test
# file to a worker: the browser tests of a file share one browser context (tests/e2e/conftest.py).
WORKERS="${SOS_TEST_WORKERS:-2}"
step "pytest -n $WORKERS --dist loadfile $*"
python -m pytest -n "$WORKERS" --dist loadfile "$@"
