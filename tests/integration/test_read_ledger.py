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


def test_every_android_color_is_accounted_for(run):
    res = real("realworld2", "wikipedia-android", "app", "src", "main", "res")
    expected = 0
    for folder in sorted(os.listdir(res)):
        if folder == "values" or folder.startswith("values-"):
            for xml in glob.glob(str(res / folder / "*.xml")):
                expected += len(re.findall(r"<color\b", open(xml, encoding="utf-8").read()))
        if folder == "color" or folder.startswith("color-"):
            expected += len(glob.glob(str(res / folder / "*.xml")))
    ledgers, _ = ledger_of(run, res)
    ledger = ledgers[str(res)]
    assert ledger["colorDeclarations"] == expected, ledger | {"expected": expected}


@pytest.mark.parametrize("name", ["figma-variable-parser/figma-response.json", "moon-tokens/variables.json"])
def test_every_figma_variable_is_accounted_for(run, name):
    path = real("realworld3", "figma", *name.split("/"))
    variables = json.loads(path.read_text())["meta"]["variables"].values()
    colors = sum(1 for v in variables if v["resolvedType"] == "COLOR")
    ledgers, _ = ledger_of(run, path)
    ledger = ledgers[str(path)]
    assert ledger["colorDeclarations"] == colors and ledger["notColors"] == len(variables) - colors, ledger
