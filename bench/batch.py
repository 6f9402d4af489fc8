#!/usr/bin/env python3
"""The batch figure of make bench: `contrast check --batch` as users run it (whole process,
200,000 JSON lines, output to a file), on hex pairs and on a corpus mixing 18 CSS syntaxes,
beside ColorAide (a Python color library, from PyPI) reading the same hex lines and writing
each ratio, in the same run. Medians of three runs. Usage: batch.py WORKDIR CONTRAST_BINARY"""
import json
import os
import random
import statistics
import subprocess
import sys
import time

LINES = 200_000


def corpus(directory):
    random.seed(17)
    hexes = os.path.join(directory, "hex.jsonl")
    with open(hexes, "w") as f:
        for _ in range(LINES):
            f.write(json.dumps({"fg": "#%06x" % random.randrange(1 << 24), "bg": "#%06x" % random.randrange(1 << 24)}) + "\n")

    def r(n):
        return random.randrange(n)

    syntaxes = [
        lambda: "#%03x" % r(1 << 12),
        lambda: "#%06x" % r(1 << 24),
        lambda: "#%08x" % r(1 << 32),
        lambda: f"rgb({r(256)}, {r(256)}, {r(256)})",
        lambda: f"rgba({r(256)},{r(256)},{r(256)},0.{r(10)})",
        lambda: f"rgb({r(256)} {r(256)} {r(256)} / {r(100)}%)",
        lambda: f"hsl({r(360)}, {r(100)}%, {r(100)}%)",
        lambda: f"hsla({r(360)},{r(100)}%,{r(100)}%,0.{r(10)})",
        lambda: f"hsl({r(360)}deg {r(100)}% {r(100)}%)",
        lambda: f"hwb({r(360)} {r(50)}% {r(50)}%)",
        lambda: f"lab({r(100)}% {r(100) - 50} {r(100) - 50})",
        lambda: f"lch({r(100)}% {r(100)} {r(360)})",
        lambda: f"oklab(0.{r(100):02d} 0.{r(30):02d} -0.{r(30):02d})",
        lambda: f"oklch(0.{r(100):02d} 0.{r(30):02d} {r(360)})",
        lambda: f"color(srgb 0.{r(100)} 0.{r(100)} 0.{r(100)})",
        lambda: f"color(display-p3 0.{r(100)} 0.{r(100)} 0.{r(100)})",
        lambda: random.choice(["rebeccapurple", "white", "black", "steelblue", "tomato", "navy", "gold"]),
        lambda: f"color(srgb-linear 0.{r(100)} 0.{r(100)} 0.{r(100)})",
    ]
    mixed = os.path.join(directory, "mixed.jsonl")
    with open(mixed, "w") as f:
        for i in range(LINES):
            f.write(json.dumps({"fg": syntaxes[i % 18](), "bg": syntaxes[(i * 7 + 3) % 18]()}) + "\n")
    return hexes, mixed


def timed(command, output):
    runs = []
    for _ in range(3):
        with open(output, "wb") as out:
            start = time.perf_counter()
            subprocess.run(command, stdout=out, stderr=subprocess.DEVNULL)
            runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main():
    directory, binary = sys.argv[1], sys.argv[2]
    hexes, mixed = corpus(directory)
    out = os.path.join(directory, "batch.out")
    hex_seconds = timed([binary, "check", "--batch", hexes], out)
    with open(out) as f:
        assert sum(1 for _ in f) == LINES
    mixed_seconds = timed([binary, "check", "--batch", mixed], out)
    peer = os.path.join(directory, "coloraide_batch.py")
    with open(peer, "w") as f:
        f.write("import json, sys\nfrom coloraide import Color\nout = sys.stdout\n"
                "for line in open(sys.argv[1]):\n    p = json.loads(line)\n"
                "    out.write(json.dumps({'ratio': Color(p['fg']).contrast(Color(p['bg']), method='wcag21')}) + '\\n')\n")
    try:
        import coloraide  # noqa: F401
        peer_seconds = timed([sys.executable, peer, hexes], out)
    except ImportError:
        peer_seconds = None
    rate = lambda seconds: LINES / seconds  # noqa: E731
    print(f"| check --batch, hex pairs | {hex_seconds:.2f} s | {rate(hex_seconds):,.0f} pairs/s | ≥ 1,000,000 pairs/s |")
    print(f"| check --batch, 18 CSS syntaxes | {mixed_seconds:.2f} s | {rate(mixed_seconds):,.0f} pairs/s | ≥ 300,000 pairs/s |")
    if peer_seconds:
        print(f"| ColorAide {coloraide.__version__}, hex pairs (same lines, same run) | {peer_seconds:.2f} s | {rate(peer_seconds):,.0f} pairs/s "
              f"| contrast is {peer_seconds / hex_seconds:.1f}× ColorAide |")
    else:
        print("| ColorAide | not installed (pip install coloraide) | | |")


if __name__ == "__main__":
    main()
