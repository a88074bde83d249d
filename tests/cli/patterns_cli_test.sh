#!/usr/bin/env bash
# End-to-end checks of `hagoromo patterns` (GarmentCode export, sim/garment/GarmentCode.h): the
# demo outfit's blocks and the shipped GarmentCode skirt written, read back by a drape scene
# (the exported skirt sewn and draped, every gate passing), exit codes and errors.
# Usage: patterns_cli_test.sh <hagoromo binary> <source dir>
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$@"

out="$work/outfit"
check "patterns of the demo outfit succeeds" 0 - -- "$hagoromo" patterns "$src/scenes/outfit_on_mannequin.json" \
  --out "$out" -q
for f in skirt_specification.json tshirt_specification.json; do
  if [[ -s "$out/$f" ]]; then pass; else failed "patterns did not write $f"; fi
done
if python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
t = json.load(open(d + "/tshirt_specification.json"))
assert t["properties"]["units_in_meter"] == 100
panels = t["pattern"]["panels"]
assert sorted(panels) == ["back", "front", "sleeve_left", "sleeve_right"], sorted(panels)
names = {s[0]["panel"] for s in t["pattern"]["stitches"]} | {s[1]["panel"] for s in t["pattern"]["stitches"]}
assert names == set(panels), names
# Sized to the 1.70 m mannequin: the front panel's top below 1.6 m, its hem above 0.8 m (cm).
front = panels["front"]
ys = [v[1] for v in front["vertices"]]
assert 80 < min(ys) and max(ys) < 160, (min(ys), max(ys))
PY
then pass; else failed "tshirt_specification.json content"; fi

# The exported skirt drapes: a scene that reads it back.
mkdir -p "$work/drape"
cp "$out/skirt_specification.json" "$work/drape/"
python3 - "$src/scenes/garmentcode_skirt.json" "$work/drape/scene.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["garments"] = [{"type": "pattern", "file": "skirt_specification.json"}]
s["dressing"] = {"edge_length": 0.02}  # at 2.5 and 3 cm it ends with crossings (bench/RESULTS.md)
s["solver"]["frames"] = 10
json.dump(s, open(sys.argv[2], "w"))
PY
check "the exported skirt is sewn and draped" 0 - -- "$hagoromo" drape "$work/drape/scene.json" --backend cpu \
  --out "$work/drape/out" -q
if python3 - "$work/drape/out/garmentcode_skirt.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["quality_gates"]["passed"], m["quality_gates"]
assert [g["name"] for g in m["garments"]] == ["skirt"], m["garments"]
PY
then pass; else failed "the exported skirt's drape metrics"; fi

# Bad input: no garments, a missing scene, a scene whose pattern file is bad.
check "patterns of a scene without garments" 2 "has none to write" -- "$hagoromo" patterns \
  "$src/scenes/cloth_on_sphere.json" --out "$work/none" -q
if [[ ! -e "$work/none" ]]; then pass; else failed "a failed run wrote $work/none"; fi
check "patterns of a missing scene" 2 "$work/missing.json" -- "$hagoromo" patterns "$work/missing.json" -q
echo '{"pattern": {"panels": {}}, "properties": {"units_in_meter": 100}}' >"$work/drape/skirt_specification.json"
check "patterns names a bad pattern file and its key" 2 "pattern.panels: must map" -- "$hagoromo" patterns \
  "$work/drape/scene.json" --out "$work/bad" -q
if [[ ! -e "$work/bad" ]]; then pass; else failed "a failed run wrote $work/bad"; fi

finish
