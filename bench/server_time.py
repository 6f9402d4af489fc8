#!/usr/bin/env python3
"""POST /v1/contrast with 10,000 pairs, as a client sends it, and the server's own time for
each request as its access log records it (first byte handled to response queued). Prints the
median and the fastest of 21 requests. Usage: server_time.py PORT ACCESS_LOG"""
import http.client
import json
import random
import re
import statistics
import sys
import time

port, log = int(sys.argv[1]), sys.argv[2]
random.seed(5)
body = json.dumps({"pairs": [{"fg": "#%06x" % random.randrange(1 << 24), "bg": "#%06x" % random.randrange(1 << 24)}
                             for _ in range(10_000)]}).encode()
start = open(log, "rb").seek(0, 2)
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
for _ in range(21):
    connection.request("POST", "/v1/contrast", body, {"Content-Type": "application/json"})
    response = connection.getresponse()
    assert response.status == 200, response.status
    assert len(json.loads(response.read())["results"]) == 10_000
lines = []
for _ in range(100):  # the log is written by a background flush: wait for it (at most 10 s)
    with open(log, "rb") as f:
        f.seek(start)
        lines = [line for line in f.read().decode(errors="replace").splitlines() if '"POST /v1/contrast"' in line]
    if len(lines) >= 21:
        break
    time.sleep(0.1)
times = [float(re.search(r" ([0-9.]+)ms", line).group(1)) for line in lines]
assert len(times) == 21, lines[-3:]
print(f"| POST /v1/contrast, 10,000 pairs (server time, access log) | median {statistics.median(times):.1f} ms, fastest {min(times):.1f} ms | < 15 ms |")
