#!/usr/bin/env bash
# Lint, type-check and test. Four lanes:
#   scripts/test.sh [ARGS]          everything (CI's .ci/run): set-up, ruff, mypy, the rule cases
#                                   under Pyodide (Node), then pytest: CPython tests, `slow` ones
#                                   included, the browser tests in headless Chromium and the
#                                   cross-engine tests (tests/engines/) in Chromium, Firefox, WebKit
#   scripts/test.sh --quick [ARGS]  ruff, mypy and the CPython tests without `e2e`, `slow` and
#                                   `build` ones (under 2 minutes; no npm, no build, no browser)
#   scripts/test.sh --engine [NAME] [ARGS]  set-up, then the cross-engine tests (tests/engines/)
#                                   in one engine (chromium, firefox or webkit), or in the three
#   scripts/test.sh --setup         set-up only: .venv, npm packages, build, the three browsers
#   scripts/test.sh --repeat N PATHS  set-up, then PATHS (tests and pytest arguments) N times, a
#                                   process each run, and the failures per test (scripts/repeat.py):
#                                   the flake finder for every browser test you add or change
# ARGS go to pytest, e.g.  scripts/test.sh -k board   scripts/test.sh tests/e2e -x
#                          scripts/test.sh --quick tests/app   scripts/test.sh --engine webkit -x
# Environment: CHROMIUM (browser binary, default /usr/bin/chromium), FIREFOX (default
#              /usr/bin/firefox-esr), PYTHON (default python3), SOS_TEST_WORKERS (pytest-xdist
#              workers of the full lane, default 2), SOS_ENGINES (engines of tests/engines/).
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
  --engine)
    lane=engine; shift
    case "${1:-}" in
      chromium|firefox|webkit) export SOS_ENGINES="$1"; shift ;;
      ""|-*) export SOS_ENGINES="${SOS_ENGINES:-chromium,firefox,webkit}" ;;
      *) die "--engine $1: unknown engine; one of chromium, firefox, webkit." ;;
    esac
    ;;
  --repeat)
    lane=repeat; shift
    case "${1:-}" in
      ''|*[!0-9]*) die "--repeat N PATHS: N, a count of runs, comes first (e.g. --repeat 10 tests/e2e/test_game.py)." ;;
    esac
    REPEAT="$1"; shift
    [ $# -gt 0 ] || die "--repeat $REPEAT: name the tests to repeat (e.g. tests/e2e/test_game.py)."
    ;;
  -h|--help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

# The other engines of tests/engines/, from Debian's packages (nothing else can be downloaded):
# Firefox ESR (driven over WebDriver BiDi), WebKitGTK's WebKitWebDriver + MiniBrowser, and Xvfb
# for MiniBrowser's window. Without root the tests say what is missing (and fail under CI).
step "Firefox ESR and WebKitGTK"
FIREFOX="${FIREFOX:-/usr/bin/firefox-esr}"
export FIREFOX
want=()
[ -x "$FIREFOX" ] || want+=(firefox-esr)
[ -x /usr/bin/WebKitWebDriver ] || want+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || want+=(xvfb)
if [ ${#want[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's ${want[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${want[@]}" >/dev/null
  else
    echo "test.sh: missing ${want[*]}: the tests of tests/engines/ in those engines will be skipped" >&2
    echo "  (install: sudo apt-get install -y ${want[*]})" >&2
  fi
fi
"$FIREFOX" --version 2>/dev/null || true
dpkg-query -W -f='WebKitGTK ${Version}\n' webkit2gtk-driver 2>/dev/null || true

if [ "$lane" = setup ]; then
  echo
  echo "test.sh: set up (.venv, node_modules, static/vendor, Chromium, Firefox, WebKitGTK); no test was run."
  echo "  scripts/test.sh --quick   lint + CPython tests      scripts/test.sh   everything"
  exit 0
fi

mkdir -p test-results

if [ "$lane" = engine ]; then
  step "pytest tests/engines in $SOS_ENGINES $*"
  exec python -m pytest tests/engines "$@"
fi

if [ "$lane" = repeat ]; then
  step "scripts/repeat.py -n $REPEAT $*"
  exec python scripts/repeat.py -n "$REPEAT" "$@"
fi

step "ruff check sos tests scripts benchmarks"
ruff check sos tests scripts benchmarks

step "mypy --strict $TYPED"
# shellcheck disable=SC2086  # word splitting wanted: a list of paths
mypy --strict $TYPED

step "rule cases under Pyodide (node tests/pyodide/run_engine_tests.mjs)"
node tests/pyodide/run_engine_tests.mjs

# Two pytest-xdist workers (SOS_TEST_WORKERS to change; 0 runs in one process), a whole test
# file to a worker: the browser tests of a file share one browser context (tests/e2e/conftest.py).
# --durations=25: the slowest steps; the browser tests' conftest adds the app's page loads, first
# visits and starts in place. The hang guard is pytest-timeout's (pyproject.toml); no retries.
WORKERS="${SOS_TEST_WORKERS:-2}"
step "pytest -n $WORKERS --dist loadfile --durations=25 $*"
python -m pytest -n "$WORKERS" --dist loadfile --durations=25 "$@"
