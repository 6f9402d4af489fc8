"""Shared fixtures: the real `contrast` binary built by `swift build`."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def binary():
    path = pathlib.Path(os.environ.get("CONTRAST_BIN", ROOT / ".build" / "debug" / "contrast"))
    if not path.exists():
        pytest.fail(f"{path} does not exist: run `swift build` first (make test does)")
    return str(path)


@pytest.fixture
def run(binary):
    def runner(*args, input=None, env=None, cwd=None, timeout=60):
        environment = dict(os.environ)
        environment.pop("NO_COLOR", None)
        environment.update(env or {})
        return subprocess.run([binary, *args], input=input, capture_output=True, text=True,
                              env=environment, cwd=cwd or ROOT, timeout=timeout)
    return runner


@pytest.fixture(scope="module")
def palettes_server(binary, tmp_path_factory):
    """The real server over a copy of palettes/, two threads, quiet; it must stop cleanly."""
    import shutil
    from server import Server
    directory = tmp_path_factory.mktemp("served") / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    s = Server(binary, str(directory), "--threads", "2", "--quiet")
    yield s
    assert s.stop() == 0, s.logs()[-2000:]
