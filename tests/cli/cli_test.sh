#!/usr/bin/env bash
# End-to-end checks of `hagoromo drape` (and --help): outputs, exit codes and error messages.
# grasp and skin: grasp_skin_cli_test.sh.
# Usage: cli_test.sh <hagoromo binary> <source dir> [basics|outfits|garments]
#   basics: sheets on both backends, per-frame output, drape to rest, refused inputs, exit
#   codes; outfits: garments on the mannequin, quality gates, an interrupted run, --help;
#   garments: two garments kept apart in the OBJ, the .mtl, the .glb and the metrics.
#   Without a part, both. ctest runs the parts as two tests (the whole script took 52 s of
#   the 60 s limit under the sanitizers).
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$@"

small="$work/small.json"
cat >"$small" <<JSON
{"name": "small", "cloth": {"resolution": 20}, "solver": {"frames": 30},
 "output": {"image_width": 160, "image_height": 120}}
JSON

if in_part basics; then
for backend in cpu gpu; do
  check "drape ($backend) succeeds" 0 - -- "$hagoromo" drape "$small" --backend "$backend" --out "$work/out_$backend" -q
  for f in small.obj small.png small.json; do
    if [[ -s "$work/out_$backend/$f" ]]; then passes=$((passes + 1)); else
      echo "FAIL: drape ($backend) did not write $f"; failures=$((failures + 1)); fi
  done
  if grep -q '"state_hash"' "$work/out_$backend/small.json" && grep -q '^f ' "$work/out_$backend/small.obj"; then
    passes=$((passes + 1)); else echo "FAIL: drape ($backend) outputs malformed"; failures=$((failures + 1)); fi
done

cat >"$work/frames.json" <<JSON
{"name": "frames", "cloth": {"resolution": 12}, "solver": {"frames": 6},
 "output": {"obj_every": 3, "image_width": 64, "image_height": 64}}
JSON
check "per-frame OBJ output" 0 - -- "$hagoromo" drape "$work/frames.json" --backend cpu --out "$work/frames_out" -q
if [[ -s "$work/frames_out/frames_frame_0003.obj" && -s "$work/frames_out/frames_frame_0006.obj" &&
      ! -e "$work/frames_out/frames_frame_0002.obj" ]]; then passes=$((passes + 1)); else
  echo "FAIL: per-frame OBJs: $(ls "$work/frames_out")"; failures=$((failures + 1)); fi

cat >"$work/rest.json" <<JSON
{"name": "rest", "cloth": {"resolution": 16, "size": 0.8}, "solver": {"frames": 600, "substeps": 20, "until_rest": 0.01},
 "output": {"image_width": 64, "image_height": 64}}
JSON
check "drape to rest" 0 - -- "$hagoromo" drape "$work/rest.json" --backend cpu --out "$work/rest_out" -q
if grep -q '"converged": true' "$work/rest_out/rest.json"; then passes=$((passes + 1)); else
  echo "FAIL: drape to rest did not report convergence"; failures=$((failures + 1)); fi

check "missing scene file" 2 "$work/none.json: cannot open scene file" -- "$hagoromo" drape "$work/none.json" --out "$work/x"
echo '{"cloth": {"resolution": 20,}' >"$work/bad.json"
check "malformed JSON names the file" 2 "$work/bad.json: not valid JSON" -- "$hagoromo" drape "$work/bad.json" --out "$work/x"
echo '{"solver": {"substep": 4}}' >"$work/typo.json"
check "unknown key names the key" 2 "unknown key 'solver.substep'" -- "$hagoromo" drape "$work/typo.json" --out "$work/x"
echo '{"cloth": {"resolution": 1}}' >"$work/tiny.json"
check "invalid cloth" 2 "cloth.resolution = 1 is out of range (2..4096)" -- "$hagoromo" drape "$work/tiny.json" --out "$work/x"
check "bad backend option" 1 "backend" -- "$hagoromo" drape "$small" --backend cuda
check "no EGL library: clear message, exit 3" 3 "libegl-mesa0" -- env HG_EGL_LIBRARY=/nonexistent/libEGL.so.1 "$hagoromo" drape "$small" --out "$work/x"
check "bad EGL platform" 3 "HG_EGL_PLATFORM='vulkan'" -- env HG_EGL_PLATFORM=vulkan "$hagoromo" info
if [[ -e "$work/x" ]]; then echo "FAIL: failed runs created output"; failures=$((failures + 1)); else passes=$((passes + 1)); fi

cat >"$work/too_few.json" <<JSON
{"name": "too_few", "cloth": {"resolution": 12, "tensile_stiffness": 1e7}, "solver": {"frames": 20, "substeps": 2}}
JSON
check "too few explicit substeps: the count needed is named" 2 "solver.substeps = 2 is too few: this cloth needs at least" -- \
  "$hagoromo" drape "$work/too_few.json" --backend cpu --out "$work/unstable_out"
cat >"$work/unstable.json" <<JSON
{"name": "unstable", "cloth": {"resolution": 12}, "solver": {"frames": 20, "max_speed": 0.05}}
JSON
check "unstable simulation: exit 4, nothing written, the fastest vertex named" 4 "m/s; no output written" -- "$hagoromo" drape "$work/unstable.json" --backend cpu --out "$work/unstable_out"
if [[ -e "$work/unstable_out" ]]; then echo "FAIL: unstable run wrote output"; failures=$((failures + 1)); else passes=$((passes + 1)); fi

# Existing outputs are replaced only by complete files; an unwritable target is exit 5.
echo "not a folder" >"$work/blocked"
check "output folder blocked by a file" 5 "$work/blocked" -- "$hagoromo" drape "$small" --backend cpu --out "$work/blocked/sub"

# Fabrics: an unknown preset names itself.
cp "$src/scenes/fabrics.json" "$work/fabrics.json"
echo '{"cloth": {"resolution": 12, "fabric": "velvet"}}' >"$work/velvet.json"
check "unknown fabric names the fabric" 2 "velvet" -- "$hagoromo" drape "$work/velvet.json" --out "$work/x"
check "fabrics lists the library" 0 - -- "$hagoromo" fabrics
check "fabrics without the library names it" 2 "$work/nolib/library.json" -- env HG_FABRICS_DIR="$work/nolib" "$hagoromo" fabrics
if "$hagoromo" fabrics --json | python3 -c "import json, sys
d = json.load(sys.stdin)
f = {x['name']: x for x in d['fabrics']}
measured = [n for n, x in f.items() if x['kind'] == 'measured']
calibrated = [n for n, x in f.items() if x['kind'] == 'calibrated, not measured']
sys.exit(len(measured) != 10 or abs(f['denim_11oz']['areal_density_g_m2'] - 324) > 1e-9
         or 'Wang' not in d['source']
         or sorted(calibrated) != ['garment_leather', 'silk_chiffon', 'silk_crepe_de_chine']
         or f['silk_crepe_de_chine']['drape_coefficient_band'] != [20, 40]
         or 'Matsudaira' not in f['silk_crepe_de_chine']['source'])"; then passes=$((passes + 1)); else
  echo "FAIL: fabrics --json does not list the ten measured and three calibrated fabrics with their sources"
  failures=$((failures + 1)); fi
fi

if in_part outfits; then

# Garments on the mannequin: the main job, small and quick.
cat >"$work/outfit.json" <<JSON
{"name": "outfit", "avatar": {"mannequin": {"cell_size": 0.02}, "contact_cell_size": 0.02},
 "garments": [{"type": "skirt"}], "dressing": {"edge_length": 0.045},
 "solver": {"frames": 4, "integrator": "projective_jacobi", "substeps": 4},
 "output": {"image_width": 120, "image_height": 160}}
JSON
check "outfit drape succeeds" 0 - -- "$hagoromo" drape "$work/outfit.json" --backend cpu --out "$work/outfit_out" -q
for f in outfit.obj outfit_body.obj outfit.glb outfit.png outfit_front.png outfit_side.png outfit_back.png \
         outfit_depth_views.png outfit.json; do
  if [[ -s "$work/outfit_out/$f" ]]; then passes=$((passes + 1)); else
    echo "FAIL: outfit drape did not write $f"; failures=$((failures + 1)); fi
done
if grep -q '"vertices_inside_body": 0' "$work/outfit_out/outfit.json" && grep -q '"exact_reference"' "$work/outfit_out/outfit.json"; then passes=$((passes + 1)); else
  echo "FAIL: outfit metrics lack contact statistics or report vertices inside the body"; failures=$((failures + 1)); fi
# The body's measurements in the metrics (the mannequin's defaults: 1.75 m tall).
if python3 -c "import json, sys; a = json.load(open(sys.argv[1]))['avatar']
keys = ['height_m', 'chest_girth_m', 'waist_girth_m', 'hip_girth_m', 'neck_girth_m', 'thigh_girth_m',
        'shoulder_width_m', 'arm_length_m', 'inseam_m']
sys.exit(not all(0.1 < a[k] < 2.0 for k in keys) or not abs(a['height_m'] - 1.75) < 0.01
         or not a['inseam_m'] < a['height_m'] / 2 + 0.1 or a['warnings'] != [])" "$work/outfit_out/outfit.json"; then
  passes=$((passes + 1)); else echo "FAIL: the avatar block lacks the body's measurements"; failures=$((failures + 1)); fi
# The same with the distance grid and --measure-penetration: the penetration block and
# the collider named in the metrics.
sed -e 's/"contact_cell_size": 0.02}/"contact_cell_size": 0.02, "contact": {"method": "distance_grid"}}/' \
    -e 's/"name": "outfit"/"name": "outfit_grid"/' "$work/outfit.json" >"$work/outfit_grid.json"
check "outfit drape on the distance grid, measured" 0 - -- \
  "$hagoromo" drape "$work/outfit_grid.json" --backend cpu --out "$work/outfit_out" --measure-penetration
if grep -q '"method": "distance_grid"' "$work/outfit_out/outfit_grid.json" && grep -q '"p99_9_m"' "$work/outfit_out/outfit_grid.json" &&
   grep -q '"armpit_left"' "$work/outfit_out/outfit_grid.json" && grep -q '"method": "depth_views"' "$work/outfit_out/outfit.json"; then
  passes=$((passes + 1)); else
  echo "FAIL: metrics lack the collider method or the penetration block"; failures=$((failures + 1)); fi
echo '{"avatar": {"contact": {"method": "voxels"}}}' >"$work/voxels.json"
check "unknown contact method names the key" 2 "avatar.contact.method" -- "$hagoromo" drape "$work/voxels.json" --out "$work/x"
echo '{"avatar": {"contact": {"texel": 0.00001}}}' >"$work/tiny_texel.json"
check "a texel too small for the texel guard is an input error" 2 "avatar.contact" -- "$hagoromo" drape "$work/tiny_texel.json" --out "$work/x"
echo '{"garments": [{"type": "skirt"}]}' >"$work/naked.json"
check "garments without an avatar" 2 "garments need an avatar" -- "$hagoromo" drape "$work/naked.json" --out "$work/x"
echo '{"avatar": {}, "garments": [{"type": "kimono"}]}' >"$work/kimono.json"
check "unknown garment type" 2 "unknown garment type 'kimono'" -- "$hagoromo" drape "$work/kimono.json" --out "$work/x"

# Quality gates: a finished drape with a bad result (here a sheet of 0.5 N/m hanging from
# two corners stretches 12-fold) exits 6, names the gate and still writes its outputs;
# --no-gates reports the same without failing.
cat >"$work/soft.json" <<JSON
{"name": "soft", "cloth": {"resolution": 12, "size": 0.5, "tensile_stiffness": 0.5, "pinned": [0, 11]},
 "solver": {"frames": 60}, "output": {"image_width": 64, "image_height": 64}}
JSON
check "a failed quality gate: exit 6, the gate named" 6 "quality gate 'strain' failed" -- \
  "$hagoromo" drape "$work/soft.json" --backend cpu --out "$work/soft_out" -q
if [[ -s "$work/soft_out/soft.obj" ]] && grep -q '"passed": false' "$work/soft_out/soft.json"; then
  passes=$((passes + 1)); else echo "FAIL: a failed gate did not write its outputs and metrics"; failures=$((failures + 1)); fi
check "--no-gates: the failed gate is a warning, exit 0" 0 "warning: quality gate 'strain' failed" -- \
  "$hagoromo" drape "$work/soft.json" --backend cpu --out "$work/soft_out2" -q --no-gates
if python3 -c "import json, sys; s = json.load(open(sys.argv[1]))['largest_strain']
sys.exit(s['kind'] != 'stretch' or s['piece'] != 'cloth' or not s['value'] > 5 or len(s['vertices']) != 2)" \
   "$work/soft_out/soft.json"; then passes=$((passes + 1)); else
  echo "FAIL: largest_strain does not name the stretched edge"; failures=$((failures + 1)); fi
check "intersections counted every 2nd frame" 0 - -- \
  "$hagoromo" drape "$small" --backend cpu --frames 4 --measure-intersections-every 2 --out "$work/every_out" -q
if python3 -c "import json, sys; m = json.load(open(sys.argv[1]))
sys.exit([f['frame'] for f in m['intersections_by_frame']] != [2, 4] or 'cloth_total' not in m['intersections'])" \
   "$work/every_out/small.json"; then passes=$((passes + 1)); else
  echo "FAIL: intersections_by_frame lacks frames 2 and 4"; failures=$((failures + 1)); fi
echo '{"gates": {"max_strain": -1}}' >"$work/bad_gate.json"
check "a bad gate limit names the key" 2 "gates.max_strain" -- "$hagoromo" drape "$work/bad_gate.json" --out "$work/x"

# An interrupted run leaves no file behind (outputs are written only at the end, atomically).
cat >"$work/long.json" <<JSON
{"name": "long", "cloth": {"resolution": 40}, "solver": {"frames": 100000}}
JSON
"$hagoromo" drape "$work/long.json" --backend cpu --out "$work/long_out" -q &
pid=$!
sleep 3
kill -TERM "$pid"
wait "$pid" 2>/dev/null
if [[ -z "$(ls -A "$work/long_out" 2>/dev/null)" ]]; then passes=$((passes + 1)); else
  echo "FAIL: an interrupted run left files: $(ls -A "$work/long_out")"; failures=$((failures + 1)); fi

check "--help shows exit codes" 0 - -- "$hagoromo" --help
"$hagoromo" --help | grep -q "Exit codes" && passes=$((passes + 1)) || { echo "FAIL: --help lacks exit codes"; failures=$((failures + 1)); }
fi

if in_part garments; then

# Two garments stay two objects in every output: the OBJ's `o` groups with their .mtl
# colours, the .glb's meshes and materials (valid for the Khronos glTF validator), the
# metrics' per-garment block. Gates off: the 3.5 cm T-shirt only has 4 frames.
cat >"$work/two.json" <<JSON
{"name": "two", "avatar": {"mannequin": {"cell_size": 0.02}, "contact_cell_size": 0.02},
 "garments": [{"type": "skirt"}, {"type": "tshirt"}], "dressing": {"edge_length": 0.035},
 "solver": {"frames": 4, "integrator": "projective_jacobi", "substeps": 4},
 "output": {"image_width": 120, "image_height": 160}}
JSON
check "two garments drape" 0 - -- "$hagoromo" drape "$work/two.json" --backend cpu --out "$work/two_out" -q --no-gates
if [[ $(grep -c '^o ' "$work/two_out/two.obj") == 2 ]] && grep -q '^o skirt$' "$work/two_out/two.obj" &&
   grep -q '^o tshirt$' "$work/two_out/two.obj" && grep -q '^mtllib two.mtl$' "$work/two_out/two.obj" &&
   grep -q '^newmtl tshirt$' "$work/two_out/two.mtl"; then passes=$((passes + 1)); else
  echo "FAIL: the OBJ does not have one object per garment with its material"; failures=$((failures + 1)); fi
if python3 -c "import json, struct, sys
data = open(sys.argv[1], 'rb').read()
gltf = json.loads(data[20:20 + struct.unpack('<I', data[12:16])[0]])
meshes = {m['name']: gltf['materials'][m['primitives'][0]['material']]['name'] for m in gltf['meshes']}
metrics = json.load(open(sys.argv[2]))
sys.exit(meshes != {'body': 'body', 'skirt': 'skirt', 'tshirt': 'tshirt'}
         or [g['name'] for g in metrics['garments']] != ['skirt', 'tshirt']
         or sum(g['vertices'] for g in metrics['garments']) != metrics['vertices'])" \
   "$work/two_out/two.glb" "$work/two_out/two.json"; then passes=$((passes + 1)); else
  echo "FAIL: the .glb or the metrics do not keep the garments apart"; failures=$((failures + 1)); fi
if [[ -n ${HG_GPU_BUNDLE:-} ]] && ! command -v node >/dev/null; then
  echo "note: the lent GPU machine has no Node.js; two.glb's validation runs in CI"
elif node "$src/tests/cli/validate_gltf.js" "$work/two_out/two.glb"; then passes=$((passes + 1)); else
  echo "FAIL: the Khronos glTF validator found errors in two.glb (or is not installed: scripts/install-deps.sh)"
  failures=$((failures + 1)); fi
fi

finish
