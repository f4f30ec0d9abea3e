#!/usr/bin/env bash
# Installs the official MCP Python SDK that the MCP server test (tests/mcp_server.rs) drives
# `ocmem mcp` with, once per machine, into CACHE=${OCMEM_E2E_CACHE:-$HOME/.cache/ocmem-e2e}: a
# virtual environment $CACHE/python-mcp-$MCP_VERSION holding `mcp` from PyPI at the pinned
# version (skipped when it is there and reports that version). pip downloads into
# $CACHE/pip-cache, removed once the install is done; a lock on $CACHE/install.lock keeps two
# test runs from installing at once.
#
# Prints `python=<the environment's python>` on stdout; progress goes to stderr.
set -euo pipefail

NAME=install-python-mcp
. "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"

MCP_VERSION=2.3.0
VENV="$CACHE/python-mcp-$MCP_VERSION"
PIP_CACHE="$CACHE/pip-cache"

command -v python3 >/dev/null 2>&1 ||
  die "python3 is not on PATH; the MCP server test needs Python 3.10 or later with venv"

lock_cache

installed() {
  "$VENV/bin/python" -c '
import sys
from importlib.metadata import version
sys.exit(0 if version("mcp") == sys.argv[1] else 1)
' "$MCP_VERSION" 2>/dev/null
}

if ! installed; then
  say "installing mcp==$MCP_VERSION into $VENV"
  rm -rf "$VENV"
  python3 -m venv "$VENV" >&2 ||
    die "python3 -m venv failed (on Debian, install python3-venv)"
  PIP_CACHE_DIR="$PIP_CACHE" "$VENV/bin/python" -m pip install --quiet \
    --disable-pip-version-check --no-input "mcp==$MCP_VERSION" >&2 ||
    die "pip could not install mcp==$MCP_VERSION"
  rm -rf "$PIP_CACHE"
  installed || die "the environment does not report mcp $MCP_VERSION after installing it"
fi

printf 'python=%s\n' "$VENV/bin/python"
