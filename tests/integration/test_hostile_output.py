"""Issue #46, "text copied per result": user text (a selector, an @media prelude, a deprecation
note, a check's description or id) was copied into every ledger entry or result that mentions
it, so small inputs built gigabytes: a 292 KB stylesheet made 1.46 GB of JSON in 101 s. Each
bomb here is answered by the real server and the real CLI, and what it builds is bounded: the
output at most 64 times the input (with a 2 MiB floor), and the server's peak memory within the
Kubernetes pod's limit (384 MiB, deploy/kubernetes)."""
import json
import shutil

import pytest

from conftest import ROOT
from server import Server, quiet_server_over_palettes

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


# One ledger entry per rule, the token listing under the ceiling, what a request builds under
# its memory budget (issue #46, the server side).

RULES = 4
PROPERTIES = 6_000


def scoped_rules_stylesheet():
    """Thousands of custom properties in each of four rules no theme reads (a component class,
    a descendant selector, a @container query, a @font-face): each property was one "not read"
    ledger entry repeating its rule's reason, 24,000 entries."""
    def props(prefix):
        return "".join(f"--{prefix}{i}: #{i % 4096:03x};" for i in range(PROPERTIES))
    return (":root{--bg:#fff;--fg:#000}\n"
            f".btn-x{{{props('a')}}}\n"
            f".card .title{{{props('b')}}}\n"
            f"@container sidebar (min-width: 400px){{.panel{{{props('c')}}}}}\n"
            f"@font-face{{{props('d')}}}\n")


def assert_one_entry_per_rule(ledger):
    entries = ledger["notRead"]
    assert len(entries) == RULES, [(e["name"], e.get("count")) for e in entries][:10]
    # Every declaration is still counted, and the counts add up.
    assert [e.get("count", 1) for e in entries] == [PROPERTIES] * RULES, [e.get("count") for e in entries]
    assert sum(e.get("count", 1) for e in entries) == ledger["colorDeclarations"] - ledger["read"]
    assert all(len(e["names"]) == 10 and e["lines"] == [e["line"]] for e in entries), entries[0]


@pytest.mark.parametrize("route", ["/v1/tokens", "/v1/audit"])
def test_a_rules_declarations_are_one_ledger_entry_in_the_service(server, route):
    body = scoped_rules_stylesheet().encode()
    status, _, raw = server.request("POST", route, body, headers={"Content-Type": "text/css"}, timeout=300)
    assert status == 200, raw[:300]
    assert len(raw) <= max(BOUND * len(body), FLOOR), f"{len(raw)} bytes for {len(body)}"
    answer = json.loads(raw)
    assert_one_entry_per_rule(answer["ledger"] if route == "/v1/tokens" else answer["palettes"][0]["ledger"])


def test_a_rules_declarations_are_one_ledger_entry_in_the_cli(run, tmp_path):
    path = tmp_path / "scoped.css"
    path.write_text(scoped_rules_stylesheet())
    out = tmp_path / "out.json"
    r = run("audit", str(path), "--format", "json", "--output", str(out), "--allow-empty", timeout=300)
    assert r.returncode in (0, 1), r.stderr[-500:]
    assert out.stat().st_size <= max(BOUND * path.stat().st_size, FLOOR), out.stat().st_size
    assert_one_entry_per_rule(json.loads(out.read_text())["palettes"][0]["ledger"])
    text = run("audit", str(path), "--allow-empty", timeout=300).stdout
    assert f"{PROPERTIES} declarations (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, …) on line 2: " in text, text[:1000]


def inheriting(themes, tokens):
    """`themes` themes that each extend one base of `tokens` tokens: the listing names every
    inherited token in every theme, themes × tokens from a file that grows with themes + tokens."""
    doc = {"name": "bomb", "themes": {"base": {"tokens": {f"t{i}": f"#{i * 37 % 0xffffff:06x}" for i in range(tokens)}}}}
    for i in range(themes):
        doc["themes"][f"x{i}"] = {"extends": "base", "tokens": {}}
    return json.dumps(doc, separators=(",", ":")).encode()


@pytest.fixture(scope="module")
def small_response_server(binary, tmp_path_factory):
    directory = tmp_path_factory.mktemp("hostile-listing") / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    s = Server(binary, str(directory), "--quiet", "--max-response", "4MiB")
    yield s
    assert s.stop() == 0, s.logs()[-2000:]


def test_a_token_listing_bomb_is_refused_under_the_ceiling(small_response_server):
    """200 themes inheriting 2,000 tokens (44 KB) list 400,000 tokens, over 10 MB of JSON: the
    listing was built whole (JSONEncoder), then refused for its size; it is refused before it
    is built, and its refusal costs no more than the limit."""
    server = small_response_server
    body = inheriting(200, 2_000)
    status, _, raw = server.request("POST", "/v1/tokens", body, timeout=300)
    assert status == 422, raw[:300]
    problem = json.loads(raw)
    assert problem["code"] == "limit-exceeded" and "the response would be more than" in problem["detail"], problem
    assert "the limit is 4 MiB (--max-response)" in problem["detail"], problem
    # The advice is the route's: the listing reads no ?theme=.
    assert "?theme=" not in problem["detail"] and "fewer themes or tokens" in problem["detail"], problem
    assert len(raw) < 4096
    # 1,000 themes inheriting 4,000 tokens (97 KB): 8 minutes and 3 GB, then 422 for 179 MiB of
    # JSON; past the tokens an audit may resolve in all, it is refused before any theme is listed.
    body = inheriting(999, 4_000)
    status, _, raw = server.request("POST", "/v1/tokens", body, timeout=300)
    assert status == 422, raw[:300]
    detail = json.loads(raw)["detail"]
    assert "would be more than" in detail or "the listing is refused before it is built" in detail, detail
    assert peak_rss(server.process.pid) < POD_LIMIT, f"peak RSS {peak_rss(server.process.pid) >> 20} MiB"
    # A listing within its bounds is answered whole.
    status, _, raw = server.request("POST", "/v1/tokens", inheriting(3, 100))
    assert status == 200 and [len(t["inherited"]) for t in json.loads(raw)["themes"]] == [0, 100, 100, 100]


def pairs_palette(count):
    tokens = {}
    for i in range(count):
        tokens[f"fg.{i}"] = f"#{i * 311 % 0xffffff:06x}"
        tokens[f"bg.{i}"] = f"#{(0xffffff - i * 977) % 0xffffff:06x}"
    return json.dumps({"name": "pairs", "themes": {"light": {"tokens": tokens}},
                       "checks": [{"id": "all", "foreground": "fg.*", "background": "bg.*"}]}).encode()


@pytest.fixture(scope="module")
def small_memory_server(binary, tmp_path_factory):
    directory = tmp_path_factory.mktemp("hostile-memory") / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    s = Server(binary, str(directory), "--quiet", "--max-request-memory", "2MiB")
    yield s
    assert s.stop() == 0, s.logs()[-2000:]


def test_what_a_request_builds_is_charged_to_its_memory_budget(small_memory_server, server):
    """Only expansion was charged to --max-request-memory: a 9 KB palette whose rule pairs 150
    foregrounds with 150 backgrounds (22,500 checks, tens of MB of results) was audited under a
    2 MiB budget, and so was a stylesheet whose ledger holds 20,000 declarations. What the
    request builds is charged as it is built: 422 names what grew."""
    body = pairs_palette(150)
    status, _, raw = small_memory_server.request("POST", "/v1/audit?suggestions=none", body, timeout=300)
    assert status == 422, raw[:300]
    detail = json.loads(raw)["detail"]
    assert "the audit's" in detail and "would take more than 2 MiB, the memory one request may build (2 MiB, --max-request-memory)" in detail, detail
    css = (":root{--bg:#fff}\n.card .x{" + "".join(f"--p{i}:#000;" for i in range(20_000)) + "}").encode()
    status, _, raw = small_memory_server.request("POST", "/v1/tokens", css, headers={"Content-Type": "text/css"}, timeout=300)
    assert status == 422, raw[:300]
    detail = json.loads(raw)["detail"]
    assert "the ledger of what the read met would take more than 2 MiB" in detail, detail
    # Under the default budget both are answered.
    assert server.request("POST", "/v1/audit?suggestions=none", body, timeout=300)[0] == 200
    assert server.request("POST", "/v1/tokens", css, headers={"Content-Type": "text/css"}, timeout=300)[0] == 200
