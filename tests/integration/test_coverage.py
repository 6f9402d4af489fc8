"""Coverage and no empty pass (issue #48, section 3), with the real binary: an audit of colors
without checks is not a pass; every output says how much the checks measure; --min-coverage
fails below it; `contrast audit DIR` uses the DIR/contrast.checks.json that `contrast init DIR`
writes; the Action, the pre-commit hook and the HTTP audit say it the same way."""
import json
import os
import shutil
import subprocess

import pytest
import yaml

from actionrunner import run_action
from conftest import ROOT
from server import Server

TOKENS = {
    "color": {
        "gray": {"900": {"$type": "color", "$value": "#1f2328"}, "500": {"$type": "color", "$value": "#6e7781"}},
        "text": {"primary": {"$type": "color", "$value": "{color.gray.900}"}, "muted": {"$type": "color", "$value": "{color.gray.500}"},
                 "disabled": {"$type": "color", "$value": "#8c959f"}},
        "bg": {"page": {"$type": "color", "$value": "#ffffff"}, "inset": {"$type": "color", "$value": "#f6f8fa"}},
        "brand": {"$type": "color", "$value": "#0969da"},
    }
}
BODY = {"checks": [{"id": "body", "foreground": "color.text.primary", "background": "color.bg.page"}]}


@pytest.fixture
def tokens(tmp_path):
    directory = tmp_path / "tokens"
    directory.mkdir()
    (directory / "colors.tokens.json").write_text(json.dumps(TOKENS))
    return directory


def message(directory):
    return (f"error: {directory}/colors.tokens.json has 8 color tokens and no checks: nothing was measured. "
            f"Run `contrast init {directory}` to propose checks, or pass --allow-empty.")


def test_colors_and_no_checks_exit_2_naming_contrast_init(run, tokens):
    r = run("audit", str(tokens))
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.strip().splitlines()[-1] == message(tokens)
    assert "coverage: 0 of 8 color tokens measured (0%)" in r.stdout
    # The same for one file, and in JSON: measured 0, the outcome empty, with its reason.
    r = run("audit", str(tokens / "colors.tokens.json"), "--format", "json")
    assert r.returncode == 2
    report = json.loads(r.stdout)
    assert report["summary"]["checks"] == 0
    assert report["coverage"] == {"measured": 0, "percent": 0, "tokens": 8,
                                  "unmeasuredSurfaces": {"count": 2}, "unmeasuredText": {"count": 2}}
    assert report["outcome"]["status"] == "empty"
    assert report["outcome"]["reasons"][0]["code"] == "nothing-measured"
    assert "contrast init" in report["outcome"]["reasons"][0]["message"]
    # --allow-empty: asked for, so it passes.
    r = run("audit", str(tokens), "--allow-empty")
    assert r.returncode == 0, r.stderr
    assert "nothing was measured" not in r.stderr
    # The nightly report says it too, and writes the report first.
    out = tokens.parent / "report"
    r = run("report", str(tokens), "--out", str(out))
    assert r.returncode == 2 and r.stderr.strip().splitlines()[-1] == message(tokens)
    assert "Nothing was measured" in (out / "index.html").read_text()
    assert run("report", str(tokens), "--out", str(out), "--allow-empty").returncode == 0


def test_coverage_in_json_text_markdown_html_and_sarif(run, tokens, tmp_path):
    checks = tmp_path / "checks.json"
    checks.write_text(json.dumps(BODY))
    r = run("audit", str(tokens), "--checks", str(checks), "--format", "json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    # text.primary, the gray.900 it aliases, and bg.page: 3 of 8.
    palette = report["palettes"][0]
    assert palette["coverage"] == {"measured": 3, "percent": 37.5, "tokens": 8,
                                   "unmeasuredSurfaces": {"count": 1, "names": ["color.bg.inset"]},
                                   "unmeasuredText": {"count": 1, "names": ["color.text.muted"]}}
    assert report["coverage"]["measured"] == 3 and report["coverage"]["tokens"] == 8
    assert report["outcome"] == {"reasons": [], "status": "pass"}
    assert report["checksFiles"] == [{"file": str(checks), "origin": "given"}]

    text = run("audit", str(tokens), "--checks", str(checks)).stdout
    assert "  coverage: 3 of 8 color tokens measured (37.5%)\n" in text
    assert "  not measured  text (1): color.text.muted\n" in text
    assert "  not measured  surfaces (1): color.bg.inset\n" in text
    assert text.endswith("coverage: 3 of 8 color tokens measured (37.5%); 1 text-like and 1 surface-like tokens no check measures\n")

    markdown = run("audit", str(tokens), "--checks", str(checks), "--format", "markdown").stdout
    assert "**Coverage:** 3 of 8 color tokens measured (37.5%) · 1 text-like and 1 surface-like tokens no check measures" in markdown
    assert "| Palette | Theme | Checks | Pass | Fail | Exempt | False claims | Coverage |" in markdown
    assert "| 37.5% of 8 |" in markdown
    assert "- Text (1): `color.text.muted`" in markdown

    html = run("audit", str(tokens), "--checks", str(checks), "--format", "html").stdout
    assert "coverage: 3 of 8 color tokens measured (37.5%)" in html and "<code>color.bg.inset</code>" in html

    sarif = json.loads(run("audit", str(tokens), "--checks", str(checks), "--format", "sarif").stdout)
    assert sarif["runs"][0]["properties"]["coverage"] == {"measured": 3, "percent": 37.5, "tokens": 8, "unmeasuredSurfaces": 1, "unmeasuredText": 1}
    empty = json.loads(run("audit", str(tokens), "--format", "sarif").stdout)
    assert [(x["ruleId"], x["level"]) for x in empty["runs"][0]["results"]] == [("contrast/nothing-measured", "error")]


def test_min_coverage_fails_below_it_with_the_figure_and_the_threshold(run, tokens, tmp_path):
    checks = tmp_path / "checks.json"
    checks.write_text(json.dumps(BODY))
    r = run("audit", str(tokens), "--checks", str(checks), "--min-coverage", "50")
    assert r.returncode == 1, r.stdout + r.stderr
    assert r.stderr.strip().splitlines()[-1] == (
        "error: coverage 37.5% is below --min-coverage 50%: 3 of 8 color tokens are measured by some check; "
        "1 text-like and 1 surface-like tokens no check measures (the report lists them)")
    assert run("audit", str(tokens), "--checks", str(checks), "--min-coverage", "37.5").returncode == 0
    r = run("audit", str(tokens), "--checks", str(checks), "--min-coverage", "150")
    assert r.returncode == 2 and "--min-coverage 150: give a percentage from 0 to 100" in r.stderr


def test_audit_dir_uses_the_checks_init_wrote_there(run, tokens):
    made = run("init", str(tokens))
    assert made.returncode == 0, made.stderr
    written = tokens / "contrast.checks.json"
    assert written.exists()
    r = run("audit", str(tokens))
    assert r.returncode in (0, 1), r.stdout + r.stderr
    assert r.stdout.splitlines()[0] == f"checks: {written} (found beside the tokens)"
    report = json.loads(run("audit", str(tokens), "--format", "json").stdout)
    assert report["summary"]["checks"] > 0
    assert report["checksFiles"] == [{"file": str(written), "origin": "found", "paths": [str(tokens)]}]
    assert report["skipped"] == [], "the checks document is in use, not a palette passed over"
    assert report["coverage"]["measured"] > 0
    # A file named: its folder's document.
    one = json.loads(run("audit", str(tokens / "colors.tokens.json"), "--format", "json").stdout)
    assert one["checksFiles"][0]["file"] == str(written) and one["summary"]["checks"] == report["summary"]["checks"]


@pytest.fixture
def served(binary, tmp_path):
    directory = tmp_path / "served"
    directory.mkdir()
    (directory / "colors.tokens.json").write_text(json.dumps(TOKENS))
    s = Server(binary, str(directory), "--threads", "2", "--quiet")
    yield s
    assert s.stop() == 0, s.logs()[-2000:]


def test_the_http_audit_of_colors_without_checks_is_200_and_says_nothing_was_measured(served):
    status, _, report = served.json("POST", "/v1/audit?name=colors", TOKENS)
    assert status == 200
    assert report["coverage"]["measured"] == 0 and report["coverage"]["tokens"] == 8
    assert report["outcome"]["status"] == "empty"
    assert report["outcome"]["reasons"][0]["message"].startswith("palette 'colors' has 8 color tokens and no checks: nothing was measured.")
    status, _, listing = served.json("GET", "/v1/palettes")
    assert listing["palettes"][0]["verdict"] == "no checks: 8 color tokens, none measured"
    status, _, served_audit = served.json("GET", "/v1/palettes/colors/audit")
    assert served_audit["outcome"]["status"] == "empty"
    # With checks, the outcome passes and the coverage counts them.
    status, _, report = served.json("POST", "/v1/audit?name=colors", {"tokens": TOKENS, **BODY})
    assert status == 200 and report["outcome"] == {"reasons": [], "status": "pass"} and report["coverage"]["measured"] == 3


@pytest.fixture
def repo(tmp_path, binary):
    directory = tmp_path / "repo"
    (directory / "tokens").mkdir(parents=True)
    (directory / "tokens" / "colors.json").write_text(json.dumps(TOKENS))
    return directory


def test_the_action_fails_an_audit_that_measured_nothing_and_says_why(repo, tmp_path, binary):
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    summary = tmp_path / "summary.md"
    summary.write_text("")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push",
           "GITHUB_REPOSITORY": "octo/app", "GITHUB_STEP_SUMMARY": str(summary), "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64"}
    github = {"token": "t", "repository": "octo/app", "action_ref": "", "action_repository": "", "event": {}}
    r = run_action(str(ROOT), str(repo), str(temp), inputs={"paths": "tokens/", "binary": binary}, github=github, env=env)
    assert r.failed_step == "Result" and r.returncode == 2, r.stdout + r.stderr
    error = next(line for line in r.stdout.splitlines() if line.startswith("::error"))
    assert error == ("::error title=contrast%3A nothing measured::tokens/colors.json has 8 color tokens and no checks: nothing was measured. "
                     "Run `contrast init tokens/` to propose checks, or pass --allow-empty.")
    assert r.outputs["checks"] == "0" and r.outputs["outcome"] == "empty" and r.outputs["exit-code"] == "2"
    assert r.outputs["coverage"] == "0" and r.outputs["measured-tokens"] == "0" and r.outputs["color-tokens"] == "8"
    text = summary.read_text()
    assert "**0 checks · 0 pass · 0 fail**" in text and ":x: **Nothing was measured:**" in text and "contrast init tokens/" in text
    # allow-empty: the step passes; with init's checks beside the tokens, it measures them.
    summary.write_text("")
    r = run_action(str(ROOT), str(repo), str(temp), inputs={"paths": "tokens/", "binary": binary, "allow-empty": "true"}, github=github, env=env)
    assert r.returncode == 0 and r.failed_step is None, r.stdout + r.stderr
    assert r.outputs["outcome"] == "pass"
    subprocess.run([binary, "init", "tokens"], cwd=repo, check=True, capture_output=True)
    r = run_action(str(ROOT), str(repo), str(temp), inputs={"paths": "tokens/", "binary": binary, "min-coverage": "100"}, github=github, env=env)
    assert int(r.outputs["checks"]) > 0 and "::notice title=contrast::checks: tokens/contrast.checks.json (found beside the tokens)" in r.stdout
    assert r.outputs["outcome"] == "fail" and r.returncode == 1, r.stdout
    assert any(line.startswith("::error title=contrast%3A coverage::coverage ") for line in r.stdout.splitlines())


def test_the_pre_commit_hook_blocks_a_token_file_without_checks(repo, tmp_path, binary):
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed (make test installs it)")
    env = dict(os.environ, HOME=str(tmp_path), PRE_COMMIT_HOME=str(tmp_path / "pre-commit-cache"),
               PATH=f"{os.path.dirname(binary)}:{os.environ['PATH']}",
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    env.pop("GIT_DIR", None)

    def git(*args, check=True):
        r = subprocess.run(args, cwd=repo, env=env, capture_output=True, text=True, timeout=300)
        assert not check or r.returncode == 0, r.stdout + r.stderr
        return r
    with open(ROOT / ".pre-commit-hooks.yaml") as f:
        hook = next(h for h in yaml.safe_load(f) if h["id"] == "contrast-audit")
    hook["language"] = "system"
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump({"repos": [{"repo": "local", "hooks": [hook]}]}))
    git("git", "init", "-q", "-b", "main")
    git("pre-commit", "install")
    git("git", "add", ".")
    r = git("git", "commit", "-q", "-m", "tokens", check=False)
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "Failed" in out and "exit code: 2" in out, out
    assert "tokens/colors.json has 8 color tokens and no checks: nothing was measured. Run `contrast init tokens/colors.json` to propose checks" in out
    # init's checks, committed beside the tokens: the hook finds them, and a checks document is not audited alone.
    git(binary, "init", "tokens")
    git("git", "add", ".")
    r = git("git", "commit", "-q", "-m", "tokens and their checks", check=False)
    out = r.stdout + r.stderr
    assert "exit code: 2" not in out and "nothing was measured" not in out, out
