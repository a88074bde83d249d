#!/usr/bin/env bash
# Configures and builds hagoromo. Usage: scripts/build.sh [build-dir] [extra cmake args...]
# Defaults: build dir `build`, Release. Installs missing Debian packages first.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-"$root/build"}
shift || true
"$root/scripts/install-deps.sh"
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${HG_BUILD_TYPE:-Release}" "$@" >/dev/null
cmake --build "$build" -j "$jobs"
