"""App colors as iOS projects keep them: an Xcode asset catalog, through the real binary."""
import json


def colorset(*entries):
    return json.dumps({"colors": list(entries), "info": {"author": "xcode", "version": 1}})


def entry(red, green, blue, alpha="1.000", dark=False, idiom="universal"):
    e = {"color": {"color-space": "srgb", "components": {"red": red, "green": green, "blue": blue, "alpha": alpha}}, "idiom": idiom}
    if dark:
        e["appearances"] = [{"appearance": "luminosity", "value": "dark"}]
    return e


def test_an_app_catalog_is_audited_light_and_dark(run, tmp_path):
    app = tmp_path / "App"
    catalog = app / "Assets.xcassets"
    for name, text in {
        "Contents.json": json.dumps({"info": {"author": "xcode", "version": 1}}),
        "Colors/Contents.json": json.dumps({"info": {"author": "xcode", "version": 1}}),
        "Colors/TextSecondary.colorset/Contents.json": colorset(entry("0x8E", "0x8E", "0x93"), entry("142", "142", "147", dark=True),
                                                                 entry("0.40", "0.40", "0.42", idiom="ipad")),
        "Colors/Surface.colorset/Contents.json": colorset(entry("1.000", "1.000", "1.000"), entry("0.110", "0.110", "0.118", dark=True)),
        "Colors/Brand.colorset/Contents.json": colorset(entry("0.945", "0.353", "0.141")),
        "Tint.colorset/Contents.json": json.dumps({"colors": [{"color": {"platform": "ios", "reference": "systemBlueColor"}, "idiom": "universal"}]}),
        "AppIcon.appiconset/Contents.json": json.dumps({"images": []}),
    }.items():
        path = catalog / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (app / "Assets.checks.json").write_text(json.dumps({"checks": [
        {"id": "secondary-text", "foreground": "TextSecondary", "background": "Surface"},
        {"id": "brand-text", "foreground": "Brand", "background": "Surface"},
        {"id": "tint", "foreground": "Tint", "background": "Surface", "usage": "non-text"}]}))
    r = run("audit", str(app), "--format", "json")
    assert r.returncode == 1, r.stderr
    report = json.loads(r.stdout)["palettes"][0]
    assert report["name"] == "Assets" and report["format"].startswith("Xcode asset catalog (universal idiom), 4 color sets")
    rows = {t["name"]: {x["id"]: (x["foreground"]["hex"], x["background"]["hex"], x["verdict"]) for x in t["results"]} for t in report["themes"]}
    assert rows["light"]["secondary-text"] == ("#8e8e93", "#ffffff", "fail")
    assert rows["dark"]["secondary-text"] == ("#8e8e93", "#1c1c1e", "pass")
    # Brand has no dark appearance: iOS shows the light one in dark mode, and the audit says so.
    assert rows["dark"]["brand-text"][0] == "#f15a24"
    assert any("Brand has no dark appearance" in w["message"] for w in report["warnings"])
    assert rows["light"]["tint"][0] == "#0088ff" and rows["dark"]["tint"][0] == "#0091ff"
    text = run("audit", str(app)).stdout
    assert "read as Xcode asset catalog" in text and "warning" in text
    ipad = json.loads(run("audit", str(app), "--idiom", "ipad", "--format", "json").stdout)["palettes"][0]
    light = {x["id"]: x["foreground"]["hex"] for x in ipad["themes"][0]["results"]}
    assert light["secondary-text"] == "#66666b"


def test_an_android_res_tree_is_audited_light_and_dark(run, tmp_path):
    res = tmp_path / "app" / "src" / "main" / "res"
    files = {
        "values/colors.xml": '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n'
                             '    <color name="text_primary">#1F1F1F</color>\n'
                             '    <color name="text_secondary">#991F1F1F</color>\n'
                             '    <color name="surface">@android:color/white</color>\n'
                             '    <color name="accent">?attr/colorAccent</color>\n</resources>\n',
        "values-night/colors.xml": '<resources><color name="text_primary">#E3E3E3</color><color name="surface">#121212</color></resources>\n',
        "values-land/colors.xml": '<resources><color name="surface">#EEEEEE</color></resources>\n',
        "layout/main.xml": "<LinearLayout/>\n",
    }
    for name, text in files.items():
        path = res / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (tmp_path / "app" / "src" / "main" / "res.checks.json").write_text(json.dumps({"checks": [
        {"id": "body", "foreground": "text_primary", "background": "surface"},
        {"id": "secondary", "foreground": "text_secondary", "background": "surface"}]}))
    r = run("audit", str(tmp_path / "app"), "--format", "json")
    assert r.returncode == 1, r.stderr
    report = json.loads(r.stdout)["palettes"][0]
    assert report["name"] == "app" and report["format"] == "Android color resources"
    rows = {t["name"]: {x["id"]: (x["foreground"]["hex"], x["background"]["hex"], x["verdict"]) for x in t["results"]} for t in report["themes"]}
    assert rows["light"]["body"] == ("#1f1f1f", "#ffffff", "pass")
    assert rows["dark"]["body"] == ("#e3e3e3", "#121212", "pass")
    # The secondary text was never given a night value: dark gray at 60 % on the dark surface.
    assert rows["dark"]["secondary"] == ("#1f1f1f99", "#121212", "fail")
    warnings = [w["message"] for w in report["warnings"]]
    assert "values-land/ is not read: its qualifier land selects devices or languages, not a light or dark theme" in warnings
    assert any(w.startswith("color accent: ?attr/colorAccent is a theme attribute") for w in warnings)
    text = run("audit", str(tmp_path / "app")).stdout
    assert "read as Android color resources" in text and "values-land/ is not read" in text
