#!/usr/bin/env python3
"""Regenerates Tests/ColorScienceTests/Vectors/gradient_coloraide.json.

An independent reference for the colors along CSS gradient lines (Sources/ColorScience/Gradient):
a hand-picked set of gradients, each with the color ColorAide computes at 20 points of its line.
ColorAide does not read gradient syntax, so each case is written twice here: as CSS text, and as
the stops, positions and hints that text means. The script applies CSS Images 3 §3.4.3 (stop
fix-up) and the default interpolation space of CSS Color 4 §12.1 itself; ColorAide does the
colour science (parsing each stop colour, conversion into the interpolation space, premultiplied
interpolation, hue fix-up) and, as a cross-check, its own piecewise interpolator with stop()
positions and hint() easing must agree with the per-segment computation at every sample.

Run from the repository root (`pip install coloraide==8.13.1`); the tests read the committed
file only:

    python3 scripts/gradient_vectors.py

The CSS steps around ColorAide (carrying missing components forward, powerless hues, filling a
missing component from the other colour before premultiplying) are those of
scripts/gen-css5-vectors.py, imported from it.
"""
import datetime
import importlib.util
import json
import math
import os

import coloraide
from coloraide import Color
from coloraide.interpolate import hint, stop

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("css5_vectors", os.path.join(HERE, "gen-css5-vectors.py"))
css5 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(css5)

OUT = "Tests/ColorScienceTests/Vectors/gradient_coloraide.json"
# Midpoints of twentieths: never exactly on a stop of the cases below (all on multiples of 5 %
# or of 10deg), where a hard edge or a missing component makes the two sides differ.
SAMPLES = [(2 * i + 1) / 40 for i in range(20)]

NOTES = [
    "srgb is the colour at that point of the gradient line in sRGB (gamma-encoded, 0..1), "
    "without clamping or gamut mapping; alpha is its alpha. A component missing (none) in the "
    "result counts as 0 (CSS Color 4 section 4.4).",
    "position is the fraction of the gradient line (0 its start, 1 its end); a conic gradient's "
    "angles are fractions of a turn. A repeating gradient repeats its first-to-last-stop period.",
    "Stop positions follow CSS Images 3 section 3.4.3: a first stop without a position is at 0, "
    "a last one at 1, a position below the largest before it (stops and hints) moves up to it, "
    "and runs of unpositioned stops spread evenly. A two-position stop is two stops.",
    "Without 'in', the interpolation space is srgb when every stop is a legacy sRGB colour "
    "(hex, named, rgb(), hsl(), hwb()) and oklab otherwise (CSS Color 4 section 12.1); hue "
    "interpolation is shorter unless the case says otherwise.",
    "Each segment: both stops converted into the interpolation space with the CSS steps of "
    "scripts/gen-css5-vectors.py (missing components carried forward, achromatic hues "
    "powerless), a component missing on one side taken from the other before premultiplying, "
    "then ColorAide's premultiplied interpolation with the hue method.",
    "A transition hint at H (its place between the two stops, 0..1) gives the second colour the "
    "weight P ** (log 0.5 / log H) at P (CSS Images 3 section 3.4.2).",
    "Cross-check: ColorAide's own piecewise interpolator, given the fixed-up positions as stop() "
    "and the hints as hint(H), agrees with the per-segment colours at every sample (within 1e-9) "
    "for every case whose missing components do not meet differing alphas and whose hints lie "
    "strictly between their stops (ColorAide's hint(0) keeps the first colour; CSS's formula "
    "gives the second).",
]


def position(text):
    """A position or hint as a fraction of the line; None for a colour."""
    for unit, scale in (("%", 100.0), ("deg", 360.0), ("turn", 1.0)):
        if text.endswith(unit):
            try:
                return float(text[: -len(unit)]) / scale
            except ValueError:
                return None
    return 0.0 if text == "0" else None


def is_legacy(text):
    t = text.strip().lower()
    if t.startswith("#"):
        return True
    if "(" in t:
        return t.split("(")[0] in ("rgb", "rgba", "hsl", "hsla", "hwb")
    return True  # a named colour or transparent


def fixup(entries):
    """CSS Images 3 §3.4.3 on [is_hint, position or None] in order."""
    stops = [i for i, e in enumerate(entries) if not e[0]]
    pos = [e[1] for e in entries]
    if pos[stops[0]] is None:
        pos[stops[0]] = 0.0
    if pos[stops[-1]] is None:
        pos[stops[-1]] = 1.0
    largest = -math.inf
    for i, p in enumerate(pos):
        if p is None:
            continue
        if p < largest:
            pos[i] = largest
        largest = max(largest, pos[i])
    n = 0
    while n < len(stops):
        if pos[stops[n]] is not None:
            n += 1
            continue
        start = n - 1
        end = n
        while pos[stops[end]] is None:
            end += 1
        low, high = pos[stops[start]], pos[stops[end]]
        for step in range(1, end - start):
            pos[stops[start + step]] = low + (high - low) * step / (end - start)
        n = end
    return pos


class Case:
    def __init__(self, function, items, prelude=None, note=""):
        self.function = function
        self.items = items
        self.prelude = prelude
        self.note = note

    @property
    def css(self):
        parts = ([self.prelude] if self.prelude else []) + [" ".join(item) for item in self.items]
        return "%s(%s)" % (self.function, ", ".join(parts))

    def expected(self):
        entries, colors, texts = [], [], []
        for item in self.items:
            if position(item[0]) is not None:
                entries.append([True, position(item[0])])
                continue
            positions = [position(p) for p in item[1:]] or [None]
            for p in positions:
                entries.append([False, p])
                colors.append(Color(item[0]))
                texts.append(item[0])
        placed = fixup(entries)
        stop_positions, hints = [], {}
        for (is_hint, _), p in zip(entries, placed):
            if is_hint:
                hints[len(stop_positions) - 1] = p
            else:
                stop_positions.append(p)

        method = None
        if self.prelude and " in " in " " + self.prelude + " ":
            method = (" " + self.prelude + " ").split(" in ", 1)[1].split(",")[0].strip()
            for geometry in ("to ", "from ", "at "):
                method = method.split(" " + geometry)[0]
        if method is None:
            method = "srgb" if all(is_legacy(t) for t in texts) else "oklab"
        words = method.split()
        css_space = words[0]
        hue = words[1] if len(words) == 3 else "shorter"
        space = css5.CSS_SPACE[css_space]
        converted = [css5.convert_css(c, space) for c in colors]

        def weight(k, p):
            if k not in hints:
                return p
            length = stop_positions[k + 1] - stop_positions[k]
            h = min(1.0, max(0.0, (hints[k] - stop_positions[k]) / length))
            if h <= 0:
                return 1.0 if p > 0 else 0.0
            if h >= 1:
                return 0.0 if p < 1 else 1.0
            return p ** (math.log(0.5) / math.log(h))

        def segment_color(x):
            if x < stop_positions[0]:
                return converted[0]
            if x >= stop_positions[-1]:
                return converted[-1]
            k = max(i for i in range(len(stop_positions) - 1) if stop_positions[i] <= x)
            while stop_positions[k + 1] <= x:
                k += 1
            p = (x - stop_positions[k]) / (stop_positions[k + 1] - stop_positions[k])
            a, b = css5.fill_missing(converted[k], converted[k + 1])
            options = {"space": space, "premultiplied": True}
            if space in css5.HUE_INDEX:
                options["hue"] = hue
            return a.mix(b, weight(k, p), **options)

        sequence = []
        for k, c in enumerate(converted):
            sequence.append(stop(c, stop_positions[k]))
            if k in hints:
                length = stop_positions[k + 1] - stop_positions[k]
                sequence.append(hint(min(1.0, max(0.0, (hints[k] - stop_positions[k]) / length))))
        options = {"space": space, "premultiplied": True}
        if space in css5.HUE_INDEX:
            options["hue"] = hue
        piecewise = Color.interpolate(sequence, **options)
        # ColorAide fills a missing component after premultiplying, and its hint() keeps the first
        # colour for H = 0 where CSS gives the second: no cross-check there.
        alphas = {round(c.alpha(), 9) for c in converted}
        cross_check = len(alphas) == 1 or not any(math.isnan(v) for c in converted for v in c.coords())
        for k, h in hints.items():
            length = stop_positions[k + 1] - stop_positions[k]
            if length <= 0 or not 0 < (h - stop_positions[k]) / length < 1:
                cross_check = False

        period = stop_positions[-1] - stop_positions[0] if self.function.startswith("repeating-") else 0
        samples = []
        for x in SAMPLES:
            base = x
            if period > 0:
                base = stop_positions[0] + (x - stop_positions[0]) % period
            color = segment_color(base)
            if cross_check and stop_positions[0] <= base <= stop_positions[-1]:
                other = piecewise(base)
                d = max(abs(u - v) for u, v in zip(css5.to_srgb(color)[0], css5.to_srgb(other)[0]))
                if d > 1e-9:
                    raise SystemExit("%s at %s: per segment %s, piecewise %s" % (self.css, x, color, other))
            srgb, alpha = css5.to_srgb(color)
            samples.append({"position": x, "srgb": srgb, "alpha": alpha})
        return {
            "css": self.css,
            "note": self.note,
            "interpolation": space if space not in css5.HUE_INDEX else "%s %s hue" % (space, hue),
            "stops": stop_positions,
            "samples": samples,
        }


L, R, C = "linear-gradient", "radial-gradient", "conic-gradient"
CASES = [
    # Legacy sRGB colours: gamma-encoded sRGB by default.
    Case(L, [("#ff0000",), ("#00ff00",)], note="legacy default: srgb; darker than either end about a quarter in"),
    Case(L, [("red",), ("white", "20%"), ("blue",)], "to right", "legacy named colours, fix-up step 1"),
    Case(L, [("red", "40%"), ("white",), ("black",), ("blue",)], note="fix-up step 3: 40%, 60%, 80%, 100%"),
    Case(L, [("hsl(200 80% 40%)",), ("rgb(250 200 10)",), ("hwb(120 10% 20%)",)], "45deg", "legacy hsl/rgb/hwb: srgb"),
    Case(L, [("#0969da",), ("#f6f8fa", "40%"), ("#cf222e",)], "to right"),
    Case(R, [("rgb(none 120 200)",), ("rgb(200 40 none)",)], "circle at 30% 40%", "legacy with none: srgb, missing channels"),
    # Any other notation: Oklab by default.
    Case(L, [("#0969da",), ("oklch(0.7 0.15 30)",)], note="mixed notations: oklab"),
    Case(L, [("lab(50 40 -20)",), ("white",), ("color(display-p3 0.2 0.6 0.3)",)], "to bottom right", "mixed: oklab"),
    Case(R, [("oklch(0.45 0.12 260)",), ("#e0e0e0", "70%")], "ellipse farthest-corner", "oklab"),
    # Spaces named with 'in'.
    Case(L, [("oklch(0.7 0.12 30)",), ("oklch(0.6 0.1 90)",)], "in oklch longer hue"),
    Case(L, [("#0969da",), ("#1a7f37",), ("#bf8700",)], "in oklch longer hue", "legacy stops, longer hue in oklch"),
    Case(L, [("oklch(0.6 0.15 300)",), ("oklch(0.7 0.1 20)",)], "in oklch increasing hue"),
    Case(L, [("oklch(0.6 0.15 40)",), ("oklch(0.7 0.1 300)",)], "to left in oklch decreasing hue"),
    Case(L, [("oklch(0.5 0.1 100)",), ("#d0a0f0",)], "in oklch", "shorter hue"),
    Case(L, [("hsl(30 80% 50%)",), ("hsl(270 60% 40%)",)], "in hsl"),
    Case(L, [("hsl(30 80% 50%)",), ("hsl(90 60% 40%)",)], "in hsl longer hue"),
    Case(L, [("#3366cc",), ("#ffcc00",), ("#cc3366",)], "in hsl"),
    Case(L, [("hwb(200 10% 20%)",), ("hwb(20 30% 10%)",)], "in hwb"),
    Case(L, [("lch(50 40 30)",), ("lch(70 30 250)",)], "in lch longer hue"),
    Case(L, [("#0969da",), ("#f6f8fa",)], "in lab"),
    Case(L, [("red",), ("blue",)], "in srgb-linear"),
    Case(L, [("#0969da",), ("#f6f8fa",), ("#cf222e",)], "in xyz"),
    Case(L, [("color(display-p3 0.1 0.5 0.9)",), ("color(display-p3 0.9 0.6 0.1)",)], "in display-p3"),
    Case(L, [("#7a3",), ("#a37",)], "in oklab"),
    # Translucent stops: premultiplied.
    Case(L, [("rgb(255 0 0 / 0.2)",), ("rgb(0 0 255)",)], note="translucent, premultiplied, srgb"),
    Case(L, [("red",), ("transparent",), ("blue",)], note="transparent between: no grey in premultiplied srgb"),
    Case(L, [("oklch(0.7 0.15 30 / 0.3)",), ("oklch(0.5 0.1 250 / 0.9)",)], "in oklch", "translucent oklch"),
    Case(L, [("#0969da80",), ("#f6f8fa",), ("lab(40 50 30 / 0.6)",)], note="translucent, mixed: oklab"),
    # Missing components.
    Case(L, [("oklch(0.7 none 30)",), ("oklch(0.5 0.2 120)",)], "in oklch", "missing chroma taken from the other stop"),
    Case(L, [("oklch(0.6 0.15 none)",), ("oklch(0.8 0.1 200)",)], "in oklch", "missing hue taken from the other stop"),
    Case(L, [("white",), ("oklch(0.6 0.2 250)",)], "in oklch", "achromatic white: powerless hue"),
    Case(L, [("hsl(none 80% 50%)",), ("hsl(120 none 40%)",)], "in hsl", "missing hue and saturation"),
    Case(L, [("oklab(0.6 none 0.1)",), ("oklab(0.8 -0.1 none)",), ("oklab(none 0.05 0.05)",)], "in oklab", "missing, three stops"),
    Case(L, [("lch(60 none 40)",), ("#0969da",)], "in lab", "missing chroma carried to lab: none"),
    # Transition hints.
    Case(L, [("red",), ("30%",), ("blue",)], note="hint at 30%"),
    Case(L, [("#0969da",), ("80%",), ("#f6f8fa",)], "in oklab", "hint at 80%"),
    Case(L, [("oklch(0.6 0.15 30)",), ("20%",), ("oklch(0.7 0.1 200)", "60%"), ("65%",), ("#222",)], "in oklch", "two hints"),
    Case(L, [("red",), ("blue", "50%"), ("20%",), ("green",)], note="hint before its stop moves up to it (fix-up step 2): H = 0"),
    # Two positions, repeating, conic.
    Case(L, [("red", "0", "20%"), ("blue", "60%", "80%"), ("green",)], note="two-position stops"),
    Case("repeating-linear-gradient", [("red", "0%"), ("blue", "25%")], note="repeats every 25%"),
    Case("repeating-linear-gradient", [("#0969da", "10%"), ("#f6f8fa", "30%"), ("#0969da", "40%")], "in oklab", "repeats every 30% from 10%"),
    Case(C, [("red", "0deg"), ("blue", "90deg"), ("green", "270deg")], "from 45deg at 50% 50%", "conic, angles"),
    Case(C, [("oklch(0.7 0.15 30)",), ("oklch(0.7 0.15 150)", "0.25turn"), ("oklch(0.7 0.15 270)",)], "in oklch longer hue", "conic, longer hue"),
    Case("repeating-conic-gradient", [("#fff", "0deg", "30deg"), ("#888", "30deg", "60deg")], note="conic stripes"),
]


def main():
    cases = [c.expected() for c in CASES]
    header = {
        "source": "generated by scripts/gradient_vectors.py with ColorAide %s" % coloraide.__version__,
        "coloraide_version": coloraide.__version__,
        "generated": datetime.date.today().isoformat(),
        "calls": "Color(text) for each stop; css5.convert_css (scripts/gen-css5-vectors.py) into the space; "
                 "css5.fill_missing then Color.mix(other, weight, space=..., hue=..., premultiplied=True) per "
                 "segment; Color.interpolate([stop(c, p), hint(h), ...], space=..., hue=..., premultiplied=True) "
                 "as the cross-check",
        "regenerate": "python3 scripts/gradient_vectors.py  (from the repository root, with coloraide==8.13.1)",
        "count": len(cases),
        "samples_per_case": len(SAMPLES),
        "conventions": NOTES,
    }
    with open(OUT, "w") as out:
        out.write("{\n \"header\": ")
        out.write(json.dumps(header, indent=1).replace("\n", "\n "))
        out.write(",\n \"cases\": [\n")
        out.write(",\n".join("  " + json.dumps(c) for c in cases))
        out.write("\n ]\n}\n")
    print("%d cases -> %s" % (len(cases), OUT))


if __name__ == "__main__":
    main()
