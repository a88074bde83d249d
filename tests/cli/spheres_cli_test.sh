#!/usr/bin/env bash
# End-to-end checks of `hagoromo spheres` (sphere trees, docs/methods.md section 6): the outputs
# for the built-in bottle at two resolutions, the report's numbers, exit codes and errors.
# Usage: spheres_cli_test.sh <hagoromo binary> <source dir>
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$@"

out="$work/bottle"
check "spheres --builtin bottle succeeds" 0 - -- "$hagoromo" spheres --builtin bottle --levels 32,64 --out "$out" \
  --width 120 --height 160 -q
for f in spheres.png spheres.json report.json; do
  if [[ -s "$out/$f" ]]; then pass; else failed "spheres did not write $f"; fi
done
if is_png "$out/spheres.png"; then pass; else failed "spheres.png is not a PNG"; fi
if python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/report.json"))
s = json.load(open(d + "/spheres.json"))
assert r["triangles"] == 12090, r["triangles"]
levels = r["levels"]
assert [l["resolution"] for l in levels] == [32, 64], levels
for l, sl in zip(levels, s["levels"]):
    for k in ["voxel_m", "inside_voxels", "spheres", "spheres_per_digital_radius", "union_volume_m3",
              "union_over_mesh_volume", "octree_nodes", "octree_depth", "voxelize_and_fill_s", "octree_s"]:
        assert k in l, k
    assert l["spheres"] == len(sl["spheres"]) == sum(l["spheres_per_digital_radius"]), l
    assert 0.8 < l["union_over_mesh_volume"] < 1.1, l["union_over_mesh_volume"]
    # Every sphere is a leaf of exactly one node; the root bounds them all.
    leaves = sorted(n[6] for n in sl["nodes"] if n[5] == 0)
    assert leaves == list(range(len(sl["spheres"]))), "leaves"
    root = sl["nodes"][0]
    for x, y, z, rad in sl["spheres"]:
        assert ((x - root[0])**2 + (y - root[1])**2 + (z - root[2])**2) ** 0.5 + rad <= root[3] * (1 + 1e-5) + 1e-7
assert levels[1]["spheres"] > levels[0]["spheres"]
PY
then pass; else failed "report.json / spheres.json content"; fi

# Bad input: no mesh, both, an unknown shape, a missing file, an open mesh, a flat level.
check "spheres without input is a usage error" 1 "give either a mesh file or --builtin" -- "$hagoromo" spheres -q
check "spheres of a missing file" 2 "$work/none.obj" -- "$hagoromo" spheres "$work/none.obj" -q
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\n' >"$work/open.obj"
check "spheres of an open mesh names the file" 2 "open.obj: not a closed surface" -- \
  "$hagoromo" spheres "$work/open.obj" --out "$work/open" -q
if [[ ! -e "$work/open" ]]; then pass; else failed "a failed run wrote $work/open"; fi
check "spheres rejects a level outside 8..512" 1 - -- "$hagoromo" spheres --builtin bottle --levels 4 -q

finish
