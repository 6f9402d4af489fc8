"""The GitHub workflows, the action and the pre-commit manifest, checked offline: each against
its schema (check-jsonschema's bundled copies of SchemaStore's), every `run:` script by
`bash -n` and shellcheck (when installed), and no `${{ }}` expression pasted into a script."""
import glob
import os
import shutil
import subprocess

import pytest
import yaml

from conftest import ROOT

WORKFLOWS = sorted(glob.glob(str(ROOT / ".github" / "workflows" / "*.yml")))
ACTION = str(ROOT / "action.yml")


def run_steps():
    """(where, script) for every run: step of every workflow and of the action."""
    for path in WORKFLOWS:
        document = yaml.safe_load(open(path))
        for job_name, job in document["jobs"].items():
            for i, step in enumerate(job.get("steps", [])):
                if "run" in step:
                    yield f"{os.path.basename(path)} {job_name} step {i} ({step.get('name', '')})", step["run"]
    for i, step in enumerate(yaml.safe_load(open(ACTION))["runs"]["steps"]):
        yield f"action.yml step {i} ({step.get('name', '')})", step["run"]


def check_jsonschema():
    found = shutil.which("check-jsonschema")
    if found is None:
        pytest.skip("check-jsonschema is not installed (make test installs it)")
    return found


def test_there_are_a_ci_and_a_release_workflow():
    assert [os.path.basename(p) for p in WORKFLOWS] == ["ci.yml", "release.yml"]
    ci = yaml.safe_load(open(ROOT / ".github/workflows/ci.yml"))
    assert any(step.get("run") == "make test" for step in ci["jobs"]["test"]["steps"])


def test_workflows_match_the_github_workflow_schema():
    r = subprocess.run([check_jsonschema(), "--builtin-schema", "vendor.github-workflows", *WORKFLOWS],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_action_matches_the_github_action_schema():
    r = subprocess.run([check_jsonschema(), "--builtin-schema", "vendor.github-actions", ACTION],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_schema_check_catches_a_broken_action(tmp_path):
    broken = tmp_path / "action.yml"
    broken.write_text(open(ACTION).read().replace("using: composite", "using: compost"))
    r = subprocess.run([check_jsonschema(), "--builtin-schema", "vendor.github-actions", str(broken)],
                       capture_output=True, text=True)
    assert r.returncode != 0


def test_the_pre_commit_manifest_is_valid():
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed (make test installs it)")
    r = subprocess.run(["pre-commit", "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("where,script", list(run_steps()), ids=lambda x: x if " step " in str(x) else "")
def test_run_steps_are_valid_bash(where, script, tmp_path):
    assert "${{" not in script, f"{where}: pass expressions through env:, never into the script"
    file = tmp_path / "step.sh"
    file.write_text(script)
    r = subprocess.run(["bash", "-n", str(file)], capture_output=True, text=True)
    assert r.returncode == 0, f"{where}: {r.stderr}"
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (Debian package shellcheck; make test installs it)")
    r = subprocess.run(["shellcheck", "--shell=bash", "--severity=style", str(file)], capture_output=True, text=True)
    assert r.returncode == 0, f"{where}:\n{r.stdout}"
