#!/usr/bin/env bash
# Build the self-hosted runtime and serve the game locally.
# Usage: scripts/play.sh            (PORT=8080 scripts/play.sh for another port)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

die() { echo "play.sh: $*" >&2; exit 1; }

command -v node >/dev/null 2>&1 || die "Node.js >= 20 is required but 'node' was not found (https://nodejs.org/)."
command -v npm >/dev/null 2>&1 || die "npm is required but was not found (it ships with Node.js)."
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 20 ] || die "Node.js >= 20 is required, found $(node --version)."

command -v python3 >/dev/null 2>&1 || die "Python >= 3.11 is required but 'python3' was not found."
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || die "Python >= 3.11 is required, found $(python3 --version 2>&1)."

if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  npm install --no-audit --no-fund
fi
node scripts/build.mjs

PORT="${PORT:-8000}"
echo
echo "Open http://127.0.0.1:${PORT}/ in your browser (Ctrl+C to stop)."
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory .
