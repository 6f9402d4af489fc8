"""The README's nightly workflow keeps its history between runs: checked against GitHub's
workflow schema, then run twice as a runner would, its cache kept between the runs (restore by
prefix, save under the run id) and its `docker run` step run with the real binary, the mounts
as folders. A change that lowers a contrast between the nights makes the second exit 1."""
import json
import re
import shlex
import shutil
import subprocess

import pytest
import yaml

from conftest import ROOT


def workflow():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", readme, re.S)
    (found,) = [b for b in blocks if "name: Nightly contrast report" in b]
    return found


def test_the_nightly_workflow_matches_githubs_schema(tmp_path):
    if shutil.which("check-jsonschema") is None:
        pytest.skip("check-jsonschema is not installed (make test installs it)")
    path = tmp_path / "nightly.yml"
    path.write_text(workflow())
    r = subprocess.run(["check-jsonschema", "--builtin-schema", "vendor.github-workflows", str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


class Cache:
    """GitHub's cache as the workflow uses it: a key is written once; a restore takes the exact
    key, else the newest entry whose key starts with a restore key."""

    def __init__(self, root):
        self.root = root
        self.entries = []

    def save(self, key, path):
        assert key not in [k for k, _ in self.entries], f"cache key {key} saved twice (GitHub refuses)"
        stored = self.root / str(len(self.entries))
        shutil.copytree(path, stored)
        self.entries.append((key, stored))

    def restore(self, key, prefixes, path):
        for k, stored in reversed(self.entries):
            if k == key or any(k.startswith(p) for p in prefixes):
                shutil.rmtree(path, ignore_errors=True)
                shutil.copytree(stored, path)
                return True
        return False


def expressions(text, run_id):
    return text.replace("${{ github.run_id }}", str(run_id))


def docker_run(script, workspace, binary):
    """The step's commands, with `docker run … IMAGE ARGS` run as the binary on the host."""
    outcome = None
    for line in script.strip().splitlines():
        words = shlex.split(line.replace("$(id -u):$(id -g)", "0:0").replace("$PWD", str(workspace)))
        if words[:2] == ["mkdir", "-p"]:
            for folder in words[2:]:
                (workspace / folder).mkdir(parents=True, exist_ok=True)
            continue
        assert words[:2] == ["docker", "run"], line
        mounts, i = {}, 2
        while words[i].startswith("-"):
            if words[i] in ("-v", "--volume", "--user"):
                if words[i] != "--user":
                    host, container = words[i + 1].split(":")[:2]
                    mounts[container] = host
                i += 2
            else:
                i += 1
        assert words[i] == "contrast", words[i]
        args = words[i + 1:]
        def host_path(a):
            for container, host in sorted(mounts.items(), key=lambda m: -len(m[0])):
                if a == container or a.startswith(container + "/"):
                    return host + a[len(container):]
            return a
        args = [host_path(a) for a in args]
        outcome = subprocess.run([binary, *args], capture_output=True, text=True, timeout=300)
    return outcome


def night(steps, workspace, cache, run_id, binary):
    """Runs the steps; returns the report step's process."""
    failed, report = False, None
    for step in steps:
        condition = step.get("if")
        if failed and condition != "always()":
            continue
        uses = step.get("uses", "")
        if uses.startswith("actions/checkout"):
            continue
        if uses.startswith("actions/cache/restore"):
            w = step["with"]
            cache.restore(expressions(w["key"], run_id), [p.strip() for p in w.get("restore-keys", "").splitlines() if p.strip()], workspace / w["path"])
        elif uses.startswith("actions/cache/save"):
            w = step["with"]
            if (workspace / w["path"]).exists():
                cache.save(expressions(w["key"], run_id), workspace / w["path"])
        elif uses.startswith("actions/upload-artifact"):
            continue
        elif step.get("run", "").startswith("docker build"):
            continue
        else:
            report = docker_run(step["run"], workspace, binary)
            failed = report.returncode != 0
    return report


def test_the_nightly_workflow_reports_a_regression_on_the_second_night(binary, tmp_path):
    (job,) = yaml.safe_load(workflow())["jobs"].values()
    steps = job["steps"]
    cache = Cache(tmp_path / "cache")
    (tmp_path / "cache").mkdir()

    def checkout(name, text):
        workspace = tmp_path / name
        (workspace / "palettes").mkdir(parents=True)
        (workspace / "palettes" / "peptide-fox.json").write_text(text)
        return workspace

    fox = (ROOT / "palettes" / "peptide-fox.json").read_text()
    first = night(steps, checkout("night-1", fox), cache, 1001, binary)
    assert first.returncode == 0, first.stderr[-2000:]
    changed = json.loads(fox)
    changed["themes"]["light"]["tokens"]["text.body"]["$value"] = "#cbd5e1"
    second = night(steps, checkout("night-2", json.dumps(changed, indent=2)), cache, 1002, binary)
    assert second.returncode == 1, (second.returncode, second.stderr[-2000:])
    # The failed night's history was saved too: the third compares with it and passes.
    third = night(steps, checkout("night-3", json.dumps(changed, indent=2)), cache, 1003, binary)
    assert third.returncode == 0, third.stderr[-2000:]
    assert len(cache.entries) == 3
