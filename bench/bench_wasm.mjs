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
