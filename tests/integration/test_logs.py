"""Logs cannot be forged: what a client sends is logged escaped, one request per line, in text
and in JSON (issue: harden the service, section 2)."""
import json
import re
import shutil

import pytest

from conftest import ROOT
from server import Server

FORGED = b"GET /v1/x%0A2026-01-01T00:00:00.000Z%20127.0.0.1%20%22GET%20/admin%22%20200 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
# ESC [ 2 J (clear screen) and an OSC title sequence, raw in the target, and an invalid UTF-8 byte.
TERMINAL = b"GET /v1/contrast?fg=%23000&bg=\x1b[2J\x1b]0;pwned\x07\xff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def serve(binary, tmp_path, *args):
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    # A token name with a newline and an escape sequence reaches the log in a problem line.
    (directory / "evil.json").write_text(json.dumps({"name": "evil", "themes": {"l": {"tokens": {"evil\n\u001b[31mFAKE": "#12"}}}}))
    return Server(binary, str(directory), "--threads", "2", *args)


def requests_and_stop(s):
    s.raw(FORGED)
    s.raw(TERMINAL)
    assert s.json("GET", "/healthz")[0] == 200
    assert s.stop() == 0
    with open(s.log_path, encoding="utf-8") as f:  # strict: an unescaped invalid byte fails here
        return f.read()


def test_text_log_escapes_what_clients_send(binary, tmp_path):
    log = requests_and_stop(serve(binary, tmp_path))
    assert "\x1b" not in log and "\x07" not in log and "\ufffd" not in log, repr(log[-600:])
    lines = log.splitlines()
    # Every line is the server's own: it starts with its timestamp.
    assert all(re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z ", line) for line in lines), lines
    forged = [line for line in lines if "/admin" in line]
    assert len(forged) == 1 and "%0A2026-01-01" in forged[0], forged
    terminal = [line for line in lines if "pwned" in line]
    assert len(terminal) == 1 and "\\x1b[2J\\x1b]0;pwned\\x07\\xff" in terminal[0], terminal
    problem = next(line for line in lines if "palette problem" in line)
    assert "evil\\x0a\\x1b[31mFAKE" in problem, problem


def test_json_log_is_one_object_per_line(binary, tmp_path):
    log = requests_and_stop(serve(binary, tmp_path, "--log-format", "json"))
    records = [json.loads(line) for line in log.splitlines()]
    targets = [r["target"] for r in records if "target" in r]
    assert "/v1/x%0A2026-01-01T00:00:00.000Z%20127.0.0.1%20%22GET%20/admin%22%20200" in targets
    assert "/v1/contrast?fg=%23000&bg=\\x1b[2J\\x1b]0;pwned\\x07\\xff" in targets
    health = next(r for r in records if r.get("target") == "/healthz")
    assert health["method"] == "GET" and health["status"] == 200 and health["completed"] is True
    assert health["route"] == "/healthz" and isinstance(health["durationMs"], float)
    messages = [r for r in records if "message" in r]
    assert any(r["level"] == "warning" and "evil\\x0a\\x1b[31mFAKE" in r["message"] for r in messages), messages


def test_an_oversize_chunked_body_is_cut_at_the_limit_and_the_json_log_stays_json(binary, tmp_path):
    s = serve(binary, tmp_path, "--log-format", "json", "--max-body", "1MiB")
    try:
        import socket
        with socket.create_connection(("127.0.0.1", s.port), timeout=10) as c:
            c.sendall(b"POST /v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"x" * 65536
            try:
                for _ in range(1600):  # 100 MB, unless the server stops reading
                    c.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:
                pass  # the server answered 413 and closed: it did not read the rest
        assert s.json("GET", "/healthz")[0] == 200
    finally:
        assert s.stop() == 0
    with open(s.log_path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]  # libmicrohttpd's messages too
    upload = next(r for r in records if r.get("target") == "/v1/audit")
    assert upload["status"] == 413 and upload["requestBytes"] < 4 << 20, upload
