"""The live server checked against openapi.yaml with schemathesis, so the two cannot drift apart."""
import shutil
import subprocess

import pytest

from conftest import ROOT
from server import Server


def test_live_server_conforms_to_openapi(binary, tmp_path):
    st = shutil.which("st") or shutil.which("schemathesis")
    if st is None:
        pytest.fail("schemathesis is not installed: run scripts/ensure-deps.sh test (make test does)")
    shutil.copytree(ROOT / "palettes", tmp_path / "palettes")
    server = Server(binary, str(tmp_path / "palettes"), "--quiet")
    try:
        # positive_data_acceptance is left out on purpose: a CSS color is a string in JSON Schema,
        # so a schema-valid string that is not a color ("", "#12") is rightly answered 400.
        result = subprocess.run(
            [st, "run", f"{server.base}/openapi.yaml", "--checks", "all",
             "--exclude-checks", "positive_data_acceptance", "-n", "15", "--seed", "20261122",
             "--max-time", "60", "--request-timeout", "30"],
            capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    finally:
        assert server.stop() == 0, server.logs()[-3000:]
