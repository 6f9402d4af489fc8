#!/usr/bin/env python3
"""Regenerates tests/integration/data/css_sources_expected.json.

An independent reference for the stylesheet (CSS custom properties) reader: what the real design
systems' CSS builds resolve to, computed here in Python with a small CSS tokenizer/parser written
for this script and ColorAide for the colour science. The inputs stay where they are
(../shared/realworld/, beside the checkout; never copied into the project):

    tailwind/theme.css                               -> theme "light" (every @theme custom property)
    primer/dist/css/functional/themes/light.css      -> theme "light"
    primer/dist/css/functional/themes/dark.css       -> theme "dark"

Run from anywhere (`pip install coloraide==8.13.1`); the tests read the committed file only:

    python3 scripts/gen-css-expected.py

The conventions (how blocks are classified, how var() is substituted, how colours are gamut
mapped and rounded) are written into the file's header; see CONVENTIONS below.
"""
import hashlib
import json
import math
import sys
from pathlib import Path

import coloraide
from coloraide import Color

ROOT = Path(__file__).resolve().parent.parent
REALWORLD = ROOT.parent / "shared" / "realworld"
OUT = ROOT / "tests" / "integration" / "data" / "css_sources_expected.json"

SOURCES = [
    ("tailwind/theme.css", "tailwind"),
    ("primer/dist/css/functional/themes/light.css", "primer"),
    ("primer/dist/css/functional/themes/dark.css", "primer"),
]

GAMUT_TOLERANCE = 0.000075
FIT_METHOD = "minde-chroma"
FIT_OPTIONS = {"pspace": "oklch", "jnd": 0.02, "de_options": {"method": "ok"}}
CSS_WIDE_KEYWORDS = {"initial", "inherit", "unset", "revert", "revert-layer"}
COLOR_FUNCTIONS = {"rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color",
                   "color-mix", "light-dark", "device-cmyk", "contrast-color"}

CONVENTIONS = [
    "Each file is tokenized with a CSS Syntax Level 3 tokenizer written for this script (comments, "
    "strings with escapes, url(), numbers, identifiers with escapes, hashes, at-keywords) and parsed "
    "into rules and declarations with balanced (), [] and {} blocks; a declaration value ends at a "
    "';' or the block's '}' outside any nested block. Nested rules inside a block (CSS nesting, "
    "@keyframes) are not part of the block's own declarations and are ignored.",
    "Token names are the custom-property names (after unescaping) without the leading '--'.",
    "tailwind/theme.css: every custom property declared directly in an @theme block (there are two: "
    "'@theme default' and the deprecated '@theme default inline reference') is in theme 'light'.",
    "Primer: a style rule belongs to the theme named by the value of the LAST attribute selector "
    "(one with a value) in the first compound selector of the first selector of its selector list; "
    "rules inside @media (prefers-color-scheme: ...) (and any other conditional group rule) are "
    "classified the same way. All blocks of a theme are merged in source order.",
    "Merging (also within one block): a later declaration of a name replaces an earlier one unless "
    "the earlier one is !important and the later one is not. '!important' (the last two "
    "non-whitespace tokens being '!' and 'important', any case) is removed from the value.",
    "A custom property's value is its tokens with leading and trailing whitespace removed; comments "
    "count as whitespace and every whitespace run is written as one space when the value is "
    "serialized for the colour parser.",
    "var(--x) and var(--x, fallback) are substituted textually (token-wise) and recursively within "
    "the theme; the fallback (trimmed, possibly empty) is used only when --x is undefined in that "
    "theme or invalid at computed-value time. A property with an unresolvable var() and no "
    "fallback is invalid (and so undefined for its own referrers). A property whose value is a "
    "CSS-wide keyword (initial, inherit, unset, revert, revert-layer) counts as undefined.",
    "Cycles: the dependency graph has an edge for every var() reference in a value, fallbacks "
    "included (CSS Variables 1 §2.3); every property in a strongly connected component with a "
    "cycle (or referencing itself) is invalid at computed-value time.",
    "A token is kept when its substituted value parses as a colour with coloraide.Color(text) "
    "(ColorAide's CSS parser: hex, named colours incl. transparent, rgb[a](), hsl[a](), hwb(), "
    "lab(), lch(), oklab(), oklch(), color()); anything else is skipped (see stats).",
    "srgb: the colour converted to sRGB (gamma-encoded, 0..1) before gamut mapping, unclamped, full "
    "float precision; a missing (none) component counts as 0. alpha: the colour's alpha (none -> 0). "
    "out_of_gamut: some srgb component is below -0.000075 or above 1.000075.",
    "hex: the colour converted to sRGB and gamut mapped with ColorAide's fit('srgb', "
    "method='minde-chroma', pspace='oklch', jnd=0.02, de_options={'method': 'ok'}), which is the "
    "CSS Color 4 §13.2 binary search on OKLCh chroma (deltaE-OK JND 0.02, epsilon 0.0001); its "
    "'oklch-chroma' method is the same class with the same defaults and gives identical results "
    "(checked for every colour here). It returns a colour exactly in gamut unchanged, returns white "
    "or black when OKLCh lightness is at or beyond that of white (within 1e-6) or black, returns "
    "the clipped colour when its deltaE-OK from the original is below the JND, and otherwise "
    "searches chroma in [0, C] until the clipped candidate is within epsilon below the JND or the "
    "interval is narrower than 0.0001, returning the clipped candidate. The script also runs its "
    "own transcription of the §13.2 pseudo-code (ColorAide only for conversions and deltaE-OK) as a "
    "cross-check; see stats.gamut_cross_check.",
    "Each mapped component is rounded to 8 bits half-up: floor(v * 255 + 0.5) after clamping to "
    "[0, 1]; lowercase #rrggbb, with a two-digit alpha suffix (same rounding) only when alpha < 1.",
]


# ----------------------------------------------------------------------------------------------
# Tokenizer (CSS Syntax Level 3, §4), enough for stylesheets of custom properties.

class Tok:
    __slots__ = ("kind", "value", "text", "pos")

    def __init__(self, kind, value, text, pos):
        self.kind = kind      # ws comment ident function at hash string bad-string url bad-url
        self.value = value    # number delim : ; , ( ) [ ] { } cdo cdc
        self.text = text
        self.pos = pos

    def __repr__(self):
        return f"Tok({self.kind}, {self.value!r})"


def _is_name_start(c):
    return c.isalpha() and c.isascii() or c == "_" or (c != "" and ord(c) >= 0x80)


def _is_name(c):
    return _is_name_start(c) or (c.isascii() and c.isdigit()) or c == "-"


def _is_digit(c):
    return c != "" and c in "0123456789"


def _is_hex(c):
    return c != "" and c in "0123456789abcdefABCDEF"


def tokenize(src):
    s = src.replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n").replace("\0", "\ufffd")
    n = len(s)
    toks = []

    def at(i):
        return s[i] if i < n else ""

    def valid_escape(i):
        return at(i) == "\\" and at(i + 1) not in ("\n", "")

    def starts_ident(i):
        c = at(i)
        if c == "-":
            return _is_name_start(at(i + 1)) or at(i + 1) == "-" or valid_escape(i + 1)
        if _is_name_start(c):
            return True
        return valid_escape(i)

    def starts_number(i):
        c = at(i)
        if c in ("+", "-"):
            return _is_digit(at(i + 1)) or (at(i + 1) == "." and _is_digit(at(i + 2)))
        if c == ".":
            return _is_digit(at(i + 1))
        return _is_digit(c)

    def consume_escape(i):
        # i points just after the backslash
        c = at(i)
        if _is_hex(c):
            j = i
            while j < n and j - i < 6 and _is_hex(s[j]):
                j += 1
            cp = int(s[i:j], 16)
            if at(j) in (" ", "\t", "\n"):
                j += 1
            if cp == 0 or 0xD800 <= cp <= 0xDFFF or cp > 0x10FFFF:
                return "\ufffd", j
            return chr(cp), j
        if c == "":
            return "\ufffd", i
        return c, i + 1

    def consume_name(i):
        out = []
        while i < n:
            c = s[i]
            if _is_name(c):
                out.append(c)
                i += 1
            elif valid_escape(i):
                ch, i = consume_escape(i + 1)
                out.append(ch)
            else:
                break
        return "".join(out), i

    def consume_number(i):
        j = i
        if at(j) in "+-" and at(j) != "":
            j += 1
        while _is_digit(at(j)):
            j += 1
        if at(j) == "." and _is_digit(at(j + 1)):
            j += 2
            while _is_digit(at(j)):
                j += 1
        if at(j) in ("e", "E") and (_is_digit(at(j + 1)) or (at(j + 1) in ("+", "-") and at(j + 1) != "" and _is_digit(at(j + 2)))):
            j += 2
            while _is_digit(at(j)):
                j += 1
        if starts_ident(j):
            _, j = consume_name(j)
        elif at(j) == "%":
            j += 1
        return j

    def consume_url(i):
        # i points just after 'url('; unquoted url
        j = i
        while at(j) in (" ", "\t", "\n") and at(j) != "":
            j += 1
        while j < n:
            c = s[j]
            if c == ")":
                return "url", j + 1
            if c in (" ", "\t", "\n"):
                while at(j) in (" ", "\t", "\n") and at(j) != "":
                    j += 1
                if at(j) in (")", ""):
                    return "url", min(j + 1, n)
                break
            if c in ("\"", "'", "(") or (ord(c) <= 8 or ord(c) == 0x0B or 0x0E <= ord(c) <= 0x1F or ord(c) == 0x7F):
                break
            if c == "\\":
                if valid_escape(j):
                    _, j = consume_escape(j + 1)
                    continue
                break
            j += 1
        else:
            return "url", n
        # bad url: consume remnants
        while j < n:
            if s[j] == ")":
                return "bad-url", j + 1
            if valid_escape(j):
                _, j = consume_escape(j + 1)
            else:
                j += 1
        return "bad-url", n

    i = 0
    while i < n:
        c = s[i]
        start = i
        if c == "/" and at(i + 1) == "*":
            end = s.find("*/", i + 2)
            i = n if end < 0 else end + 2
            toks.append(Tok("comment", None, s[start:i], start))
        elif c in (" ", "\t", "\n"):
            while at(i) in (" ", "\t", "\n") and at(i) != "":
                i += 1
            toks.append(Tok("ws", None, s[start:i], start))
        elif c in ("\"", "'"):
            i += 1
            out = []
            kind = "string"
            while True:
                d = at(i)
                if d == "":
                    break
                if d == c:
                    i += 1
                    break
                if d == "\n":
                    kind = "bad-string"
                    break
                if d == "\\":
                    if at(i + 1) == "":
                        i += 1
                    elif at(i + 1) == "\n":
                        i += 2
                    else:
                        ch, i = consume_escape(i + 1)
                        out.append(ch)
                    continue
                out.append(d)
                i += 1
            toks.append(Tok(kind, "".join(out), s[start:i], start))
        elif c == "#":
            if _is_name(at(i + 1)) or valid_escape(i + 1):
                name, i = consume_name(i + 1)
                toks.append(Tok("hash", name, s[start:i], start))
            else:
                i += 1
                toks.append(Tok("delim", c, c, start))
        elif c in "()[]{},:;":
            i += 1
            toks.append(Tok(c, c, c, start))
        elif c in "+." and starts_number(i):
            i = consume_number(i)
            toks.append(Tok("number", s[start:i], s[start:i], start))
        elif c == "-":
            if starts_number(i):
                i = consume_number(i)
                toks.append(Tok("number", s[start:i], s[start:i], start))
            elif s.startswith("-->", i):
                i += 3
                toks.append(Tok("cdc", None, "-->", start))
            elif starts_ident(i):
                i = _ident_like(s, i, start, toks, consume_name, consume_url, at)
            else:
                i += 1
                toks.append(Tok("delim", c, c, start))
        elif c == "<" and s.startswith("<!--", i):
            i += 4
            toks.append(Tok("cdo", None, "<!--", start))
        elif c == "@":
            if starts_ident(i + 1):
                name, i = consume_name(i + 1)
                toks.append(Tok("at", name, s[start:i], start))
            else:
                i += 1
                toks.append(Tok("delim", c, c, start))
        elif c == "\\":
            if valid_escape(i):
                i = _ident_like(s, i, start, toks, consume_name, consume_url, at)
            else:
                i += 1
                toks.append(Tok("delim", c, c, start))
        elif _is_digit(c):
            i = consume_number(i)
            toks.append(Tok("number", s[start:i], s[start:i], start))
        elif _is_name_start(c):
            i = _ident_like(s, i, start, toks, consume_name, consume_url, at)
        else:
            i += 1
            toks.append(Tok("delim", c, c, start))
    return s, toks


def _ident_like(s, i, start, toks, consume_name, consume_url, at):
    name, i = consume_name(i)
    if at(i) == "(":
        if name.lower() == "url":
            j = i + 1
            while at(j) in (" ", "\t", "\n") and at(j) != "":
                j += 1
            if at(j) not in ("\"", "'"):
                kind, end = consume_url(i + 1)
                toks.append(Tok(kind, s[start:end], s[start:end], start))
                return end
        toks.append(Tok("function", name, s[start:i + 1], start))
        return i + 1
    toks.append(Tok("ident", name, s[start:i], start))
    return i


# ----------------------------------------------------------------------------------------------
# Component values and rules (CSS Syntax Level 3, §5, with nesting-aware block contents).

MIRROR = {"(": ")", "[": "]", "{": "}", "function": ")"}


class Func:
    __slots__ = ("name", "open", "children")

    def __init__(self, name, open_text, children):
        self.name, self.open, self.children = name, open_text, children


class Block:
    __slots__ = ("open", "children")

    def __init__(self, open_char, children):
        self.open, self.children = open_char, children


class Decl:
    __slots__ = ("name", "value", "important", "line")

    def __init__(self, name, value, important, line):
        self.name, self.value, self.important, self.line = name, value, important, line


class Rule:
    __slots__ = ("at", "prelude", "block", "line")

    def __init__(self, at, prelude, block, line):
        self.at, self.prelude, self.block, self.line = at, prelude, block, line


class Parser:
    def __init__(self, text, toks):
        self.text = text
        self.toks = toks
        self.i = 0

    def line(self, tok):
        return self.text.count("\n", 0, tok.pos) + 1 if tok is not None else 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def component(self):
        """Consumes one component value at self.i."""
        t = self.toks[self.i]
        self.i += 1
        if t.kind == "function":
            return Func(t.value, t.text, self._until(")"))
        if t.kind in ("(", "[", "{"):
            return Block(t.kind, self._until(MIRROR[t.kind]))
        return t

    def _until(self, close):
        out = []
        while self.i < len(self.toks):
            t = self.toks[self.i]
            if t.kind == close:
                self.i += 1
                return out
            out.append(self.component())
        return out  # EOF closes the block

    def stylesheet(self):
        return self.contents(top=True)

    def contents(self, top):
        """A list of declarations and rules, up to the closing '}' (consumed) or EOF."""
        items = []
        while self.i < len(self.toks):
            t = self.toks[self.i]
            if t.kind in ("ws", "comment", ";") or (top and t.kind in ("cdo", "cdc")):
                self.i += 1
            elif t.kind == "}" and not top:
                self.i += 1
                return items
            elif t.kind == "at":
                items.append(self.at_rule())
            elif not top and t.kind == "ident" and self._colon_follows():
                d = self.declaration()
                if d is not None:
                    items.append(d)
            else:
                r = self.qualified_rule(top)
                if r is not None:
                    items.append(r)
        return items

    def _colon_follows(self):
        j = self.i + 1
        while j < len(self.toks) and self.toks[j].kind in ("ws", "comment"):
            j += 1
        return j < len(self.toks) and self.toks[j].kind == ":"

    def at_rule(self):
        t = self.toks[self.i]
        self.i += 1
        prelude = []
        while self.i < len(self.toks):
            u = self.toks[self.i]
            if u.kind == ";":
                self.i += 1
                return Rule(t.value, prelude, None, self.line(t))
            if u.kind == "}":
                return Rule(t.value, prelude, None, self.line(t))
            if u.kind == "{":
                self.i += 1
                return Rule(t.value, prelude, self.contents(top=False), self.line(t))
            prelude.append(self.component())
        return Rule(t.value, prelude, None, self.line(t))

    def qualified_rule(self, top):
        start = self.i
        prelude = []
        while self.i < len(self.toks):
            u = self.toks[self.i]
            if u.kind == "{":
                self.i += 1
                return Rule(None, prelude, self.contents(top=False), self.line(self.toks[start]))
            if not top and u.kind in (";", "}"):
                if u.kind == ";":
                    self.i += 1
                return None  # parse error: dropped
            prelude.append(self.component())
        return None

    def declaration(self):
        start = self.i
        name_tok = self.toks[self.i]
        custom = name_tok.value.startswith("--")
        self.i += 1
        while self.toks[self.i].kind != ":":
            self.i += 1
        self.i += 1
        value = []
        while self.i < len(self.toks):
            u = self.toks[self.i]
            if u.kind == ";":
                self.i += 1
                break
            if u.kind == "}":
                break
            if u.kind == "{" and not custom:
                # `a:hover { ... }` inside a block: a nested style rule, not a declaration.
                self.i = start
                return self.qualified_rule(top=False)
            value.append(self.component())
        value = strip_ws(value)
        important = False
        sig = [k for k, v in enumerate(value) if not is_ws(v)]
        if len(sig) >= 2:
            a, b = value[sig[-2]], value[sig[-1]]
            if (isinstance(a, Tok) and a.kind == "delim" and a.value == "!" and isinstance(b, Tok)
                    and b.kind == "ident" and b.value.lower() == "important"):
                important = True
                value = strip_ws(value[:sig[-2]])
        return Decl(name_tok.value, value, important, self.line(name_tok))


def is_ws(v):
    return isinstance(v, Tok) and v.kind in ("ws", "comment")


def strip_ws(vals):
    a, b = 0, len(vals)
    while a < b and is_ws(vals[a]):
        a += 1
    while b > a and is_ws(vals[b - 1]):
        b -= 1
    return vals[a:b]


def serialize(vals):
    out = []
    for v in vals:
        if isinstance(v, Func):
            out.append(v.open + serialize(v.children) + ")")
        elif isinstance(v, Block):
            out.append(v.open + serialize(v.children) + MIRROR[v.open])
        elif v.kind in ("ws", "comment"):
            if out and out[-1] != " ":
                out.append(" ")
        else:
            out.append(v.text)
    return "".join(out).strip()


# ----------------------------------------------------------------------------------------------
# Selector classification (Primer)

def first_compound(prelude):
    """Component values of the first compound selector of the first complex selector."""
    vals = []
    for v in prelude:
        if isinstance(v, Tok) and v.kind == ",":
            break
        vals.append(v)
    vals = strip_ws(vals)
    out = []
    for v in vals:
        if is_ws(v) or (isinstance(v, Tok) and v.kind == "delim" and v.value in (">", "+", "~")):
            break
        out.append(v)
    return out


def attribute_value(block):
    """The value of an attribute selector's block ('[' ... ']'), or None when it has none."""
    sig = [v for v in block.children if not is_ws(v)]
    for k, v in enumerate(sig):
        if isinstance(v, Tok) and v.kind == "delim" and v.value == "=":
            if k + 1 < len(sig) and isinstance(sig[k + 1], Tok) and sig[k + 1].kind in ("string", "ident"):
                return sig[k + 1].value
            return None
    return None


def classify(prelude):
    theme = None
    for v in first_compound(prelude):
        if isinstance(v, Block) and v.open == "[":
            val = attribute_value(v)
            if val is not None:
                theme = val
    return theme


# ----------------------------------------------------------------------------------------------
# Collecting the declarations of each theme

class Theme:
    def __init__(self):
        self.blocks = []          # descriptions of the blocks merged into this theme
        self.declarations = 0     # custom-property declarations seen (before merging)
        self.overridden = 0       # declarations replaced by a later one
        self.important_kept = 0   # later declarations ignored because an earlier one was !important
        self.decls = {}           # name -> Decl (merged)

    def add(self, d):
        self.declarations += 1
        old = self.decls.get(d.name)
        if old is not None:
            if old.important and not d.important:
                self.important_kept += 1
                return
            self.overridden += 1
        self.decls[d.name] = d


def collect(kind, rules, notes):
    themes = {}

    def theme(name):
        return themes.setdefault(name, Theme())

    def own_decls(block, where):
        ds = []
        for item in block:
            if isinstance(item, Decl):
                if item.name.startswith("--"):
                    ds.append(item)
            else:
                what = ("@" + item.at) if item.at else ("rule " + serialize(item.prelude))
                notes["nested_rules_ignored"].append(f"{where}: nested {what} (line {item.line})")
        return ds

    def walk(items, media):
        for r in items:
            if isinstance(r, Decl):
                notes["unclassified"].append(f"declaration {r.name} outside any rule (line {r.line})")
                continue
            if kind == "tailwind":
                if r.at is not None and r.at.lower() == "theme" and r.block is not None:
                    t = theme("light")
                    ds = own_decls(r.block, f"@theme {serialize(r.prelude)}")
                    t.blocks.append({"selector": f"@theme {serialize(r.prelude)}".strip(), "line": r.line, "declarations": len(ds)})
                    for d in ds:
                        t.add(d)
                else:
                    what = "@" + r.at if r.at else "rule " + serialize(r.prelude)
                    notes["unclassified"].append(f"{what} (line {r.line}) outside @theme: ignored")
                continue
            # primer
            if r.at is not None:
                if r.block is not None and r.at.lower() in ("media", "supports", "layer", "container", "scope", "document"):
                    walk(r.block, media + [f"@{r.at} {serialize(r.prelude)}"])
                else:
                    notes["unclassified"].append(f"@{r.at} {serialize(r.prelude)} (line {r.line}): ignored")
                continue
            name = classify(r.prelude)
            sel = serialize(first_compound(r.prelude))
            if name is None:
                notes["unclassified"].append(f"selector {serialize(r.prelude)!r} (line {r.line}): no attribute value")
                continue
            ds = own_decls(r.block, sel)
            t = theme(name)
            t.blocks.append({"selector": sel, "media": " ".join(media) or None, "line": r.line, "declarations": len(ds)})
            for d in ds:
                t.add(d)

    walk(rules, [])
    return themes


# ----------------------------------------------------------------------------------------------
# var() substitution

INVALID = object()


def var_args(func):
    """(referenced name without '--', fallback component values or None), or None if malformed."""
    ch = func.children
    k = 0
    while k < len(ch) and is_ws(ch[k]):
        k += 1
    if k >= len(ch) or not (isinstance(ch[k], Tok) and ch[k].kind == "ident" and ch[k].value.startswith("--")):
        return None
    name = ch[k].value
    k += 1
    while k < len(ch) and is_ws(ch[k]):
        k += 1
    if k == len(ch):
        return name, None
    if isinstance(ch[k], Tok) and ch[k].kind == ",":
        return name, strip_ws(ch[k + 1:])
    return None


def references(vals, out):
    for v in vals:
        if isinstance(v, Func):
            if v.name.lower() == "var":
                a = var_args(v)
                if a is not None:
                    out.add(a[0])
            references(v.children, out)
        elif isinstance(v, Block):
            references(v.children, out)
    return out


def cyclic_names(decls):
    """Names in a strongly connected component with a cycle (Tarjan, iterative)."""
    graph = {n: sorted(references(d.value, set()) & decls.keys()) for n, d in decls.items()}
    index, low, on, stack, result = {}, {}, set(), [], set()
    counter = [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, pi = work.pop()
            if pi == 0:
                index[node] = low[node] = counter[0]
                counter[0] += 1
                stack.append(node)
                on.add(node)
            recurse = False
            for k in range(pi, len(graph[node])):
                nxt = graph[node][k]
                if nxt not in index:
                    work.append((node, k + 1))
                    work.append((nxt, 0))
                    recurse = True
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            if recurse:
                continue
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1 or node in graph[node]:
                    result.update(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return result


class Resolver:
    def __init__(self, decls):
        self.decls = decls
        self.cyclic = cyclic_names(decls)
        self.memo = {}
        self.undefined_refs = {}   # referencing name -> sorted list of undefined names it needed
        self.fallbacks_used = []
        self.malformed = []

    def resolve(self, name):
        if name in self.memo:
            return self.memo[name]
        d = self.decls.get(name)
        if d is None or name in self.cyclic:
            return INVALID
        if (len(d.value) == 1 and isinstance(d.value[0], Tok) and d.value[0].kind == "ident"
                and d.value[0].value.lower() in CSS_WIDE_KEYWORDS):
            self.memo[name] = INVALID
            return INVALID
        self.memo[name] = INVALID  # guard; cycles are excluded above
        r = self.substitute(name, d.value)
        self.memo[name] = r
        return r

    def substitute(self, owner, vals):
        out = []
        for v in vals:
            if isinstance(v, Func) and v.name.lower() == "var":
                a = var_args(v)
                if a is None:
                    self.malformed.append(f"{owner[2:]}: {serialize([v])}")
                    return INVALID
                ref, fb = a
                r = self.resolve(ref)
                if r is INVALID:
                    if ref not in self.decls:
                        self.undefined_refs.setdefault(owner, set()).add(ref)
                    if fb is None:
                        return INVALID
                    self.fallbacks_used.append(f"{owner[2:]}: var({ref}, ...)")
                    r = self.substitute(owner, fb)
                    if r is INVALID:
                        return INVALID
                out.extend(r)
            elif isinstance(v, Func):
                c = self.substitute(owner, v.children)
                if c is INVALID:
                    return INVALID
                out.append(Func(v.name, v.open, c))
            elif isinstance(v, Block):
                c = self.substitute(owner, v.children)
                if c is INVALID:
                    return INVALID
                out.append(Block(v.open, c))
            else:
                out.append(v)
        return out


# ----------------------------------------------------------------------------------------------
# Colour

def round8(v):
    return int(math.floor(min(max(v, 0.0), 1.0) * 255 + 0.5))


def to_hex(coords, alpha):
    h = "#" + "".join(f"{round8(v):02x}" for v in coords)
    if alpha < 1:
        h += f"{round8(alpha):02x}"
    return h


def css_gamut_map(color):
    """CSS Color 4 §13.2.2 pseudo-code, transcribed (cross-check only); returns sRGB coords."""
    origin = color.convert("oklch", norm=False)
    L, C, H = origin.coords(nans=False)
    if L >= 1:
        return Color("oklab", [1, 0, 0], origin.alpha(nans=False)).convert("srgb").clip().coords()
    if L <= 0:
        return Color("oklab", [0, 0, 0], origin.alpha(nans=False)).convert("srgb").clip().coords()

    def in_gamut(c):
        return all(0 <= x <= 1 for x in c.convert("srgb", norm=False).coords(nans=False))

    def clip(c):
        s = c.convert("srgb", norm=False)
        return Color("srgb", [min(max(x, 0.0), 1.0) for x in s.coords(nans=False)], s.alpha(nans=False))

    if in_gamut(origin):
        return origin.convert("srgb", norm=False).coords(nans=False)
    jnd, eps = 0.02, 0.0001
    current = origin.clone()
    clipped = clip(current)
    if clipped.delta_e(current, method="ok") < jnd:
        return clipped.coords()
    lo, hi, lo_in = 0.0, C, True
    while hi - lo > eps:
        chroma = (lo + hi) / 2
        current = Color("oklch", [L, chroma, H], origin.alpha(nans=False))
        if lo_in and in_gamut(current):
            lo = chroma
            continue
        clipped = clip(current)
        e = clipped.delta_e(current, method="ok")
        if e < jnd:
            if jnd - e < eps:
                return clipped.coords()
            lo_in = False
            lo = chroma
        else:
            hi = chroma
    return clipped.coords()


def looks_like_color(vals):
    """A single component value that a reader might take for a colour."""
    sig = [v for v in vals if not is_ws(v)]
    if len(sig) != 1:
        return False
    v = sig[0]
    if isinstance(v, Func):
        return v.name.lower() in COLOR_FUNCTIONS
    return isinstance(v, Tok) and (v.kind == "hash" or (v.kind == "ident" and v.value.lower() in ("currentcolor", "transparent")))


# ----------------------------------------------------------------------------------------------

def main():
    files_out = {}
    stats = {}
    sources = {}
    cross = {"colors": 0, "hex_agree": 0, "max_component_difference": 0.0, "disagreements": []}
    method_check = {"colors": 0, "identical_to_oklch_chroma": 0}
    for rel, kind in SOURCES:
        path = REALWORLD / rel
        raw = path.read_bytes()
        sources[rel] = hashlib.sha256(raw).hexdigest()
        text, toks = tokenize(raw.decode("utf-8"))
        rules = Parser(text, toks).stylesheet()
        notes = {"unclassified": [], "nested_rules_ignored": []}
        themes = collect(kind, rules, notes)
        file_out = {}
        file_stats = {"themes": {}, "unclassified": notes["unclassified"],
                      "nested_rules_ignored": notes["nested_rules_ignored"]}
        for tname, th in themes.items():
            res = Resolver(th.decls)
            tokens = {}
            skipped, looked, oog = [], [], []
            for name in th.decls:
                r = res.resolve(name)
                key = name[2:]
                if r is INVALID:
                    skipped.append(f"{key}: invalid at computed-value time ({serialize(th.decls[name].value)})")
                    continue
                value = serialize(r)
                try:
                    c = Color(value)
                except ValueError:
                    skipped.append(f"{key}: {value}")
                    if looks_like_color(r):
                        looked.append(f"{key}: {value}")
                    continue
                s = c.convert("srgb")
                coords = s.coords(nans=False)
                alpha = c.alpha(nans=False)
                out_of_gamut = any(v < -GAMUT_TOLERANCE or v > 1 + GAMUT_TOLERANCE for v in coords)
                fitted = c.convert("srgb").fit("srgb", method=FIT_METHOD, **FIT_OPTIONS)
                fcoords = fitted.coords(nans=False)
                other = c.convert("srgb").fit("srgb", method="oklch-chroma").coords(nans=False)
                method_check["colors"] += 1
                if other == fcoords:
                    method_check["identical_to_oklch_chroma"] += 1
                mine = css_gamut_map(c)
                cross["colors"] += 1
                h = to_hex(fcoords, alpha)
                if to_hex(mine, alpha) == h:
                    cross["hex_agree"] += 1
                else:
                    cross["disagreements"].append(f"{rel} {tname} {key}: {h} vs {to_hex(mine, alpha)}")
                cross["max_component_difference"] = max(cross["max_component_difference"],
                                                        max(abs(a - b) for a, b in zip(fcoords, mine)))
                if out_of_gamut:
                    oog.append(key)
                tokens[key] = {"hex": h, "srgb": coords, "alpha": alpha, "out_of_gamut": out_of_gamut}
                if out_of_gamut:
                    tokens[key]["mapped"] = fcoords  # the gamut-mapped color at full precision
            file_out[tname] = tokens
            file_stats["themes"][tname] = {
                "blocks": th.blocks,
                "custom_property_declarations": th.declarations,
                "overridden_by_later_declarations": th.overridden,
                "kept_because_important": th.important_kept,
                "custom_properties": len(th.decls),
                "colors": len(tokens),
                "out_of_gamut": len(oog),
                "skipped_non_colors": len(skipped),
                "skipped_examples": skipped[:6],
                "looked_like_color_but_did_not_parse": looked,
                "undefined_references": {k[2:]: sorted(x[2:] for x in v) for k, v in sorted(res.undefined_refs.items())},
                "var_cycles": sorted(n[2:] for n in res.cyclic),
                "fallbacks_used": res.fallbacks_used,
                "malformed_var": res.malformed,
            }
        files_out[rel] = file_out
        stats[rel] = file_stats
    cross["max_component_difference"] = float(cross["max_component_difference"])
    header = {
        "generator": "scripts/gen-css-expected.py (own CSS tokenizer/parser; ColorAide for colour parsing, conversion and gamut mapping)",
        "coloraide": coloraide.__version__,
        "sources": sources,
        "sources_root": "../shared/realworld (relative to the repository root)",
        "conventions": CONVENTIONS,
        "gamut_mapping": {"method": FIT_METHOD, "options": FIT_OPTIONS, "oklch_chroma_check": method_check},
        "gamut_cross_check": cross,
        "stats": stats,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(dump({"header": header, "files": files_out}))
    return stats


def dump(doc):
    """Indented JSON with one token per line."""
    lines = ["{", '  "header": ' + json.dumps(doc["header"], indent=2, ensure_ascii=False).replace("\n", "\n  ") + ",", '  "files": {']
    files = list(doc["files"].items())
    for fi, (rel, themes) in enumerate(files):
        lines.append(f"    {json.dumps(rel)}: {{")
        tl = list(themes.items())
        for ti, (tname, toks) in enumerate(tl):
            lines.append(f"      {json.dumps(tname)}: {{")
            items = list(toks.items())
            for k, (name, v) in enumerate(items):
                lines.append(f"        {json.dumps(name)}: {json.dumps(v, separators=(', ', ': '))}" + ("," if k < len(items) - 1 else ""))
            lines.append("      }" + ("," if ti < len(tl) - 1 else ""))
        lines.append("    }" + ("," if fi < len(files) - 1 else ""))
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    st = main()
    for rel, fs in st.items():
        for tname, t in fs["themes"].items():
            print(f"{rel} [{tname}]: {len(t['blocks'])} blocks, {t['custom_property_declarations']} declarations, "
                  f"{t['custom_properties']} properties, {t['colors']} colors ({t['out_of_gamut']} out of gamut), "
                  f"{t['skipped_non_colors']} skipped", file=sys.stderr)
        for u in fs["unclassified"]:
            print(f"{rel}: unclassified: {u}", file=sys.stderr)
