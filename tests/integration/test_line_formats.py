"""`contrast audit --format github` and `--format xcode` from the real binary: where each finding
points, the job summary, and the exit codes (the same as every other format's)."""
import json

COLOR_SET = """{
  "colors" : [
    {
      "color" : { "color-space" : "srgb", "components" : { "red" : "%s", "green" : "%s", "blue" : "%s", "alpha" : "1.000" } },
      "idiom" : "universal"
    }
  ],
  "info" : { "author" : "xcode", "version" : 1 }
}
"""


def catalog(root, ink="0.600"):
    assets = root / "App" / "Assets.xcassets"
    for name, value in (("Ink", ink), ("Paper", "1.000")):
        (assets / f"{name}.colorset").mkdir(parents=True, exist_ok=True)
        (assets / f"{name}.colorset" / "Contents.json").write_text(COLOR_SET % (value, value, value))
    (assets / "Contents.json").write_text('{"info": {"author": "xcode", "version": 1}}')
    (root / "checks.json").write_text('{"checks": [{"id": "ink-on-paper", "foreground": "Ink", "background": "Paper"}]}')
    return assets


def test_xcode_points_at_the_color_sets_contents_json(run, tmp_path):
    assets = catalog(tmp_path)
    r = run("audit", "App/Assets.xcassets", "--checks", "checks.json", "--format", "xcode", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"{assets}/Ink.colorset/Contents.json:4: error: Insufficient contrast: light › ink-on-paper: ")
    assert lines[0].endswith("[contrast/insufficient]")
    assert lines[-1] == "contrast: 1 check · 0 pass · 1 fail"
    catalog(tmp_path, ink="0.200")
    r = run("audit", "App/Assets.xcassets", "--checks", "checks.json", "--format", "xcode", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.splitlines() == ["contrast: 1 check · 1 pass · 0 fail"]


def test_github_paths_are_the_repositorys_and_the_summary_is_appended(run, tmp_path):
    catalog(tmp_path)
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    env = {"GITHUB_WORKSPACE": str(tmp_path), "GITHUB_STEP_SUMMARY": str(summary)}
    r = run("audit", "Assets.xcassets", "--checks", "../checks.json", "--format", "github", "--fail-on", "never",
            cwd=tmp_path / "App", env=env)
    assert r.returncode == 0, r.stderr
    first = r.stdout.splitlines()[0]
    assert first.startswith("::error file=App/Assets.xcassets/Ink.colorset/Contents.json,line=4,title=Insufficient contrast%3A light › ink-on-paper::Assets › light › ink-on-paper: Ink #999999 on Paper #ffffff: 2.84:1")
    text = summary.read_text()
    assert text.startswith("earlier step\n## Contrast audit\n") and "ink-on-paper" in text
    # Outside a job, nothing but the commands.
    r = run("audit", "App/Assets.xcassets", "--checks", "checks.json", "--format", "github", cwd=tmp_path,
            env={"GITHUB_STEP_SUMMARY": "", "GITHUB_WORKSPACE": ""})
    assert r.returncode == 1 and r.stdout.splitlines()[0].startswith("::error file=App/Assets.xcassets/Ink.colorset/Contents.json,line=4,")


def test_an_unwritable_summary_is_a_warning_and_the_exit_code_stays(run, tmp_path):
    catalog(tmp_path, ink="0.200")
    r = run("audit", "App/Assets.xcassets", "--checks", "checks.json", "--format", "github", cwd=tmp_path,
            env={"GITHUB_STEP_SUMMARY": str(tmp_path / "no-such-folder" / "summary.md")})
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1].startswith("::warning title=contrast::cannot append the summary to $GITHUB_STEP_SUMMARY (")


def test_the_json_audit_and_the_annotations_count_alike(run, tmp_path):
    catalog(tmp_path)
    report = json.loads(run("audit", "App/Assets.xcassets", "--checks", "checks.json", "--format", "json", cwd=tmp_path).stdout)
    github = run("audit", "App/Assets.xcassets", "--checks", "checks.json", "--format", "github", cwd=tmp_path, env={"GITHUB_STEP_SUMMARY": ""}).stdout
    assert sum(line.startswith("::error ") for line in github.splitlines()) == report["summary"]["fail"] == 1
