#!/usr/bin/env bash
# Builds the release wasm module and its JavaScript glue into pkg/.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_wasm_target
ensure_wasm_bindgen
step "building the wasm module into pkg/"
TARGET=$(target_dir)
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
#
# With the functions' names (the wasm profile strips them, and the splitter
# below writes both parts without them), in Rust's v0 symbols, which name
# generic code with its types: tools/split finds functions by those names.
flags=(-Ctarget-feature=+simd128 -Csymbol-mangling-version=v0)
[ -z "${RUSTFLAGS:-}" ] || { read -r -a extra <<< "$RUSTFLAGS"; flags+=("${extra[@]}"); }
for d in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
    [ -d "$d" ] && flags+=("--remap-path-prefix=${d%/}=crates")
done
CARGO_ENCODED_RUSTFLAGS="$(IFS=$'\x1f'; echo "${flags[*]}")" CARGO_PROFILE_WASM_STRIP=false \
    cargo build --lib --target wasm32-unknown-unknown --profile wasm --no-default-features
# The whole module, with its names, stays in $TARGET/pkg-whole (make
# split-profile instruments it).
wasm-bindgen --target web --no-typescript --out-dir "$TARGET/pkg-whole" \
    "$TARGET/wasm32-unknown-unknown/wasm/raftlab.wasm"
mkdir -p pkg
rm -f pkg/raftlab_bg.wasm pkg/raftlab_deferred.wasm
# The module in two parts (docs/page-module.md): what a first visit runs,
# and the functions tools/split/deferred.txt names, loaded when the page is
# idle. The splitter is a native tool of its own (tools/split).
step "splitting the module (tools/split)"
cargo build --quiet --release --locked --manifest-path tools/split/Cargo.toml --target-dir "$TARGET/tools"
"$TARGET/tools/release/raftlab-split" split "$TARGET/pkg-whole/raftlab_bg.wasm" \
    --list tools/split/deferred.txt --first pkg/raftlab_bg.wasm --deferred pkg/raftlab_deferred.wasm
# The glue takes the deferred part's loader (tools/split/glue.js), and gives
# the module the import its stubs call.
glue_with_import '$split' '{ load: loadDeferredNow }' pkg/raftlab.js
cat tools/split/glue.js >> pkg/raftlab.js
# The glue repeats every exported item's Rust documentation as JSDoc: a
# quarter of its size, which the page would load for nothing (the Rust
# source is where it is read). Perl is part of every Debian system.
perl -0pi -e 's{^[ \t]*/\*\*.*?\*/[ \t]*\n}{}gms' pkg/raftlab.js
# The lessons, each after a line "@@ lesson FILE" (src/lessons/lesson.rs
# reads them back), in the file names' order as the native build embeds them.
# Then the real-etcd suite's file of the lessons checked against etcd, under
# its own name (lessons.rs CHECKED_FILE).
for f in lessons/*.scenario lessons/checked-against-etcd.txt; do
    [ -z "$(tail -c 1 "$f")" ] || die "$f does not end with a newline"
    printf '@@ lesson %s\n' "${f#lessons/}"
    cat "$f"
done > pkg/lessons.txt
# The Japanese narration's sentences, which the module is built without: the
# page loads them the first time it speaks Japanese (www/i18n.js).
cp src/words/narration-ja.txt pkg/narration-ja.txt
ls -l pkg/raftlab_bg.wasm pkg/raftlab_deferred.wasm | awk '{ printf "%s: %d bytes\n", $9, $5 }'
