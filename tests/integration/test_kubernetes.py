"""deploy/kubernetes: the manifests validate offline, and the palettes directory a ConfigMap
volume makes (files that are links through `..data` to a timestamped folder, swapped at once on
every update) is served and reloaded on SIGHUP."""
import json
import os
import pathlib
import shutil
import signal
import subprocess

from conftest import ROOT
from server import Server
from test_reload import generation, wait_for

MANIFESTS = ROOT / "deploy" / "kubernetes"


def test_manifests_validate_offline():
    files = sorted(str(p) for p in MANIFESTS.glob("*.yaml") if p.name != "kustomization.yaml")
    assert len(files) == 4
    # No network: the schemas ship with kubernetes-validate (the tests run with loopback only).
    result = subprocess.run(["kubernetes-validate", "--strict", *files], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("passed") == 4, result.stdout


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
