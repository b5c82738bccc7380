#!/usr/bin/env bash
# Build the self-hosted runtime (when needed) and serve the game locally.
# Usage: scripts/play.sh            (PORT=8080 scripts/play.sh for a given port)
# Without PORT the first free port from 8000 to 8019 is used (else one the system picks).
# npm packages are installed only when package-lock.json changed since the last install, and
# static/vendor/ + sw.js + dist/ are rebuilt only when a file they are made from is newer
# than the last build (static/vendor/.build-stamp), so a second start serves in about a second.
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

# Fail before any install if the port asked for is taken.
if [ -n "${PORT:-}" ]; then
  [[ "$PORT" =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ] \
    || die "PORT=$PORT is not a port number (1-65535)."
  python3 - "$PORT" <<'PY' || die "port $PORT on 127.0.0.1 is in use by another program; choose another with PORT=... or leave PORT unset to pick a free one."
import socket, sys
with socket.socket() as s:
    try:
        s.bind(("127.0.0.1", int(sys.argv[1])))
    except OSError:
        sys.exit(1)
PY
fi

# shellcheck source=scripts/npm_deps.sh
. scripts/npm_deps.sh
npm_deps

# Babel compiles the gettext catalogs (locale/) during the build (scripts/i18n.py): kept in .venv/
if [ -d locale ] && ! { [ -x .venv/bin/python ] && .venv/bin/python -c 'import babel' 2>/dev/null; }; then
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-build.txt
fi

stamp=static/vendor/.build-stamp
inputs=(package-lock.json index.html pyscript.toml sos static scripts/build.mjs scripts/site.mjs
        scripts/bytecode.mjs scripts/bytecode_zip.py scripts/stdlib.mjs scripts/stdlib_zip.py
        scripts/snapshot.mjs scripts/snapshot_modules.py scripts/pyodide-snap.mjs locale scripts/i18n.py
        scripts/limits.mjs scripts/sw-source.js scripts/snapshot-worker.mjs)
needs_build=1
if [ "$NPM_DEPS_INSTALLED" = 0 ] && [ -f "$stamp" ] && [ -f sw.js ]; then
  newer="$(find "${inputs[@]}" -path static/vendor -prune -o -newer "$stamp" -print -quit 2>/dev/null || true)"
  [ -z "$newer" ] && needs_build=0
fi
if [ "$needs_build" = 1 ]; then
  node scripts/build.mjs | tail -n 1
  touch "$stamp"
fi

# Bind first, then print the address: the URL printed is always the one this server answers.
exec python3 - "${PORT:-}" <<'PY'
import functools
import http.server
import sys

wanted = sys.argv[1]
ports = [int(wanted)] if wanted else [*range(8000, 8020), 0]
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=".")
server = None
for port in ports:
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        break
    except OSError:
        continue
if server is None:
    sys.exit(f"play.sh: port {wanted} on 127.0.0.1 is in use by another program; choose another "
             "with PORT=... or leave PORT unset to pick a free one.")
print(f"\nOpen http://127.0.0.1:{server.server_address[1]}/ in your browser (Ctrl+C to stop).",
      flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
PY
