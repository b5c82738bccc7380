# Sourced by scripts/play.sh and scripts/test.sh: install the npm packages only when
# package-lock.json changed since the last install. The lock's SHA-256 is kept in
# node_modules/.sos-lock-sha256 (npm ci removes node_modules, so a stale stamp cannot survive it).
# Sets NPM_DEPS_INSTALLED=1 when it ran npm, else 0.

npm_deps() {
  local stamp=node_modules/.sos-lock-sha256 want have=""
  NPM_DEPS_INSTALLED=0
  if [ ! -f package-lock.json ]; then
    npm install --no-audit --no-fund --loglevel=error
    NPM_DEPS_INSTALLED=1
    return
  fi
  want="$(sha256sum package-lock.json | cut -d' ' -f1)"
  [ -f "$stamp" ] && have="$(cat "$stamp")"
  if [ "$want" != "$have" ]; then
    npm ci --no-audit --no-fund --loglevel=error
    echo "$want" > "$stamp"
    NPM_DEPS_INSTALLED=1
  fi
}
