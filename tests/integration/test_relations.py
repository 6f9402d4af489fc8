"""Checks beyond one pair, through both edges: `distinct` groups under color-vision deficiency,
focus indicators, links in text and gradient backgrounds, as `contrast audit` and the service
report them (issue: beyond one pair)."""
import json

import pytest

from conftest import ROOT

PALETTE = {
    "name": "relations",
    "themes": {"light": {"tokens": {
        "color.bg.default": "#ffffff", "color.bg.subtle": "#f6f8fa",
        "color.fg.default": "#1f2328", "color.fg.link": "#0969da", "color.fg.pale-link": "#54aeff",
        "color.focus.ring": "#0969da", "color.border.default": "#d1d9e0",
        "color.status.success.background": "#16a34a", "color.status.danger.background": "#dc2626",
        "color.status.info.background": "#0969da",
        "color.hero": {"$type": "gradient", "$value": [{"color": "#ff0000", "position": 0}, {"color": "#00ff00", "position": 1}]},
        "color.red-on-black": "#ff2a2a", "color.black": "#000000",
    }}},
    "checks": [
        {"id": "status", "distinct": ["color.status.*.background"]},
        {"id": "ring", "focus": "color.focus.ring", "unfocused": "color.border.default", "adjacent": ["color.bg.*"]},
        {"id": "links", "link": "color.fg.pale-link", "text": "color.fg.default", "background": "color.bg.default"},
        {"id": "hero-text", "foreground": "color.black", "background": "color.hero", "usage": "large-text"},
        {"id": "red-on-black", "foreground": "color.red-on-black", "background": "color.black"},
    ],
}


@pytest.fixture(scope="module")
def server(palettes_server):
    return palettes_server


def without_files(value):
    """The CLI names the file it read; a posted body has none."""
    if isinstance(value, dict):
        return {k: without_files(v) for k, v in value.items() if k != "file"}
    if isinstance(value, list):
        return [without_files(v) for v in value]
    return value


def results_of(report):
    return {r["id"]: without_files(r) for theme in report["palettes"][0]["themes"] for r in theme["results"]}


def test_both_edges_report_the_same_relations(run, server, tmp_path):
    path = tmp_path / "relations.json"
    path.write_text(json.dumps(PALETTE))
    cli = run("audit", str(path), "--format", "json")
    assert cli.returncode == 1, cli.stderr  # the pale link fails on white, and red and green are confusable
    local = json.loads(cli.stdout)
    status, _, api = server.json("POST", "/v1/audit", PALETTE)
    assert status == 200, api
    assert results_of(local) == results_of(api)
    assert local["summary"] == api["summary"]
    r = results_of(api)
    # Focus: the ring on each surface (SC 1.4.11) and against its unfocused state (SC 2.4.13).
    assert r["ring[color.focus.ring on color.bg.subtle]"]["criterion"] == "1.4.11"
    assert r["ring[color.focus.ring vs color.border.default]"]["criterion"] == "2.4.13"
    # Links: three relations, and which one fails.
    assert r["links[color.fg.pale-link vs color.fg.default]"]["technique"] == "G183"
    assert r["links[color.fg.pale-link on color.bg.default]"]["verdict"] == "fail"
    assert r["links[color.fg.default on color.bg.default]"]["verdict"] == "pass"
    # The gradient: worst near a quarter of the way, where the sRGB mix of red and green is darkest.
    hero = r["hero-text"]
    assert hero["gradient"]["interpolation"] == "srgb"
    assert 0.2 < hero["gradient"]["worst"]["position"] < 0.3
    assert hero["ratio"] == hero["gradient"]["worst"]["ratio"] < hero["gradient"]["best"]["ratio"]
    # Every contrast result says what the deficiencies do to it.
    assert all("cvd" in x for x in r.values() if x["kind"] != "distinct")


def test_red_and_green_status_colors_are_confusable_for_deuteranopes(server):
    status, _, api = server.json("POST", "/v1/audit", PALETTE)
    pair = results_of(api)["status[color.status.success.background vs color.status.danger.background]"]
    assert pair["kind"] == "distinct" and pair["verdict"] == "fail"
    d = pair["distinction"]
    assert d["confusable"] is True and d["indistinct"] is False
    assert d["deficiency"] in ("protanopia", "deuteranopia")
    assert d["simulatedDifference"] < d["threshold"] <= d["difference"]
    assert pair["reasons"][0].startswith(f"confusable under {d['deficiency']}: ")


def test_contrast_lost_to_color_vision_is_a_warning_unless_asked_to_fail(run, server, tmp_path):
    status, _, warned = server.json("POST", "/v1/audit", PALETTE)
    red = results_of(warned)["red-on-black"]
    assert red["verdict"] == "pass" and red["cvd"]["verdict"] == "warn", red
    assert red["cvd"]["deficiency"] == "protanopia" and red["cvd"]["ratio"] < 4.5 <= red["ratio"]
    assert warned["summary"]["cvdWarnings"] >= 1
    status, _, failed = server.json("POST", "/v1/audit?cvd=fail", PALETTE)
    red = results_of(failed)["red-on-black"]
    assert red["verdict"] == "fail" and red["cvd"]["verdict"] == "fail"
    assert any("under simulated protanopia" in reason for reason in red["reasons"])
    path = tmp_path / "relations.json"
    path.write_text(json.dumps(PALETTE))
    cli = json.loads(run("audit", str(path), "--format", "json", "--cvd", "fail").stdout)
    assert results_of(cli)["red-on-black"] == red
    status, _, body = server.request("POST", "/v1/audit?cvd=maybe", json.dumps(PALETTE).encode(), headers={"Content-Type": "application/json"})
    assert status == 400 and b"cvd must be warn or fail" in body


def test_every_rendering_carries_the_new_checks(run, server, tmp_path):
    path = tmp_path / "relations.json"
    path.write_text(json.dumps(PALETTE))
    text = run("audit", str(path)).stdout
    assert "status[color.status.success.background vs color.status.danger.background]" in text
    assert "confusable under" in text
    assert "color vision:" in text
    assert "gradient (srgb): worst" in text
    sarif = json.loads(run("audit", str(path), "--format", "sarif").stdout)
    rules = {r["ruleId"] for r in sarif["runs"][0]["results"]}
    assert {"contrast/confusable", "contrast/color-vision", "contrast/insufficient"} <= rules
    junit = run("audit", str(path), "--format", "junit").stdout
    assert 'type="distinct"' in junit and "confusable under" in junit
    markdown = run("audit", str(path), "--format", "markdown").stdout
    assert "color-vision warning" in markdown and "CIEDE2000" in markdown
    status, _, body = server.request("POST", "/v1/audit", json.dumps(PALETTE).encode(),
                                     headers={"Content-Type": "application/json", "Accept": "text/html"})
    assert status == 200
    html = body.decode()
    assert "Group status of relations in light, as each vision sees it" in html
    assert "Color vision:" in html


def test_simulate_route(server):
    status, _, body = server.json("POST", "/v1/simulate", {"colors": ["#ff0000", "white"], "deficiencies": ["deuteranopia", "achromatopsia"]})
    assert status == 200, body
    assert body["colors"] == ["#ff0000", "#ffffff"]
    assert [v["name"] for v in body["visions"]] == ["deuteranopia", "achromatopsia"]
    assert body["visions"][0]["colors"][1] == "#ffffff"
    gray = body["visions"][1]["colors"][0]
    assert gray[1:3] == gray[3:5] == gray[5:7], gray
    status, _, body = server.json("POST", "/v1/simulate", {"colors": ["#ff0000", "nope"]})
    assert status == 400 and body["field"] == "colors/1"
    status, _, body = server.json("POST", "/v1/simulate", {"colors": ["#ff0000"], "deficiencies": ["purple"]})
    assert status == 400 and body["field"] == "deficiencies/0" and "not a color-vision deficiency" in body["detail"]


def test_a_distinct_regression_fails_against_the_baseline(run, tmp_path):
    path = tmp_path / "relations.json"
    palette = json.loads(json.dumps(PALETTE))
    palette["themes"]["light"]["tokens"]["color.status.danger.background"] = "#0550ae"
    path.write_text(json.dumps(palette))
    baseline = tmp_path / "baseline.json"
    assert run("audit", str(path), "--write-baseline", str(baseline)).returncode in (0, 1)
    palette["themes"]["light"]["tokens"]["color.status.danger.background"] = "#2da44f"
    path.write_text(json.dumps(palette))
    r = run("audit", str(path), "--baseline", str(baseline), "--fail-on", "regressions")
    assert r.returncode == 1
    assert "status[color.status.success.background vs color.status.danger.background]: told apart → confusable" in r.stdout
