#!/usr/bin/env python3
"""Compares two JSON answers of the same input (a `contrast audit --format json` file, or the
JSON Lines of `contrast check --batch`), field by field: how many values differ, in which
fields, the largest relative difference of a number, and every field whose difference is not
a number's last digits. For changes that must leave verdicts alone.

Usage: bench/json_diff.py BEFORE AFTER"""
import json
import sys


def walk(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        for key in a:
            walk(a[key], b[key], f"{path}/{key}", out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f"{path}/{i}", out)
    elif isinstance(a, float) and isinstance(b, float):
        if a != b:
            out.append((path, a, b, abs(a - b) / max(abs(a), 1e-300)))
    elif a != b:
        out.append((path, a, b, None))


def main():
    before, after = sys.argv[1], sys.argv[2]
    out = []
    with open(before) as f, open(after) as g:
        if before.endswith((".jsonl", ".out", ".txt")):
            for n, (x, y) in enumerate(zip(f, g)):
                walk(json.loads(x), json.loads(y), f"line {n + 1}", out)
        else:
            walk(json.load(f), json.load(g), "", out)
    fields = sorted({"/".join(p for p in path.split("/") if not p.isdigit() and not p.startswith("line")) for path, *_ in out})
    numeric = [d for d in out if d[3] is not None]
    other = [d for d in out if d[3] is None]
    print(f"{len(out)} values differ, in {fields}")
    print(f"largest relative difference of a number: {max((d[3] for d in numeric), default=0):.3g}")
    print(f"{len(other)} differ otherwise" + "".join(f"\n  {p}: {a!r} -> {b!r}" for p, a, b, _ in other[:20]))


if __name__ == "__main__":
    main()
