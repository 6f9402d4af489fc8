"""The GitHub Action (action.yml), run step by step as the runner runs it (actionrunner.py),
with the real built binary, a fake `gh` on PATH that keeps a pull request's comments and
records every call, and a fixture repository in a temporary directory."""
import hashlib
import http.server
import json
import os
import pathlib
import shutil
import stat
import threading

import pytest

from actionrunner import run_action
from conftest import ROOT

# A stand-in for the GitHub CLI: `gh api` on the issue-comments endpoints, over a JSON file
# of comments. The list call's --jq filter is applied by the real jq, as gh applies it. Any
# other use of gh fails, so the action cannot call what this does not check.
FAKE_GH = r'''#!/usr/bin/env python3
import json, os, subprocess, sys
args = sys.argv[1:]
state_path, log_path = os.environ["FAKE_GH_STATE"], os.environ["FAKE_GH_LOG"]
state = json.load(open(state_path))
call = {"args": args, "token": os.environ.get("GH_TOKEN", "")}
method, jq, fields, rest = "GET", None, {}, []
i = 1
if not args or args[0] != "api":
    sys.exit("fake gh: only `gh api` is known, got %r" % args)
while i < len(args):
    a = args[i]
    if a == "--paginate": pass
    elif a == "--method": i += 1; method = args[i]
    elif a == "--jq": i += 1; jq = args[i]
    elif a == "-F":
        i += 1; key, value = args[i].split("=", 1)
        fields[key] = open(value[1:]).read() if value.startswith("@") else value
    else: rest.append(a)
    i += 1
call.update(method=method, endpoint=rest[0], fields=fields)
with open(log_path, "a") as log: log.write(json.dumps(call) + "\n")
if state.get("deny"):
    sys.stderr.write("HTTP 403: Resource not accessible by integration (https://api.github.com/%s)\n" % rest[0])
    sys.exit(1)
parts = rest[0].split("/")
if method == "GET" and parts[3:4] == ["issues"] and parts[5:] == ["comments"]:
    comments = [c for c in state["comments"] if c["issue"] == int(parts[4])]
    out = json.dumps(comments)
    if jq is not None:
        out = subprocess.run(["jq", "-r", jq], input=out, capture_output=True, text=True, check=True).stdout
    sys.stdout.write(out)
elif method == "POST" and parts[5:] == ["comments"]:
    state["next"] = state.get("next", 100) + 1
    comment = {"id": state["next"], "issue": int(parts[4]), "body": fields["body"]}
    state["comments"].append(comment)
    print(json.dumps(comment))
elif method == "PATCH" and parts[3:5] == ["issues", "comments"]:
    found = [c for c in state["comments"] if c["id"] == int(parts[5])]
    if not found: sys.stderr.write("HTTP 404: Not Found\n"); sys.exit(1)
    found[0]["body"] = fields["body"]
    print(json.dumps(found[0]))
else:
    sys.exit("fake gh: unexpected call %r" % args)
json.dump(state, open(state_path, "w"))
'''

PALETTE = """{"name": "brand", "themes": {"light": {"tokens": {
  "bg": "#ffffff",
  "fg": "%s"
}}},
"checks": [{"id": "body", "foreground": "fg", "background": "bg"}]}
"""


@pytest.fixture
def world(tmp_path, binary):
    """A repository with a token file and a baseline, a runner's temp folder and a fake gh."""
    repo = tmp_path / "repo"
    (repo / "tokens").mkdir(parents=True)
    (repo / "tokens" / "brand.json").write_text(PALETTE % "#000000")
    import subprocess
    subprocess.run([binary, "audit", "tokens", "--write-baseline", "contrast-baseline.json"],
                   cwd=repo, check=True, capture_output=True)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    gh = bindir / "gh"
    gh.write_text(FAKE_GH)
    gh.chmod(gh.stat().st_mode | stat.S_IEXEC)
    state = tmp_path / "gh-state.json"
    state.write_text(json.dumps({"comments": [
        {"id": 5, "issue": 7, "body": "Looks good to me"},
        {"id": 6, "issue": 8, "body": "<!-- contrast-audit -->\nanother pull request's audit"},
    ]}))
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    summary = tmp_path / "step-summary.md"
    summary.write_text("")

    class World:
        pass
    w = World()
    w.repo, w.temp, w.state, w.log, w.summary, w.binary = repo, temp, state, tmp_path / "gh-calls.jsonl", summary, binary
    w.env = {
        "PATH": f"{bindir}:{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_REPOSITORY": "octo/app",
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_OS": "Linux",
        "RUNNER_ARCH": "X64",
        "FAKE_GH_STATE": str(state),
        "FAKE_GH_LOG": str(w.log),
    }
    w.github = {"token": "ghs_fake", "repository": "octo/app", "action_ref": "", "action_repository": "",
                "event": {"pull_request": {"number": 7}}}

    def run(**inputs):
        inputs.setdefault("binary", binary)
        return run_action(str(ROOT), str(repo), str(temp), inputs=inputs, github=w.github, env=w.env)
    w.run = run
    w.calls = lambda: [json.loads(line) for line in w.log.read_text().splitlines()] if w.log.exists() else []
    w.comments = lambda: json.loads(state.read_text())["comments"]
    return w


def test_a_regression_is_annotated_summarized_commented_and_fails(world):
    (world.repo / "tokens" / "brand.json").write_text(PALETTE % "#777777")
    r = world.run(paths="tokens/", baseline="contrast-baseline.json", sarif="contrast.sarif", comment="true")
    assert r.failed_step == "Result" and r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    regression = next(line for line in lines if line.startswith("::error") and "regression" in line)
    assert regression.startswith("::error file=tokens/brand.json,line=3,title=Contrast regression%3A light › body::regressed: brand › light › body: AAA → AA-large")
    assert any(line.startswith("::error file=tokens/brand.json,line=3,title=Insufficient contrast") for line in lines)
    # The summary went to the job summary, once.
    summary = world.summary.read_text()
    assert summary.count("## Contrast audit") == 1 and "regressed" in summary
    assert r.outputs == {"checks": "1", "pass": "0", "fail": "1", "false-claims": "0", "problems": "0",
                         "regressions": "1", "coverage": "100", "measured-tokens": "2", "color-tokens": "2",
                         "outcome": "fail", "sarif": "contrast.sarif", "exit-code": "1"}
    sarif = json.loads((world.repo / "contrast.sarif").read_text())
    assert sarif["version"] == "2.1.0" and {x["ruleId"] for x in sarif["runs"][0]["results"]} == {"contrast/insufficient", "contrast/regression"}
    # One new comment on pull request 7, with the marker; the other comments are untouched.
    calls = world.calls()
    assert [(c["method"], c["endpoint"]) for c in calls] == [
        ("GET", "repos/octo/app/issues/7/comments"), ("POST", "repos/octo/app/issues/7/comments")]
    assert all(c["token"] == "ghs_fake" for c in calls)
    comments = world.comments()
    assert [c["id"] for c in comments] == [5, 6, 101]
    assert comments[2]["body"].startswith("<!-- contrast-audit -->\n## Contrast audit") and "regressed" in comments[2]["body"]
    assert comments[1]["body"] == "<!-- contrast-audit -->\nanother pull request's audit"

    # The fix, pushed: the same comment is edited in place, and the job passes.
    world.log.unlink()
    (world.repo / "tokens" / "brand.json").write_text(PALETTE % "#000000")
    r = world.run(paths="tokens/", baseline="contrast-baseline.json", comment="true")
    assert r.returncode == 0 and r.failed_step is None, r.stdout + r.stderr
    assert not any(line.startswith("::error") for line in r.stdout.splitlines())
    assert [(c["method"], c["endpoint"]) for c in world.calls()] == [
        ("GET", "repos/octo/app/issues/7/comments"), ("PATCH", "repos/octo/app/issues/comments/101")]
    comments = world.comments()
    assert [c["id"] for c in comments] == [5, 6, 101]
    assert "regressed" not in comments[2]["body"] and "0 regression(s)" in comments[2]["body"]
    assert r.outputs["regressions"] == "0" and r.outputs["sarif"] == ""


def test_a_token_that_may_not_comment_is_a_warning_not_a_failure(world):
    world.state.write_text(json.dumps({"comments": [], "deny": True}))
    r = world.run(paths="tokens/brand.json", comment="true")
    assert r.returncode == 0 and r.failed_step is None, r.stdout + r.stderr
    warning = next(line for line in r.stdout.splitlines() if line.startswith("::warning title=contrast::"))
    assert "cannot read the audit comment on pull request #7: HTTP 403: Resource not accessible by integration" in warning
    assert "pull-requests: write" in warning


def test_no_comment_unless_asked_and_none_outside_a_pull_request(world):
    r = world.run(paths="tokens")
    assert r.returncode == 0 and world.calls() == []
    world.github["event"] = {}
    world.env["GITHUB_EVENT_NAME"] = "push"
    r = world.run(paths="tokens", comment="true")
    assert r.returncode == 0 and world.calls() == []
    assert "::notice title=contrast::comment: this push run has no pull request to comment on" in r.stdout


def test_broken_input_exits_2_and_paths_may_hold_spaces(world):
    spaced = world.repo / "design tokens"
    spaced.mkdir()
    (spaced / "bad.json").write_text('{"name": "x", "themes": {"light": {"tokens": {"a": "#12"}}}}')
    r = world.run(paths="tokens\ndesign tokens/bad.json\n")
    assert r.returncode == 2 and r.failed_step == "Result"
    assert any(line.startswith("::error file=design tokens/bad.json,line=1,col=") for line in r.stdout.splitlines())
    assert r.outputs["problems"] == "1" and r.outputs["exit-code"] == "2"


class Releases(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def releases(tmp_path):
    """A release server on loopback: /octo/contrast/releases/download/TAG/ASSET."""
    root = tmp_path / "releases"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: Releases(*a, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_the_release_binary_is_downloaded_and_verified(world, releases):
    root, url = releases
    tag = root / "octo" / "contrast" / "releases" / "download" / "v9.9.9"
    tag.mkdir(parents=True)
    asset = tag / "contrast-linux-x86_64"
    shutil.copy(world.binary, asset)
    digest = hashlib.sha256(asset.read_bytes()).hexdigest()
    (tag / "contrast-linux-x86_64.sha256").write_text(f"{digest}  contrast-linux-x86_64\n")
    world.env["GITHUB_SERVER_URL"] = url
    world.github.update(action_ref="v9.9.9", action_repository="octo/contrast")
    r = world.run(paths="tokens", binary="")
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"contrast v9.9.9 (contrast-linux-x86_64, SHA-256 {digest})" in r.stdout
    assert r.outputs["checks"] == "1"

    # A binary that is not the one its checksum names is refused, never run.
    (tag / "contrast-linux-x86_64.sha256").write_text("0" * 64 + "  contrast-linux-x86_64\n")
    r = world.run(paths="tokens", binary="")
    assert r.failed_step == "Get contrast"
    assert "::error title=contrast::contrast-linux-x86_64 from " in r.stdout and "refusing it" in r.stdout
    (tag / "contrast-linux-x86_64.sha256").unlink()
    r = world.run(paths="tokens", binary="")
    assert r.failed_step == "Get contrast" and "refusing an unverified binary" in r.stdout

    # No release of this version (a branch, a commit): built from source, which needs Swift.
    world.github["action_ref"] = "main"
    world.env["PATH"] = f"{pathlib.Path(world.env['PATH'].split(':')[0])}:/usr/bin:/bin"
    r = world.run(paths="tokens", binary="")
    assert r.failed_step == "Get contrast"
    assert "::notice title=contrast::no release binary of contrast 'main' for Linux/X64: building it from source" in r.stdout
    assert "::error title=contrast::building contrast needs Swift 6" in r.stdout
