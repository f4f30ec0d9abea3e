#!/usr/bin/env bash
# Installs what the OpenCode end-to-end test (tests/opencode_e2e.rs) needs, once per machine:
#
#   - opencode-ai@1.18.33 from npm, into ${OCMEM_E2E_CACHE:-$HOME/.cache/ocmem-e2e}/opencode-1.18.33
#     (skipped when that binary is already there and reports the pinned version);
#   - ripgrep from the Debian packages when `rg` is missing: OpenCode's grep and glob tools run it,
#     and without it they fail (or OpenCode tries to download a copy of its own).
#
# The last line on stdout is the path of the opencode binary. Progress goes to stderr.
set -euo pipefail

OPENCODE_VERSION=1.18.33
CACHE="${OCMEM_E2E_CACHE:-$HOME/.cache/ocmem-e2e}"
PREFIX="$CACHE/opencode-$OPENCODE_VERSION"
BIN="$PREFIX/node_modules/.bin/opencode"

say() { printf 'install-opencode: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

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
for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 ||
    die "$tool is not on PATH; the OpenCode end-to-end test needs Node.js and npm"
done

# ripgrep, for OpenCode's grep and glob tools.
if ! command -v rg >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || die "ripgrep (rg) is missing and apt-get is not available; install ripgrep"
  say "installing ripgrep with apt-get"
  as_root apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ripgrep >&2
  command -v rg >/dev/null 2>&1 || die "ripgrep was installed but rg is still not on PATH"
fi

# OpenCode itself, pinned.
installed_version() {
  [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | tail -n 1
}
if [ "$(installed_version || true)" != "$OPENCODE_VERSION" ]; then
  say "installing opencode-ai@$OPENCODE_VERSION into $PREFIX"
  mkdir -p "$PREFIX"
  npm install --prefix "$PREFIX" --save-exact --no-audit --no-fund --loglevel=error \
    "opencode-ai@$OPENCODE_VERSION" >&2
  version="$(installed_version || true)"
  [ "$version" = "$OPENCODE_VERSION" ] ||
    die "$BIN reports version '${version:-none}', expected $OPENCODE_VERSION"
fi

printf '%s\n' "$BIN"
