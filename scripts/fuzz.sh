#!/usr/bin/env bash
# Builds the libFuzzer targets (ASan + UBSan) and runs each for a bounded time on its corpus: the seeds kept in
# tests/fuzz/corpus/<target>/ (hand-made inputs and every past finding) plus seeds made here from the presets.
# Usage: scripts/fuzz.sh [seconds per target, default 20] [target ...] (default: every target). FUZZ_RUNS=N runs N
# inputs per target instead of a time (the long campaign: docs/testing.md). Prints the executions and rate per target;
# exits non-zero on any finding (the input is left in build/fuzz/findings/; make it a test and a corpus file).
# FUZZ_TIMEOUT=S: seconds one input may take before it counts as a finding (default 30; 300 beside other work, where
# a starved process can pass 30 s on an input that takes 1.5 s alone).
# FUZZ_MAX_LEN=N: the longest input libFuzzer makes (default 65536; inputs grow toward it and each run slows).
# FUZZ_CORPUS=DIR: a campaign (docs/testing.md, "The long fuzz campaign"): DIR/<target>/ is the corpus, kept from run
# to run (build/fuzz/corpus is made afresh each run), and DIR/runs/ keeps each run's log named after the code it
# ran (the last commit that changed core/, cli/, tests/fuzz/ or the build; uncommitted changes there make a run that
# counts for nothing). A run's summary gives the executions of every run kept on the same code with no finding: runs
# stopped at the end of a session count too, up to the last execution count they logged.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${1:-20}"
shift || true
ALL_TARGETS="analyze model hardware system validate calls searches checks gguf safetensors measurements cli"
TARGETS="${*:-$ALL_TARGETS}"
cmake --preset fuzz >/dev/null
# shellcheck disable=SC2086
cmake --build --preset fuzz --target $(for t in $TARGETS; do printf 'fuzz_%s ' "$t"; done)
out=build/fuzz
corpus="${FUZZ_CORPUS:-$out/corpus}"
rm -rf "$out/findings"
[ -n "${FUZZ_CORPUS:-}" ] || rm -rf "$corpus"
mkdir -p "$out/findings"
for t in $ALL_TARGETS; do
  mkdir -p "$corpus/$t"
  if [ -d "tests/fuzz/corpus/$t" ]; then cp -r "tests/fuzz/corpus/$t/." "$corpus/$t/"; fi
done
# `checks` reads the searches' inputs (a call's name, a line break, its request): their seeds are its seeds.
cp -r tests/fuzz/corpus/searches/. "$corpus/checks/"
# The code a campaign's runs must share to add up.
code=$(git log -1 --format=%h -- core cli tests/fuzz CMakeLists.txt cmake 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain -- core cli tests/fuzz CMakeLists.txt cmake 2>/dev/null)" ]; then code="uncommitted$(date +%s)"; fi
[ -z "${FUZZ_CORPUS:-}" ] || mkdir -p "$corpus/runs"
# Seeds: every model config, every hardware preset, requests that exercise every option, the measurements.
node -e '
const fs = require("fs"), path = require("path");
const out = process.argv[1];
const models = fs.readdirSync("presets/models").filter((f) => f.endsWith(".json"));
const hws = fs.readdirSync("presets/hardware").filter((f) => f.endsWith(".json"));
models.forEach((f, i) => {
  const d = JSON.parse(fs.readFileSync(path.join("presets/models", f), "utf8"));
  fs.writeFileSync(path.join(out, "model", f), JSON.stringify(d.config));
  const req = { model: d.id, hardware: hws[i % hws.length].replace(/\.json$/, ""),
    workload: i % 2 ? { batch: 1 + i, prompt: 100 * i + 1, gen: 7 * i + 1 } : { requests: [{ cached: 1000 * i, input: 1 + i, count: 2 }], gen: 3 },
    precision: { weights: ["bf16", "q4_0", "fp8", "mxfp4", "int4"][i % 5], activations: "bf16", kv: ["bf16", "fp8"][i % 2] },
    convention: ["infercast", "life", "no-causal"][i % 3], timing: ["per-op", "phase-max"][i % 2] };
  fs.writeFileSync(path.join(out, "analyze", f), JSON.stringify(req));
});
hws.forEach((f) => fs.copyFileSync(path.join("presets/hardware", f), path.join(out, "hardware", f)));
const csv = fs.readFileSync("presets/validation/measured_public.csv", "utf8").split("\n");
fs.writeFileSync(path.join(out, "validate", "all.csv"), csv.join("\n"));
// Safetensors headers of a few Llama-shaped layers (the length field is rewritten by the harness).
for (const [i, dt] of ["BF16", "F8_E4M3", "I32"].entries()) {
  const doc = { __metadata__: { format: "pt" } };
  let at = 0;
  const add = (name, dtype, shape) => { const b = shape.reduce((a, d) => a * d, 1) * ({ BF16: 2, F32: 4, I32: 4 }[dtype] || 1); doc[name] = { dtype, shape, data_offsets: [at, at + b] }; at += b; };
  add("model.embed_tokens.weight", "BF16", [256, 64]);
  for (let l = 0; l < 2; l++) {
    add(`model.layers.${l}.self_attn.q_proj.weight`, dt, [64, 64]); add(`model.layers.${l}.self_attn.k_proj.weight`, dt, [32, 64]);
    add(`model.layers.${l}.mlp.gate_proj.weight`, dt, [128, 64]); add(`model.layers.${l}.input_layernorm.weight`, "BF16", [64]);
  }
  const text = Buffer.from(JSON.stringify(doc));
  const len = Buffer.alloc(8); len.writeBigUInt64LE(BigInt(text.length));
  fs.writeFileSync(path.join(out, "safetensors", `st-${i}.safetensors`), Buffer.concat([len, text]));
}
fs.writeFileSync(path.join(out, "gguf", "gguf-magic"), Buffer.from("GGUF\x03\0\0\0\x01\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", "latin1"));
for (const f of fs.readdirSync("presets/systems").filter((f) => f.endsWith(".json"))) {
  const d = JSON.parse(fs.readFileSync(path.join("presets/systems", f), "utf8"));
  fs.writeFileSync(path.join(out, "system", f), JSON.stringify(d));
}
for (let k = 1; k < csv.length; k += 20) fs.writeFileSync(path.join(out, "validate", `rows-${k}.csv`), [csv[0], ...csv.slice(k, k + 3)].join("\n"));
' "$corpus"
# Targets run FUZZ_JOBS at a time (default: the cores), each on one core; the summaries print in the targets' order.
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
# Executions of a campaign's runs of target $1 on this code, none of which found anything: each run's final count, or
# the last count it logged (a run stopped with its session). libFuzzer also writes a slow input to a file ("Test unit
# written to ...slow-unit-..."); that is not a finding.
campaign_total() {
  local sum=0 n f
  for f in "$corpus/runs/$1-$code-"*.log; do
    [ -f "$f" ] || continue
    # A crash, a sanitizer's report, a timeout or running out of memory (a slow input's file is not a finding).
    if grep -qE 'SUMMARY: |deadly signal|Test unit written to [^ ]*(crash|timeout|oom|leak)-' "$f"; then echo "a finding in $f"; return; fi
    n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$f" | grep -o '[0-9]*$' || true)
    [ -n "$n" ] || n=$(grep -o '^#[0-9]*' "$f" | tail -1 | tr -d '#')
    sum=$((sum + ${n:-0}))
  done
  echo "$sum"
}
run_target() {
  local t="$1" log="$out/fuzz_$1.log" budget start secs runs rate
  if [ -n "${FUZZ_CORPUS:-}" ]; then log="$corpus/runs/$t-$code-$(date +%Y%m%dT%H%M%S).log"; fi
  if [ -n "${FUZZ_RUNS:-}" ]; then budget="-runs=$FUZZ_RUNS"; else budget="-max_total_time=$SECONDS_PER_TARGET"; fi
  start=$(date +%s)
  if ! "$out/tests/fuzz/fuzz_$t" "$corpus/$t" "$budget" -timeout="${FUZZ_TIMEOUT:-30}" -rss_limit_mb=2048 \
       -max_len="${FUZZ_MAX_LEN:-65536}" -print_final_stats=1 -artifact_prefix="$out/findings/$t-" >"$log" 2>&1; then
    # A run stopped with SIGINT (a campaign's run ended by hand) exits non-zero too: it found nothing.
    if grep -q 'libFuzzer: run interrupted' "$log" && ! grep -qE 'SUMMARY: |deadly signal' "$log"; then
      echo "fuzz_$t: stopped by hand, no finding" >"$out/fuzz_$t.summary"
      echo 0 >"$out/fuzz_$t.status"
    else
      { echo "fuzz_$t: FINDING (see $log and $out/findings/)"; tail -30 "$log"; } >"$out/fuzz_$t.summary"
      echo 1 >"$out/fuzz_$t.status"
    fi
  else
    echo 0 >"$out/fuzz_$t.status"
  fi
  secs=$(( $(date +%s) - start ))
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  echo "fuzz_$t: $runs executions in $secs s ($rate/s)" >>"$out/fuzz_$t.summary"
  if [ -n "${FUZZ_CORPUS:-}" ]; then echo "fuzz_$t: the campaign in $corpus on $code: $(campaign_total "$t") executions" >>"$out/fuzz_$t.summary"; fi
}
running=0
for t in $TARGETS; do
  rm -f "$out/fuzz_$t.summary" "$out/fuzz_$t.status"
  run_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
status=0
for t in $TARGETS; do
  cat "$out/fuzz_$t.summary"
  if [ "$(cat "$out/fuzz_$t.status" 2>/dev/null || echo 1)" != 0 ]; then status=1; fi
done
exit $status
