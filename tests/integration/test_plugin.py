"""`swift package contrast-audit`: a small package that depends on this one by path runs the
command plugin, which builds `contrast` and audits the package in Xcode's diagnostic format.

Building `contrast` inside another package costs a full debug build of it (SwiftPM does not
share build products between root packages): minutes on a loaded 2-core machine. The test runs
only with CONTRAST_PLUGIN_TEST=1; its scratch path is kept in .build/plugin-fixture, so a second
run rebuilds only what changed."""
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(os.environ.get("CONTRAST_PLUGIN_TEST") != "1",
                                reason="builds contrast inside a fixture package (minutes): set CONTRAST_PLUGIN_TEST=1")


def colorset(folder, name, hex_value):
    r, g, b = (hex_value[i:i + 2] for i in (1, 3, 5))
    (folder / f"{name}.colorset").mkdir(parents=True)
    (folder / f"{name}.colorset" / "Contents.json").write_text(json.dumps({
        "colors": [{"idiom": "universal", "color": {"color-space": "srgb", "components": {
            "red": f"0x{r}", "green": f"0x{g}", "blue": f"0x{b}", "alpha": "1.000"}}}],
        "info": {"author": "xcode", "version": 1}}))


def test_the_plugin_audits_a_package_in_xcode_format(binary, tmp_path):
    help_text = subprocess.run([binary, "audit", "--help"], capture_output=True, text=True).stdout
    if "xcode" not in help_text:
        pytest.skip("contrast audit has no --format xcode in this build yet (another branch adds it)")
    package = tmp_path / "Fixture"
    app = package / "Sources" / "App"
    catalog = app / "Colors.xcassets"
    catalog.mkdir(parents=True)
    (catalog / "Contents.json").write_text(json.dumps({"info": {"author": "xcode", "version": 1}}))
    colorset(catalog, "textBody", "#aaaaaa")       # fails 4.5:1 on white
    colorset(catalog, "surfacePage", "#ffffff")
    (app / "App.swift").write_text("public let app = 1\n")
    (package / "Package.swift").write_text(f"""// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "Fixture",
    dependencies: [.package(path: "{ROOT}")],
    targets: [.target(name: "App")]
)
""")
    # The same pins as this package: resolved from SwiftPM's local cache, offline.
    shutil.copy(ROOT / "Package.resolved", package / "Package.resolved")
    made = subprocess.run([binary, "init", str(package)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    result = subprocess.run(["swift", "package", "--scratch-path", str(ROOT / ".build" / "plugin-fixture"), "contrast-audit"],
                            cwd=package, capture_output=True, text=True, timeout=3600)
    assert result.returncode != 0, result.stdout + result.stderr
    lines = [l for l in result.stdout.splitlines() if re.match(r"^/.+:\d+:\d+: error: ", l)]
    assert lines and all("Colors.xcassets" in l for l in lines), result.stdout + result.stderr
    assert any("textBody" in l for l in lines), lines
