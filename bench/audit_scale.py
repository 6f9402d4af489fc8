#!/usr/bin/env python3
"""The audit-at-scale figures of make bench: palettes of 2,000 random tokens with 20,000 and
100,000 checks between random pairs of them (most fail AA, so each failing check gets its
suggestions), audited by the real CLI with JSON out: `contrast audit FILE --format json
--output FILE`. Prints wall time (median of 3) and peak resident memory (GNU time's %M).
Usage: audit_scale.py WORKDIR CONTRAST_BINARY"""
import json
import os
import random
import statistics
import subprocess
import sys


def palette(path, tokens, checks, seed):
    rng = random.Random(seed)
    names = [f"color.{i}" for i in range(tokens)]
    values = {name: "#%06x" % rng.randrange(1 << 24) for name in names}
    pairs = [{"id": f"check-{k}", "foreground": rng.choice(names), "background": rng.choice(names)} for k in range(checks)]
    with open(path, "w") as f:
        json.dump({"name": f"scale-{checks}", "tokens": values, "checks": pairs}, f)


def run(binary, path, out):
    times, peaks = [], []
    for _ in range(3):
        result = subprocess.run(["/usr/bin/time", "-f", "%e %M", binary, "audit", path, "--format", "json", "--output", out],
                                capture_output=True, text=True)
        wall, kb = result.stderr.strip().splitlines()[-1].split()
        times.append(float(wall))
        peaks.append(int(kb) / 1024)
    with open(out) as f:
        summary = json.load(f)["palettes"][0]["summary"]
    return statistics.median(times), max(peaks), summary


def main():
    directory, binary = sys.argv[1], sys.argv[2]
    for checks, target in [(20_000, "< 1.0 s, < 150 MB"), (100_000, "< 5 s, memory linear")]:
        path = os.path.join(directory, f"audit-{checks}.json")
        palette(path, 2_000, checks, seed=checks)
        seconds, peak, summary = run(binary, path, os.path.join(directory, f"audit-{checks}.out.json"))
        print(f"| {checks:,} checks over 2,000 random tokens ({summary['fail']:,} failing) | {seconds:.2f} s, {peak:.0f} MB peak | {target} |")


if __name__ == "__main__":
    main()
