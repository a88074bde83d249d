#!/usr/bin/env bash
# End-to-end checks of `hagoromo grasp` and `hagoromo skin`: outputs, metrics, exit codes
# and error messages.
# Usage: grasp_skin_cli_test.sh <hagoromo binary> <source dir> [grasp|grasp_shipped|skin]
#   Without a part, all. ctest runs the parts as three tests (the whole script took 57 s of
#   the 60 s limit under the sanitizers).
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$@"

if in_part grasp; then
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
# The sphere target is measured analytically, with the sphere-tree check beside it (mesh files that cannot be used: below).
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
fi

if in_part grasp_shipped; then
# The shipped grasp scenes: five hands around a sphere, a hand around the bottle mesh.
check "grasp: five hands, 85 radars a frame" 0 - -- "$hagoromo" grasp "$src/scenes/grasp/five_hands.json" --out "$work/grasp_out" -q
if grep -q '"radars_per_frame": 85' "$work/grasp_out/grasp_five_hands.json" && grep -q '"failed_hands": 0' "$work/grasp_out/grasp_five_hands.json" &&
   grep -q '"penetration": false' "$work/grasp_out/grasp_five_hands.json"; then passes=$((passes + 1)); else
  echo "FAIL: five-hands grasp metrics"; failures=$((failures + 1)); fi
# A mesh target (the built-in bottle) held as a sphere tree.
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
fi

if in_part skin; then
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
fi

finish
