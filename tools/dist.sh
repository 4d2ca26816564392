#!/usr/bin/env bash
# Writes dist/raftlab.html: the whole app (page, script, style, wasm and the
# lessons) in one file that works opened from disk, with no server and no
# network. Served mode (make serve) is unchanged.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
tools/build-pkg.sh
command -v node >/dev/null 2>&1 || apt_install nodejs
step "writing dist/raftlab.html"
node tools/dist.mjs
size=$(wc -c < dist/raftlab.html)
gz=$(gzip -9c dist/raftlab.html | wc -c)
printf 'dist/raftlab.html: %d bytes (%d KB), %d KB gzipped\n' "$size" $((size / 1024)) $((gz / 1024))
