"""`contrast init`: it proposes checks for real design systems, and the audit takes them."""
import json
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
SYSTEMS = sorted(p for folder in ("realworld", "realworld2") if (SHARED / folder).is_dir()
                 for p in (SHARED / folder).iterdir() if p.is_dir())
# USWDS gives every token a "grade" (its lightness class), which the tool does not apply and so
# cannot call harmless by itself: the operator declares it, as the audit's own message says.
EXTRA = {"uswds": ["--ignore-property", "grade"]}


def read_checks(path):
    """The JSON5 document init writes: whole-line // comments, then plain JSON."""
    text = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))
    return json.loads(text)["checks"]


def problem_keys(report):
    return {(p.get("code"), p.get("message")) for palette in report["palettes"] for p in palette.get("problems", [])}


@pytest.mark.skipif(not SYSTEMS, reason="../shared/realworld*/ is absent")
@pytest.mark.parametrize("system", SYSTEMS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_proposed_checks_cover_every_theme_and_audit_cleanly(run, tmp_path, system):
    checks_file = tmp_path / "contrast.checks.json"
    extra = EXTRA.get(system.name, [])
    made = run("init", str(system), "--output", str(checks_file), *extra, timeout=300)
    assert made.returncode == 0, made.stderr[-3000:]
    assert checks_file.exists(), f"nothing proposed for {system.name}:\n{made.stderr[-3000:]}"
    checks = read_checks(checks_file)
    assert checks and all(c["description"].startswith("proposed by contrast init") for c in checks)

    plain = run("audit", str(system), "--format", "json", *extra, timeout=300)
    audited = run("audit", str(system), "--checks", str(checks_file), "--format", "json", *extra, timeout=300)
    assert audited.returncode in (0, 1) or plain.returncode == 2, audited.stderr[-3000:]
    # The proposed checks add no problem: no empty rule, no unknown token, no bad field.
    added = problem_keys(json.loads(audited.stdout)) - problem_keys(json.loads(plain.stdout))
    assert not added, added

    report = json.loads(audited.stdout)
    by_palette = {}
    for check in checks:
        for name in check.get("palettes") or [p["name"] for p in report["palettes"]]:
            by_palette.setdefault(name, []).append(check)
    assert by_palette
    for palette in report["palettes"]:
        if not palette["themes"]:
            continue  # a source that could not be read: the plain audit reports it too
        proposed = by_palette.get(palette["name"])
        if not proposed:
            # Nothing proposed for this one: init said why.
            assert re.search(re.escape(palette["name"]) + r" — .*\n(?:  .*\n)*?  note: no checks proposed", made.stderr), palette["name"]
            continue
        # Themes where no two names resolve to colors a rule could pair (shadcn's theme-blue sets
        # only var(--color-blue-600) and the like, Tailwind's colors, which the file does not
        # define): init must say so, by name.
        uncovered = set()
        for note in re.findall(r"note: no proposed check measures themes? (.*)", made.stderr):
            uncovered |= {name.strip() for name in note.split(",")}
        for theme in palette["themes"]:
            wanted = [c for c in proposed if theme["name"] in c.get("themes", [theme["name"]])]
            if not wanted and theme["name"] in uncovered:
                continue
            assert wanted, f"{palette['name']}/{theme['name']}: no proposed check applies"
            ids = {c["id"] for c in wanted}
            hits = [r for r in theme["results"] if r["id"] in ids or r["id"].split("[", 1)[0] in ids]
            assert hits, f"{palette['name']}/{theme['name']}: no proposed check matched a pair"


def test_never_overwrites_without_force(run, tmp_path):
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({"text": {"body": {"$type": "color", "$value": "#111111"}},
                                  "surface": {"page": {"$type": "color", "$value": "#ffffff"}}}))
    first = run("init", str(tmp_path), "--baseline")
    assert first.returncode == 0, first.stderr
    written = (tmp_path / "contrast.checks.json").read_text()
    assert "text.* on surface.*" in written
    assert json.loads((tmp_path / "contrast-baseline.json").read_text())
    assert "text.* on surface.*" in first.stderr and "wrote 1 check to" in first.stderr

    again = run("init", str(tmp_path))
    assert again.returncode == 2
    assert again.stderr.strip().endswith(f"{tmp_path}/contrast.checks.json already exists; give --force to replace it, or --output to write elsewhere")
    assert (tmp_path / "contrast.checks.json").read_text() == written

    forced = run("init", str(tmp_path), "--force", "--baseline")
    assert forced.returncode == 0, forced.stderr
    audited = run("audit", str(tmp_path), "--checks", str(tmp_path / "contrast.checks.json"),
                  "--baseline", str(tmp_path / "contrast-baseline.json"))
    assert audited.returncode == 0, audited.stdout + audited.stderr


def test_nothing_to_read_is_an_input_error(run, tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    result = run("init", str(tmp_path))
    assert result.returncode == 2
    assert "nothing to propose checks for" in result.stderr
    assert not (tmp_path / "contrast.checks.json").exists()
