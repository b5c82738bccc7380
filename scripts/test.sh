#!/usr/bin/env bash
# Lint, type-check and test everything: ruff, mypy, the rule cases under Pyodide (Node),
# then pytest (unit + e2e in headless Chromium). Extra arguments go to pytest, e.g.
#   scripts/test.sh -k board          scripts/test.sh tests/e2e -x
# Environment: CHROMIUM (browser binary, default /usr/bin/chromium), PYTHON (default python3).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

die() { echo "test.sh: $*" >&2; exit 1; }
step() { echo; echo "==> $*"; }

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

mkdir -p test-results

step "ruff check sos tests scripts benchmarks"
ruff check sos tests scripts benchmarks

step "mypy --strict sos scripts/bytecode_zip.py scripts/snapshot_modules.py scripts/stdlib_zip.py"
mypy --strict sos scripts/bytecode_zip.py scripts/snapshot_modules.py scripts/stdlib_zip.py

step "rule cases under Pyodide (node tests/pyodide/run_engine_tests.mjs)"
node tests/pyodide/run_engine_tests.mjs

step "pytest $*"
python -m pytest "$@"
