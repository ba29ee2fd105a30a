// The shipped wasm module under node: what a call costs against the core's own forecast (analyzeRepeat runs the
// analysis alone), as text (call + JSON.parse) and lean (callColumns: number columns as one Float64Array); the
// first call of a fresh module; ragged batches of 1,024, 8,192 and 16,384 requests; sweeps in points per second on one
// worker and split across two (worker_threads). Ratios are printed so a regression shows on any machine.
// Usage: node bench/bench_wasm.mjs [iterations]
import fs from 'node:fs';
import path from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { placeColumns } from '../npm/client.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dir = path.join(root, 'build/wasm-release/wasm');
const { default: create } = await import(path.join(dir, 'infercast.mjs'));
const wasmBinary = fs.readFileSync(path.join(dir, 'infercast.wasm'));

const SWEEP = (id) => ({
  model: id, hardware: 'nvidia-h100-sxm', precision: { weights: 'int4' }, workload: { batch: 8, prompt: 2048, gen: 1024 },
  sram_bandwidth_GBps: 40000, objectives: ['tpot_s', 'power_W', 'usd_per_million_tokens'], layout: 'columns',
  axes: [{ param: 'compute_TFLOPS', min: 50, max: 5000, steps: 16 }, { param: 'bandwidth_GBps', min: 200, max: 16000, steps: 16 },
    { param: 'capacity_GB', min: 16, max: 1024, steps: 16 }, { param: 'sram_MB', values: [0, 64, 256, 1024] },
    { param: 'price_USD', min: 2000, max: 60000, steps: 64 }],
});

// Requests go in as UTF-8 bytes, as the npm client sends them.
const encoder = new TextEncoder();
const bytes = (req) => encoder.encode(typeof req === 'string' ? req : JSON.stringify(req));
const lean = (mod, fn, req) => {
  const { text, columns } = mod.callColumns(fn, bytes(req));
  return placeColumns(JSON.parse(text), columns);
};

if (!isMainThread) {
  // A sweep worker: one part of the grid, timed inside the worker, four times: the first run is the engine's
  // baseline code (it compiles the hot functions optimized while it runs), the best of the next three its optimized
  // code. Timing only the first run measured the compilers, not the split: 1.2-1.5x for two workers where the
  // optimized runs give 1.9-2.1x.
  const mod = await create({ wasmBinary });
  const { req } = workerData;
  lean(mod, 'sweep', { ...req, axes: req.axes.slice(0, 1).map((a) => ({ ...a, steps: 2 })) });  // its code loaded
  const ms = [];
  let v;
  for (let k = 0; k < 4; k++) {
    const t0 = performance.now();
    v = lean(mod, 'sweep', req).value;
    ms.push(performance.now() - t0);
  }
  parentPort.postMessage({ first: ms[0], ms: Math.min(...ms.slice(1)), evaluated: v.evaluated });
} else {
  const iters = Number(process.argv[2] || 300);
  // Milliseconds of this process's CPU time per call (on a shared machine wall time counts others' work too).
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const time = (n, f) => {
    f();
    const t0 = cpu();
    for (let i = 0; i < n; i++) f();
    return (cpu() - t0) / n;
  };

  const t0 = cpu();
  const mod = await create({ wasmBinary });
  const t1 = cpu();
  const first = JSON.parse(mod.call('analyze', JSON.stringify({ model: 'llama-3.1-8b', hardware: 'nvidia-h100-sxm' })));
  const t2 = cpu();
  console.log(`fresh module: instantiate ${(t1 - t0).toFixed(1)} ms, first analyze ${(t2 - t1).toFixed(1)} ms (its presets read, its code compiled), then ` +
    `${time(20, () => mod.call('analyze', JSON.stringify({ model: 'llama-3.1-8b', hardware: 'nvidia-h100-sxm' }))).toFixed(2)} ms${first.ok ? '' : ' FAILED'}`);

  // The engine compiles hot code optimized only after it has run a while: every call below is run first.
  for (let i = 0; i < 150; i++) {
    for (const id of ['llama-3.1-8b', 'gemma-2-9b', 'llama-4-scout', 'deepseek-v3']) {
      const text = JSON.stringify({ model: id, hardware: 'nvidia-h100-sxm', layout: 'columns', workload: { batch: 8, prompt: 2048, gen: 32768 } });
      mod.analyzeRepeat(text, 1);
      JSON.parse(mod.call('analyze', text));
      mod.callColumns('analyze', text);
    }
  }
  console.log('\nOne analysis (batch 8, prompt 2048, 32k generated), wasm, per call (after 150 warm-up calls each)');
  // The lean call's two parts: the module's callColumns (the C++ call, the text decoded, the buffer copied out) and
  // JavaScript's JSON.parse and placeColumns of its reply.
  console.log('model            core (us)  JSON call (us)   ratio  lean call (us)   ratio  of which: module (us)  parse+place (us)');
  for (const id of ['llama-3.1-8b', 'gemma-2-9b', 'llama-4-scout', 'deepseek-v3']) {
    const req = { model: id, hardware: 'nvidia-h100-sxm', workload: { batch: 8, prompt: 2048, gen: 32768 } };
    const text = JSON.stringify(req);
    const core = (time(3, () => mod.analyzeRepeat(text, iters + 1)) - time(3, () => mod.analyzeRepeat(text, 1))) / iters;
    const json = time(iters, () => JSON.parse(mod.call('analyze', bytes(text))));
    const cols = time(iters, () => lean(mod, 'analyze', { ...req, layout: 'columns' }));
    const leanBytes = bytes({ ...req, layout: 'columns' });
    const inModule = time(iters, () => mod.callColumns('analyze', leanBytes));
    const reply = mod.callColumns('analyze', leanBytes);
    const place = time(iters, () => placeColumns(JSON.parse(reply.text), reply.columns));
    console.log(`${id.padEnd(16)} ${(1000 * core).toFixed(1).padStart(9)} ${(1000 * json).toFixed(1).padStart(15)} ${(json / core).toFixed(2).padStart(6)}x ` +
      `${(1000 * cols).toFixed(1).padStart(15)} ${(cols / core).toFixed(2).padStart(6)}x ${(1000 * inModule).toFixed(1).padStart(22)} ${(1000 * place).toFixed(1).padStart(17)}`);
  }

  // A request holds at most 10,000 entries and its work estimate counts each interval once per entry (docs/schema.md,
  // "Limits"): a batch the call refuses is marked so, never timed as if it had run.
  console.log('\nRagged batches of distinct requests (H100), wasm, per call (JSON included)');
  console.log('model            gen requests   call (ms)  n / 1024');
  for (const [id, gen, maxCtx] of [['gemma-2-9b', 128, 8192], ['llama-4-scout', 32768, 16384]]) {
    let base = 0;
    for (const n of [1024, 8192, 16384]) {
      let s = 12345n;
      const requests = [];
      for (let i = 0; i < n; i++) {
        s = (s * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
        requests.push({ cached: Number((s >> 33n) % BigInt(maxCtx)), input: 1 + Number((s >> 13n) % 512n) });
      }
      const text = JSON.stringify({ model: id, hardware: 'nvidia-h100-sxm', workload: { gen, requests } });
      const first = JSON.parse(mod.call('analyze', bytes(text)));
      if (!first.ok) {
        console.log(`${id.padEnd(16)} ${String(gen).padStart(5)} ${String(n).padStart(8)} ${'refused'.padStart(11)}  (${first.error.code})`);
        continue;
      }
      const ms = time(n > 4096 ? 2 : 5, () => JSON.parse(mod.call('analyze', bytes(text))));
      if (n === 1024) base = ms;
      console.log(`${id.padEnd(16)} ${String(gen).padStart(5)} ${String(n).padStart(8)} ${ms.toFixed(2).padStart(11)} ${(ms / base).toFixed(2).padStart(12)}x`);
    }
  }

  console.log('\nSweeps (1,048,576 points, 5 parameters, 3 objectives), wasm, callColumns, Mpt/s');
  console.log('model            points  feasible  front  1 worker (CPU)  1 worker (wall)  2 workers (wall)  speed-up  first runs');
  for (const id of ['llama-3.1-8b', 'qwen3-30b-a3b', 'deepseek-v3']) {
    const req = SWEEP(id);
    let v;
    const ms = Math.min(...[0, 1, 2].map(() => {
      const t = cpu();
      v = lean(mod, 'sweep', req).value;
      return cpu() - t;
    }));
    const run = (of) => Promise.all(Array.from({ length: of }, (_, index) => new Promise((resolve, reject) => {
      const w = new Worker(new URL(import.meta.url), { workerData: { req: { ...req, part: { index, of } } } });
      w.on('message', resolve);
      w.on('error', reject);
    })));
    const ones = await run(1), twos = await run(2);
    const one = Math.max(...ones.map((r) => r.ms)), two = Math.max(...twos.map((r) => r.ms));
    const firstSpeedup = Math.max(...ones.map((r) => r.first)) / Math.max(...twos.map((r) => r.first));
    console.log(`${id.padEnd(16)} ${String(v.points).padStart(7)} ${String(v.feasible).padStart(9)} ${String(v.front.length).padStart(6)} ` +
      `${(v.points / ms / 1e3).toFixed(2).padStart(15)} ${(v.points / one / 1e3).toFixed(2).padStart(16)} ${(v.points / two / 1e3).toFixed(2).padStart(17)} ${(one / two).toFixed(2).padStart(8)}x ${firstSpeedup.toFixed(2).padStart(10)}x`);
  }
  console.log('\n(Times are CPU time of this process except the workers\' wall time, the slower worker\'s, best of three runs after a\nfirst one; "first runs" is the speed-up of those first runs, the engine still compiling. On a machine whose other\ncores are busy the speed-up is lower.)');

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
}
