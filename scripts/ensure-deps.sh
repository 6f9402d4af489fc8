#!/usr/bin/env bash
# Installs what building and testing contrast needs, when it is missing, on Debian/Ubuntu.
# Usage: scripts/ensure-deps.sh [run|test]
set -euo pipefail

mode="${1:-run}"
missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists libmicrohttpd 2>/dev/null || missing+=(libmicrohttpd-dev)
if [ "$mode" = test ]; then
  command -v python3 >/dev/null 2>&1 || missing+=(python3 python3-pip)
fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "ensure-deps: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "ensure-deps: need root (or sudo) to install: ${missing[*]}" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ "$mode" = test ]; then
  # Python packages the integration tests use.
  if ! python3 -c 'import pytest' >/dev/null 2>&1; then
    echo "ensure-deps: installing pytest" >&2
    python3 -m pip install -q pytest
  fi
fi
