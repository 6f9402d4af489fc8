#!/usr/bin/env bash
# Builds every target with -require-explicit-sendable (in its own scratch path, so the normal
# build is untouched) and fails when the compiler lists a public type whose Sendable-ness is
# not stated, or any other warning: libmicrohttpd calls handlers on its own threads.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build --scratch-path .build-sendable -Xswiftc -require-explicit-sendable 2>&1 | tee "$log" | grep -E "warning:|error:" || true
if grep -qE "warning:|error:" "$log"; then
  echo "check-sendable: the build above has warnings; state each public type's Sendable conformance and fix them" >&2
  exit 1
fi
echo "check-sendable: no warnings with -require-explicit-sendable"
