#!/usr/bin/env python3
"""Regenerates Tests/ColorScienceTests/Vectors/css_color5_coloraide.json.

An independent reference for the CSS Color 5 additions to the colour parser: about 3,000
generated color-mix() and relative-colour expressions, each with the colour it resolves to,
computed with ColorAide. ColorAide does not parse color-mix() or relative colour syntax, so
this script builds every expression twice: once as CSS text and once as the operations that
text means (percentage normalisation, conversion into the interpolation or function space,
channel-keyword arithmetic), and lets ColorAide do the colour science (conversions,
premultiplied interpolation, hue fix-up).

Run from the repository root (`pip install coloraide==8.13.1`); the tests read the committed
file only:

    python3 scripts/gen-css5-vectors.py

Where ColorAide's defaults differ from CSS, this script follows CSS; see NOTES below (they are
also written into the file's header).
"""
import json
import math
import random

import coloraide
from coloraide import Color as _ColorAide

SEED = 20261205
OUT = "Tests/ColorScienceTests/Vectors/css_color5_coloraide.json"
MIX_PER_SPACE = 120
REL_PER_FUNCTION = 75


class Color(_ColorAide):
    """ColorAide as installed: its rec2020 is CSS's (see NOTES)."""

NOTES = [
    "srgb is the result converted to sRGB (gamma-encoded, 0..1 scale) without clamping or gamut "
    "mapping; alpha is the result alpha; in_gamut is true when every srgb component lies in "
    "[-1e-9, 1 + 1e-9]. A component that is missing (none) in the result counts as 0 when it is "
    "converted to sRGB, as CSS Color 4 section 4.4 says for display.",
    "color-mix() percentages follow CSS Color 5 section 3: a missing percentage is 100 minus the "
    "other, both missing is 50/50, a zero sum is invalid (never generated), any other sum is "
    "scaled to 100 and a sum below 100 multiplies the result alpha by sum/100.",
    "Before interpolating, each colour is converted into the interpolation space as CSS Color 4 "
    "section 12.2 says: a missing component carries forward to the analogous component of the "
    "interpolation space (reds r/x, greens g/y, blues b/z, lightness, colourfulness c/s, hue, "
    "opponent a, opponent b), other missing components count as 0, and a colour that is "
    "achromatic after conversion into hsl, hwb, lch or oklch gets a missing hue (ColorAide's "
    "is_achromatic thresholds). A colour already in the interpolation space is not converted, so "
    "an explicit hue on a zero-chroma lch()/oklch() is kept (WPT expects this). This script does "
    "the conversion itself instead of ColorAide's carryforward option, whose rule for a colour "
    "with every component missing differs from CSS.",
    "A component missing in only one of the two colours takes the other colour's value before "
    "premultiplication (CSS Color 4 section 12.2). ColorAide fills it after premultiplying, "
    "which gives a different result when the alphas differ, so the script fills it first; "
    "ColorAide then interpolates with premultiplied=True (hue not premultiplied) and the given "
    "hue method (shorter when omitted).",
    "rec2020 uses the display-referred BT.1886 pure 2.4 gamma, as CSS resolved in 2025 "
    "(w3c/csswg-drafts#12574) and ColorAide 8.13.1's built-in 'rec2020' implements; older WPT "
    "snapshots still expect the BT.2020 piecewise OETF and differ by up to ~0.08.",
    "Relative colours: the origin is converted into the function's space; channel keywords are "
    "<number>s: rgb r/g/b 0..255, hsl s/l and hwb w/b 0..100, hue in degrees, lab l 0..100, "
    "oklab/oklch l 0..1, lab a/b, lch c and oklab/oklch a/b/c unscaled, color() channels 0..1, "
    "alpha 0..1. Percentages resolve against: rgb 255; hsl/hwb 100; lab l 100, a/b 125; lch l "
    "100, c 150; oklab l 1, a/b 0.4; oklch l 1, c 0.4; color() 1; alpha 1. A literal none "
    "makes that component missing.",
    "To keep every case unambiguous between CSS versions and engines: origins contain no none "
    "and are clearly chromatic when the function is hsl, hwb, lch or oklch; every rgb()/hsl()/"
    "hwb() result channel stays within 0..255 / 0..100, lab/oklab/lch/oklch lightness within "
    "its range, chroma >= 0 and alpha within 0..1, so no parse-time clamping is involved; hsl "
    "and hwb interpolation and functions only see colours inside sRGB; colours converted into "
    "a polar space are either exactly achromatic or clearly chromatic (no chroma near the "
    "powerless threshold); inputs with none never have none alpha on both sides.",
    "Checked against WPT (the files listed in css_color5_wpt.json): the same color-mix() steps "
    "reproduce all 897 two-colour cases of color-computed-color-mix-function.html and "
    "color-mix-out-of-gamut.html that need no calc() or var(), and the same relative-colour "
    "steps reproduce all 1,069 computed relative-colour cases that need no var(), "
    "currentcolor, light-dark(), math function beyond calc() arithmetic or none in the origin "
    "colour, each within its WPT epsilon (hues compared modulo 360).",
]

# ---------------------------------------------------------------------------------------------
# Spaces

CSS_SPACE = {
    "srgb": "srgb", "srgb-linear": "srgb-linear", "display-p3": "display-p3",
    "a98-rgb": "a98-rgb", "prophoto-rgb": "prophoto-rgb", "rec2020": "rec2020",
    "lab": "lab", "oklab": "oklab", "xyz": "xyz-d65", "xyz-d50": "xyz-d50",
    "xyz-d65": "xyz-d65", "hsl": "hsl", "hwb": "hwb", "lch": "lch", "oklch": "oklch",
}
MIX_SPACES = ["srgb", "srgb-linear", "display-p3", "a98-rgb", "prophoto-rgb", "rec2020", "lab",
              "oklab", "xyz", "xyz-d50", "xyz-d65", "hsl", "hwb", "lch", "oklch"]
HUE_INDEX = {"hsl": 0, "hwb": 0, "lch": 2, "oklch": 2}
RGB_LIKE = {"srgb", "srgb-linear", "display-p3", "a98-rgb", "prophoto-rgb", "rec2020",
            "xyz-d65", "xyz-d50"}


def analogous(space):
    """CSS Color 4 §12.2 analogous-component categories of each channel."""
    if space in RGB_LIKE:
        return ["reds", "greens", "blues"]
    if space in ("lab", "oklab"):
        return ["lightness", "opponent-a", "opponent-b"]
    if space in ("lch", "oklch"):
        return ["lightness", "colorfulness", "hue"]
    if space == "hsl":
        return ["hue", "colorfulness", "lightness"]
    if space == "hwb":
        return ["hue", None, None]
    raise KeyError(space)


def nan_to(value, fill):
    return fill if math.isnan(value) else value


def convert_css(color, space):
    """Converts into `space` before interpolation, as CSS does (see NOTES)."""
    if color.space() == space:
        return color.clone()
    missing = {cat for cat, v in zip(analogous(color.space()), color.coords()) if cat and math.isnan(v)}
    alpha = color.alpha(nans=True)
    filled = Color(color.space(), [nan_to(v, 0.0) for v in color.coords()], nan_to(alpha, 1.0))
    coords = filled.convert(space, norm=False).coords()
    for i, cat in enumerate(analogous(space)):
        if cat in missing:
            coords[i] = math.nan
    if space in HUE_INDEX and not math.isnan(coords[HUE_INDEX[space]]):
        if Color(space, [nan_to(v, 0.0) for v in coords]).is_achromatic():
            coords[HUE_INDEX[space]] = math.nan
    return Color(space, coords, alpha)


def ambiguous_in(color, space):
    """True when `color`, converted into the polar `space`, sits near the powerless-hue
    threshold, where CSS leaves the epsilon to implementations."""
    if space not in HUE_INDEX or color.space() == space:
        return False
    filled = Color(color.space(), [nan_to(v, 0.0) for v in color.coords()])
    c = filled.convert(space, norm=False).coords()
    if space == "hsl":
        s, l = abs(c[1]), c[2]
        return 1e-9 < s < 2e-3 or (s >= 1e-9 and (l < 2e-3 or l > 1 - 2e-3))
    if space == "hwb":
        return 1 - 2e-3 < c[1] + c[2] < 1 - 1e-9
    if space == "lch":
        return 1e-9 < abs(c[1]) < 0.05
    return 1e-9 < abs(c[1]) < 5e-4  # oklch


def in_srgb(color):
    filled = Color(color.space(), [nan_to(v, 0.0) for v in color.coords()])
    return all(-1e-9 <= v <= 1 + 1e-9 for v in filled.convert("srgb", norm=False).coords())


def to_srgb(color):
    filled = Color(color.space(), [nan_to(v, 0.0) for v in color.coords()],
                   nan_to(color.alpha(nans=True), 0.0))
    out = filled.convert("srgb", norm=False)
    return out.coords(), out.alpha()


# ---------------------------------------------------------------------------------------------
# Number formatting

def num(x, places=3):
    text = ("%." + str(places) + "f") % x
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return "0" if text in ("-0", "") else text


# ---------------------------------------------------------------------------------------------
# Input colours: (css text, Color)

NAMED = ["red", "green", "blue", "white", "black", "gray", "rebeccapurple", "orange", "teal",
         "olive", "navy", "maroon", "purple", "gold", "tomato", "steelblue", "hotpink",
         "seagreen", "chocolate", "indianred", "peru", "orchid", "lightseagreen", "slateblue",
         "crimson", "darkkhaki", "turquoise", "silver", "transparent"]


def gen_hex(rng):
    v = [rng.randrange(256) for _ in range(3)]
    kind = rng.random()
    if kind < 0.15:
        v = [rng.randrange(16) * 17 for _ in range(3)]
        text = "#" + "".join("%x" % (x // 17) for x in v)
        return text, Color("srgb", [x / 255 for x in v])
    if kind < 0.35:
        a = rng.randrange(256)
        return "#" + "".join("%02x" % x for x in v + [a]), Color("srgb", [x / 255 for x in v], a / 255)
    return "#" + "".join("%02x" % x for x in v), Color("srgb", [x / 255 for x in v])


def alpha_suffix(rng, p=0.25):
    if rng.random() < p:
        a = round(rng.uniform(0.1, 0.95), 2)
        return " / " + num(a, 2), a
    return "", 1.0


def gen_rgb(rng, allow_none=False):
    v = [rng.randrange(256) for _ in range(3)]
    suffix, a = alpha_suffix(rng)
    coords = [x / 255 for x in v]
    parts = [str(x) for x in v]
    if rng.random() < 0.2:
        pct = [round(rng.uniform(0, 100), 1) for _ in range(3)]
        coords = [p / 100 for p in pct]
        parts = [num(p, 1) + "%" for p in pct]
    if allow_none:
        i = rng.randrange(3)
        coords[i] = math.nan
        parts[i] = "none"
    elif rng.random() < 0.2 and not suffix:
        return "rgb(%s, %s, %s)" % tuple(parts), Color("srgb", coords)
    return "rgb(%s%s)" % (" ".join(parts), suffix), Color("srgb", coords, a)


def gen_hsl(rng, allow_none=False):
    h, s, l = round(rng.uniform(0, 360), 1), round(rng.uniform(8, 100), 1), round(rng.uniform(8, 92), 1)
    suffix, a = alpha_suffix(rng)
    coords = [h, s / 100, l / 100]
    parts = [num(h, 1) + ("deg" if rng.random() < 0.5 else ""), num(s, 1) + "%", num(l, 1) + "%"]
    if allow_none:
        i = rng.randrange(3)
        coords[i] = math.nan
        parts[i] = "none"
    return "hsl(%s%s)" % (" ".join(parts), suffix), Color("hsl", coords, a)


def gen_oklch(rng, allow_none=False, srgb_only=False):
    while True:
        L, C, H = round(rng.uniform(0.15, 0.95), 3), round(rng.uniform(0.02, 0.3), 3), round(rng.uniform(0, 360), 1)
        color = Color("oklch", [L, C, H])
        if not srgb_only or in_srgb(color):
            break
    suffix, a = alpha_suffix(rng)
    coords = [L, C, H]
    parts = [num(L), num(C), num(H, 1)]
    if allow_none:
        i = rng.randrange(3)
        coords[i] = math.nan
        parts[i] = "none"
    return "oklch(%s%s)" % (" ".join(parts), suffix), Color("oklch", coords, a)


def gen_lab(rng):
    L, A, B = round(rng.uniform(5, 95), 2), round(rng.uniform(-80, 80), 2), round(rng.uniform(-80, 80), 2)
    suffix, a = alpha_suffix(rng)
    return "lab(%s %s %s%s)" % (num(L, 2), num(A, 2), num(B, 2), suffix), Color("lab", [L, A, B], a)


def gen_p3(rng):
    v = [round(rng.uniform(0, 1), 3) for _ in range(3)]
    suffix, a = alpha_suffix(rng)
    return "color(display-p3 %s%s)" % (" ".join(num(x) for x in v), suffix), Color("display-p3", v, a)


def gen_named(rng):
    name = rng.choice(NAMED)
    return name, Color(name)


def gen_input(rng, srgb_only, allow_none=False):
    kinds = ["hex", "rgb", "hsl", "oklch", "named", "lab", "p3"]
    weights = [4, 3, 3, 3, 2, 1, 1]
    while True:
        kind = rng.choices(kinds, weights)[0]
        if allow_none and kind not in ("rgb", "hsl", "oklch"):
            continue
        if kind == "hex":
            text, color = gen_hex(rng)
        elif kind == "rgb":
            text, color = gen_rgb(rng, allow_none)
        elif kind == "hsl":
            text, color = gen_hsl(rng, allow_none)
        elif kind == "oklch":
            text, color = gen_oklch(rng, allow_none, srgb_only)
        elif kind == "named":
            text, color = gen_named(rng)
        elif kind == "lab":
            text, color = gen_lab(rng)
        else:
            text, color = gen_p3(rng)
        if srgb_only and not in_srgb(color):
            continue
        return text, color


# ---------------------------------------------------------------------------------------------
# color-mix()

def normalize_percentages(p1, p2):
    if p1 is None and p2 is None:
        p1 = p2 = 50.0
    elif p2 is None:
        p2 = 100.0 - p1
    elif p1 is None:
        p1 = 100.0 - p2
    total = p1 + p2
    if total == 0:
        return None
    return p1 / total, p2 / total, (total / 100.0 if total < 100 else 1.0)


def fill_missing(a, b):
    ca, cb = a.coords() + [a.alpha(nans=True)], b.coords() + [b.alpha(nans=True)]
    for i in range(len(ca)):
        if math.isnan(ca[i]) and not math.isnan(cb[i]):
            ca[i] = cb[i]
        elif math.isnan(cb[i]) and not math.isnan(ca[i]):
            cb[i] = ca[i]
    return Color(a.space(), ca[:-1], ca[-1]), Color(b.space(), cb[:-1], cb[-1])


def mix(c1, p1, c2, p2, css_space, hue=None):
    space = CSS_SPACE[css_space]
    w1, w2, multiplier = normalize_percentages(p1, p2)
    a, b = fill_missing(convert_css(c1, space), convert_css(c2, space))
    options = {"space": space, "premultiplied": True}
    if space in HUE_INDEX:
        options["hue"] = hue or "shorter"
    result = a.mix(b, w2, **options)
    alpha = result.alpha(nans=True)
    if not math.isnan(alpha):
        result.set("alpha", alpha * multiplier)
    return result


def gen_percentages(rng):
    kind = rng.choice(["none", "p1", "p2", "sum100", "under", "over"])
    if kind == "none":
        return None, None
    if kind == "p1":
        return float(rng.choice([0, 10, 25, 33, 50, 60, 75, 90, 100, rng.randrange(1, 100)])), None
    if kind == "p2":
        return None, float(rng.choice([0, 10, 25, 40, 50, 66, 80, 100, rng.randrange(1, 100)]))
    if kind == "sum100":
        p = rng.choice([0, 20, 25, 30, 50, 70, 75, 80, 100, round(rng.uniform(1, 99), 1)])
        return float(p), float(100 - p)
    if kind == "under":
        while True:
            p1, p2 = rng.choice([0, 5, 10, 12.5, 20, 25, 30]), rng.choice([5, 10, 20, 25, 37.5, 40])
            if 0 < p1 + p2 < 100:
                return float(p1), float(p2)
    p1, p2 = rng.choice([30, 50, 60, 75, 90, 100]), rng.choice([60, 75, 80, 90, 100])
    return float(p1), float(p2)


def pct_text(p):
    return num(p, 2) + "%"


def arg_text(rng, text, p):
    if p is None:
        return text
    return (pct_text(p) + " " + text) if rng.random() < 0.25 else (text + " " + pct_text(p))


def gen_nested(rng, outer_space):
    """A two-colour mix in a rectangular space, used as an argument of another mix."""
    srgb_only = outer_space in ("hsl", "hwb")
    while True:
        space = rng.choice(["srgb", "oklab", "lab", "display-p3", "srgb-linear", "xyz-d65"])
        (t1, c1), (t2, c2) = gen_input(rng, srgb_only), gen_input(rng, srgb_only)
        p1, p2 = rng.choice([(None, None), (30.0, None), (None, 25.0), (40.0, 60.0)])
        result = mix(c1, p1, c2, p2, space)
        if srgb_only and not in_srgb(result):
            continue
        text = "color-mix(in %s, %s, %s)" % (space, arg_text(rng, t1, p1), arg_text(rng, t2, p2))
        return text, result


def gen_mix_case(rng, css_space):
    space = CSS_SPACE[css_space]
    srgb_only = css_space in ("hsl", "hwb")
    while True:
        with_none = rng.random() < 0.1
        args = []
        for i in range(2):
            if rng.random() < 0.06:
                args.append(gen_nested(rng, css_space))
            else:
                args.append(gen_input(rng, srgb_only, allow_none=with_none and i == 0))
        (t1, c1), (t2, c2) = args
        if any(ambiguous_in(c, space) for c in (c1, c2)):
            continue
        if css_space in ("hsl", "hwb") and any(c.space() == space and c.is_achromatic() for c in (c1, c2)):
            continue  # hue kept or not without conversion: keep clear of it in hsl/hwb
        p1, p2 = gen_percentages(rng)
        if (p1 or 0) + (p2 or 0) == 0 and p1 is not None and p2 is not None:
            continue
        hue = None
        method = css_space
        if css_space in HUE_INDEX and rng.random() < 0.8:
            hue = rng.choice(["shorter", "longer", "increasing", "decreasing"])
            method += " %s hue" % hue
        result = mix(c1, p1, c2, p2, css_space, hue)
        text = "color-mix(in %s, %s, %s)" % (method, arg_text(rng, t1, p1), arg_text(rng, t2, p2))
        return text, result


def lch_exact_gray_cases():
    """Zero-chroma lch()/oklch() in their own space: the explicit hue takes part (WPT)."""
    cases = []
    for space, light in (("lch", "70"), ("oklch", "0.7")):
        for h1, h2, method in ((40, 60, None), (50, 330, "longer"), (20, 320, "increasing")):
            c1 = Color(space, [float(light), 0.0, float(h1)])
            c2 = Color(space, [float(light), 30.0 if space == "lch" else 0.1, float(h2)])
            m = space + (" %s hue" % method if method else "")
            text = "color-mix(in %s, %s(%s 0 %d), %s(%s %s %d))" % (
                m, space, light, h1, space, light, "30" if space == "lch" else "0.1", h2)
            cases.append((text, mix(c1, None, c2, None, space, method)))
    return cases


# ---------------------------------------------------------------------------------------------
# Relative colours

FUNCS = {
    "rgb": dict(space="srgb", ch=("r", "g", "b"), scale=(255, 255, 255), pct=(255, 255, 255),
                lit=((0, 255),) * 3, swap=("r", "g", "b")),
    "hsl": dict(space="hsl", ch=("h", "s", "l"), scale=(1, 100, 100), pct=(None, 100, 100),
                lit=(None, (0, 100), (0, 100)), swap=("s", "l")),
    "hwb": dict(space="hwb", ch=("h", "w", "b"), scale=(1, 100, 100), pct=(None, 100, 100),
                lit=(None, (0, 100), (0, 100)), swap=("w", "b")),
    "lab": dict(space="lab", ch=("l", "a", "b"), scale=(1, 1, 1), pct=(100, 125, 125),
                lit=((0, 100), (-125, 125), (-125, 125)), swap=("a", "b")),
    "lch": dict(space="lch", ch=("l", "c", "h"), scale=(1, 1, 1), pct=(100, 150, None),
                lit=((0, 100), (0, 150), None), swap=()),
    "oklab": dict(space="oklab", ch=("l", "a", "b"), scale=(1, 1, 1), pct=(1, 0.4, 0.4),
                  lit=((0, 1), (-0.4, 0.4), (-0.4, 0.4)), swap=("a", "b")),
    "oklch": dict(space="oklch", ch=("l", "c", "h"), scale=(1, 1, 1), pct=(1, 0.4, None),
                  lit=((0, 1), (0, 0.4), None), swap=()),
}
# Result ranges kept (see NOTES): None = unrestricted.
KEEP = {
    "rgb": ((0, 255),) * 3, "hsl": (None, (0, 100), (0, 100)), "hwb": (None, (0, 100), (0, 100)),
    "lab": ((0, 100), None, None), "oklab": ((0, 1), None, None),
    "lch": ((0, 100), (0, math.inf), None), "oklch": ((0, 1), (0, math.inf), None),
    "color": (None, None, None),
}
COLOR_FN = ["srgb", "display-p3", "srgb-linear", "xyz", "xyz-d50", "xyz-d65", "a98-rgb",
            "prophoto-rgb", "rec2020"]


def function_info(fn, cspace=None):
    if fn == "color":
        names = ("x", "y", "z") if cspace.startswith("xyz") else ("r", "g", "b")
        return dict(space=CSS_SPACE[cspace], ch=names, scale=(1, 1, 1), pct=(1, 1, 1),
                    lit=((-0.1, 1.1),) * 3, swap=names)
    return FUNCS[fn]


def keyword_values(origin, info):
    converted = origin.convert(info["space"], norm=False)
    values = {name: converted.coords()[i] * info["scale"][i] for i, name in enumerate(info["ch"])}
    values["alpha"] = converted.alpha()
    return values


class Expr:
    """A channel expression: its CSS text and its value (NaN for none)."""

    def __init__(self, text, value):
        self.text, self.value = text, value


def gen_channel(rng, info, i, kw):
    name = info["ch"][i]
    k = kw[name]
    if info["pct"][i] is None:  # hue
        choice = rng.random()
        if choice < 0.4:
            return Expr(name, k)
        if choice < 0.6:
            x = round(rng.uniform(0, 360), 1)
            unit = rng.choice(["", "deg", "turn", "grad"])
            factor = {"": 1, "deg": 1, "turn": 360, "grad": 0.9}[unit]
            shown = round(x / factor, 4)
            return Expr(num(shown, 4) + unit, shown * factor)
        if choice < 0.65:
            return Expr("none", math.nan)
        d = rng.choice([180, 90, 30, 45, 120, 15.5, 200])
        op = rng.choice(["+", "-"])
        return Expr("calc(h %s %s)" % (op, num(d)), k + d if op == "+" else k - d)
    lo, hi = info["lit"][i]
    others = [o for o in info["swap"] if o != name]
    choice = rng.random()
    if choice < 0.3:
        return Expr(name, k)
    if choice < 0.4 and others:
        other = rng.choice(others)
        return Expr(other, kw[other])
    if choice < 0.5:
        x = round(rng.uniform(lo, hi), 3 if hi - lo <= 2 else 1)
        return Expr(num(x, 3), x)
    if choice < 0.58:
        p = round(rng.uniform(0, 100) if lo >= 0 else rng.uniform(-100, 100), 1)
        return Expr(num(p, 1) + "%", p * info["pct"][i] / 100)
    if choice < 0.62:
        return Expr("none", math.nan)
    op = rng.choice(["*", "/", "+", "-", "avg"])
    if op == "*":
        f = rng.choice([0.5, 0.8, 0.9, 1.1, 1.2, 2, 0.25])
        return Expr("calc(%s * %s)" % (name, num(f)), k * f)
    if op == "/":
        f = rng.choice([2, 3, 4, 1.5])
        return Expr("calc(%s / %s)" % (name, num(f)), k / f)
    if op == "avg" and others:
        other = rng.choice(others)
        return Expr("calc((%s + %s) / 2)" % (name, other), (k + kw[other]) / 2)
    d = float(num((hi - lo) * rng.choice([0.05, 0.1, 0.2, 0.25]), 3))
    if op == "-":
        return Expr("calc(%s - %s)" % (name, num(d, 3)), k - d)
    return Expr("calc(%s + %s)" % (name, num(d, 3)), k + d)


def gen_alpha(rng, kw):
    a = kw["alpha"]
    choice = rng.random()
    if choice < 0.45:
        return None, a
    if choice < 0.6:
        return "alpha", a
    if choice < 0.75:
        x = round(rng.uniform(0.05, 1), 2)
        return num(x, 2), x
    if choice < 0.85:
        p = round(rng.uniform(5, 100))
        return "%d%%" % p, p / 100
    f = rng.choice([0.5, 0.75, 0.25])
    return "calc(alpha * %s)" % num(f), a * f


def build_color(info, values, alpha):
    coords = [v / info["scale"][i] if not math.isnan(v) else math.nan for i, v in enumerate(values)]
    return Color(info["space"], coords, alpha)


def chromatic_in(color, space):
    """Clearly chromatic once converted into the polar `space`."""
    if ambiguous_in(color, space):
        return False
    return not math.isnan(convert_css(color, space).coords()[HUE_INDEX[space]])


def gen_origin(rng, srgb_only):
    kind = rng.random()
    if kind < 0.07:
        text, color = gen_origin(rng, srgb_only)
        inner_fn = rng.choice(["hsl", "oklch", "lab", "rgb"] if in_srgb(color) else ["oklch", "lab"])
        info = FUNCS[inner_fn]
        if info["space"] in HUE_INDEX and not chromatic_in(color, info["space"]):
            return text, color
        kw = keyword_values(color, info)
        result = build_color(info, [kw[n] for n in info["ch"]], kw["alpha"])
        return "%s(from %s %s)" % (inner_fn, text, " ".join(info["ch"])), result
    if kind < 0.12:
        return gen_nested(rng, "hsl" if srgb_only else "oklab")
    return gen_input(rng, srgb_only)


def gen_relative_case(rng, fn, cspace=None):
    info = function_info(fn, cspace)
    space = info["space"]
    srgb_only = fn in ("rgb", "hsl", "hwb")
    keep = KEEP[fn]
    while True:
        origin_text, origin = gen_origin(rng, srgb_only)
        if space in HUE_INDEX and not chromatic_in(origin, space):
            continue
        kw = keyword_values(origin, info)
        exprs = [gen_channel(rng, info, i, kw) for i in range(3)]
        if all(e.text == info["ch"][i] for i, e in enumerate(exprs)) and rng.random() < 0.6:
            continue  # identity cases stay a minority
        if any(keep[i] and not math.isnan(e.value) and not keep[i][0] - 1e-9 <= e.value <= keep[i][1] + 1e-9
               for i, e in enumerate(exprs)):
            continue
        alpha_text, alpha = gen_alpha(rng, kw)
        if not 0 <= alpha <= 1:
            continue
        result = build_color(info, [e.value for e in exprs], alpha)
        if fn == "color":
            head = "color(from %s %s" % (origin_text, cspace)
        else:
            head = "%s(from %s" % (fn, origin_text)
        text = "%s %s%s)" % (head, " ".join(e.text for e in exprs), (" / " + alpha_text) if alpha_text else "")
        return text, result


# ---------------------------------------------------------------------------------------------

def case(text, color, kind):
    srgb, alpha = to_srgb(color)
    return {
        "input": text,
        "kind": kind,
        "srgb": srgb,
        "alpha": alpha,
        "in_gamut": all(-1e-9 <= v <= 1 + 1e-9 for v in srgb),
    }


def main():
    rng = random.Random(SEED)
    cases = []
    for css_space in MIX_SPACES:
        for _ in range(MIX_PER_SPACE):
            cases.append(case(*gen_mix_case(rng, css_space), "color-mix"))
    for text, color in lch_exact_gray_cases():
        cases.append(case(text, color, "color-mix"))
    for fn in ["rgb", "hsl", "hwb", "lab", "lch", "oklab", "oklch"]:
        for _ in range(REL_PER_FUNCTION * 2 if fn in ("rgb", "hsl", "oklch") else REL_PER_FUNCTION):
            cases.append(case(*gen_relative_case(rng, fn), "relative"))
    for cspace in COLOR_FN:
        for _ in range(REL_PER_FUNCTION if cspace in ("srgb", "display-p3", "srgb-linear", "xyz") else 35):
            cases.append(case(*gen_relative_case(rng, "color", cspace), "relative"))

    seen, unique = set(), []
    for c in cases:
        if c["input"] not in seen:
            seen.add(c["input"])
            unique.append(c)

    header = {
        "source": "generated by scripts/gen-css5-vectors.py with ColorAide %s" % coloraide.__version__,
        "coloraide_version": coloraide.__version__,
        "seed": SEED,
        "regenerate": "python3 scripts/gen-css5-vectors.py  (from the repository root, with coloraide==8.13.1)",
        "count": len(unique),
        "counts": {k: sum(1 for c in unique if c["kind"] == k) for k in ("color-mix", "relative")},
        "conventions": NOTES,
    }
    with open(OUT, "w") as out:
        out.write("{\n \"header\": ")
        out.write(json.dumps(header, indent=1).replace("\n", "\n "))
        out.write(",\n \"cases\": [\n")
        out.write(",\n".join("  " + json.dumps(c) for c in unique))
        out.write("\n ]\n}\n")
    print("%d cases -> %s" % (len(unique), OUT))


if __name__ == "__main__":
    main()
