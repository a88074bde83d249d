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
  # DXF-AAMA sewing patterns (sim/garment/AamaDxf.h); ezdxf checks the written DXF in the tests
  libdxflib-dev python3-ezdxf
  # tests and benchmarks (python3-jsonschema: the shipped scenes against docs/schema/, tests/cli/validate_scenes.py)
  libgtest-dev libgmock-dev libbenchmark-dev python3-jsonschema
  # peers for benchmarks (bench/ only: Bullet soft-body cloth, FCL continuous collision)
  libbullet-dev libfcl-dev
  # a real single-node Slurm for the batch runner's cluster test (tests/slurm/slurm_batch_test.sh
  # starts and stops its own daemons; the packages' system services are not started here)
  slurmd slurmctld slurm-client munge
)

# The Khronos glTF validator (npm gltf-validator) checks the .glb files in the tests
# (tests/cli/validate_gltf.js); it goes into .tools/ of the checkout, pinned.
gltf_validator_version=2.0.0-dev.3.10
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
validator_dir="$root/.tools/gltf-validator"
# Node.js and npm: Debian's, unless the machine has them already (NodeSource's nodejs
# carries its own npm and conflicts with Debian's npm package).
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

install_gltf_validator() {
  local installed="$validator_dir/node_modules/gltf-validator/package.json"
  if [[ -f "$installed" ]] && grep -q "\"version\": \"$gltf_validator_version\"" "$installed"; then return 0; fi
  if [[ "${HG_DEPS_DRY_RUN:-0}" == 1 ]]; then
    echo "missing: gltf-validator@$gltf_validator_version (npm)"
    return 1
  fi
  echo "install-deps: installing gltf-validator@$gltf_validator_version (npm) into .tools/" >&2
  mkdir -p "$validator_dir"
  npm install --silent --no-audit --no-fund --prefix "$validator_dir" "gltf-validator@$gltf_validator_version" >/dev/null
}

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  install_gltf_validator
  exit 0
fi

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
# Daemon packages (munge, slurmd, slurmctld) must not start system services: the Slurm test
# runs its own, in a temporary folder. policy-rc.d (Debian's switch for invoke-rc.d and
# deb-systemd-invoke) says no while installing, unless the machine already has one.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
  "${sudo[@]}" chmod 755 "$policy"
  own_policy=1
fi
rc=0
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || rc=$?
[[ $own_policy -eq 1 ]] && "${sudo[@]}" rm -f "$policy"
[[ $rc -eq 0 ]] || exit $rc
echo "install-deps: done" >&2
install_gltf_validator
