"""The image builds from what the Dockerfile copies.

No Docker engine runs here, so the test does what the build stage's COPY lines do (less
.dockerignore) into an empty folder and asks SwiftPM to load the package from exactly those
files: a target, a plugin or a resource symlink the Dockerfile forgets fails here, as it would
fail `docker build`."""
import fnmatch
import pathlib
import re
import shutil
import subprocess

from conftest import ROOT


def build_stage():
    """The build stage's lines: from its FROM to the next FROM."""
    lines, inside = [], False
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if line.startswith("FROM "):
            if inside:
                break
            inside = " AS build" in line
        if inside:
            lines.append(line)
    assert lines, "the Dockerfile has no stage named build"
    return lines


def ignore_patterns():
    patterns = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            patterns.append((line.startswith("!"), line.lstrip("!").rstrip("/")))
    return patterns


def ignored(relative, patterns):
    """Docker's rule: the last matching pattern decides; a pattern matches a path or its parents."""
    verdict = False
    parts = relative.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    for negated, pattern in patterns:
        if any(fnmatch.fnmatchcase(prefix, pattern) for prefix in prefixes) or \
                fnmatch.fnmatchcase(parts[-1], pattern) and "/" not in pattern:
            verdict = not negated
    return verdict


def copy_context(destination):
    patterns = ignore_patterns()
    for line in build_stage():
        match = re.match(r"COPY\s+(?!--from)(.+)$", line)
        if not match:
            continue
        *sources, target = match.group(1).split()
        for source in sources:
            path = ROOT / source
            assert path.exists(), f"Dockerfile: COPY {source}: no such file in the repository"
            files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file() or p.is_symlink()]
            for file in files:
                relative = file.relative_to(ROOT).as_posix()
                if ignored(relative, patterns):
                    continue
                if target.endswith("/") and path.is_file():
                    out = destination / target / file.name
                else:
                    out = destination / target / file.relative_to(path) if path.is_dir() else destination / target
                out.parent.mkdir(parents=True, exist_ok=True)
                if file.is_symlink():
                    out.symlink_to(file.readlink())
                else:
                    shutil.copy2(file, out)


def test_the_ignore_rules_read_as_docker_reads_them():
    patterns = [(False, "docs/*"), (True, "docs/data"), (False, "*.md")]
    assert ignored("docs/errors.md", patterns)
    assert not ignored("docs/data/apple-system-colors.json", patterns)
    assert ignored("README.md", patterns)


def test_the_package_loads_from_what_the_build_stage_copies(tmp_path):
    context = tmp_path / "src"
    context.mkdir()
    copy_context(context)
    result = subprocess.run(["swift", "package", "--disable-dependency-cache", "describe", "--type", "json"],
                            cwd=context, capture_output=True, text=True, timeout=600)
    problems = [line for line in result.stderr.splitlines()
                if "error:" in line or "broken symlink" in line or "Invalid Resource" in line or "should be located" in line]
    assert result.returncode == 0 and not problems, "\n".join(problems) or result.stderr[-3000:]


def test_the_image_builds_with_the_swift_the_project_builds_with():
    version = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout
    major_minor = re.search(r"Swift version (\d+\.\d+)", version).group(1)
    image = next(line for line in build_stage() if line.startswith("FROM "))
    tag = re.match(r"FROM swift:(\d+\.\d+)", image)
    assert tag and tag.group(1) == major_minor, f"{image!r}: the project builds with Swift {major_minor}"
    # and every other image the project names for building it (CI, the release, the README's examples)
    for path in [ROOT / "README.md", *sorted((ROOT / ".github" / "workflows").glob("*.yml"))]:
        for found in re.findall(r"swift:(\d+\.\d+)", path.read_text()):
            assert found == major_minor, f"{path.name} names swift:{found}; the project builds with Swift {major_minor}"
