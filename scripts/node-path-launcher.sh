#!/bin/sh
# Emscripten 3.1.6's JS optimizer needs Debian's node-acorn (shared/TOOLCHAIN.md, pitfall 1).
NODE_PATH=/usr/share/nodejs exec "$@"
