// The npm package as a user gets it: dist/npm/infercast-*.tgz installed into an empty project (no network: the
// tarball has no dependencies), imported by `node -e` and by this test; the CLI's numbers, InfercastError with code
// and path, one method per function of the core, the types; and the JSON Schemas (ajv) against every preset,
// real requests and real results.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const cli = path.join(root, 'build/native-release/infercast');
const tarball = fs.readdirSync(path.join(root, 'dist/npm')).find((f) => /^infercast-.*\.tgz$/.test(f));
assert.ok(tarball, 'dist/npm/infercast-*.tgz: run scripts/build-npm.mjs');

const project = fs.mkdtempSync(path.join(os.tmpdir(), 'infercast-npm-'));
fs.writeFileSync(path.join(project, 'package.json'), '{"name": "user", "private": true, "type": "module"}\n');
execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', path.join(root, 'dist/npm', tarball)], { cwd: project });
const installed = path.join(project, 'node_modules/infercast');
const { load, InfercastError, connect, moduleTransport } = await import(path.join(installed, 'index.js'));
const core = await load();
const REQ = { model: 'llama-3.1-8b', hardware: 'nvidia-h100-sxm', workload: { batch: 8, prompt: 2048, gen: 512 } };
const cliJson = (...args) => JSON.parse(execFileSync(cli, args).toString());

test('the package imports in node -e and gives the CLI numbers exactly', () => {
  const script = "import('infercast').then(async ({ load }) => { const c = await load(); " +
    `console.log(JSON.stringify(c.analyze(${JSON.stringify(REQ)}))); })`;
  const fromNode = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: project }).toString());
  const native = cliJson('analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--batch', '8', '--prompt', '2048', '--gen', '512', '--format', 'json');
  assert.deepEqual(fromNode, native);
  assert.deepEqual(core.analyze(REQ), native);
  assert.ok(native.decode.tpot_s > 0);
  const pkg = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  assert.equal(pkg.version, JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version);
  assert.equal(native.version, pkg.version);
  assert.equal(native.schema_version, 2);
});

test('refused requests throw InfercastError with code and path', () => {
  assert.throws(() => core.analyze({ model: 'llama-3.1-8b', workload: { batch: 0 } }),
    (e) => e instanceof InfercastError && e.code === 'request.out_of_range' && e.path === '/workload/batch' && /\/workload\/batch/.test(e.message));
  assert.throws(() => core.call('no_such_function', {}), (e) => e instanceof InfercastError && e.code === 'api.unknown_function');
  assert.throws(() => core.gguf('text'), TypeError);
  assert.throws(() => core.gguf(new Uint8Array([1, 2, 3])), (e) => e instanceof InfercastError && e.code.startsWith('gguf.'));
  // NaN and the infinities reach the core as themselves and are refused by field, as the CLI refuses them; JSON's
  // null would have been read as an absent field and its default (found by an audit: prompt Infinity ran with 512).
  assert.throws(() => core.analyze({ model: 'llama-3.1-8b', workload: { prompt: Infinity } }),
    (e) => e instanceof InfercastError && e.path === '/workload/prompt' && /holds Infinity/.test(e.message));
  assert.throws(() => core.analyze({ model: 'llama-3.1-8b', workload: { batch: NaN } }),
    (e) => e instanceof InfercastError && e.path === '/workload/batch' && /holds NaN/.test(e.message));
  const env = core.envelope('analyze', { model: 7 });
  assert.equal(env.ok, false);
  assert.equal(env.error.path, '/model');
  assert.equal(env.schema_version, 2);
});

test('a file goes to the core cut to the bytes a header can use, as the CLI reads it', () => {
  // An audit passed 3 GB to the module: it exhausted the module's memory for good. At most 100,000,008 bytes go in.
  let seen = -1;
  const t = moduleTransport({ call: () => '{}', callBytes: (fn, b) => { seen = b.length; return '{"ok": true, "value": 1}'; } });
  t.envelopeBytes('gguf', new Uint8Array(100000008 + 4096));
  assert.equal(seen, 100000008);
  t.envelopeBytes('gguf', new Uint8Array(16));
  assert.equal(seen, 16);
});

test('load() takes wasmUrl as a file path in node, absolute or relative, as well as a file: URL', async () => {
  // An audit found a path (the type says string) fetched as a URL: "Failed to parse URL from /.../infercast.wasm".
  const wasm = path.join(installed, 'infercast.wasm');
  const want = core.analyze(REQ);
  for (const wasmUrl of [wasm, path.relative(process.cwd(), wasm), new URL(`file://${wasm}`), `file://${wasm}`]) {
    const c = await load({ wasmUrl });
    assert.deepEqual(c.analyze(REQ), want, String(wasmUrl));
  }
  // A path that names no file says which.
  await assert.rejects(load({ wasmUrl: path.join(project, 'no-such.wasm') }), /ENOENT.*no-such\.wasm/);
});

test('one method per function of the core, and the same over an asynchronous transport', async () => {
  const names = core.call('functions', {}).map((f) => f.name);
  assert.deepEqual(core.functionNames, names);
  for (const n of names) assert.equal(typeof core[n], 'function', n);
  const sync = moduleTransport({ call: () => JSON.stringify({ ok: true, schema_version: 1, version: '0', value: [{ name: 'models', input: 'json' }] }), callBytes: () => '' });
  const async = { envelope: async (fn, r) => sync.envelope(fn, r), envelopeBytes: async () => ({}) };
  const client = await connect(async);
  assert.deepEqual(client.functionNames, ['models']);
  assert.ok(client.models({}) instanceof Promise);
});

test('index.d.ts types every function with its request and result', () => {
  const dts = fs.readFileSync(path.join(installed, 'index.d.ts'), 'utf8');
  for (const n of core.functionNames) assert.match(dts, new RegExp(`\\n  ${n}\\((request|bytes)`), n);
  assert.match(dts, /analyze\(request\?: AnalyzeRequest\): AnalyzeResult;/);
  assert.match(dts, /analyze\(request\?: AnalyzeRequest\): Promise<AnalyzeResult>;/);
  assert.match(dts, /export type AnalyzeRequest = \{/);
  assert.match(dts, /export declare class InfercastError extends Error/);
  assert.match(dts, /batch\?: number;/);
});

// The schemas, as shipped in the package.
const schemaDir = path.join(installed, 'schemas');
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
for (const f of fs.readdirSync(schemaDir)) ajv.addSchema(JSON.parse(fs.readFileSync(path.join(schemaDir, f), 'utf8')));
const check = (ref, value) => {
  const v = ajv.getSchema(ref);
  assert.ok(v, `no schema ${ref}`);
  const ok = v(value);
  return ok ? null : ajv.errorsText(v.errors);
};
const presets = (dir) => fs.readdirSync(path.join(root, 'presets', dir)).filter((f) => f.endsWith('.json'))
  .map((f) => [f, JSON.parse(fs.readFileSync(path.join(root, 'presets', dir, f), 'utf8'))]);

test('every preset matches its schema', () => {
  for (const [f, d] of presets('models')) assert.equal(check('urn:infercast:schema:model-preset', d), null, f);
  for (const [f, d] of presets('hardware')) assert.equal(check('urn:infercast:schema:hardware', d), null, f);
  for (const [f, d] of presets('systems')) assert.equal(check('urn:infercast:schema:system#/$defs/preset', d), null, f);
  if (fs.existsSync(path.join(root, 'presets/runtimes'))) {
    for (const [f, d] of presets('runtimes')) assert.equal(check('urn:infercast:schema:runtime', d), null, f);
  }
  assert.notEqual(check('urn:infercast:schema:hardware', { ...presets('hardware')[0][1], memory_tiers: [] }), null);
});

const REQUESTS = JSON.parse(fs.readFileSync(path.join(root, 'tests/data/requests.json'), 'utf8'));

test('real requests match the request schemas and real results the result schemas', () => {
  let n = 0;
  for (const [fn, reqs] of Object.entries(REQUESTS.calls)) {
    for (const req of reqs) {
      assert.equal(check(`urn:infercast:schema:requests#/$defs/${fn}`, req), null, `${fn} request ${JSON.stringify(req)}`);
      const env = core.envelope(fn, req);
      assert.equal(env.ok, true, `${fn}: ${JSON.stringify(env.error)}`);
      assert.equal(check('urn:infercast:schema:envelope', env), null);
      assert.equal(check(`urn:infercast:schema:results#/$defs/${fn}`, env.value), null, `${fn} result of ${JSON.stringify(req)}`);
      n++;
    }
  }
  assert.ok(n >= 30, `${n} requests`);
  for (const f of core.functionNames) {
    assert.ok(ajv.getSchema(`urn:infercast:schema:requests#/$defs/${f}`), `no request schema for ${f}`);
    assert.ok(ajv.getSchema(`urn:infercast:schema:results#/$defs/${f}`), `no result schema for ${f}`);
  }
  const err = core.envelope('analyze', { model: 'llama-3.1-8b', workload: { batch: 0 } });
  assert.equal(check('urn:infercast:schema:envelope', err), null);
});

test('the request schemas refuse what the core refuses', () => {
  for (const [fn, req] of REQUESTS.refused) {
    assert.notEqual(check(`urn:infercast:schema:requests#/$defs/${fn}`, req), null, `${fn} ${JSON.stringify(req)} passed the schema`);
    assert.equal(core.envelope(fn, req).ok, false, `${fn} ${JSON.stringify(req)} passed the core`);
  }
});
