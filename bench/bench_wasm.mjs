// Times the analyze call of the shipped wasm module under node (JSON round trip included), for the same
// scenarios as bench_analyze.cpp. Usage: node bench/bench_wasm.mjs [iterations]
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dir = path.join(root, 'build/wasm-release/wasm');
const { default: create } = await import(path.join(dir, 'infercast.mjs'));
const mod = await create({ wasmBinary: fs.readFileSync(path.join(dir, 'infercast.wasm')) });
const iters = Number(process.argv[2] || 300);
console.log('model            JSON call (us)');
for (const id of ['llama-3.1-8b', 'gemma-2-9b', 'llama-4-scout', 'deepseek-v3']) {
  const req = JSON.stringify({ model: id, hardware: 'nvidia-h100-sxm', workload: { batch: 8, prompt: 2048, gen: 32768 } });
  for (let i = 0; i < 20; i++) mod.call('analyze', req);
  const t0 = performance.now();
  for (let i = 0; i < iters; i++) mod.call('analyze', req);
  console.log(`${id.padEnd(16)} ${((1000 * (performance.now() - t0)) / iters).toFixed(1).padStart(14)}`);
}

// Design points per second through the sweep call (1,048,576 points, 5 parameters, 3 objectives), JSON included.
console.log('\nmodel            points    feasible  front  sweep call (Mpt/s)');
for (const id of ['llama-3.1-8b', 'qwen3-30b-a3b', 'deepseek-v3']) {
  const req = JSON.stringify({
    model: id, hardware: 'nvidia-h100-sxm', precision: { weights: 'int4' }, workload: { batch: 8, prompt: 2048, gen: 1024 },
    sram_bandwidth_GBps: 40000, objectives: ['tpot_s', 'power_W', 'usd_per_million_tokens'],
    axes: [{ param: 'compute_TFLOPS', min: 50, max: 5000, steps: 16 }, { param: 'bandwidth_GBps', min: 200, max: 16000, steps: 16 },
      { param: 'capacity_GB', min: 16, max: 1024, steps: 16 }, { param: 'sram_MB', values: [0, 64, 256, 1024] },
      { param: 'price_USD', min: 2000, max: 60000, steps: 64 }],
  });
  let best = Infinity;
  let v;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    v = JSON.parse(mod.call('sweep', req)).value;
    best = Math.min(best, performance.now() - t0);
  }
  console.log(`${id.padEnd(16)} ${String(v.points).padStart(7)} ${String(v.feasible).padStart(10)} ${String(v.front.length).padStart(6)} ${(v.points / best / 1e3).toFixed(2).padStart(19)}`);
}

// The deployment search through the deploy call (JSON included): configurations timed, and the seconds 10,000 of
// them take at this rate (the target: under 1 in Chromium on a laptop-class core).
console.log('\nmodel            system            configs  front  deploy call (ms)  s per 10,000 configs');
for (const [model, system] of [['llama-3.1-8b', 'dgx-h100'], ['llama-3.1-70b', '2x-hgx-h200-ib'], ['llama-3.1-70b', '4x-dgx-h100-ib']]) {
  const req = JSON.stringify({ model, system, serving: { isl: 2048, osl: 512 }, deploy: { max_ttft_ms: 2000, max_tpot_ms: 50 } });
  let best = Infinity;
  let v;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    v = JSON.parse(mod.call('deploy', req)).value;
    best = Math.min(best, performance.now() - t0);
  }
  console.log(`${model.padEnd(16)} ${system.padEnd(16)} ${String(v.evaluated).padStart(8)} ${String(v.front.length).padStart(6)} ${best.toFixed(1).padStart(17)} ${(best / 1000 / v.evaluated * 10000).toFixed(3).padStart(21)}`);
}
