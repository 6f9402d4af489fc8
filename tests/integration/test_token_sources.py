"""Token files as design systems keep them, through the real `contrast` binary and server.

The real-world systems are read from ../shared/realworld (never copied here); those tests skip,
saying so, when the folder is absent."""
import json

import pytest

from conftest import ROOT

REALWORLD = ROOT.parent / "shared" / "realworld"
needs_realworld = pytest.mark.skipif(not REALWORLD.is_dir(), reason=f"{REALWORLD} is absent: real design systems not audited")


def audit_json(run, *args):
    # These tests are about how sources are read: a source without checks is audited all the
    # same (--allow-empty), where a real audit of it would exit 2, having measured nothing.
    r = run("audit", *args, "--allow-empty", "--format", "json", timeout=300)
    assert r.returncode in (0, 1), (r.returncode, r.stderr[-2000:])
    return json.loads(r.stdout), r


@needs_realworld
def test_figma_sds_resolver_with_rule_checks(run, tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"checks": [
        {"id": "text", "foreground": "color.text.default.*", "background": "color.background.default.*", "except": ["*.tertiary*"]},
    ]}))
    report, r = audit_json(run, str(REALWORLD / "dtcg/figma-sds/sds.resolver.json"), "--checks", str(rules))
    palette = report["palettes"][0]
    assert palette["format"] == "DTCG resolver 2025.10; themes from theme (light, dark)"
    assert [t["name"] for t in palette["themes"]] == ["light", "dark"]
    assert palette["problems"] == []
    light = {x["id"]: x for x in palette["themes"][0]["results"]}
    # SDS light: gray.900, components 30/255, on white.1000; WCAG 2 computed here, independently.
    pair = light["text[color.text.default.default on color.background.default.default]"]
    assert (pair["foreground"]["hex"], pair["background"]["hex"]) == ("#1e1e1e", "#ffffff")
    expected = 1.05 / (((30 / 255 + 0.055) / 1.055) ** 2.4 + 0.05)
    assert abs(pair["ratio"] - expected) < 1e-9
    assert pair["foreground"]["file"].endswith("base/color.tokens.json")  # where the value is, after the alias
    assert pair["foreground"]["aliases"] == ["color.gray.900"]
    assert not any("tertiary" in key for key in light)  # "except" removed them
    # Directory form: the resolver defines the palette; its files are not audited one by one.
    directory, _ = audit_json(run, str(REALWORLD / "dtcg/figma-sds"), "--checks", str(rules))
    assert [p["name"] for p in directory["palettes"]] == ["Figma SDS"]


@needs_realworld
def test_primer_json5_sources_match_primers_own_build(run, tmp_path):
    """Primer's 37 JSON5 source files, aliases across them, its `alpha` property and its
    light overrides: every color of the light theme equals Primer's built value."""
    tokens = REALWORLD / "primer/src/tokens"
    shared = json.loads((REALWORLD / "primer/light.resolver.json").read_text())
    files = [s["$ref"] for s in shared["sets"]["light"]["sources"]]
    resolver = tmp_path / "primer.resolver.json"
    resolver.write_text(json.dumps({
        "version": "2025.10", "name": "primer",
        "sets": {"functional": {"sources": [{"$ref": str(tokens / f)} for f in files if not f.startswith("base/")]}},
        "modifiers": {"theme": {"contexts": {
            "light": [{"$ref": str(tokens / f)} for f in files if f.startswith("base/")],
            "dark": [{"$ref": str(tokens / "base/color/dark/dark.json5")}]}}},
        "resolutionOrder": [{"$ref": "#/modifiers/theme"}, {"$ref": "#/sets/functional"}]}))
    every = tmp_path / "every.json"
    every.write_text(json.dumps({"checks": [{"id": "all", "foreground": "*", "background": "bgColor.default", "usage": "decorative"}]}))
    # The resolver is written beside the test, its sources are Primer's: `--root` lets its
    # references read them (by default only the resolver's own folder is read).
    report, _ = audit_json(run, str(resolver), "--theme", "light", "--checks", str(every), "--root", str(tokens))
    light = next(t for t in report["palettes"][0]["themes"] if t["name"] == "light")
    refused = run("audit", str(resolver), "--format", "json")
    assert refused.returncode == 2 and "the folder of the file audited" in refused.stdout + refused.stderr
    ours = {x["foreground"]["token"]: x["foreground"]["hex"] for x in light["results"]}
    built = json.loads((REALWORLD / "primer/build-light-values.json").read_text())
    compared = {k: v.lower() for k, v in built.items() if isinstance(v, str) and v.startswith("#") and k in ours}
    assert len(compared) >= 800
    assert {k: ours[k] for k in compared if ours[k] != compared[k]} == {}
    # Primer's own contrast requirements, as its CI states them: the shipped light theme meets
    # most; the audit names the ones it does not.
    checks, r = audit_json(run, str(resolver), "--theme", "light", "--checks", str(REALWORLD / "primer/primer-src-light.checks.json"), "--root", str(tokens))
    summary = checks["palettes"][0]["themes"][0]["summary"]
    assert summary["checks"] == 243 and summary["pass"] >= 230


@needs_realworld
def test_a_resolver_naming_a_missing_file_is_a_located_problem(run):
    r = run("audit", str(REALWORLD / "primer/light.resolver.json"))
    assert r.returncode == 2
    first = next(line for line in r.stderr.splitlines() if line.startswith("error:"))
    assert "light.resolver.json:8:14: /sets/light/sources/0/$ref" in first and "base/color/light/light.json5" in first


@needs_realworld
def test_dtcg_spec_examples_read_with_their_hex_disagreements_warned(run):
    r = run("audit", str(REALWORLD / "dtcg/spec-examples/ex05.tokens.json"), "--allow-empty")
    assert r.returncode == 0, r.stderr
    assert 'warning: ' in r.stderr and '"hex" #ff00ff disagrees with its components, which give #ff0080' in r.stderr


def test_directory_search_groups_files_and_lists_what_it_skips(run, tmp_path):
    (tmp_path / "tokens").mkdir()
    (tmp_path / "tokens" / "base.json5").write_text("{color: {$type: 'color', ink: {$value: '#1f2328'}, paper: {$value: '#ffffff'}}}")
    (tmp_path / "tokens" / "semantic.tokens.json").write_text(json.dumps({"text": {"$type": "color", "$value": "{color.ink}"}}))
    (tmp_path / "package.json").write_text(json.dumps({"name": "ds", "version": "1.0.0"}))
    (tmp_path / "README.md").write_text("# ds")
    (tmp_path / "rules.json").write_text(json.dumps({"checks": [{"id": "t", "foreground": "text", "background": "color.paper"}]}))
    r = run("audit", str(tmp_path), "--checks", str(tmp_path / "rules.json"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"skipped  {tmp_path}/README.md: not a JSON, JSON5, .tokens or CSS file" in r.stdout
    assert f"skipped  {tmp_path}/package.json: not a palette or token file" in r.stdout
    # The checks document given with --checks is in use, not passed over.
    assert f"{tmp_path}/rules.json" not in r.stdout.split("\n\n")[0]
    assert "2 files merged in path order" in r.stdout
    assert "PASS  t  text on color.paper" in r.stdout


def test_warnings_do_not_change_the_exit_code_but_problems_do(run, tmp_path):
    path = tmp_path / "t.tokens.json"
    path.write_text(json.dumps({"a": {"$type": "color", "$value": "#000", "$description": "ink"}, "b": {"$type": "color", "$value": "#fff", "$extensions": {"org.example.note": "x"}}}))
    (tmp_path / "t.checks.json").write_text(json.dumps({"checks": [{"foreground": "a", "background": "b"}]}))
    r = run("audit", str(path))
    assert r.returncode == 0, r.stdout + r.stderr
    (tmp_path / "t.checks.json").write_text('{"checks": [\n  {"foreground": "aa", "background": "b"}\n]}')
    r = run("audit", str(path))
    assert r.returncode == 2 and f"{tmp_path}/t.checks.json:2:3" in r.stderr, r.stderr


def test_a_property_that_may_change_the_color_leaves_the_token_unresolved_until_declared_harmless(run, tmp_path):
    """A value the tool did not apply in full is unresolved, never measured: a wrong number with
    exit 0 is the worst bug. Declared harmless (ignoreProperties, --ignore-property), it is
    measured, and an assumption says so."""
    path = tmp_path / "t.tokens.json"
    path.write_text(json.dumps({"color": {"base": {"value": "#777777"}, "bg": {"value": "#ffffff"},
                                          "muted": {"value": "{color.base.value}", "modify": [{"type": "darken", "amount": 0.5}]}}}))
    (tmp_path / "t.checks.json").write_text(json.dumps({"checks": [{"id": "muted", "foreground": "color.muted", "background": "color.bg"}]}))
    r = run("audit", str(path), "--format", "json")
    assert r.returncode == 2, r.stdout + r.stderr
    palette = json.loads(r.stdout)["palettes"][0]
    assert palette["themes"][0]["results"] == []
    assert 'has the property "modify", which may change its color' in palette["themes"][0]["unresolved"][0]["problem"]
    for declared in (["--ignore-property", "modify"], []):
        if not declared:
            (tmp_path / "t.checks.json").write_text(json.dumps({"ignoreProperties": ["modify"], "checks": [{"id": "muted", "foreground": "color.muted", "background": "color.bg"}]}))
        r = run("audit", str(path), "--format", "json", *declared)
        assert r.returncode == 1, r.stdout + r.stderr  # measured: #777777 on white fails AA
        palette = json.loads(r.stdout)["palettes"][0]
        assert palette["themes"][0]["results"][0]["ratio"] < 4.5
        assert any('"modify" is not applied: declared harmless' in a["reason"] for a in palette["assumptions"]), palette["assumptions"]
    (tmp_path / "t.checks.json").write_text('{"checks": [\n  {"foreground": "aa", "background": "b"}\n]}')
    r = run("audit", str(path))
    assert r.returncode == 2 and f"{tmp_path}/t.checks.json:2:3" in r.stderr, r.stderr


def test_tokens_studio_folder_with_themes(run, tmp_path):
    folder = tmp_path / "studio"
    (folder / "theme").mkdir(parents=True)
    (folder / "core.json").write_text(json.dumps({"red": {"value": "#C14242", "type": "color"}, "white": {"value": "#ffffff", "type": "color"}}))
    (folder / "theme" / "light.json").write_text(json.dumps({"fg": {"value": "{red}", "type": "color", "$extensions": {"studio.tokens": {"modify": {"type": "darken", "value": "0.2", "space": "srgb"}}}}, "bg": {"value": "{white}", "type": "color"}}))
    (folder / "theme" / "dark.json").write_text(json.dumps({"fg": {"value": "rgba({white}, 0.8)", "type": "color"}, "bg": {"value": "#101010", "type": "color"}}))
    (folder / "$themes.json").write_text(json.dumps([
        {"id": "l", "name": "light", "selectedTokenSets": {"core": "source", "theme/light": "enabled"}},
        {"id": "d", "name": "dark", "selectedTokenSets": {"core": "source", "theme/dark": "enabled"}}]))
    (folder / "$metadata.json").write_text(json.dumps({"tokenSetOrder": ["core", "theme/light", "theme/dark"]}))
    (tmp_path / "rules.json").write_text(json.dumps({"checks": [{"id": "text", "foreground": "fg", "background": "bg"}]}))
    report, _ = audit_json(run, str(folder), "--checks", str(tmp_path / "rules.json"))
    palette = report["palettes"][0]
    assert palette["format"].startswith("Tokens Studio; 3 sets in order core, theme/light, theme/dark")
    results = {t["name"]: t["results"][0] for t in palette["themes"]}
    assert results["light"]["foreground"]["hex"] == "#9a3535"  # sd-transforms' own vector
    assert results["dark"]["foreground"]["hex"] == "#ffffffcc"


@pytest.fixture(scope="module")
def server(palettes_server):
    return palettes_server


def test_api_accepts_a_byte_order_mark_and_json5(server, run, tmp_path):
    bom = b'\xef\xbb\xbf{"name": "x", "themes": {"l": {"tokens": {"a": "#fff", "b": "#000"}}}, "checks": [{"foreground": "a", "background": "b"}]}'
    status, _, raw = server.request("POST", "/v1/audit", bom, headers={"Content-Type": "application/json"})
    assert status == 200, raw[:300]
    json5 = b"{name: 'x', // a comment\n themes: {l: {tokens: {a: '#fff', b: '#000',},},}, checks: [{foreground: 'a', background: 'b'}]}"
    status, _, raw = server.request("POST", "/v1/audit", json5, headers={"Content-Type": "application/json"})
    assert status == 200 and json.loads(raw)["palettes"][0]["summary"]["pass"] == 1, raw[:300]
    path = tmp_path / "bom.json"
    path.write_bytes(bom)
    assert run("audit", str(path)).returncode == 0


def _write(path, document):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))


def _colors(report, token):
    return {t["name"]: next(r["foreground"]["hex"] for r in t["results"] if r["foreground"]["token"] == token)
            for t in report["palettes"][0]["themes"]}


def test_sibling_folders_that_define_the_same_tokens_are_themes(run, tmp_path):
    """Kong's themes/NAME/ (a theme file and an alias file each): one theme per folder, not one
    merge in which the last folder silently wins. Files outside the folders are in every theme."""
    for name, ink in [("day", "#1f2328"), ("night", "#e6edf3")]:
        _write(tmp_path / "themes" / name / f"{name}.theme.json", {"ink": {"$type": "color", "$value": ink}, "paper": {"$type": "color", "$value": "#ffffff" if name == "day" else "#0d1117"}})
        _write(tmp_path / "themes" / name / f"{name}.alias.json", {"text": {"$type": "color", "$value": "{ink}"}, "surface": {"$type": "color", "$value": "{paper}"}})
    _write(tmp_path / "themes" / "brand.json", {"brand": {"$type": "color", "$value": "#0969da"}})
    (tmp_path / "rules.json").write_text(json.dumps({"checks": [{"id": "t", "foreground": "text", "background": "surface"}, {"id": "b", "foreground": "brand", "background": "surface"}]}))
    report, r = audit_json(run, str(tmp_path / "themes"), "--checks", str(tmp_path / "rules.json"))
    palette = report["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == ["day", "night"], palette["format"]
    assert "themes from the folders day/, night/" in palette["format"]
    assert _colors(report, "text") == {"day": "#1f2328", "night": "#e6edf3"}
    assert _colors(report, "brand") == {"day": "#0969da", "night": "#0969da"}
    assert palette["ledger"]["read"] == palette["ledger"]["colorDeclarations"] == 9


def test_brand_and_platform_folders_are_axes_and_a_platform_without_colors_is_fixed(run, tmp_path):
    """Style Dictionary's multi-brand example: brands/NAME/ and platforms/NAME/, which its build
    combines brand × platform. The brands hold colors: a theme each. The platforms hold sizes
    only: fixed to the first, and the others' tokens are in the ledger, not dropped. They were
    merged, and the last brand silently replaced the others."""
    for brand, ink in [("acme", "#3b5998"), ("zeta", "#c0392b")]:
        _write(tmp_path / "tokens" / "brands" / brand / "color.json", {"color": {"brand": {"value": ink, "type": "color"}}})
    for platform, height in [("android", "48dp"), ("ios", "44pt"), ("web", "40px")]:
        _write(tmp_path / "tokens" / "platforms" / platform / "button.json", {"button": {"height": {"value": height, "type": "dimension"}}})
    _write(tmp_path / "tokens" / "globals" / "color.json", {"color": {"paper": {"value": "#ffffff", "type": "color"}}})
    (tmp_path / "rules.json").write_text(json.dumps({"checks": [{"id": "t", "foreground": "color.brand", "background": "color.paper"}]}))
    report, r = audit_json(run, str(tmp_path / "tokens"), "--checks", str(tmp_path / "rules.json"))
    palette = report["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == ["acme", "zeta"], palette["format"]
    assert "platforms/android/, platforms/ios/, platforms/web/ fixed to android (their files hold no colors)" in palette["format"]
    assert _colors(report, "color.brand") == {"acme": "#3b5998", "zeta": "#c0392b"}
    ledger = palette["ledger"]
    assert ledger["read"] == ledger["colorDeclarations"] == 3 and ledger["notColors"] == 3, ledger


def test_two_axes_of_folders_that_both_hold_colors_are_their_product(run, tmp_path):
    for brand, ink in [("acme", "#3b5998"), ("zeta", "#c0392b")]:
        _write(tmp_path / "brands" / brand / "brand.json", {"ink": {"$type": "color", "$value": ink}})
    for mode, paper in [("dark", "#000000"), ("light", "#ffffff")]:
        _write(tmp_path / "modes" / mode / "mode.json", {"paper": {"$type": "color", "$value": paper}})
    (tmp_path / "rules.json").write_text(json.dumps({"checks": [{"id": "t", "foreground": "ink", "background": "paper"}]}))
    report, r = audit_json(run, str(tmp_path), "--checks", str(tmp_path / "rules.json"))
    palette = report["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == ["acme-dark", "acme-light", "zeta-dark", "zeta-light"], palette["format"]
    backgrounds = {t["name"]: t["results"][0]["background"]["hex"] for t in palette["themes"]}
    assert backgrounds == {"acme-dark": "#000000", "acme-light": "#ffffff", "zeta-dark": "#000000", "zeta-light": "#ffffff"}


def test_a_file_of_mode_overrides_is_a_theme_named_after_it(run, tmp_path):
    """Wikimedia Codex's layout: option tokens, decision tokens that alias them, and
    `modes/dark.json`, which only gives some decision tokens new values. Its build adds the mode
    as a source over the others: a theme `dark` beside the default, not one merge in which the
    dark values replace the light ones with a warning each (and not a theme that lacks the
    decision tokens the mode does not redefine). References are written Codex's way, `{ x }`."""
    _write(tmp_path / "themes" / "wikimedia-ui.json", {"color": {n: {"value": v} for n, v in [("white", "#ffffff"), ("gray900", "#202122"), ("gray1000", "#101418"), ("gray100", "#eaecf0"), ("blue", "#36c")]}})
    _write(tmp_path / "application.json", {
        "background-color": {"base": {"value": "{ color.white }"}, "neutral": {"value": "{ color.gray100 }"}},
        "color": {"base": {"value": "{ color.gray900 }"}, "progressive": {"value": "{ color.blue }"}, "inverted": {"value": "{ color.white }"}}})
    _write(tmp_path / "modes" / "dark.json", {"background-color": {"base": {"value": "{ color.gray1000 }"}}, "color": {"base": {"value": "{ color.gray100 }"}}})
    (tmp_path / "rules.json").write_text(json.dumps({"checks": [{"id": "t", "foreground": "color.base", "background": "background-color.base"},
                                                                 {"id": "p", "foreground": "color.progressive", "background": "background-color.base"}]}))
    report, r = audit_json(run, str(tmp_path), "--checks", str(tmp_path / "rules.json"))
    palette = report["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == ["default", "dark"], palette["format"]
    assert "a mode from modes/dark.json (2 tokens)" in palette["format"]
    backgrounds = {t["name"]: {x["id"]: x["background"]["hex"] for x in t["results"]} for t in palette["themes"]}
    assert backgrounds == {"default": {"t": "#ffffff", "p": "#ffffff"}, "dark": {"t": "#101418", "p": "#101418"}}
    assert _colors(report, "color.base") == {"default": "#202122", "dark": "#eaecf0"}
    assert not [w for w in palette.get("warnings", []) if "later definition" in w["message"]]
    ledger = palette["ledger"]
    assert ledger["notRead"] == [] and ledger["read"] == ledger["colorDeclarations"] == 12, ledger


def test_two_files_of_the_same_tokens_are_not_modes_of_each_other(run, tmp_path):
    """A mode redefines at most half of what the files under it define: a light and a dark file
    of the same tokens stay alternatives (each a theme), not one a mode over the other."""
    _write(tmp_path / "base.json", {"gray": {"0": {"value": "#ffffff"}, "9": {"value": "#111111"}}})
    _write(tmp_path / "light" / "color.json", {"ink": {"value": "{ gray.9 }"}, "paper": {"value": "{gray.0}"}})
    _write(tmp_path / "dark" / "color.json", {"ink": {"value": "{gray.0}"}, "paper": {"value": "{gray.9}"}})
    report, r = audit_json(run, str(tmp_path))
    assert [t["name"] for t in report["palettes"][0]["themes"]] == ["dark", "light"], report["palettes"][0]["format"]


def test_files_that_share_only_tokens_that_are_not_colors_are_not_color_themes(run, tmp_path):
    """Salesforce's Theo files each start with the same `global` block (`type`, `category`):
    `opacity.json`, `time.json` and `motion.json` share those names, not colors, so they are
    not themes of a color audit. One theme; the `global` names each file repeats are in the
    ledger as not colors, without a collision warning each."""
    for name, prop, value in [("opacity", "OPACITY_5", "0.5"), ("time", "DURATION_QUICKLY", "0.1s"), ("motion", "EASING", "ease-in")]:
        _write(tmp_path / "base" / f"{name}.json", {"global": {"type": name, "category": name}, "props": {prop: {"value": value}}})
    _write(tmp_path / "base" / "text.json", {"global": {"type": "color", "category": "text-color"}, "props": {"INK": {"value": "#111111"}, "PAPER": {"value": "#ffffff"}}})
    report, r = audit_json(run, str(tmp_path))
    palette = report["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == ["default"], palette["format"]
    assert not [w for w in palette.get("warnings", []) if "later definition" in w["message"]], palette["warnings"]
    assert palette["ledger"]["read"] == 2, palette["ledger"]


def test_files_that_cannot_be_told_apart_as_themes_are_merged_and_what_is_replaced_is_not_read(run, tmp_path):
    """Two groups of look-alike files that do not line up by folder are not guessed into themes:
    merged as before, and each replaced declaration is in the ledger as not read, with the
    definition that replaced it."""
    _write(tmp_path / "a" / "light.json", {"ink": {"$type": "color", "$value": "#111111"}})
    _write(tmp_path / "a" / "dark.json", {"ink": {"$type": "color", "$value": "#eeeeee"}})
    _write(tmp_path / "b" / "x.json", {"line": {"$type": "color", "$value": "#222222"}})
    _write(tmp_path / "c" / "y.json", {"line": {"$type": "color", "$value": "#dddddd"}})
    report, r = audit_json(run, str(tmp_path))
    palette = report["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == ["default"], palette["format"]
    ledger = palette["ledger"]
    assert ledger["colorDeclarations"] == 4 and ledger["read"] == 2
    reasons = {(e["name"], e["file"].split("/")[-1]): e["reason"] for e in ledger["notRead"]}
    assert set(reasons) == {("ink", "dark.json"), ("line", "x.json")}, reasons
    assert all("replaced by the later definition in" in reason for reason in reasons.values())


def test_a_tokens_studio_file_with_an_empty_themes_list_has_its_alternative_sets_as_themes(run, tmp_path):
    """Tokens Studio writes "$themes": [] before any theme is made (MetaMask's tokens.json)."""
    path = tmp_path / "tokens.json"
    path.write_text(json.dumps({"global": {"white": {"value": "#ffffff", "type": "color"}, "black": {"value": "#000000", "type": "color"}},
                                "light": {"bg": {"value": "{white}", "type": "color"}, "fg": {"value": "#222222", "type": "color"}},
                                "dark": {"bg": {"value": "{black}", "type": "color"}, "fg": {"value": "#dddddd", "type": "color"}},
                                "$themes": [], "$metadata": {"tokenSetOrder": ["global", "light", "dark"]}}))
    (tmp_path / "rules.json").write_text(json.dumps({"checks": [{"id": "t", "foreground": "fg", "background": "bg"}]}))
    report, r = audit_json(run, str(path), "--checks", str(tmp_path / "rules.json"))
    assert _colors(report, "fg") == {"light": "#222222", "dark": "#dddddd"}
    assert report["palettes"][0]["ledger"]["read"] == 6


def test_a_directory_with_nothing_to_audit_fails_and_a_stylesheet_without_properties_is_skipped(run, tmp_path):
    """A CI job pointed at a folder of YAML (or TypeScript) tokens must not pass with exit 0
    having audited nothing; a stylesheet with no custom property (typography classes) beside
    token files is listed as skipped, not a problem."""
    (tmp_path / "yaml").mkdir()
    (tmp_path / "yaml" / "color.yaml").write_text("color:\n  ink: '#111111'\n")
    r = run("audit", str(tmp_path / "yaml"))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "the directory holds no palette or token files" in r.stderr and "1 file was skipped" in r.stderr
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "tokens.css").write_text(":root { --ink: #111111; --paper: #ffffff }\n")
    (tmp_path / "css" / "typography.css").write_text(".body-1 { font-size: 1rem; color: #333 }\n")
    r = run("audit", str(tmp_path / "css"))
    # Its tokens have no checks: read, and not a pass (nothing was measured).
    assert r.returncode == 2 and "tokens.css has 2 color tokens and no checks: nothing was measured" in r.stderr, r.stdout + r.stderr
    r = run("audit", str(tmp_path / "css"), "--allow-empty")
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"skipped  {tmp_path}/css/typography.css: a stylesheet that declares no custom properties" in r.stdout


def test_an_override_layer_is_a_mode_over_its_base_not_an_alternative_to_it(run, tmp_path):
    """Astro's theme/light.json overrides a few of base.json's many tokens: a mode over the base
    (theme `light`, every base token with its five values over them) beside the base itself
    (`default`), not an alternative that lacks the other 35 tokens, and not one merge in which
    the base's five values are audited nowhere."""
    _write(tmp_path / "base.json", {f"c{i}": {"value": "#%06x" % (i * 4099), "type": "color"} for i in range(40)})
    _write(tmp_path / "theme" / "light.json", {f"c{i}": {"value": "#ffffff", "type": "color"} for i in range(5)})
    report, r = audit_json(run, str(tmp_path))
    palette = report["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == ["default", "light"], palette["format"]
    assert palette["ledger"]["notRead"] == [] and palette["ledger"]["read"] == 45


def test_color_channels_that_name_plain_data_in_other_files_are_read(run, tmp_path):
    """Style Dictionary's transitive-transforms example: {h, s, l} channels are references to
    numbers in files that hold no tokens (hue.json5, an array in saturation.json5)."""
    (tmp_path / "hue.json5").write_text("{hue: {red: 0, blue: 225}}")
    (tmp_path / "saturation.json5").write_text("{saturation: [100, 50]}")
    _write(tmp_path / "color.json", {"color": {"red": {"value": {"h": "{hue.red}", "s": "{saturation.1}", "l": 50}, "type": "color"},
                                               "white": {"value": "#ffffff", "type": "color"},
                                               "lost": {"value": {"h": "{hue.green}", "s": 50, "l": 50}, "type": "color"}}})
    (tmp_path / "rules.json").write_text(json.dumps({"checks": [{"id": "r", "foreground": "color.red", "background": "color.white"}]}))
    r = run("audit", str(tmp_path), "--checks", str(tmp_path / "rules.json"), "--format", "json", timeout=120)
    palette = json.loads(r.stdout)["palettes"][0]
    # A channel naming nothing is not guessed: that color is not read, and says why.
    assert r.returncode == 2 and any("color.lost" in p["message"] for p in palette["problems"]), palette["problems"]
    color = json.loads((tmp_path / "color.json").read_text())
    del color["color"]["lost"]
    _write(tmp_path / "color.json", color)
    report, r = audit_json(run, str(tmp_path), "--checks", str(tmp_path / "rules.json"))
    result = report["palettes"][0]["themes"][0]["results"][0]
    assert result["foreground"]["hex"] == "#bf4040", result["foreground"]


def test_sources_beside_the_file_they_build_are_not_modes_of_it(run, tmp_path):
    """Found by a review: Primer's source files sit beside build-light-values.json, which holds
    every token they define; each was taken for a "mode" of it (136 themes, a `dark` theme with
    light text). Files that each redefine different tokens of one file are its pieces, not its
    modes; a file of sizes whose one alias names a size holds no color and is no theme."""
    (tmp_path / "src").mkdir()
    (tmp_path / "built.json").write_text(json.dumps({"fg.default": "#1f2328", "bg.default": "#ffffff", "fg.muted": "#59636e", "bg.muted": "#f6f8fa"}))
    (tmp_path / "src" / "light.json").write_text(json.dumps({"base": {"black": {"$type": "color", "$value": "#1f2328"}, "white": {"$type": "color", "$value": "#ffffff"}}}))
    (tmp_path / "src" / "dark.json").write_text(json.dumps({"base": {"black": {"$type": "color", "$value": "#010409"}, "white": {"$type": "color", "$value": "#f0f6fc"}}}))
    (tmp_path / "src" / "fg.json").write_text(json.dumps({"fg": {"default": {"$type": "color", "$value": "{base.black}"}}}))
    (tmp_path / "src" / "bg.json").write_text(json.dumps({"bg": {"default": {"$type": "color", "$value": "{base.white}"}}}))
    r = run("audit", str(tmp_path), "--format", "json")
    themes = [t["name"] for p in json.loads(r.stdout)["palettes"] for t in p["themes"]]
    assert not any(name in ("fg", "bg") or name.endswith(("-fg", "-bg")) for name in themes), themes

    sizes = tmp_path / "sizes"
    sizes.mkdir()
    (sizes / "a.json").write_text(json.dumps({"color": {"fg": {"value": "#000000"}, "bg": {"value": "#ffffff"}},
                                              "size": {"font": {"small": {"value": "0.75"}, "medium": {"value": "1"}, "base": {"value": "{size.font.medium}"}}}}))
    (sizes / "font.json").write_text(json.dumps({"size": {"font": {"small": {"value": "0.8"}, "base": {"value": "{size.font.medium}"}}}}))
    r = run("audit", str(sizes), "--format", "json")
    themes = [t["name"] for p in json.loads(r.stdout)["palettes"] for t in p["themes"]]
    assert "font" not in themes, themes
