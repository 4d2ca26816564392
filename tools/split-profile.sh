#!/usr/bin/env bash
# Writes tools/split/deferred.txt: the functions of the page's module that a
# first visit does not run (tests/e2e/first-visit.mjs says which visit), so
# that tools/build-pkg.sh leaves them to the module's deferred part. Run it
# when the page-size test says a function of the deferred part ran before
# the page was ready, or to take out what a change made idle.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_chromium
ensure_node
tools/build-pkg.sh

ROOT=$(mktemp -d)
SERVER_PID=
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null
    rm -rf "$ROOT"
}
trap cleanup EXIT

step "instrumenting the whole module"
mkdir -p "$ROOT/pkg"
ln -s "$PWD/www" "$ROOT/www"
cp pkg/lessons.txt pkg/narration-ja.txt "$ROOT/pkg/"
"$(target_dir)/tools/release/raftlab-split" instrument "$(target_dir)/pkg-whole/raftlab_bg.wasm" \
    --out "$ROOT/pkg/raftlab_bg.wasm" --names "$ROOT/names.txt"
# The whole glue, with the import each function calls, and the deferred
# part's loader the page asks for (the whole module has no such part).
glue_with_import '$profile' '{ ran: (n) => { (globalThis.raftlabRan ??= new Set()).add(n); } }' "$ROOT/pkg/raftlab.js"
cat >> "$ROOT/pkg/raftlab.js" <<'JS'
export async function loadDeferred() {}
export function deferredLoaded() { return "whole"; }
JS

step "a first visit in headless Chromium"
cargo build --quiet --bin raftlab
serve_in_background "$(target_dir)/debug/raftlab" "$ROOT" "$ROOT/serve.txt"
node tests/e2e/first-visit.mjs > "$ROOT/ran.txt"

step "writing tools/split/deferred.txt"
{
    echo "# The functions the page's module defers (tools/split; docs/page-module.md):"
    echo "# those a first visit did not run. Written by make split-profile; a function"
    echo "# not named here stays in the first part."
    "$(target_dir)/tools/release/raftlab-split" list --names "$ROOT/names.txt" --ran "$ROOT/ran.txt"
} > tools/split/deferred.txt.new
mv tools/split/deferred.txt.new tools/split/deferred.txt
echo "$(grep -vc '^#' tools/split/deferred.txt) functions deferred of $(wc -l < "$ROOT/names.txt")"
tools/build-pkg.sh
