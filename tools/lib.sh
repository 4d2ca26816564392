# Shared by the tools: install what is missing, nothing else, and only once.
# shellcheck shell=bash

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1

step() { printf '\n==> %s\n' "$*"; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
    step "installing Debian packages: $*"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

ensure_wasm_target() {
    if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
        step "installing the wasm32-unknown-unknown target"
        rustup target add wasm32-unknown-unknown
    fi
}

# The wasm-bindgen version pinned in Cargo.lock: the CLI must match it exactly.
wasm_bindgen_version() {
    awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock
}

ensure_wasm_bindgen() {
    local want have
    want=$(wasm_bindgen_version)
    have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')
    if [ "$have" != "$want" ] || ! command -v wasm-bindgen-test-runner >/dev/null; then
        step "installing wasm-bindgen-cli $want"
        cargo install --locked wasm-bindgen-cli --version "$want"
    fi
}

ensure_chromium() {
    if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
        apt_install chromium chromium-driver
    fi
}

ensure_node() {
    if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
        apt_install nodejs npm
    fi
    # The end-to-end tests drive Debian's chromium through playwright-core
    # (it never downloads a browser of its own).
    if [ ! -d tests/e2e/node_modules/playwright-core ] ||
        [ tests/e2e/package-lock.json -nt tests/e2e/node_modules/.package-lock.json ]; then
        step "installing the end-to-end test packages"
        (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
    fi
}
