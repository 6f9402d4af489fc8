"""HTTP/1.1 framing as strict as RFC 9112 allows with libmicrohttpd 0.9.75: each malformed
request gets 400 (501 for an unknown transfer coding) and the connection closes."""
import socket

import pytest

from server import status_of

CASES = {
    # "Transfer-Encoding : chunked" would slip past the Content-Length + Transfer-Encoding guard.
    "white space before the colon": (b"POST /v1/contrast HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n", 400),
    "two Host headers": (b"GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400),
    "a bare CR in a value": (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", 400),
    "gzip, chunked": (b"POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
    "an unknown transfer coding": (b"POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: foo\r\n\r\n", 501),
    "chunked twice": (b"POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", 400),
    "chunked in two headers": (b"POST /v1/contrast HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
}


def exchange(port, data):
    """Sends `data`, then reads until the server closes the connection (bounded)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        chunks = []
        while True:
            chunk = s.recv(65536)  # a timeout here fails the test: the connection stayed open
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


@pytest.fixture(scope="module")
def server(palettes_server):
    return palettes_server


@pytest.mark.parametrize("name", sorted(CASES))
def test_malformed_framing_is_refused_and_closed(server, name):
    data, expected = CASES[name]
    answer = exchange(server.port, data)
    assert status_of(answer) == expected, (name, answer[:200])
    assert b"application/problem+json" in answer
    assert server.json("GET", "/healthz")[0] == 200


def test_a_single_chunked_body_is_still_read(server):
    body = b'{"fg": "#000", "bg": "#fff"}'
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    answer = server.raw(b"POST /v1/contrast HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunked)
    assert status_of(answer) == 200, answer[:300]
