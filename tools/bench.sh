#!/usr/bin/env bash
# The figures docs/performance.md keeps, each on one line with the ratio it
# stands for and its goal: the engine against RaftScope's (deliveries per
# wall second), the fuzzer on two threads against one (jobs2/jobs1), the
# bench workload's 10-minute timeline (megabytes counted, of a third of
# what it held), its seeks, the linearizability checker, the page's first
# load (of its 250 KB budget), a frame (of 16.7 ms) and the page against
# native (page/native speed). Each step prints its own details first; the
# `figure:` lines are gathered again at the end.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_chromium
ensure_node
OUT=$(mktemp)
SERVER_PID=
trap '[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; rm -f "$OUT"' EXIT
# Runs a command, its output to the terminal and to $OUT, for the summary.
keep() { "$@" | tee -a "$OUT"; }

# RaftScope (ongardie/raftscope, ISC licence), the engine's yardstick: not
# part of raftlab. Unless RAFTSCOPE_DIR names a checkout of it, fetched at
# this commit into cargo's target directory, and read there by
# tools/raftscope-bench.mjs (its raft.js and util.js, run headless in node).
RAFTSCOPE_COMMIT=5b0c10ab51f873721895e7470b49e04c94bf826f
ensure_raftscope() {
    [ -n "${RAFTSCOPE_DIR:-}" ] && return 0
    local dir
    dir="$(target_dir)/raftscope-$RAFTSCOPE_COMMIT"
    if [ ! -f "$dir/raft.js" ]; then
        rm -rf "$dir"
        if ! { git clone --quiet --no-checkout https://github.com/ongardie/raftscope "$dir" &&
            git -C "$dir" checkout --quiet "$RAFTSCOPE_COMMIT"; }; then
            rm -rf "$dir"
            printf 'raftlab: could not fetch RaftScope at %s: the engine is measured without it\n' "$RAFTSCOPE_COMMIT" >&2
            return 0
        fi
    fi
    export RAFTSCOPE_DIR="$dir"
}

step "engine: raftlab bench, and RaftScope's engine beside it (tools/engine-ratio.mjs)"
cargo build --quiet --release --bin raftlab
ensure_raftscope
keep node tools/engine-ratio.mjs

step "fuzz: 2000 seeds on 1 thread, then on 2"
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
keep grep -E '^(fuzz|liveness): ' "$FUZZ/out1"
keep awk 'NR == 1 { one = $1 } NR == 2 { two = $1 } END {
    printf "figure: fuzz, 2000 seeds: --jobs 2 %.1f s wall against --jobs 1 %.1f s, the same output = jobs2/jobs1 %.2f (at most 0.6 wanted)\n",
        two, one, two / one
}' "$FUZZ/wall1" "$FUZZ/wall2"
rm -rf "$FUZZ"

step "engine, timeline and the linearizability checker: criterion"
keep cargo bench --bench engine --bench timeline --bench linearizability

step "page: load size, frame time, and seeks in the page"
tools/build-pkg.sh
cargo build --quiet --release --bin raftlab
LOG=$(mktemp)
serve_in_background "$(target_dir)/release/raftlab" . "$LOG"
rm -f "$LOG"
keep node tests/e2e/bench-page.mjs

step "page against native: raftlab bench's workload in both, in one go"
keep node tests/e2e/bench-ratio.mjs

step "the figures, each with the ratio it stands for and its goal (docs/performance.md)"
grep '^figure: ' "$OUT" | sed 's/^figure: //'
