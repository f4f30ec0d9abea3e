#!/usr/bin/env bash
# Installs the Gemini CLI the end-to-end test (tests/gemini_e2e.rs) runs, once per machine, into
# CACHE=${OCMEM_E2E_CACHE:-$HOME/.cache/ocmem-e2e}: @google/gemini-cli@0.61.0 from npm, into
# $CACHE/gemini-cli-0.61.0 (skipped when its package is there at the pinned version).
#
# The package is a Node bundle: the test runs its `gemini` entry point with node. Scripts stay
# off (the CLI needs none to run). npm downloads into $CACHE/npm-cache, removed once the install
# is done; a lock on $CACHE/install.lock keeps two test runs from installing at once.
#
# Prints `gemini=<entry point>` on stdout; progress goes to stderr.
set -euo pipefail

NAME=install-gemini
. "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"

GEMINI_VERSION=0.61.0
PREFIX="$CACHE/gemini-cli-$GEMINI_VERSION"
PACKAGE="$PREFIX/node_modules/@google/gemini-cli"

need_node "Gemini CLI"
lock_cache

# The entry point named by the package's `bin`, when the package is there at the pinned version.
entry_point() {
  node -e '
    const fs = require("fs"), path = require("path"), dir = process.argv[1];
    const main = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    if (main.version !== process.argv[2]) process.exit(1);
    const bin = typeof main.bin === "string" ? main.bin : main.bin && main.bin.gemini;
    if (!bin || !fs.existsSync(path.join(dir, bin))) process.exit(1);
    console.log(path.join(dir, bin));
  ' "$PACKAGE" "$GEMINI_VERSION" 2>/dev/null
}

if ! entry_point >/dev/null; then
  say "installing @google/gemini-cli@$GEMINI_VERSION into $PREFIX"
  npm_install_whole "$PREFIX" "@google/gemini-cli@$GEMINI_VERSION"
  entry_point >/dev/null || die "$PREFIX holds no @google/gemini-cli at $GEMINI_VERSION"
  version="$(HOME="$PREFIX" timeout 60 node "$(entry_point)" --version 2>/dev/null | tail -n 1 || true)"
  [ "$version" = "$GEMINI_VERSION" ] ||
    die "gemini reports version '${version:-none}', expected $GEMINI_VERSION"
fi

rm -rf "$NPM_CACHE"
printf 'gemini=%s\n' "$(entry_point)"
