#!/usr/bin/env bash
# The main job: installs what is missing, builds Release, and dresses the built-in
# mannequin in a T-shirt and a skirt, headless (GPU backend through EGL; llvmpipe
# when there is no GPU).
# Usage: scripts/demo.sh [scene.json] [hagoromo drape options...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
scene=${1:-"$root/scenes/outfit_on_mannequin.json"}
shift || true
echo "== building (Release) =="
"$root/scripts/build.sh" "$root/build" 2>&1 | { grep -vE '^\[ *[0-9]+%\]' || true; }
echo "== draping $scene =="
cd "$root"
"$root/build/apps/hagoromo" drape "$scene" --out "$root/out" "$@"
echo "== done: outputs are in $root/out/ (OBJ meshes, .glb, PNG renders, JSON metrics) =="
