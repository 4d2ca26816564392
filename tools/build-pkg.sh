#!/usr/bin/env bash
# Builds the release wasm module and its JavaScript glue into pkg/.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_wasm_target
ensure_wasm_bindgen
step "building the wasm module into pkg/"
cargo build --lib --target wasm32-unknown-unknown --profile wasm
wasm-bindgen --target web --no-typescript --out-dir pkg \
    target/wasm32-unknown-unknown/wasm/raftlab.wasm
# The glue repeats every exported item's Rust documentation as JSDoc: a
# quarter of its size, which the page would load for nothing (the Rust
# source is where it is read). Perl is part of every Debian system.
perl -0pi -e 's{^[ \t]*/\*\*.*?\*/[ \t]*\n}{}gms' pkg/raftlab.js
ls -l pkg/raftlab_bg.wasm | awk '{ printf "pkg/raftlab_bg.wasm: %d bytes\n", $5 }'
