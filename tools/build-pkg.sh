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
ls -l pkg/raftlab_bg.wasm | awk '{ printf "pkg/raftlab_bg.wasm: %d bytes\n", $5 }'
