"""Stylesheets as palettes, through the real `contrast` binary and server: Tailwind v4's default
theme and Primer's CSS builds as their repositories ship them, against values computed
independently (ColorAide 8.13.1 and a separate var() resolver: scripts/gen-css-expected.py,
data/css_sources_expected.json).

The stylesheets are read from ../shared/realworld (never copied here); those tests skip,
saying so, when the folder is absent."""
import glob
import hashlib
import json
import re
import shutil

import pytest

from conftest import ROOT
from server import Server

REALWORLD = ROOT.parent / "shared" / "realworld"
EXPECTED = json.loads((ROOT / "tests" / "integration" / "data" / "css_sources_expected.json").read_text())
needs_realworld = pytest.mark.skipif(not REALWORLD.is_dir(), reason=f"{REALWORLD} is absent: real stylesheets not audited")


def luminance(srgb):
    def channel(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = srgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def components(token):
    """A token's sRGB as measured: the color itself, or its gamut mapping, at full precision."""
    return token["mapped"] if token["out_of_gamut"] else token["srgb"]


def ratio(a, b):
    la, lb = sorted((luminance(components(a)), luminance(components(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def agrees(measured, a, b):
    """Equal to 1e-9 for colors inside sRGB; a gamut-mapped color is the end of a binary search
    whose last step two implementations may take a hair apart, so 1e-4 there."""
    tolerance = 1e-9 if not (a["out_of_gamut"] or b["out_of_gamut"]) else 1e-4
    return abs(measured - ratio(a, b)) <= tolerance


@pytest.fixture(scope="module")
def server(binary, tmp_path_factory):
    palettes = tmp_path_factory.mktemp("css") / "palettes"
    palettes.mkdir()
    s = Server(binary, str(palettes), "--max-connections-per-ip", "0")
    yield s
    assert s.stop() == 0, s.logs()


@needs_realworld
@pytest.mark.parametrize("source", sorted(EXPECTED["files"]))
def test_every_color_token_matches_the_independent_values(server, source):
    path = REALWORLD / source
    # The expectations were computed from these very bytes.
    assert hashlib.sha256(path.read_bytes()).hexdigest() == EXPECTED["header"]["sources"][source]
    status, _, listing = server.json("POST", "/v1/tokens?name=x", path.read_bytes(), headers={"Content-Type": "text/css"})
    assert status == 200 and listing["problems"] == [], listing["problems"][:5]
    expected = EXPECTED["files"][source]
    assert [t["name"] for t in listing["themes"]] == list(expected)
    for theme in listing["themes"]:
        want = expected[theme["name"]]
        got = {t["name"]: t for t in theme["tokens"]}
        assert set(got) == set(want), (sorted(set(got) ^ set(want))[:10])
        wrong = [(name, got[name]["hex"], w["hex"]) for name, w in want.items() if got[name]["hex"] != w["hex"]]
        assert not wrong, wrong[:10]
        flagged = {name for name, t in got.items() if t.get("outOfGamut")}
        assert flagged == {name for name, w in want.items() if w["out_of_gamut"]}


@needs_realworld
def test_tailwind_theme_audits_as_shipped(run, tmp_path):
    """Tailwind's own scale as text on its own whites, with a rule check over the custom-property
    names (written with their --): every ratio equals the independent computation."""
    theme = tmp_path / "theme.css"
    shutil.copy(REALWORLD / "tailwind" / "theme.css", theme)
    (tmp_path / "theme.checks.json").write_text(json.dumps({"checks": [
        {"id": "text-on-white", "foreground": "--color-*-700", "background": "--color-white"}]}))
    r = run("audit", str(theme), "--format", "json", timeout=120)
    assert r.returncode in (0, 1), r.stderr
    report = json.loads(r.stdout)["palettes"][0]
    assert report["format"] == "CSS custom properties" and report["problems"] == []
    results = report["themes"][0]["results"]
    want = EXPECTED["files"]["tailwind/theme.css"]["light"]
    assert len(results) == len([n for n in want if n.endswith("-700")]) == 26
    for result in results:
        fg = result["foreground"]["token"]
        assert result["foreground"]["hex"] == want[fg]["hex"]
        assert agrees(result["ratio"], want[fg], want["color-white"]), (fg, result["ratio"], ratio(want[fg], want["color-white"]))


@needs_realworld
def test_primer_light_and_dark_builds_audit_as_shipped(run, tmp_path):
    """Primer's light and dark CSS builds, each a palette, with Primer-style rule checks: every
    ratio equals the independent computation, and the text output names each file and theme."""
    themes = REALWORLD / "primer" / "dist" / "css" / "functional" / "themes"
    checks = tmp_path / "checks.json"
    checks.write_text(json.dumps({"checks": [
        {"id": "fg-on-bg", "foreground": "fgColor-*", "background": "bgColor-*",
         "except": ["*-disabled", "fgColor-onEmphasis", "fgColor-onInverse", "bgColor-*-emphasis", "bgColor-inverse", "bgColor-transparent", "bgColor-black", "bgColor-white", "fgColor-black", "fgColor-white"]}]}))
    r = run("audit", str(themes / "light.css"), str(themes / "dark.css"), "--checks", str(checks), "--format", "json", timeout=300)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    palettes = json.loads(r.stdout)["palettes"]
    assert [(p["name"], [t["name"] for t in p["themes"]]) for p in palettes] == [("light", ["light"]), ("dark", ["dark"])]
    for palette, source in zip(palettes, ["primer/dist/css/functional/themes/light.css", "primer/dist/css/functional/themes/dark.css"]):
        want = EXPECTED["files"][source][palette["themes"][0]["name"]]
        results = palette["themes"][0]["results"]
        assert len(results) > 100
        for result in results:
            fg, bg = result["foreground"], result["background"]
            assert fg["hex"] == want[fg["token"]]["hex"] and bg["hex"] == want[bg["token"]]["hex"]
            if want[fg["token"]]["alpha"] == 1 and want[bg["token"]]["alpha"] == 1:
                assert agrees(result["ratio"], want[fg["token"]], want[bg["token"]]), result["id"]
    text = run("audit", str(themes / "dark.css"), "--checks", str(checks)).stdout
    assert "read as CSS custom properties" in text and "theme dark" in text


def test_a_stylesheet_over_http(server):
    css = b""":root { --fg: #1f2328; --bg: #ffffff; }
@media (prefers-color-scheme: dark) { :root { --fg: #f0f6fc; --bg: #0d1117; } }
.card { --shadow: #000; }
"""
    status, _, listing = server.json("POST", "/v1/tokens?name=mine", css, headers={"Content-Type": "text/css"})
    assert status == 200 and [t["name"] for t in listing["themes"]] == ["light", "dark"]
    assert [t["name"] for t in listing["themes"][1]["tokens"]] == ["fg", "bg"]
    # The scoped .card block is a warning at its line, not a token.
    status, _, audit = server.json("POST", "/v1/audit?name=mine", css, headers={"Content-Type": "text/css"})
    assert status == 200
    assert [(p["severity"], p["location"]["line"]) for p in audit["palettes"][0]["warnings"]] == [("warning", 3)]
    status, _, body = server.json("POST", "/v1/audit?name=mine", b":root { --bad: #12; }", headers={"Content-Type": "text/css"})
    assert status == 422 and body["problems"][0]["location"]["line"] == 1 and "#12" in body["problems"][0]["message"]


def test_a_served_stylesheet_is_proposed_against(binary, tmp_path):
    """A stylesheet in the service's palettes directory, with its sidecar checks: served as CSS,
    audited, and a changed copy posted as text/css is compared with it."""
    palettes = tmp_path / "palettes"
    palettes.mkdir()
    (palettes / "site.css").write_text(":root { --fg: #595959; --bg: #ffffff; }\n.dark { --fg: #8b949e; --bg: #0d1117; }\n")
    (palettes / "site.checks.json").write_text(json.dumps({"checks": [{"id": "body", "foreground": "--fg", "background": "--bg"}]}))
    s = Server(binary, str(palettes), "--max-connections-per-ip", "0")
    try:
        status, headers, raw = s.request("GET", "/v1/palettes/site")
        assert status == 200 and headers["Content-Type"].startswith("text/css") and raw.startswith(b":root")
        status, _, audit = s.json("GET", "/v1/palettes/site/audit")
        assert status == 200 and audit["summary"]["checks"] == 2 and audit["summary"]["fail"] == 0
        worse = b":root { --fg: #959595; --bg: #ffffff; }\n.dark { --fg: #8b949e; --bg: #0d1117; }\n"
        status, _, proposal = s.json("POST", "/v1/palettes/site/proposals", worse, headers={"Content-Type": "text/css"})
        assert status == 200, proposal
        assert proposal["proposed"]["fail"] == 1 and proposal["comparison"]["regressions"][0]["key"] == "site/light/body"
    finally:
        assert s.stop() == 0, s.logs()


DESIGNSYSTEMET = ROOT.parent / "shared" / "realworld2" / "digdir" / "packages" / "theme" / "brand"


def test_designsystemet_color_scheme_and_color_are_axes(server):
    """Designsystemet's built CSS varies along [data-color-scheme] × [data-color]: each theme is
    one scheme with one color, as the browser computes it when the root carries both
    attributes; [data-color-scheme="auto"] under the light and dark preference queries is two
    schemes; [data-size] and [data-typography] hold no colors and stay at their default."""
    path = DESIGNSYSTEMET / "altinn.css"
    if not path.exists():
        pytest.skip(f"{path} is absent: Designsystemet's stylesheet not audited")
    status, _, listing = server.json("POST", "/v1/tokens?name=altinn", path.read_bytes(), headers={"Content-Type": "text/css"})
    assert status == 200, listing
    colors = ["accent", "brand1", "brand2", "brand3", "danger", "info", "neutral", "success", "warning"]
    schemes = ["light", "auto-light", "auto-dark", "dark"]
    assert [t["name"] for t in listing["themes"]] == [f"{s}-{c}" for s in schemes for c in colors]
    tokens = {t["name"]: {k["name"]: k for k in t["tokens"]} for t in listing["themes"]}
    # By hand from the file: [data-color="brand1"], [data-color-scheme][data-color="brand1"]
    # (line 994) sets --ds-color-base-default: var(--ds-color-brand1-base-default), which the
    # dark scheme (line 608) and the auto scheme under a dark preference (line 761) set to
    # #4d91cf, and the light scheme (line 137) to #0162BA; accent's is #4c91cf in dark (576).
    assert tokens["dark-brand1"]["ds-color-base-default"]["hex"] == "#4d91cf"
    assert tokens["auto-dark-brand1"]["ds-color-base-default"]["hex"] == "#4d91cf"
    assert tokens["light-brand1"]["ds-color-base-default"]["hex"] == "#0162ba"
    assert tokens["dark-accent"]["ds-color-base-default"]["hex"] == "#4c91cf"
    assert tokens["dark-brand1"]["ds-color-background-default"]["hex"] == "#0c1927"
    status, _, audit = server.json("POST", "/v1/audit?name=altinn", path.read_bytes(), headers={"Content-Type": "text/css"})
    assert status == 200
    fmt = audit["palettes"][0]["format"]
    assert "data-size fixed to its default (no colors)" in fmt and "data-typography fixed to its default (no colors)" in fmt


OPEN_PROPS = ROOT.parent / "shared" / "realworld2" / "open-props" / "src"


def open_props(*parts):
    path = OPEN_PROPS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: Open Props not audited")
    return path


def test_open_props_where_html_is_the_root(server):
    """Open Props writes its scales on `:where(html)`: the root, read as `html`; each of the 13
    grays is a token of the base theme, with the value the file gives it."""
    path = open_props("props.gray.css")
    status, _, listing = server.json("POST", "/v1/tokens?name=gray", path.read_bytes(), headers={"Content-Type": "text/css"})
    assert status == 200 and listing["problems"] == [], listing["problems"][:5]
    assert [t["name"] for t in listing["themes"]] == ["light"]
    tokens = {t["name"]: t["hex"] for t in listing["themes"][0]["tokens"]}
    assert len(tokens) == 13 and tokens["gray-0"] == "#f8f9fa" and tokens["gray-12"] == "#030507"


def test_open_props_dark_theme_file_is_a_dark_theme(run):
    """theme.dark.css: `:where(html) { color-scheme: dark; --link: var(--indigo-3); … }` is the
    dark base; the grays it names are another file's, so each is not read, with the reason; the
    button rules nested in it (`& :where(button,.btn)`) stay scoped."""
    path = open_props("extra", "theme.dark.css")
    palette = json.loads(run("audit", str(path), "--format", "json").stdout)["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == ["dark"]
    not_read = {(e["name"], e["line"]): e["reason"] for e in palette["ledger"]["notRead"]}
    assert not_read[("link", 4)] == "--indigo-3 is not defined in theme 'dark' nor in any stylesheet this one reads or imports (a stylesheet loaded beside this one must define it), and var(--indigo-3) has no fallback"
    # The button rule's declarations share a reason, so they are one entry naming them.
    scoped = [e for e in palette["ledger"]["notRead"] if "_bg" in (e.get("names") or [e["name"]]) and 23 in (e.get("lines") or [e["line"]])]
    assert len(scoped) == 1 and scoped[0]["reason"].startswith("custom properties of ':where(html) :where(button,.btn)' are scoped to those elements"), scoped


def test_open_props_theme_imports_its_light_theme_and_custom_media(run):
    """theme.css imports ../props.media.css (where --OSdark is defined) and theme.light.css
    (its `:where(html)` base), then writes its dark theme under `@media (--OSdark)`: read as a
    light and a dark theme, each declaration at its own file and line. The grays and indigos
    they name are in props.*.css, which theme.css does not import: not read, with the reason.
    The imported files are part of theme.css's palette, not audited again on their own."""
    theme = open_props("extra", "theme.css")
    report = json.loads(run("audit", str(OPEN_PROPS.parent), "--format", "json").stdout)
    palette = next(p for p in report["palettes"] if p["file"] == str(theme))
    assert [t["name"] for t in palette["themes"]] == ["light", "dark"]
    # Its own file, then the imported ones in cascade order.
    assert palette["files"] == [str(theme), str(OPEN_PROPS / "props.media.css"), str(OPEN_PROPS / "extra" / "theme.light.css")]
    not_read = {(e["file"].split("/")[-1], e["line"], e["name"]): e["reason"] for e in palette["ledger"]["notRead"]}
    # The dark block of theme.css (line 6: @media (--OSdark) { :where(html) { … } }) is the dark theme.
    # The folder's props.indigo.css defines them: read in the same run, it is named, with how to
    # read the two together (the theme is still read as a browser reads it alone).
    def beside(name, file):
        return (f"; {OPEN_PROPS / file}, read in the same run, defines --{name}: a page that loads it with this stylesheet "
                "gives the property its value (audit them together from one stylesheet that @imports both)")
    assert not_read[("theme.css", 8, "link")] == "--indigo-3 is not defined in theme 'dark' nor in any stylesheet this one reads or imports (a stylesheet loaded beside this one must define it), and var(--indigo-3) has no fallback" + beside("indigo-3", "props.indigo.css")
    assert not_read[("theme.light.css", 6, "link")] == "--indigo-7 is not defined in theme 'light' nor in any stylesheet this one reads or imports (a stylesheet loaded beside this one must define it), and var(--indigo-7) has no fallback" + beside("indigo-7", "props.indigo.css")
    # --HDcolor is defined in props.media.css: what it stands for is said.
    assert not_read[("theme.light.css", 21, "link")] == ("custom properties under @media (--HDcolor), that is @media (dynamic-range: high) "
                                                        "or (color-gamut: p3), apply to some devices only; not read as a theme")
    skipped = {s["file"]: s["reason"] for s in report.get("skipped", [])}
    for imported in ["extra/theme.light.css", "props.media.css"]:
        assert skipped[str(OPEN_PROPS / imported)] == f"imported by {theme}, whose palette it is part of"
    assert not any(p["file"] == str(OPEN_PROPS / "props.media.css") for p in report["palettes"])


def test_shadcn_globals_imports_are_said(run):
    """shadcn's globals.css imports Tailwind and two packages by name, and a file that is not in
    the folder: each a warning at its line, none silently dropped."""
    path = ROOT.parent / "shared" / "realworld2" / "shadcn" / "globals.css"
    if not path.exists():
        pytest.skip(f"{path} is absent: shadcn not audited")
    palette = json.loads(run("audit", str(path), "--format", "json").stdout)["palettes"][0]
    warnings = [(w["location"]["line"], w["message"]) for w in palette["warnings"] if w["message"].startswith("@import")]
    folder = path.parent
    assert warnings == [
        (1, f'@import "tailwindcss" is not read: no such file or directory ({folder}/tailwindcss); if it names a package, a build tool resolves that, not this tool'),
        (2, f'@import "tw-animate-css" is not read: no such file or directory ({folder}/tw-animate-css); if it names a package, a build tool resolves that, not this tool'),
        (3, f'@import "shadcn/tailwind.css" is not read: no such file or directory ({folder}/shadcn/tailwind.css); if it names a package, a build tool resolves that, not this tool'),
        (4, f'@import "./legacy-themes.css" is not read: no such file or directory ({folder}/legacy-themes.css)'),
    ]


def test_a_posted_stylesheet_that_imports(binary, tmp_path):
    """A served stylesheet that imports its tokens from a file beside it. A proposal replaces the
    served file: its imports resolve as the served file's do, inside the palettes directory (and
    never outside it). A stylesheet posted to /v1/audit has no directory: its imports are listed
    as not read, each at its line, and its own declarations are read."""
    palettes = tmp_path / "palettes"
    palettes.mkdir()
    (palettes / "tokens.css").write_text(":root { --gray-7: #595959; --white: #ffffff; --gray-5: #959595; }\n")
    (tmp_path / "secret.css").write_text(":root { --gray-7: #000000; }\n")
    (palettes / "site.css").write_text('@import "tokens.css";\n:root { --fg: var(--gray-7); --bg: var(--white); }\n')
    (palettes / "site.checks.json").write_text(json.dumps({"checks": [{"id": "body", "foreground": "--fg", "background": "--bg"}]}))
    s = Server(binary, str(palettes), "--max-connections-per-ip", "0")
    try:
        status, _, audit = s.json("GET", "/v1/palettes/site/audit")
        assert status == 200 and audit["summary"]["pass"] == 1, audit
        worse = b'@import "tokens.css";\n:root { --fg: var(--gray-5); --bg: var(--white); }\n'
        status, _, proposal = s.json("POST", "/v1/palettes/site/proposals", worse, headers={"Content-Type": "text/css"})
        assert status == 200, proposal
        assert proposal["proposed"]["fail"] == 1 and proposal["comparison"]["regressions"][0]["key"] == "site/light/body"
        # An import that leads out of the palettes directory is not followed, and says so.
        outside = b'@import "../secret.css";\n:root { --fg: #595959; --bg: #ffffff; }\n'
        status, _, proposal = s.json("POST", "/v1/palettes/site/proposals", outside, headers={"Content-Type": "text/css"})
        assert status == 200, proposal
        warnings = [(w["location"]["line"], w["message"]) for w in proposal["audit"]["palettes"][0]["warnings"] if w["message"].startswith("@import")]
        assert warnings == [(1, f'@import "../secret.css" is not read: it leads outside {palettes}, the directory the stylesheet was read from (audit a directory that holds both to follow it)')], warnings
        # Posted on its own, the body has no directory: the import is not read, the rest is.
        body = b'@import "tokens.css";\n:root { --fg: #595959; --bg: #ffffff; }\n'
        status, _, report = s.json("POST", "/v1/audit?name=mine", body, headers={"Content-Type": "text/css"})
        assert status == 200, report
        palette = report["palettes"][0]
        assert [(w["location"]["line"], w["message"]) for w in palette["warnings"] if w["message"].startswith("@import")] == [
            (1, '@import "tokens.css" is not read: a stylesheet sent on its own cannot import other files; audit the folder with the CLI, or put the imported rules in the stylesheet')]
        assert palette["ledger"]["read"] == 2, palette["ledger"]
    finally:
        assert s.stop() == 0, s.logs()


NOWHERE = " nor in any stylesheet this one reads or imports (a stylesheet loaded beside this one must define it)"
DESIGNSYSTEMET_TAILWIND = sorted(glob.glob(str(ROOT.parent / "shared" / "realworld2" / "digdir" / "packages" / "theme" / "**" / "*.tailwind.css"), recursive=True))


@pytest.mark.parametrize("path", DESIGNSYSTEMET_TAILWIND, ids=lambda p: p.split("/")[-1])
def test_designsystemet_tailwind_maps_onto_another_stylesheet(run, path):
    """Designsystemet's `*.tailwind.css` is a Tailwind v4 `@theme` that maps Tailwind's names onto
    the `--ds-*` properties of the theme stylesheet a page loads beside it (`digdir.css`), plus a
    `[data-color]` block for elements. Read alone, as a Tailwind build would emit it, no value
    resolves: every declaration is listed as not read, at its own line, with that reason."""
    r = run("audit", path, "--format", "json")
    palette = json.loads(r.stdout)["palettes"][0]
    ledger = palette["ledger"]
    lines = open(path).read().split("\n")
    declared = {(m.group(1), i + 1) for i, line in enumerate(lines) for m in re.finditer(r"(?<![\w-])--([\w-]+)\s*:", line)}
    # The declarations of one rule not read for one reason are one entry: its lines are theirs.
    entries = ledger["notRead"]
    assert ledger["read"] == 0 and ledger["notColors"] == 0, ledger
    assert sum(e.get("count", 1) for e in entries) == len(declared) == ledger["colorDeclarations"], ledger | {"declared": len(declared)}
    declared_lines = {line for _, line in declared}
    listed_lines = [line for e in entries for line in (e.get("lines") or [e["line"]])]
    assert sorted(listed_lines) == sorted(declared_lines), sorted(set(listed_lines) ^ declared_lines)
    declared_names = {name for name, _ in declared}
    assert all(set(e.get("names") or [e["name"]]) <= declared_names for e in entries)
    scoped = "custom properties of '[data-color]' are scoped to those elements; not read as tokens (themes come from :root, html, body and their classes and attributes)"
    for e in entries:
        for line in e.get("lines") or [e["line"]]:
            target = re.search(r"var\((--[\w-]+)\)", lines[line - 1]).group(1)
            reason = e["reason"]
            assert reason == scoped or reason == f"{target} is not defined in theme 'light'{NOWHERE}, and var({target}) has no fallback", (e["name"], line, reason)
