"""Every file read goes through one confined reader (issue: one way in; hardening). A palettes
directory whose asset catalog or Android res/ folder holds links out of it, a link loop, a FIFO
named Contents.json or /dev/zero behind a link is read without hanging and without reading
anything outside, through the CLI and through the service's reload. Every wait is bounded and
polls; nothing depends on timing."""
import json
import os
import shutil
import signal

from conftest import ROOT
from server import Server
from test_reload import generation, wait_for

SECRET = "TOPSECRET-7c1e"
RED = {"colors": [{"idiom": "universal", "color": {"color-space": "srgb",
       "components": {"red": "1.000", "green": "0.000", "blue": "0.000", "alpha": "1.000"}}}],
       "info": {"version": 1, "author": "xcode"}}


def hostile_tree(tmp_path):
    """palettes/ with a catalog and a res/ folder whose hostile entries are every kind the
    reader must refuse, and an outside directory holding the secret."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "Contents.json").write_text(json.dumps({"colors": [], "secret": SECRET}))
    (outside / "colors.xml").write_text(f'<resources><color name="{SECRET}">#123456</color></resources>')
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    catalog = directory / "Brand.xcassets"
    (catalog / "red.colorset").mkdir(parents=True)
    (catalog / "red.colorset" / "Contents.json").write_text(json.dumps(RED))
    (catalog / "linked.colorset").mkdir()
    (catalog / "linked.colorset" / "Contents.json").symlink_to(outside / "Contents.json")  # a file link out
    (catalog / "away.colorset").symlink_to(outside)  # a directory link out
    (catalog / "loop").mkdir()
    (catalog / "loop" / "up").symlink_to("..")  # a loop
    (catalog / "loop" / "here").symlink_to(".")  # another
    (catalog / "fifo.colorset").mkdir()
    os.mkfifo(catalog / "fifo.colorset" / "Contents.json")
    (catalog / "zero.colorset").mkdir()
    (catalog / "zero.colorset" / "Contents.json").symlink_to("/dev/zero")
    values = directory / "res" / "values"
    values.mkdir(parents=True)
    (values / "colors.xml").write_text('<resources><color name="ink">#202020</color></resources>')
    (values / "more.xml").symlink_to(outside / "colors.xml")
    (directory / "res" / "values-night").symlink_to(outside)
    return directory


def assert_nothing_outside_was_read(text, tmp_path):
    assert SECRET not in text, text
    assert "#123456" not in text, text


def test_the_cli_reads_a_hostile_catalog_and_res_folder_without_hanging(run, tmp_path):
    directory = hostile_tree(tmp_path)
    r = run("audit", str(directory), "--format", "json", timeout=60)
    report = json.loads(r.stdout)
    names = {p["name"] for p in report["palettes"]}
    assert "Brand" in names and "res" in names, names
    text = r.stdout + r.stderr
    # The CLI walks the directory its operator names and nothing outside it: a link that
    # leads out (a file, a folder, /dev/zero) is not read, and says so; a FIFO is never read,
    # and a loop is walked once.
    assert "a FIFO, not a regular file" in text, text
    assert "zero.colorset/Contents.json: the color set's Contents.json is not read: it is outside" in text, text
    assert "linked.colorset/Contents.json: the color set's Contents.json is not read: it is outside" in text, text
    assert "loops back" in text, text
    assert_nothing_outside_was_read(text, tmp_path)


def test_the_reload_reads_nothing_outside_and_does_not_hang(binary, tmp_path):
    directory = hostile_tree(tmp_path)
    s = Server(binary, str(directory), "--threads", "2", "--quiet")
    try:
        ready = s.json("GET", "/readyz")[2]
        names = set(ready["palettes"])
        # The catalog has problems (its refused entries), so it is not served; res/ and the
        # palettes beside them are.
        assert {"res", "peptide-fox"} <= names and "Brand" not in names, ready
        # A second reload (SIGHUP) with the same tree ends too: the loop cannot hang it.
        before = generation(s)
        s.signal(signal.SIGHUP)
        ready = wait_for(lambda: (lambda r: r if r["generation"] > before else None)(s.json("GET", "/readyz")[2]), "the reload")
        text = json.dumps(ready)
        for path in ["/v1/palettes", "/v1/palettes/res/audit", "/v1/palettes/res"]:
            status, _, raw = s.request("GET", path)
            assert status == (409 if path == "/v1/palettes/res" else 200), (path, raw[:400])
            text += raw.decode()
        assert_nothing_outside_was_read(text, tmp_path)
        assert str(tmp_path) not in text, text
        # The catalog's own color is read; the links out are refused by name.
        audit = s.json("GET", "/v1/palettes/res/audit")[2]
        assert audit["palettes"][0]["file"] == "res", audit["palettes"][0]["file"]
        # A palette read from a folder has no single document: a 409 that says so, not an
        # empty 200.
        status, headers, problem = s.json("GET", "/v1/palettes/res")
        assert status == 409 and headers["Content-Type"] == "application/problem+json"
        assert "was read from a folder" in problem["detail"] and "/v1/palettes/res/audit" in problem["detail"], problem
        problems = json.dumps(ready["problems"])
        assert "linked.colorset/Contents.json" in problems and "outside the palettes directory" in problems, problems
        assert "fifo.colorset/Contents.json" in problems and "zero.colorset/Contents.json" in problems, problems
    finally:
        assert s.stop() == 0, s.logs()[-2000:]


def test_a_served_file_swapped_for_a_link_is_not_served(binary, tmp_path):
    """GET /v1/palettes/NAME serves the bytes that were loaded and audited, never a second read
    of the file: swapping it for a link out and reloading serves the previous version."""
    outside = tmp_path / "secret.json"
    outside.write_text(json.dumps({"secret": SECRET}))
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    s = Server(binary, str(directory), "--threads", "2", "--quiet")
    try:
        status, _, original = s.request("GET", "/v1/palettes/train")
        assert status == 200
        os.rename(directory / "train.json", tmp_path / "train.json")
        (directory / "train.json").symlink_to(outside)
        before = generation(s)
        s.signal(signal.SIGHUP)
        wait_for(lambda: generation(s) > before, "the reload")
        # The link out is refused by the walk, so the palette is no longer served (404); in no
        # case is the outside file's text.
        status, _, served = s.request("GET", "/v1/palettes/train")
        assert status in (200, 404), served[:300]
        assert SECRET.encode() not in served
        if status == 200:
            assert served == original
    finally:
        assert s.stop() == 0, s.logs()[-2000:]


def test_files_named_on_the_command_line_are_read_by_the_same_reader(run, tmp_path):
    """A baseline, a palette to derive from and TLS files named on the command line are refused,
    with their path and why, when they are a FIFO or a device: before, a FIFO baseline hung."""
    fifo = tmp_path / "baseline.json"
    os.mkfifo(fifo)
    r = run("audit", str(ROOT / "palettes"), "--baseline", str(fifo), timeout=60)
    assert r.returncode == 2 and f"{fifo}: cannot read the baseline: a FIFO, not a regular file" in r.stderr, r.stderr
    r = run("serve", "--port", "0", "--tls-cert", "/dev/zero", "--tls-key", "/dev/zero", timeout=60)
    assert r.returncode == 2 and "/dev/zero: cannot read the TLS certificate: a device, not a regular file" in r.stderr, r.stderr
    palette = tmp_path / "p.json"
    os.mkfifo(palette)
    r = run("derive", str(palette), "--from", "light", "--to", "dark", "--surface", "#111111", "--output", "-", timeout=60)
    assert r.returncode == 2 and str(palette) in r.stderr and "FIFO" in r.stderr, r.stderr


def test_a_reference_in_a_token_file_reads_nothing_outside_the_directory_audited(run, tmp_path):
    """Found by a hostile probe: the CLI followed a `$ref` or a resolver source anywhere, and
    `--format github` quoted the file's value in an annotation (in CI, on a pull request's token
    file, a secret in a public log). A reference inside the directory still reads."""
    outside = tmp_path / "secret"
    outside.mkdir()
    (outside / "config.json").write_text(json.dumps({"auth": SECRET}))
    (outside / "x.tokens.json").write_text(json.dumps({"x": {"$type": "color", "$value": "#123456"}}))
    tokens = tmp_path / "tokens"
    tokens.mkdir()
    (tokens / "a.tokens.json").write_text(json.dumps({
        "a": {"$type": "color", "$value": {"$ref": "../secret/config.json#/auth"}},
        "b": {"$type": "color", "$value": {"$ref": "base.json#/b"}},
        "c": {"$type": "color", "$value": "#ffffff"}}))
    (tokens / "base.json").write_text(json.dumps({"b": "#202020"}))
    (tokens / "a.checks.json").write_text(json.dumps({"checks": [{"foreground": "b", "background": "c"}]}))
    resolver = tmp_path / "r"
    resolver.mkdir()
    (resolver / "r.resolver.json").write_text(json.dumps({
        "version": "2025.10", "sets": {"s": {"sources": [{"$ref": "../secret/x.tokens.json"}]}},
        "resolutionOrder": [{"$ref": "#/sets/s"}]}))
    for args in (["audit", str(tokens / "a.tokens.json")], ["audit", str(tokens)], ["audit", str(resolver)]):
        for fmt in ("text", "github", "json"):
            r = run(*args, "--format", fmt)
            text = r.stdout + r.stderr
            assert r.returncode == 2, (args, fmt, text[-800:])
            assert_nothing_outside_was_read(text, tmp_path)
            assert ("the directory audited" in text or "the folder of the file audited" in text) and "audit a directory that holds both, or give --root, to follow it" in text, text[-800:]
    # The reference inside the directory was followed: the check is measured.
    r = run("audit", str(tokens / "a.tokens.json"), "--format", "json")
    result = json.loads(r.stdout)["palettes"][0]["themes"][0]["results"][0]
    assert result["foreground"]["hex"] == "#202020" and result["display"] == "16.29:1", result


def test_the_served_audit_shows_what_the_reader_warned_about(binary, tmp_path):
    """Found by a hostile probe: the served palette's audit dropped every reader warning (an
    `@import` not followed, a hex that disagrees with its components), which `contrast audit`
    and `POST /v1/audit` both show."""
    directory = tmp_path / "palettes"
    directory.mkdir()
    (directory / "site.css").write_text('@import url("https://example.com/x.css");\n:root { --fg: #202020; --bg: #ffffff; }\n')
    (directory / "site.checks.json").write_text(json.dumps({"checks": [{"foreground": "fg", "background": "bg"}]}))
    s = Server(binary, str(directory), "--threads", "2", "--quiet")
    try:
        status, _, audit = s.json("GET", "/v1/palettes/site/audit")
        assert status == 200, audit
        warnings = audit["palettes"][0].get("warnings") or []
        assert any("https://example.com/x.css" in w["message"] and "not fetched" in w["message"] for w in warnings), audit["palettes"][0]
        assert audit["palettes"][0]["summary"]["pass"] == 1
    finally:
        assert s.stop() == 0, s.logs()[-2000:]


def test_a_link_in_the_directory_audited_that_leads_out_is_not_read(run, tmp_path):
    """Found by a review: the CLI walked a named directory through a symbolic link a pull
    request can commit (`tokens/evil.tokens.json -> ../secret/config.json`, or a linked
    folder), and quoted the secret in its annotations. The walk now stays inside the directory
    named, and lists the link as not read."""
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "config.json").write_text(json.dumps({"a": {"$type": "color", "$value": SECRET}}))
    tokens = tmp_path / "tokens"
    tokens.mkdir()
    (tokens / "a.tokens.json").write_text(json.dumps({"fg": {"$type": "color", "$value": "#000000"}, "bg": {"$type": "color", "$value": "#ffffff"}}))
    (tokens / "evil.tokens.json").symlink_to(secret / "config.json")
    (tokens / "more").symlink_to(secret)
    for fmt in ("text", "github", "json"):
        r = run("audit", str(tokens), "--format", fmt)
        assert_nothing_outside_was_read(r.stdout + r.stderr, tmp_path)
        if fmt != "github":  # the annotations name problems; skipped files are in the other two
            assert "evil.tokens.json" in r.stdout + r.stderr, (fmt, r.stdout[-800:], r.stderr[-800:])
    r = run("audit", str(tokens))
    assert "it is outside" in r.stdout and "the directory audited" in r.stdout, r.stdout[-1500:]
