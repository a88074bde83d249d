#!/usr/bin/env bash
# End-to-end checks of `hagoromo patterns` (GarmentCode and DXF-AAMA export,
# sim/garment/GarmentCode.h, sim/garment/AamaDxf.h): the demo outfit's blocks written in both
# formats, the DXF files checked by ezdxf (tests/cli/validate_dxf.py), read back by drape
# scenes (the exported GarmentCode skirt sewn and draped, every gate passing; the exported
# DXF T-shirt written again as GarmentCode), --format, exit codes and errors.
# Usage: patterns_cli_test.sh <hagoromo binary> <source dir>
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$@"

out="$work/outfit"
check "patterns of the demo outfit succeeds" 0 - -- "$hagoromo" patterns "$src/scenes/outfit_on_mannequin.json" \
  --out "$out" -q
for f in skirt_specification.json tshirt_specification.json skirt.dxf skirt.seams.json tshirt.dxf \
  tshirt.seams.json; do
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

# The DXF files, read by an independent reader.
check "ezdxf reads every written DXF-AAMA file" 0 - -- /usr/bin/python3 "$src/tests/cli/validate_dxf.py" \
  "$out"/*.dxf

# The exported DXF tshirt, read back by a scene and written again as GarmentCode: the same
# four panels, seams stitched between them.
mkdir -p "$work/dxf"
cp "$out/tshirt.dxf" "$out/tshirt.seams.json" "$work/dxf/"
python3 - "$src/scenes/garmentcode_skirt.json" "$work/dxf/scene.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["garments"] = [{"type": "pattern", "file": "tshirt.dxf"}]
json.dump(s, open(sys.argv[2], "w"))
PY
check "a scene reads the exported DXF tshirt back" 0 - -- "$hagoromo" patterns "$work/dxf/scene.json" \
  --format garmentcode --out "$work/dxf/again" -q
if python3 - "$work/dxf/again/tshirt_specification.json" "$out/tshirt_specification.json" <<'PY'
import json, sys
again, first = (json.load(open(p))["pattern"] for p in sys.argv[1:])
assert sorted(again["panels"]) == sorted(first["panels"]), (sorted(again["panels"]), sorted(first["panels"]))
for name, panel in first["panels"].items():
    assert len(again["panels"][name]["vertices"]) == len(panel["vertices"]), name
    assert panel["translation"] == again["panels"][name]["translation"] or all(
        abs(a - b) < 1e-3 for a, b in zip(panel["translation"], again["panels"][name]["translation"])), name
assert len(again["stitches"]) == len(first["stitches"]), (len(again["stitches"]), len(first["stitches"]))
PY
then pass; else failed "the DXF tshirt read back differ from the GarmentCode ones"; fi
if [[ "$(ls "$work/dxf/again")" == "tshirt_specification.json" ]]; then pass; else
  failed "--format garmentcode wrote $(ls "$work/dxf/again" | tr '\n' ' ')"
fi

# The exported skirt drapes: a scene that reads it back and places it around the body by
# the regions the file carries.
mkdir -p "$work/drape"
cp "$out/skirt_specification.json" "$work/drape/"
python3 - "$src/scenes/garmentcode_skirt.json" "$work/drape/scene.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["garments"] = [{"type": "pattern", "file": "skirt_specification.json", "placement": "around_body"}]
s["dressing"] = {"edge_length": 0.02}
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
echo '{"pieces": {"front": {"rotation": [0, 0, 0]}}}' >"$work/dxf/tshirt.seams.json"
check "patterns names a bad DXF sidecar and its key" 2 "tshirt.seams.json: pieces.front: needs exactly one of" -- \
  "$hagoromo" patterns "$work/dxf/scene.json" --out "$work/bad" -q
if [[ ! -e "$work/bad" ]]; then pass; else failed "a failed run wrote $work/bad"; fi

finish
