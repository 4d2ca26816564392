#!/usr/bin/env bash
# Runs every check and test of raftlab in order, stopping at the first
# failing step, and ends with the number of tests passed and failed, whether
# the run passed or not. Each check (fmt, clippy) counts as one test; the
# test runners' own counts are added up.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
# The real-etcd suite runs in its own step only (ensure_etcd, below).
unset RAFTLAB_REAL_ETCD

LOG=$(mktemp -d)
CHECKS_PASSED=0
CHECKS_FAILED=0

summary() {
    local status=$? passed=$CHECKS_PASSED failed=$CHECKS_FAILED p f
    set +e
    [ -n "${SERVER_PID:-}" ] && kill "$SERVER_PID" 2>/dev/null
    read -r p f < <(count_tests "$LOG")
    passed=$((passed + p))
    failed=$((failed + f))
    # A step that failed without a test count of its own (a build error, a
    # runner that did not start) still counts as a failure.
    if [ "$status" != 0 ] && [ "$failed" = 0 ]; then
        failed=1
    fi
    rm -rf "$LOG"
    echo
    if [ "$status" = 0 ]; then
        echo "native, wasm and browser tests all ran"
    else
        echo "stopped at the first failing step: ${CURRENT_STEP:-set-up}"
    fi
    echo "tests: $passed passed, $failed failed"
    exit "$status"
}
trap summary EXIT

# A check that passes or fails as a whole.
check() {
    CURRENT_STEP=$1
    shift
    step "$CURRENT_STEP"
    if "$@"; then
        CHECKS_PASSED=$((CHECKS_PASSED + 1))
    else
        CHECKS_FAILED=$((CHECKS_FAILED + 1))
        return 1
    fi
}

# A runner whose output holds its own counts.
runner() {
    CURRENT_STEP=$1
    local log=$2
    shift 2
    step "$CURRENT_STEP"
    "$@" 2>&1 | tee "$LOG/$log"
}

CURRENT_STEP="installing what is missing"
ensure_wasm_target
ensure_wasm_bindgen
ensure_chromium
ensure_node
ensure_etcd

check "cargo fmt --check" cargo fmt --all -- --check
check "cargo clippy (native)" cargo clippy --all-targets -- -D warnings
check "cargo clippy (wasm32)" cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings

runner "cargo test (native)" cargo-native.txt cargo test --no-fail-fast

# The real-etcd suite: every scenario of tests/real_etcd/ and every lesson,
# compared line by line with real etcd clusters of each release ensure_etcd
# installed (raftlab diff). Only this step gives it the releases: in the
# step above it ran nothing.
if [ -n "$REAL_ETCD" ]; then
    RAFTLAB_REAL_ETCD="$REAL_ETCD" runner "real-etcd suite (raftlab diff against real etcd)" \
        cargo-real-etcd.txt cargo test --test real_etcd
else
    echo "raftlab: no etcd release could be installed: the real-etcd suite does not run"
fi

# From here on cargo builds in a target directory moved away from the
# native build's (unless CARGO_TARGET_DIR is set already), as it does for a
# user who sets CARGO_TARGET_DIR: the splitter, the wasm tests and the page
# are each found where cargo says it built them (tools/lib.sh target_dir),
# never at a path written in. The screenshots stay beside the native build.
NATIVE_TARGET=$(target_dir)
export RAFTLAB_SCREENSHOTS="$NATIVE_TARGET/screenshots"
if [ -z "${CARGO_TARGET_DIR:-}" ]; then
    export CARGO_TARGET_DIR="$NATIVE_TARGET/moved"
    unset RAFTLAB_TARGET_DIR
fi

# The splitter of the page's module (tools/split), a crate of its own.
SPLIT=(--manifest-path tools/split/Cargo.toml --locked)
check "cargo fmt --check (tools/split)" cargo fmt --manifest-path tools/split/Cargo.toml -- --check
check "cargo clippy (tools/split)" cargo clippy "${SPLIT[@]}" --release --target-dir "$(target_dir)/tools" --all-targets -- -D warnings
runner "cargo test (tools/split)" cargo-split.txt cargo test "${SPLIT[@]}" --release --target-dir "$(target_dir)/tools" --no-fail-fast

CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=$(command -v chromedriver) \
WASM_BINDGEN_TEST_TIMEOUT=120 \
    runner "wasm-bindgen tests in headless Chromium" cargo-wasm.txt \
    cargo test --no-fail-fast --target wasm32-unknown-unknown --test 'wasm_*'

CURRENT_STEP="browser end-to-end tests"
tools/build-pkg.sh
# The one-file build, which tests/e2e/dist.test.mjs opens from disk.
node tools/dist.mjs
# The debug binary cargo test has already built: serving files needs no
# optimised build, and a release build (with LTO) would add minutes.
CARGO_TARGET_DIR=$NATIVE_TARGET cargo build --quiet --bin raftlab
serve_in_background "$NATIVE_TARGET/debug/raftlab" . "$LOG/serve.txt"
# The test files by name: Node.js 22 reads `node --test`'s arguments as
# files or patterns, not folders (20 looked inside a folder).
runner "browser end-to-end tests" e2e.txt node --test --test-reporter=tap tests/e2e/*.test.mjs
