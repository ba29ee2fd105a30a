#!/usr/bin/env bash
# Builds everything and runs every test (the README's second command; .ci/run calls it):
#   clang with ASan+UBSan (the fuzz preset): Catch2 unit/golden/invariant tests and CLI tests through ctest, and
#   the libFuzzer targets from the same build (one sanitizer build of the core, not two)
#   native release: the CLI the wasm tests compare against, and the benchmarks (built, not timed here)
#   the JSON Schemas (dist/schemas) and the Python wheel (dist/python), installed in a fresh virtual environment
#   and tested with pytest
#   wasm release: the module's API under node; the npm package (dist/npm) packed, installed and tested under node
#   the site in headless Chromium through playwright-core, served and offline (file://)
#   the adversarial cases' budgets on the wasm build, link decoding and the local server (tests/adversarial)
#   libFuzzer targets (ASan + UBSan), one per entry point, a bounded run (FUZZ_SECONDS per target, 10)
# The three builds compile the core in batches of 16 sources (INFERCAST_UNITY_BUILD, CMake's unity build): about
# half the CPU time of one file at a time, on every build of the core (docs/testing.md, "CI time").
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/setup.sh test
jobs=$(nproc 2>/dev/null || echo 2)
fails=0
# Each stage says when it starts, in seconds from the start, so a slow stage shows in any log.
step() { echo; echo "==> [$(( $(date +%s) - start )) s] $*"; }

fuzz_targets="fuzz_analyze fuzz_model fuzz_hardware fuzz_system fuzz_validate fuzz_calls fuzz_searches fuzz_checks fuzz_gguf fuzz_safetensors fuzz_measurements fuzz_cli"
step "Sanitizer build (clang, ASan + UBSan: the tests, the CLI and the fuzz targets)"
cmake --preset fuzz -DINFERCAST_UNITY_BUILD=ON >/dev/null
# shellcheck disable=SC2086
cmake --build --preset fuzz -j "$jobs" --target infercast_tests infercast $fuzz_targets
step "Native tests under ASan + UBSan (ctest --preset fuzz)"
if ctest --preset fuzz -j "$jobs" 2>&1 | tee build/fuzz/ctest.log; then :; else fails=$((fails+1)); fi

step "Native release build (CLI and benchmarks)"
cmake --preset native-release -DINFERCAST_UNITY_BUILD=ON >/dev/null
# The release tree's Catch2 binary is not needed here: the tests ran above, under the sanitizers.
cmake --build --preset native-release -j "$jobs" --target infercast infercast_bench infercast_bench_sweep infercast_bench_parallel infercast_bench_serving

step "JSON Schemas and the Python wheel"
python3=/usr/bin/python3  # Debian's, with pytest, jsonschema and pandas (a pyenv shim may come first on PATH)
"$python3" scripts/build-schemas.py --cli build/native-release/infercast
cmake --build --preset native-release --target python_wheel
step "Python package (the wheel in a fresh virtual environment, pytest)"
rm -rf build/python-venv
"$python3" -m venv --system-site-packages build/python-venv
build/python-venv/bin/pip install --no-index --quiet dist/python/infercast-*.whl
if (cd build && python-venv/bin/python -m pytest -q -p no:cacheprovider ../tests/python) 2>&1 | tee build/python-tests.log; then :; else fails=$((fails+1)); fi

step "WebAssembly build"
cmake --preset wasm-release -DINFERCAST_UNITY_BUILD=ON >/dev/null
cmake --build --preset wasm-release -j "$jobs"

step "Site build"
node scripts/build-site.mjs

step "WebAssembly module under node"
if node --test tests/wasm/*.test.mjs 2>&1 | tee build/wasm-tests.log; then :; else fails=$((fails+1)); fi

step "Adversarial cases (wasm budgets, link decoding, the local server)"
if node --test tests/adversarial/*.test.mjs 2>&1 | tee build/adversarial-tests.log; then :; else fails=$((fails+1)); fi

step "npm package (packed, installed in an empty project, node)"
node scripts/build-npm.mjs
if node --test tests/npm/*.test.mjs 2>&1 | tee build/npm-tests.log; then :; else fails=$((fails+1)); fi

step "Browser tests (headless Chromium)"
# Each file launches its own browser and serves the site on a free port, so files run in two lanes at once (node 18
# has no --test-concurrency), balanced by their test counts; the timing-sensitive ones (perf, serving) run after,
# alone. Each lane's log is kept, and all of them are gathered in build/browser-tests.log.
solo="tests/browser/perf.test.mjs tests/browser/serving.test.mjs"
lane1="" lane2="" n1=0 n2=0
for f in $(for f in tests/browser/*.test.mjs; do
             case " $solo " in *" $f "*) continue ;; esac
             echo "$(grep -c '^test(' "$f") $f"
           done | sort -rn | cut -d' ' -f2); do
  c=$(grep -c '^test(' "$f")
  if [ "$n1" -le "$n2" ]; then lane1="$lane1 $f"; n1=$((n1 + c)); else lane2="$lane2 $f"; n2=$((n2 + c)); fi
done
# (An if, not `node ...; echo $?`: under set -e a failing lane's subshell exited before it wrote its status.)
# shellcheck disable=SC2086
(if node --test $lane1 > build/browser-lane1.log 2>&1; then echo 0; else echo 1; fi > build/browser-lane1.rc) &
# shellcheck disable=SC2086
(if node --test $lane2 > build/browser-lane2.log 2>&1; then echo 0; else echo 1; fi > build/browser-lane2.rc) &
wait
# shellcheck disable=SC2086
if node --test $solo > build/browser-solo.log 2>&1; then echo 0 > build/browser-solo.rc; else echo 1 > build/browser-solo.rc; fi
cat build/browser-lane1.log build/browser-lane2.log build/browser-solo.log | tee build/browser-tests.log | grep -E '^(not ok|# (tests|pass|fail))' || true
for lane in lane1 lane2 solo; do
  if [ "$(cat "build/browser-$lane.rc")" != 0 ]; then fails=$((fails+1)); echo "browser tests ($lane) failed: build/browser-$lane.log"; fi
done

step "Fuzzing (libFuzzer, ASan + UBSan, ${FUZZ_SECONDS:-10} s per target)"
# An input may take 120 s (FUZZ_TIMEOUT): the searches' seed at serving's limits (a million clients and requests)
# takes 15 s alone under ASan, and libFuzzer runs an input a second time when it looks for a leak (the first calls
# fill lazily read presets), so two targets at once on 2 cores passed fuzz.sh's 30 s default (44 s in a CI run of stop 61).
if FUZZ_TIMEOUT="${FUZZ_TIMEOUT:-120}" scripts/fuzz.sh "${FUZZ_SECONDS:-10}" 2>&1 | tee build/fuzz.log; then :; else fails=$((fails+1)); fi

echo
echo "==> Finished in $(( $(date +%s) - start )) s"
if [ "$fails" -ne 0 ]; then
  echo "FAILED: $fails test stage(s) failed (see above)"
  exit 1
fi
echo "All test stages passed"
