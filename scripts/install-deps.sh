#!/usr/bin/env bash
# Installs exactly the Debian 12 packages that hagoromo's build, tests and demo need.
# Idempotent: when everything is present it prints nothing and exits 0.
# Uses sudo when not run as root. Set HG_DEPS_DRY_RUN=1 to only list what is missing.
set -euo pipefail

packages=(
  # build
  cmake make ninja-build g++ pkg-config
  # the format check of scripts/test.sh (scripts/check-format.sh, .clang-format)
  clang-format
  # GL loader generation (GLAD 2, generated at build time) and headless EGL on Mesa
  python3-glad libegl-dev libegl-mesa0 libgbm1 libgl1-mesa-dri libgl-dev
  # windowed viewer and its screenshot test
  libglfw3-dev libimgui-dev xvfb xauth
  # math, parallelism, I/O (assimp's CMake config links libz.so, which libassimp-dev does not pull in)
  libglm-dev libeigen3-dev libassimp-dev zlib1g-dev nlohmann-json3-dev libcli11-dev libstb-dev
  # the 16-bit snow depth PNG (sim/snow/SnowExport)
  libpng-dev
  # geometry: 2D constrained Delaunay meshing of garment panels, exact mesh queries
  libcgal-dev
  # tests and benchmarks (python3-jsonschema: the shipped scenes against docs/schema/, tests/cli/validate_scenes.py)
  libgtest-dev libgmock-dev libbenchmark-dev python3-jsonschema
  # peers for benchmarks (bench/ only: Bullet soft-body cloth, FCL continuous collision)
  libbullet-dev libfcl-dev
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ "${HG_DEPS_DRY_RUN:-0}" == 1 ]]; then
  printf 'missing: %s\n' "${missing[*]}"
  exit 1
fi

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-deps: not root and no sudo; please install: ${missing[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >/dev/null
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done" >&2
