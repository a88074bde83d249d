#!/usr/bin/env python3
"""Every shipped scene file follows the JSON Schema of its kind (docs/schema/, generated from
the readers' field tables by apps/tools/write_scene_docs.cpp), and the schemas refuse what the
readers refuse: a misspelled key ("frams" for "frames") is an error, "$schema" is accepted.
The kinds are the ones .vscode/settings.json maps (scenes/motion/ holds joint maps, no scene).

Usage: validate_scenes.py REPO_ROOT. Exit 0 when every check holds, 1 otherwise (also without
python3-jsonschema, which scripts/install-deps.sh installs: a check that cannot run fails).
"""
import copy
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    print("validate_scenes.py: FAIL: python3-jsonschema is missing (scripts/install-deps.sh installs it)")
    sys.exit(1)


def scene_files(root):
    """{kind: [files]}: the shipped scenes of each kind."""
    scenes = root / "scenes"
    return {
        "drape": sorted(p for p in scenes.glob("*.json") if p.name != "fabrics.json"),
        "snow": sorted((scenes / "snow").glob("*.json")),
        "grasp": sorted((scenes / "grasp").glob("*.json")),
        "skin-rig": sorted((scenes / "skin").glob("*.json")),
        "fabrics": [scenes / "fabrics.json"],
    }


def main():
    root = pathlib.Path(sys.argv[1])
    failures = []
    checked = 0
    for kind, files in scene_files(root).items():
        schema = json.loads((root / "docs" / "schema" / f"{kind}.schema.json").read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        if not files:
            failures.append(f"{kind}: no shipped scene files")
        for path in files:
            scene = json.loads(path.read_text())
            for error in validator.iter_errors(scene):
                failures.append(f"{path.relative_to(root)}: {'/'.join(map(str, error.path))}: {error.message}")
            checked += 1
        if not files:
            continue
        # A copy with "$schema" is valid; a copy with a misspelled key at the top is not.
        first = json.loads(files[0].read_text())
        pointed = dict(first, **{"$schema": f"../docs/schema/{kind}.schema.json"})
        if not validator.is_valid(pointed):
            failures.append(f"{kind}: a scene with \"$schema\" is refused by the schema")
        misspelled = dict(first, frams=90)
        if validator.is_valid(misspelled):
            failures.append(f"{kind}: a scene with the unknown key \"frams\" passes the schema")
    # The typo inside a block: solver.frames misspelled in a copy of a shipped drape scene.
    drape = json.loads((root / "docs" / "schema" / "drape.schema.json").read_text())
    scene = json.loads((root / "scenes" / "cloth_on_sphere.json").read_text())
    typo = copy.deepcopy(scene)
    typo["solver"]["frams"] = typo["solver"].pop("frames")
    if jsonschema.Draft202012Validator(drape).is_valid(typo):
        failures.append("cloth_on_sphere.json with solver.frams passes the drape schema")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{checked} shipped scene files checked against docs/schema/, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
