"""`make install PREFIX=… [DESTDIR=…]`: the binary, completions for bash, zsh and fish, and
contrast(1) written from the binary's own option list, so a new option is on the page."""
import json
import shutil
import subprocess

import pytest

from conftest import ROOT


@pytest.fixture(scope="module")
def installed(binary, tmp_path_factory):
    root = tmp_path_factory.mktemp("install")
    stage, prefix = root / "stage", "/opt/contrast"
    r = subprocess.run(["make", "-s", "install", f"PREFIX={prefix}", f"DESTDIR={stage}", f"BINARY={binary}"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return stage / prefix.lstrip("/")


def test_the_binary_and_its_files_are_installed_under_the_prefix(installed, binary):
    version = subprocess.run([installed / "bin" / "contrast", "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout == subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    for path in ("share/bash-completion/completions/contrast", "share/zsh/site-functions/_contrast",
                 "share/fish/vendor_completions.d/contrast.fish", "share/man/man1/contrast.1"):
        assert (installed / path).stat().st_size > 1000, path


def test_the_bash_completion_completes_subcommands(installed):
    script = installed / "share/bash-completion/completions/contrast"
    r = subprocess.run(["bash", "-c", f'source "{script}" && complete -p contrast && COMP_WORDS=(contrast au) COMP_CWORD=1 COMP_LINE="contrast au" COMP_POINT=11 && _contrast contrast au contrast 2>/dev/null; printf "%s\\n" "${{COMPREPLY[@]}}"'],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "complete" in r.stdout and "audit" in r.stdout.split(), r.stdout


def test_the_man_page_renders_without_warnings_and_lists_every_option(installed, binary):
    page = installed / "share/man/man1/contrast.1"
    if shutil.which("groff") is None:
        pytest.skip("groff is not installed (Debian: groff-base, which man needs)")
    r = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", str(page)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    # As man shows it, without bold by overstriking (-P-cbou), on lines long enough for any option.
    text = subprocess.run(["groff", "-man", "-Tutf8", "-P-cbou", "-rLL=300n", str(page)], capture_output=True, text=True, timeout=60).stdout
    info = json.loads(subprocess.run([binary, "--experimental-dump-help"], capture_output=True, text=True).stdout)["command"]
    for command in info["subcommands"]:
        if command["commandName"] == "help":
            continue
        assert f"contrast {command['commandName']}" in text, command["commandName"]
        for argument in command.get("arguments", []):
            if argument.get("shouldDisplay", True) and argument["kind"] != "positional":
                long = [n["name"] for n in argument["names"] if n["kind"] == "long"]
                assert not long or f"--{long[0]}" in text, (command["commandName"], long)
