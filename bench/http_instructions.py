#!/usr/bin/env python3
"""Instructions per HTTP request, counted by callgrind: the service against bench/hello.c.

wrk's requests per second on a shared 2-core machine move by a third between runs; the
instructions a request costs do not. For each server and path this runs the server under
`valgrind --tool=callgrind` twice, once answering nothing but a readiness probe and once
answering N more requests on one keep-alive connection, and prints the difference over N.

Usage: bench/http_instructions.py CONTRAST_BINARY HELLO_BINARY [N]
(HELLO_BINARY: `gcc -O2 -o hello bench/hello.c -lmicrohttpd`). Loopback only. Needs valgrind.
GETs are counted over N requests (default 2,000), and `POST /v1/audit` of Peptide Fox, the
whole service's work for one audit (read, audit, answer), over N/20.

Callgrind counts each byte `rep stosb` clears as one instruction, so libmicrohttpd's clearing
of the connection's memory pool (twice per request, in both servers) shows as ~49,000
"instructions" although it takes a few hundred cycles; the table gives it separately.
"""
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(sock, path, body=None):
    """One request on the connection, answered in full: a GET, or a POST of `body` as JSON."""
    if body is None:
        sock.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    else:
        sock.sendall(b"POST " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("connection closed")
        data += chunk
    head, _, answer = data.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"{path} answered {head.splitlines()[0]!r}")
    length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))
    while len(answer) < length:
        answer += sock.recv(65536)


def count(command, port, path, requests, out_dir, body=None):
    """Callgrind's totals (all instructions, and those of memset) for `requests` requests."""
    out = os.path.join(out_dir, f"cg-{port}.out")
    process = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + command,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=120)  # an audit under callgrind is slow
                break
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError(f"{command[0]} did not start")
                time.sleep(0.3)
        with sock:
            get(sock, path, body)  # readiness (and one-time set-up), in both runs
            for _ in range(requests):
                get(sock, path, body)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=180)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    text = subprocess.run(["callgrind_annotate", "--auto=no", out], capture_output=True, text=True).stdout
    found = re.search(r"([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", text)
    if not found:
        raise RuntimeError(f"callgrind wrote no totals for {' '.join(command)} (exit {process.returncode}): {text[:500]}")
    total = int(found.group(1).replace(",", ""))
    memset = sum(int(m.group(1).replace(",", "")) for m in re.finditer(r"^\s*([\d,]+) \([^)]*\)\s+\S*memset\S*", text, re.M))
    os.remove(out)
    return total, memset


def main():
    contrast, hello = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    palettes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "palettes")
    print("| server | path | instructions per request | of which pool clearing (memset) | the rest |")
    print("|---|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as out_dir:
        serve = lambda p: [contrast, "serve", "--port", str(p), "--threads", "1", "--workers", "1", "--palettes", palettes]
        with open(os.path.join(palettes, "peptide-fox.json"), "rb") as f:
            fox = f.read()
        # (name, command, path, body, requests): an audit costs a thousand GETs, so fewer of them.
        cases = [
            ("bench/hello.c", lambda p: [hello, str(p), "1"], "/", None, n),
            ("contrast serve", serve, "/healthz", None, n),
            ("contrast serve", serve, "/v1/contrast?fg=%23777777&bg=%23ffffff", None, n),
            ("contrast serve", serve, "POST /v1/audit (Peptide Fox)", fox, max(1, n // 20)),
        ]
        for name, command, path, body, requests in cases:
            runs = []
            target = path.split(" ")[1] if path.startswith("POST ") else path
            for count_of in (0, requests):
                port = free_port()
                runs.append(count(command(port), port, target, count_of, out_dir, body))
            total = (runs[1][0] - runs[0][0]) / requests
            memset = (runs[1][1] - runs[0][1]) / requests
            print(f"| {name} | `{path}` | {total:,.0f} | {memset:,.0f} | {total - memset:,.0f} |")


if __name__ == "__main__":
    main()
