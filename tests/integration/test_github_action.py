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
# Who a token is: a personal token's login from state["users"]; any other token is the
# workflow's installation token, which GET /user refuses and which writes as the bot.
login = state.get("users", {}).get(call["token"])
if method == "GET" and parts == ["user"]:
    if login is None:
        sys.stderr.write("HTTP 403: Resource not accessible by integration (https://api.github.com/user)\n")
        sys.exit(1)
    out = json.dumps({"login": login, "id": 1})
    if jq is not None:
        out = subprocess.run(["jq", "-r", jq], input=out, capture_output=True, text=True, check=True).stdout
    sys.stdout.write(out)
elif method == "GET" and parts[3:4] == ["issues"] and parts[5:] == ["comments"]:
    comments = [c for c in state["comments"] if c["issue"] == int(parts[4])]
    out = json.dumps(comments)
    if jq is not None:
        out = subprocess.run(["jq", "-r", jq], input=out, capture_output=True, text=True, check=True).stdout
    sys.stdout.write(out)
elif method == "POST" and parts[5:] == ["comments"]:
    state["next"] = state.get("next", 100) + 1
    comment = {"id": state["next"], "issue": int(parts[4]), "body": fields["body"],
               "user": {"login": login or "github-actions[bot]"}}
    state["comments"].append(comment)
    print(json.dumps(comment))
elif method == "PATCH" and parts[3:5] == ["issues", "comments"]:
    found = [c for c in state["comments"] if c["id"] == int(parts[5])]
    if not found: sys.stderr.write("HTTP 404: Not Found\n"); sys.exit(1)
    if found[0]["user"]["login"] != (login or "github-actions[bot]"):
        # GitHub lets a repository's writers edit others' comments: the action must not.
        state.setdefault("edited_others", []).append(found[0]["id"])
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
        {"id": 5, "issue": 7, "body": "Looks good to me", "user": {"login": "reviewer"}},
        {"id": 6, "issue": 8, "body": "<!-- contrast-audit -->\nanother pull request's audit", "user": {"login": "github-actions[bot]"}},
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
        # Loopback only: a download a test does not serve is refused at once (port 9, discard).
        "GITHUB_SERVER_URL": "http://127.0.0.1:9",
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
        ("GET", "user"), ("GET", "repos/octo/app/issues/7/comments"), ("POST", "repos/octo/app/issues/7/comments")]
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
        ("GET", "user"), ("GET", "repos/octo/app/issues/7/comments"), ("PATCH", "repos/octo/app/issues/comments/101")]
    comments = world.comments()
    assert [c["id"] for c in comments] == [5, 6, 101]
    assert "regressed" not in comments[2]["body"] and "0 regression(s)" in comments[2]["body"]
    assert r.outputs["regressions"] == "0" and r.outputs["sarif"] == ""


def test_the_audit_runs_once_per_step(world, tmp_path):
    """The annotations, the JSON the outputs come from, the SARIF and the comment's Markdown come
    from one run of the audit (the action ran it four times: four reads, four outcomes)."""
    (world.repo / "tokens" / "brand.json").write_text(PALETTE % "#777777")
    log = tmp_path / "contrast-runs.log"
    wrapper = tmp_path / "contrast-counting"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{world.binary}" "$@"\n')
    wrapper.chmod(0o755)
    r = world.run(paths="tokens/", baseline="contrast-baseline.json", sarif="contrast.sarif", comment="true", binary=str(wrapper))
    assert r.returncode == 1, r.stdout + r.stderr
    runs = [line for line in log.read_text().splitlines() if line.startswith("audit ")]
    assert len(runs) == 1, runs
    assert "--also json=" in runs[0] and "--also sarif=contrast.sarif" in runs[0] and "--also markdown=" in runs[0]
    assert r.outputs["fail"] == "1" and r.outputs["sarif"] == "contrast.sarif"
    assert json.loads((world.repo / "contrast.sarif").read_text())["version"] == "2.1.0"
    assert world.comments()[-1]["body"].startswith("<!-- contrast-audit -->\n## Contrast audit")


def test_a_token_that_may_not_comment_is_a_warning_not_a_failure(world):
    world.state.write_text(json.dumps({"comments": [], "deny": True}))
    r = world.run(paths="tokens/brand.json", comment="true")
    assert r.returncode == 0 and r.failed_step is None, r.stdout + r.stderr
    warning = next(line for line in r.stdout.splitlines() if line.startswith("::warning title=contrast::"))
    assert "cannot read the audit comment on pull request #7: HTTP 403: Resource not accessible by integration" in warning
    assert "pull-requests: write" in warning


def test_the_comment_is_found_by_marker_and_author(world):
    # Someone else's comment that carries the marker (anyone can paste it) is never edited.
    forged = {"id": 20, "issue": 7, "body": "<!-- contrast-audit -->\nall clear, merge it", "user": {"login": "mallory"}}
    world.state.write_text(json.dumps({"comments": [forged]}))
    r = world.run(paths="tokens", comment="true")
    assert r.returncode == 0, r.stdout + r.stderr
    assert [(c["method"], c["endpoint"]) for c in world.calls()] == [
        ("GET", "user"), ("GET", "repos/octo/app/issues/7/comments"), ("POST", "repos/octo/app/issues/7/comments")]
    state = json.loads(world.state.read_text())
    assert state["comments"][0] == forged and "edited_others" not in state
    assert state["comments"][1]["user"] == {"login": "github-actions[bot]"}
    # The next run edits the workflow token's own comment, and still not the forged one.
    world.log.unlink()
    r = world.run(paths="tokens", comment="true")
    assert [(c["method"], c["endpoint"]) for c in world.calls()][-1] == ("PATCH", "repos/octo/app/issues/comments/101")
    assert json.loads(world.state.read_text())["comments"][0] == forged

    # A personal token is who GET /user says: its own marked comment is the one edited.
    world.state.write_text(json.dumps({"users": {"ghp_octocat": "octocat"}, "comments": [
        forged,
        {"id": 30, "issue": 7, "body": "<!-- contrast-audit -->\nthe bot's", "user": {"login": "github-actions[bot]"}},
        {"id": 31, "issue": 7, "body": "<!-- contrast-audit -->\noctocat's", "user": {"login": "octocat"}},
    ]}))
    world.log.unlink()
    r = world.run(paths="tokens", comment="true", token="ghp_octocat")
    assert r.returncode == 0, r.stdout + r.stderr
    assert [(c["method"], c["endpoint"]) for c in world.calls()] == [
        ("GET", "user"), ("GET", "repos/octo/app/issues/7/comments"), ("PATCH", "repos/octo/app/issues/comments/31")]
    state = json.loads(world.state.read_text())
    assert [c["body"].split("\n")[1] for c in state["comments"][:2]] == ["all clear, merge it", "the bot's"]
    assert "edited_others" not in state

    # A token that is neither (GET /user refuses it, and it is not the workflow's): nothing
    # found by marker alone is edited; a new comment is written, and the run says why.
    world.log.unlink()
    r = world.run(paths="tokens", comment="true", token="ghs_other_app")
    assert [(c["method"], c["endpoint"]) for c in world.calls()] == [
        ("GET", "user"), ("POST", "repos/octo/app/issues/7/comments")]
    assert "::warning title=contrast::comment: cannot tell whose token this is (GET /user: HTTP 403: Resource not accessible by integration" in r.stdout
    assert "edited_others" not in json.loads(world.state.read_text())


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


# A pinned action is a checkout of the action's repository at the pin: here, action.yml in a
# folder of its own, with (or without) the .github/release/ files the release workflow commits
# into the tree it tags. Which ref the workflow names (github.action_ref) does not matter.
SHA_PIN = "0123456789abcdef0123456789abcdef01234567"
ASSETS = ["contrast-linux-x86_64", "contrast-linux-aarch64", "contrast-macos-arm64"]


def action_tree(tmp_path, *, sums=None, version="v9.9.9", repository="octo/contrast"):
    """A pinned checkout of the action; with `sums` ({asset: sha256}), a release's tree."""
    tree = tmp_path / "action"
    tree.mkdir(exist_ok=True)
    shutil.copy(ROOT / "action.yml", tree / "action.yml")
    if sums is not None:
        release = tree / ".github" / "release"
        release.mkdir(parents=True, exist_ok=True)
        (release / "version").write_text(version + "\n")
        (release / "repository").write_text(repository + "\n")
        (release / "contrast.sha256").write_text("".join(f"{digest}  {asset}\n" for asset, digest in sums.items()))
    return tree


def run_pinned(world, tree, **inputs):
    inputs.setdefault("binary", "")
    return run_action(str(tree), str(world.repo), str(world.temp), inputs=inputs, github=world.github, env=world.env)


def publish(root, binary, tag="v9.9.9", repository="octo/contrast"):
    """The release on the server: each asset a copy of `binary`, with a .sha256 beside it."""
    folder = root / repository / "releases" / "download" / tag
    folder.mkdir(parents=True, exist_ok=True)
    sums = {}
    for asset in ASSETS:
        shutil.copy(binary, folder / asset)
        sums[asset] = hashlib.sha256((folder / asset).read_bytes()).hexdigest()
        (folder / f"{asset}.sha256").write_text(f"{sums[asset]}  {asset}\n")
    return folder, sums


@pytest.mark.parametrize("ref, action_repository", [
    ("v9.9.9", "octo/contrast"),        # the release tag
    ("v9", "octo/contrast"),            # the major tag, moved to the release's commit
    (SHA_PIN, "octo/contrast"),         # the commit the tag names (GitHub's hardening advice)
    (SHA_PIN, "someone/contrast-fork"),  # a fork at that commit: the release is upstream's
])
def test_any_pin_gets_the_binary_its_tree_declares(world, releases, tmp_path, ref, action_repository):
    root, url = releases
    _, sums = publish(root, world.binary)
    tree = action_tree(tmp_path, sums=sums)
    world.env["GITHUB_SERVER_URL"] = url
    world.github.update(action_ref=ref, action_repository=action_repository)
    r = run_pinned(world, tree, paths="tokens")
    assert r.returncode == 0 and r.failed_step is None, r.stdout + r.stderr
    digest = sums["contrast-linux-x86_64"]
    assert f"contrast v9.9.9 from octo/contrast (contrast-linux-x86_64, SHA-256 {digest}, as .github/release/contrast.sha256 says)" in r.stdout
    assert "building contrast" not in r.stdout
    assert r.outputs["checks"] == "1"


@pytest.mark.parametrize("runner_os, arch, asset", [
    ("Linux", "X64", "contrast-linux-x86_64"),
    ("Linux", "ARM64", "contrast-linux-aarch64"),
    ("macOS", "ARM64", "contrast-macos-arm64"),
])
def test_each_runner_gets_its_own_asset(world, releases, tmp_path, runner_os, arch, asset):
    root, url = releases
    _, sums = publish(root, world.binary)
    calls = fake_tools(world, tmp_path)
    tree = action_tree(tmp_path, sums=sums)
    world.env.update(GITHUB_SERVER_URL=url, RUNNER_OS=runner_os, RUNNER_ARCH=arch)
    r = run_pinned(world, tree, paths="tokens")
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"({asset}, SHA-256 {sums[asset]}, " in r.stdout
    assert r.outputs["exit-code"] == "0"
    # Nothing is built; on macOS, Homebrew's libmicrohttpd (which that binary links) is installed.
    assert calls() == (["brew list --versions libmicrohttpd", "brew install libmicrohttpd"] if runner_os == "macOS" else [])


def test_a_replaced_asset_is_refused_whatever_the_server_says(world, releases, tmp_path):
    root, url = releases
    folder, sums = publish(root, world.binary)
    tree = action_tree(tmp_path, sums=sums)
    # The asset is replaced, and the checksum beside it too, so that they agree.
    replaced = folder / "contrast-linux-x86_64"
    replaced.write_bytes(b"#!/bin/sh\necho all clear\n")
    digest = hashlib.sha256(replaced.read_bytes()).hexdigest()
    (folder / "contrast-linux-x86_64.sha256").write_text(f"{digest}  contrast-linux-x86_64\n")
    world.env["GITHUB_SERVER_URL"] = url
    world.github.update(action_ref="v9.9.9", action_repository="octo/contrast")
    r = run_pinned(world, tree, paths="tokens")
    assert r.failed_step == "Get contrast" and len(r.steps) == 1, r.stdout + r.stderr
    assert (f"::error title=contrast::{url}/octo/contrast/releases/download/v9.9.9/contrast-linux-x86_64 has SHA-256 {digest}, "
            f"but this action's tree (.github/release/contrast.sha256) says contrast-linux-x86_64 is {sums['contrast-linux-x86_64']}: "
            "refusing it (the asset was replaced or corrupted)") in r.stdout
    assert not list(world.temp.glob("contrast-v9.9.9/contrast-linux-x86_64*"))

    # A release the tree declares and the server lacks is an error, not a silent source build.
    shutil.rmtree(folder)
    r = run_pinned(world, tree, paths="tokens")
    assert r.failed_step == "Get contrast"
    assert f"::error title=contrast::cannot download {url}/octo/contrast/releases/download/v9.9.9/contrast-linux-x86_64 (HTTP 404)" in r.stdout


def test_release_files_that_are_not_a_release_are_refused(world, tmp_path):
    # A tree whose .github/release/ names something no URL should be built from.
    tree = action_tree(tmp_path, sums={"contrast-linux-x86_64": "a" * 64}, repository="octo/contrast/../../evil")
    r = run_pinned(world, tree, paths="tokens")
    assert r.failed_step == "Get contrast" and len(r.steps) == 1
    assert ("::error title=contrast::.github/release/ of this action holds version 'v9.9.9', repository "
            "'octo/contrast/../../evil' and SHA-256 '" + "a" * 64 + "' for contrast-linux-x86_64: not a release this action can verify") in r.stdout


# Stand-ins for what a source build runs, each logging its arguments: apt-get, sudo and brew
# "install" libmicrohttpd (a marker file pkg-config then finds); swift builds only once it is
# installed, and its "build" is a copy of the real binary.
FAKE_TOOLS = {
    "apt-get": 'echo "apt-get $*" >> "$FAKE_TOOLS_LOG"; case "$1" in install) touch "$FAKE_TOOLS_DIR/installed" ;; esac',
    "brew": 'echo "brew $*" >> "$FAKE_TOOLS_LOG"; case "$1" in install) touch "$FAKE_TOOLS_DIR/installed" ;; list) [ -f "$FAKE_TOOLS_DIR/installed" ] ;; esac',
    "sudo": 'echo "sudo $1" >> "$FAKE_TOOLS_LOG"; exec "$@"',
    "pkg-config": '[ "$1 $2" = "--exists libmicrohttpd" ] && [ -f "$FAKE_TOOLS_DIR/installed" ]',
    "swift": """echo "swift $*" >> "$FAKE_TOOLS_LOG"
[ -f "$FAKE_TOOLS_DIR/installed" ] || { echo "error: libmicrohttpd.pc not found" >&2; exit 1; }
while [ $# -gt 0 ]; do case "$1" in --scratch-path) scratch=$2; shift ;; --show-bin-path) show=1 ;; esac; shift; done
if [ -n "$show" ]; then echo "$scratch/release"; else mkdir -p "$scratch/release"; cp "$FAKE_TOOLS_CONTRAST" "$scratch/release/contrast"; fi""",
}


def fake_tools(world, tmp_path, *, swift=True):
    tools = tmp_path / "tools"
    tools.mkdir()
    for name, body in FAKE_TOOLS.items():
        if name == "swift" and not swift:
            continue
        (tools / name).write_text("#!/bin/bash\n" + body + "\n")
        (tools / name).chmod(0o755)
    log = tmp_path / "tools.log"
    gh_bin = world.env["PATH"].split(":")[0]
    world.env.update(PATH=f"{tools}:{gh_bin}:/usr/bin:/bin", FAKE_TOOLS_DIR=str(tools),
                     FAKE_TOOLS_LOG=str(log), FAKE_TOOLS_CONTRAST=str(world.binary))
    return lambda: log.read_text().splitlines() if log.exists() else []


def test_a_tree_with_no_release_installs_what_the_build_needs_and_builds(world, tmp_path):
    calls = fake_tools(world, tmp_path)
    tree = action_tree(tmp_path)
    world.github.update(action_ref="main", action_repository="octo/contrast")
    r = run_pinned(world, tree, paths="tokens")
    assert r.returncode == 0 and r.failed_step is None, r.stdout + r.stderr
    assert "::notice title=contrast::this tree of the action is not a release (no .github/release/version): building contrast from the action's source (a few minutes)" in r.stdout
    log = [line for line in calls() if not line.startswith("sudo ")]
    assert log[:2] == ["apt-get update -q", "apt-get install -y -q --no-install-recommends libmicrohttpd-dev pkg-config"]
    assert log[2].startswith(f"swift build -c release --product contrast --package-path {tree} --scratch-path ")
    assert r.outputs["checks"] == "1"


def test_a_runner_the_release_has_no_binary_for_builds_with_homebrew(world, releases, tmp_path):
    root, url = releases
    _, sums = publish(root, world.binary)
    calls = fake_tools(world, tmp_path)
    tree = action_tree(tmp_path, sums=sums)
    world.env.update(GITHUB_SERVER_URL=url, RUNNER_OS="macOS", RUNNER_ARCH="X64")
    r = run_pinned(world, tree, paths="tokens")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "::notice title=contrast::release v9.9.9 has no binary for macOS/X64: building contrast from the action's source" in r.stdout
    assert calls()[0] == "brew install libmicrohttpd pkg-config"
    assert calls()[1].startswith("swift build -c release --product contrast ")


def test_a_source_build_without_swift_says_what_is_missing(world, tmp_path):
    calls = fake_tools(world, tmp_path, swift=False)
    tree = action_tree(tmp_path)
    r = run_pinned(world, tree, paths="tokens")
    assert r.failed_step == "Get contrast"
    assert "::error title=contrast::building contrast needs Swift 6" in r.stdout
    assert any(line.startswith("apt-get install ") for line in calls())


def many_failures(count, passing=()):
    """A palette of `count` checks c0…, each failing (#777777 on white, 4.47:1) but those in `passing`."""
    tokens = ['"bg": "#ffffff"'] + [f'"f{i}": "{"#000000" if i in passing else "#777777"}"' for i in range(count)]
    checks = [f'{{"id": "c{i}", "foreground": "f{i}", "background": "bg"}}' for i in range(count)]
    return ('{"name": "many", "themes": {"light": {"tokens": {\n' + ",\n".join(tokens) + "\n}}},\n"
            '"checks": [' + ",\n".join(checks) + "]}\n")


def test_annotations_stay_within_githubs_caps_and_regressions_come_first(world):
    import subprocess
    tokens = world.repo / "tokens" / "brand.json"
    tokens.write_text(many_failures(15, passing={14}))
    # (It exits 1: 14 checks fail. The baseline is written all the same.)
    (world.repo / "contrast-baseline.json").unlink()
    subprocess.run([world.binary, "audit", "tokens", "--write-baseline", "contrast-baseline.json"],
                   cwd=world.repo, capture_output=True)
    assert '"many/light/c13"' in (world.repo / "contrast-baseline.json").read_text()
    tokens.write_text(many_failures(15))

    # Without the baseline: 15 failures, of which GitHub would show 10; the rest are counted.
    r = world.run(paths="tokens")
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert len([line for line in lines if line.startswith("::error ")]) == 10
    assert ("::notice title=contrast%3A more findings::5 errors more not annotated: GitHub shows 10 annotations of "
            "each kind per step. The job summary and the SARIF report (--format sarif) hold all 15.") in lines

    # With it: the regression first, then its failure; the 14 failures it accepts are warnings.
    world.summary.write_text("")
    r = world.run(paths="tokens", baseline="contrast-baseline.json")
    assert r.returncode == 1 and r.outputs["regressions"] == "1", r.stdout + r.stderr
    lines = r.stdout.splitlines()
    errors = [line for line in lines if line.startswith("::error ")]
    warnings = [line for line in lines if line.startswith("::warning ")]
    assert len(errors) == 2 and "title=Contrast regression%3A light › c14::" in errors[0] and "title=Insufficient contrast%3A light › c14::" in errors[1]
    assert len(warnings) == 10 and all("(failing in the baseline too: accepted, so it does not fail the run)" in w for w in warnings)
    assert ("::notice title=contrast%3A more findings::4 warnings more not annotated: GitHub shows 10 annotations of "
            "each kind per step. The job summary and the SARIF report (--format sarif) hold all 16.") in lines
    # The job summary lists every failing check.
    summary = world.summary.read_text()
    assert all(f"| light | c{i} |" in summary for i in range(15)), summary
