#!/usr/bin/env python3
"""The nightly report at a real system's scale (issue #51): Primer's 14 built themes as
published, with the checks `contrast init` proposes for them, reported by the real CLI as the
nightly job runs it, `contrast report THEMES --checks checks.json --out DIR --history FILE`,
twice (the second run has a previous run to compare with and a trend to draw). Prints each
step's wall time (median of 3) and peak resident memory (GNU time's %M), and the sizes of
what the report writes. Skips, saying so, when ../shared/realworld is not there.
Usage: primer_report.py WORKDIR CONTRAST_BINARY"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
THEMES = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "realworld", "primer", "dist", "css", "functional", "themes"))


def timed(args):
    """Runs args under GNU time; returns (wall seconds, peak MB, exit code)."""
    result = subprocess.run(["/usr/bin/time", "-f", "%e %M", *args], capture_output=True, text=True)
    wall, kb = result.stderr.strip().splitlines()[-1].split()
    return float(wall), int(kb) / 1024, result.returncode


def median_run(args, runs=3, before=None):
    times, peaks, code = [], [], 0
    for _ in range(runs):
        if before:
            before()
        wall, peak, code = timed(args)
        times.append(wall)
        peaks.append(peak)
    return statistics.median(times), max(peaks), code


def main():
    directory, binary = sys.argv[1], sys.argv[2]
    if not os.path.isdir(THEMES):
        print(f"| Primer's themes | skipped: {THEMES} is not there | |")
        return
    checks = os.path.join(directory, "primer-checks.json")
    out = os.path.join(directory, "primer-report")
    history = os.path.join(directory, "primer-history.jsonl")

    wall, peak, code = median_run([binary, "init", THEMES, "--output", checks, "--force"],
                                  before=lambda: os.path.exists(checks) and os.remove(checks))
    with open(checks) as f:
        proposed = json.load(f)
    rules = len(proposed.get("checks", []))
    print(f"| `contrast init` on Primer's 14 themes ({rules:,} rules) | {wall:.2f} s, {peak:.0f} MB peak (exit {code}) | |")

    def fresh():
        shutil.rmtree(out, ignore_errors=True)
        if os.path.exists(history):
            os.remove(history)

    report = [binary, "report", THEMES, "--checks", checks, "--out", out, "--history", history]
    wall, peak, code = median_run(report, before=fresh)
    with open(os.path.join(out, "audit.json")) as f:
        summary = json.load(f)["summary"]
    print(f"| `contrast report`, first run ({summary['checks']:,} checks, {summary['fail']:,} failing) | {wall:.2f} s, {peak:.0f} MB peak (exit {code}) | < 60 s, < 1 GB |")
    # A second run on the same history: a previous run to compare with, trends to draw.
    wall, peak, code = timed(report)
    print(f"| `contrast report`, second run (history of 1 run) | {wall:.2f} s, {peak:.0f} MB peak (exit {code}) | < 60 s, < 1 GB |")
    sizes = {name: os.path.getsize(os.path.join(out, name)) for name in ("index.html", "audit.json", "summary.md")}
    print(f"| index.html | {sizes['index.html']:,} bytes | ≤ 5 MB |")
    print(f"| audit.json | {sizes['audit.json']:,} bytes | ≤ 64 MB |")
    print(f"| summary.md | {sizes['summary.md']:,} bytes | ≤ 1 MiB |")
    with open(history) as f:
        lines = f.read().splitlines()
    last, earlier = len(lines[-1].encode()), len(lines[0].encode())
    # Only the last line keeps every check's verdict (what the next run compares with); each
    # earlier run is its summary and per-theme counts.
    print(f"| history: the last line (every check's verdict) | {last:,} bytes | |")
    print(f"| history: an earlier line (summary, per-theme counts) | {earlier:,} bytes; 400 runs ≈ {(399 * earlier + last) / 1e6:.1f} MB | bounded |")
    print(f"| index.html: headless Chromium load (median of 3) | {chromium_load(os.path.join(out, 'index.html'))} | < 1 s |")


def chromium_load(html):
    """Seconds to load the page in headless Chromium (median of 3), or why it was not measured."""
    try:
        os.environ["SE_OFFLINE"] = "true"
        os.environ["SE_AVOID_STATS"] = "true"
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        options.add_argument("--headless=new")
        options.add_argument("--no-sandbox")
        driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
        loads = []
        try:
            for _ in range(3):
                start = time.perf_counter()
                driver.get("file://" + os.path.abspath(html))
                loads.append(time.perf_counter() - start)
        finally:
            driver.quit()
        return f"{statistics.median(loads):.2f} s"
    except Exception as error:  # noqa: BLE001 - the figure is optional
        return f"not measured ({type(error).__name__})"


if __name__ == "__main__":
    main()
