#!/usr/bin/env bash
# Issue 23 item 3: `hagoromo fabric-test`, the virtual fabric bench, end to end on the CPU
# backend at 2 cm edges (seconds): the tensile curves and the Cusick drape of the t-shirt
# interlock write their files as one set, the JSON carries `drape_coefficient` (percent) and
# the measured values beside the bench's; an unknown preset, an unknown test and a bad edge
# are refused with nothing written. The bench's physics is tested in
# tests/garment/FabricBenchTest.cpp.
# Usage: fabric_test_cli_test.sh <hagoromo binary> <source dir>
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$@"

check "fabric-test: unknown preset named" 2 "velvet" -- "$hagoromo" fabric-test velvet --out "$work/x"
check "fabric-test: unknown test named" 1 "--tests: unknown test 'bending'" -- \
  "$hagoromo" fabric-test tshirt_interlock --tests tensile,bending --out "$work/x"
check "fabric-test: edge out of range" 1 "--edge" -- "$hagoromo" fabric-test tshirt_interlock --edge 0.5 --out "$work/x"
if [[ -e "$work/x" ]]; then failed "refused runs created output"; else pass; fi

check "fabric-test: tensile and drape" 0 - -- \
  "$hagoromo" fabric-test tshirt_interlock --tests tensile,drape --edge 20 --out "$work/bench" -q
for f in fabric_test.json tensile.svg drape_top.png drape.obj; do
  if [[ -s "$work/bench/$f" ]]; then pass; else failed "fabric-test did not write $f"; fi
done
if python3 - "$work/bench/fabric_test.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["measured"] and d["converged"], d
assert 10.0 < d["drape_coefficient"] < 60.0 and 4 <= d["nodes"] <= 14, (d["drape_coefficient"], d["nodes"])
for direction in ("warp", "weft", "bias"):
    t = d["tensile"][direction]
    assert len(t["strain"]) == 12 and abs(t["strain"][-1] - 1 / 6) < 0.03, t["strain"]
    # The tension rises with the strain; measured values stand beside the bench's.
    assert all(b > a for a, b in zip(t["tension_N_m"], t["tension_N_m"][1:])), t["tension_N_m"]
    assert len(t["measured_secant_modulus_N_m"]) == 12 and "error_at_one_sixth_strain" in t
PY
then pass; else failed "fabric_test.json lacks the drape coefficient, the curves or the measured values"; fi
if grep -q "<svg" "$work/bench/tensile.svg" && grep -q "warp (measured)" "$work/bench/tensile.svg"; then pass; else
  failed "tensile.svg lacks the measured curves"; fi
# The tensile strips go to their equilibrium by Newton's method by default; relaxed on the
# backend instead (--statics dynamics) they read the same moduli.
check "fabric-test: --statics names its choices" 1 "--statics" -- \
  "$hagoromo" fabric-test tshirt_interlock --statics implicit --out "$work/x"
check "fabric-test: tensile relaxed by dynamics" 0 - -- \
  "$hagoromo" fabric-test tshirt_interlock --tests tensile --edge 20 --statics dynamics --out "$work/dynamics" -q
if python3 - "$work/bench/fabric_test.json" "$work/dynamics/fabric_test.json" <<'PY'
import json, sys
newton, dynamics = (json.load(open(p)) for p in sys.argv[1:])
for direction in ("warp", "weft", "bias"):
    a, b = newton["tensile"][direction], dynamics["tensile"][direction]
    assert a["relax"]["newton_steps"] > 0 and b["relax"]["substeps"] > 0, (a["relax"], b["relax"])
    for x, y in zip(a["secant_modulus_N_m"], b["secant_modulus_N_m"]):
        assert abs(x - y) < 0.02 * y, (direction, x, y)
PY
then pass; else failed "fabric-test: Newton's tensile moduli differ from the relaxed ones"; fi
# Two presets at once (--jobs 2, one solver thread each): the same drape, bit for bit, as the
# preset alone above, and the summary in the order given.
check "fabric-test: --jobs needs the CPU backend" 1 "--jobs" -- \
  "$hagoromo" fabric-test tshirt_interlock ponte_knit --jobs 2 --backend gpu --out "$work/x"
check "fabric-test: two presets at once" 0 - -- \
  "$hagoromo" fabric-test tshirt_interlock ponte_knit --tests drape --edge 20 --jobs 2 --out "$work/pair" -q
if python3 - "$work/bench/fabric_test.json" "$work/pair/tshirt_interlock/fabric_test.json" "$work/pair/summary.json" <<'PY'
import json, sys
alone, paired, summary = (json.load(open(p)) for p in sys.argv[1:])
assert alone["drape_coefficient"] == paired["drape_coefficient"], (alone["drape_coefficient"], paired["drape_coefficient"])
assert [p["preset"] for p in summary["presets"]] == ["tshirt_interlock", "ponte_knit"], summary
PY
then pass; else failed "fabric-test --jobs 2 differs from one preset alone"; fi
# The user's own fabric in physical units: refused with the file and the key when bad, on the
# bench with its own numbers as the reference when good.
cat >"$work/mine.json" <<JSON
{"areal_density_g_m2": 150, "modulus_N_m": {"warp": 300, "weft": 250, "bias": 200},
 "bending_N_m": {"warp": 5e-6, "bias": 5e-6, "weft": 5e-6}}
JSON
sed 's/"bias": 200/"bias": -1/' "$work/mine.json" >"$work/bad_fabric.json"
check "fabric-test: a bad fabric file names the file and the key" 2 "bad_fabric.json: fabric.modulus_N_m.bias" -- \
  bash -c "cd '$work' && '$hagoromo' fabric-test bad_fabric.json --out '$work/y'"
if (cd "$work" && "$hagoromo" fabric-test mine.json --tests tensile --edge 20 --out "$work/mine_out" -q) &&
   python3 - "$work/mine_out/fabric_test.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["fabric_file"] and not d["measured"], d
w = d["tensile"]["warp"]
assert abs(w["measured_modulus_at_zero_strain_N_m"] - 300) < 1e-9 and abs(w["error_at_zero_strain"]) < 0.5, w
PY
then pass; else failed "fabric-test of a fabric file: no bench against its own numbers"; fi
# --calibrate-mesh: the library's block for a preset, fitted on the strips; the ponte knit's
# as the library ships it (what fabrics.json beside a scene has no data for is refused).
check "fabric-test: --calibrate-mesh" 0 - -- \
  "$hagoromo" fabric-test ponte_knit --calibrate-mesh --out "$work/calibrated" -q
if python3 - "$work/calibrated/mesh_correction.json" "$src/data/fabrics/library.json" <<'PY'
import json, sys
block = json.load(open(sys.argv[1]))["ponte_knit"]
shipped = json.load(open(sys.argv[2]))["fabrics"]["ponte_knit"]["mesh_correction"]
assert block["edge_length_mm"] == 10 and "--calibrate-mesh" in block["how"], block
for key in ("modulus", "modulus_at_one_sixth_strain"):
    for d in ("warp", "weft", "bias"):
        assert abs(block[key][d] - shipped[key][d]) < 6e-4, (key, d, block[key][d], shipped[key][d])
PY
then pass; else failed "fabric-test --calibrate-mesh: not the library's correction"; fi
# Your own fabric calibrated the same way: its block pasted into the file brings the strips
# to its numbers.
if (cd "$work" && "$hagoromo" fabric-test mine.json --calibrate-mesh --out "$work/mine_cal" -q) &&
   python3 - "$work/mine.json" "$work/mine_cal/mesh_correction.json" "$work/mine_corrected.json" <<'PY'
import json, sys
fabric = json.load(open(sys.argv[1]))
fabric["mesh_correction"] = json.load(open(sys.argv[2]))["mine.json"]
json.dump(fabric, open(sys.argv[3], "w"))
PY
then pass; else failed "fabric-test --calibrate-mesh of a fabric file"; fi
if (cd "$work" && "$hagoromo" fabric-test mine_corrected.json --tests tensile --out "$work/mine_corrected_out" -q) &&
   python3 - "$work/mine_corrected_out/fabric_test.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for direction in ("warp", "weft", "bias"):
    e = d["tensile"][direction]["error_at_zero_strain"]
    assert abs(e) < 0.02, (direction, e)
PY
then pass; else failed "a fabric file's mesh correction does not bring its strips to its moduli"; fi
check "fabric-test: --calibrate-mesh needs data" 1 "has no data to calibrate to" -- \
  bash -c "cd '$src/scenes' && '$hagoromo' fabric-test denim --calibrate-mesh --out '$work/z'"
finish
