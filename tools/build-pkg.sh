#!/usr/bin/env bash
# Builds the release wasm module and its JavaScript glue into pkg/.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_wasm_target
ensure_wasm_bindgen
step "building the wasm module into pkg/"
# Without the lessons' scripts: the page loads them (pkg/lessons.txt, below)
# the first time a lesson or the list is asked for. (Nor, in any wasm build,
# the Japanese narration's sentences: pkg/narration-ja.txt, below.)
#
# A panic's message names its source file: the crates' files are named by
# crate and version (crates/NAME-VERSION/...), not by where this machine keeps
# its downloads. Flags go through CARGO_ENCODED_RUSTFLAGS (separated by 0x1f),
# so a path with spaces stays one flag.
# WebAssembly's 128-bit SIMD (as .cargo/config.toml asks for every wasm32
# build): LLVM moves and compares 16 bytes at a time, which makes the module
# smaller. Every current browser runs it (Chrome 91, Firefox 89, Safari 16.4).
flags=(-Ctarget-feature=+simd128)
[ -z "${RUSTFLAGS:-}" ] || { read -r -a extra <<< "$RUSTFLAGS"; flags+=("${extra[@]}"); }
for d in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
    [ -d "$d" ] && flags+=("--remap-path-prefix=${d%/}=crates")
done
CARGO_ENCODED_RUSTFLAGS="$(IFS=$'\x1f'; echo "${flags[*]}")" \
    cargo build --lib --target wasm32-unknown-unknown --profile wasm --no-default-features
wasm-bindgen --target web --no-typescript --out-dir pkg \
    target/wasm32-unknown-unknown/wasm/raftlab.wasm
# The glue repeats every exported item's Rust documentation as JSDoc: a
# quarter of its size, which the page would load for nothing (the Rust
# source is where it is read). Perl is part of every Debian system.
perl -0pi -e 's{^[ \t]*/\*\*.*?\*/[ \t]*\n}{}gms' pkg/raftlab.js
# The lessons, each after a line "@@ lesson FILE" (src/scenario/lessons.rs
# reads them back), in the file names' order as the native build embeds them.
for f in lessons/*.scenario; do
    [ -z "$(tail -c 1 "$f")" ] || die "$f does not end with a newline"
    printf '@@ lesson %s\n' "${f#lessons/}"
    cat "$f"
done > pkg/lessons.txt
# The Japanese narration's sentences, which the module is built without: the
# page loads them the first time it speaks Japanese (www/i18n.js).
cp src/scenario/narration-ja.txt pkg/narration-ja.txt
ls -l pkg/raftlab_bg.wasm | awk '{ printf "pkg/raftlab_bg.wasm: %d bytes\n", $5 }'
