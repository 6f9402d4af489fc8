"""Issue #46, "text copied per result": user text (a selector, an @media prelude, a deprecation
note, a check's description or id) was copied into every ledger entry or result that mentions
it, so small inputs built gigabytes: a 292 KB stylesheet made 1.46 GB of JSON in 101 s. Each
bomb here is answered by the real server and the real CLI, and what it builds is bounded: the
output at most 64 times the input (with a 2 MiB floor), and the server's peak memory within the
Kubernetes pod's limit (384 MiB, deploy/kubernetes)."""
import json

import pytest

from conftest import ROOT
from server import quiet_server_over_palettes

BOUND = 64
FLOOR = 2 << 20
POD_LIMIT = 384 << 20


def long_selector_stylesheet():
    """A component rule with a 200 KB selector list and 8,000 custom properties: each was
    "not read" with a reason quoting the whole selector."""
    selector = ", ".join(f".c{i} .d{i}" for i in range(12_000))
    props = "".join(f"--p{i}: #{i % 4096:03x};" for i in range(8_000))
    return ":root{--bg:#fff}\n" + selector + "{" + props + "}\n"


def long_media_stylesheet():
    media = "@media " + " and ".join(f"(min-width: {i}px)" for i in range(8_000))
    props = "".join(f"--p{i}: #{i % 4096:03x};" for i in range(8_000))
    return ":root{--bg:#fff}\n" + media + "{ :root {" + props + "} }\n"


def palette_with(note_field, note, id_=None):
    """A palette whose one rule pairs a token with 600 backgrounds: each expanded pair carried
    the rule's description, or the foreground's $deprecated note, again."""
    tokens = {"fg": {"$type": "color", "$value": "#000000"}}
    if note_field == "deprecated":
        tokens["fg"]["$deprecated"] = note
    for i in range(600):
        tokens[f"bg.{i}"] = {"$type": "color", "$value": f"#{0xf0f0f0 + i:06x}"}
    check = {"id": id_ or "text-on-backgrounds", "foreground": "fg", "background": "bg.*"}
    if note_field == "description":
        check["description"] = note
    return json.dumps({"name": "bomb", "themes": {"light": {"tokens": tokens}}, "checks": [check]})


NOTE = "why " * 48_000  # 192 KB

BOMBS = {
    "stylesheet-long-selector": ("text/css", long_selector_stylesheet()),
    "stylesheet-long-media-prelude": ("text/css", long_media_stylesheet()),
    "deprecated-note-per-pair": ("application/json", palette_with("deprecated", NOTE)),
    "description-per-pair": ("application/json", palette_with("description", NOTE)),
}


def peak_rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


@pytest.fixture(scope="module")
def server(binary, tmp_path_factory):
    yield from quiet_server_over_palettes(binary, tmp_path_factory, "hostile-output", ROOT)


@pytest.mark.parametrize("route", ["/v1/tokens", "/v1/audit"])
@pytest.mark.parametrize("name", sorted(BOMBS))
def test_text_is_not_copied_per_result_by_the_service(server, name, route):
    media_type, text = BOMBS[name]
    body = text.encode()
    assert len(body) < 1 << 20
    status, _, raw = server.request("POST", route, body, headers={"Content-Type": media_type}, timeout=300)
    assert status in (200, 422), (name, status, raw[:300])
    assert len(raw) <= max(BOUND * len(body), FLOOR), f"{name}: {len(raw)} bytes for {len(body)}"
    if status == 200 and route == "/v1/audit" and media_type == "application/json":
        results = json.loads(raw)["palettes"][0]["themes"][0]["results"]
        assert len(results) == 600
        # The note is quoted short, saying how long it is.
        if name == "deprecated-note-per-pair":
            assert "bytes)" in results[0]["foreground"]["deprecated"] or any("bytes)" in d for d in results[0].get("deprecations", [])), results[0]
    # The server stays within the pod's memory limit through every bomb.
    assert peak_rss(server.process.pid) < POD_LIMIT, f"peak RSS {peak_rss(server.process.pid) >> 20} MiB"
    status, _, _ = server.request("GET", "/healthz")
    assert status == 200


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_text_is_not_copied_per_result_by_the_cli(run, tmp_path, name):
    media_type, text = BOMBS[name]
    path = tmp_path / ("bomb.css" if media_type == "text/css" else "bomb.json")
    path.write_text(text)
    out = tmp_path / "out.json"
    r = run("audit", str(path), "--format", "json", "--output", str(out), timeout=300)
    assert r.returncode in (0, 1, 2), r.stderr[-500:]
    assert out.stat().st_size <= max(BOUND * len(text.encode()), FLOOR), f"{name}: {out.stat().st_size} bytes"
    assert len(r.stderr) < 100_000


def test_a_long_check_id_is_refused_at_its_place(run, tmp_path):
    """The id of a rule is copied into the id of each pair it expands to: one of 100 KB is a
    located problem, not 600 copies."""
    path = tmp_path / "bomb.json"
    path.write_text(palette_with(None, None, id_="x" * 100_000))
    r = run("audit", str(path), "--format", "json")
    assert r.returncode == 2, r.stdout[-300:]
    assert "x" * 1000 not in r.stdout + r.stderr
    assert "is 100000 bytes; an id is at most 256" in r.stdout + r.stderr
    assert "/checks/0/id" in r.stdout + r.stderr
