"""SIGHUP reloads that cannot hang the service, lose its palettes or leak paths (hardening,
section 6). Every wait is bounded and polls; nothing depends on timing."""
import json
import os
import shutil
import signal
import time

from conftest import ROOT
from server import Server


def served(tmp_path, binary, *args):
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    return directory, Server(binary, str(directory), "--threads", "2", "--quiet", *args)


def wait_for(condition, what, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def generation(server):
    return server.json("GET", "/readyz")[2]["generation"]


def test_a_fifo_named_like_a_palette_does_not_hang_the_reload(binary, tmp_path):
    directory, s = served(tmp_path, binary)
    try:
        os.mkfifo(directory / "x.json")
        before = generation(s)
        s.signal(signal.SIGHUP)
        ready = wait_for(lambda: (lambda r: r if r["generation"] > before else None)(s.json("GET", "/readyz")[2]), "the reload")
        assert any(p.get("file") == "x.json" and "FIFO" in p["message"] for p in ready["problems"]), ready
        assert len(s.json("GET", "/v1/palettes")[2]["palettes"]) == 2
    finally:
        assert s.stop() == 0  # SIGTERM still works after the reload


def test_a_vanished_directory_keeps_the_palettes(binary, tmp_path):
    directory, s = served(tmp_path, binary)
    try:
        before = generation(s)
        shutil.rmtree(directory)
        s.signal(signal.SIGHUP)
        ready = wait_for(lambda: (lambda r: r if r["generation"] > before else None)(s.json("GET", "/readyz")[2]), "the reload")
        assert "cannot be read" in ready["problems"][0]["message"], ready
        assert [p["name"] for p in s.json("GET", "/v1/palettes")[2]["palettes"]] == ready["palettes"] and len(ready["palettes"]) == 2
    finally:
        assert s.stop() == 0


def test_readyz_shows_no_paths_outside_and_symlinks_cannot_lead_out(binary, tmp_path):
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"name": "secret", "themes": {"l": {"tokens": {"a": "#123456"}}}}))
    directory, s = served(tmp_path, binary)
    try:
        (directory / "leak.json").symlink_to(secret)
        (directory / "broken.json").write_text("{")
        # A resolver whose source leads out of the directory.
        (directory / "out.resolver.json").write_text(json.dumps({"version": "2025.10", "sets": {"s": {"sources": [{"$ref": "../secret.json"}]}},
                                                              "resolutionOrder": [{"$ref": "#/sets/s"}]}))
        before = generation(s)
        s.signal(signal.SIGHUP)
        ready = wait_for(lambda: (lambda r: r if r["generation"] > before else None)(s.json("GET", "/readyz")[2]), "the reload")
        text = json.dumps(ready)
        assert str(tmp_path) not in text and "#123456" not in text, text
        assert "secret" not in [p["name"] for p in s.json("GET", "/v1/palettes")[2]["palettes"]]
        assert any(p.get("file") == "leak.json" and "outside the palettes directory" in p["message"] for p in ready["problems"]), ready
        assert any(p.get("file") == "broken.json" for p in ready["problems"]), ready
    finally:
        assert s.stop() == 0
