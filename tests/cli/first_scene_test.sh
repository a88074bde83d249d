#!/usr/bin/env bash
# The newcomer's path of docs/user-guide.md ("Your first scene"), run as written: the scene
# block after the `<!-- first-scene -->` marker follows the drape schema, drapes with exit 0
# into the outputs the guide names, and the same scene with a misspelled key stops with
# exit 2 naming the key. The guide must still show the command this test runs.
# Usage: first_scene_test.sh <hagoromo binary> <source dir>
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$@"
guide="$src/docs/user-guide.md"
mkdir -p "$work/scenes"
scene="$work/scenes/my_scene.json"
# The indented block after the marker, up to the first line that is neither indented nor empty.
awk '/<!-- first-scene -->/ {on = 1; next} on && /^    / {print substr($0, 5); seen = 1; next}
     on && seen && !/^$/ {exit}' "$guide" > "$scene"
if [[ -s $scene ]]; then pass; else failed "no scene block after <!-- first-scene --> in $guide"; fi

command_text='build/apps/hagoromo drape scenes/my_scene.json --out out/my_first_drape'
if grep -qF "$command_text" "$guide"; then pass; else failed "the guide no longer shows: $command_text"; fi

if python3 - "$scene" "$src/docs/schema/drape.schema.json" <<'PY'; then pass; else failed "the guide's scene does not follow docs/schema/drape.schema.json"; fi
import json, sys, jsonschema
scene = json.load(open(sys.argv[1]))
assert scene["$schema"] == "../docs/schema/drape.schema.json", scene["$schema"]
jsonschema.validate(scene, json.load(open(sys.argv[2])))
PY

out="$work/out/my_first_drape"
check "the guide's scene drapes" 0 - -- "$hagoromo" drape "$scene" --out "$out" -q
for f in my_first_drape.obj my_first_drape.png my_first_drape.json; do
  if [[ -s $out/$f ]]; then pass; else failed "the guide names $f, the run did not write it"; fi
done

sed 's/"frames"/"frams"/' "$scene" > "$work/scenes/typo.json"
check "a misspelled key stops the run, naming it" 2 "frams" -- "$hagoromo" drape "$work/scenes/typo.json" --out "$work/typo" -q
finish
