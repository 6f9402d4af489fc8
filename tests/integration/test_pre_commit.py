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
    prebuilt = hooks["contrast-audit-prebuilt"]
    assert prebuilt["language"] == "script" and prebuilt["entry"].startswith("hooks/contrast-prebuilt ")
    assert prebuilt["entry"].split(" ", 1)[1] == hooks["contrast-audit"]["entry"].split(" ", 1)[1], "the same audit"
    assert prebuilt["files"] == docker["files"] and prebuilt["exclude"] == docker["exclude"]
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


class Releases:
    """A release server on 127.0.0.1: /OWNER/REPO/releases/download/TAG/ASSET, counting hits."""

    def __init__(self, files):
        import http.server
        import threading
        self.files, self.hits = files, []
        releases = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                releases.hits.append(self.path)
                body = releases.files.get(self.path)
                if body is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def hook_repository(path, version, checksums):
    """This repository's hook files, as a release's tagged tree holds them, committed."""
    (path / "hooks").mkdir(parents=True)
    (path / ".github" / "release").mkdir(parents=True)
    shutil.copy(ROOT / ".pre-commit-hooks.yaml", path / ".pre-commit-hooks.yaml")
    shutil.copy(ROOT / "hooks" / "contrast-prebuilt", path / "hooks" / "contrast-prebuilt")
    if version:
        (path / ".github" / "release" / "version").write_text(version + "\n")
        (path / ".github" / "release" / "repository").write_text("acme/contrast\n")
        (path / ".github" / "release" / "contrast.sha256").write_text("".join(f"{sha}  {asset}\n" for asset, sha in checksums.items()))
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q", "-b", "main", str(path)], check=True)
    subprocess.run([*git, "-C", str(path), "add", "."], check=True)
    subprocess.run([*git, "-C", str(path), "commit", "-q", "-m", "release"], check=True)
    return path


def without_swift(path):
    """PATH less every folder holding a `swift`: the hook must not need a toolchain."""
    kept = [p for p in path.split(":") if p and not os.path.exists(os.path.join(p, "swift"))]
    return ":".join(kept)


@pytest.mark.parametrize("replaced", [False, True], ids=["verified", "replaced-asset"])
def test_the_prebuilt_hook_runs_the_release_binary_without_swift(binary, tmp_path, replaced):
    """`pre-commit try-repo` of a release's tree, with no Swift on PATH: the hook downloads the
    binary of its tree's version from the release server once, checks it against the SHA-256
    committed in the tree, and runs the audit; a replaced asset is refused, exit 2."""
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed (make test installs it)")
    import hashlib
    import platform
    asset = {"x86_64": "contrast-linux-x86_64", "aarch64": "contrast-linux-aarch64"}.get(platform.machine())
    if asset is None:
        pytest.skip(f"no release asset for {platform.machine()}")
    real = open(binary, "rb").read()
    served = real if not replaced else real + b"\0tampered"
    releases = Releases({f"/acme/contrast/releases/download/v0.1.0/{asset}": served})
    try:
        hooks = hook_repository(tmp_path / "contrast", "v0.1.0", {asset: hashlib.sha256(real).hexdigest()})
        repo = tmp_path / "repo"
        (repo / "tokens").mkdir(parents=True)
        (repo / "tokens" / "brand.json").write_text(PALETTE % "#777777")
        env = dict(os.environ, HOME=str(tmp_path), PRE_COMMIT_HOME=str(tmp_path / "pre-commit-cache"),
                   CONTRAST_RELEASE_SERVER=releases.url, CONTRAST_CACHE=str(tmp_path / "binaries"),
                   PATH=without_swift(os.environ["PATH"]),
                   GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
        assert shutil.which("swift", path=env["PATH"]) is None
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, env=env, check=True)
        subprocess.run(["git", "add", "."], cwd=repo, env=env, check=True)

        def try_repo():
            return subprocess.run(["pre-commit", "try-repo", str(hooks), "contrast-audit-prebuilt", "--all-files"],
                                  cwd=repo, env=env, capture_output=True, text=True, timeout=300)
        r = try_repo()
        out = r.stdout + r.stderr
        assert r.returncode != 0, out
        if replaced:
            assert "refusing it (the asset was replaced or corrupted)" in out, out
            assert not (tmp_path / "binaries" / "v0.1.0" / asset).exists()
            return
        # #777777 on white is 4.48:1: the body check fails, at its line.
        assert "tokens/brand.json:3: error:" in out and "Failed" in out, out
        (repo / "tokens" / "brand.json").write_text(PALETTE % "#222222")
        r = try_repo()
        assert r.returncode == 0 and "Passed" in r.stdout, r.stdout + r.stderr
        # Downloaded once, then run from the cache (checked again each run).
        assert releases.hits == [f"/acme/contrast/releases/download/v0.1.0/{asset}"], releases.hits
    finally:
        releases.close()


def test_the_prebuilt_hook_of_a_tree_without_a_release_says_what_to_do(tmp_path):
    hooks = hook_repository(tmp_path / "contrast", None, {})
    r = subprocess.run([str(hooks / "hooks" / "contrast-prebuilt"), "audit", "x.json"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert "has no release" in r.stderr and "rev: to a release tag" in r.stderr, r.stderr


def test_the_prebuilt_hook_script_is_clean_bash():
    script = ROOT / "hooks" / "contrast-prebuilt"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (make test installs it)")
    r = subprocess.run(["shellcheck", "--shell=bash", "--severity=style", str(script)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout
