"""Hostile input, one test per class, for the CLI and the API: a clear 4xx or exit 2 naming the
problem, never a crash or a hang, and the server keeps serving."""
import json
import shutil
import socket

import pytest

from conftest import ROOT
from server import Server, status_of

NESTED = "[" * 100_000 + "]" * 100_000
CASES = {
    "truncated": b'{"name": "x", "themes": {"light": {"tokens": {"a": "#fff"',
    "malformed": b'{"name": "x",, }',
    "wrong-types": json.dumps({"name": 5, "themes": [], "checks": {}}).encode(),
    "invalid-utf8": b'{"name": "\xff\xfe", "themes": {}}',
    "nul-bytes": b'{"name": "a\x00b", "themes": {"l": {"tokens": {"a": "#fff\x00"}}}}',
    "100kb-color": json.dumps({"name": "x", "themes": {"l": {"tokens": {"a": "#" + "f" * 100_000}}}}).encode(),
    "1mib-token-name": json.dumps({"name": "x", "themes": {"l": {"tokens": {"t" * (1 << 20): "#fff"}}}}).encode(),
    "alias-cycle": json.dumps({"name": "x", "themes": {"l": {"tokens": {"a": "{b}", "b": "{c}", "c": "{a}"}}}}).encode(),
    "deep-nesting": ('{"name": "x", "themes": ' + NESTED + "}").encode(),
    "huge-number": b'{"name": "x", "themes": {"l": {"tokens": {"a": "#fff"}}}, "checks": [{"foreground": "a", "background": "a", "apca": 1e400}]}',
    "nan": b'{"name": "x", "themes": {"l": {"tokens": {"a": "#fff"}}}, "checks": [{"foreground": "a", "background": "a", "apca": NaN}]}',
}
# A key given twice: read as JSON5 and token builds read it (the last wins), and said, not refused.
DUPLICATE_KEYS = b'{"name": "x",\n "name": "y", "themes": {"l": {"tokens": {"a": "#fff", "b": "#000"}}},\n "checks": [{"foreground": "b", "background": "a"}]}'
# Valid JSON whose palette is refused for a limit or a broken reference.
LIMITS = {
    "10000-themes": json.dumps({"name": "x", "themes": {f"t{i}": {"tokens": {"a": "#fff"}} for i in range(10_000)}}).encode(),
    "alias-chain-20000": json.dumps({"name": "x", "themes": {"l": {"tokens": {**{"t0": "#123456"}, **{f"t{i}": "{t%d}" % (i - 1) for i in range(1, 20_001)}}}}}).encode(),
    "minus-zero-and-big-ints": b'{"name": "x", "themes": {"l": {"tokens": {"a": "#fff"}}}, "checks": [{"foreground": "a", "background": "a", "fontWeight": -0}]}',
}


@pytest.mark.parametrize("name", sorted(CASES) + sorted(LIMITS))
def test_cli_exits_2_with_a_located_error(run, tmp_path, name):
    path = tmp_path / f"{name}.json"
    path.write_bytes(CASES.get(name) or LIMITS[name])
    r = run("audit", str(path), timeout=60)
    assert r.returncode == 2, (name, r.returncode, r.stdout[-500:], r.stderr[-500:])
    assert str(path) in r.stderr and "error:" in r.stderr
    assert len(r.stderr) < 20_000  # errors quote values briefly, never the whole input


def test_a_repeated_key_is_a_located_warning_and_the_last_value_is_read(run, tmp_path):
    path = tmp_path / "repeated.json"
    path.write_bytes(DUPLICATE_KEYS)
    r = run("audit", str(path), "--format", "json")
    assert r.returncode == 0, r.stderr[-500:]
    assert f"warning: {path}:2:2:" in r.stderr and '"name" is given again here (first at line 1, column 2)' in r.stderr
    assert [p["name"] for p in json.loads(r.stdout)["palettes"]] == ["y"]


def test_a_repeated_key_is_said_when_its_file_is_merged_into_a_folder(run, tmp_path):
    """Token files of one folder are merged, each read once: the repeated key is still said."""
    (tmp_path / "a.tokens.json").write_text('{"c": {"a": {"$type": "color", "$value": "#000"},\n "a": {"$type": "color", "$value": "#fff"}}}')
    (tmp_path / "b.tokens.json").write_text('{"c": {"b": {"$type": "color", "$value": "#123"}}}')
    r = run("audit", str(tmp_path), "--format", "json")
    warnings = [w for p in json.loads(r.stdout)["palettes"] for w in p.get("warnings", [])]
    assert [w["location"]["line"] for w in warnings if w["code"] == "duplicate-key"] == [2], warnings


def test_derive_keeps_the_value_read_of_a_repeated_key(run, tmp_path):
    palette = json.loads((ROOT / "palettes" / "peptide-fox.json").read_text())
    themes = list(palette["themes"])
    text = json.dumps(palette).replace('"name":', '"name": "first", "name":', 1)
    path = tmp_path / "repeated.json"
    path.write_text(text)
    r = run("derive", str(path), "--from", themes[0], "--to", "derived", "--surface", "#101010", "--output", "-")
    assert r.returncode in (0, 1), r.stderr[-800:]
    assert "duplicate" not in r.stdout and json.loads(r.stdout)["themes"]["derived"]


def test_cli_huge_but_valid_palette(run, tmp_path):
    tokens = {f"t{i}": "#%06x" % (i * 97 % 0xFFFFFF) for i in range(100_000)}
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"name": "big", "themes": {"l": {"tokens": tokens}},
                                "checks": [{"foreground": "t1", "background": "t2"}]}))
    r = run("audit", str(path), timeout=120)
    assert r.returncode in (0, 1), r.stderr[-500:]


def test_matrix_that_would_explode_is_refused_before_work(run, tmp_path):
    tokens = {f"t{i}": "#%06x" % (i * 97 % 0xFFFFFF) for i in range(50_000)}
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"name": "big", "themes": {"l": {"tokens": tokens}}}))
    r = run("matrix", str(path), "--max-pairs", "100000000", timeout=120)
    assert r.returncode == 2 and "over the limit" in r.stderr


@pytest.fixture(scope="module")
def server(binary, tmp_path_factory):
    directory = tmp_path_factory.mktemp("hostile") / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    s = Server(binary, str(directory), "--threads", "2", "--max-body", "2MiB", "--quiet")
    yield s
    assert s.stop() == 0, s.logs()[-2000:]


@pytest.mark.parametrize("name", sorted(CASES) + sorted(LIMITS))
def test_api_answers_4xx_and_keeps_serving(server, name):
    body = CASES.get(name) or LIMITS[name]
    status, headers, raw = server.request("POST", "/v1/audit", body, headers={"Content-Type": "application/json"}, timeout=60)
    assert 400 <= status < 500, (name, status, raw[:300])
    problem = json.loads(raw)
    assert problem["status"] == status and problem["detail"]
    assert len(raw) < 50_000
    assert server.json("GET", "/healthz")[0] == 200


def test_api_reads_a_repeated_key_with_a_warning(server):
    status, _, raw = server.request("POST", "/v1/audit", DUPLICATE_KEYS, headers={"Content-Type": "application/json"})
    assert status == 200, raw[:300]
    warnings = json.loads(raw)["palettes"][0]["warnings"]
    assert any(w["code"] == "duplicate-key" and w["location"]["line"] == 2 for w in warnings), warnings


def test_api_token_listing_points_at_tokens_of_a_document_with_a_repeated_key(server):
    status, _, raw = server.request("POST", "/v1/tokens", DUPLICATE_KEYS, headers={"Content-Type": "application/json"})
    assert status == 200, raw[:300]
    tokens = [t for theme in json.loads(raw)["themes"] for t in theme["tokens"]]
    assert tokens and all("span" in t for t in tokens), tokens


def test_api_color_query_hostility(server):
    for query in ["fg=" + "%23" + "f" * 100_000 + "&bg=white", "fg=%00&bg=white", "fg=rgb(" + "(" * 5000 + "&bg=white",
                  "fg=%E0%80&bg=white"]:
        status, _, raw = server.request("GET", "/v1/contrast?" + query[:60_000])
        assert status in (400, 414, 431), (query[:40], status, raw[:200])
    assert server.json("GET", "/healthz")[0] == 200


def test_a_nul_in_a_query_value_is_kept_not_cut(server):
    """libmicrohttpd decodes %00 into the value; reading it as a C string judged '#000' instead."""
    status, _, raw = server.json("GET", "/v1/contrast?fg=%23000%00zz&bg=white")
    assert status == 400 and raw["field"] == "fg" and "at byte 4" in raw["detail"], raw
    status, _, raw = server.json("POST", "/v1/tokens?name=" + "a" * 150 + "%00" + "b" * 100, {"x": {"$type": "color", "$value": "#fff"}})
    assert status == 400 and raw["field"] == "name", raw


def test_over_long_paths_and_header_floods(server):
    raw = server.raw(b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status_of(raw) in (400, 414, 431, None)
    flood = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 100) for i in range(5000)) + b"\r\n"
    raw = server.raw(flood)
    assert status_of(raw) in (400, 413, 431, None)
    assert server.json("GET", "/healthz")[0] == 200


def test_batch_bombs_are_refused(server):
    status, _, raw = server.json("POST", "/v1/contrast", {"pairs": [{"fg": "#000", "bg": "#fff"}] * 10_001})
    assert status == 422 and "limit" in raw["detail"]
    status, _, raw = server.json("POST", "/v1/variants", {"color": "#000", "on": ["#fff"] * 101})
    assert status == 422


@pytest.mark.parametrize("name", sorted(CASES) + sorted(LIMITS))
def test_token_listing_reports_hostile_documents_as_problems(server, name):
    """The designers' page checks documents with POST /v1/tokens: problems come back as data, briefly."""
    body = CASES.get(name) or LIMITS[name]
    status, _, raw = server.request("POST", "/v1/tokens", body, headers={"Content-Type": "application/json"}, timeout=60)
    assert status == 200 or 400 <= status < 500, (name, status, raw[:300])
    if status == 200:
        listing = json.loads(raw)
        assert listing["problems"] or listing["themes"], name
    # Each token is listed with its pointer and at most a short reason; nothing quotes the input whole.
    assert len(raw) < 100_000 + 12 * len(body), (len(raw), len(body))
    assert server.json("GET", "/healthz")[0] == 200


def test_token_listing_of_a_big_inheriting_palette(server):
    """20,000 tokens inherited by a second theme: listed in linear time, not quadratic."""
    tokens = {f"t{i}": "#%06x" % (i * 97 % 0xFFFFFF) for i in range(20_000)}
    body = json.dumps({"name": "big", "themes": {"light": {"tokens": tokens}, "dark": {"extends": "light", "tokens": {"t1": "#000000"}}},
                       "checks": [{"foreground": "t1", "background": "t2"}]}).encode()
    status, _, raw = server.request("POST", "/v1/tokens", body, headers={"Content-Type": "application/json"}, timeout=60)
    assert status == 200, raw[:300]
    dark = json.loads(raw)["themes"][1]
    assert len(dark["inherited"]) == 19_999 and dark["inherited"][0] == {"name": "t0", "from": "light", "hex": "#000000"}


def test_expensive_audits_are_bounded(binary, tmp_path):
    """Every token on every other at AAA + APCA 90 (every check fails and wants suggestions):
    over --max-pairs it is refused before any work; under it, only the first --max-suggestions
    failures get suggestions, and ?suggestions=none turns them off."""
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    s = Server(binary, str(directory), "--threads", "2", "--quiet", "--max-pairs", "5000", "--max-suggestions", "50")
    try:
        tokens = {f"t{i}": "#%06x" % (i * 2654435 % 0xFFFFFF) for i in range(50)}
        rule = [{"id": "all", "foreground": "t*", "background": "t*", "level": "AAA", "apca": 90}]
        big = {"name": "big", "themes": {f"th{n}": {"tokens": tokens} for n in range(3)}, "checks": rule}
        status, _, body = s.json("POST", "/v1/audit", big, timeout=60)
        assert status == 422 and "the limit is 5000" in json.dumps(body), body
        small = {"name": "small", "themes": {"only": {"tokens": tokens}}, "checks": rule}
        status, _, body = s.json("POST", "/v1/audit", small, timeout=120)
        assert status == 200
        results = body["palettes"][0]["themes"][0]["results"]
        failing = [r for r in results if r["verdict"] == "fail"]
        with_suggestions = [r for r in failing if r.get("suggestions", {}).get("foreground") or r.get("suggestions", {}).get("background")]
        omitted = [r for r in failing if r.get("suggestions", {}).get("notes") == ["suggestions omitted: limit 50 per request"]]
        assert len(failing) > 50 and len(with_suggestions) <= 50 and len(omitted) == len(failing) - 50
        status, _, body = s.json("POST", "/v1/audit?suggestions=none", small, timeout=120)
        assert status == 200
        assert not any(r.get("suggestions", {}).get("foreground") for r in body["palettes"][0]["themes"][0]["results"])
        status, _, body = s.json("POST", "/v1/audit?suggestions=maybe", small)
        assert status == 400 and body["field"] == "suggestions"
        assert s.json("GET", "/healthz")[0] == 200
    finally:
        assert s.stop() == 0
