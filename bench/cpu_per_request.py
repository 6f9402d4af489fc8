#!/usr/bin/env python3
"""CPU time per request of a running server, split into user and kernel time.

Usage: python3 bench/cpu_per_request.py PID URL [CONNECTIONS] [SECONDS]

Runs wrk (2 threads) against URL on 127.0.0.1 and reads the server's user and system CPU time
from /proc/PID/stat before and after; prints the requests wrk counted and the server's CPU per
request in microseconds. Both servers of a comparison pay the same kernel work per request
(accept, epoll, recv, send); the user time is what each does itself.
"""
import os
import re
import subprocess
import sys


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / ticks, int(fields[12]) / ticks  # utime, stime


def main():
    pid, url = int(sys.argv[1]), sys.argv[2]
    connections = int(sys.argv[3]) if len(sys.argv) > 3 else 64
    seconds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    user0, system0 = cpu_seconds(pid)
    out = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", url],
                         capture_output=True, text=True, check=True).stdout
    user1, system1 = cpu_seconds(pid)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = "errors" if re.search(r"Socket errors|Non-2xx", out) else "no errors"
    user = (user1 - user0) / requests * 1e6
    system = (system1 - system0) / requests * 1e6
    print(f"{url} at {connections} connections: {requests} requests ({errors}); "
          f"server CPU per request {user + system:.2f} us: user {user:.2f}, kernel {system:.2f}")


if __name__ == "__main__":
    main()
