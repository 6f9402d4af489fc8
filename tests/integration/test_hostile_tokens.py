"""Hostile token documents (issue #30), each posted to the real server with its defaults: a
4xx (or a 200 for what reads linearly), never a crash, a trap or a hang, and /healthz alive
afterwards. Each body is small; before, they crashed the server or took minutes and gigabytes."""
import json

import pytest

from conftest import ROOT
from server import quiet_server_over_palettes


def dumps(value):
    return json.dumps(value, separators=(",", ":")).encode()


def extends_chain(n=10_000):
    groups = {"g0": {"$type": "color", "t": {"$value": "#000000"}}}
    for i in range(1, n):
        groups[f"g{i}"] = {"$extends": f"{{g{i - 1}}}"}
    return groups


def resolver_modifiers(n=64):
    modifiers = {f"m{i}": {"contexts": {"a": [{"c": {"$type": "color", "$value": "#000000"}}],
                                        "b": [{"c": {"$type": "color", "$value": "#ffffff"}}]}} for i in range(n)}
    return {"version": "2025.10", "modifiers": modifiers,
            "resolutionOrder": [{"$ref": f"#/modifiers/m{i}"} for i in range(n)]}


def resolver_set_chain(n=2_000):
    sets = {f"s{i}": {"sources": [{"$ref": f"#/sets/s{i + 1}"}]} for i in range(n)}
    sets[f"s{n}"] = {"sources": [{"c": {"$type": "color", "$value": "#000000"}}]}
    return {"version": "2025.10", "sets": sets, "resolutionOrder": [{"$ref": "#/sets/s0"}]}


def alias_chain(n=20_000):
    tokens = {"a0": {"$type": "color", "$value": "#123456"}}
    for i in range(1, n):
        tokens[f"a{i}"] = {"$type": "color", "$value": f"{{a{i - 1}}}"}
    return tokens


def ref_fan_out(depth=22):
    tree = {f"l{depth}": {"$type": "color", "$value": "#000000"}}
    for i in range(depth - 1, -1, -1):
        tree[f"l{i}"] = {"x": {"$ref": f"#/l{i + 1}"}, "y": {"$ref": f"#/l{i + 1}"}}
    return tree


def ref_chain(n=10_000):
    tree = {"r0": {"$type": "color", "$value": "#000000"}}
    for i in range(1, n):
        tree[f"r{i}"] = {"$ref": f"#/r{i - 1}"}
    return tree


def extends_doubling(levels=20):
    tree = {"e0": {"$type": "color", "t": {"$value": "#000000"}}}
    for i in range(1, levels + 1):
        tree[f"e{i}"] = {"x": {"$extends": f"{{e{i - 1}}}"}, "y": {"$extends": f"{{e{i - 1}}}"}}
    return tree


def extends_token_per_group(n=1_500):
    tree = {"g0": {"$type": "color", "t0": {"$value": "#000000"}}}
    for i in range(1, n):
        tree[f"g{i}"] = {"$extends": f"{{g{i - 1}}}", "$type": "color", f"t{i}": {"$value": "#000000"}}
    return tree


def studio_theme_groups(groups=20):
    themes = [{"id": f"{g}-{k}", "name": f"t{g}x{k}", "group": f"g{g}", "selectedTokenSets": {"core": "enabled"}}
              for g in range(groups) for k in range(2)]
    return {"core": {"c": {"value": "#000000", "type": "color"}}, "$themes": themes,
            "$metadata": {"tokenSetOrder": ["core"]}}


BODIES = {
    "extends-chain-10000": dumps(extends_chain()),
    "resolver-64-modifiers": dumps(resolver_modifiers()),
    "resolver-set-chain-2000": dumps(resolver_set_chain()),
    "alias-chain-20000": dumps(alias_chain()),
    "ref-fan-out-22": dumps(ref_fan_out()),
    "ref-chain-10000": dumps(ref_chain()),
    "extends-doubling-20": dumps(extends_doubling()),
    "extends-token-per-group-1500": dumps(extends_token_per_group()),
    "studio-theme-groups-20": dumps(studio_theme_groups()),
    "deep-nesting-100000": b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
}
# What must be refused (the rest may be read, linearly, and answered 200).
REFUSED = {"resolver-64-modifiers", "resolver-set-chain-2000", "ref-fan-out-22", "extends-doubling-20",
           "extends-token-per-group-1500", "studio-theme-groups-20", "deep-nesting-100000"}


@pytest.fixture(scope="module")
def server(binary, tmp_path_factory):
    yield from quiet_server_over_palettes(binary, tmp_path_factory, "hostile-tokens", ROOT)


@pytest.mark.parametrize("name", sorted(BODIES))
def test_hostile_token_document_is_answered_and_the_server_lives(server, name):
    body = BODIES[name]
    assert len(body) < 1_000_000
    status, _, raw = server.request("POST", "/v1/audit", body, headers={"Content-Type": "application/json"}, timeout=120)
    if name in REFUSED:
        assert 400 <= status < 500, (name, status, raw[:500])
        assert b"problem" in raw or b"error" in raw or b"detail" in raw, raw[:500]
    else:
        assert status == 200 or 400 <= status < 500, (name, status, raw[:500])
    assert server.process.poll() is None, server.logs()[-2000:]
    status, _, raw = server.request("GET", "/healthz", timeout=30)
    assert status == 200, raw[:300]
