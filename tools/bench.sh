#!/usr/bin/env bash
# The figures README reports, each with the ratio it stands for: the engine
# (criterion and raftlab bench), the page against native on the same
# workload (page/native speed), the fuzzer on one thread and on two
# (jobs2/jobs1), and the page's load size (of the 250 KB budget), start-up
# and frame time (of a 16.7 ms frame) in headless Chromium.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_chromium
ensure_node
step "engine: raftlab bench"
cargo run --quiet --release --bin raftlab -- bench
step "fuzz: 2000 seeds on 1 thread, then on 2"
cargo build --quiet --release --bin raftlab
FUZZ=$(mktemp -d)
for jobs in 1 2; do
    "$(target_dir)/release/raftlab" fuzz --seeds 2000 --jobs "$jobs" > "$FUZZ/out$jobs" 2> "$FUZZ/err$jobs" ||
        die "raftlab fuzz --jobs $jobs failed: $(grep '^fuzz: ' "$FUZZ/out$jobs") $(cat "$FUZZ/err$jobs")"
    # raftlab fuzz prints its wall time on standard error: "..., 35.2s wall".
    sed -n 's/.*, \([0-9.]*\)s wall$/\1/p' "$FUZZ/err$jobs" > "$FUZZ/wall$jobs"
    [ -s "$FUZZ/wall$jobs" ] || die "raftlab fuzz --jobs $jobs printed no wall time: $(cat "$FUZZ/err$jobs")"
done
cmp -s "$FUZZ/out1" "$FUZZ/out2" || die "raftlab fuzz printed different output on 1 and 2 threads"
# The summary's first two lines: the figures, and liveness checked and exempt.
grep -E '^(fuzz|liveness): ' "$FUZZ/out1"
awk 'NR == 1 { one = $1 } NR == 2 { two = $1 } END {
    printf "--jobs 1: %.1f s wall; --jobs 2: %.1f s wall, the same output; jobs2/jobs1 %.2f (at most 0.6 wanted)\n",
        one, two, two / one
}' "$FUZZ/wall1" "$FUZZ/wall2"
rm -rf "$FUZZ"
step "engine, timeline and the linearizability checker: criterion"
cargo bench --bench engine --bench timeline --bench linearizability
step "page: load size and frame time"
tools/build-pkg.sh
cargo build --quiet --release --bin raftlab
LOG=$(mktemp)
SERVER_PID=
trap '[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -f "$LOG"' EXIT
serve_in_background "$(target_dir)/release/raftlab" . "$LOG"
node tests/e2e/bench-page.mjs
step "page against native: raftlab bench's workload in both, in one go"
node tests/e2e/bench-ratio.mjs
