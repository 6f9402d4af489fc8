"""HTTP framing and connection-slot attacks from issue #30, against the real server with its
defaults: after any 400 nothing more on the connection is read as a request, and connections
that trickle headers cannot lock an ordinary client out."""
import re
import resource
import select
import shutil
import socket
import time

import pytest

from conftest import ROOT
from server import Server, status_of


def exchange(port, data, timeout=10):
    """Sends bytes on a fresh connection; returns everything read until the server closes it
    (or `timeout` passes, marked with b"<TIMEOUT>")."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        chunks = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                chunks.append(b"<TIMEOUT>")
                break
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def status_lines(raw):
    return [line for line in raw.split(b"\r\n") if line.startswith(b"HTTP/1.")]


@pytest.fixture(scope="module")
def server(palettes_server):
    return palettes_server


BAD = b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"
SMUGGLED = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"


def test_after_a_400_the_connection_closes_and_what_follows_is_not_answered(server):
    raw = exchange(server.port, BAD + SMUGGLED)
    assert status_lines(raw) == [b"HTTP/1.1 400 Bad Request"], raw[:400]
    assert b"connection: close" in raw.lower()
    assert b"<TIMEOUT>" not in raw  # closed by the server, not left open


def test_a_bad_host_count_400_closes_too(server):
    raw = exchange(server.port, b"GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n" + SMUGGLED)
    assert status_lines(raw) == [b"HTTP/1.1 400 Bad Request"], raw[:400]


# libmicrohttpd 0.9.75 folds an obs-fold line into the previous field and cuts a value at a NUL
# before the server sees the request; the server finds what it hid in its buffer (ParsedHead.swift).
def test_obs_fold_is_400_and_closes(server):
    raw = exchange(server.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n" + SMUGGLED)
    assert status_lines(raw) == [b"HTTP/1.1 400 Bad Request"], raw[:400]


def test_nul_in_a_field_value_is_400(server):
    raw = exchange(server.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n")
    assert status_of(raw) == 400, raw[:400]


LATER = {
    "obs-fold": b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n\tb\r\n\r\n",
    "a NUL in a value": b"GET /healthz HTTP/1.1\r\nX-A: a\x00b\r\nHost: x\r\n\r\n",
    "a NUL in the target": b"GET /healthz\x00x HTTP/1.1\r\nHost: x\r\n\r\n",
}


@pytest.mark.parametrize("name", sorted(LATER))
def test_a_later_request_on_a_connection_is_checked_as_strictly(server, name):
    raw = exchange(server.port, SMUGGLED + LATER[name] + SMUGGLED)
    assert re.findall(rb"HTTP/1\.1 \d{3}", raw) == [b"HTTP/1.1 200", b"HTTP/1.1 400"], raw[:600]


# libmicrohttpd 0.9.75 closes a connection whose first line has no space without a status line,
# and takes a line that starts with a NUL for an empty one; the server's acceptor checks the first
# head before libmicrohttpd reads it (Acceptor.swift).
@pytest.mark.parametrize("garbage", [b"\x00\x01garbage\r\n\r\n", b"HELLO\r\n\r\n"])
def test_garbage_gets_a_400_status_line(server, garbage):
    raw = exchange(server.port, garbage, timeout=5)
    assert status_of(raw) == 400, raw[:400]


# Known open: a kept-alive connection's later requests (and every request over HTTPS) reach
# libmicrohttpd 0.9.75 alone, which closes a request line without a space with no status line, skips
# a NUL-led line as empty, and leaves a NUL before a bare LF looking like a CRLF (RELIABILITY.md).
@pytest.mark.xfail(strict=True, reason="libmicrohttpd 0.9.75 closes a later unparseable request line unanswered")
def test_garbage_as_a_later_request_gets_a_400_status_line(server):
    raw = exchange(server.port, SMUGGLED + b"HELLO\r\n\r\n", timeout=5)
    assert re.findall(rb"HTTP/1\.1 \d{3}", raw) == [b"HTTP/1.1 200", b"HTTP/1.1 400"], raw[:600]


@pytest.mark.xfail(strict=True, reason="libmicrohttpd 0.9.75 skips a later line that starts with a NUL as an empty line")
def test_a_nul_led_line_before_a_later_request_is_refused(server):
    raw = exchange(server.port, SMUGGLED + b"\x00junk\r\n" + SMUGGLED, timeout=5)
    assert re.findall(rb"HTTP/1\.1 \d{3}", raw) == [b"HTTP/1.1 200", b"HTTP/1.1 400"], raw[:600]


@pytest.mark.xfail(strict=True, reason="a NUL before a bare LF leaves the bytes of a CRLF in libmicrohttpd 0.9.75's buffer")
def test_a_nul_before_a_bare_lf_in_a_later_request_is_refused(server):
    raw = exchange(server.port, SMUGGLED + b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00\n\r\n" + SMUGGLED, timeout=5)
    assert re.findall(rb"HTTP/1\.1 \d{3}", raw) == [b"HTTP/1.1 200", b"HTTP/1.1 400"], raw[:600]


def test_the_server_still_answers_after_the_framing_attacks(server):
    assert server.request("GET", "/healthz")[0] == 200


# The lock-out: 1,300 connections trickling partial headers from 200 loopback addresses
# (more than --max-connections 1024, each address under --max-connections-per-ip 128).
ATTACKERS = 1300
ADDRESSES = 200


def trickle_open(port, count, addresses, deadline):
    """Opens `count` connections from 127.0.0.2.. (non-blocking: past the server's capacity a
    connect may wait in the backlog) and sends each a request line and a partial header."""
    sockets = []
    for i in range(count):
        if time.monotonic() > deadline:
            break
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.bind((f"127.0.0.{2 + i % addresses}", 0))
        s.connect_ex(("127.0.0.1", port))
        sockets.append(s)
    # Wait (bounded) for the handshakes, then send each the start of a request.
    poller = select.poll()
    by_fd = {s.fileno(): s for s in sockets}
    for fd in by_fd:
        poller.register(fd, select.POLLOUT)
    until = min(deadline, time.monotonic() + 20)
    while by_fd and time.monotonic() < until:
        for fd, _ in poller.poll(500):
            try:
                by_fd[fd].send(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            except OSError:
                pass
            poller.unregister(fd)
            del by_fd[fd]
    return sockets


def trickle(sockets):
    for s in sockets:
        try:
            s.send(b"a")
        except OSError:
            pass


@pytest.fixture
def more_files():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 4096))
    if want < ATTACKERS + 200:
        pytest.skip(f"needs {ATTACKERS + 200} open files; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_trickling_connections_do_not_lock_out_an_ordinary_client(binary, tmp_path, more_files):
    try:
        probe = socket.socket()
        probe.bind(("127.0.0.201", 0))
        probe.close()
    except OSError:
        pytest.skip("cannot bind 127.0.0.201 as a source address on this system")
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    server = Server(binary, str(directory), "--threads", "2", "--quiet")
    attackers = []
    try:
        deadline = time.monotonic() + 60
        attackers = trickle_open(server.port, ATTACKERS, ADDRESSES, deadline)
        assert len(attackers) == ATTACKERS
        time.sleep(1)
        trickle(attackers)
        latencies = []
        for _ in range(3):  # three ordinary clients, each while the attack holds on
            started = time.monotonic()
            status, _, body = server.request("GET", "/healthz", timeout=10)
            latencies.append(time.monotonic() - started)
            assert status == 200, (status, body[:300])
            trickle(attackers)
        # Printed, not asserted: the answer arriving is the test, how fast depends on the machine.
        print(f"ordinary client latencies under {ATTACKERS} trickling connections: "
              + ", ".join(f"{x * 1000:.0f} ms" for x in latencies))
    finally:
        for s in attackers:
            s.close()
        assert server.stop() == 0, server.logs()[-2000:]


def can_bind(address):
    try:
        probe = socket.socket()
        probe.bind((address, 0))
        probe.close()
        return True
    except OSError:
        return False


def closed_by_server(sockets):
    """How many of `sockets` the server has closed: their end reads as EOF, or fails."""
    poller = select.poll()
    by_fd = {s.fileno(): s for s in sockets if s.fileno() >= 0}
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    closed = 0
    for fd, _ in poller.poll(0):
        try:
            if by_fd[fd].recv(65536) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    return closed


def ordinary_requests_while_trickling(server, attackers, seconds=30):
    """GET /healthz, as an ordinary client, while the attackers go on trickling. A 503 (with
    Retry-After: 1: nothing could give way yet) is retried a second later, as a client that
    honours Retry-After does; no answer within 10 s counts as none. Bounded: at most `seconds`
    of trying, well under the test's --header-timeout, so the header timeout cannot be what
    lets the client in. Returns what each try got."""
    outcomes = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        trickle(attackers)
        try:
            status, _, _ = server.request("GET", "/healthz", timeout=10)
        except OSError as error:  # urllib's URLError and the socket's timeout are OSErrors
            status = f"no answer: {error}"
        outcomes.append(status)
        if status == 200:
            break
        time.sleep(1)
    return outcomes


def test_at_capacity_the_oldest_connection_without_a_request_gives_way(binary, tmp_path):
    """64 connections trickling headers from 8 addresses against --max-connections 32: an
    ordinary client is answered 200, because the oldest of them are closed to make room."""
    if not can_bind("127.0.0.9"):
        pytest.skip("cannot bind 127.0.0.9 as a source address on this system")
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    # Header and request timeouts far past the test's tries: only eviction can let the client in.
    server = Server(binary, str(directory), "--threads", "2", "--quiet", "--max-connections", "32",
                    "--header-timeout", "120", "--request-timeout", "180", "--idle-timeout", "120")
    attackers = []
    try:
        attackers = trickle_open(server.port, 64, 8, time.monotonic() + 30)
        assert len(attackers) == 64
        time.sleep(1.5)  # past the second in which a new connection is not taken
        outcomes = ordinary_requests_while_trickling(server, attackers)
        assert outcomes[-1] == 200, outcomes
        # They gave way, as many as it took to be back at the limit, not all of them.
        closed = closed_by_server(attackers)
        assert 1 <= closed < 64, closed
    finally:
        for s in attackers:
            s.close()
        assert server.stop() == 0, server.logs()[-2000:]


def test_a_low_descriptor_limit_lowers_the_capacity_instead_of_locking_out(binary, tmp_path, more_files):
    """With RLIMIT_NOFILE 512 (soft and hard, as a container may set it) the server cannot
    hold --max-connections 1024: it says so and serves at most what its descriptors hold, so
    700 trickling connections still give way to an ordinary client. Before, the descriptors ran
    out first, accept() failed, and the client waited in the kernel's backlog unanswered."""
    if not can_bind("127.0.0.11"):
        pytest.skip("cannot bind 127.0.0.11 as a source address on this system")
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    server = Server(binary, str(directory), "--threads", "2", "--max-connections", "1024",
                    "--header-timeout", "120", "--request-timeout", "180", "--idle-timeout", "120",
                    open_files=(512, 512))
    attackers = []
    try:
        warning = re.search(r"descriptor limit \(RLIMIT_NOFILE, ulimit -n\) of 512 holds (\d+) connections", server.logs())
        assert warning, server.logs()[-2000:]
        assert 1 < int(warning.group(1)) < 512
        attackers = trickle_open(server.port, 700, 10, time.monotonic() + 30)
        assert len(attackers) == 700
        time.sleep(1.5)
        outcomes = ordinary_requests_while_trickling(server, attackers)
        assert outcomes[-1] == 200, outcomes
        assert server.process.poll() is None
    finally:
        for s in attackers:
            s.close()
        assert server.stop() == 0, server.logs()[-2000:]


def test_headers_are_bounded_by_the_header_timeout_not_the_request_timeout(binary, tmp_path):
    directory = tmp_path / "palettes"
    shutil.copytree(ROOT / "palettes", directory)
    server = Server(binary, str(directory), "--threads", "2", "--quiet",
                    "--header-timeout", "1", "--request-timeout", "60", "--idle-timeout", "60")
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
            started = time.monotonic()
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            closed = None
            for _ in range(40):  # a byte every 0.5 s: never idle, never done
                try:
                    s.sendall(b"X-Slow: a\r\n")
                    s.settimeout(0.5)
                    if s.recv(1024) == b"":
                        closed = time.monotonic() - started
                        break
                except socket.timeout:
                    continue
                except OSError:
                    closed = time.monotonic() - started
                    break
            # Closed near the 1 s header timeout, long before the 60 s request timeout.
            assert closed is not None and closed < 15, closed
        assert server.request("GET", "/healthz")[0] == 200
    finally:
        assert server.stop() == 0, server.logs()[-2000:]
