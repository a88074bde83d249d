#!/usr/bin/env bash
# End-to-end checks of `hagoromo snow` (snow accumulation, docs/methods.md section 5): the
# outputs on a small scene (a 2 x 2 m plane under a small roof on a post, 5 cm cells,
# 16 directions, 2 passes), the report's keys, exit codes and error messages.
# Usage: snow_cli_test.sh <hagoromo binary> <source dir>
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$@"

scene="$src/tests/snow/data/small_roof.json"
out="$work/small"
check "snow (cpu) succeeds" 0 - -- "$hagoromo" snow "$scene" --backend cpu --out "$out" --width 160 --height 120 -q
for f in before.png after.png snow.obj snow_depth.png snow_depth_preview.png report.json; do
  if [[ -s "$out/$f" ]]; then pass; else failed "snow did not write $f"; fi
done
for f in before.png after.png snow_depth.png snow_depth_preview.png; do
  if is_png "$out/$f"; then pass; else failed "$f is not a PNG"; fi
done
if grep -q '^g snow_ground' "$out/snow.obj" && grep -q '^g objects_with_snow' "$out/snow.obj" && grep -q '^f ' "$out/snow.obj"; then
  pass; else failed "snow.obj lacks its groups or faces"; fi
# The report: valid JSON with the expected keys and sane values.
if python3 - "$out/report.json" <<'PY'
import json, math, sys
r = json.load(open(sys.argv[1]))
keys = ["scene", "backend", "device", "directions", "passes", "cell_m", "map_texel_m", "seconds", "fallen_volume_m3",
        "final_volume_m3", "max_relative_mass_drift", "relaxation", "snow_depth", "exposure_last_pass", "snow_depth_png",
        "snow_depth_preview", "outputs"]
missing = [k for k in keys if k not in r]
assert not missing, "missing keys %s" % missing
assert r["backend"] == "cpu" and r["directions"] == 16 and r["passes"] == 2, r
assert abs(r["cell_m"] - 0.05) < 1e-6, r["cell_m"]
assert len(r["relaxation"]) == 2 and all("relaxation_iterations" in p and "max_repose_ratio" in p for p in r["relaxation"])
for phase in ["load", "cover", "accumulate", "relax", "snowfall", "render", "write", "total"]:
    assert phase in r["seconds"], phase
# 5 cm/h for 2 h on open ground: about 10 cm there, some of it under the roof missing.
g = r["snow_depth"]["ground"]
assert 0.05 < g["max_m"] < 0.2 and 0.0 < g["mean_m"] <= g["max_m"], g
assert r["snow_depth"]["objects"]["max_m"] > 0.05, r["snow_depth"]["objects"]
assert r["fallen_volume_m3"] > 0 and math.isfinite(r["final_volume_m3"]) and r["max_relative_mass_drift"] < 1e-3, r
assert r["exposure_last_pass"]["ground"]["fraction_sheltered"] > 0.0, r["exposure_last_pass"]
assert r["snow_depth_png"]["metres_per_unit"] > 0 and r["snow_depth_preview"]["max_m"] > 0
PY
then pass; else failed "report.json malformed (above)"; fi

# The GPU solver: the same outputs, the after picture drawn from its own textures.
check "snow (gpu) succeeds" 0 - -- "$hagoromo" snow "$scene" --backend gpu --out "$work/gpu" --width 160 --height 120 -q
for f in before.png after.png snow.obj snow_depth.png snow_depth_preview.png report.json; do
  if [[ -s "$work/gpu/$f" ]]; then pass; else failed "snow (gpu) did not write $f"; fi
done
if grep -q '"backend": "gpu"' "$work/gpu/report.json"; then pass; else failed "the gpu report does not name its backend"; fi

# Overrides: directions and passes from the command line reach the report.
check "snow with overrides" 0 - -- "$hagoromo" snow "$scene" --backend cpu --out "$work/over" --directions 4 --passes 1 \
  --hours 1 --map-resolution 128 --width 64 --height 48 -q
if grep -q '"directions": 4' "$work/over/report.json" && grep -q '"passes": 1' "$work/over/report.json"; then pass; else
  failed "overrides not in the report"; fi
# Default output folder: out/snow/<scene name> under the working directory; the default
# backend is cpu on a software rasterizer, gpu on a hardware one.
mkdir -p "$work/cwd"
if (cd "$work/cwd" && "$hagoromo" snow "$scene" --directions 2 --passes 1 --map-resolution 64 \
      --width 32 --height 32 -q) && [[ -s "$work/cwd/out/snow/small_roof/report.json" ]]; then pass; else
  failed "snow without --out wrote no out/snow/small_roof/report.json"; fi
if grep -Eq '"backend": "(cpu|gpu)"' "$work/cwd/out/snow/small_roof/report.json"; then pass; else failed "no default backend"; fi

# Errors: exit 2 naming the file (and the key), nothing written.
check "snow: missing scene file" 2 "$work/none.json" -- "$hagoromo" snow "$work/none.json" --out "$work/x"
echo '{"ground": {"plane": {"min": [0, 0], "max": [1, 1]}}, "snow": {"ground_cel": 0.05}}' >"$work/typo.json"
check "snow: unknown key names the file and key" 2 "$work/typo.json" -- "$hagoromo" snow "$work/typo.json" --out "$work/x"
check "snow: unknown key named" 2 "snow.ground_cel" -- "$hagoromo" snow "$work/typo.json" --out "$work/x"
echo '{"ground": {"plane": ' >"$work/bad.json"
check "snow: malformed JSON names the file" 2 "$work/bad.json" -- "$hagoromo" snow "$work/bad.json" --out "$work/x"
echo '{"objects": []}' >"$work/noground.json"
check "snow: a scene without ground" 2 "ground" -- "$hagoromo" snow "$work/noground.json" --out "$work/x"
check "snow: bad backend option" 1 "backend" -- "$hagoromo" snow "$scene" --backend cuda --out "$work/x"
check "snow: bad passes option" 1 "passes" -- "$hagoromo" snow "$scene" --passes 0 --out "$work/x"
check "snow: no EGL library: exit 3" 3 "libegl-mesa0" -- env HG_EGL_LIBRARY=/nonexistent/libEGL.so.1 \
  "$hagoromo" snow "$scene" --backend cpu --out "$work/x"
if [[ -e "$work/x" ]]; then failed "failed snow runs created output"; else pass; fi
# An unwritable output folder: exit 5.
echo "not a folder" >"$work/blocked"
check "snow: output folder blocked by a file" 5 "$work/blocked" -- "$hagoromo" snow "$scene" --backend cpu \
  --directions 2 --passes 1 --map-resolution 64 --width 32 --height 32 --out "$work/blocked/sub"

finish
