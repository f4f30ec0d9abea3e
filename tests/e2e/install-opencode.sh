#!/usr/bin/env bash
# Installs what the OpenCode end-to-end test (tests/opencode_e2e.rs) needs, once per machine, into
# CACHE=${OCMEM_E2E_CACHE:-$HOME/.cache/ocmem-e2e}:
#
#   - opencode-ai@1.18.33 from npm, into $CACHE/opencode-1.18.33 (skipped when its binary is there
#     and reports the pinned version);
#   - @opencode-ai/plugin@1.18.33, the plugin API that OpenCode itself installs at startup into
#     every config directory it reads (its global one and each project `.opencode/`) unless that
#     directory already has node_modules and a package.json and package-lock.json that list it.
#     It goes into $CACHE/opencode-1.18.33/plugin-deps, laid out as OpenCode leaves such a
#     directory (npm's own install of the same pinned package, scripts off, exact version saved),
#     and the test copies it into its fresh directories so that OpenCode has nothing to fetch;
#   - ripgrep from the Debian packages when `rg` is missing: OpenCode's grep and glob tools run it,
#     and without it they fail (or OpenCode tries to download a copy of its own).
#
# npm downloads into $CACHE/npm-cache, removed once both installs are done. A lock on
# $CACHE/install.lock keeps two test runs from installing at once.
#
# Prints `opencode=<binary>` and `plugin-deps=<directory>` on stdout; progress goes to stderr.
set -euo pipefail

NAME=install-opencode
. "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"

OPENCODE_VERSION=1.18.33
PREFIX="$CACHE/opencode-$OPENCODE_VERSION"
BIN="$PREFIX/node_modules/.bin/opencode"
PLUGIN_DEPS="$PREFIX/plugin-deps"

# Runs a command as root: directly when we are root, else through `sudo -n` when there is sudo.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo -n "$@"
  else
    die "need root (or sudo) to run: $*"
  fi
}

# Node.js and npm: npm installs OpenCode, and the demo repository's scripts run with them.
need_node "OpenCode"

# ripgrep, for OpenCode's grep and glob tools.
if ! command -v rg >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || die "ripgrep (rg) is missing and apt-get is not available; install ripgrep"
  say "installing ripgrep with apt-get"
  as_root apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ripgrep >&2
  command -v rg >/dev/null 2>&1 || die "ripgrep was installed but rg is still not on PATH"
fi

lock_cache

npm_install() {
  local prefix="$1"
  shift
  npm install --prefix "$prefix" --cache "$NPM_CACHE" --save-exact --no-audit --no-fund \
    --no-update-notifier --loglevel=error "$@" >&2
}

# OpenCode itself, pinned. Whether it is there is read from its package.json (starting the binary
# takes seconds); a fresh install is checked by running it.
installed_package_version() {
  [ -x "$BIN" ] && node -p 'require(process.argv[1]).version' \
    "$PREFIX/node_modules/opencode-ai/package.json" 2>/dev/null
}
if [ "$(installed_package_version || true)" != "$OPENCODE_VERSION" ]; then
  say "installing opencode-ai@$OPENCODE_VERSION into $PREFIX"
  mkdir -p "$PREFIX"
  npm_install "$PREFIX" "opencode-ai@$OPENCODE_VERSION"
  version="$("$BIN" --version 2>/dev/null | tail -n 1 || true)"
  [ "$version" = "$OPENCODE_VERSION" ] ||
    die "$BIN reports version '${version:-none}', expected $OPENCODE_VERSION"
fi

# The plugin API, pinned to the version OpenCode asks for (its own). Installed beside and moved
# into place whole, so that an interrupted install is never taken for a finished one.
plugin_deps_ready() {
  [ -f "$PLUGIN_DEPS/package.json" ] && [ -f "$PLUGIN_DEPS/package-lock.json" ] &&
    node -e '
      const fs = require("fs"), dir = process.argv[1], want = process.argv[2];
      const lock = JSON.parse(fs.readFileSync(dir + "/package-lock.json", "utf8"));
      const pkg = JSON.parse(fs.readFileSync(dir + "/node_modules/@opencode-ai/plugin/package.json", "utf8"));
      const listed = lock.packages[""].dependencies["@opencode-ai/plugin"];
      process.exit(listed === want && pkg.version === want ? 0 : 1);
    ' "$PLUGIN_DEPS" "$OPENCODE_VERSION" 2>/dev/null
}
if ! plugin_deps_ready; then
  say "installing @opencode-ai/plugin@$OPENCODE_VERSION into $PLUGIN_DEPS"
  staging="$PLUGIN_DEPS.partial"
  rm -rf "$staging" "$PLUGIN_DEPS"
  mkdir -p "$staging"
  npm_install "$staging" --ignore-scripts "@opencode-ai/plugin@$OPENCODE_VERSION"
  mv "$staging" "$PLUGIN_DEPS"
  plugin_deps_ready || die "$PLUGIN_DEPS does not hold @opencode-ai/plugin@$OPENCODE_VERSION"
fi

rm -rf "$NPM_CACHE"
printf 'opencode=%s\nplugin-deps=%s\n' "$BIN" "$PLUGIN_DEPS"
