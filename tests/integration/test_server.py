"""The HTTP service, started as `contrast serve` on a free 127.0.0.1 port and spoken to over HTTP."""
import json
import shutil
import signal
import socket
import threading
import time

import pytest

from conftest import ROOT
from server import Server, status_of


@pytest.fixture
def palettes(tmp_path):
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    return directory


@pytest.fixture
def server(binary, palettes):
    # Every test client is 127.0.0.1: no per-address limit here (test_hostile.py tests it).
    s = Server(binary, str(palettes), "--threads", "2", "--max-body", "256KiB", "--max-connections-per-ip", "0")
    yield s
    assert s.stop() == 0, s.logs()


def test_banner_prints_urls_to_try(server):
    assert "serving 2 palettes (peptide-fox, train)" in server.banner
    assert f"curl '{server.base}/v1/palettes'" in server.banner


def test_health_and_readiness(server):
    status, headers, body = server.json("GET", "/healthz")
    assert status == 200 and body == {"status": "ok"}
    assert headers["X-Content-Type-Options"] == "nosniff"
    status, _, body = server.json("GET", "/readyz")
    assert status == 200 and body["palettes"] == ["peptide-fox", "train"] and body["problems"] == []


def test_contrast_get_and_post(server):
    status, _, body = server.json("GET", "/v1/contrast?fg=%23777&bg=white&level=AA")
    assert status == 200
    assert body["display"] == "4.47:1" and body["pass"] is False and body["foreground"] == "#777777"
    status, _, body = server.json("POST", "/v1/contrast", {"fg": "#767676", "bg": "#fff"})
    assert status == 200 and body["pass"] is True
    pairs = [{"fg": "#000", "bg": "#fff"}] * 1000 + [{"fg": "#12", "bg": "#fff"}]
    status, _, body = server.json("POST", "/v1/contrast", {"pairs": pairs})
    assert status == 200 and len(body["results"]) == 1001
    assert body["results"][-1]["pointer"] == "/pairs/1000/fg"


def test_css_color_5_over_http(server):
    """color-mix(), relative colors and light-dark() as an HTTP client sends them."""
    from urllib.parse import quote
    status, _, body = server.json("GET", "/v1/contrast?fg=" + quote("color-mix(in srgb, #000 50%, #fff)") + "&bg=white")
    assert status == 200 and body["foreground"] == "#808080"
    status, _, body = server.json("GET", "/v1/contrast?fg=" + quote("rgb(from #0969da r g b / 50%)") + "&bg=white")
    assert status == 200 and body["foreground"] == "#0969da80"
    # light-dark() without a scheme is measured in both, as contrast check does.
    ld = quote("light-dark(#1f2328, #f0f6fc)")
    status, _, body = server.json("GET", f"/v1/contrast?fg={ld}&bg=%230d1117")
    assert status == 200 and set(body) == {"light", "dark"}
    assert body["light"]["foreground"] == "#1f2328" and body["dark"]["foreground"] == "#f0f6fc" and body["dark"]["pass"] is True
    status, _, body = server.json("GET", f"/v1/contrast?fg={ld}&bg=%230d1117&scheme=dark")
    assert status == 200 and body["foreground"] == "#f0f6fc" and body["pass"] is True
    status, _, body = server.json("POST", "/v1/contrast", {"fg": "light-dark(#1f2328, #f0f6fc)", "bg": "#fff", "scheme": "light"})
    assert status == 200 and body["foreground"] == "#1f2328"
    status, _, body = server.json("GET", f"/v1/contrast?fg={ld}&bg=white&scheme=dusk")
    assert status == 400 and body["field"] == "scheme"


def test_errors_are_problem_json(server):
    status, headers, body = server.json("GET", "/v1/contrast?fg=blu&bg=white")
    assert status == 400 and headers["Content-Type"] == "application/problem+json"
    assert body["status"] == 400 and "did you mean 'blue'" in body["detail"] and body["field"] == "fg"
    status, _, body = server.json("GET", "/nowhere")
    assert status == 404 and body["title"] == "Not Found"
    status, headers, _ = server.json("DELETE", "/v1/palettes")
    assert status == 405 and headers["Allow"] == "GET, HEAD"
    status, _, body = server.json("POST", "/v1/audit", b"not json", headers={"Content-Type": "text/plain"})
    assert status == 415
    status, _, body = server.json("POST", "/v1/audit", b'{"name": "x",\n "themes": [}')
    assert status == 400 and body["line"] == 2
    status, _, body = server.json("POST", "/v1/audit", {"name": "x", "themes": {"light": {"tokens": {"a": "#12"}}}})
    assert status == 422 and body["problems"][0]["pointer"] == "/themes/light/tokens/a"
    status, _, body = server.json("POST", "/v1/contrast", b"x" * (300 << 10))
    assert status == 413


def test_every_problem_json_carries_a_code(server):
    """A program branches on `code`, never on the wording: every error body has one (docs/errors.md)."""
    cases = [
        ("GET", "/v1/contrast?fg=blu&bg=white", None, {}, 400, "invalid-color"),
        ("GET", "/v1/contrast?fg=%23000&bg=%23fff&colour=1", None, {}, 400, "unknown-field"),
        ("POST", "/v1/contrast", {"pairs": [{"fg": "#777", "foreground": "#000", "bg": "#fff"}]}, {}, 400, "repeated-field"),
        ("GET", "/nowhere", None, {}, 404, "not-found"),
        ("DELETE", "/v1/palettes", None, {}, 405, "method-not-allowed"),
        ("POST", "/v1/audit", b"not json", {"Content-Type": "text/plain"}, 415, "unsupported-media-type"),
        ("POST", "/v1/audit", b'{"name": "x",\n "themes": [}', {}, 400, "invalid-json"),
        ("POST", "/v1/audit", b"", {}, 400, "missing-body"),
        ("POST", "/v1/audit", {"name": "x", "themes": {"light": {"tokens": {"a": "#12"}}}}, {}, 422, "invalid-palette"),
        ("GET", "/v1/palettes/peptide-fox/matrix?format=yaml", None, {}, 400, "invalid-value"),
        ("GET", "/v1/palettes/peptide-fox/audit?theme=sepia", None, {}, 400, "unknown-theme"),
        ("POST", "/v1/contrast", b"x" * (300 << 10), {}, 413, "content-too-large"),
    ]
    for method, path, body, headers, status, code in cases:
        got, response_headers, problem = server.json(method, path, body, headers=headers)
        assert (got, problem.get("code")) == (status, code), (method, path, problem)
        assert response_headers["Content-Type"] == "application/problem+json"


def test_palettes_audit_and_proposals(server):
    status, _, body = server.json("GET", "/v1/palettes")
    assert [p["name"] for p in body["palettes"]] == ["peptide-fox", "train"]
    assert "fail" in body["palettes"][0]["verdict"]
    status, _, document = server.json("GET", "/v1/palettes/peptide-fox")
    assert status == 200 and document["name"] == "peptide-fox"
    status, _, audit = server.json("GET", "/v1/palettes/peptide-fox/audit?theme=dark")
    assert status == 200 and [t["name"] for t in audit["palettes"][0]["themes"]] == ["dark"]
    # A designer proposes pale body text in dark mode and reads what got worse and why.
    document["themes"]["dark"]["tokens"]["text.body"]["$value"] = "#475569"
    status, _, proposal = server.json("POST", "/v1/palettes/peptide-fox/proposals", document)
    assert status == 200
    keys = [r["key"] for r in proposal["comparison"]["regressions"]]
    assert "peptide-fox/dark/body-text-on-page" in keys
    result = [r for t in proposal["audit"]["palettes"][0]["themes"] if t["name"] == "dark"
              for r in t["results"] if r["id"] == "body-text-on-page"][0]
    assert result["verdict"] == "fail" and result["suggestions"]["foreground"]
    status, _, _ = server.json("POST", "/v1/palettes/nope/proposals", document)
    assert status == 404


def test_suggest_variants_openapi_metrics(server):
    status, _, body = server.json("POST", "/v1/suggest", {"fg": "#777", "bg": "#fff"})
    assert status == 200 and body["suggestions"]["foreground"][0]["hex"] == "#767676"
    status, _, body = server.json("POST", "/v1/variants", {"color": "#2563eb", "on": ["#fff", "#0f172a"]})
    assert status == 200 and len(body["variants"]) == 2
    status, headers, raw = server.request("GET", "/openapi.yaml")
    assert status == 200 and raw.decode() == (ROOT / "openapi.yaml").read_text()
    status, _, raw = server.request("GET", "/metrics")
    text = raw.decode()
    assert 'contrast_http_requests_total{route="/v1/suggest",method="POST",status="200"} 1' in text
    assert "contrast_http_request_duration_seconds_bucket" in text


def test_access_log_has_one_line_per_request(server):
    server.json("GET", "/healthz")
    server.json("GET", "/v1/contrast?fg=%23000&bg=%23fff")
    # The line is written once the response is sent: wait for it (bounded), never a fixed sleep.
    deadline = time.time() + 10
    while time.time() < deadline:
        lines = [l for l in server.logs().splitlines() if '"GET ' in l]
        if any('"GET /v1/contrast?fg=%23000&bg=%23fff" 200' in l for l in lines):
            break
        time.sleep(0.05)
    assert any('"GET /healthz" 200' in l for l in lines)
    # The target as the client sent it, query and percent-escapes included.
    assert any('"GET /v1/contrast?fg=%23000&bg=%23fff" 200' in l for l in lines), lines


def test_request_smuggling_and_bad_requests_get_400(server):
    raw = server.raw(b"POST /v1/contrast HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
    assert status_of(raw) == 400 and b"Content-Length and Transfer-Encoding" in raw
    raw = server.raw(b"GET /healthz HTTP/1.1\r\n\r\n")
    assert status_of(raw) == 400 and b"Host" in raw
    # libmicrohttpd 0.9.75 closes the connection on a request line it cannot parse, without a
    # status line: the client is not left hanging, and the server goes on serving.
    raw = server.raw(b"GARBAGE\r\n\r\n")
    assert status_of(raw) in (400, None)
    raw = server.raw(b"POST /v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n")
    assert status_of(raw) == 413
    # The server is still serving.
    assert server.json("GET", "/healthz")[0] == 200


def test_client_disconnecting_mid_upload(server):
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"POST /v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"name\":")
        s.close()
    assert server.json("GET", "/healthz")[0] == 200
    # The server notices each close when it next reads the socket: poll (bounded), no fixed sleep.
    deadline = time.time() + 30
    while time.time() < deadline:
        raw = server.request("GET", "/metrics")[2].decode()
        if "contrast_http_requests_in_flight 1\n" in raw:
            break
        time.sleep(0.05)
    assert "contrast_http_requests_in_flight 1\n" in raw, raw  # only the /metrics request itself


def test_512_keep_alive_connections_do_not_stall(server):
    """Epoll mode stalls with ~256+ busy keep-alive connections per thread; this guards the mode."""
    sockets = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(512)]
    try:
        for round_ in range(3):
            for s in sockets:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            for s in sockets:
                data = b""
                while b"\r\n\r\n" not in data or not data.endswith(b'{"status":"ok"}'):
                    chunk = s.recv(4096)  # a stall shows as a socket timeout here
                    assert chunk, "connection closed"
                    data += chunk
                assert status_of(data) == 200
    finally:
        for s in sockets:
            s.close()


def test_sighup_reload_keeps_previous_version_of_a_broken_file(server, palettes):
    train = palettes / "train.json"
    good = train.read_text()
    train.write_text("{ broken")
    (palettes / "extra.json").write_text(json.dumps({"name": "extra", "themes": {"light": {"tokens": {"a": "#000", "b": "#fff"}}},
                                                     "checks": [{"foreground": "a", "background": "b"}]}))
    server.signal(signal.SIGHUP)
    deadline = time.time() + 30
    while (body := server.json("GET", "/readyz")[2])["generation"] < 2:
        assert time.time() < deadline, "the first reload never finished"
        time.sleep(0.05)
    assert "train" in body["palettes"] and "extra" in body["palettes"]
    assert body["problems"] and body["problems"][0]["file"].endswith("train.json")
    assert server.json("GET", "/v1/palettes/train")[0] == 200
    train.write_text(good)
    server.signal(signal.SIGHUP)
    deadline = time.time() + 30
    while server.json("GET", "/readyz")[2]["generation"] < 3:
        assert time.time() < deadline, "the second reload never finished"
        time.sleep(0.05)
    assert server.json("GET", "/readyz")[2]["problems"] == []


def test_sigterm_finishes_requests_in_flight_and_exits_0(binary, palettes):
    s = Server(binary, str(palettes), "--threads", "2")
    pairs = {"pairs": [{"fg": "#123456", "bg": "#fedcba"}] * 10000}
    results = []

    def call():
        try:
            results.append(s.json("POST", "/v1/contrast", pairs, timeout=60)[0])
        except Exception as error:  # a reset or refused connection is a failure here
            results.append(repr(error))

    threads = [threading.Thread(target=call) for _ in range(6)]
    for t in threads:
        t.start()
    time.sleep(0.15)
    s.signal(signal.SIGTERM)
    for t in threads:
        t.join()
    assert s.process.wait(timeout=20) == 0
    s.log.close()
    # Every request the server had accepted got a complete answer; any refused after the signal
    # failed to connect (and is not counted here).
    assert len(results) == 6 and all(code == 200 for code in results), results
    assert "draining" in open(s.log_path).read()


def test_sigterm_does_not_wait_for_an_idle_kept_alive_connection(binary, palettes):
    """A browser tab holds a kept-alive connection open between requests. While draining, such
    an idle connection is closed at once, so SIGTERM does not wait out the grace period (set
    here to two minutes: the process must exit long before it)."""
    import http.client
    s = Server(binary, str(palettes), "--grace", "120")
    idle = http.client.HTTPConnection("127.0.0.1", s.port, timeout=60)
    idle.request("GET", "/healthz")
    response = idle.getresponse()
    assert response.status == 200 and response.read()
    s.signal(signal.SIGTERM)
    assert s.process.wait(timeout=60) == 0  # the grace period was 120 s
    s.log.close()
    log = open(s.log_path).read()
    assert "draining" in log and "stopped" in log and "grace period over" not in log, log[-2000:]
    idle.close()


def test_html_report_served_with_a_strict_policy(server):
    status, headers, raw = server.request("GET", "/v1/report")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "script-src" not in headers["Content-Security-Policy"] and "default-src 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert b"peptide-fox" in raw and b"<script" not in raw
    status, headers, raw = server.request("GET", "/v1/palettes/train/audit", headers={"Accept": "text/html,application/xhtml+xml"})
    assert status == 200 and headers["Content-Type"].startswith("text/html") and b"train" in raw
    evil = {"name": "<script>x</script>", "themes": {"t": {"tokens": {"a": "#000", "b": "#fff"}}}, "checks": [{"foreground": "a", "background": "b"}]}
    status, headers, raw = server.request("POST", "/v1/report", evil)
    assert status == 200 and b"<script>x" not in raw and b"&lt;script&gt;x" in raw


def test_accept_weights_choose_the_representation(server):
    """The audit and the matrix follow Accept's weights, as a client that ranks its types expects."""
    for accept, expected in [("application/json, text/html;q=0.1", "application/json"), ("text/html;q=0", "application/json"),
                             ("text/markdown;q=0.9, text/html;q=0.5", "text/markdown"), ("text/*;q=0.3, */*;q=0.2", "text/html")]:
        status, headers, raw = server.request("GET", "/v1/palettes/train/audit", headers={"Accept": accept})
        assert status == 200 and headers["Content-Type"].startswith(expected), (accept, headers["Content-Type"])
        if expected == "application/json":
            assert json.loads(raw)["palettes"][0]["name"] == "train"
    for accept, expected in [("text/csv", "text/csv"), ("text/csv;q=0, application/json", "application/json"), ("application/json;q=0.5, text/csv", "text/csv")]:
        status, headers, _ = server.request("GET", "/v1/palettes/train/matrix", headers={"Accept": accept})
        assert status == 200 and headers["Content-Type"].startswith(expected), (accept, headers["Content-Type"])


def test_tls_with_a_self_signed_certificate(binary, palettes, tmp_path):
    import ssl
    import subprocess
    import urllib.request
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    s = Server(binary, str(palettes), "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert s.base.startswith("https://")
        context = ssl.create_default_context(cafile=str(cert))
        with urllib.request.urlopen(s.base + "/healthz", context=context, timeout=10) as response:
            assert response.status == 200 and json.loads(response.read()) == {"status": "ok"}
        # Plain HTTP on the TLS port fails cleanly: no response, and the server goes on serving.
        raw = s.raw(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", timeout=5)
        assert status_of(raw) is None
        with urllib.request.urlopen(s.base + "/v1/contrast?fg=%23000&bg=%23fff", context=context, timeout=10) as response:
            assert json.loads(response.read())["ratio"] == 21
    finally:
        assert s.stop() == 0, s.logs()
    r = subprocess.run([binary, "serve", "--port", "0", "--palettes", str(palettes), "--tls-cert", str(cert)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "both --tls-cert and --tls-key" in r.stderr


def test_a_client_trickling_headers_is_cut_at_the_request_deadline(binary, palettes):
    """libmicrohttpd's timeout measures idleness; a byte every half second must still be cut."""
    # Only the request deadline can cut it: the header timeout is far off, and a byte every half
    # second is never idle.
    s = Server(binary, str(palettes), "--request-timeout", "5", "--header-timeout", "60", "--idle-timeout", "10", "--quiet")
    try:
        sock = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 40
        started = time.time()
        closed = False
        for byte in request:
            try:
                sock.sendall(bytes([byte]))
                sock.settimeout(0.5)
                if sock.recv(1) == b"":
                    closed = True
                    break
            except socket.timeout:
                continue
            except OSError:
                closed = True
                break
        assert closed, "the trickling client was never cut"
        assert time.time() - started < 25, "cut, but not by the 5 s request deadline"
        sock.close()
        # Normal clients are served throughout, and a normal keep-alive client is not cut
        # between requests: each request restarts the clock, so six a second apart (longer
        # than the deadline in all, 4 s of margin each) are all answered.
        assert s.json("GET", "/healthz")[0] == 200
        keep = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        for _ in range(6):
            keep.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert status_of(keep.recv(4096)) == 200
            time.sleep(1.0)
        keep.close()
    finally:
        assert s.stop() == 0, s.logs()


def _exchange(sock, request):
    """One request on an open connection; the response's head (lowercased names) and body."""
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    if not request.startswith(b"HEAD"):
        while len(body) < int(fields["content-length"]):
            body += sock.recv(65536)
    return lines[0], fields, body


def test_health_answer_is_the_same_on_every_request_head_and_drain(binary, palettes):
    """/healthz is queued from one response made at start-up: each answer on a kept-alive
    connection carries the same headers and body, HEAD gets no body, and once draining, the
    kept-alive connections idle between requests are closed."""
    s = Server(binary, str(palettes), "--threads", "1", "--max-connections-per-ip", "0")
    try:
        get = b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"
        with socket.create_connection(("127.0.0.1", s.port), timeout=10) as a, \
                socket.create_connection(("127.0.0.1", s.port), timeout=10) as b:
            answers = [_exchange(a, get) for _ in range(3)]
            for line, fields, body in answers:
                assert line == "HTTP/1.1 200 OK" and body == b'{"status":"ok"}'
                assert fields["content-type"] == "application/json" and fields["content-length"] == "15"
                assert fields["x-content-type-options"] == "nosniff" and fields["cache-control"] == "no-store"
                assert "connection" not in fields
            line, fields, body = _exchange(a, b"HEAD /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            assert line == "HTTP/1.1 200 OK" and body == b"" and fields["x-content-type-options"] == "nosniff"
            assert _exchange(b, get)[0] == "HTTP/1.1 200 OK"
            # While draining, connections idle between requests are closed (a request that
            # races the signal may be cut; which one wins is timing, so it is not tested here).
            s.signal(signal.SIGTERM)
            for idle in (a, b):
                idle.settimeout(30)
                assert idle.recv(1) == b""
        assert s.process.wait(timeout=20) == 0
    finally:
        s.stop()
