#!/usr/bin/env bash
# Runs every check and test of raftlab in order, stopping at the first
# failure, and ends with the number of tests passed and failed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

LOG=$(mktemp -d)
trap 'rm -rf "$LOG"; [ -n "${SERVER_PID:-}" ] && kill "$SERVER_PID" 2>/dev/null || true' EXIT

ensure_wasm_target
ensure_wasm_bindgen
ensure_chromium
ensure_node

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (native)"
cargo clippy --all-targets -- -D warnings

step "cargo clippy (wasm32)"
cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings

step "cargo test (native)"
cargo test 2>&1 | tee "$LOG/native.txt"

step "wasm-bindgen tests in headless Chromium"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=$(command -v chromedriver) \
WASM_BINDGEN_TEST_TIMEOUT=120 \
    cargo test --target wasm32-unknown-unknown --test 'wasm_*' 2>&1 | tee "$LOG/wasm.txt"

step "browser end-to-end tests"
tools/build-pkg.sh
cargo build --quiet --release --bin raftlab
target/release/raftlab serve --addr 127.0.0.1:0 > "$LOG/serve.txt" &
SERVER_PID=$!
for _ in $(seq 50); do
    grep -q 'served at' "$LOG/serve.txt" 2>/dev/null && break
    sleep 0.1
done
RAFTLAB_URL=$(sed -n 's/^raftlab is served at \(http:[^ ]*\)$/\1/p' "$LOG/serve.txt")
[ -n "$RAFTLAB_URL" ] || { echo "the server did not start"; exit 1; }
RAFTLAB_URL="$RAFTLAB_URL" node --test --test-reporter=tap tests/e2e/ 2>&1 | tee "$LOG/e2e.txt"

# Sum the counts every runner printed.
passed=0
failed=0
while read -r p f; do
    passed=$((passed + p))
    failed=$((failed + f))
done < <(sed -n 's/^test result: [a-zA-Z]*\. \([0-9]*\) passed; \([0-9]*\) failed.*/\1 \2/p' "$LOG/native.txt" "$LOG/wasm.txt")
e2e_pass=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$LOG/e2e.txt" | tail -1)
e2e_fail=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$LOG/e2e.txt" | tail -1)
passed=$((passed + ${e2e_pass:-0}))
failed=$((failed + ${e2e_fail:-0}))

printf '\nnative, wasm and browser tests all ran\n'
echo "tests: $passed passed, $failed failed"
[ "$failed" = 0 ]
