"""Superlinear readers (issue #46): inputs under 1 MiB whose reading grew faster than the input.

Each test reads a hostile input at size n and at 4n with the real CLI, checks the answer, and
checks the cost without a timing threshold: the child's CPU time (its own rusage, the median of
three runs) at 4n is less than 8 times that at n (linear work gives about 4, quadratic 16), under
a generous absolute ceiling; and what is written is at most 64 times the input (with a floor), so
no user text is quoted once per token. A busy machine slows both sizes alike.

`python3 tests/integration/test_hostile_linear.py NAME N OUT` writes one input, for measuring.
"""
import json
import os
import pathlib
import signal
import statistics
import subprocess
import sys
import tempfile
import threading

import pytest

RATIO = 8.0          # 4n against n: linear is ~4, quadratic ~16
CEILING = 60.0       # seconds of CPU for any one run
OUTPUT_FACTOR = 64   # bytes written per input byte
# The generated sources have colors and no checks: what is measured here is the reading, so
# their audits allow measuring nothing (without it they exit 2, as an empty audit must).
EMPTY_OK = ("--allow-empty",)
OUTPUT_FLOOR = 1 << 20


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


# ---- generators ---------------------------------------------------------------------------

def figma_rest_modes(n, themes=50):
    """A local collection of `themes` modes (the themes) and a library collection of n modes
    whose default is its last, holding n variables: each variable's default mode was looked up by
    scanning its collection's modes, in every theme."""
    local_modes = [{"modeId": f"l{i}", "name": f"mode{i}"} for i in range(themes)]
    remote_modes = [{"modeId": f"r{i}", "name": f"library mode {i}"} for i in range(n)]
    rgb = {"r": 0.1, "g": 0.2, "b": 0.3, "a": 1}
    variables = {"v:local": {"name": "bg/page", "resolvedType": "COLOR", "variableCollectionId": "c:local",
                             "valuesByMode": {m["modeId"]: rgb for m in local_modes}}}
    for i in range(n):
        variables[f"v:{i}"] = {"name": f"lib/text{i}", "resolvedType": "COLOR", "variableCollectionId": "c:lib",
                               "valuesByMode": {f"r{n - 1}": rgb}}
    return dumps({"meta": {"variableCollections": {
        "c:local": {"name": "Local", "modes": local_modes, "defaultModeId": "l0", "remote": False},
        "c:lib": {"name": "Library", "modes": remote_modes, "defaultModeId": f"r{n - 1}", "remote": True}},
        "variables": variables}})


def figma_rest_axis(modes):
    """One local collection of `modes` modes: one theme per mode, past every other format's limit."""
    mode_list = [{"modeId": f"m{i}", "name": f"m{i}"} for i in range(modes)]
    rgb = {"r": 0, "g": 0, "b": 0, "a": 1}
    variables = {"v:1": {"name": "fg", "resolvedType": "COLOR", "variableCollectionId": "c:1",
                         "valuesByMode": {m["modeId"]: rgb for m in mode_list}}}
    return dumps({"meta": {"variableCollections": {"c:1": {"name": "Modes", "modes": mode_list, "defaultModeId": "m0"}},
                           "variables": variables}})


def figma_export_ambiguous(files, aliases, name_bytes=200):
    """`files` collections of Figma's native export that all hold `x`, and one file of `aliases`
    aliases to `x` in a collection none of them is named for: each alias is ambiguous."""
    out = {}
    for i in range(files):
        stem = f"c{i:04d}" + "n" * name_bytes
        out[f"{stem}.tokens.json"] = {"$extensions": {"com.figma.modeName": "Mode"},
                                      "x": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0, 0], "alpha": 1, "hex": "#000000"},
                                            "$extensions": {"com.figma.variableId": f"VariableID:{i}:1"}}}
    tokens = {}
    for j in range(aliases):
        tokens[f"a{j}"] = {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0, 0], "alpha": 1, "hex": "#000000"},
                           "$extensions": {"com.figma.variableId": f"VariableID:a:{j}",
                                           "com.figma.aliasData": {"targetVariableName": "x", "targetVariableSetName": "Elsewhere"}}}
    out["aliases.tokens.json"] = {"$extensions": {"com.figma.modeName": "Mode"}, **tokens}
    return {name: dumps(value) for name, value in out.items()}


def studio_sets(n):
    """n Tokens Studio sets, listed in $metadata in reverse, and themes that name n/10 sets the
    file does not hold: set order and every missing set's hint scanned every set."""
    sets = {f"set{i}": {f"c{i}": {"value": "#101010", "type": "color"}} for i in range(n)}
    themes = [{"id": "t0", "name": "Light", "selectedTokenSets": {f"set{i}": "enabled" for i in range(n)}},
              {"id": "t1", "name": "Dark", "selectedTokenSets": {"set0": "enabled", **{f"gone{i}x": "enabled" for i in range(n // 10)}}}]
    return dumps({**sets, "$themes": themes, "$metadata": {"tokenSetOrder": [f"set{i}" for i in reversed(range(n))]}})


def studio_long_set_names(sets, tokens, name_bytes):
    """Sets with long names that no theme uses: each of their tokens was entered in the ledger
    with the whole set name."""
    doc = {"core": {"bg": {"value": "#ffffff", "type": "color"}}}
    for s in range(sets):
        doc[f"s{s}" + "x" * name_bytes] = {f"t{k}": {"value": "#000000", "type": "color"} for k in range(tokens)}
    doc["$themes"] = [{"id": "a", "name": "A", "selectedTokenSets": {"core": "enabled"}}]
    return dumps(doc)


def resolver_long_set_names(sets, tokens, name_bytes):
    """A resolver whose unapplied sets have long names: each token's ledger entry quoted it."""
    doc = {"version": "2025.10", "sets": {"core": {"sources": [{"bg": {"$type": "color", "$value": "#ffffff"}}]}},
           "resolutionOrder": [{"$ref": "#/sets/core"}]}
    for s in range(sets):
        doc["sets"][f"s{s}" + "x" * name_bytes] = {"sources": [{f"t{k}": {"$type": "color", "$value": "#000000"} for k in range(tokens)}]}
    return dumps(doc)


def material_schemes(schemes, customs=8):
    """A Material Theme Builder export of `schemes` schemes, with custom colors that give every
    scheme roles: each role set was found by scanning the custom color's keys, per scheme."""
    roles = {"color": "#6750a4", "onColor": "#ffffff", "colorContainer": "#eaddff", "onColorContainer": "#21005d"}
    names = [("light" if i % 2 == 0 else "dark") + f"-v{i}" for i in range(schemes)]
    doc = {"seed": "#6750a4", "coreColors": {"primary": "#6750a4"},
           "schemes": {name: {"primary": "#6750a4", "onPrimary": "#ffffff"} for name in names},
           "palettes": {"primary": {"0": "#000000", "100": "#ffffff"}},
           "extendedColors": [{**{name: roles for name in names}, "name": f"custom{c}"} for c in range(customs)]}
    return dumps(doc)


def init_tokens(n):
    """n DTCG color tokens named as design systems name them: groups with a background, text, a
    border, a disabled text, and on-X partners."""
    doc = {}
    count = 0
    i = 0
    while count + 6 <= n:
        doc[f"g{i}"] = {"$type": "color", "bg": {"$value": "#ffffff"}, "text": {"$value": "#222222"},
                        "border": {"$value": "#777777"}, "text-disabled": {"$value": "#aaaaaa"},
                        f"accent{i}": {"$value": "#3355ff"}, f"on-accent{i}": {"$value": "#ffffff"}}
        count += 6
        i += 1
    return dumps(doc)


GENERATORS = {
    "figma-rest-modes": lambda n: figma_rest_modes(n),
    "figma-rest-axis": lambda n: figma_rest_axis(n),
    "studio-sets": lambda n: studio_sets(n),
    "studio-long-set-names": lambda n: studio_long_set_names(n, 300, 10_000),
    "resolver-long-set-names": lambda n: resolver_long_set_names(n, 300, 10_000),
    "material-schemes": lambda n: material_schemes(n),
    "init-tokens": lambda n: init_tokens(n),
}


# ---- measuring ----------------------------------------------------------------------------

def run_measured(command, cwd=None, timeout=2 * CEILING):
    """Runs `command`; returns (exit code, stdout bytes, stderr bytes, the child's CPU seconds).
    A run past `timeout` seconds (wall clock) is killed and fails the test."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, cwd=cwd)
        timer = threading.Timer(timeout, process.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        except BaseException:
            process.kill()
            raise
        finally:
            timer.cancel()
        assert not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL), f"{command[1:3]} ran past {timeout} s"
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return process.returncode, out.read(), err.read(), usage.ru_utime + usage.ru_stime


def median_cpu(command, cwd=None, runs=3):
    results = [run_measured(command, cwd=cwd) for _ in range(runs)]
    return statistics.median(r[3] for r in results), results[0]


def assert_linear(small, large, what):
    (cpu_n, first_n), (cpu_4n, first_4n) = small, large
    assert cpu_4n < CEILING, f"{what}: {cpu_4n:.2f} s of CPU at 4n (ceiling {CEILING} s)"
    # A floor of 50 ms: tiny runs are all start-up.
    assert cpu_4n < RATIO * max(cpu_n, 0.05), f"{what}: {cpu_n:.3f} s at n, {cpu_4n:.3f} s at 4n: more than {RATIO}x, so not linear"
    return first_n, first_4n


def assert_output_bounded(result, input_bytes, what):
    written = len(result[1]) + len(result[2])
    assert written <= max(OUTPUT_FACTOR * input_bytes, OUTPUT_FLOOR), f"{what}: {written} bytes written for {input_bytes} bytes of input"


def audited_at_n_and_4n(binary, tmp_path, make, n, what, large_n=None):
    """Audits make(n) and make(4n) (or make(large_n)), each the median CPU of three runs, and
    asserts the larger costs less than RATIO times the smaller: the first run of each."""
    small = write(tmp_path / "small.json", make(n))
    large = write(tmp_path / "large.json", make(large_n or 4 * n))
    assert large.stat().st_size < 1 << 20
    a = median_cpu([binary, "audit", *EMPTY_OK, str(small), "--format", "json"])
    b = median_cpu([binary, "audit", *EMPTY_OK, str(large), "--format", "json"])
    return (*assert_linear(a, b, what), small, large)


def write(path, text):
    path.write_text(text)
    return path


# ---- tests --------------------------------------------------------------------------------

def test_figma_rest_variables_read_in_linear_work(binary, tmp_path):
    n = 1_000
    first_n, first_4n, small, large = audited_at_n_and_4n(binary, tmp_path, figma_rest_modes, n, "Figma REST variables, a library collection of n modes")
    for (code, out, err, _), size, path in ((first_n, n, small), (first_4n, 4 * n, large)):
        assert code in (0, 1), err[-2000:]
        report = json.loads(out)
        palette = report["palettes"][0]
        assert len(palette["themes"]) == 50, palette.get("format")
        # Every library variable is read, at its collection's default mode, in every theme.
        assert palette["ledger"]["colorDeclarations"] >= size, palette["ledger"]
        assert_output_bounded(first_n if size == n else first_4n, path.stat().st_size, "Figma REST variables")


def test_figma_rest_variables_themes_are_bounded_as_other_formats(binary, tmp_path):
    path = write(tmp_path / "modes.json", figma_rest_axis(10_000))
    assert path.stat().st_size < 1 << 20
    code, out, err, cpu = run_measured([binary, "audit", *EMPTY_OK, str(path), "--format", "json"])
    assert code == 2, (code, out[-2000:], err[-2000:])
    text = (out + err).decode()
    assert "limit-exceeded" in text and "1000" in text.replace(",", ""), text[-2000:]
    assert "/meta/variableCollections" in text, text[-2000:]
    assert cpu < CEILING
    # At the limit, read.
    path = write(tmp_path / "thousand.json", figma_rest_axis(1_000))
    code, out, err, _ = run_measured([binary, "audit", *EMPTY_OK, str(path), "--format", "json"])
    assert code in (0, 1), err[-2000:]
    assert len(json.loads(out)["palettes"][0]["themes"]) == 1_000


def test_figma_export_ambiguous_aliases_are_said_briefly(binary, tmp_path):
    def folder(name, files, aliases):
        directory = tmp_path / name
        directory.mkdir()
        total = 0
        for file, text in figma_export_ambiguous(files, aliases).items():
            (directory / file).write_text(text)
            total += len(text)
        return directory / "aliases.tokens.json", total
    small, small_bytes = folder("small", 200, 500)
    large, large_bytes = folder("large", 800, 2_000)
    assert large_bytes < 1 << 20
    a = median_cpu([binary, "audit", *EMPTY_OK, str(small), "--format", "json"])
    b = median_cpu([binary, "audit", *EMPTY_OK, str(large), "--format", "json"])
    first_n, first_4n = assert_linear(a, b, "Figma export, ambiguous aliases over n collections")
    for result, total, collections in ((first_n, small_bytes, 200), (first_4n, large_bytes, 800)):
        code, out, err, _ = result
        assert code in (0, 1, 2), err[-2000:]
        text = out.decode()
        assert f"{collections} collections of the export hold x" in text, text[:2000]
        assert_output_bounded(result, total, "Figma export, ambiguous aliases")


def test_tokens_studio_many_sets_read_in_linear_work(binary, tmp_path):
    n = 2_500
    first_n, first_4n, small, large = audited_at_n_and_4n(binary, tmp_path, studio_sets, n, "Tokens Studio, n sets")
    for (code, out, err, _), size, path in ((first_n, n, small), (first_4n, 4 * n, large)):
        assert code == 2, err[-2000:]  # the sets that are not there are errors
        report = json.loads(out)
        palette = report["palettes"][0]
        assert [t["name"] for t in palette["themes"]] == ["Light", "Dark"], palette.get("format")
        assert palette["ledger"]["colorDeclarations"] == size, palette["ledger"]
        messages = [p["message"] for p in palette.get("problems", [])]
        assert sum("which is not in this Tokens Studio set" in m for m in messages) == size // 10, messages[:3]
        assert_output_bounded((code, out, err, 0), path.stat().st_size, "Tokens Studio, n sets")


@pytest.mark.parametrize("generator", ["studio-long-set-names", "resolver-long-set-names"])
def test_long_set_names_are_not_quoted_per_token(binary, tmp_path, generator):
    path = write(tmp_path / ("tokens.resolver.json" if generator.startswith("resolver") else "tokens.json"), GENERATORS[generator](30))
    size = path.stat().st_size
    assert size < 1 << 20
    for form in ("json", "text"):
        code, out, err, cpu = run_measured([binary, "audit", *EMPTY_OK, str(path), "--format", form])
        assert code in (0, 1), err[-2000:]
        assert cpu < CEILING
        written = len(out) + len(err)
        assert written <= max(OUTPUT_FACTOR * size, OUTPUT_FLOOR), f"{generator} --format {form}: {written} bytes for {size}"
    report = json.loads(run_measured([binary, "audit", *EMPTY_OK, str(path), "--format", "json"])[1])
    not_read = report["palettes"][0]["ledger"]["notRead"]
    # Every token of the sets is in the ledger, and its reason names the set briefly.
    # The 300 tokens of a set are one entry (one rule, one reason) that counts them.
    assert sum(e.get("count", 1) for e in not_read) == 30 * 300, len(not_read)
    assert all(len(e["reason"]) < 200 and "…" in e["reason"] for e in not_read), not_read[0]


def test_material_theme_builder_schemes_linear_and_bounded(binary, tmp_path):
    _, first_4n, _, _ = audited_at_n_and_4n(binary, tmp_path, material_schemes, 250, "Material Theme Builder, n schemes")
    code, out, err, _ = first_4n
    assert code in (0, 1), err[-2000:]
    themes = json.loads(out)["palettes"][0]["themes"]
    assert len(themes) == 1_000
    # Past the limit every other format keeps: refused, located, before any scheme is built.
    over = write(tmp_path / "over.json", material_schemes(15_000, customs=0))
    assert over.stat().st_size < 1 << 20
    code, out, err, cpu = run_measured([binary, "audit", *EMPTY_OK, str(over), "--format", "json"])
    assert code == 2, (code, err[-2000:])
    text = out.decode()
    assert "limit-exceeded" in text and "/schemes" in text and "15000 schemes" in text.replace(",", ""), text[:2000]
    assert cpu < CEILING


def test_init_on_many_tokens_is_linear(binary, tmp_path):
    n = 6_000
    small = write(tmp_path / "small.tokens.json", init_tokens(n))
    large = write(tmp_path / "large.tokens.json", init_tokens(4 * n))
    a = median_cpu([binary, "init", str(small), "--output", str(tmp_path / "small.checks.json"), "--force"])
    b = median_cpu([binary, "init", str(large), "--output", str(tmp_path / "large.checks.json"), "--force"])
    assert_linear(a, b, "contrast init, n tokens")
    for (code, out, err, _), path, size in ((a[1], small, n), (b[1], large, 4 * n)):
        assert code == 0, err[-2000:]
        text = (tmp_path / path.name.replace(".tokens.json", ".checks.json")).read_text()
        assert "on-accent" in text and "proposed by contrast init" in text, text[:2000]
        assert_output_bounded((code, out, err, 0), path.stat().st_size, "contrast init")


def test_init_on_100000_tokens_finishes(binary, tmp_path):
    path = write(tmp_path / "big.tokens.json", init_tokens(100_000))
    code, out, err, cpu = run_measured([binary, "init", str(path), "--output", str(tmp_path / "big.checks.json"), "--force"])
    assert code == 0, err[-2000:]
    assert cpu < CEILING, f"{cpu:.1f} s of CPU for init on 100,000 tokens"
    assert (tmp_path / "big.checks.json").stat().st_size > 0


if __name__ == "__main__":
    name, size, out = sys.argv[1], int(sys.argv[2]), pathlib.Path(sys.argv[3])
    if name == "figma-export-ambiguous":
        out.mkdir(parents=True, exist_ok=True)
        for file, text in figma_export_ambiguous(size, size * 5 // 2).items():
            (out / file).write_text(text)
    else:
        out.write_text(GENERATORS[name](size))
