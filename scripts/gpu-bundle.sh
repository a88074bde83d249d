#!/usr/bin/env bash
# Packs a Release build (made here by scripts/build.sh with -DHG_BUILD_BENCH=ON) into .gpu/
# so that scripts/gpu-suite.sh can run its parts other than `build` on a GPU machine that
# lacks this project's Debian packages and cannot install them (the lent device machines:
# a CUDA image, no package registry). The bundle, .gpu/bundle.tar.gz (about 27 MB, under
# the device tool's 64 MiB), unpacks to:
#   .gpu/build/  the GL test executables, every benchmark and the CLI (stripped), with the
#                CTest files, in the build tree's own layout (ctest -L gl runs from it)
#   .gpu/lib/    the shared libraries they load that a plain Linux image lacks (assimp, FCL,
#                benchmark, GMP, OpenMP, ...) and the GL vendor-neutral dispatch (libglvnd:
#                libEGL.so.1, libGLdispatch, libOpenGL) that picks the machine's EGL driver.
# On the GPU machine, from the checkout's root:
#   source scripts/gpu-bundle.sh --use      (links build -> .gpu/build, sets LD_LIBRARY_PATH,
#                                            links the compiled-in source path to this checkout)
# Usage: scripts/gpu-bundle.sh [BUILD_DIR]   (default: build)

if [[ ${1:-} == --use ]]; then
  # Sourced on the GPU machine: the build's tests have the source folder compiled in
  # (HG_SOURCE_DIR), so that path is linked to this checkout when it differs.
  root=$(pwd)
  [[ -d .gpu/build ]] || tar -C .gpu -xzf .gpu/bundle.tar.gz
  source_dir=$(cat .gpu/source_dir)
  if [[ $source_dir != "$root" && ! -e $source_dir ]]; then
    mkdir -p "$(dirname "$source_dir")" && ln -s "$root" "$source_dir"
  fi
  [[ -e build ]] || ln -s .gpu/build build
  export LD_LIBRARY_PATH="$root/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # Tells the CLI tests they run from a bundle (tests/cli/cli_test.sh: without Node.js there,
  # the .glb's Khronos validation is left to CI).
  export HG_GPU_BUNDLE=1
  # The NVIDIA driver's EGL vendor file, where the image keeps it outside glvnd's search path.
  nvidia_egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
  [[ -f $nvidia_egl && -z ${__EGL_VENDOR_LIBRARY_FILENAMES:-} ]] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nvidia_egl
  return 0 2>/dev/null || exit 0
fi

set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out="$root/.gpu"
rm -rf "$out"
mkdir -p "$out/build" "$out/lib"
echo "$root" >"$out/source_dir"

# The executables: GL-labelled tests, benchmarks, the CLI.
mapfile -t gl_exes < <(cd "$build" && ctest -L gl --show-only=json-v1 |
  python3 -c 'import json,sys; print("\n".join(sorted({t["command"][0] for t in json.load(sys.stdin)["tests"]})))' |
  grep "^$build/")
exes=("${gl_exes[@]}" "$build"/bench/hg_*_bench "$build/apps/hagoromo")
for exe in "${exes[@]}"; do
  [[ -x $exe ]] || continue
  rel=${exe#"$build"/}
  mkdir -p "$out/build/$(dirname "$rel")"
  strip --strip-unneeded -o "$out/build/$rel" "$exe"
done
# CTest's files (test lists, discovered gtest lists) keep their layout.
(cd "$build" && find . -path '*/CMakeFiles' -prune -o -name '*.cmake' -print | while read -r f; do
  mkdir -p "$out/build/$(dirname "$f")" && cp "$f" "$out/build/$f"; done)

# Shared libraries, except the C/C++ runtime every image has (a newer one serves them).
base='^(libc|libm|libstdc\+\+|libgcc_s|ld-linux-x86-64|libpthread|libdl|librt)\.so'
ldd "${exes[@]}" 2>/dev/null | awk '/=> \//{print $3}' | sort -u | while read -r lib; do
  [[ $(basename "$lib") =~ $base ]] || cp -L "$lib" "$out/lib/"
done
for lib in libEGL.so.1 libGLdispatch.so.0 libOpenGL.so.0; do cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$out/lib/"; done
tar -C "$out" -czf "$out/bundle.tar.gz.partial" source_dir build lib
rm -rf "$out/build" "$out/lib"
mv "$out/bundle.tar.gz.partial" "$out/bundle.tar.gz"
ls -la "$out/bundle.tar.gz"
