# What the install scripts of the end-to-end tests share; each sources this after setting
# NAME, its own name for its messages. Everything goes into
# CACHE=${OCMEM_E2E_CACHE:-$HOME/.cache/ocmem-e2e}; npm downloads into $CACHE/npm-cache, which
# the script removes once its installs are done.

CACHE="${OCMEM_E2E_CACHE:-$HOME/.cache/ocmem-e2e}"
NPM_CACHE="$CACHE/npm-cache"

say() { printf '%s: %s\n' "$NAME" "$*" >&2; }
die() { say "error: $*"; exit 1; }

# Fails unless Node.js and npm are on PATH; $1 names the test that needs them.
need_node() {
  local tool
  for tool in node npm; do
    command -v "$tool" >/dev/null 2>&1 ||
      die "$tool is not on PATH; the $1 end-to-end test needs Node.js and npm"
  done
}

# Takes the lock on $CACHE/install.lock, held until the script exits, which keeps two test
# runs from installing at once.
lock_cache() {
  mkdir -p "$CACHE"
  exec 9>"$CACHE/install.lock"
  if command -v flock >/dev/null 2>&1; then
    flock -w 240 9 || die "another install holds $CACHE/install.lock"
  fi
}

# Installs the npm package $2 (name@version) into $1, scripts off. Installed beside and moved
# into place whole, so that an interrupted install is never taken for a finished one.
npm_install_whole() {
  local prefix="$1" package="$2"
  local staging="$prefix.partial"
  rm -rf "$staging" "$prefix"
  mkdir -p "$staging"
  timeout 280 npm install --prefix "$staging" --cache "$NPM_CACHE" --save-exact --no-audit \
    --no-fund --no-update-notifier --loglevel=error --ignore-scripts "$package" >&2
  mv "$staging" "$prefix"
}
