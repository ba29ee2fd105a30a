#!/usr/bin/env bash
# Builds the WebAssembly core and the site, then serves it on http://127.0.0.1:8000 (the README's first command).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh serve
echo "==> Building the WebAssembly core (cmake --preset wasm-release)"
cmake --preset wasm-release >/dev/null
cmake --build --preset wasm-release
echo "==> Building the site"
node scripts/build-site.mjs
echo "==> Serving"
exec node scripts/serve.mjs dist/site "${PORT:-8000}"
