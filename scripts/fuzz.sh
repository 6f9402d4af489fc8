#!/usr/bin/env bash
# Runs the libFuzzer targets (the color parser and the palette decoder + audit) with
# AddressSanitizer for a bounded time each, starting from the committed seed corpus.
# Usage: scripts/fuzz.sh [seconds per target, default 300]
# A crash stops the run with exit 1; its input is saved under fuzz/crashes/ — commit it, and
# `make test` replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
# Leaks in libraries, not in contrast, are listed (with their reasons) in scripts/lsan.supp.
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library
       -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld --scratch-path .build-fuzz)
for target in color palette; do
  swift build --product "fuzz-$target" "${flags[@]}" 2>&1 | grep -vE "Cannot export local symbol" | grep -E "error|warning: unre" || true
  binary=".build-fuzz/debug/fuzz-$target"
  [ -x "$binary" ] || { echo "fuzz: could not build $binary" >&2; exit 2; }
  work=$(mktemp -d)
  echo "fuzz-$target: ${seconds}s from fuzz/corpus/$target"
  # A target's dictionary (fuzz/dict/TARGET.dict: the keys and syntax of its format), if any.
  dict=()
  [ -f "fuzz/dict/$target.dict" ] && dict=(-dict="fuzz/dict/$target.dict")
  if ! "$binary" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 "${dict[@]}" \
       -artifact_prefix=fuzz/crashes/"$target"- "$work" "fuzz/corpus/$target" > "$work.log" 2>&1; then
    tail -40 "$work.log" >&2
    echo "fuzz-$target found a crash: see fuzz/crashes/" >&2
    exit 1
  fi
  grep -E "^Done|stat::number_of_executed_units" "$work.log" | tail -1
  rm -rf "$work" "$work.log"
done
