#!/usr/bin/env python3
"""The report-size figure of make bench: a palette of 26,000 checks (two themes of 13,000) of
which 3,000 fail, through `contrast report`; prints the size of index.html and, when headless
Chromium and chromedriver are installed, how long it takes to load. Usage:
report_scale.py WORKDIR CONTRAST_BINARY"""
import json
import os
import random
import subprocess
import sys

from primer_report import chromium_load
import time


def main():
    directory, binary = sys.argv[1], sys.argv[2]
    random.seed(5)
    tokens = {}
    for i in range(100):
        tokens[f"ink.{i}"] = "#%02x%02x%02x" % tuple(random.randrange(0, 50) for _ in range(3))
        tokens[f"paper.{i}"] = "#%02x%02x%02x" % tuple(random.randrange(220, 256) for _ in range(3))
    for i in range(60):
        tokens[f"mid.{i}"] = "#%02x%02x%02x" % tuple(random.randrange(120, 170) for _ in range(3))
    checks = [{"id": f"text-{i}-{j}", "foreground": f"ink.{i}", "background": f"paper.{j % 100}"} for i in range(100) for j in range(115)]
    checks += [{"id": f"muted-{k}", "foreground": f"mid.{k % 60}", "background": f"paper.{k % 100}"} for k in range(1500)]
    path = os.path.join(directory, "scale.json")
    with open(path, "w") as f:
        json.dump({"name": "scale", "themes": {"light": {"tokens": tokens}, "dark": {"extends": "light", "tokens": {}}}, "checks": checks}, f)
    out = os.path.join(directory, "scale-report")
    start = time.perf_counter()
    subprocess.run([binary, "report", path, "--out", out], capture_output=True)
    seconds = time.perf_counter() - start
    html = os.path.join(out, "index.html")
    size = os.path.getsize(html)
    audit = os.path.getsize(os.path.join(out, "audit.json"))
    print(f"| 26,000 checks, 3,000 failing: index.html | {size / 1e6:.2f} MB | ≤ 5 MB |")
    print(f"| the same: audit.json (keeps everything) | {audit / 1e6:.1f} MB | |")
    print(f"| the same: `contrast report` wall time | {seconds:.2f} s | |")
    print(f"| the same: headless Chromium load (median of 3) | {chromium_load(html)} | < 2 s |")

if __name__ == "__main__":
    main()
