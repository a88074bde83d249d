#!/usr/bin/env bash
# Hardening: malformed and absurd inputs across every subcommand are refused quickly with
# the right exit code and a message naming the file (or option) and key; failed and
# interrupted runs leave nothing behind. Each class the 246-case audit found has a case:
# hangs (refused in under 5 s), integers that wrapped, partial outputs, misleading codes
# and messages, values that were silently accepted; then 20 malformed inputs of our own.
# Usage: hardening_cli_test.sh <hagoromo binary> <source dir> [limits|inputs]
#   limits: hangs, wrapped integers, outputs as a set; inputs: codes and messages, values no
#   longer accepted, malformed inputs. Without a part, both. ctest runs the parts as two tests
#   (about 25 s each under the sanitizers, where one took 50 s of the 60 s limit).
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$@"
cd "$work" || exit 1
x="$work/never"  # every refused run points --out here; it must never appear

sheet() {  # sheet <file> <json members after the cloth>: a tiny sheet scene
  printf '{"name": "s", "cloth": {"resolution": 8}, "output": {"image_width": 32, "image_height": 32}%s}\n' "$2" >"$1"
}
rig() {  # rig <file> <body json> [more members]
  printf '{"body": %s, "joint": "joint", "motion": {"type": "twist", "frames": 3}%s}\n' "$2" "${3:-}" >"$1"
}
snow() {  # snow <file> [more members]
  printf '{"ground": {"plane": {"min": [-1, -1], "max": [1, 1]}}%s}\n' "${2:-}" >"$1"
}

if in_part limits; then
echo "== hangs: refused in under 5 s =="
sheet frames.json ', "solver": {"frames": 1000000000}'
check_quick "solver.frames 1e9" 2 "frames.json: solver.frames = 1000000000 is out of range (0..100000)" -- \
  "$hagoromo" drape frames.json --out "$x"
sheet work.json ', "solver": {"frames": 100000, "substeps": 100000}'
check_quick "frames x substeps" 2 "substeps is out of range (at most 100000000 per run)" -- "$hagoromo" drape work.json --out "$x"
rig rings.json '{"type": "two_bone_cylinder", "rings": 100000, "segments": 100000}'
check_quick "rig rings 100000" 2 "rings.json: rig.body.rings = 100000 is out of range (3..1000)" -- "$hagoromo" skin rings.json --out "$x"
printf '{"body": {"type": "two_bone_cylinder"}, "joint": "joint", "motion": {"type": "rotate", "frames": 2147483647}}\n' >mframes.json
check_quick "rig motion.frames 2^31-1" 2 "rig.motion.frames = 2147483647 is out of range (2..100000)" -- \
  "$hagoromo" skin mframes.json --out "$x"
rig steps.json '{"type": "two_bone_cylinder"}' ', "steps_per_frame": 2147483647'
check_quick "rig steps_per_frame 2^31-1" 2 "rig.steps_per_frame = 2147483647 is out of range (1..10000)" -- \
  "$hagoromo" skin steps.json --out "$x"
rig box.json '{"type": "two_bone_box", "subdivisions": 100000}'
check_quick "rig two_bone_box.subdivisions 100000" 2 "rig.body.subdivisions = 100000 is out of range (1..256)" -- \
  "$hagoromo" skin box.json --out "$x"
snow directions.json ', "snowfall": {"directions": 1000000000}'
check_quick "snowfall.directions 1e9" 2 "snowfall.directions = 1000000000 is out of range (1..65536)" -- \
  "$hagoromo" snow directions.json --out "$x"
snow passes.json ', "snow": {"passes": 1000000000}'
check_quick "snow.passes 1e9" 2 "snow.passes = 1000000000 is out of range (1..65536)" -- "$hagoromo" snow passes.json --out "$x"
snow maps.json ', "snow": {"passes": 65536}, "snowfall": {"directions": 65536}'
check_quick "snow passes x directions" 2 "depth maps per run" -- "$hagoromo" snow maps.json --out "$x"
snow repose.json ', "snow": {"repose_max_iterations": 2147483647, "repose_tolerance": 0}'
check_quick "snow.repose_max_iterations 2^31-1" 2 "snow.repose_max_iterations = 2147483647 is out of range (0..1000000)" -- \
  "$hagoromo" snow repose.json --out "$x"
printf 'HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 2000000000\nFrame Time: 0.0333\n0 0 0\n' >huge.bvh
printf '{"map": {"hips": "hips"}}\n' >huge_map.json
printf '{"avatar": {"mannequin": {"cell_size": 0.03}, "motion": {"bvh": "huge.bvh", "map": "huge_map.json"}}, "cloth": {"resolution": 8}}\n' >huge_bvh.json
check_quick "BVH of 2e9 frames: input error naming the file, not bad_alloc" 2 "huge.bvh" -- "$hagoromo" drape huge_bvh.json --out "$x"

echo "== integers do not wrap =="
sheet wrap.json ', "solver": {"frames": 4294967298}'
check_quick "frames 4294967298" 2 "solver.frames = 4294967298 is out of range" -- "$hagoromo" drape wrap.json --out "$x"
printf '{"name": "w", "cloth": {"resolution": 8}, "output": {"image_width": 4294967312}}\n' >width.json
check_quick "image_width 4294967312" 2 "output.image_width = 4294967312 is out of range (16..8192)" -- \
  "$hagoromo" drape width.json --out "$x"
sheet neg.json ', "solver": {"frames": -3}'
check_quick "negative frames" 2 "solver.frames = -3 is out of range (0..100000)" -- "$hagoromo" drape neg.json --out "$x"
sheet frac.json ', "solver": {"substeps": 2.5}'
check_quick "fractional substeps" 2 "solver.substeps must be a whole number" -- "$hagoromo" drape frac.json --out "$x"

echo "== outputs as a set =="
sheet set.json ', "solver": {"frames": 2, "substeps": 20}'
mkdir -p blocked && mkdir -p blocked/s.json  # the last output's name is taken by a folder: the commit fails
check "a failed last output leaves none of the set" 5 "s.json" -- "$hagoromo" drape set.json --backend cpu --out "$work/blocked"
if [[ ! -e blocked/s.obj && ! -e blocked/s.png && -z "$(ls -A blocked/s.json)" && -z "$(ls -A blocked | grep -v '^s.json$')" ]]; then
  pass; else failed "a failed commit left: $(ls -A blocked)"; fi
cat >zero.json <<JSON
{"name": "zero", "avatar": {"mannequin": {"cell_size": 0.03}, "contact_cell_size": 0.03}, "cloth": {"resolution": 8, "size": 0.4, "center": [0, 1.9, 0]},
 "output": {"image_width": 32, "image_height": 32}}
JSON
check "--frames 0 writes a valid set (a one-frame .glb)" 0 - -- "$hagoromo" drape zero.json --backend cpu --frames 0 --out "$work/zero" -q
if [[ -s zero/zero.glb && -s zero/zero.obj && -s zero/zero.json ]] && head -c 4 zero/zero.glb | grep -q glTF; then pass; else
  failed "--frames 0 outputs: $(ls zero)"; fi
# Interrupted while its many per-frame OBJs are being written (staging folder present):
# SIGTERM exits 143 and removes everything, the output folders it created included.
printf '{"name": "big", "cloth": {"resolution": 120}, "sphere": null, "solver": {"frames": 30, "substeps": 1, "integrator": "projective_jacobi", "iterations": 2}, "output": {"obj_every": 1, "image_width": 32, "image_height": 32}}\n' >big.json
for sig in TERM INT; do
  rm -rf "$work/big_$sig"
  "$hagoromo" drape big.json --backend cpu --out "$work/big_$sig/nested" -q &
  pid=$!
  for _ in $(seq 1 600); do  # until the writing has begun (at most 60 s)
    compgen -G "$work/big_$sig/nested/.hagoromo-staging-*/big_frame_0001.obj" >/dev/null && break
    sleep 0.1
  done
  kill -$sig "$pid"
  wait "$pid"
  rc=$?
  expected=$([[ $sig == TERM ]] && echo 143 || echo 130)
  if [[ $rc -eq $expected ]]; then pass; else failed "SIG$sig during the writes: exit $rc, expected $expected"; fi
  if [[ ! -e "$work/big_$sig" ]]; then pass; else failed "SIG$sig during the writes left: $(ls -A "$work/big_$sig" | head -3)"; fi
done

fi  # limits

if in_part inputs; then
echo "== the right code and message =="
python3 -c "import json; print(json.dumps({'cloth': {'resolution': 8}, 'boxes': [{'half_extents': [0.1, 0.1, 0.1]}] * 200}))" >boxes.json
check_quick "200 boxes: input error naming the file and key" 2 "boxes.json: boxes: 200 boxes is out of range (at most 128" -- \
  "$hagoromo" drape boxes.json --out "$x"
mkdir -p folder.json
check_quick "a folder as the scene" 2 "folder.json: is a folder, not a scene file" -- "$hagoromo" drape folder.json --out "$x"
rig zone.json '{"type": "two_bone_cylinder"}' ', "zone_radius": 0.000001'
check_quick "rig: empty joint zone is an input error" 2 "empty zone" -- "$hagoromo" skin zone.json --methods linear --out "$x"
rig radius.json '{"type": "two_bone_cylinder", "radius": 1e308}'
check_quick "rig: radius 1e308 is out of range" 2 "rig.body.radius = 1e+308 is out of range" -- "$hagoromo" skin radius.json --out "$x"
snow snow_ok.json
check_quick "a command-line value out of range names the option" 1 "--directions" -- \
  "$hagoromo" snow snow_ok.json --directions 70000 --out "$x"
check_quick "--frames out of range names the option" 1 "--frames" -- "$hagoromo" drape set.json --frames 200000 --out "$x"
sheet overflow.json ', "solver": {"friction": 1e39}'
check_quick "a float overflow is out of range, not '> 0'" 2 "solver.friction = 1e+39 is out of range" -- \
  "$hagoromo" drape overflow.json --out "$x"
printf 'v 0 0 0\nv 1 0 0\nv nan 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n' >nan.obj
sheet nan_mesh.json ''
printf '{"cloth": {"mesh": "nan.obj"}, "output": {"image_width": 32, "image_height": 32}}\n' >nan_mesh.json
check_quick "a NaN vertex names the mesh file" 2 "nan.obj: mesh" -- "$hagoromo" drape nan_mesh.json --out "$x"
printf '{"name": "../escape", "cloth": {"resolution": 8}}\n' >escape.json
check_quick "name '../x' cannot leave --out" 2 "scene.name '../escape'" -- "$hagoromo" drape escape.json --out "$x"
printf '{"name": "", "cloth": {"resolution": 8}}\n' >empty_name.json
check_quick "empty name" 2 "scene.name must not be empty" -- "$hagoromo" drape empty_name.json --out "$x"
printf '{"name": "../up", "body": {"type": "two_bone_cylinder"}, "joint": "joint", "motion": {"type": "twist"}}\n' >rig_escape.json
check_quick "rig name '../up'" 2 "rig.name '../up'" -- "$hagoromo" skin rig_escape.json --out "$x"

echo "== no longer silently accepted =="
python3 - <<'PY'
import struct, zlib
def png(path, w, h, colour_type, channels):
    raw = b"".join(b"\x00" + bytes([128] * w * channels) for _ in range(h))
    def chunk(tag, data): return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour_type, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
png("grey.png", 4, 4, 0, 1)
PY
printf '{"cloth": {"resolution": 8, "anisotropy": {"texture": "grey.png"}}}\n' >grey.json
check_quick "a 1-channel anisotropy texture" 2 "grey.png: anisotropy texture has 1 channel(s); it needs RGBA" -- \
  "$hagoromo" drape grey.json --out "$x"
printf '{"cloth": {"resolution": 8, "anisotropy": {"uniform": [1, 1, 0.5, 0.5], "scale": 0}}}\n' >scale0.json
check_quick "anisotropy scale 0" 2 "cloth.anisotropy.scale must be > 0" -- "$hagoromo" drape scale0.json --out "$x"
printf 'HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 0\nFrame Time: 0.0333\n' >zero.bvh
printf '{"avatar": {"mannequin": {"cell_size": 0.03}, "motion": {"bvh": "zero.bvh", "map": "huge_map.json"}}, "cloth": {"resolution": 8}}\n' >zero_bvh.json
check_quick "a BVH with 0 frames" 2 "zero.bvh" -- "$hagoromo" drape zero_bvh.json --out "$x"
printf '{"solver": {"frames": 3, "frames": 4}}\n' >dup.json
check_quick "duplicate keys" 2 "dup.json: duplicate key 'solver.frames'" -- "$hagoromo" drape dup.json --out "$x"
rig methods.json '{"type": "two_bone_cylinder"}'
check_quick "--methods ''" 1 "--methods" -- "$hagoromo" skin methods.json --methods "" --out "$x"
check_quick "--out ''" 1 "--out" -- "$hagoromo" drape set.json --out ""
snow camera.json ', "camera": {"eye": [1, 2, 3], "target": [1, 2, 3]}'
check_quick "a camera with eye == target" 2 "camera.eye and camera.target must differ" -- "$hagoromo" snow camera.json --out "$x"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >plain.obj
printf '{"avatar": {"file": "plain.obj", "file_clip": "*"}, "cloth": {"resolution": 8}}\n' >noskeleton.json
check_quick "motion asked of an avatar without a skeleton" 2 "file_clip" -- "$hagoromo" drape noskeleton.json --out "$x"

echo "== 20 malformed inputs of our own =="
: >empty.json
check_quick "1 an empty scene file" 2 "empty.json: not valid JSON" -- "$hagoromo" drape empty.json --out "$x"
echo '[1, 2, 3]' >array.json
check_quick "2 a JSON array instead of an object" 2 "array.json: scene must be an object" -- "$hagoromo" drape array.json --out "$x"
check_quick "3 /dev/null as a scene" 2 "not valid JSON" -- "$hagoromo" drape /dev/null --out "$x"
head -c 3000 /dev/urandom >noise.json
check_quick "4 binary noise as a scene" 2 "noise.json: not valid JSON" -- "$hagoromo" drape noise.json --out "$x"
python3 -c "print('[' * 200000 + ']' * 200000)" >deep.json
check_quick "5 200000 nested arrays" 2 "deep.json" -- "$hagoromo" drape deep.json --out "$x"
sheet substeps0.json ', "solver": {"substeps": 0}'
check_quick "6 zero substeps" 2 "solver.substeps = 0 is out of range (1..100000)" -- "$hagoromo" drape substeps0.json --out "$x"
printf '{"output": {"image_width": "wide"}}\n' >wide.json
check_quick "7 a string for a number" 2 "output.image_width must be a whole number" -- "$hagoromo" drape wide.json --out "$x"
printf '{"cloth": {"resolution": 5000}}\n' >res.json
check_quick "8 a sheet of 5000 x 5000 vertices" 2 "cloth.resolution = 5000 is out of range (2..4096)" -- "$hagoromo" drape res.json --out "$x"
check_quick "9 --threads 5000" 1 "--threads" -- "$hagoromo" drape set.json --threads 5000 --out "$x"
check_quick "10 --frames -1" 1 "--frames" -- "$hagoromo" drape set.json --frames -1 --out "$x"
head -c 2000 /dev/urandom >garbage.obj
printf '{"cloth": {"mesh": "garbage.obj"}}\n' >garbage.json
check_quick "11 a binary garbage mesh" 2 "garbage.obj" -- "$hagoromo" drape garbage.json --out "$x"
python3 -c "import json; print(json.dumps({'target': {'radius': 0.05}, 'hands': [{'position': [0.3, 0, 0]}] * 65}))" >hands.json
check_quick "12 65 grasp hands" 2 "hands: at most 64" -- "$hagoromo" grasp hands.json --out "$x"
snow passes0.json ', "snow": {"passes": 0}'
check_quick "13 zero snow passes" 2 "snow.passes = 0 is out of range (1..65536)" -- "$hagoromo" snow passes0.json --out "$x"
rig steps0.json '{"type": "two_bone_cylinder"}' ', "steps_per_frame": 0'
check_quick "14 zero particle steps per frame" 2 "rig.steps_per_frame = 0 is out of range" -- "$hagoromo" skin steps0.json --out "$x"
printf '{"props": [{"shape": "bottle", "resolution": 1000}]}\n' >prop.json
check_quick "15 a sphere-tree prop of 1000 voxels" 2 "props[0].resolution = 1000 is out of range (8..512)" -- \
  "$hagoromo" drape prop.json --out "$x"
printf '{"avatar": {"contact": {"method": "depth_views", "layers": 2, "layers": 3}}}\n' >dup_nested.json
check_quick "16 a duplicate nested key" 2 "duplicate key 'avatar.contact.layers'" -- "$hagoromo" drape dup_nested.json --out "$x"
printf '{"solver": {"frames": NaN}}\n' >nan.json
check_quick "17 NaN in a scene" 2 "nan.json: not valid JSON" -- "$hagoromo" drape nan.json --out "$x"
printf '{"cloth": {"center": [0, 1e39, 0]}}\n' >center.json
check_quick "18 a vector component that overflows" 2 "cloth.center = 1e+39 is out of range" -- "$hagoromo" drape center.json --out "$x"
printf '{"target": {"radius": 0.05}, "hands": [{"position": [0.3, 0, 0]}], "radar": {"image": [16, 100000]}}\n' >radar.json
check_quick "19 a radar image of 100000 pixels" 2 "radar.image.height = 100000 is out of range (8..256)" -- \
  "$hagoromo" grasp radar.json --out "$x"
snow seed.json ', "snowfall": {"seed": -5}'
check_quick "20 a negative seed" 2 "snowfall.seed = -5 is out of range" -- "$hagoromo" snow seed.json --out "$x"

# Found by fuzzing (tests/fuzz/corpus/MeshImport/off_short_face_list): an OFF file whose face
# list is shorter than its header trips one of assimp's internal checks, which aborted the process.
printf 'OFF\n4 8 0\n0 0 0\n1 0 0\n0 1 0\n0 0 301 \n2  1\n3 0 1 3\n2 0 3 2\n3 1 2 3\n' >short_faces.off
printf '{"cloth": {"mesh": "short_faces.off"}}\n' >short_faces.json
check_quick "a mesh that trips assimp's internal check is an input error, not an abort" 2 \
  "short_faces.off: cannot read mesh" -- "$hagoromo" drape short_faces.json --out "$x"

fi  # inputs

if [[ -e "$x" ]]; then failed "a refused run created its output folder"; else pass; fi
finish
