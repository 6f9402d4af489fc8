"""Every declaration accounted for: on every real design system under ../shared/realworld*/,
the read ledger's count (colors read + not read + not colors) equals the file's own count of
declarations, counted here independently of the tool's readers. A reader that drops a token
without a word fails this test. The real systems are read from ../shared (never copied here);
the tests skip, saying so, when a folder is absent."""
import glob
import json
import os
import re

import pytest

from conftest import ROOT

SHARED = ROOT.parent / "shared"


def real(*parts):
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: real design systems not audited")
    return path


def ledger_of(run, path):
    r = run("audit", str(path), "--format", "json", timeout=300)
    assert r.returncode in (0, 1, 2), r.stderr[-2000:]
    report = json.loads(r.stdout)
    return {p["file"]: p.get("ledger") for p in report["palettes"]}, report


def dtcg_leaves(value):
    """Token objects (those with a $value) in a DTCG tree."""
    if not isinstance(value, dict):
        return 0
    if "$value" in value:
        return 1
    return sum(dtcg_leaves(v) for k, v in value.items() if not k.startswith("$"))


def resolver_files(resolver):
    """The files a resolver document names, relative to it."""
    text = resolver.read_text()
    names = set(re.findall(r'"\$ref"\s*:\s*"([^"#]+\.json)"', text))
    return [resolver.parent / name for name in sorted(names)]


RESOLVERS = [("realworld", "dtcg", "figma-sds", "sds.resolver.json"),
             ("realworld2", "dtcg-examples", "adobe-spectrum.resolver.json"),
             ("realworld2", "dtcg-examples", "apple-hig.resolver.json"),
             ("realworld2", "dtcg-examples", "ibm-carbon.resolver.json"),
             ("realworld2", "dtcg-examples", "microsoft-fluent.resolver.json"),
             ("realworld2", "dtcg-examples", "shopify-polaris.resolver.json")]


@pytest.mark.parametrize("parts", RESOLVERS, ids=[p[-1] for p in RESOLVERS])
def test_every_token_a_resolver_names_is_accounted_for(run, parts):
    resolver = real(*parts)
    expected = sum(dtcg_leaves(json.loads(f.read_text())) for f in resolver_files(resolver))
    ledgers, _ = ledger_of(run, resolver)
    ledger = ledgers[str(resolver)]
    assert ledger["colorDeclarations"] + ledger["notColors"] == expected, ledger | {"expected": expected}


def test_every_color_set_of_every_asset_catalog_is_accounted_for(run):
    root = real("realworld2", "mastodon")
    for catalog in sorted(glob.glob(str(root / "**" / "*.xcassets"), recursive=True)):
        expected = len(glob.glob(os.path.join(catalog, "**", "*.colorset"), recursive=True))
        if expected == 0:
            continue
        ledgers, _ = ledger_of(run, catalog)
        ledger = ledgers[catalog]
        assert ledger["colorDeclarations"] == expected, (catalog, ledger)


def test_every_android_color_and_style_item_is_accounted_for(run):
    """Every <color>, color state list and <item> of a <style> is one declaration: a color read,
    not read, or not a color."""
    res = real("realworld2", "wikipedia-android", "app", "src", "main", "res")
    colors = items = 0
    for folder in sorted(os.listdir(res)):
        if folder == "values" or folder.startswith("values-"):
            for xml in glob.glob(str(res / folder / "*.xml")):
                text = re.sub(r"<!--.*?-->", "", open(xml, encoding="utf-8").read(), flags=re.S)
                colors += len(re.findall(r"<color\b", text))
                items += sum(len(re.findall(r"<item\b", style)) for style in re.findall(r"<style\b.*?</style>", text, flags=re.S))
        if folder == "color" or folder.startswith("color-"):
            colors += len(glob.glob(str(res / folder / "*.xml")))
    ledgers, _ = ledger_of(run, res)
    ledger = ledgers[str(res)]
    assert items > 400 and ledger["colorDeclarations"] >= colors, ledger | {"colors": colors, "items": items}
    assert ledger["colorDeclarations"] + ledger["notColors"] == colors + items, ledger | {"colors": colors, "items": items}


# Wikipedia's app themes set these attributes (attrs.xml) to its colors (colors.xml).
WIKIPEDIA_THEMES = {
    "AppTheme": ["#ffffff", "#f8f9fa", "#eaecf0", "#a2a9b1", "#72777d", "#54595d", "#202122", "#3366cc",
                 "#14866d", "#b32424", "#ac6600", "#ffcc33", "#ff9500", "#6699ff26", "#0000004d"],
    "ThemeDark": ["#202122", "#27292d", "#2e3136", "#72777d", "#a2a9b1", "#c8ccd1", "#eaecf0", "#6699ff",
                  "#00af89", "#ff4242", "#ff9500", "#ffcc3366", "#ff950080", "#3366cc4d", "#000000b3"],
    "ThemeBlack": ["#000000", "#202122", "#27292d", "#72777d", "#a2a9b1", "#c8ccd1", "#eaecf0", "#6699ff",
                   "#00af89", "#ff4242", "#ff9500", "#ffcc3366", "#ff950080", "#3366cc4d", "#000000b3"],
    "ThemeSepia": ["#f8f1e3", "#f0e6d6", "#e1dad1", "#cbc8c1", "#646059", "#54595d", "#202122", "#3366cc",
                   "#14866d", "#b32424", "#ac6600", "#ffcc33", "#ff9500", "#6699ff26", "#0000004d"],
}
WIKIPEDIA_ATTRIBUTES = ["paper_color", "background_color", "border_color", "inactive_color", "placeholder_color",
                        "secondary_color", "primary_color", "progressive_color", "success_color", "destructive_color",
                        "warning_color", "highlight_color", "focus_color", "addition_color", "overlay_color"]


def test_wikipedia_app_themes_are_themes_of_their_attributes(run, tmp_path):
    """styles*.xml define the app's themes (AppTheme, ThemeDark, ThemeBlack parent ThemeDark,
    ThemeSepia): each is a theme whose tokens are its color attributes, and checks name them as
    Android writes them."""
    res = real("realworld2", "wikipedia-android", "app", "src", "main", "res")
    themes = list(WIKIPEDIA_THEMES)
    checks = tmp_path / "wikipedia.checks.json"
    checks.write_text(json.dumps({"checks": [
        {"id": name, "foreground": f"?attr/{name}", "background": "#ffffff", "themes": themes} for name in WIKIPEDIA_ATTRIBUTES] + [
        {"id": "surface", "foreground": "?android:attr/textColorPrimary", "background": "?colorSurface", "themes": ["AppTheme"]},
        {"id": "widget", "foreground": "@color/widget_primary", "background": "widget_paper", "themes": ["light", "dark"]}]}))
    r = run("audit", str(res), "--checks", str(checks), "--format", "json", timeout=300)
    assert r.returncode in (0, 1), r.stderr[-3000:]
    palette = json.loads(r.stdout)["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == ["light", "dark", "AppTheme", "AppTheme-night", "AppTheme.Splash",
                                                       "AppTheme.Splash-night", "ThemeBlack", "ThemeDark", "ThemeSepia"]
    rows = {t["name"]: {x["id"]: x["foreground"]["hex"] for x in t["results"]} for t in palette["themes"]}
    for theme, hexes in WIKIPEDIA_THEMES.items():
        assert rows[theme] | {"surface": None} == dict(zip(WIKIPEDIA_ATTRIBUTES, hexes)) | {"surface": None}, theme
    surface = next(x for t in palette["themes"] if t["name"] == "AppTheme" for x in t["results"] if x["id"] == "surface")
    assert (surface["foreground"]["hex"], surface["background"]["hex"]) == ("#202122", "#ffffff")
    assert rows["dark"]["widget"] == "#eaecf0"
    text = run("audit", str(res), timeout=300).stdout
    assert "read 149 of 241 color declarations; 92 not read (and 263 declarations that are not colors)" in text, text[:2000]
    assert ("styles.xml:92:46: input_stroke_color_state: @color/color_state_input_field_light names no <color> in values*/"
            " and no color state list in color/ (a library's color, or one this tree does not hold)") in text


@pytest.mark.parametrize("name", ["figma-variable-parser/figma-response.json", "moon-tokens/variables.json"])
def test_every_figma_variable_is_accounted_for(run, name):
    path = real("realworld3", "figma", *name.split("/"))
    variables = json.loads(path.read_text())["meta"]["variables"].values()
    colors = sum(1 for v in variables if v["resolvedType"] == "COLOR")
    ledgers, _ = ledger_of(run, path)
    ledger = ledgers[str(path)]
    assert ledger["colorDeclarations"] == colors and ledger["notColors"] == len(variables) - colors, ledger


def custom_properties(css):
    """Custom-property declarations in a stylesheet, comments left out."""
    text = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return len(re.findall(r"(?<![\w-])--[\w-]+\s*:", text))


STYLESHEETS = [("realworld", "tailwind", "theme.css"),
               ("realworld2", "shadcn", "globals.css"),
               ("realworld2", "shadcn", "themes-r.css"),
               ("realworld2", "shadcn", "themes@c193efa.css"),
               ("realworld2", "digdir", "packages", "theme", "brand", "altinn.css"),
               ("realworld2", "open-props", "src", "props.gray.css"),
               ("realworld2", "open-props", "src", "extra", "theme.dark.css")]


def test_every_custom_property_of_an_importing_stylesheet_is_accounted_for(run):
    """Open Props' theme.css imports theme.light.css and props.media.css: its ledger holds the
    declarations of all three, each once."""
    path = real("realworld2", "open-props", "src", "extra", "theme.css")
    ledgers, _ = ledger_of(run, path)
    ledger = ledgers[str(path)]
    files = [path, path.parent / "theme.light.css", path.parent.parent / "props.media.css"]
    assert ledger["colorDeclarations"] + ledger["notColors"] == sum(custom_properties(f.read_text()) for f in files), ledger


@pytest.mark.parametrize("parts", STYLESHEETS, ids=[p[-1] for p in STYLESHEETS])
def test_every_custom_property_of_a_stylesheet_is_accounted_for(run, parts):
    path = real(*parts)
    ledgers, _ = ledger_of(run, path)
    ledger = ledgers[str(path)]
    assert ledger["colorDeclarations"] + ledger["notColors"] == custom_properties(path.read_text()), ledger


def test_shadcn_theme_registry_reads_every_theme_in_light_and_dark(run, tmp_path):
    """shadcn/ui's themes.css: `.theme-NAME` for the light wrapper, `.dark .theme-NAME` for
    the same wrapper in a dark page. Each is a theme, and the dark one measures the dark values."""
    path = real("realworld2", "shadcn", "themes-r.css")
    css = path.read_text()
    names = re.findall(r"^\.theme-([a-z]+) \{", css, re.M)
    checks = tmp_path / "checks.json"
    checks.write_text(json.dumps({"checks": [{"id": "body", "foreground": "foreground", "background": "background"}]}))
    report = json.loads(run("audit", str(path), "--checks", str(checks), "--format", "json").stdout)
    palette = report["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == [n for name in names for n in (f"theme-{name}", f"theme-{name}-dark")]
    assert palette["ledger"]["notRead"] == [] and palette["ledger"]["read"] == palette["ledger"]["colorDeclarations"]
    body = {t["name"]: t["results"][0] for t in palette["themes"]}
    # .theme-zinc: --background 0 0% 100%, --foreground 240 10% 3.9%; .dark .theme-zinc: the reverse.
    assert (body["theme-zinc"]["foreground"]["hex"], body["theme-zinc"]["background"]["hex"]) == ("#09090b", "#ffffff")
    assert (body["theme-zinc-dark"]["foreground"]["hex"], body["theme-zinc-dark"]["background"]["hex"]) == ("#fafafa", "#09090b")


def test_tailwind_v4_variant_dark_is_the_dark_variant_of_its_theme(run, tmp_path):
    css = tmp_path / "themes.css"
    css.write_text(".theme-x { --bg: #ffffff; --fg: #111111; @variant dark { --bg: #000000; } }\n")
    report = json.loads(run("audit", str(css), "--format", "json").stdout)
    palette = report["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == ["theme-x", "theme-x-dark"]
    assert palette["ledger"]["read"] == 3 and palette["ledger"]["notRead"] == []


def test_bare_hsl_channels_are_read_as_hsl_with_an_assumption(run, tmp_path):
    css = tmp_path / "globals.css"
    css.write_text(":root { --background: 0 0% 100%; --foreground: 222.2 84% 4.9%; --radius: 0.5rem; }\n")
    (tmp_path / "globals.checks.json").write_text(json.dumps({"checks": [{"id": "t", "foreground": "foreground", "background": "background"}]}))
    r = run("audit", str(css), "--format", "json")
    palette = json.loads(r.stdout)["palettes"][0]
    result = palette["themes"][0]["results"][0]
    assert (result["foreground"]["hex"], result["background"]["hex"]) == ("#020817", "#ffffff")
    assert any("bare HSL channels" in w["message"] for w in palette["warnings"])
    assert len([a for a in palette["assumptions"] if "bare HSL channels" in a["reason"]]) == 2
    assert palette["ledger"]["notColors"] == 1


def test_a_material_theme_builder_export_has_its_schemes_as_themes(run):
    path = real("realworld2", "material-theme-builder", "material-theme.json")
    export = json.loads(path.read_text())
    ledgers, report = ledger_of(run, path)
    palette = report["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == list(export["schemes"])
    strings = (sum(len(s) for s in export["schemes"].values()) + len(export["coreColors"]) + 1
               + sum(len(p) for p in export["palettes"].values()))
    assert ledgers[str(path)]["colorDeclarations"] == strings


def test_material_roles_resolve_per_scheme(run, tmp_path):
    export = tmp_path / "material-theme.json"
    export.write_text(json.dumps({
        "seed": "#1D5BEE", "coreColors": {"primary": "#1D5BEE"}, "extendedColors": [],
        "schemes": {"light": {"primary": "#4C5C92", "onPrimary": "#FFFFFF"}, "dark": {"primary": "#B5C4FF", "onPrimary": "#1B2D60"}},
        "palettes": {"primary": {"40": "#4C5C92", "80": "#B5C4FF"}}}))
    (tmp_path / "material-theme.checks.json").write_text(json.dumps({"checks": [{"id": "on-primary", "foreground": "onPrimary", "background": "primary"}]}))
    report = json.loads(run("audit", str(export), "--format", "json").stdout)
    themes = {t["name"]: t["results"][0] for t in report["palettes"][0]["themes"]}
    assert (themes["light"]["foreground"]["hex"], themes["light"]["background"]["hex"]) == ("#ffffff", "#4c5c92")
    assert (themes["dark"]["foreground"]["hex"], themes["dark"]["background"]["hex"]) == ("#1b2d60", "#b5c4ff")


def studio_folder(tmp_path, themes_text):
    folder = tmp_path / "studio"
    (folder / "size").mkdir(parents=True)
    (folder / "color").mkdir()
    (folder / "size" / "small.json").write_text(json.dumps({"space": {"value": "4px", "type": "spacing"}}))
    (folder / "size" / "large.json").write_text(json.dumps({"space": {"value": "8px", "type": "spacing"}}))
    (folder / "color" / "light.json").write_text(json.dumps({"fg": {"value": "#111111", "type": "color"}, "bg": {"value": "#ffffff", "type": "color"}}))
    (folder / "color" / "dark.json").write_text(json.dumps({"fg": {"value": "#eeeeee", "type": "color"}, "bg": {"value": "#000000", "type": "color"}}))
    (folder / "unused.json").write_text(json.dumps({"accent": {"value": "#ff0000", "type": "color"}}))
    (folder / "$themes.json").write_text(themes_text)
    return folder


THEMES = [{"name": "small", "group": "Size", "selectedTokenSets": {"size/small": "enabled"}},
          {"name": "large", "group": "Size", "selectedTokenSets": {"size/large": "enabled"}},
          {"name": "light", "group": "Scheme", "selectedTokenSets": {"color/light": "enabled"}},
          {"name": "dark", "group": "Scheme", "selectedTokenSets": {"color/dark": "enabled"}}]


def test_tokens_studio_groups_without_colors_are_fixed_and_unused_sets_are_said(run, tmp_path):
    folder = studio_folder(tmp_path, json.dumps(THEMES))
    report = json.loads(run("audit", str(folder), "--format", "json").stdout)
    palette = report["palettes"][0]
    assert [t["name"] for t in palette["themes"]] == ["small-light", "small-dark"], palette["format"]
    assert "Size = small (no set of its themes holds a color)" in palette["format"]
    not_read = palette["ledger"]["notRead"]
    assert [e["name"] for e in not_read] == ["accent"] and "which no $themes entry uses" in not_read[0]["reason"]


def test_a_malformed_themes_file_is_a_problem_not_a_merge_of_every_set(run, tmp_path):
    folder = studio_folder(tmp_path, json.dumps(THEMES)[:-5])
    r = run("audit", str(folder), "--format", "json")
    assert r.returncode == 2
    palette = json.loads(r.stdout)["palettes"][0]
    assert palette["themes"] == []
    assert any(p["file"].endswith("$themes.json") and p["code"] == "invalid-json" and p.get("location") for p in palette["problems"]), palette["problems"]


def test_designsystemet_has_its_sixteen_color_themes(run):
    folder = real("realworld2", "digdir", "design-tokens")
    _, report = ledger_of(run, folder)
    palette = next(p for p in report["palettes"] if p["file"].rstrip("/") == str(folder))
    assert len(palette["themes"]) == 16  # 2 color schemes × 8 colors; size and typography fixed


def test_a_check_on_a_declaration_that_is_not_a_color_says_why_at_its_line(run, tmp_path):
    css = tmp_path / "tokens.css"
    css.write_text(":root {\n  --bg: #ffffff;\n  --space: 4px;\n}\n")
    (tmp_path / "tokens.checks.json").write_text(json.dumps({"checks": [{"id": "x", "foreground": "--space", "background": "--bg"}]}))
    r = run("audit", str(css))
    assert r.returncode == 2
    assert f'{css}:3:3: /checks/0/foreground (theme \'light\') "space" is not a color: it is "4px"' in r.stderr, r.stderr


def test_android_references_are_shown_as_android_writes_them(run, tmp_path):
    values = tmp_path / "res" / "values"
    values.mkdir(parents=True)
    (values / "colors.xml").write_text('<resources><color name="ink">@color/missing_ink</color><color name="bg">#ffffff</color></resources>')
    r = run("audit", str(tmp_path / "res"), "--allow-empty")
    # A color this tree does not hold is a library's: a warning, not a broken palette.
    assert r.returncode == 0, r.stdout + r.stderr
    assert "color ink: @color/missing_ink is not in this tree (a library's color" in r.stderr, r.stderr


def test_an_untyped_alias_between_values_that_are_not_colors_is_valid(run, tmp_path):
    """Style Dictionary: {"size": {"b": {"value": "{size.a.value}"}}} aliases a length; it is not a
    color, and it does not stop the palette."""
    path = tmp_path / "tokens.json"
    path.write_text(json.dumps({"size": {"a": {"value": "4px"}, "b": {"value": "{size.a.value}"}},
                                "color": {"fg": {"value": "#111111"}, "bg": {"value": "{color.base.value}"}, "base": {"value": "#ffffff"}}}))
    (tmp_path / "tokens.checks.json").write_text(json.dumps({"checks": [{"id": "t", "foreground": "color.fg", "background": "color.bg"}]}))
    r = run("audit", str(path), "--format", "json")
    assert r.returncode == 0, r.stdout + r.stderr
    palette = json.loads(r.stdout)["palettes"][0]
    assert palette["problems"] == [] and palette["ledger"]["notColors"] == 2 and palette["ledger"]["read"] == 3


ALL_STYLESHEETS = sorted(glob.glob(str(SHARED / "realworld*" / "**" / "*.css"), recursive=True))


@pytest.mark.parametrize("path", ALL_STYLESHEETS, ids=lambda p: os.path.relpath(p, SHARED))
def test_every_real_stylesheet_keeps_a_complete_ledger(run, path):
    """Every stylesheet under ../shared/realworld*/, each audited on its own: its ledger holds
    each custom-property declaration of its file and of the files it imports, once. One with
    none (Open Props' props.media.css holds only @custom-media) is refused, saying so."""
    ledgers, report = ledger_of(run, path)
    palette = next(p for p in report["palettes"] if p["file"] == path)
    files = palette.get("files") or [path]
    expected = sum(custom_properties(open(f).read()) for f in files)
    if expected == 0:
        assert palette.get("ledger") is None and palette["problems"][0]["code"] == "unknown-format", palette
        return
    ledger = ledgers[path]
    assert ledger["colorDeclarations"] + ledger["notColors"] == expected, ledger
    entries = [(e.get("file") or path, e["line"], e["column"]) for e in ledger["notRead"]]
    assert len(entries) == len(set(entries)), "a declaration is listed twice"


def test_a_value_no_theme_can_read_is_not_read_in_the_ledger(run, tmp_path):
    """Found on Equinor's tokens: `oklch(0.58, 0.13, 240)` (commas, which oklch() does not take)
    was a problem, yet the ledger said "read 472 of 472"."""
    path = tmp_path / "t.tokens.json"
    path.write_text(json.dumps({"ok": {"$type": "color", "$value": "#111111"},
                                "bad": {"$type": "color", "$value": "oklch(0.58, 0.13, 240)"}}))
    ledgers, report = ledger_of(run, path)
    ledger = ledgers[str(path)]
    assert ledger["read"] == 1 and ledger["colorDeclarations"] == 2, ledger
    [entry] = ledger["notRead"]
    assert entry["name"] == "bad" and entry["line"] and "oklch" in entry["reason"], entry
    r = run("audit", str(path))
    assert r.returncode == 2 and "read 1 of 2 color declarations; 1 not read" in r.stdout, r.stdout
