#!/usr/bin/env bash
# Runs the libFuzzer targets with AddressSanitizer for a bounded time each, starting from the
# committed seed corpus: the color parser (fuzz-color), the palette decoder + audit
# (fuzz-palette), and the structure-aware stylesheet and token-document targets
# (fuzz-stylesheet, fuzz-tokens), whose inputs are choices that build a document, read and
# audited as `contrast audit` and `POST /v1/tokens` do: a rendering past 64 times the input
# (or 2 KiB a result), a read its budget stopped that still gave a palette, or a heap past the
# request's memory budget fails as a crash does (Sources/FuzzSupport/BoundedAudit.swift).
# Usage: scripts/fuzz.sh [seconds per target, default 300]
#          explores: a random seed, and an input that takes over 10 s is reported as a timeout.
#        scripts/fuzz.sh --runs N M S T
#          what `make test` runs: N inputs of fuzz-color, M of fuzz-palette (whose inputs
#          are each read four ways and audited, 50 times the cost), S of fuzz-stylesheet and T of
#          fuzz-tokens (each input read and audited twice and rendered four ways), from seed 1,
#          with Swift's hashing made deterministic, so every machine tries the same inputs and a
#          run that passed here passes in CI; only an input that takes over 120 s (a hang, not a
#          busy machine) fails it. New ground is found by the timed runs (`make fuzz`), not by CI.
#        FUZZ_TARGETS="stylesheet tokens" scripts/fuzz.sh …
#          runs only the targets named (default: all four).
#        FUZZ_TIMEOUT=60 scripts/fuzz.sh 600
#          a timed run whose timeout is 60 s (default 10): on a loaded machine, where a slow input
#          is the machine's and not the input's.
# A crash stops the run with exit 1; its input is saved under fuzz/crashes/ — commit it, and
# `make test` replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--runs" ]; then
  declare -A runs=([color]=${2:?--runs needs four counts} [palette]=${3:?--runs needs four counts}
                   [stylesheet]=${4:?--runs needs four counts} [tokens]=${5:?--runs needs four counts})
  export SWIFT_DETERMINISTIC_HASHING=1
else
  seconds=${1:-300}
fi
# Leaks in libraries, not in contrast, are listed (with their reasons) in scripts/lsan.supp.
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library
       -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld --scratch-path .build-fuzz)
for target in ${FUZZ_TARGETS:-color palette stylesheet tokens}; do
  swift build --product "fuzz-$target" "${flags[@]}" 2>&1 | grep -vE "Cannot export local symbol" | grep -E "error|warning: unre" || true
  binary=".build-fuzz/debug/fuzz-$target"
  [ -x "$binary" ] || { echo "fuzz: could not build $binary" >&2; exit 2; }
  work=$(mktemp -d)
  if [ -n "${seconds:-}" ]; then
    bound=(-max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}")
    what="${seconds}s"
  else
    bound=(-runs="${runs[$target]}" -seed=1 -timeout=120 -report_slow_units=120)
    what="${runs[$target]} inputs from seed 1"
  fi
  echo "fuzz-$target: $what from fuzz/corpus/$target"
  # A target's dictionary (fuzz/dict/TARGET.dict: the keys and syntax of its format), if any.
  dict=()
  [ -f "fuzz/dict/$target.dict" ] && dict=(-dict="fuzz/dict/$target.dict")
  # Every input that once crashed this target is run again with the corpus (libFuzzer reads the
  # work directory as corpus too): a fix that regresses fails here.
  for found in fuzz/crashes/"$target"-*; do [ -f "$found" ] && cp "$found" "$work/"; done
  if ! "$binary" "${bound[@]}" -max_len=4096 -rss_limit_mb=2048 "${dict[@]}" \
       -artifact_prefix=fuzz/crashes/"$target"- "$work" "fuzz/corpus/$target" > "$work.log" 2>&1; then
    tail -40 "$work.log" >&2
    # What a reader of CI's last lines needs to replay it: the failure's message, where the
    # input was saved, and the input itself (libFuzzer's Base64 line, for inputs it prints).
    echo "--- fuzz-$target: the failure, the input saved, and the input in base64:" >&2
    grep -m3 -E "Fatal error|Precondition failed|precondition|ERROR: |SUMMARY: " "$work.log" | cut -c1-600 >&2 || true
    grep -E "^(Test unit written to|artifact_prefix|Base64: )" "$work.log" | cut -c1-6000 >&2 || true
    echo "fuzz-$target found a crash: see fuzz/crashes/" >&2
    exit 1
  fi
  grep -E "^Done|stat::number_of_executed_units" "$work.log" | tail -1
  rm -rf "$work" "$work.log"
done
