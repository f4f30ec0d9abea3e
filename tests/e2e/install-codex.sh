#!/usr/bin/env bash
# Installs the Codex CLI the end-to-end test (tests/codex_e2e.rs) runs, once per machine, into
# CACHE=${OCMEM_E2E_CACHE:-$HOME/.cache/ocmem-e2e}: @openai/codex@0.169.0 from npm, into
# $CACHE/codex-0.169.0 (skipped when its native binary is there and reports the pinned version).
#
# The package's `codex` command is a Node.js launcher for a native binary that comes in a platform
# package (@openai/codex-linux-x64 and the like, an optional dependency npm picks by os and cpu).
# Scripts stay off here: the test runs the platform package's binary itself. npm downloads into
# $CACHE/npm-cache, removed once the install is done; a lock on $CACHE/install.lock keeps two test
# runs from installing at once.
#
# Prints `codex=<binary>` on stdout; progress goes to stderr.
set -euo pipefail

NAME=install-codex
. "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"

CODEX_VERSION=0.169.0
PREFIX="$CACHE/codex-$CODEX_VERSION"

need_node "Codex"
lock_cache

# The native binary of the one platform package npm installed (there is exactly one).
native_binary() {
  local found=()
  local candidate
  for candidate in "$PREFIX"/node_modules/@openai/codex-*/vendor/*/codex/codex \
    "$PREFIX"/node_modules/@openai/codex-*/vendor/*/bin/codex; do
    [ -x "$candidate" ] && found+=("$candidate")
  done
  [ ${#found[@]} -eq 1 ] && printf '%s\n' "${found[0]}"
}

installed() {
  [ -f "$PREFIX/.complete" ] && native_binary >/dev/null
}

if ! installed; then
  say "installing @openai/codex@$CODEX_VERSION into $PREFIX"
  npm_install_whole "$PREFIX" "@openai/codex@$CODEX_VERSION"
  bin="$(native_binary)" ||
    die "$PREFIX holds no native Codex binary for this platform"
  version="$(timeout 60 "$bin" --version 2>/dev/null | head -n 1 || true)"
  [ "$version" = "codex-cli $CODEX_VERSION" ] ||
    die "$bin reports version '${version:-none}', expected codex-cli $CODEX_VERSION"
  touch "$PREFIX/.complete"
fi

rm -rf "$NPM_CACHE"
printf 'codex=%s\n' "$(native_binary)"
