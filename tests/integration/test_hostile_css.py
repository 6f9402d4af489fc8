"""Hostile stylesheets (issue #30) posted as text/css to the real server on its defaults: each
is answered (a located 422 `limit-exceeded`, or 200 when it reads in linear work), the server
never crashes, and it keeps serving. Before the fix the nesting and var() bodies killed it with
SIGSEGV and the expansion bodies took seconds and gigabytes."""
import json
import shutil

import pytest

from conftest import ROOT
from server import Server


def var_chain(n):
    """`--p0: var(--p1); … --p{n-1}: red`, declared top-down."""
    return ":root{" + "".join(f"--p{i}: var(--p{i + 1});" for i in range(n - 1)) + f"--p{n - 1}: red;" + "}"


def doubling_mix(depth):
    """Each `--aN` mixes `--aN-1` with itself: its text doubles at each step."""
    return ":root{--a0: red;" + "".join(
        f"--a{i}: color-mix(in srgb, var(--a{i - 1}), var(--a{i - 1}));" for i in range(1, depth + 1)) + "}"


def nested(open_, middle, close, n):
    return ":root{color-scheme: light; --x: " + open_ * n + middle + close * n + ";}"


# name → (body, the words the refusal says, or None when the body may be read)
BOMBS = {
    "30kb-open-braces": ("{" * 30_000, "nests more than 256 blocks deep"),
    "40000-nested-rules": ("a{" * 40_000, "nests more than 256 blocks deep"),
    "20000-nested-media": ("@media{" * 20_000, "@media nests more than 256 blocks deep"),
    "20000-var-chain": (var_chain(20_000), "var() chain from --p0 nests more than 256"),
    "doubling-color-mix-24": (doubling_mix(24), "var() substitution of --a"),
    "nested-selector-lists": ("a,b,c,d{" * 200 + "--x: red;" + "}" * 200, "the nested rule"),
    "20000-nested-fallbacks": (nested("var(--u, ", "red", ")", 20_000), "the var() fallbacks of --x"),
    "20000-nested-color-mix": (nested("color-mix(in srgb, ", "red", ", blue)", 20_000), None),
    "20000-nested-relative-colors": (nested("rgb(from ", "red", " r g b)", 20_000), None),
}


@pytest.fixture(scope="module")
def server(binary, tmp_path_factory):
    directory = tmp_path_factory.mktemp("hostile-css") / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    s = Server(binary, str(directory), "--quiet")  # the defaults: 1 MiB bodies, its own deadline
    yield s
    assert s.stop() == 0, s.logs()[-2000:]


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_hostile_stylesheet_is_answered_and_the_server_lives(server, name):
    css, refusal = BOMBS[name]
    body = css.encode()
    assert len(body) < 1 << 20  # under the default body limit: the reader itself is tested
    status, _, raw = server.request("POST", "/v1/audit", body, headers={"Content-Type": "text/css"}, timeout=120)
    assert status == 200 or 400 <= status < 500, (name, status, raw[:300])
    assert len(raw) < 50_000, "problems quote values briefly, never the whole input"
    if refusal:
        assert status == 422, (name, status, raw[:300])
        problem = json.loads(raw)
        text = json.dumps(problem)
        assert "limit-exceeded" in text and refusal in text, (name, text[:1000])
    assert server.process.poll() is None, server.logs()[-2000:]
    assert server.json("GET", "/healthz")[0] == 200
