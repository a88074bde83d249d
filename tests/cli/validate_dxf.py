#!/usr/bin/python3
"""Checks DXF-AAMA files written by hagoromo (sim/garment/AamaDxf.h) with ezdxf (Debian
python3-ezdxf), a reader independent of the dxflib that wrote them: the file recovers
without audit errors, and every piece block holds one closed boundary polyline on
layer 1, its sew line on layer 14, turn points on layer 2, a grain line on layer 7 and
a "Piece Name:" text, and is inserted once; the style names its units.
Usage: validate_dxf.py FILE.dxf ..."""
import sys

from ezdxf import recover


def check(path):
    doc, auditor = recover.readfile(path)
    if auditor.has_errors:
        return [f"{path}: ezdxf audit: {e.message}" for e in auditor.errors]
    problems = []
    pieces = [b for b in doc.blocks if not b.name.startswith("*")]
    if not pieces:
        problems.append(f"{path}: no piece blocks")
    for block in pieces:
        def on(layer, kind):
            return [e for e in block if e.dxftype() == kind and e.dxf.layer == layer]
        boundary = on("1", "POLYLINE")
        if len(boundary) != 1 or not boundary[0].is_closed or len(list(boundary[0].vertices)) < 3:
            problems.append(f"{path}: block {block.name}: not one closed boundary polyline on layer 1")
        if len(on("14", "POLYLINE")) != 1:
            problems.append(f"{path}: block {block.name}: no sew line on layer 14")
        if len(on("2", "POINT")) < 2:
            problems.append(f"{path}: block {block.name}: fewer than 2 turn points on layer 2")
        if len(on("7", "LINE")) != 1:
            problems.append(f"{path}: block {block.name}: no grain line on layer 7")
        if not any(t.dxf.text.startswith("Piece Name: ") for t in on("1", "TEXT")):
            problems.append(f"{path}: block {block.name}: no Piece Name text")
    inserted = sorted(i.dxf.name for i in doc.modelspace().query("INSERT"))
    if inserted != sorted(b.name for b in pieces):
        problems.append(f"{path}: INSERTs {inserted} are not the piece blocks")
    if not any(t.dxf.text == "Units: METRIC" for t in doc.modelspace().query("TEXT")):
        problems.append(f"{path}: no 'Units: METRIC' style text")
    return problems


problems = [p for path in sys.argv[1:] for p in check(path)]
for p in problems:
    print(p)
print(f"{len(sys.argv) - 1} DXF files, {len(problems)} problems")
sys.exit(1 if problems or len(sys.argv) < 2 else 0)
