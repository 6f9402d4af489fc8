"""deploy/kubernetes: the manifests validate offline, and the palettes directory a ConfigMap
volume makes (files that are links through `..data` to a timestamped folder, swapped at once on
every update) is served and reloaded on SIGHUP."""
import json
import os
import pathlib
import shutil
import signal
import re
import subprocess

import pytest
import yaml

from conftest import ROOT
from server import Server
from test_reload import generation, wait_for

MANIFESTS = ROOT / "deploy" / "kubernetes"


def test_manifests_validate_offline():
    files = sorted(str(p) for p in MANIFESTS.glob("*.yaml") if p.name != "kustomization.yaml")
    # The service's four, the NetworkPolicies, the report's volume and its CronJob.
    assert [pathlib.Path(f).name for f in files] == ["cronjob.yaml", "deployment.yaml", "hpa.yaml", "networkpolicy.yaml", "pdb.yaml", "report-volume.yaml", "service.yaml"]
    # No network: the schemas ship with kubernetes-validate (the tests run with loopback only).
    result = subprocess.run(["kubernetes-validate", "--strict", *files], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("passed") == 8, result.stdout
    kustomization = yaml.safe_load((MANIFESTS / "kustomization.yaml").read_text())
    assert sorted(kustomization["resources"]) == sorted(pathlib.Path(f).name for f in files)


def documents():
    """Every manifest's documents, by kind and name, as kustomize would emit them (without its
    label and image rewrites, which test_kustomize_build checks where kubectl is present)."""
    found = {}
    for path in MANIFESTS.glob("*.yaml"):
        if path.name == "kustomization.yaml":
            continue
        for document in yaml.safe_load_all(path.read_text()):
            found[(document["kind"], document["metadata"]["name"])] = document
    return found


def test_the_service_selects_the_servers_pods_only():
    """The Service, the PDB and the server's NetworkPolicy select the Deployment's pods; none of
    them selects the report's pods (a Service that did would send users to a batch job)."""
    d = documents()
    server = d[("Deployment", "contrast")]["spec"]["template"]["metadata"]["labels"]
    report = d[("CronJob", "contrast-report")]["spec"]["jobTemplate"]["spec"]["template"]["metadata"]["labels"]
    def selects(selector, labels):
        return all(labels.get(k) == v for k, v in selector.items())
    for kind, name, selector in (
        ("Service", "contrast", d[("Service", "contrast")]["spec"]["selector"]),
        ("PodDisruptionBudget", "contrast", d[("PodDisruptionBudget", "contrast")]["spec"]["selector"]["matchLabels"]),
        ("NetworkPolicy", "contrast", d[("NetworkPolicy", "contrast")]["spec"]["podSelector"]["matchLabels"]),
    ):
        assert selects(selector, server) and not selects(selector, report), (kind, name, selector)
    policy = d[("NetworkPolicy", "contrast-report")]
    assert selects(policy["spec"]["podSelector"]["matchLabels"], report) and not selects(policy["spec"]["podSelector"]["matchLabels"], server)
    # The server reaches nothing; the report reaches DNS and HTTPS (its git checkout) only.
    assert d[("NetworkPolicy", "contrast")]["spec"]["egress"] == []
    ports = sorted(p["port"] for rule in policy["spec"]["egress"] for p in rule["ports"])
    assert ports == [53, 53, 443]


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl (for `kubectl kustomize`) is not installed")
def test_kustomize_build_names_the_image_once():
    out = subprocess.run(["kubectl", "kustomize", str(MANIFESTS)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    rendered = list(yaml.safe_load_all(out.stdout))
    images = set()
    for document in rendered:
        spec = document.get("spec", {})
        template = spec.get("jobTemplate", {}).get("spec", {}).get("template") or spec.get("template")
        if template:
            for container in template["spec"].get("containers", []) + template["spec"].get("initContainers", []):
                images.add(container["image"])
    kustomization = yaml.safe_load((MANIFESTS / "kustomization.yaml").read_text())
    (image,) = kustomization["images"]
    assert f"{image['newName']}:{image['newTag']}" in images
    assert "contrast" not in images and not any(i.startswith("contrast:") for i in images), images


def expand(arguments, env):
    """Kubernetes' `$(VAR)` expansion of a container's args from its env."""
    return [re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: env.get(m.group(1), m.group(0)), a) for a in arguments]


def test_the_nightly_cronjob_reports_a_regression_on_its_second_night(binary, tmp_path):
    """The CronJob's own commands, run as the kubelet would with its volumes as folders: the
    init container clones the token repository (here a local one), the report container audits
    it with the history on the report volume. The first night has nothing to compare with (exit
    0); a change that makes a check fail is a regression the next night (exit 1), because the
    history survived on the volume."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    d = documents()
    job = d[("CronJob", "contrast-report")]["spec"]["jobTemplate"]["spec"]
    assert job["backoffLimit"] == 0
    pod = job["template"]["spec"]
    literals = dict(l.split("=", 1) for g in yaml.safe_load((MANIFESTS / "kustomization.yaml").read_text())["configMapGenerator"] if g["name"] == "contrast-report" for l in g["literals"])
    # The token repository: palettes/ under the configured path, committed.
    upstream = tmp_path / "upstream"
    (upstream / literals["path"]).mkdir(parents=True)
    shutil.copy(ROOT / "palettes" / "peptide-fox.json", upstream / literals["path"] / "peptide-fox.json")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "init.defaultBranch=" + literals["branch"]]
    subprocess.run([*git, "init", "-q", str(upstream)], check=True)
    subprocess.run([*git, "-C", str(upstream), "add", "."], check=True)
    subprocess.run([*git, "-C", str(upstream), "commit", "-q", "-m", "tokens"], check=True)
    literals["repository"] = upstream.as_uri()
    report_volume = tmp_path / "report-volume"
    report_volume.mkdir()

    def values(container):
        env = {}
        for e in container.get("env", []):
            env[e["name"]] = e["value"] if "value" in e else literals[e["valueFrom"]["configMapKeyRef"]["key"]]
        return env

    def mounted(argument, mounts):
        for mount, folder in mounts.items():
            argument = argument.replace(mount, str(folder))
        return argument

    def night():
        sources = tmp_path / "sources"
        shutil.rmtree(sources, ignore_errors=True)
        sources.mkdir()
        (checkout,) = pod["initContainers"]
        args = expand(checkout["args"], values(checkout))
        subprocess.run(["git", *[mounted(a, {"/sources": sources}) for a in args]], check=True, capture_output=True)
        (report,) = pod["containers"]
        args = [mounted(a, {"/sources": sources, "/report": report_volume}) for a in expand(report["args"], values(report))]
        return subprocess.run([binary, *args], capture_output=True, text=True, timeout=300)

    first = night()
    assert first.returncode == 0, first.stderr[-2000:]
    assert (report_volume / "site" / "index.html").exists() and (report_volume / "history.jsonl").exists()
    # A proposed change lands upstream: the body text loses its contrast.
    fox = json.loads((upstream / literals["path"] / "peptide-fox.json").read_text())
    fox["themes"]["light"]["tokens"]["text.body"]["$value"] = "#cbd5e1"
    (upstream / literals["path"] / "peptide-fox.json").write_text(json.dumps(fox, indent=2))
    subprocess.run([*git, "-C", str(upstream), "commit", "-q", "-am", "lighter text"], check=True)
    second = night()
    assert second.returncode == 1, (second.returncode, second.stderr[-2000:])
    assert len((report_volume / "history.jsonl").read_text().splitlines()) == 2


def configmap_update(directory, name, files):
    """What the kubelet does: write a new hidden folder, swap `..data` to it atomically, make the
    top-level links, then drop the links of keys that went away."""
    folder = directory / f"..{name}"
    folder.mkdir()
    for key, text in files.items():
        (folder / key).write_text(text)
    temporary = directory / "..data_tmp"
    os.symlink(folder.name, temporary)
    os.replace(temporary, directory / "..data")
    for key in files:
        link = directory / key
        if not link.is_symlink():
            os.symlink(f"..data/{key}", link)
    for entry in directory.iterdir():
        if entry.is_symlink() and entry.name != "..data" and entry.name not in files:
            entry.unlink()


def test_a_configmap_volume_is_served_and_reloaded(binary, tmp_path):
    directory = tmp_path / "palettes"
    directory.mkdir()
    fox = (ROOT / "palettes" / "peptide-fox.json").read_text()
    configmap_update(directory, "2025_01_01_00_00_00.1", {"peptide-fox.json": fox})
    s = Server(binary, str(directory), "--threads", "2", "--quiet")
    try:
        names = [p["name"] for p in s.json("GET", "/v1/palettes")[2]["palettes"]]
        assert names == ["peptide-fox"], names
        before = generation(s)
        renamed = json.loads(fox)
        renamed["name"] = "peptide-fox-2"
        configmap_update(directory, "2025_01_01_00_01_00.2", {"peptide-fox.json": fox, "second.json": json.dumps(renamed)})
        shutil.rmtree(directory / "..2025_01_01_00_00_00.1")
        s.signal(signal.SIGHUP)
        ready = wait_for(lambda: (lambda r: r if r["generation"] > before else None)(s.json("GET", "/readyz")[2]), "the reload")
        assert not ready.get("problems"), ready
        names = sorted(p["name"] for p in s.json("GET", "/v1/palettes")[2]["palettes"])
        assert names == ["peptide-fox", "peptide-fox-2"], names
    finally:
        assert s.stop() == 0, s.logs()[-2000:]


def test_the_deployments_palettes_are_the_repositorys():
    """kustomize reads files only below its own folder, so the ConfigMap's palettes are copies of
    palettes/: they must not drift from the transcriptions they copy."""
    copies = sorted((ROOT / "deploy" / "kubernetes" / "palettes").glob("*.json"))
    assert copies
    for copy in copies:
        assert copy.read_bytes() == (ROOT / "palettes" / copy.name).read_bytes(), f"{copy} differs from palettes/{copy.name}"
