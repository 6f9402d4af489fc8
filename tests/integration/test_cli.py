"""The `contrast` command line, run as a user (or a CI job) runs it."""
import json
import os
import pty
import re
import select
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from conftest import ROOT

ANSI = re.compile(r"\x1b\[[0-9;]*m")


# check ----------------------------------------------------------------------------------------

def test_check_passing_pair_exits_0(run):
    r = run("check", "#767676", "white")
    assert r.returncode == 0, r.stderr
    assert "ratio          4.54:1" in r.stdout
    assert "best level     AA" in r.stdout
    assert not ANSI.search(r.stdout), "no escapes when stdout is not a terminal"


def test_check_failing_pair_exits_1_and_floors_the_ratio(run):
    r = run("check", "#777777", "#ffffff")
    assert r.returncode == 1
    assert "ratio          4.47:1" in r.stdout
    assert "text AA: fail — needs 4.5:1" in r.stdout


def test_check_takes_css_color_5(run):
    """color-mix(), relative colors and light-dark(), as the issue's new user tried them."""
    r = run("check", "color-mix(in oklch, red 40%, blue)", "white")
    assert r.returncode == 0, r.stderr
    assert "the foreground is outside sRGB and was gamut-mapped" in r.stdout
    r = run("check", "rgb(from #0969da r g b / 50%)", "white")
    assert r.returncode == 1 and "#0969da80 on #ffffff" in r.stdout and "composited     #84b4ed on #ffffff" in r.stdout
    # Without --scheme, light-dark() is measured in both schemes, and both must pass.
    r = run("check", "light-dark(#1f2328, #f0f6fc)", "light-dark(#ffffff, #0d1117)")
    assert r.returncode == 0, r.stderr
    assert "in a light color scheme" in r.stdout and "#1f2328 on #ffffff" in r.stdout
    assert "in a dark color scheme" in r.stdout and "#f0f6fc on #0d1117" in r.stdout
    r = run("check", "light-dark(#1f2328, #1f2328)", "light-dark(#ffffff, #0d1117)")
    assert r.returncode == 1, "fails in the dark scheme"
    r = run("check", "light-dark(#1f2328, #f0f6fc)", "#0d1117", "--scheme", "dark", "--format", "json")
    assert r.returncode == 0 and json.loads(r.stdout)["foreground"] == "#f0f6fc"
    both = json.loads(run("check", "light-dark(#000, #fff)", "#777", "--format", "json").stdout)
    assert set(both) == {"light", "dark"} and both["light"]["foreground"] == "#000000"
    r = run("check", "color-mix(in srgb, red)", "white", "--scheme", "dusk")
    assert r.returncode == 2 and "dusk" in r.stderr


def test_check_large_text_and_levels(run):
    assert run("check", "#777", "#fff", "--size", "24px").returncode == 0
    assert run("check", "#777", "#fff", "--size", "14pt", "--weight", "700").returncode == 0
    assert run("check", "#777", "#fff", "--size", "14pt").returncode == 1
    assert run("check", "#767676", "#fff", "--level", "AAA").returncode == 1
    assert run("check", "#767676", "#fff", "--usage", "non-text").returncode == 0


def test_check_json_has_the_documented_fields(run):
    r = run("check", "rgb(0 0 0 / 50%)", "white", "--format", "json")
    assert r.returncode == 1, r.stderr  # 3.94:1 fails text AA
    data = json.loads(r.stdout)
    assert data["foreground"] == "#00000080"
    assert data["background"] == "#ffffff"
    assert data["composited"] == {"foreground": "#808080", "background": "#ffffff"}
    assert data["display"] == RatioFloor(data["ratio"])
    assert isinstance(data["apca"], float)
    assert data["verdicts"]["text"] == {"AA": False, "AAA": False}
    assert data["verdicts"]["large-text"]["AA"] is True
    assert data["achieved"] == "AA-large"


def RatioFloor(ratio):
    hundredths = int(ratio * 100 + 1e-9)
    return f"{hundredths // 100}.{hundredths % 100:02d}:1"


def test_check_translucent_background_without_backdrop_gives_the_range(run):
    r = run("check", "white", "rgb(0 0 0 / 50%)", "--format", "json")
    data = json.loads(r.stdout)
    assert data["range"]["worstBackdrop"] == "#ffffff"
    assert data["range"]["bestBackdrop"] == "#000000"
    assert abs(data["range"]["best"] - 21) < 1e-9
    with_backdrop = json.loads(run("check", "white", "rgb(0 0 0 / 50%)", "--backdrop", "black", "--format", "json").stdout)
    assert "range" not in with_backdrop
    assert with_backdrop["composited"]["background"] == "#000000"


def test_check_bad_color_exits_2_and_says_where(run):
    r = run("check", "#12345g", "white")
    assert r.returncode == 2
    assert "'#12345g' at byte 6: expected a hex digit (0-9, a-f), found 'g'" in r.stderr
    r = run("check", "blu", "white")
    assert r.returncode == 2
    assert "did you mean 'blue'?" in r.stderr
    r = run("check", "x" * 100_000, "white")
    assert r.returncode == 2
    assert "the limit is 1024" in r.stderr


def test_every_error_line_begins_error_colon_in_one_spelling(run, tmp_path):
    """docs/errors.md promises one prefix: ArgumentParser's usage errors, a thrown input
    error, and the problems a command lists all begin `error: `, never `Error: `."""
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "b", "themes": [{"name": "t", "tokens": {"a": "#zzz"}}], "checks": []}')
    runs = [
        run("check"),                                        # a missing argument (usage)
        run("check", "#000", "#fff", "--level", "AAAA"),     # a bad option value (usage)
        run("check", "#12345g", "white"),                    # a bad color (input error)
        run("audit", str(tmp_path / "absent.json")),          # a missing file
        run("audit", str(broken)),                           # a palette's problems
    ]
    for r in runs:
        assert r.returncode == 2, r.stderr
        lines = [line for line in r.stderr.splitlines() if line.strip()]
        assert lines and lines[0].startswith("error: "), r.stderr
        assert not any(line.startswith("Error") for line in lines), r.stderr


def test_usage_errors_exit_2(run):
    assert run("check").returncode == 2
    assert run("check", "a", "b", "--bogus").returncode == 2
    r = run("check", "#000", "#fff", "--level", "AAAA")
    assert r.returncode == 2 and "The value 'AAAA' is invalid for '--level <level>'. Please provide one of 'AA' and 'AAA'." in r.stderr
    assert run("audit", "palettes", "--format", "yaml").returncode == 2
    assert run("frobnicate").returncode == 2


def test_help_and_version(run):
    for command in ([], ["check"], ["audit"], ["matrix"]):
        r = run(*command, "--help")
        assert r.returncode == 0
        assert "Example" in r.stdout, command
    r = run("--version")
    assert r.returncode == 0 and re.match(r"\d+\.\d+\.\d+", r.stdout)
    assert "Exit codes" in run("--help").stdout


def test_check_batch_keeps_going_past_bad_lines(run):
    lines = "\n".join([
        json.dumps({"fg": "#777", "bg": "#fff"}),
        "{not json",
        json.dumps({"fg": "#000", "bg": "#fff", "id": "a"}),
        json.dumps({"fg": "#12", "bg": "#fff"}),
        "",
        json.dumps({"bg": "#fff"}),
        json.dumps({"fg": "#000", "bg": "#fff", "usage": "large-text", "level": "AAA"}),
    ]) + "\n"
    r = run("check", "--batch", "-", input=lines)
    assert r.returncode == 2  # some lines were bad
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(out) == 6
    assert out[0]["display"] == "4.47:1" and out[0]["pass"] is False
    assert out[1]["line"] == 2 and "not valid JSON" in out[1]["error"]
    assert out[2]["id"] == "a" and out[2]["ratio"] == 21
    assert out[3]["line"] == 4 and "'#12' at byte 0" in out[3]["error"]
    assert out[4]["line"] == 6 and "missing \"fg\"" in out[4]["error"]
    assert out[5]["usage"] == "large-text" and out[5]["level"] == "AAA" and out[5]["pass"] is True


def test_check_batch_reads_on_after_an_over_long_line(binary, tmp_path):
    """A 2 MiB line is one error with its number; every line after it is still measured.
    (Found: the lines after it were lost, one of them reported as invalid UTF-8.)"""
    import subprocess
    lines = [json.dumps({"fg": "#777", "bg": "#fff"}), '"' + "x" * (2 << 20) + '"',
             json.dumps({"fg": "#000", "bg": "#fff", "id": "after"}), b"\xff\xfe".decode("latin-1"), json.dumps({"fg": "#fff", "bg": "#000"})]
    path = tmp_path / "pairs.jsonl"
    path.write_bytes("\n".join(lines).encode("latin-1"))
    r = subprocess.run([binary, "check", "--batch", str(path)], capture_output=True, timeout=60)
    assert r.returncode == 2
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o.get("line") for o in out] == [None, 2, None, 4, None], out
    assert out[1]["error"] == "the line is longer than 1 MiB"
    assert out[2]["id"] == "after" and out[2]["ratio"] == 21 and out[4]["ratio"] == 21
    assert "found byte 0xFF" in out[3]["error"]


def test_check_batch_keeps_line_order_and_numbers_when_split_across_cores(run, tmp_path):
    """A file of several MiB is measured in parts on every core: the answers still come in the
    order of the lines and every error carries its own line number."""
    bad = {1: "{not json", 15_000: '{"fg": "#zzz", "bg": "#fff"}', 15_001: "[1, 2]",
           45_000: '{"fg": "#000", "bg": "#fff", "colour": "x"}', 99_999: '{"fg": "#12", "bg": "#fff"}'}
    lines = []
    for number in range(1, 100_001):
        if number in bad:
            lines.append(bad[number])
        elif number == 20_000:
            lines.append("")
        elif number == 60_000:
            lines.append('{ "fg" : "#777" , "bg":"#fff", "id": 7 }\r')
        else:
            lines.append(json.dumps({"fg": "#%06x" % (number * 997 % (1 << 24)), "bg": "#fff", "id": str(number)}))
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(lines))  # the last line has no newline
    r = run("check", "--batch", str(path))
    assert r.returncode == 2
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(out) == 100_000 - 1  # the empty line gives nothing
    assert [o["line"] for o in out if "error" in o] == sorted(bad)
    ids = [o["id"] for o in out if "error" not in o]
    expected = ["7" if n == 60_000 else str(n) for n in range(1, 100_001) if n not in bad and n != 20_000]
    assert ids == expected
    assert out[60_000 - 2]["display"] == "4.47:1"  # line 60,000 (after the empty one), read by the full JSON reader


def test_check_batch_exit_1_when_a_pair_fails(run, tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps({"fg": "#000", "bg": "#fff"}) + "\n" + json.dumps({"fg": "#777", "bg": "#fff"}))
    r = run("check", "--batch", str(path))
    assert r.returncode == 1
    assert len(r.stdout.splitlines()) == 2


def test_check_batch_refuses_a_text_format_it_would_not_write(run, tmp_path):
    """Found by a new user's trial: `--batch - --format text` wrote JSON Lines without a word."""
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps({"fg": "#000", "bg": "#fff"}) + "\n")
    r = run("check", "--batch", str(path), "--format", "text")
    assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stdout)
    assert "--batch writes one JSON object per line; --format text is not available with it" in r.stderr, r.stderr
    for extra in ([], ["--format", "json"]):
        r = run("check", "--batch", str(path), *extra)
        assert r.returncode == 0 and json.loads(r.stdout)["pass"] is True, r.stderr


# audit ----------------------------------------------------------------------------------------

def test_audit_of_the_seed_palettes(run):
    r = run("audit", "palettes/")
    assert r.returncode == 1  # the seed palettes have real failures
    assert "FAIL    badge:purple" in r.stdout
    assert "claimed 6.8:1 AAA; measured 6.40:1 — not 6.8:1, fails AAA (needs 7:1)" in r.stdout
    assert re.search(r"^\d+ checks · \d+ pass · \d+ fail · \d+ exempt · (\d+ color-vision warnings? · )?\d+ false claims · \d+ assumptions$", r.stdout, re.M)
    # Failures come first in each theme.
    light = r.stdout.split("theme light")[1].split("theme dark")[0]
    verdicts = re.findall(r"^    (PASS|FAIL|EXEMPT)", light, re.M)
    assert verdicts == sorted(verdicts, key=lambda v: v != "FAIL")


def test_batch_reads_a_file_or_a_pipe_and_refuses_a_device_or_a_directory(run, tmp_path):
    r = run("check", "--batch", "/dev/zero")
    assert r.returncode == 2 and "/dev/zero: a device, not a file or a pipe: not read (give - for standard input)" in r.stderr, r.stderr
    r = run("check", "--batch", str(tmp_path))
    assert r.returncode == 2 and "a directory, not a file of JSON lines" in r.stderr, r.stderr
    fifo = tmp_path / "pairs"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f'printf \'{{"fg": "#777", "bg": "white"}}\\n\' > {fifo}'])
    r = run("check", "--batch", str(fifo))
    writer.wait(timeout=60)
    assert r.returncode == 1 and '"ratio"' in r.stdout, (r.stdout, r.stderr)


def test_the_checks_given_are_not_listed_as_skipped_in_the_folder_walked(run, tmp_path):
    """contrast init writes contrast.checks.json into the folder; auditing the folder with it
    said it was "a checks document with no token file beside it"."""
    (tmp_path / "colors.tokens.json").write_text(json.dumps({"ink": {"$type": "color", "$value": "#111111"}, "paper": {"$type": "color", "$value": "#ffffff"}}))
    (tmp_path / "contrast.checks.json").write_text(json.dumps({"checks": [{"id": "t", "foreground": "ink", "background": "paper"}]}))
    r = run("audit", str(tmp_path), "--checks", str(tmp_path / "contrast.checks.json"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "skipped" not in r.stdout, r.stdout
    # Not given, it is found beside the tokens and used, and the first line says so.
    r = run("audit", str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith(f"checks: {tmp_path}/contrast.checks.json (found beside the tokens)\n")
    assert "skipped" not in r.stdout and "1 check · 1 pass" in r.stdout, r.stdout
    # Another checks document in the folder is still named as passed over, with how to use it.
    (tmp_path / "other.checks.json").write_text(json.dumps({"checks": []}))
    r = run("audit", str(tmp_path))
    assert f"{tmp_path}/other.checks.json: a checks document with no token file beside it (give it with --checks)" in r.stdout


def test_the_checks_at_the_repositorys_root_serve_a_file_named_below_it(binary, tmp_path):
    """`contrast init .` at a repository's root writes ./contrast.checks.json; a pre-commit run
    names the changed file (tokens/brand.json), whose folder has none: the nearest folder above
    it, up to the folder holding .git, has it. Above the repository's root nothing is looked for."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "tokens").mkdir()
    (repo / "tokens" / "brand.json").write_text(json.dumps({"ink": {"$type": "color", "$value": "#777777"}, "paper": {"$type": "color", "$value": "#ffffff"}}))
    checks = json.dumps({"checks": [{"id": "body", "foreground": "ink", "background": "paper"}]})
    (tmp_path / "contrast.checks.json").write_text(checks)   # another project's, above the root
    r = subprocess.run([binary, "audit", "tokens/brand.json"], cwd=repo, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "no checks" in r.stderr, r.stdout + r.stderr
    (repo / "contrast.checks.json").write_text(checks)
    r = subprocess.run([binary, "audit", "tokens/brand.json"], cwd=repo, capture_output=True, text=True, timeout=120)
    # #777777 on white is 4.48:1: the check is measured, and fails.
    assert r.returncode == 1, r.stdout + r.stderr
    assert r.stdout.startswith("checks: contrast.checks.json (found above the tokens)\n"), r.stdout
    assert "1 check · 0 pass · 1 fail" in r.stdout, r.stdout


def test_audit_refuses_more_checks_than_max_pairs_before_any_work(run, tmp_path):
    """A rule of every text token on every surface grows as the product: the CLI had no
    limit, so a few kilobytes of tokens could keep CI busy for hours. --max-pairs bounds it, exit 2."""
    tokens = {f"t{i}": f"#{i:06x}" for i in range(60)}
    palette = {"name": "wide", "themes": {"light": {"tokens": tokens}},
               "checks": [{"id": "all", "foreground": "*", "background": "*"}]}
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(palette))
    r = run("audit", str(path), "--max-pairs", "1000")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "the limit is 1000 (--max-pairs)" in r.stderr
    assert "wide.json" in r.stderr
    # Within the limit the same file is audited.
    r = run("audit", str(path), "--max-pairs", "10000", "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    assert json.loads(r.stdout)["summary"]["checks"] > 1000


def test_an_unwritable_output_is_one_error_whatever_the_format(run, tmp_path):
    """Each format wrote its file its own way, and the errors read differently ("The file
    doesn't exist." from one, the system's reason from another)."""
    missing = tmp_path / "no-such-dir"
    for fmt in ("text", "json", "junit", "html", "sarif", "markdown"):
        target = missing / f"report.{fmt}"
        r = run("audit", "palettes/", "--format", fmt, "--output", str(target))
        assert r.returncode == 2, (fmt, r.stderr)
        assert f"cannot write {target}: No such file or directory" in r.stderr, (fmt, r.stderr)
        assert not missing.exists()


def test_dogfood_palettes_against_the_committed_baseline(run):
    r = run("audit", "palettes/", "--baseline", "contrast-baseline.json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 regressions" in r.stdout


def test_regression_fails_with_which_pair_which_theme_how_much(run, tmp_path):
    palette = json.loads((ROOT / "palettes" / "peptide-fox.json").read_text())
    palette["themes"]["dark"]["tokens"]["text.body"]["$value"] = "#71717a"
    path = tmp_path / "peptide-fox.json"
    path.write_text(json.dumps(palette))
    r = run("audit", str(path), "--baseline", str(ROOT / "contrast-baseline.json"))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "regressed  peptide-fox › dark › body-text-on-page: AAA → AA-large (17.03:1 → 4.34:1, pass → fail)" in r.stdout
    # --fail-on never reports but does not fail.
    assert run("audit", str(path), "--baseline", str(ROOT / "contrast-baseline.json"), "--fail-on", "never").returncode == 0


def test_bad_palette_exits_2_with_file_line_and_pointer(run, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "bad", "themes": {"light": {"tokens": {\n  "text": "#12"\n}}}}')
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"name": "good", "themes": {"light": {"tokens": {"a": "#000", "b": "#fff"}}},
                                "checks": [{"foreground": "a", "background": "b"}]}))
    r = run("audit", str(tmp_path))
    assert r.returncode == 2
    assert f"{bad}:2:11: /themes/light/tokens/text (theme 'light') token \"text\" has \"#12\"" in r.stderr
    assert "good" in r.stdout and "1 check" in r.stdout  # the other palette was still audited
    r = run("audit", str(tmp_path / "missing.json"))
    assert r.returncode == 2 and "no such file or directory" in r.stderr
    (tmp_path / "broken.json").write_text("{")
    assert run("audit", str(tmp_path / "broken.json")).returncode == 2


def test_bad_baseline_exits_2(run, tmp_path):
    (tmp_path / "baseline.json").write_text('{"entries": 3}')
    r = run("audit", "palettes/", "--baseline", str(tmp_path / "baseline.json"))
    assert r.returncode == 2 and "baseline.json" in r.stderr


def test_json_format_is_the_audit_model(run, tmp_path):
    out = tmp_path / "audit.json"
    r = run("audit", "palettes/", "--format", "json", "--output", str(out))
    assert r.returncode == 1
    assert r.stdout == ""
    data = json.loads(out.read_text())
    assert data["schemaVersion"] == 1
    names = [p["name"] for p in data["palettes"]]
    assert "peptide-fox" in names and "train" in names
    result = data["palettes"][names.index("peptide-fox")]["themes"][0]["results"][0]
    for key in ("id", "foreground", "background", "ratio", "display", "apca", "achieved", "verdict", "usage", "level", "pointer"):
        assert key in result
    assert data["summary"]["fail"] > 0


def test_junit_parses_and_carries_failures(run):
    r = run("audit", "palettes/", "--format", "junit")
    root = ET.fromstring(r.stdout)
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert any(s.get("name") == "peptide-fox › light" for s in suites)
    failures = root.findall(".//testcase/failure")
    assert len(failures) == int(root.get("failures")) > 0
    purple = [tc for tc in root.iter("testcase") if tc.get("name") == "badge:purple"][0]
    assert "6.40:1 is below 7:1" in purple.find("failure").get("message")
    assert root.findall(".//testcase/skipped")


def test_markdown(run):
    r = run("audit", "palettes/", "--format", "markdown")
    assert r.stdout.startswith("## Contrast audit")
    assert "| Palette | Theme | Checks | Pass | Fail | Exempt | False claims |" in r.stdout
    assert "| peptide-fox | light |" in r.stdout


def test_sarif_has_the_required_fields(run):
    r = run("audit", "palettes/", "--format", "sarif")
    data = json.loads(r.stdout)
    assert data["version"] == "2.1.0"
    run0 = data["runs"][0]
    assert run0["tool"]["driver"]["name"] == "contrast"
    rule_ids = {rule["id"] for rule in run0["tool"]["driver"]["rules"]}
    assert run0["results"]
    for result in run0["results"]:
        assert result["ruleId"] in rule_ids
        assert result["message"]["text"]
        assert result["level"] in ("error", "warning", "note")
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"].startswith("palettes/")
        assert location["region"]["startLine"] >= 1
    purple = [x for x in run0["results"] if "badge:purple" in x["message"]["text"] and x["ruleId"] == "contrast/insufficient"][0]
    lines = (ROOT / "palettes" / "peptide-fox.json").read_text().splitlines()
    assert '"purple"' in lines[purple["locations"][0]["physicalLocation"]["region"]["startLine"] - 1] or \
        "#e9d5ff" in "\n".join(lines[purple["locations"][0]["physicalLocation"]["region"]["startLine"] - 1:][:3])


def test_theme_filter(run):
    r = run("audit", "palettes/peptide-fox.json", "--theme", "dark", "--format", "json")
    data = json.loads(r.stdout)
    assert [t["name"] for t in data["palettes"][0]["themes"]] == ["dark"]
    assert run("audit", "palettes/", "--theme", "sepia").returncode == 2


def run_in_terminal(binary, args, env):
    """Runs the binary with a pseudo-terminal as standard output; returns what it printed."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(binary, [binary, *args], env)
    output = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.waitpid(pid, 0)
    return output.decode()


def test_tty_gets_swatches_and_no_color_turns_them_off(binary):
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    colored = run_in_terminal(binary, ["audit", str(ROOT / "palettes")], env)
    assert "\x1b[38;2;107;33;168m\x1b[48;2;233;213;255m" in colored  # purple badge swatch
    plain = run_in_terminal(binary, ["audit", str(ROOT / "palettes")], {**env, "NO_COLOR": "1"})
    assert "FAIL" in plain and not ANSI.search(plain)


# matrix ---------------------------------------------------------------------------------------

def test_matrix_formats(run, tmp_path):
    r = run("matrix", "palettes/train.json", "--format", "csv")
    assert r.returncode == 0, r.stderr
    rows = r.stdout.splitlines()
    assert rows[0] == "foreground,background,foreground_hex,background_hex,ratio,level"
    tokens = {row.split(",")[0] for row in rows[1:]}
    n = len(tokens)
    assert n == 14 and len(rows) - 1 == n * (n - 1)
    summary = run("matrix", "palettes/train.json", "--format", "summary")
    assert "best partners" in summary.stdout
    data = json.loads(run("matrix", "palettes/peptide-fox.json", "--format", "json").stdout)
    assert data["theme"] == "light" and len(data["pairs"]) == 5 * 4
    grid = run("matrix", "palettes/peptide-fox.json", "--theme", "dark")
    assert "foreground \\ background" in grid.stdout
    assert "shadow.card left out" in grid.stderr
    assert run("matrix", "palettes/peptide-fox.json", "--theme", "sepia").returncode == 2
    assert run("matrix", "palettes/train.json", "--max-pairs", "10").returncode == 2


def test_matrix_leaves_gradient_tokens_out_with_a_note(run, tmp_path):
    """A system that declares a gradient token (Bootstrap's --bs-gradient) made the matrix exit 2:
    a gradient is not one color. It is left out with a note, as a translucent token is."""
    css = tmp_path / "tokens.css"
    css.write_text(":root { --ink: #111111; --paper: #ffffff; --sheen: linear-gradient(180deg, rgba(255,255,255,.15), rgba(255,255,255,0)); }\n")
    r = run("matrix", str(css), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert "note: sheen left out: a gradient, not one color (an audit check judges text on it at its worst point)" in r.stderr
    assert {(p["foreground"], p["background"]) for p in json.loads(r.stdout)["pairs"]} == {("ink", "paper"), ("paper", "ink")}
    bootstrap = ROOT.parent / "shared" / "realworld4" / "bootstrap" / "bootstrap-5.3.8.min.css"
    if bootstrap.is_file():
        r = run("matrix", str(bootstrap), "--format", "summary")
        assert r.returncode == 0, r.stderr[-2000:]
        assert "note: bs-gradient left out: a gradient, not one color" in r.stderr


def test_matrix_reads_folder_sources_and_is_not_stopped_by_warnings(run, tmp_path):
    """Bare HSL channels are read as hsl() with a warning, which stopped the matrix (exit 2)
    though it does not stop an audit; and an asset catalog, a folder, was not read at all."""
    css = tmp_path / "globals.css"
    css.write_text(":root { --background: 0 0% 100%; --foreground: 222.2 84% 4.9%; }\n")
    r = run("matrix", str(css), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert "warning:" in r.stderr and "bare HSL channels" in r.stderr
    assert {(p["foreground"], p["background"]) for p in json.loads(r.stdout)["pairs"]} == {("background", "foreground"), ("foreground", "background")}
    catalog = tmp_path / "Assets.xcassets"
    for name, value in [("Ink", "0.1"), ("Paper", "1.0")]:
        (catalog / f"{name}.colorset").mkdir(parents=True)
        components = {"red": value, "green": value, "blue": value, "alpha": "1.000"}
        (catalog / f"{name}.colorset" / "Contents.json").write_text(json.dumps({"colors": [{"color": {"color-space": "srgb", "components": components}, "idiom": "universal"}]}))
    (catalog / "Contents.json").write_text(json.dumps({"info": {"author": "xcode", "version": 1}}))
    r = run("matrix", str(catalog), "--format", "csv")
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == 3


# suggest and variants -------------------------------------------------------------------------

def test_suggest_gives_the_nearest_passing_colors(run):
    r = run("suggest", "#777", "white", "--format", "json")
    assert r.returncode == 1  # the pair as given fails
    data = json.loads(r.stdout)
    fg = data["suggestions"]["foreground"][0]
    assert fg["hex"] == "#767676" and fg["direction"] == "darker" and fg["ratio"] >= 4.5
    assert run("suggest", "#000", "white").returncode == 0
    r = run("suggest", "#2563eb", "#777", "--level", "AAA")
    assert "no foreground of this hue reaches 7:1 on #777777; the best reachable is 4.68:1" in r.stdout
    assert run("suggest", "#777", "white", "--target", "bogus").returncode == 2


def test_suggest_measures_a_translucent_foreground_as_drawn(run):
    """Seed 000's iOS secondary label (60 % opaque) was offered the background #242424 as
    "4.51:1", measured over the old background; under it the label is 1.22:1. No background
    carries it to 4.5:1, and `suggest` says so; every color it does offer checks as printed."""
    r = run("suggest", "#3c3c4399", "#f2f2f7", "--format", "json")
    assert r.returncode == 1, r.stderr
    data = json.loads(r.stdout)
    assert data["composited"] == {"foreground": "#85858b", "background": "#f2f2f7"}
    assert data["display"] == json.loads(run("check", "#3c3c4399", "#f2f2f7", "--format", "json").stdout)["display"]
    assert data["suggestions"]["background"] == []
    assert data["suggestions"]["notes"] == ["no background reaches 4.5:1 under #3c3c4399 (60% opaque, painted over the background): "
                                            "the best any background gives is 3.43:1 (on #ffffff); change the foreground"]
    for fg, bg, shown in ([(c["hex"], "#f2f2f7", c["display"]) for c in data["suggestions"]["foreground"]]
                          + [(data["suggestions"]["both"]["foreground"]["hex"], data["suggestions"]["both"]["background"]["hex"],
                              data["suggestions"]["both"]["foreground"]["display"])]):
        assert json.loads(run("check", fg, bg, "--format", "json").stdout)["display"] == shown, (fg, bg)
    # A translucent foreground some background can carry: measured under it.
    data = json.loads(run("suggest", "#ffffffcc", "#888888", "--format", "json").stdout)
    bg = data["suggestions"]["background"][0]
    assert json.loads(run("check", "#ffffffcc", bg["hex"], "--format", "json").stdout)["display"] == bg["display"]
    assert run("suggest", "#000", "#ffffff80").returncode == 2  # the background must be opaque


def test_variants_for_light_and_dark(run):
    r = run("variants", "#2563eb", "--on", "white", "--on", "#0f172a", "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["variants"][0]["variant"]["direction"] == "unchanged"
    dark = data["variants"][1]["variant"]
    assert dark["direction"] == "lighter" and dark["ratio"] >= 4.5
    assert run("variants", "#2563eb").returncode == 2


def test_failing_checks_carry_suggestions(run):
    data = json.loads(run("audit", "palettes/peptide-fox.json", "--format", "json").stdout)
    purple = [r for r in data["palettes"][0]["themes"][0]["results"] if r["id"] == "badge:purple"][0]
    fixes = purple["suggestions"]
    assert fixes["foreground"][0]["ratio"] >= 7 and fixes["both"]["background"]["ratio"] >= 7
    # The nearest lighter background would make the purple badge confusable with the teal one,
    # which it is told apart from now (the badges form a distinct group): it is left out, and said.
    assert fixes["background"] == []
    assert "the background #f4e0ff (lighter) is left out: it would be confusable with badge teal (#ccfbf1), which it must stay distinguishable from" in fixes["notes"]
    text = run("audit", "palettes/peptide-fox.json").stdout
    assert "fix: foreground #6518a1 (darker, ΔE-OK 0.021, 7.01:1)" in text


def test_derive_writes_a_copy_and_reports_each_token(run, tmp_path):
    source = tmp_path / "train.json"
    source.write_text((ROOT / "palettes" / "train.json").read_text())
    before = source.read_text()
    out = tmp_path / "train-dark.json"
    r = run("derive", str(source), "--from", "light", "--to", "dark", "--surface", "#1a1a1a", "--output", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "surface.background  #f5f5f5 → #1a1a1a" in r.stdout and "wrote" in r.stdout
    assert source.read_text() == before  # never overwrites the input without --in-place
    derived = json.loads(out.read_text())
    assert list(derived["themes"]) == ["light", "dark"]
    audit = json.loads(run("audit", str(out), "--theme", "dark", "--format", "json").stdout)
    assert audit["summary"]["fail"] == 0
    r = run("derive", str(source), "--to", "dark", "--surface", "#1a1a1a")
    assert r.returncode == 2 and "--output" in r.stderr
    r = run("derive", str(source), "--to", "dark", "--surface", "#1a1a1a", "--in-place", "--format", "json")
    assert r.returncode == 0 and json.loads(r.stdout)["to"] == "dark"
    assert "dark" in json.loads(source.read_text())["themes"]
    r = run("derive", str(ROOT / "palettes" / "peptide-fox.json"), "--to", "dark", "--surface", "#0f172a", "--output", "-")
    assert r.returncode == 1  # the literal badge colors cannot be changed by derive
    assert "both are literal colors" in r.stderr
    json.loads(r.stdout)


def test_fuzz_corpus_and_crashes_replay(run):
    """Every committed seed and every crash the fuzzers ever found runs clean (built normally, the
    fuzz targets replay files)."""
    import subprocess
    for target in ("color", "palette"):
        binary = ROOT / ".build" / "debug" / f"fuzz-{target}"
        inputs = [str(ROOT / "fuzz" / "corpus" / target), str(ROOT / "fuzz" / "crashes")]
        r = subprocess.run([str(binary), *inputs], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr[-2000:]
        assert "replayed" in r.stdout


# --deadline -----------------------------------------------------------------------------------

def fan_out_tokens(tmp_path):
    """1 KB of DTCG `$ref`s that each name the next level twice, 22 deep: small, and slow to
    read (the read budget stops it after a million steps; the service's request deadline stops
    it sooner, test_hostile_tokens.py)."""
    from test_hostile_tokens import ref_fan_out
    path = tmp_path / "fan-out.tokens.json"
    path.write_text(json.dumps(ref_fan_out()))
    assert path.stat().st_size < 2_000
    return path


# A microsecond has passed by the time any file is open: the first step a read takes past
# the first 4,096 finds the deadline gone, on any machine.
TINY = "0.000001"


def deadline_runs(path, tmp_path):
    out = tmp_path / "out"
    return {
        "audit": ["audit", str(path)],
        "report": ["report", str(path), "--out", str(out)],
        "init": ["init", str(path), "--output", str(out / "contrast.checks.json")],
        "derive": ["derive", str(path), "--surface", "black", "--output", str(out / "derived.json")],
        "matrix": ["matrix", str(path), "--output", str(out / "matrix.txt")],
    }


@pytest.mark.parametrize("command", ["audit", "report", "init", "derive", "matrix"])
def test_a_read_past_the_deadline_stops_the_run_with_exit_2_naming_the_deadline_and_the_file(run, tmp_path, command):
    path = fan_out_tokens(tmp_path)
    r = run(*deadline_runs(path, tmp_path)[command], "--deadline", TINY, timeout=120)
    assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-1500:])
    errors = [line for line in r.stderr.splitlines() if line.lower().startswith("error:")]
    assert len(errors) == 1, r.stderr[-1500:]
    # The file and the place the read stopped at, the deadline, and what was being read.
    assert re.search(r"fan-out\.tokens\.json:\d+:\d+: .*the --deadline of 1e-06 s passed while reading ", errors[0]), errors
    assert "nothing was written" in errors[0]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir()), list((tmp_path / "out").iterdir())


def test_without_a_deadline_the_same_read_runs_to_its_budget(run, tmp_path):
    """Off by default: the read budget, not a deadline, stops the file."""
    path = fan_out_tokens(tmp_path)
    r = run("audit", str(path), timeout=120)
    assert r.returncode == 2, r.stderr[-1500:]
    assert "--deadline" not in r.stderr
    assert "the budget for an input of this size" in r.stderr


def test_a_generous_deadline_changes_nothing(run):
    plain = run("audit", "palettes/peptide-fox.json", "--format", "json")
    bounded = run("audit", "palettes/peptide-fox.json", "--format", "json", "--deadline", "600")
    assert bounded.returncode == plain.returncode, bounded.stderr
    assert json.loads(bounded.stdout)["summary"] == json.loads(plain.stdout)["summary"]


def test_work_no_read_budget_reaches_is_stopped_a_second_after_the_deadline(run, tmp_path):
    """300 tokens, each on every other at AAA and APCA 90: 90,000 failing checks that each want
    suggestions, minutes of the audit's work after a read of milliseconds. The watchdog stops the
    run (or, on a machine fast enough, the check after the audit does) with the same error."""
    tokens = {f"t{i}": "#%06x" % (i * 2654435 % 0xFFFFFF) for i in range(300)}
    palette = {"name": "slow", "themes": {"only": {"tokens": tokens}},
               "checks": [{"id": "all", "foreground": "t*", "background": "t*", "level": "AAA", "apca": 90}]}
    path = tmp_path / "slow.json"
    path.write_text(json.dumps(palette))
    r = run("audit", str(path), "--deadline", TINY, "--format", "json", "--output", str(tmp_path / "audit.json"), timeout=300)
    assert r.returncode == 2, (r.returncode, r.stderr[-1500:])
    assert f"the --deadline of 1e-06 s passed while reading and auditing {path}" in r.stderr or \
        re.search(r"slow\.json:\d+:\d+: .*the --deadline of 1e-06 s passed", r.stderr), r.stderr[-1500:]
    assert not (tmp_path / "audit.json").exists()
    assert not [p.name for p in tmp_path.iterdir() if ".partial-" in p.name]


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_a_deadline_must_be_a_positive_number_of_seconds(run, value):
    r = run("audit", "palettes/peptide-fox.json", f"--deadline={value}")
    assert r.returncode == 2
    assert "--deadline" in r.stderr


def test_also_writes_other_formats_from_the_same_run(run, tmp_path):
    """`--also FORMAT=FILE` writes the audit in another format from the one run: the same bytes as
    that format alone; a bad value is a usage error naming what was expected."""
    palettes = str(ROOT / "palettes")
    alone = run("audit", palettes, "--format", "json")
    with_also = run("audit", palettes, "--format", "text", "--also", f"json={tmp_path / 'a.json'}", "--also", f"markdown={tmp_path / 'a.md'}")
    assert with_also.returncode == alone.returncode
    assert (tmp_path / "a.json").read_text() == alone.stdout
    assert (tmp_path / "a.md").read_text() == run("audit", palettes, "--format", "markdown").stdout
    for bad, says in (("json", "expected FORMAT=FILE"), ("github=x", "'github' is not a format --also writes"), ("yaml=x", "'yaml' is not a format")):
        r = run("audit", palettes, "--also", bad)
        assert r.returncode == 2, (r.returncode, r.stderr)
        assert says in r.stderr, r.stderr
