#!/usr/bin/env python3
"""make soak: load and faults against a release `contrast serve` on 127.0.0.1, bounded in time.

1. Mixed valid traffic with wrk at 64 connections for SOAK_SECONDS (default 300): zero non-2xx,
   zero socket errors, resident memory flat after warm-up (growth < 10 %), descriptors flat.
2. 1,000 slow clients sending half a request while normal clients are measured: the slow ones are
   cut at the request deadline, and normal requests keep a p99 under 50 ms.
3. More clients than the connection limit: the excess is refused promptly, not left waiting.
4. SIGTERM under load: the process exits 0 within the grace period.
5. Expensive requests: wrk keeps the worker pool saturated with audits of every token on every
   other at AAA + APCA 90 (each wants suggestions), while 20 connections pipeline report requests
   and read nothing: /healthz keeps a p99 under 50 ms, and full-queue refusals are 503.
6. Reader bombs: wrk keeps every worker busy with the documents of RELIABILITY.md's bomb tables
   (deep nesting, doubling var() and $extends chains, $ref fan-out, theme combinations), each
   refused with 422 by its read budget: /healthz keeps a p99 under 50 ms, no bomb gets a 5xx
   other than the pool's 503, and RSS after the mix stays under 512 MB.
The slow-client mix (2) measures /healthz too, against the same 50 ms.
Prints each result and exits 1 if any check fails. Loopback only; every loop is bounded.

`scripts/soak.py --bombs` (make soak-bombs) runs one phase instead, issue #46's: the server as
the Kubernetes pod runs it (deploy/kubernetes/deployment.yaml: two workers, two threads,
--max-request-memory 128MiB, no per-address cap), its address space held to the pod's memory
limit with `prlimit --as` (384 MiB), while four clients post the hostile generators of
tests/integration/test_hostile_*.py one after another (token listing bombs, theme copies of
Figma modes and Material schemes, long set names, text copied per result, 150 x 150 rule
pairs, expansion and nesting bombs), two clients send ordinary requests and /healthz is probed
every 10 ms, for BOMB_SECONDS (default 120; every bomb is sent at least once). It passes when
the server never dies and exits 0 on SIGTERM, every bomb is answered (400, 413 or 422 refused, 503
when the pool is full, or 200 with a body within 64 times its own or 2 KiB for each result it
holds, the fuzz targets' bound: a document that reads in linear work) and never 500 or a
dropped connection, every ordinary request gets
200 (or the pool's 503), and /healthz keeps a p99 under 50 ms.
"""
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release", "contrast")
SECONDS = int(os.environ.get("SOAK_SECONDS", "300"))
failures = []
checks_run = 0


def check(ok, message):
    global checks_run
    checks_run += 1
    print(("ok    " if ok else "FAIL  ") + message, flush=True)
    if not ok:
        failures.append(message)


def start(*args):
    process = subprocess.Popen([BIN, "serve", "--port", "0", "--quiet", "--palettes", os.path.join(ROOT, "palettes"), *args],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for _ in range(50):
        line = process.stdout.readline()
        if "listening on" in line:
            return process, int(line.rsplit(":", 1)[1].split()[0])
    raise SystemExit("server did not start")


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS"))


def fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def get(port, path, timeout=5):
    t = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as r:
        r.read()
        return r.status, time.perf_counter() - t


def mixed_traffic():
    process, port = start("--threads", "2")
    work = tempfile.mkdtemp()
    body = open(os.path.join(ROOT, "palettes", "peptide-fox.json")).read()
    lua = os.path.join(work, "mixed.lua")
    with open(lua, "w") as f:
        f.write("""
local body = [==[%s]==]
local i = 0
request = function()
  i = i + 1
  local k = i %% 10
  if k < 5 then return wrk.format("GET", "/v1/contrast?fg=%%23" .. string.format("%%06x", (i * 7919) %% 16777216) .. "&bg=white") end
  if k < 7 then return wrk.format("GET", "/healthz") end
  if k < 8 then return wrk.format("GET", "/v1/palettes/train/audit") end
  return wrk.format("POST", "/v1/audit", {["Content-Type"] = "application/json"}, body)
end
""" % body)
    warm = min(30, max(5, SECONDS // 10))
    subprocess.run(["wrk", "-t", "2", "-c", "64", "-d", f"{warm}s", "-s", lua, f"http://127.0.0.1:{port}/"], capture_output=True)
    base_rss, base_fds = rss_kb(process.pid), fds(process.pid)
    out = subprocess.run(["wrk", "-t", "2", "-c", "64", "-d", f"{SECONDS}s", "-s", lua, "--latency", f"http://127.0.0.1:{port}/"],
                         capture_output=True, text=True).stdout
    time.sleep(1)
    end_rss, end_fds = rss_kb(process.pid), fds(process.pid)
    requests = next((l for l in out.splitlines() if "requests in" in l), "").strip()
    socket_errors = [l.strip() for l in out.splitlines() if "Socket errors" in l]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        metrics = r.read().decode()
    statuses = {}
    for line in metrics.splitlines():
        if line.startswith("contrast_http_requests_total{"):
            status = line.split('status="')[1].split('"')[0]
            statuses[status] = statuses.get(status, 0) + int(line.rsplit(" ", 1)[1])
    rejected = next((int(l.split()[1]) for l in metrics.splitlines() if l.startswith("contrast_pool_rejected_total ")), 0)
    # 503 from a full worker queue is the designed answer to a burst (Retry-After: 1); status 0
    # is a request whose client left (wrk closing its connections at the end of each run).
    other = {k: v for k, v in statuses.items() if k not in ("200", "0") and not (k == "503" and v <= rejected)}
    share = statuses.get("503", 0) / max(1, sum(statuses.values()))
    check(not socket_errors and not other and share < 0.005,
          f"mixed traffic for {SECONDS}s at 64 connections: {requests}; statuses {statuses} "
          f"(503 = worker queue full: {share:.3%}, {rejected} refused); socket errors: {socket_errors or 'none'}")
    growth = (end_rss - base_rss) / base_rss
    check(growth < 0.10, f"resident memory after warm-up {base_rss / 1024:.1f} MB → {end_rss / 1024:.1f} MB ({growth:+.1%})")
    check(end_fds <= base_fds + 2, f"file descriptors {base_fds} → {end_fds}")
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=20)
    shutil.rmtree(work)


def slow_clients():
    # Every client here is 127.0.0.1: the per-address limit would close most of them.
    process, port = start("--threads", "2", "--max-connections", "2048", "--request-timeout", "5", "--max-connections-per-ip", "0")
    slow = []
    for _ in range(1000):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"POST /v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{\"na")
        slow.append(s)
    latencies, health = [], []
    deadline = time.time() + 8
    while time.time() < deadline:
        status, seconds = get(port, "/v1/contrast?fg=%23777&bg=white")
        latencies.append(seconds)
        status, seconds = get(port, "/healthz")
        health.append(seconds)
    p99 = statistics.quantiles(latencies, n=100)[98] * 1000
    check(p99 < 50, f"1,000 slow clients: {len(latencies)} normal requests, p99 {p99:.1f} ms (target < 50 ms)")
    p99 = statistics.quantiles(health, n=100)[98] * 1000
    check(p99 < 50, f"1,000 slow clients: {len(health)} /healthz, p99 {p99:.1f} ms (target < 50 ms)")
    # Past the deadline a request whose body is still arriving is answered 408 and its
    # connection shut down a second later (Server+Connections.swift): read what it was sent,
    # then the end of the stream.
    cut = 0
    for s in slow:
        s.settimeout(0.05)
        try:
            received = b""
            while True:
                data = s.recv(4096)
                if data == b"":
                    if received == b"" or received.startswith(b"HTTP/1.1 408"):
                        cut += 1
                    break
                received += data
        except socket.timeout:
            pass
        except OSError:
            cut += 1
        s.close()
    check(cut >= 990, f"{cut} of 1,000 slow clients were answered 408 and cut, or cut, at the 5 s request deadline")
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=20)


def over_the_limit():
    process, port = start("--threads", "2", "--max-connections", "50")
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(50)]
    t = time.perf_counter()
    refused = 0
    for _ in range(20):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.settimeout(2)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            data = s.recv(100)
            if data == b"" or data.startswith(b"HTTP/1.1 503"):
                refused += 1
            s.close()
        except OSError:
            refused += 1
    elapsed = time.perf_counter() - t
    check(refused == 20 and elapsed < 5, f"over the limit of 50 connections: {refused} of 20 extra clients refused in {elapsed:.2f} s")
    for s in held:
        s.close()
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=20)


def sigterm_under_load():
    process, port = start("--threads", "2", "--grace", "10")
    load = subprocess.Popen(["wrk", "-t", "2", "-c", "64", "-d", "20s", f"http://127.0.0.1:{port}/v1/contrast?fg=%23000&bg=%23fff"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(3)
    t = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    code = process.wait(timeout=30)
    elapsed = time.perf_counter() - t
    load.kill()
    check(code == 0 and elapsed < 10, f"SIGTERM under load: exit {code} after {elapsed:.2f} s")


def healthz_latencies(port, seconds):
    """/healthz answered one after another for `seconds`: each one's latency."""
    health = []
    deadline = time.time() + seconds
    while time.time() < deadline:
        _, elapsed = get(port, "/healthz")
        health.append(elapsed)
        time.sleep(0.005)
    return health


def expensive_mix():
    process, port = start("--threads", "2", "--workers", "2", "--queue", "8")
    work = tempfile.mkdtemp()
    tokens = {f"t{i}": "#%06x" % (i * 2654435 % 0xFFFFFF) for i in range(30)}
    body = json.dumps({"name": "expensive", "themes": {f"th{n}": {"tokens": tokens} for n in range(30)},
                       "checks": [{"id": "all", "foreground": "t*", "background": "t*", "level": "AAA", "apca": 90}]})
    lua = os.path.join(work, "expensive.lua")
    with open(lua, "w") as f:
        f.write('''
local body = [==[%s]==]
request = function() return wrk.format("POST", "/v1/audit", {["Content-Type"] = "application/json"}, body) end
''' % body)
    seconds = min(60, max(10, SECONDS // 5))
    load = subprocess.Popen(["wrk", "-t", "1", "-c", "16", "-d", f"{seconds + 2}s", "--timeout", "60s", "-s", lua, f"http://127.0.0.1:{port}/"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    readers = []
    for _ in range(20):
        c = socket.create_connection(("127.0.0.1", port))
        c.sendall(b"GET /v1/report HTTP/1.1\r\nHost: x\r\n\r\n" * 50)
        readers.append(c)
    time.sleep(1)
    health = healthz_latencies(port, seconds)
    out, _ = load.communicate(timeout=120)
    for c in readers:
        c.close()
    total = int(next((l.split()[0] for l in out.splitlines() if "requests in" in l), "0"))
    non2xx = int(next((l.split()[-1] for l in out.splitlines() if "Non-2xx" in l), "0"))
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        metrics = r.read().decode()
    answered = sum(int(l.rsplit(" ", 1)[1]) for l in metrics.splitlines()
                   if l.startswith('contrast_http_requests_total{route="/v1/audit",method="POST",status="200"}'))
    rejected = next((l.split()[1] for l in metrics.splitlines() if l.startswith("contrast_pool_rejected_total ")), "?")
    p99 = statistics.quantiles(health, n=100)[98] * 1000
    check(p99 < 50, f"pool saturated by 16 expensive-audit connections and 20 pipelining slow readers: {len(health)} /healthz, "
                    f"p99 {p99:.1f} ms, max {max(health) * 1000:.1f} ms (target p99 < 50 ms)")
    check(answered > 0 and total > 0,
          f"expensive audits: {total} sent, {answered} answered 200, {non2xx} not 2xx ({rejected} refused at once because every worker was busy and the queue of 8 was full)")
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)
    shutil.rmtree(work)


def bombs():
    """The reader bombs of issue #30, small bodies that expanded to minutes and gigabytes."""
    css_doubling = ":root {\n  --a0: red;\n" + "".join(f"  --a{i}: color-mix(in srgb, var(--a{i - 1}), var(--a{i - 1}));\n" for i in range(1, 25)) + "}\n"
    media = "@media{" * 20000
    braces = "{" * 30000
    extends = {"g0": {"x": {"$type": "color", "$value": "#000000"}}}
    for i in range(1, 21):
        extends[f"g{i}"] = {"a": {"$extends": f"{{g{i - 1}}}"}, "b": {"$extends": f"{{g{i - 1}}}"}}
    ref = {"leaf": {"$type": "color", "$value": "#123456"}}
    for i in range(1, 23):
        ref[f"l{i}"] = {"a": {"$ref": f"#/l{i - 1}"}, "b": {"$ref": f"#/l{i - 1}"}} if i > 1 else {"a": {"$ref": "#/leaf"}, "b": {"$ref": "#/leaf"}}
    studio = {"$themes": [{"name": f"t{g}-{v}", "group": f"g{g}", "selectedTokenSets": {"s": "enabled"}} for g in range(20) for v in range(2)],
              "s": {"c": {"value": "#000000", "type": "color"}}}
    return [("text/css", css_doubling), ("text/css", media), ("text/css", braces),
            ("application/json", json.dumps(extends)), ("application/json", json.dumps(ref)), ("application/json", json.dumps(studio))]


def bomb_mix():
    process, port = start("--threads", "2", "--workers", "2", "--queue", "8")
    work = tempfile.mkdtemp()
    scripts = []
    for index, (media, body) in enumerate(bombs()):
        path = os.path.join(work, f"bomb{index}.lua")
        with open(path, "w") as f:
            f.write('''
local body = [==[%s]==]
request = function() return wrk.format("POST", "/v1/audit", {["Content-Type"] = "%s"}, body) end
''' % (body, media))
        scripts.append(path)
    seconds = min(60, max(10, SECONDS // 5))
    loads = [subprocess.Popen(["wrk", "-t", "1", "-c", "3", "-d", f"{seconds + 2}s", "--timeout", "60s", "-s", lua, f"http://127.0.0.1:{port}/"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for lua in scripts]
    time.sleep(1)
    health = healthz_latencies(port, seconds)
    for load in loads:
        load.communicate(timeout=120)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        metrics = r.read().decode()
    statuses = {}
    for l in metrics.splitlines():
        if l.startswith('contrast_http_requests_total{route="/v1/audit"'):
            status = l.split('status="')[1].split('"')[0]
            statuses[status] = statuses.get(status, 0) + int(l.rsplit(" ", 1)[1])
    rss = rss_kb(process.pid) // 1024
    p99 = statistics.quantiles(health, n=100)[98] * 1000
    check(p99 < 50, f"every worker busy with reader bombs: {len(health)} /healthz, p99 {p99:.1f} ms, max {max(health) * 1000:.1f} ms (target p99 < 50 ms)")
    bad = {s: n for s, n in statuses.items() if s.startswith("5") and s != "503"}
    check(statuses.get("422", 0) > 0 and not bad, f"reader bombs answered by status: {dict(sorted(statuses.items()))} (422 from the read budget, 503 when the pool is full)")
    check(rss < 512, f"RSS after the bomb mix: {rss} MB (target < 512 MB)")
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)
    shutil.rmtree(work)


POD_MEMORY = 384 << 20  # deploy/kubernetes/deployment.yaml: resources.limits.memory
BOMB_SECONDS = int(os.environ.get("BOMB_SECONDS", "120"))


def hostile_bodies():
    """(name, route, media type, body) for every generator of the hostile suites, at the sizes
    their tests use (each body under the server's 1 MiB limit)."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "integration"))
    import test_hostile_css as css
    import test_hostile_linear as linear
    import test_hostile_output as output
    import test_hostile_tokens as tokens
    bodies = []
    for name, (media, text) in sorted(output.BOMBS.items()):
        for route in ("/v1/tokens", "/v1/audit"):
            bodies.append((f"{name} {route}", route, media, text.encode()))
    bodies.append(("scoped-rules-24000-declarations /v1/tokens", "/v1/tokens", "text/css", output.scoped_rules_stylesheet().encode()))
    bodies.append(("listing-200-themes-x-2000-tokens", "/v1/tokens", "application/json", output.inheriting(200, 2_000)))
    bodies.append(("listing-999-themes-x-4000-tokens", "/v1/tokens", "application/json", output.inheriting(999, 4_000)))
    bodies.append(("rule-150-x-150-pairs", "/v1/audit", "application/json", output.pairs_palette(150)))
    for name, (text, _) in sorted(css.BOMBS.items()):
        bodies.append((f"css-{name}", "/v1/audit", "text/css", text.encode()))
    for name, body in sorted(tokens.BODIES.items()):
        bodies.append((f"tokens-{name}", "/v1/audit", "application/json", body if isinstance(body, bytes) else body.encode()))
    copies = {
        "figma-rest-modes-4000": linear.figma_rest_modes(4_000),
        "figma-rest-10000-modes": linear.figma_rest_axis(10_000),
        "figma-rest-1000-modes": linear.figma_rest_axis(1_000),
        "studio-sets-10000": linear.studio_sets(10_000),
        "studio-long-set-names-30": linear.studio_long_set_names(30, 300, 10_000),
        "resolver-long-set-names-30": linear.resolver_long_set_names(30, 300, 10_000),
        "material-schemes-1000": linear.material_schemes(1_000),
        "material-schemes-15000": linear.material_schemes(15_000, customs=0),
    }
    for name, text in copies.items():
        for route in ("/v1/audit", "/v1/tokens"):
            bodies.append((f"{name} {route}", route, "application/json", text.encode()))
    return [b for b in bodies if len(b[3]) < 1 << 20]


def post(port, route, media, body, timeout=120):
    """One request on its own connection: (status, its body) or (the error, b"")."""
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST" if body is not None else "GET", route, body=body, headers={"Content-Type": media} if media else {})
        response = connection.getresponse()
        return response.status, response.read()
    except (OSError, http.client.HTTPException) as error:
        return f"{type(error).__name__}: {error}", b""
    finally:
        connection.close()


def results_in(answer):
    """The results a 200 answer holds: the checks measured or unresolved in every theme of an
    audit, or the entries of a token listing (what the 2 KiB-a-result floor counts)."""
    try:
        document = json.loads(answer)
    except ValueError:
        return 0
    if "palettes" in document:
        return sum(len(t.get("results", [])) + len(t.get("unresolved", [])) for p in document["palettes"] for t in p.get("themes", []))
    return sum(len(t.get("tokens", [])) + len(t.get("inherited", [])) for t in document.get("themes", []))


def hostile_bombs():
    import threading
    bodies = hostile_bodies()
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        raise SystemExit("soak --bombs needs prlimit (util-linux)")
    command = [prlimit, f"--as={POD_MEMORY}", "--", BIN, "serve", "--port", "0", "--quiet", "--palettes", os.path.join(ROOT, "palettes"),
               "--threads", "2", "--workers", "2", "--max-connections-per-ip=0", "--max-request-memory=128MiB"]
    # glibc reserves 64 MiB of address space for each thread's malloc arena: the idle server
    # holds 430 MiB of address space for 33 MB resident, and under `prlimit --as` its first
    # bomb aborted it ("failed to allocate 16368 bytes"). The pod's limit counts what is
    # resident, not what is reserved; one arena (MALLOC_ARENA_MAX=1, 174 MiB reserved idle)
    # makes the address space track what the server holds.
    environment = dict(os.environ)
    environment.setdefault("MALLOC_ARENA_MAX", "1")
    errors = tempfile.NamedTemporaryFile(mode="w+", prefix="soak-bombs-", suffix=".log", delete=False)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True, env=environment)
    port = None
    for _ in range(50):
        line = process.stdout.readline()
        if "listening on" in line:
            port = int(line.rsplit(":", 1)[1].split()[0])
            break
    if port is None:
        raise SystemExit("server did not start under prlimit: " + open(errors.name).read()[-2000:])
    print(f"bombs: {len(bodies)} bodies ({sum(len(b[3]) for b in bodies) >> 10} KiB) against {' '.join(command[3:])}, "
          f"address space {POD_MEMORY >> 20} MiB, MALLOC_ARENA_MAX={environment['MALLOC_ARENA_MAX']}, for {BOMB_SECONDS} s; its log: {errors.name}", flush=True)
    with open(os.path.join(ROOT, "palettes", "train.json"), "rb") as f:
        ordinary_body = f.read()
    ordinary_requests = [(None, "/v1/palettes", None), (ordinary_body, "/v1/audit", "application/json"),
                         (None, "/v1/palettes/train/audit", None), (ordinary_body, "/v1/tokens", "application/json")]
    lock = threading.Lock()
    answers = {}  # bomb name -> list of (status, response bytes, seconds)
    ordinary = {}
    next_bomb = [0]
    end = time.time() + BOMB_SECONDS
    hard_end = end + BOMB_SECONDS  # every bomb once, within twice the time

    def bomb_client():
        while True:
            with lock:
                index = next_bomb[0]
                next_bomb[0] += 1
            now = time.time()
            if (index >= len(bodies) and now > end) or now > hard_end:
                return
            name, route, media, body = bodies[index % len(bodies)]
            t = time.perf_counter()
            status, answer = post(port, route, media, body)
            elapsed = time.perf_counter() - t
            with lock:
                answers.setdefault(name, []).append((status, len(answer), results_in(answer) if status == 200 else 0, elapsed))

    def ordinary_client(offset):
        i = offset
        while time.time() < end:
            body, route, media = ordinary_requests[i % len(ordinary_requests)]
            status, _ = post(port, route, media, body, timeout=30)
            with lock:
                ordinary.setdefault(route, []).append(status)
            i += 1
            time.sleep(0.05)

    threads = [threading.Thread(target=bomb_client) for _ in range(4)] + [threading.Thread(target=ordinary_client, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    health, health_errors, died = [], [], None
    while any(thread.is_alive() for thread in threads):
        if process.poll() is not None and died is None:
            died = process.returncode
        t = time.perf_counter()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                r.read()
                if r.status != 200:
                    health_errors.append(r.status)
            health.append(time.perf_counter() - t)
        except OSError as error:
            health_errors.append(str(error))
        time.sleep(0.01)
    for thread in threads:
        thread.join()
    peak = -1
    if process.poll() is None:
        with open(f"/proc/{process.pid}/status") as f:
            peak = next((int(l.split()[1]) for l in f if l.startswith("VmHWM")), 0) // 1024
    else:
        print("the server died: " + " | ".join(open(errors.name).read().splitlines()[:3]), flush=True)
    bad = []
    print(f"{'bomb':58} {'KiB':>6}  statuses               slowest  largest answer")
    for name, route, media, body in bodies:
        got = answers.get(name, [])
        statuses = {}
        for status, size, results, _ in got:
            statuses[status] = statuses.get(status, 0) + 1
            # The bound of the fuzz targets (FuzzSupport's BoundedAudit): 64 times the input,
            # or 2 KiB for each result the answer holds.
            if not (status in (400, 413, 422, 503) or (status == 200 and size <= max(64 * len(body), 2048 * max(1, results)))):
                bad.append((name, status, size, results))
        slowest = max((s for *_, s in got), default=0)
        largest = max((size for _, size, _, _ in got), default=0)
        print(f"{name:58} {len(body) >> 10:>6}  {json.dumps({str(k): v for k, v in statuses.items()}):22} {slowest:6.1f} s  {largest:>9} B", flush=True)
    unsent = [name for name, *_ in bodies if name not in answers]
    p99 = statistics.quantiles(health, n=100)[98] * 1000 if len(health) > 1 else float("inf")
    ordinary_statuses = {}
    for statuses in ordinary.values():
        for status in statuses:
            ordinary_statuses[status] = ordinary_statuses.get(status, 0) + 1
    total = sum(len(v) for v in answers.values())
    check(died is None and process.poll() is None, f"the server lived through {total} bombs under prlimit --as={POD_MEMORY >> 20}MiB (peak RSS {peak} MiB)")
    check(not bad and not unsent, f"every bomb answered 400/413/422/503, or 200 within 64x its body or 2 KiB a result, never 5xx or a dropped connection: "
                                  f"{len(bad)} otherwise {bad[:5]}, {len(unsent)} not sent")
    check(set(ordinary_statuses) <= {200, 503} and ordinary_statuses.get(200, 0) > 0, f"ordinary requests by status: {dict(sorted((str(k), v) for k, v in ordinary_statuses.items()))}")
    check(p99 < 50 and not health_errors, f"/healthz under the bombs: {len(health)} probes, p99 {p99:.1f} ms, max {max(health, default=0) * 1000:.1f} ms, "
                                          f"{len(health_errors)} failed (target p99 < 50 ms)")
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
        check(code == 0, f"SIGTERM after the bombs: exit {code}")


if __name__ == "__main__" and sys.argv[1:] == ["--bombs"]:
    if not os.path.exists(BIN):
        raise SystemExit("soak --bombs needs .build/release/contrast (make soak-bombs builds it)")
    started = time.time()
    hostile_bombs()
    print(f"{checks_run - len(failures)} passed, {len(failures)} failed, in {time.time() - started:.0f} s; "
          f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} on {os.cpu_count()} cores")
    sys.exit(1 if failures else 0)
elif __name__ == "__main__":
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    if not os.path.exists(BIN) or shutil.which("wrk") is None:
        raise SystemExit("soak needs .build/release/contrast and wrk (make soak builds and installs them)")
    mixed_traffic()
    slow_clients()
    over_the_limit()
    sigterm_under_load()
    expensive_mix()
    bomb_mix()
    print(f"{checks_run - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)
