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
    both = {"fg": "#000", "foreground": "#777", "bg": "#fff"}
    r = run("check", "--batch", "-", input=json.dumps(both) + "\n")
    status, _, api = server.json("POST", "/v1/contrast", both)
    line = json.loads(r.stdout)
    assert r.returncode == 2 and status == 400 and line["code"] == api["code"] == "repeated-field"
    assert line["error"] == api["detail"] == '/foreground repeats "fg": "fg" and "foreground" name one field; give it once'


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


def test_one_pair_agrees_on_both_edges(run, server):
    """`contrast check --format json` and GET /v1/contrast: one report, and one per scheme."""
    from urllib.parse import quote
    for fg, bg, extra in [("#767676", "white", {}), ("rgb(0 0 0 / 50%)", "white", {}), ("white", "rgb(0 0 0 / 50%)", {"backdrop": "#2563eb"}),
                          ("oklch(0.7 0.3 30)", "#000", {"usage": "non-text"}), ("light-dark(#1f2328, #f0f6fc)", "light-dark(#ffffff, #0d1117)", {"scheme": "dark"})]:
        args = [arg for key, value in extra.items() for arg in (f"--{key}", value)]
        cli = run("check", fg, bg, *args, "--format", "json")
        assert cli.returncode in (0, 1), cli.stderr
        query = "&".join(f"{k}={quote(v)}" for k, v in {"fg": fg, "bg": bg, **extra}.items())
        status, _, api = server.json("GET", f"/v1/contrast?{query}")
        assert status == 200 and json.loads(cli.stdout) == api, (fg, bg, extra)
        assert (cli.returncode == 0) == api["pass"]


def test_batch_error_entries_carry_the_same_code_on_both_edges(run, server):
    """A pair that cannot be measured is an error entry with the same stable code, whether it
    came on a line of `check --batch` or in the list of POST /v1/contrast."""
    bad = [{"fg": "#12", "bg": "#fff"}, {"bg": "#fff"}, {"fg": "#000", "bg": "#fff", "level": "AAAA"},
           {"fg": "#000", "bg": "#fff", "backdrop": "rgb(0 0 0 / 50%)"}, {"fg": "#000", "bg": "#fff", "scheme": "dusk"}]
    r = run("check", "--batch", "-", input="\n".join(json.dumps(p) for p in bad) + "\n")
    assert r.returncode == 2
    cli = [json.loads(line) for line in r.stdout.splitlines()]
    status, _, api = server.json("POST", "/v1/contrast", {"pairs": bad})
    assert status == 200
    codes = [c["code"] for c in cli]
    assert codes == [a["code"] for a in api["results"]] == ["invalid-color", "missing-field", "invalid-value", "translucent-color", "invalid-value"]
    assert [c["error"] for c in cli] == [a["error"] for a in api["results"]]
    # One pair posted alone is a problem+json with the same code.
    status, _, problem = server.json("POST", "/v1/contrast", bad[0])
    assert status == 400 and problem["code"] == "invalid-color" and problem["field"] == "fg"


def test_suggest_and_variants_agree_on_every_target(run, server):
    for fg, bg, target in [("#777", "#eee", "AA"), ("#6b21a8", "#e9d5ff", "AAA"), ("#2563eb", "#0f172a", "Lc60"), ("#000", "#fff", "AA"), ("#3c3c4399", "#f2f2f7", "AA")]:
        cli = run("suggest", fg, bg, "--target", target, "--format", "json")
        status, _, api = server.json("POST", "/v1/suggest", {"fg": fg, "bg": bg, "target": target})
        assert status == 200 and json.loads(cli.stdout) == api and (cli.returncode == 0) == api["passes"]
    cli = run("variants", "#0f7a6b", "--on", "#f5f5f5", "--on", "#1a1a1a", "--target", "AAA", "--format", "json")
    status, _, api = server.json("POST", "/v1/variants", {"color": "#0f7a6b", "on": ["#f5f5f5", "#1a1a1a"], "target": "AAA"})
    assert status == 200 and json.loads(cli.stdout) == api


def test_simulate_agrees_for_each_deficiency(run, server):
    colors = ["#cf222e", "#2da44e", "color(display-p3 0 1 0)"]
    for deficiency in ("protanopia", "tritanomaly", "achromatopsia"):
        cli = run("simulate", *colors, "--deficiency", deficiency, "--format", "json")
        status, _, api = server.json("POST", "/v1/simulate", {"colors": colors, "deficiencies": [deficiency]})
        assert status == 200 and json.loads(cli.stdout) == api


def test_the_matrix_agrees_for_every_theme_and_errors_share_a_code(run, server):
    for palette, theme in [("peptide-fox", "light"), ("train", None)]:
        args = ["--theme", theme] if theme else []
        cli = run("matrix", f"palettes/{palette}.json", *args, "--format", "json")
        assert cli.returncode == 0, cli.stderr
        status, _, body = server.request("GET", f"/v1/palettes/{palette}/matrix?format=json" + (f"&theme={theme}" if theme else ""))
        assert status == 200 and body.decode() == cli.stdout
    status, _, problem = server.json("GET", "/v1/palettes/peptide-fox/matrix?theme=dusk")
    cli = run("matrix", "palettes/peptide-fox.json", "--theme", "dusk")
    assert status == 400 and problem["code"] == "unknown-theme" and cli.returncode == 2 and problem["detail"] in cli.stderr


def test_the_audit_agrees_on_both_edges(run, server):
    """`contrast audit --format json` of a served palette is the served audit (the same
    palette report, read from the same file name)."""
    for name in ("peptide-fox", "train"):
        cli = run("audit", f"{name}.json", "--format", "json", cwd=ROOT / "palettes")
        assert cli.returncode in (0, 1), cli.stderr
        status, _, api = server.json("GET", f"/v1/palettes/{name}/audit")
        assert status == 200
        assert json.loads(cli.stdout) == api
        # Posted, the same document gives the same palette report.
        status, _, posted = server.json("POST", "/v1/audit", json.loads((ROOT / "palettes" / f"{name}.json").read_text()))
        assert status == 200
        assert posted["palettes"][0]["summary"] == api["palettes"][0]["summary"]
