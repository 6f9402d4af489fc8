"""The pre-commit hooks (.pre-commit-hooks.yaml), run by pre-commit itself as a git hook in a
fixture repository: a regression blocks the commit, the fix lets it through.

The shipped `contrast-audit` hook builds contrast with `swift build -c release` (language
swift); the test runs the same hook (its entry, files and settings, from the shipped manifest)
as a local `system` hook over the binary `swift build` made, so nothing is built twice."""
import os
import re
import shutil
import subprocess

import pytest
import yaml

from conftest import ROOT

PALETTE = """{"name": "brand", "themes": {"light": {"tokens": {
  "bg": "#ffffff",
  "fg": "%s"
}}},
"checks": [{"id": "body", "foreground": "fg", "background": "bg"}]}
"""


def manifest():
    with open(ROOT / ".pre-commit-hooks.yaml") as f:
        return {hook["id"]: hook for hook in yaml.safe_load(f)}


def test_the_manifest_names_both_variants_and_this_version():
    hooks = manifest()
    assert hooks["contrast-audit"]["language"] == "swift"
    assert hooks["contrast-audit"]["entry"].startswith("contrast audit ")
    docker = hooks["contrast-audit-docker"]
    assert docker["language"] == "docker_image"
    version = re.search(r'static let version = "([^"]+)"', (ROOT / "Sources/contrast/Contrast.swift").read_text()).group(1)
    image, rest = docker["entry"].split(" ", 1)
    assert image.startswith("ghcr.io/") and image.endswith(":" + version), "the image of this version"
    assert rest == hooks["contrast-audit"]["entry"].split(" ", 1)[1], "both variants run the same audit"
    assert hooks["contrast-audit"]["files"] == docker["files"]
    pattern = re.compile(hooks["contrast-audit"]["files"])
    assert pattern.search("tokens/brand.json") and pattern.search("design/palettes/a.css") and pattern.search("ui/x.tokens.json")
    assert not pattern.search("package.json") and not pattern.search("src/tokens.swift")


@pytest.fixture
def git_repo(tmp_path, binary):
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed (make test installs it)")
    repo = tmp_path / "repo"
    (repo / "tokens").mkdir(parents=True)
    env = dict(os.environ, HOME=str(tmp_path), PRE_COMMIT_HOME=str(tmp_path / "pre-commit-cache"),
               PATH=f"{os.path.dirname(binary)}:{os.environ['PATH']}",
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    env.pop("GIT_DIR", None)

    def run(*args, check=True):
        r = subprocess.run(args, cwd=repo, env=env, capture_output=True, text=True, timeout=300)
        if check:
            assert r.returncode == 0, r.stdout + r.stderr
        return r
    run("git", "init", "-q", "-b", "main")
    hook = dict(manifest()["contrast-audit"])
    hook["language"] = "system"   # the binary on PATH, built by `swift build`, instead of a second build
    hook["args"] = ["--baseline", "contrast-baseline.json"]
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump({"repos": [{"repo": "local", "hooks": [hook]}]}))
    (repo / "tokens" / "brand.json").write_text(PALETTE % "#000000")
    (repo / "package.json").write_text('{"name": "app"}\n')
    run(binary, "audit", "tokens/", "--write-baseline", "contrast-baseline.json")
    run("pre-commit", "install")
    run("git", "add", ".")
    return run


def test_a_regression_blocks_the_commit_and_the_fix_goes_through(git_repo, tmp_path):
    r = git_repo("git", "commit", "-q", "-m", "tokens and their baseline")
    assert "contrast audit" in r.stdout + r.stderr and "Passed" in r.stdout + r.stderr
    brand = tmp_path / "repo" / "tokens" / "brand.json"
    brand.write_text(PALETTE % "#777777")
    git_repo("git", "add", "tokens/brand.json")
    r = git_repo("git", "commit", "-q", "-m", "lighter text", check=False)
    out = r.stdout + r.stderr
    assert r.returncode != 0, out
    assert "Failed" in out
    assert "tokens/brand.json:3: error: Contrast regression: light › body: regressed: brand › light › body: AAA → AA-large" in out
    assert git_repo("git", "log", "--oneline").stdout.count("\n") == 1, "nothing was committed"
    brand.write_text(PALETTE % "#222222")
    git_repo("git", "add", "tokens/brand.json")
    r = git_repo("git", "commit", "-q", "-m", "darker text, still AAA")
    assert "Passed" in r.stdout + r.stderr
    assert git_repo("git", "log", "--oneline").stdout.count("\n") == 2
    # A change to a file that is not a token file does not run the audit.
    (tmp_path / "repo" / "package.json").write_text('{"name": "app", "version": "2"}\n')
    git_repo("git", "add", "package.json")
    r = git_repo("git", "commit", "-q", "-m", "bump")
    assert "(no files to check)Skipped" in r.stdout + r.stderr
