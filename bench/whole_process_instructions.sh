#!/usr/bin/env bash
# Instructions of whole processes under callgrind, for two builds side by side:
#   bash bench/whole_process_instructions.sh OLD_CONTRAST NEW_CONTRAST
# A batch of 5,000 random hex lines (seeded; per line, minus an empty file) and the audits of
# a few real systems (skipped when ../shared is absent) and of palettes/. Counts do not move
# with the machine's load, so two builds can be compared on a busy machine.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, random, sys
random.seed(7)
with open(sys.argv[1] + "/hex5000.jsonl", "w") as f:
    for _ in range(5000):
        f.write(json.dumps({"foreground": "#%06x" % random.randrange(1 << 24), "background": "#%06x" % random.randrange(1 << 24)}) + "\n")
open(sys.argv[1] + "/empty.jsonl", "w").close()
PY
ir() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out.%p" "$@" >/dev/null 2>"$work/err.txt" || true
    grep -o "Collected : [0-9]*" "$work/err.txt" | awk '{print $3}'
    rm -f "$work"/out.*
}
for bin in "$@"; do
    b=$(ir "$bin" check --batch "$work/hex5000.jsonl"); e=$(ir "$bin" check --batch "$work/empty.jsonl")
    echo "$bin: check --batch, instructions per hex line: $(( (b - e) / 5000 ))"
    for system in ../shared/realworld2/shadcn ../shared/realworld/tailwind palettes; do
        [ -d "$system" ] || continue
        echo "$bin: audit $system --format json: $(ir "$bin" audit "$system" --format json) instructions"
    done
done
