"""A pull request's token file can write only text into a CI log or comment: names that hold
line breaks, escape codes or a runner's `::command::` are shown escaped on one line, and names
that GitHub would turn into links or mentions are code spans in the Markdown."""
import json
import re

EVIL = "x\n::add-mask::secret\x1b[31m\u202e"
MENTION = "ping @octocat at www.example.com"


def lines_a_runner_would_read_as_commands(text):
    return [line for line in text.splitlines() if line.lstrip().startswith("::")]


def palette(tmp_path, tokens, checks=()):
    path = tmp_path / "evil.json"
    path.write_text(json.dumps({"name": "evil", "themes": {"light": {"tokens": tokens}}, "checks": list(checks)}))
    return path


def test_a_broken_token_names_itself_on_one_line_with_no_escape_codes(run, tmp_path):
    path = palette(tmp_path, {EVIL: "{nowhere}", "bg": "#fff"}, [{"foreground": EVIL, "background": "bg"}])
    r = run("audit", str(path))
    assert r.returncode == 2
    assert not lines_a_runner_would_read_as_commands(r.stderr), r.stderr
    assert "\x1b" not in r.stderr and "\u202e" not in r.stderr
    assert "x\\x0a::add-mask::secret\\x1b[31m" in r.stderr, r.stderr


def test_a_file_name_with_a_line_break_stays_on_its_line(run, tmp_path):
    folder = tmp_path / "tokens"
    folder.mkdir()
    (folder / "a\n::stop-commands::x.json").write_text("{ not json")
    r = run("audit", str(folder))
    assert r.returncode == 2
    assert not lines_a_runner_would_read_as_commands(r.stderr + r.stdout), r.stderr


def test_text_output_escapes_names(run, tmp_path):
    path = palette(tmp_path, {EVIL: "#777", "bg": "#fff"}, [{"id": EVIL, "foreground": EVIL, "background": "bg"}])
    r = run("audit", str(path), "--format", "text")
    assert r.returncode == 1, r.stderr
    assert not lines_a_runner_would_read_as_commands(r.stdout) and "\x1b" not in r.stdout


def test_markdown_never_links_or_mentions_a_name(run, tmp_path):
    path = palette(tmp_path, {MENTION: "#777", "bg": "#fff"}, [{"id": MENTION, "foreground": MENTION, "background": "bg"}])
    r = run("audit", str(path), "--format", "markdown")
    assert r.returncode == 1, r.stderr
    # every appearance of the name is inside a code span
    outside = re.sub(r"(`+)(?:(?!\1).)*?\1", "", r.stdout)
    assert "@octocat" not in outside and "www.example.com" not in outside, r.stdout
    assert "@octocat" in r.stdout


def test_github_annotations_show_escape_codes_as_text(run, tmp_path):
    path = palette(tmp_path, {EVIL: "#777", "bg": "#fff"}, [{"id": EVIL, "foreground": EVIL, "background": "bg"}])
    r = run("audit", str(path), "--format", "github", env={"GITHUB_STEP_SUMMARY": ""})
    assert r.returncode == 1, r.stderr
    annotations = [line for line in r.stdout.splitlines() if line.startswith("::")]
    assert annotations and all(line.startswith(("::error", "::warning", "::notice")) for line in annotations), r.stdout
    assert "\x1b" not in r.stdout and "\u202e" not in r.stdout and "%0A::add-mask::" in r.stdout
