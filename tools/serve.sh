#!/usr/bin/env bash
# Builds the app and serves it on http://127.0.0.1:8000/ in the foreground.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
tools/build-pkg.sh
step "serving (Ctrl-C stops)"
exec cargo run --quiet --release --bin raftlab -- serve --addr "${RAFTLAB_ADDR:-127.0.0.1:8000}"
