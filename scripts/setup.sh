#!/usr/bin/env bash
# Installs what is missing, and nothing else: Debian packages (toolchain, Emscripten, json, Catch2, Chromium,
# clang with libFuzzer, node, and for the Python package pybind11, Python's headers, venv, pytest, jsonschema,
# pandas and matplotlib) and the npm packages pinned in package-lock.json. Safe to run again; a second run installs nothing.
# Usage: scripts/setup.sh [serve|test]   (serve skips Chromium and the test-only packages)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-test}"

need=()
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
for p in cmake ninja-build g++ emscripten nlohmann-json3-dev; do have "$p" || need+=("$p"); done
if [ "$mode" = test ]; then
  for p in catch2 chromium fonts-dejavu-core clang libclang-rt-14-dev pybind11-dev python3-dev python3-venv python3-pytest \
           python3-jsonschema python3-pandas python3-matplotlib; do have "$p" || need+=("$p"); done
fi
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)

if [ ${#need[@]} -gt 0 ]; then
  echo "==> Installing Debian packages: ${need[*]}"
  if [ "$(id -u)" -ne 0 ]; then echo "setup: run as root (or install: ${need[*]})" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "==> Debian packages: all present"
fi

if [ ! -d node_modules/uplot ] || [ ! -d node_modules/esbuild ] || { [ "$mode" = test ] && { [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/ajv ]; }; } \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "==> Installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund --loglevel=error
else
  echo "==> npm packages: all present"
fi
