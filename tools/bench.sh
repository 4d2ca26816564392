#!/usr/bin/env bash
# The figures README reports: the engine (criterion and raftlab bench), and
# the page's load size, start-up and frame time in headless Chromium.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_chromium
ensure_node
step "engine: raftlab bench"
cargo run --quiet --release --bin raftlab -- bench
step "engine, timeline and the linearizability checker: criterion"
cargo bench --bench engine --bench timeline --bench linearizability
step "page: load size and frame time"
tools/build-pkg.sh
cargo build --quiet --release --bin raftlab
LOG=$(mktemp)
target/release/raftlab serve --addr 127.0.0.1:0 > "$LOG" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -f "$LOG"' EXIT
for _ in $(seq 50); do grep -q 'served at' "$LOG" && break; sleep 0.1; done
URL=$(sed -n 's/^raftlab is served at \(http:[^ ]*\)$/\1/p' "$LOG")
[ -n "$URL" ] || die "raftlab serve did not start: $(cat "$LOG")"
RAFTLAB_URL="$URL" node tests/e2e/bench-page.mjs
