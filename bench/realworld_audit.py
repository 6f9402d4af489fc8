#!/usr/bin/env python3
"""The real-systems figures of make bench: every design system under ../shared/realworld,
../shared/realworld2 and ../shared/realworld3/figma audited as a user would audit its folder,
`contrast audit DIR --format json --output FILE`, with the readers and the ledger doing all
their work. Prints, per system, the color declarations the ledger accounts for, the wall time
(median of 5) and the peak resident memory (GNU time's %M, the largest of the 5), then the
totals. With a second binary (an older build), each system is also run with it, alternating,
and the ratio of the medians is printed: the readers and the ledger must not slow the audit.
Systems that are absent are skipped, saying so.
Usage: realworld_audit.py WORKDIR CONTRAST_BINARY [BASELINE_BINARY]"""
import json
import os
import pathlib
import statistics
import subprocess
import sys

SHARED = pathlib.Path(__file__).resolve().parents[2] / "shared"
FOLDERS = ["realworld", "realworld2", "realworld3/figma"]
RUNS = 5


def once(binary, system, out):
    result = subprocess.run(["/usr/bin/time", "-f", "%e %M", binary, "audit", str(system), "--format", "json", "--output", out],
                            capture_output=True, text=True, timeout=600)
    wall, kb = result.stderr.strip().splitlines()[-1].split()
    return float(wall), int(kb) / 1024, result.returncode


def ledger(out):
    with open(out) as f:
        report = json.load(f)
    read = not_read = 0
    for palette in report["palettes"]:
        entry = palette.get("ledger") or {}
        read += entry.get("read", 0)
        not_read += len(entry.get("notRead", [])) if isinstance(entry.get("notRead"), list) else entry.get("notRead", 0)
    return read, not_read


def main():
    directory, binary = sys.argv[1], sys.argv[2]
    baseline = sys.argv[3] if len(sys.argv) > 3 else None
    systems = []
    for folder in FOLDERS:
        path = SHARED / folder
        if not path.is_dir():
            print(f"| {folder} | absent: not measured | | | |")
            continue
        systems += sorted(p for p in path.iterdir() if p.is_dir())
    total_time = total_base = 0.0
    total_read = total_not_read = 0
    peak_all = 0.0
    for system in systems:
        out = os.path.join(directory, "realworld.out.json")
        times, peaks, base_times = [], [], []
        code = 0
        for _ in range(RUNS):
            wall, peak, code = once(binary, system, out)
            times.append(wall)
            peaks.append(peak)
            if baseline:
                base_times.append(once(baseline, system, os.path.join(directory, "realworld.base.json"))[0])
        read, not_read = ledger(out)
        seconds, peak = statistics.median(times), max(peaks)
        total_time += seconds
        total_read += read
        total_not_read += not_read
        peak_all = max(peak_all, peak)
        name = f"{system.parent.name}/{system.name}"
        ratio = ""
        if baseline:
            base = statistics.median(base_times)
            total_base += base
            ratio = f" | {base:.2f} s | {seconds / base:.2f}" if base > 0 else " | 0 | —"
        print(f"| {name} | {read:,} read, {not_read:,} not read | exit {code} | {seconds:.2f} s | {peak:.0f} MB{ratio} |")
    ratio = f" | {total_base:.2f} s | {total_time / total_base:.2f}" if baseline and total_base > 0 else ""
    print(f"| all {len(systems)} systems | {total_read:,} read, {total_not_read:,} not read | | {total_time:.2f} s | {peak_all:.0f} MB at most{ratio} |")


if __name__ == "__main__":
    main()
