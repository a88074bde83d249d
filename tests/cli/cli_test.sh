#!/usr/bin/env bash
# End-to-end checks of the `hagoromo` CLI: outputs, exit codes and error messages.
# Usage: cli_test.sh <hagoromo binary> <source dir>
set -u
hagoromo=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0

source "$src/tests/cli/cli_common.sh"

small="$work/small.json"
cat >"$small" <<JSON
{"name": "small", "cloth": {"resolution": 20}, "solver": {"frames": 30},
 "output": {"image_width": 160, "image_height": 120}}
JSON

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
check "unstable simulation: exit 4, nothing written" 4 "unstable" -- "$hagoromo" drape "$work/unstable.json" --backend cpu --out "$work/unstable_out"
if [[ -e "$work/unstable_out" ]]; then echo "FAIL: unstable run wrote output"; failures=$((failures + 1)); else passes=$((passes + 1)); fi

# Existing outputs are replaced only by complete files; an unwritable target is exit 5.
echo "not a folder" >"$work/blocked"
check "output folder blocked by a file" 5 "$work/blocked" -- "$hagoromo" drape "$small" --backend cpu --out "$work/blocked/sub"

# Fabrics: an unknown preset names itself.
cp "$src/scenes/fabrics.json" "$work/fabrics.json"
echo '{"cloth": {"resolution": 12, "fabric": "velvet"}}' >"$work/velvet.json"
check "unknown fabric names the fabric" 2 "velvet" -- "$hagoromo" drape "$work/velvet.json" --out "$work/x"

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

# Cyber Radar grasp (hagoromo grasp): outputs, metrics, errors that name the file.
cat >"$work/grasp.json" <<JSON
{"name": "grasp", "target": {"shape": "sphere", "radius": 0.06, "detail": 2},
 "hands": [{"position": [0.25, -0.03, 0.0], "facing": [0, 0, -1]}],
 "radar": {"image": 16}, "output": {"image_width": 96, "image_height": 72}}
JSON
check "grasp succeeds" 0 - -- "$hagoromo" grasp "$work/grasp.json" --out "$work/grasp_out" -q
for f in grasp.obj grasp.png grasp.json; do
  if [[ -s "$work/grasp_out/$f" ]]; then passes=$((passes + 1)); else
    echo "FAIL: grasp did not write $f"; failures=$((failures + 1)); fi
done
if grep -q '"radars_per_frame": 17' "$work/grasp_out/grasp.json" && grep -q '"penetration": false' "$work/grasp_out/grasp.json" &&
   grep -q '"joint_angles_deg"' "$work/grasp_out/grasp.json" && grep -q '^f ' "$work/grasp_out/grasp.obj"; then
  passes=$((passes + 1)); else echo "FAIL: grasp outputs malformed"; failures=$((failures + 1)); fi
check "grasp (gpu backend) succeeds" 0 - -- "$hagoromo" grasp "$work/grasp.json" --backend gpu --out "$work/grasp_gpu" -q
if grep -q '"backend": "gpu"' "$work/grasp_gpu/grasp.json" && grep -q '"penetration": false' "$work/grasp_gpu/grasp.json"; then
  passes=$((passes + 1)); else echo "FAIL: grasp (gpu) metrics"; failures=$((failures + 1)); fi
check "grasp: five hands, 85 radars a frame" 0 - -- "$hagoromo" grasp "$src/scenes/grasp/five_hands.json" --out "$work/grasp_out" -q
if grep -q '"radars_per_frame": 85' "$work/grasp_out/grasp_five_hands.json" && grep -q '"failed_hands": 0' "$work/grasp_out/grasp_five_hands.json" &&
   grep -q '"penetration": false' "$work/grasp_out/grasp_five_hands.json"; then passes=$((passes + 1)); else
  echo "FAIL: five-hands grasp metrics"; failures=$((failures + 1)); fi
# A mesh target (the built-in bottle) held as a sphere tree; mesh files that cannot be used.
check "grasp: bottle (mesh target) succeeds" 0 - -- "$hagoromo" grasp "$src/scenes/grasp/bottle.json" --out "$work/grasp_bottle" -q
for f in grasp_bottle.obj grasp_bottle.png grasp_bottle.json; do
  if [[ -s "$work/grasp_bottle/$f" ]]; then passes=$((passes + 1)); else
    echo "FAIL: bottle grasp did not write $f"; failures=$((failures + 1)); fi
done
if grep -q '"distance_method": "sphere_tree"' "$work/grasp_bottle/grasp_bottle.json" &&
   grep -q '"sphere_tree_check"' "$work/grasp_bottle/grasp_bottle.json" &&
   grep -q '"tree_penetration_m"' "$work/grasp_bottle/grasp_bottle.json" &&
   grep -q '"source": "builtin:bottle"' "$work/grasp_bottle/grasp_bottle.json" &&
   grep -Eq '"fingers_in_contact": [1-5],' "$work/grasp_bottle/grasp_bottle.json" &&
   grep -q '"failed_hands": 0' "$work/grasp_bottle/grasp_bottle.json" &&
   grep -q '"penetration": false' "$work/grasp_bottle/grasp_bottle.json"; then passes=$((passes + 1)); else
  echo "FAIL: bottle grasp metrics"; failures=$((failures + 1)); fi
if grep -q '"distance_method": "analytic"' "$work/grasp_out/grasp.json" && grep -q '"sphere_tree_check"' "$work/grasp_out/grasp.json"; then
  passes=$((passes + 1)); else echo "FAIL: grasp metrics lack the sphere-tree check"; failures=$((failures + 1)); fi
printf 'v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\n' >"$work/open_tet.obj"
echo '{"target": {"shape": "mesh", "mesh": "open_tet.obj"}, "hands": [{"position": [0.3, 0, 0]}]}' >"$work/grasp_open.json"
check "grasp: open mesh target names the scene and the mesh file" 2 "$work/grasp_open.json: target ($work/open_tet.obj): voxelize: the mesh is not watertight" -- \
  "$hagoromo" grasp "$work/grasp_open.json" --out "$work/x"
echo '{"target": {"shape": "mesh", "mesh": "nothere.obj"}, "hands": [{"position": [0.3, 0, 0]}]}' >"$work/grasp_nomesh.json"
check "grasp: missing mesh file is named" 2 "$work/grasp_nomesh.json: target.mesh: $work/nothere.obj: cannot read mesh" -- \
  "$hagoromo" grasp "$work/grasp_nomesh.json" --out "$work/x"
check "grasp: missing scene file" 2 "$work/none.json: cannot open scene file" -- "$hagoromo" grasp "$work/none.json" --out "$work/x"
echo '{"target": {"radius": 0.05}, "hands": [{"position": [0.3, 0, 0]}], "motion": {"scan_stepdeg": 10}}' >"$work/grasp_typo.json"
check "grasp: unknown key names the file and key" 2 "$work/grasp_typo.json: unknown key 'motion.scan_stepdeg'" -- \
  "$hagoromo" grasp "$work/grasp_typo.json" --out "$work/x"
echo '{"target": {"radius": 0.05}, "hands": [' >"$work/grasp_bad.json"
check "grasp: malformed JSON names the file" 2 "$work/grasp_bad.json: not valid JSON" -- "$hagoromo" grasp "$work/grasp_bad.json" --out "$work/x"
check "grasp: bad backend option" 1 "backend" -- "$hagoromo" grasp "$work/grasp.json" --backend cuda
if [[ -e "$work/x" ]]; then echo "FAIL: failed grasp runs created output"; failures=$((failures + 1)); else passes=$((passes + 1)); fi

# Skinning rigs (hagoromo skin): outputs of every method, CPU and GPU backends, errors.
cat >"$work/skin.json" <<JSON
{"name": "skin", "body": {"type": "two_bone_cylinder", "length": 1.0, "radius": 0.15, "rings": 21, "segments": 16, "blend": 0.5},
 "joint": "joint", "zone_radius": 0.25,
 "motion": {"type": "rotate", "axis": [0, 0, 1], "from_degrees": 0, "to_degrees": 135, "frames": 4},
 "steps_per_frame": 20, "settle": {"speed": 0.01, "max_steps": 400},
 "particles": {"radius": 0.03, "levels": 2}, "output": {"image_width": 192, "image_height": 96}}
JSON
for backend in cpu gpu; do
  check "skin ($backend) succeeds" 0 - -- "$hagoromo" skin "$work/skin.json" --backend "$backend" --out "$work/skin_$backend" -q
  for f in comparison.png metrics.csv plot_volume.svg plot_min_radius.svg plot_bulge.svg plot_self_intersections.svg \
           linear/frame_0000.obj dual_quaternion/frame_0003.obj particle/frame_0003.obj; do
    if [[ -s "$work/skin_$backend/$f" ]]; then passes=$((passes + 1)); else
      echo "FAIL: skin ($backend) did not write $f"; failures=$((failures + 1)); fi
  done
  # 3 methods x 4 frames + the header.
  if [[ $(wc -l <"$work/skin_$backend/metrics.csv") -eq 13 ]] && grep -q '^particle,3,135' "$work/skin_$backend/metrics.csv"; then
    passes=$((passes + 1)); else echo "FAIL: skin ($backend) metrics.csv"; failures=$((failures + 1)); fi
done
check "skin: missing rig file" 2 "$work/none.json: cannot open scene file" -- "$hagoromo" skin "$work/none.json" --out "$work/y"
echo '{"body": {"type": "two_bone_cylinder"}, "joint": "elbow", "motion": {"type": "twist"}}' >"$work/skin_joint.json"
check "skin: unknown joint names the file" 2 "$work/skin_joint.json: rig.joint 'elbow' is not a joint" -- \
  "$hagoromo" skin "$work/skin_joint.json" --out "$work/y"
echo '{"body": {"type": "two_bone_cylinder"}, "joint": "joint", "motion": {"type": "twist"}, "particles": {"time_step": -1}}' \
  >"$work/skin_step.json"
check "skin: bad particle setting names the key" 2 "rig.particles.time_step" -- "$hagoromo" skin "$work/skin_step.json" --out "$work/y"
echo '{"body": {"type": "two_bone_cylinder"}, "joint": "joint", "motion": {"type": "twist"}, "particles": {"time_step": 0.05}}' \
  >"$work/skin_diverge.json"
check "skin: divergence exits 4 and writes nothing" 4 "diverged" -- "$hagoromo" skin "$work/skin_diverge.json" --methods particle --out "$work/y"
check "skin: unknown method" 1 "unknown method 'verlet'" -- "$hagoromo" skin "$work/skin.json" --methods linear,verlet --out "$work/y"
if [[ -e "$work/y" ]]; then echo "FAIL: failed skin runs created output"; failures=$((failures + 1)); else passes=$((passes + 1)); fi

echo "$passes passed, $failures failed"
[[ $failures -eq 0 ]]
