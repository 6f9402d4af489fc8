"""Hostile load, against the real server: expensive requests run on a bounded worker pool and
cannot starve cheap ones; a full queue answers 503 at once; the deadline stops the work and
frees the worker; SIGTERM answers every accepted request; an oversize body's 413 reaches the
client; one address, and one pipelining slow reader, are bounded; TLS is 1.2+ and forward
secret. Nothing here measures time: the server's own /metrics says when the pool is full."""
import json
import re
import shutil
import signal
import socket
import ssl
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest

from conftest import ROOT
from server import Server, _complete, status_of

# 30 themes × 80 tokens (other colors in each theme, so no suggestion is computed twice), every
# token on every other at AAA + APCA 90: 189,600 checks that nearly all fail and want
# suggestions, about 30 s of CPU on the 2-core CI machine of 2026-11 and far more than the 4 s
# deadline below on any machine. (Found: with 30 tokens repeated in every theme, faster
# suggestions finished it inside the deadline.) Its answer would be ~600 MB: the servers that
# get it raise --max-response so it is computed, not refused before any work.
TOKENS = {f"t{i}": "#%06x" % (i * 2654435 % 0xFFFFFF) for i in range(30)}
EXPENSIVE = {"name": "expensive",
             "themes": {f"th{n}": {"tokens": {f"t{i}": "#%06x" % ((i + 81 * n) * 2654435 % 0xFFFFFF) for i in range(80)}} for n in range(30)},
             "checks": [{"id": "all", "foreground": "t*", "background": "t*", "level": "AAA", "apca": 90}]}
HUGE_ANSWERS = ("--max-response", "1GiB")
CHEAP = {"name": "cheap", "themes": {"only": {"tokens": {"ink": "#111111", "paper": "#ffffff"}}},
         "checks": [{"foreground": "ink", "background": "paper"}]}


def serve(binary, tmp_path, *args):
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    return Server(binary, str(directory), "--quiet", *args)


def metric(server, name):
    text = server.request("GET", "/metrics")[2].decode()
    match = re.search(rf"^{name} (\d+)$", text, re.M)
    assert match, f"{name} missing from /metrics"
    return int(match.group(1))


def wait_for(condition, what, limit=60):
    """Polls until the server reports a state (no fixed sleeps stand in for it)."""
    deadline = time.time() + limit
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.02)
    pytest.fail(f"the server never reported {what}")


def in_background(server, body, path="/v1/audit"):
    """Posts in a thread; the result is (status, headers, body) or the exception."""
    result = {}

    def go():
        try:
            result["answer"] = server.json("POST", path, body, timeout=600)
        except Exception as error:  # noqa: BLE001 - the test reports what the client saw
            result["answer"] = error
    thread = threading.Thread(target=go)
    thread.start()
    return thread, result


def test_expensive_requests_cannot_starve_cheap_ones_and_the_deadline_frees_the_worker(binary, tmp_path):
    s = serve(binary, tmp_path, "--workers", "1", "--queue", "1", "--request-timeout", "4", "--max-suggestions", "1000000", *HUGE_ANSWERS)
    try:
        running, first = in_background(s, EXPENSIVE)
        wait_for(lambda: metric(s, "contrast_pool_running") == 1, "one request running")
        queued, second = in_background(s, EXPENSIVE)
        wait_for(lambda: metric(s, "contrast_pool_queued") == 1, "one request queued")
        # The worker computes and the queue is full: the next expensive request is refused at
        # once, and every cheap route still answers from the I/O threads.
        status, headers, body = s.json("POST", "/v1/audit", EXPENSIVE, timeout=30)
        assert status == 503 and headers["Retry-After"] == "1", body
        assert "1 worker is computing and 1 request is waiting" in body["detail"]
        for path in ["/healthz", "/readyz", "/metrics", "/app.js", "/app.css", "/openapi.yaml", "/v1/contrast?fg=%23000&bg=%23fff"]:
            assert s.request("GET", path, timeout=30)[0] == 200, path
        # Past the 4 s deadline both are answered 503, the running one stopped mid-audit.
        running.join(120)
        queued.join(120)
        for result in (first, second):
            status, headers, body = result["answer"]
            assert status == 503 and headers["Retry-After"] == "5", body
            assert "took longer than the 4 s request deadline and its work was stopped" in body["detail"]
        assert metric(s, "contrast_pool_cancelled_total") == 2
        assert metric(s, "contrast_pool_rejected_total") == 1
        # The worker is free again (a cancelled audit that went on computing would hold it for
        # a minute, past this client's timeout).
        status, _, body = s.json("POST", "/v1/audit", CHEAP, timeout=30)
        assert status == 200 and body["summary"]["fail"] == 0 and body["summary"]["pass"] == 1
        assert metric(s, "contrast_pool_running") == 0 and metric(s, "contrast_pool_queued") == 0
    finally:
        assert s.stop() == 0, s.logs()[-2000:]


def test_sigterm_answers_every_accepted_request(binary, tmp_path):
    """20 CPU-bound requests in flight, SIGTERM with --grace 1: each gets a whole response (its
    answer, or 503 with Retry-After), none an EOF; the process exits 0."""
    s = serve(binary, tmp_path, "--workers", "2", "--queue", "64", "--grace", "1", "--request-timeout", "120", "--max-suggestions", "1000000", *HUGE_ANSWERS)
    clients = [in_background(s, EXPENSIVE) for _ in range(20)]
    wait_for(lambda: metric(s, "contrast_pool_running") + metric(s, "contrast_pool_queued") == 20, "20 requests accepted")
    s.signal(signal.SIGTERM)
    for thread, _ in clients:
        thread.join(120)
    assert s.process.wait(timeout=60) == 0
    answers = [result["answer"] for _, result in clients]
    assert all(isinstance(a, tuple) for a in answers), [a for a in answers if not isinstance(a, tuple)]
    assert all(status == 503 and headers["Retry-After"] == "1" and "shutting down" in body["detail"]
               for status, headers, body in answers), answers
    assert "answering 18 queued and stopping 2 running request(s) with 503" in s.logs()
    assert s.stop() == 0


def test_a_request_that_finishes_during_the_grace_period_is_answered(binary, tmp_path):
    """SIGTERM while an audit computes: with time left in --grace, the audit's own answer is
    sent (nothing finished is discarded), then the process exits 0."""
    s = serve(binary, tmp_path, "--workers", "1", "--grace", "600", "--request-timeout", "600", "--max-suggestions", "300")
    one_theme = {**EXPENSIVE, "themes": {"only": {"tokens": TOKENS}}}
    thread, result = in_background(s, one_theme)
    wait_for(lambda: metric(s, "contrast_pool_running") == 1, "the audit running")
    s.signal(signal.SIGTERM)
    thread.join(600)
    assert s.process.wait(timeout=60) == 0
    status, _, body = result["answer"]
    assert status == 200 and body["palettes"][0]["summary"]["fail"] > 0, body
    assert s.stop() == 0


def test_an_oversize_body_is_answered_413_and_the_client_reads_it(binary, tmp_path):
    """urllib sends the whole 16 MB before it reads: the server answers at the limit and keeps
    reading (lingering close), so the client gets the 413 instead of a broken pipe."""
    s = serve(binary, tmp_path, "--max-body", "1MiB")
    try:
        body = b"x" * (16 << 20)
        outcomes = []
        for _ in range(30):
            request = urllib.request.Request(s.base + "/v1/audit", data=body, method="POST", headers={"Content-Type": "application/json"})
            try:
                urllib.request.urlopen(request, timeout=60)
                outcomes.append("200")
            except urllib.error.HTTPError as error:
                outcomes.append(error.code)
                detail = json.loads(error.read())["detail"]
                assert "16777216 bytes; the limit is 1048576" in detail
            except OSError as error:
                outcomes.append(type(error).__name__)
        assert outcomes == [413] * 30, outcomes
        assert s.json("GET", "/healthz")[0] == 200
    finally:
        assert s.stop() == 0


def test_one_address_over_its_limit_gets_503_at_once(binary, tmp_path):
    """Past --max-connections-per-ip, a new connection from the same address is answered 503
    with Retry-After (it does not wait); closing the others frees the address again."""
    s = serve(binary, tmp_path, "--threads", "2", "--max-connections-per-ip", "5")
    held = []
    try:
        for _ in range(5):
            held.append(socket.create_connection(("127.0.0.1", s.port), timeout=30))
        # The server may not have taken the five from its backlog yet: probe until it has.
        answers = []
        wait_for(lambda: answers.append(s.raw(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", timeout=30)) or status_of(answers[-1]) == 503,
                 "the sixth connection refused")
        raw = answers[-1]
        assert b"Retry-After: 1" in raw, raw[:300]
        assert b"this client address has more than 5 connections open" in raw
        for c in held:
            c.close()
        held = []
        wait_for(lambda: status_of(s.raw(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", timeout=30)) == 200, "the address freed")
    finally:
        for c in held:
            c.close()
        assert s.stop() == 0


def test_pipelined_requests_behind_unread_responses_are_bounded(binary, tmp_path):
    """20 connections each pipeline 50 report requests and read nothing: each connection holds
    at most a response or two (its send buffer is capped), not 50 renders."""
    s = serve(binary, tmp_path)
    connections = []
    try:
        for _ in range(20):
            c = socket.create_connection(("127.0.0.1", s.port), timeout=30)
            c.sendall(b"GET /v1/report HTTP/1.1\r\nHost: x\r\n\r\n" * 50)
            connections.append(c)

        def renders():
            text = s.request("GET", "/metrics")[2].decode()
            return sum(int(n) for n in re.findall(r'route="/v1/report",method="GET",status="200"\} (\d+)', text))
        # Wait until the count stops moving (the server blocks on the unread sockets).
        seen = []
        wait_for(lambda: seen.append(renders()) or (len(seen) > 25 and seen[-1] == seen[-25]), "the renders settling")
        assert seen[-1] <= 20 * 4, seen[-1]
        assert s.json("GET", "/healthz")[0] == 200
    finally:
        for c in connections:
            c.close()
        assert s.stop() == 0


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    directory = tmp_path_factory.mktemp("tls")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


def handshake(port, cert, version, ciphers=None):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_verify_locations(str(cert))
    context.minimum_version = context.maximum_version = version
    # The client offers what it is told to, however weak: the server is what must refuse.
    context.set_ciphers((ciphers or "DEFAULT") + ":@SECLEVEL=0")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
            with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                return tls.version(), tls.cipher()[0]
    except (ssl.SSLError, OSError):
        return None


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_tls_is_1_2_or_later_and_forward_secret(binary, tmp_path, certificate):
    cert, key = certificate
    s = serve(binary, tmp_path, "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert handshake(s.port, cert, ssl.TLSVersion.TLSv1) is None
        assert handshake(s.port, cert, ssl.TLSVersion.TLSv1_1) is None
        assert handshake(s.port, cert, ssl.TLSVersion.TLSv1_2, "AES128-SHA") is None  # static RSA
        assert handshake(s.port, cert, ssl.TLSVersion.TLSv1_2, "AES128-GCM-SHA256") is None  # static RSA
        assert handshake(s.port, cert, ssl.TLSVersion.TLSv1_2) == ("TLSv1.2", "ECDHE-RSA-AES256-GCM-SHA384")
        assert handshake(s.port, cert, ssl.TLSVersion.TLSv1_3)[0] == "TLSv1.3"
    finally:
        assert s.stop() == 0


def test_tls_priorities_are_configurable_and_checked(binary, tmp_path, certificate, run):
    cert, key = certificate
    s = serve(binary, tmp_path, "--tls-cert", str(cert), "--tls-key", str(key), "--tls-priorities", "NORMAL:-VERS-ALL:+VERS-TLS1.3")
    try:
        assert handshake(s.port, cert, ssl.TLSVersion.TLSv1_2) is None
        assert handshake(s.port, cert, ssl.TLSVersion.TLSv1_3)[0] == "TLSv1.3"
    finally:
        assert s.stop() == 0
    result = run("serve", "--port", "0", "--palettes", str(tmp_path / "palettes"), "--tls-cert", str(cert), "--tls-key", str(key),
                 "--tls-priorities", "NOT-A-PRIORITY")
    assert result.returncode == 2 and "priority string" in result.stderr, result.stderr
    result = run("serve", "--port", "0", "--palettes", str(tmp_path / "palettes"), "--tls-priorities", "NORMAL")
    assert result.returncode == 2 and "--tls-priorities applies to HTTPS" in result.stderr, result.stderr


def test_a_response_over_the_size_limit_is_refused(binary, tmp_path):
    """Before any work when the rendering's size is bound to exceed --max-response (JSON, HTML);
    otherwise (Markdown, whose passing checks add nothing) once rendered. Never sent."""
    s = serve(binary, tmp_path, "--max-response", "256KiB")
    try:
        tokens = {f"t{i}": "#%06x" % (i * 2654435 % 0xFFFFFF) for i in range(60)}
        body = {"name": "wide", "themes": {"only": {"tokens": tokens}},
                "checks": [{"id": "all", "foreground": "t*", "background": "t*", "level": "AAA", "apca": 90}]}
        status, _, problem = s.json("POST", "/v1/audit?suggestions=none", body)
        assert status == 422, problem
        assert problem["problems"][0]["message"].startswith("the response would be at least 1 MiB (3540 checks × 300 bytes in json); the limit is 256 KiB")
        status, _, raw = s.request("POST", "/v1/report", body)
        assert status == 422 and b"(3540 checks \xc3\x97 600 bytes in html)" in raw, raw[:300]
        status, headers, raw = s.request("POST", "/v1/audit?suggestions=none", body, headers={"Accept": "text/markdown"})
        assert status == 422 and headers["Content-Type"] == "application/problem+json", raw[:300]
        assert re.search(rb"the response is [\d.]+ KiB; the limit is 256 KiB \(--max-response\)", raw), raw[:300]
        assert s.json("POST", "/v1/audit", CHEAP)[0] == 200
    finally:
        assert s.stop() == 0


def read_answer(c, limit=30):
    """Reads until a whole response (by its Content-Length) or the end of the connection."""
    c.settimeout(limit)
    answer = b""
    while not _complete(answer):
        try:
            chunk = c.recv(65536)
        except OSError:
            break
        if not chunk:
            break
        answer += chunk
    return answer


def trickle_until_answered(c, byte, limit=200):
    """Sends `byte` about every 0.2 s (at most `limit` times) until a whole response has come,
    the server stops reading, or it closes; then reads whatever answer is still to be read."""
    answer = b""
    for _ in range(limit):
        try:
            c.sendall(byte)
        except OSError:  # the server has stopped reading: its answer is still to be read
            break
        c.settimeout(0.2)
        try:
            chunk = c.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            break
        if not chunk:
            break
        answer += chunk
        if _complete(answer):
            return answer
    return answer + read_answer(c)


@pytest.mark.parametrize("framing, byte", [(b"Content-Length: 100000", b" "), (b"Transfer-Encoding: chunked", b"0")],
                         ids=["content-length", "chunk-size-line"])
def test_a_body_trickling_past_the_deadline_gets_408(binary, tmp_path, framing, byte):
    """A body sent a byte at a time is answered 408 once --request-timeout passes: by the
    handler when the next byte comes, or by the sweeper if none comes in time. A chunk-size
    line arriving a digit at a time never reaches the handler (libmicrohttpd waits for the
    line's end): the sweeper answers it. However slowly this client runs, the answer is
    waiting for it when it reads."""
    s = serve(binary, tmp_path, "--request-timeout", "2")
    try:
        with socket.create_connection(("127.0.0.1", s.port), timeout=30) as c:
            c.sendall(b"POST /v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + framing + b"\r\n\r\n")
            answer = trickle_until_answered(c, byte)
            assert status_of(answer) == 408, answer[:300]
            assert b"the request took longer than 2.0 s to arrive" in answer
        assert s.json("GET", "/healthz")[0] == 200
    finally:
        assert s.stop() == 0


def test_a_body_that_stops_arriving_is_answered_408_at_the_deadline(binary, tmp_path):
    """The client sends part of its body and waits: the sweeper answers 408 without waiting
    for a byte that never comes and ends the response (the client reads to the end of it);
    then the server closes the connection itself (the client keeps its socket open), and the
    access log and the metrics count the request as 408."""
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    s = Server(binary, str(directory), "--request-timeout", "2")
    try:
        with socket.create_connection(("127.0.0.1", s.port), timeout=30) as c:
            c.sendall(b"POST /v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"na")
            answer = read_answer(c, limit=60)
            assert status_of(answer) == 408, answer[:300]
            assert b"Connection: close" in answer and b"the request took longer than 2.0 s to arrive" in answer
            c.settimeout(60)
            assert c.recv(100) == b"", "the response is not ended after the answer"
            # Counted once the server has closed its side: this client has not closed its own.
            wait_for(lambda: re.search(r'method="POST",status="408"\} 1$', s.request("GET", "/metrics")[2].decode(), re.M), "the 408 in /metrics")
            wait_for(lambda: re.search(r'POST /v1/audit.* 408 ', s.logs()), "the 408 in the access log")
        assert s.json("GET", "/healthz")[0] == 200
    finally:
        assert s.stop() == 0


def test_time_idle_before_a_kept_alive_request_is_not_the_requests(binary, tmp_path):
    """A keep-alive client waits 6 s after one request, then sends a body over 5 s: 11 s since
    the last answer, 5 s since the request began, under a 10 s deadline (4 s of margin on the
    wait, 5 on the body, for a busy machine). It is answered, not 408: the deadline times the
    request from its request line."""
    s = serve(binary, tmp_path, "--request-timeout", "10", "--idle-timeout", "30")
    try:
        with socket.create_connection(("127.0.0.1", s.port), timeout=30) as c:
            c.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert status_of(read_answer(c)) == 200
            time.sleep(6)
            body = json.dumps(CHEAP).encode()
            c.sendall(b"POST /v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body[:5])
            time.sleep(5)
            c.sendall(body[5:])
            answer = read_answer(c)
            assert status_of(answer) == 200, answer[:300]
    finally:
        assert s.stop() == 0


def test_an_oversize_chunked_body_is_answered_413_at_the_limit(binary, tmp_path):
    """No length announced: the server answers as soon as 1 MiB has arrived, and the client
    that goes on sending (4 MiB here) still reads the 413."""
    s = serve(binary, tmp_path, "--max-body", "1MiB")
    try:
        with socket.create_connection(("127.0.0.1", s.port), timeout=30) as c:
            c.sendall(b"POST /v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"x" * 65536
            for _ in range(64):
                c.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            answer = b""
            while True:
                data = c.recv(65536)
                if not data:
                    break
                answer += data
        assert status_of(answer) == 413, answer[:300]
        assert b"larger than the limit of 1048576 bytes" in answer
    finally:
        assert s.stop() == 0
