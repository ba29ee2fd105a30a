// The bad-input corpus (tests/bad_inputs/*.json) through the shipped WebAssembly module: each case gets an error
// envelope with exactly its code and message, and the same module instance answers a good call afterwards.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dir = path.join(root, 'build/wasm-release/wasm');
const { default: create } = await import(path.join(dir, 'infercast.mjs'));
const mod = await create({ wasmBinary: fs.readFileSync(path.join(dir, 'infercast.wasm')) });
const corpus = path.join(root, 'tests/bad_inputs');

for (const f of fs.readdirSync(corpus).filter((x) => x.endsWith('.json')).sort()) {
  test(`bad inputs: ${f}`, () => {
    for (const c of JSON.parse(fs.readFileSync(path.join(corpus, f), 'utf8'))) {
      const env = JSON.parse(mod.call(c.function, c.request_text ?? JSON.stringify(c.request)));
      assert.equal(env.ok, false, c.name);
      assert.equal(env.error.code, c.code, c.name);
      assert.equal(env.error.message, c.message, c.name);
      const ok = JSON.parse(mod.call('analyze', JSON.stringify({ model: 'llama-3.2-1b', hardware: 'nvidia-h100-sxm' })));
      assert.equal(ok.ok, true, `the module answers after: ${c.name}`);
    }
  });
}
