#!/usr/bin/env bash
# make bench: every benchmark of BENCHMARKS.md, in one run, release builds only. Prints each
# figure with its command and target, and writes the run to BENCHMARKS.md.
# Loopback only; every load is bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$out"' EXIT

command -v wrk >/dev/null 2>&1 || { echo "bench: installing wrk" >&2; apt-get install -y -qq wrk >/dev/null 2>&1 || sudo apt-get install -y -qq wrk >/dev/null; }
swift build -c release --product contrast --static-swift-stdlib >/dev/null  # as `make run` builds it
swift build -c release --product contrast-bench >/dev/null
bin=.build/release
gcc -O2 -o "$out/core-c" bench/core.c -lm
gcc -O2 -o "$out/hello" bench/hello.c -lmicrohttpd
threads=${BENCH_THREADS:-2}
duration=${BENCH_SECONDS:-5}

report="$out/report.md"
{
  echo "# Benchmarks"
  echo
  echo "Run by \`make bench\` (bench/run.sh) on $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -m); release builds;"
  echo "Swift: $(swift --version 2>&1 | head -1); C: $(gcc --version | head -1) -O2."
  echo "Each figure is a median of repeated runs in the same process; the C and Swift sides run in the same session."
  echo
} > "$report"

section() { echo; echo "## $1"; echo; } >> "$report"
code() { { echo '```'; cat; echo '```'; } >> "$report"; }

echo "== core (targets: (a) >= 100 M pairs/s on one core; (b) within 1.5x of C per pair)"
section "1. Core: contrast ratios and parsing (one core)"
echo "Commands: \`$bin/contrast-bench core\` and \`gcc -O2 bench/core.c\`. Targets: (a) ≥ 100 M pairs/s; (b) within 1.5× of the C loop." >> "$report"
{ "$out/core-c"; "$bin/contrast-bench" core; } | tee "$out/core.txt" | code
cat "$out/core.txt"

echo "== matrix scaling (targets: 2,000 tokens < 0.5 s, 20,000 tokens < 30 s, memory < 100 MB)"
section "2. Matrix scaling (summary of every pair, $(nproc) cores)"
echo "Command: \`$bin/contrast-bench matrix N\`, one process per N (peak RSS is the process's VmHWM). Targets: 2,000 tokens < 0.5 s, 20,000 < 30 s, memory < 100 MB." >> "$report"
for n in 100 1000 2000 5000 20000; do "$bin/contrast-bench" matrix $n; done | tee "$out/matrix.txt" | code
cat "$out/matrix.txt"

echo "== palette files"
section "3. Palette files"
echo "Commands: \`$bin/contrast-bench dtcg 10000\` (a generated 10,000-token DTCG file with 1,000 checks, most failing, so each gets suggestions), \`$bin/contrast-bench css 2000\` (a 2,000-property stylesheet in 4 themes, half var() chains, 1,000 checks; target < 50 ms) and \`$bin/contrast-bench palettes palettes\`; \`$bin/contrast-bench suggest\` for the cost of suggestions; \`$bin/contrast-bench edit FILE\` for the server work behind one edit on the designers' page (target < 10 ms); \`$bin/contrast-bench gradient\` for a text judged at a gradient's worst point (target < 50 µs for 3-4 stops); \`$bin/contrast-bench distinct\` for a \`distinct\` group of 50 tokens, all 1,225 pairs under protanopia, deuteranopia and tritanopia (target < 5 ms)." >> "$report"
{ "$bin/contrast-bench" dtcg 10000; "$bin/contrast-bench" css 2000; "$bin/contrast-bench" palettes palettes; "$bin/contrast-bench" audit-request palettes/peptide-fox.json; "$bin/contrast-bench" suggest; "$bin/contrast-bench" edit palettes/peptide-fox.json; "$bin/contrast-bench" edit palettes/train.json; "$bin/contrast-bench" gradient; "$bin/contrast-bench" distinct; } | tee "$out/files.txt" | code
cat "$out/files.txt"

echo "== batch (targets: >= 1,000,000 pairs/s hex, >= 300,000 pairs/s mixed syntaxes)"
section "4. Batch checks (whole process, 200,000 JSON lines, output to a file)"
echo "Command: \`python3 bench/batch.py DIR $bin/contrast\` (it writes the two corpora, runs \`contrast check --batch FILE > out\` three times each and ColorAide from PyPI on the same hex lines; medians). Targets: ≥ 1,000,000 pairs/s on hex, ≥ 300,000 on 18 CSS syntaxes." >> "$report"
python3 -c "import coloraide" 2>/dev/null || pip install -q coloraide >/dev/null 2>&1 || true
{ echo "| run | time | rate | target |"; echo "|---|---:|---:|---|"; python3 bench/batch.py "$out" "$bin/contrast"; } | tee "$out/batch.txt" >> "$report"
cat "$out/batch.txt"

echo "== report at scale (targets: <= 5 MB of HTML, loads in headless Chromium in < 2 s)"
section "5. The report at scale"
echo "Command: \`python3 bench/report_scale.py DIR $bin/contrast\` (26,000 checks in two themes, 3,000 failing; passing checks are folded one line each)." >> "$report"
{ echo "| case | figure | target |"; echo "|---|---:|---|"; python3 bench/report_scale.py "$out" "$bin/contrast"; } | tee "$out/scale.txt" >> "$report"
cat "$out/scale.txt"

echo "== audit at scale (targets: 20,000 checks < 1.0 s and < 150 MB; 100,000 checks < 5 s, memory linear)"
section "5b. Audit at scale (whole process, JSON out)"
echo "Command: \`python3 bench/audit_scale.py DIR $bin/contrast\` (2,000 random tokens; checks between random pairs of them, most failing, each failing one with its suggestions; \`contrast audit FILE --format json --output FILE\`, median of 3 wall times, peak RSS from GNU time)." >> "$report"
{ echo "| case | figure | target |"; echo "|---|---:|---|"; python3 bench/audit_scale.py "$out" "$bin/contrast"; } | tee "$out/auditscale.txt" >> "$report"
cat "$out/auditscale.txt"

echo "== the nightly report at Primer's scale (targets: < 60 s and < 1 GB; index.html <= 5 MB, audit.json <= 64 MB, summary.md <= 1 MiB)"
section "5d. The nightly report at a real system's scale (whole process)"
echo "Command: \`python3 bench/primer_report.py DIR $bin/contrast\` (Primer's 14 built themes as published, ../shared/realworld/primer; \`contrast init THEMES --output checks.json\`, then \`contrast report THEMES --checks checks.json --out DIR --history FILE\` as the nightly job runs it; median of 3 wall times, peak RSS from GNU time, then a second run with one run of history)." >> "$report"
{ echo "| case | figure | target |"; echo "|---|---:|---|"; python3 bench/primer_report.py "$out" "$bin/contrast"; } | tee "$out/primer.txt" >> "$report"
cat "$out/primer.txt"

echo "== real design systems (the readers and the ledger on every system of ../shared/realworld*)"
section "5c. Real design systems (whole process, JSON out)"
echo "Command: \`python3 bench/realworld_audit.py DIR $bin/contrast\` (each system's folder as a user audits it, \`contrast audit DIR --format json --output FILE\`; median of 5 wall times, peak RSS from GNU time; the declarations are the ledger's). Target: no slower than the previous round (run it with an older binary as a third argument for the ratio)." >> "$report"
{ echo "| system | color declarations | exit | time | peak memory |"; echo "|---|---:|---|---:|---:|"; python3 bench/realworld_audit.py "$out" "$bin/contrast"; } | tee "$out/realworld.txt" >> "$report"
cat "$out/realworld.txt"

echo "== the designers' page: edit to verdict (target: < 0.5 s for Peptide Fox)"
section "5e. The designers' page: from an edit to its verdict (headless Chromium)"
echo "Command: \`python3 bench/page_edit.py $bin/contrast\` (the real server on a copy of palettes/, access log on; the page opens Peptide Fox and each of 21 edits types a color into the light theme's \`text.body\`, alternating between failing and passing body text; the time is measured in the page, from the input event to the audit view showing the new verdict)." >> "$report"
{ echo "| case | figure | target |"; echo "|---|---:|---|"; python3 bench/page_edit.py "$bin/contrast"; } | tee "$out/page.txt" >> "$report"
cat "$out/page.txt"

echo "== HTTP (wrk, ${duration}s each; targets: healthz >= 90% and GET contrast >= 75% of the bare C server)"
section "6. HTTP on 127.0.0.1 (wrk, ${duration} s per cell, $threads server threads, access log on)"
echo "Server: \`$bin/contrast serve --threads $threads --workers $threads --max-connections-per-ip 0\` (wrk is one address; the per-address limit would refuse most of its 512 connections) with its access log written to a file, as \`make run\` serves; ceiling: \`bench/hello.c\` (bare libmicrohttpd, same mode and threads, no log). Targets: /healthz ≥ 90 % and GET /v1/contrast ≥ 75 % of the C server's requests/s at 64 connections; POST /v1/audit (Peptide Fox) p99 < 5 ms at 16 connections; zero errors." >> "$report"
"$bin/contrast" serve --port 18080 --threads "$threads" --workers "$threads" --max-connections-per-ip 0 --palettes palettes > "$out/serve.log" 2> "$out/access.log" &
serve_pid=$!
"$out/hello" 18081 "$threads" > "$out/hello.log" 2>&1 &
hello_pid=$!
sleep 1
cat > "$out/post.lua" <<'LUA'
local f = io.open(os.getenv("BODY_FILE"), "r")
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
LUA
python3 - "$out/pairs.json" <<'PY'
import json, random, sys
random.seed(1)
pairs = [{"fg": "#%06x" % random.randrange(1 << 24), "bg": "#%06x" % random.randrange(1 << 24)} for _ in range(1000)]
json.dump({"pairs": pairs}, open(sys.argv[1], "w"))
PY
rss() { awk '/VmRSS/ {printf "%.1f MB", $2/1024}' /proc/"$(pgrep -f 'contrast serve --port 18080' | head -1)"/status; }
echo "idle resident memory of contrast serve: $(rss)" | tee -a "$report"
echo >> "$report"
echo "| endpoint | connections | contrast req/s | p50 | p99 | errors | C hello req/s | ratio |" >> "$report"
echo "|---|---:|---:|---:|---:|---:|---:|---:|" >> "$report"
run_wrk() {  # url connections [body]
  local url=$1 c=$2 body=${3:-}
  local t=2; [ "$c" -lt 2 ] && t=1
  local args=(-t "$t" -c "$c" -d "${duration}s" --latency)
  if [ -n "$body" ]; then BODY_FILE=$body wrk "${args[@]}" -s "$out/post.lua" "$url"; else wrk "${args[@]}" "$url"; fi
}
field() { # text name
  case $2 in
    rps) echo "$1" | awk '/Requests\/sec/ {print $2}';;
    p50) echo "$1" | awk '/^ +50%/ {print $2}';;
    p99) echo "$1" | awk '/^ +99%/ {print $2}';;
    err) echo "$1" | awk '/Non-2xx|Socket errors/ {s = s $0 " "} END {print (s == "" ? "0" : s)}';;
  esac
}
for c in 1 16 64 128; do
  for spec in "GET /healthz|http://127.0.0.1:18080/healthz|" \
              "GET /v1/contrast|http://127.0.0.1:18080/v1/contrast?fg=%23777777&bg=%23ffffff|" \
              "POST /v1/contrast (1,000 pairs)|http://127.0.0.1:18080/v1/contrast|$out/pairs.json" \
              "POST /v1/audit (Peptide Fox)|http://127.0.0.1:18080/v1/audit|palettes/peptide-fox.json" \
              "POST /v1/palettes/peptide-fox/proposals|http://127.0.0.1:18080/v1/palettes/peptide-fox/proposals|palettes/peptide-fox.json"; do
    IFS='|' read -r name url body <<< "$spec"
    result=$(run_wrk "$url" "$c" "$body")
    rps=$(field "$result" rps)
    hello=""
    ratio=""
    if [ "$name" = "GET /healthz" ] || [ "$name" = "GET /v1/contrast" ]; then
      hello=$(field "$(run_wrk http://127.0.0.1:18081/ "$c")" rps)
      ratio=$(python3 -c "print(f'{$rps / $hello:.0%}')")
    fi
    line="| $name | $c | $rps | $(field "$result" p50) | $(field "$result" p99) | $(field "$result" err) | $hello | $ratio |"
    echo "$line" | tee -a "$report"
  done
  if [ "$c" = 128 ]; then echo "resident memory after 128 connections: $(rss)" | tee -a "$out/mem.txt"; fi
done
echo >> "$report"
cat "$out/mem.txt" >> "$report"
echo "== 512 keep-alive connections"
result=$(wrk -t 2 -c 512 -d "${duration}s" --latency http://127.0.0.1:18080/healthz)
echo "512 keep-alive connections on /healthz: $(field "$result" rps) req/s, p99 $(field "$result" p99), errors: $(field "$result" err)" | tee -a "$report"
echo "== POST /v1/contrast with 10,000 pairs (target: < 15 ms of server time)"
{ echo; echo "Command: \`python3 bench/server_time.py 18080 ACCESS_LOG\` (21 requests of 10,000 random hex pairs on one keep-alive connection; the server's time per request as its access log records it)."; echo; echo "| case | figure | target |"; echo "|---|---:|---|"; } >> "$report"
python3 bench/server_time.py 18080 "$out/access.log" | tee -a "$report"
echo >> "$report"
echo "access log lines written during the HTTP runs: $(wc -l < "$out/access.log")" | tee -a "$report"
echo "== CPU per request, user and kernel (the service, the bare server, and the bare server sending the service's answer)"
section "6a. CPU per request at 64 connections"
echo "Command: \`python3 bench/cpu_per_request.py PID URL 64 5\` (wrk as above; the server's user and kernel CPU time from /proc/PID/stat over the run, divided by the requests). The third server is \`bench/hello.c\` answering the bytes of the service's \`GET /v1/contrast\` answer with its headers: the same bytes on the wire with none of the work. Three rounds, alternating." >> "$report"
# A failure here (a port taken, a server gone) is printed in the report; it does not stop the
# run before BENCHMARKS.md is written.
cpu() { python3 bench/cpu_per_request.py "$1" "$2" 64 "$duration" || echo "cpu_per_request.py failed for $2 (server $1)"; }
{
  echo '```'
  if curl -sf "http://127.0.0.1:18080/v1/contrast?fg=%23777777&bg=%23ffffff" > "$out/answer.json" && [ -s "$out/answer.json" ]; then
    "$out/hello" 18082 "$threads" "$out/answer.json" > "$out/hello2.log" 2>&1 &
    same_pid=$!
    sleep 1
    for round in 1 2 3; do
      cpu "$hello_pid" http://127.0.0.1:18081/
      cpu "$same_pid" http://127.0.0.1:18082/
      cpu "$serve_pid" http://127.0.0.1:18080/healthz
      cpu "$serve_pid" "http://127.0.0.1:18080/v1/contrast?fg=%23777777&bg=%23ffffff"
    done
    kill "$same_pid" 2>/dev/null || true  # started in this subshell: the run's kill does not see it
  else
    echo "no GET /v1/contrast answer to send from bench/hello.c; section skipped"
  fi
  echo '```'
} | tee -a "$report"
# The HTTP section's servers are done: stopped, so that nothing else holds the cores (or a
# port) while callgrind runs.
kill $(jobs -p) 2>/dev/null || true
wait 2>/dev/null || true
echo "== instructions per HTTP request (callgrind; the service against bench/hello.c)"
command -v valgrind >/dev/null 2>&1 || { echo "bench: installing valgrind" >&2; apt-get install -y -qq valgrind >/dev/null 2>&1 || sudo apt-get install -y -qq valgrind >/dev/null; }
section "6b. Instructions per HTTP request"
echo "Command: \`python3 bench/http_instructions.py $bin/contrast HELLO 2000\` (each server under callgrind with one I/O thread; 2,000 requests on one keep-alive connection, minus a run with none; \`POST /v1/audit\` of Peptide Fox over 100, the whole service's work for an audit). Requests per second on these shared cores move by a third between runs; instruction counts do not. Callgrind counts each byte that \`rep stosb\` clears as an instruction, so libmicrohttpd's clearing of the connection's memory pool, which both servers do twice per request, is shown apart." >> "$report"
echo >> "$report"
python3 bench/http_instructions.py "$bin/contrast" "$out/hello" 2000 | tee -a "$report"
cat bench/analysis.md >> "$report"
cp "$report" BENCHMARKS.md
echo "wrote BENCHMARKS.md"
