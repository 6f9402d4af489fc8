#!/bin/bash
# Compares the answers of two builds of contrast, byte for byte: the audit JSON and Markdown of
# palettes/ and of every real system under ../shared/realworld* (skipped when absent), a palette
# of distinct groups made from Peptide Fox, and POST /v1/audit's compact answers. A speed change
# must leave every one of them the same.
#
#   bench/answers_ab.sh OLD_CONTRAST NEW_CONTRAST
#
# Prints one line per difference and a count; exits 1 when any answer differs.
set -u
old=$1 new=$2
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a" "$work/b"

# Every token of each theme against every other as a distinct group, under the audited
# deficiencies and under others with another threshold; two translucent members, with a
# backdrop (many.json) and without (nobackdrop.json).
python3 - "$here/palettes/peptide-fox.json" "$work" <<'PY'
import copy, json, sys
palette = json.load(open(sys.argv[1]))
names = list(next(iter(palette["themes"].values()))["tokens"].keys())
for theme in palette["themes"].values():
    theme["tokens"]["overlay.a"] = {"$type": "color", "$value": "rgb(220 38 38 / 0.5)"}
    theme["tokens"]["overlay.b"] = {"$type": "color", "$value": "#16a34a80"}
    theme["backdrop"] = names[0]
palette["checks"] += [
    {"id": "all-default", "distinct": ["*"]},
    {"id": "custom", "distinct": ["*"], "threshold": 20, "deficiencies": ["protanomaly", "tritanopia", "achromatopsia"]},
    {"id": "overlays", "distinct": ["overlay.*", names[1]], "threshold": 3},
]
json.dump(palette, open(sys.argv[2] + "/many.json", "w"), indent=1)
for theme in palette["themes"].values():
    del theme["backdrop"]
json.dump(palette, open(sys.argv[2] + "/nobackdrop.json", "w"), indent=1)
PY

targets=("$here/palettes" "$here"/palettes/*.json "$work/many.json" "$work/nobackdrop.json")
for dir in "$here"/../shared/realworld/* "$here"/../shared/realworld2/* "$here"/../shared/realworld3/figma/*; do
  [ -d "$dir" ] && targets+=("$dir")
done
compared=0 differ=0
for target in "${targets[@]}"; do
  for format in json markdown; do
    name=$(echo "$target.$format" | tr '/' '_')
    (cd "$here" && "$old" audit "$target" --format "$format" > "$work/a/$name" 2>&1; echo "exit $?" >> "$work/a/$name")
    (cd "$here" && "$new" audit "$target" --format "$format" > "$work/b/$name" 2>&1; echo "exit $?" >> "$work/b/$name")
    compared=$((compared + 1))
    cmp -s "$work/a/$name" "$work/b/$name" || { differ=$((differ + 1)); echo "differs: contrast audit $target --format $format"; }
  done
done

# The service's compact answers.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
for side in a b; do
  binary=$old; [ "$side" = b ] && binary=$new
  port=$(free_port)
  (cd "$here" && exec "$binary" serve --port "$port" --palettes palettes > "$work/serve-$side.log" 2>&1) &
  server=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.1; done
  for body in "$here/palettes/peptide-fox.json" "$work/many.json" "$work/nobackdrop.json"; do
    for query in "" "?suggestions=none"; do
      curl -s -H 'Content-Type: application/json' --data-binary @"$body" "http://127.0.0.1:$port/v1/audit$query" \
        > "$work/$side/post_$(basename "$body")$(echo "$query" | tr -dc a-z)"
    done
  done
  kill "$server"; wait "$server" 2> /dev/null
done
for answer in "$work"/a/post_*; do
  compared=$((compared + 1))
  cmp -s "$answer" "$work/b/$(basename "$answer")" || { differ=$((differ + 1)); echo "differs: POST /v1/audit $(basename "$answer")"; }
done
echo "$compared answers compared, $differ differ"
[ "$differ" = 0 ]
