"""The CLI and the HTTP API are two edges over one implementation: on the same inputs they give
the same JSON (issue: one implementation per feature)."""
import json

import pytest

from conftest import ROOT

PAIRS = [
    {"fg": "#777", "bg": "#fff"},
    {"foreground": "rebeccapurple", "background": "oklch(0.95 0.02 300)", "id": 7},
    {"fg": "rgb(0 0 0 / 0.6)", "bg": "#fff", "usage": "large-text", "level": "AAA"},
    {"fg": "#2563eb", "bg": "hsl(220 40% 50% / 0.5)", "backdrop": "#000"},
    {"fg": "color(display-p3 1 0 0)", "bg": "#000", "usage": "non-text", "id": "p3"},
    {"fg": "#12", "bg": "#fff"},
    {"bg": "#fff"},
    {"fg": "#000", "bg": "#fff", "usage": "decorative"},
    {"fg": "#000", "bg": "#fff", "backdrop": "rgb(0 0 0 / 0.5)"},
]


@pytest.fixture(scope="module")
def server(palettes_server):
    return palettes_server


def test_pairs_agree(run, server):
    r = run("check", "--batch", "-", input="\n".join(json.dumps(p) for p in PAIRS) + "\n")
    cli = [json.loads(line) for line in r.stdout.splitlines()]
    status, _, api = server.json("POST", "/v1/contrast", {"pairs": PAIRS})
    assert status == 200, api
    assert len(cli) == len(api["results"]) == len(PAIRS)
    for index, (c, a) in enumerate(zip(cli, api["results"])):
        if "error" in a:
            # Each edge wraps the same message in its own envelope: a line number, a pointer.
            assert c["error"] == a["error"] and c["line"] == index + 1, (c, a)
        else:
            assert c == a, (PAIRS[index], c, a)


def test_suggestions_and_variants_agree(run, server):
    r = run("suggest", "#777", "#eee", "--target", "AAA", "--format", "json")
    assert r.returncode == 1
    status, _, api = server.json("POST", "/v1/suggest", {"fg": "#777", "bg": "#eee", "target": "AAA"})
    assert status == 200 and json.loads(r.stdout) == api
    def lum(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    expected = (lum(0xee) + 0.05) / (lum(0x77) + 0.05)  # grays: one channel is the luminance
    assert abs(api["ratio"] - expected) < 1e-9 and api["display"] == "3.85:1"
    r = run("variants", "#2563eb", "--on", "white", "--on", "#0f172a", "--target", "AA+Lc60", "--format", "json")
    status, _, api = server.json("POST", "/v1/variants", {"color": "#2563eb", "on": ["white", "#0f172a"], "target": "AA+Lc60"})
    assert status == 200 and json.loads(r.stdout) == api


def test_same_errors_on_both_edges(run, server):
    r = run("suggest", "#777", "#eee", "--target", "AAAA")
    status, _, api = server.json("POST", "/v1/suggest", {"fg": "#777", "bg": "#eee", "target": "AAAA"})
    assert r.returncode == 2 and status == 400
    assert api["detail"] in r.stderr and api["field"] == "target"
    r = run("check", "--batch", "-", input=json.dumps({"fg": "#000", "bg": "#fff", "colour": "x"}) + "\n")
    status, _, api = server.json("POST", "/v1/contrast", {"fg": "#000", "bg": "#fff", "colour": "x"})
    assert status == 400 and json.loads(r.stdout)["error"] == api["detail"] == 'unknown field "colour" at /; expected fg, bg, backdrop, usage, level, scheme, id'


def test_light_dark_without_a_scheme_is_measured_in_both_on_both_edges(run, server):
    from urllib.parse import quote
    fg, bg = "light-dark(#000, #fff)", "#777"
    cli = json.loads(run("check", fg, bg, "--format", "json").stdout)
    status, _, api = server.json("GET", f"/v1/contrast?fg={quote(fg)}&bg={quote(bg)}")
    assert status == 200 and set(api) == set(cli) == {"light", "dark"}
    for scheme in ("light", "dark"):
        assert api[scheme]["ratio"] == cli[scheme]["ratio"] and api[scheme]["pass"] == cli[scheme]["pass"]
    status, _, posted = server.json("POST", "/v1/contrast", {"fg": fg, "bg": bg})
    assert status == 200 and posted == api


def test_the_matrix_route_gives_what_contrast_matrix_gives(run, server):
    for fmt in ("json", "csv"):
        cli = run("matrix", "palettes/peptide-fox.json", "--theme", "dark", "--format", fmt)
        assert cli.returncode == 0, cli.stderr
        status, headers, body = server.request("GET", f"/v1/palettes/peptide-fox/matrix?theme=dark&format={fmt}")
        assert status == 200, body[:300]
        assert headers["Content-Type"].startswith("text/csv" if fmt == "csv" else "application/json")
        assert body.decode() == cli.stdout
    status, _, body = server.request("GET", "/v1/palettes/peptide-fox/matrix?theme=dusk")
    assert status == 400 and b"dusk" in body
    status, _, body = server.request("GET", "/v1/palettes/peptide-fox/matrix?format=xml")
    assert status == 400 and b"json or csv" in body


def test_color_vision_agrees_on_both_edges(run, server):
    """`contrast simulate` and POST /v1/simulate are one implementation; so are the color-vision
    contrast of `check` and GET /v1/contrast."""
    colors = ["#fee2e2", "#d1fae5", "oklch(0.6 0.2 30)", "rgb(0 0 255 / 50%)"]
    cli = run("simulate", *colors, "--format", "json")
    assert cli.returncode == 0, cli.stderr
    status, _, api = server.json("POST", "/v1/simulate", {"colors": colors})
    assert status == 200 and json.loads(cli.stdout) == api
    assert [v["name"] for v in api["visions"]] == ["protanopia", "deuteranopia", "tritanopia", "protanomaly", "deuteranomaly", "tritanomaly", "achromatopsia"]
    r = run("simulate", "#fee2e2", "--deficiency", "purple")
    status, _, body = server.json("POST", "/v1/simulate", {"colors": ["#fee2e2"], "deficiencies": ["purple"]})
    assert r.returncode == 2 and status == 400 and body["detail"] in r.stderr
    from urllib.parse import quote
    cli = json.loads(run("check", "#ff2a2a", "black", "--format", "json").stdout)
    status, _, api = server.json("GET", f"/v1/contrast?fg={quote('#ff2a2a')}&bg=black")
    assert status == 200 and cli["cvd"] == api["cvd"]
    assert api["cvd"]["deficiency"] == "protanopia" and api["cvd"]["verdict"] == "warn" and api["cvd"]["display"] == "3.44:1"
