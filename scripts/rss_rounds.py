"""RSS of `contrast serve` across rounds of one large request (a 730 KB stylesheet of 30 themes
posted to /v1/tokens six times): does memory go back after a large request? Loopback only.
Usage: python3 scripts/rss_rounds.py [BINARY]   (default .build/debug/contrast)"""
import json, os, subprocess, time, urllib.request, re, sys
binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/contrast"
p = subprocess.Popen([binary, "serve", "--port", "0", "--palettes", "palettes", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
port = None
while port is None:
    line = p.stdout.readline()
    m = re.search(r"127\.0\.0\.1:(\d+)", line)
    if m: port = int(m.group(1))
def rss():
    for l in open(f"/proc/{p.pid}/status"):
        if l.startswith("VmRSS"): return int(l.split()[1]) // 1024
# A large valid stylesheet (900 KB): many themes of many colors.
css = "".join(f".t{t} {{" + "".join(f"--c{i}: #{(i*7919+t)%0xffffff:06x};" for i in range(1500)) + "}\n" for t in range(30))
body = css.encode()
print("body", len(body), "idle", rss(), "MB")
for round in range(6):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/tokens", data=body, headers={"Content-Type": "text/css"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=120) as r: r.read(); status = r.status
    except urllib.error.HTTPError as e: status = e.code
    time.sleep(0.5)
    print("round", round, "status", status, "rss after", rss(), "MB")
p.terminate(); p.wait()
