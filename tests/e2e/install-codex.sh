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

CODEX_VERSION=0.169.0
CACHE="${OCMEM_E2E_CACHE:-$HOME/.cache/ocmem-e2e}"
PREFIX="$CACHE/codex-$CODEX_VERSION"
NPM_CACHE="$CACHE/npm-cache"

say() { printf 'install-codex: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 ||
    die "$tool is not on PATH; the Codex end-to-end test needs Node.js and npm"
done

mkdir -p "$CACHE"
exec 9>"$CACHE/install.lock"
if command -v flock >/dev/null 2>&1; then
  flock -w 240 9 || die "another install holds $CACHE/install.lock"
fi

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
  # Installed beside and moved into place whole, so that an interrupted install is never taken
  # for a finished one.
  staging="$PREFIX.partial"
  rm -rf "$staging" "$PREFIX"
  mkdir -p "$staging"
  timeout 280 npm install --prefix "$staging" --cache "$NPM_CACHE" --save-exact --no-audit \
    --no-fund --no-update-notifier --loglevel=error --ignore-scripts \
    "@openai/codex@$CODEX_VERSION" >&2
  mv "$staging" "$PREFIX"
  bin="$(native_binary)" ||
    die "$PREFIX holds no native Codex binary for this platform"
  version="$(timeout 60 "$bin" --version 2>/dev/null | head -n 1 || true)"
  [ "$version" = "codex-cli $CODEX_VERSION" ] ||
    die "$bin reports version '${version:-none}', expected codex-cli $CODEX_VERSION"
  touch "$PREFIX/.complete"
fi

rm -rf "$NPM_CACHE"
printf 'codex=%s\n' "$(native_binary)"
