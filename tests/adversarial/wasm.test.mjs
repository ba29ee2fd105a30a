// The adversarial cases (cases.json) through the shipped WebAssembly module (release build) under node: each gives
// exactly its error, or a finite result for a case marked ok, and the same module answers a good call afterwards.
// Every case is timed in CPU seconds (the call runs on this thread; CPU time does not grow when other work shares
// the machine, as wall time does); a case with a budget runs on a fresh module, and its time and the module's
// memory after the call (WebAssembly memory only grows) must stay within {seconds, mib}. Cases without one must
// answer within ERROR_SECONDS: the limits refuse before any work starts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { expand } from './expand.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dir = path.join(root, 'build/wasm-release/wasm');
const { default: create } = await import(path.join(dir, 'infercast.mjs'));
const wasmBinary = fs.readFileSync(path.join(dir, 'infercast.wasm'));
const cases = JSON.parse(fs.readFileSync(path.join(root, 'tests/adversarial/cases.json'), 'utf8'));
const ERROR_SECONDS = 2;

const finite = (v) => (typeof v === 'number' ? Number.isFinite(v) : v && typeof v === 'object' ? Object.values(v).every(finite) : true);
const MiB = 1 << 20;

function run(mod, c, input) {
  const arg = c.bytes ? input : input.toString('utf8');
  const t0 = process.cpuUsage();
  const text = c.bytes ? mod.callBytes(c.bytes, arg) : mod.call(c.call, arg);
  const t = process.cpuUsage(t0);
  return { env: JSON.parse(text), bytes: Buffer.byteLength(text), seconds: (t.user + t.system) / 1e6 };
}

const shared = await create({ wasmBinary });
for (const c of cases) {
  if (c.runners && !c.runners.includes('wasm')) continue;
  test(`adversarial: ${c.name}`, async () => {
    const input = expand(c.input);
    const mod = c.budget ? await create({ wasmBinary }) : shared;
    const { env, bytes, seconds } = run(mod, c, input);
    if (c.max_bytes) assert.ok(bytes <= c.max_bytes, `the reply is ${bytes} bytes; expected at most ${c.max_bytes}`);
    if (c.ok) {
      assert.equal(env.ok, true, JSON.stringify(env.error));
      assert.ok(finite(env.value), 'every number finite');
    } else {
      assert.equal(env.ok, false);
      assert.deepEqual(env.error, { code: c.code, path: c.path, message: c.message });
    }
    const limit = c.budget?.seconds ?? ERROR_SECONDS;
    assert.ok(seconds <= limit, `${seconds.toFixed(2)} s of CPU; expected at most ${limit} s`);
    if (c.budget) {
      const mib = mod.HEAP8.length / MiB;
      console.log(`  ${c.name}: ${seconds.toFixed(2)} s of CPU, ${mib.toFixed(0)} MiB of wasm memory`);
      assert.ok(mib <= c.budget.mib, `${mib.toFixed(0)} MiB of wasm memory; expected at most ${c.budget.mib}`);
    }
    const ok = JSON.parse(mod.call('analyze', JSON.stringify({ model: 'llama-3.2-1b', hardware: 'nvidia-h100-sxm' })));
    assert.equal(ok.ok, true, `the module answers after: ${c.name}`);
  });
}
