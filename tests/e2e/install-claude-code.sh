#!/usr/bin/env bash
# Installs the Claude Code the end-to-end test (tests/claude_code_e2e.rs) runs, once per machine,
# into CACHE=${OCMEM_E2E_CACHE:-$HOME/.cache/ocmem-e2e}: @anthropic-ai/claude-code@2.1.330 from
# npm, into $CACHE/claude-code-2.1.330 (skipped when its binary is there and reports the pinned
# version).
#
# The package's `claude` command is a stub until its postinstall script copies the native binary
# out of the platform package (@anthropic-ai/claude-code-linux-x64 and the like, an optional
# dependency npm picks by os, cpu and libc). Scripts stay off here: the test runs the platform
# package's binary itself. npm downloads into $CACHE/npm-cache, removed once the install is done;
# a lock on $CACHE/install.lock keeps two test runs from installing at once.
#
# Prints `claude=<binary>` on stdout; progress goes to stderr.
set -euo pipefail

NAME=install-claude-code
. "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"

CLAUDE_CODE_VERSION=2.1.330
PREFIX="$CACHE/claude-code-$CLAUDE_CODE_VERSION"

need_node "Claude Code"
lock_cache

# The native binary of the one platform package npm installed (there is exactly one).
native_binary() {
  local found=()
  local candidate
  for candidate in "$PREFIX"/node_modules/@anthropic-ai/claude-code-*/claude; do
    [ -x "$candidate" ] && found+=("$candidate")
  done
  [ ${#found[@]} -eq 1 ] && printf '%s\n' "${found[0]}"
}

# Whether it is there is read from the package.json files (starting the binary takes a while); a
# fresh install is checked by running it.
installed() {
  local bin
  bin="$(native_binary)" || return 1
  node -e '
    const fs = require("fs"), want = process.argv[3];
    const main = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const native = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
    process.exit(main.version === want && native.version === want ? 0 : 1);
  ' "$PREFIX/node_modules/@anthropic-ai/claude-code/package.json" \
    "$(dirname "$bin")/package.json" "$CLAUDE_CODE_VERSION" 2>/dev/null
}

if ! installed; then
  say "installing @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION into $PREFIX"
  npm_install_whole "$PREFIX" "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION"
  installed || die "$PREFIX holds no native Claude Code binary at $CLAUDE_CODE_VERSION for this platform"
  bin="$(native_binary)"
  version="$(timeout 60 "$bin" --version 2>/dev/null | head -n 1 || true)"
  [ "$version" = "$CLAUDE_CODE_VERSION (Claude Code)" ] ||
    die "$bin reports version '${version:-none}', expected $CLAUDE_CODE_VERSION"
fi

rm -rf "$NPM_CACHE"
printf 'claude=%s\n' "$(native_binary)"
