// The shipped web build of the module, exercised under node: envelopes, errors, recovery after errors, and
// the same numbers as the native CLI for the same scenario.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { placeColumns, rows } from '../../npm/client.js';
import { mergeSweeps } from '../../site/src/dsemerge.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dir = path.join(root, 'build/wasm-release/wasm');
const { default: create } = await import(path.join(dir, 'infercast.mjs'));
const mod = await create({ wasmBinary: fs.readFileSync(path.join(dir, 'infercast.wasm')) });
const call = (fn, req) => JSON.parse(mod.call(fn, typeof req === 'string' ? req : JSON.stringify(req)));

test('version and presets', () => {
  const v = call('version', {});
  assert.equal(v.ok, true);
  assert.match(v.value.version, /^\d+\.\d+\.\d+$/);
  const models = call('models', {});
  assert.equal(models.ok, true);
  assert.ok(models.value.length >= 26);
  const llama = models.value.find((m) => m.id === 'llama-2-7b');
  assert.equal(llama.params_total, 6738415616);
  const hw = call('hardware', {});
  assert.ok(hw.value.some((h) => h.id === 'nvidia-h100-sxm'));
});

test('analyze returns the documented fields', () => {
  const r = call('analyze', { model: 'llama-3.1-8b', hardware: 'nvidia-h100-sxm', workload: { batch: 2, prompt: 1000, gen: 100 } });
  assert.equal(r.ok, true);
  const v = r.value;
  for (const k of ['params_total', 'params_active']) assert.equal(typeof v.model[k], 'number');
  for (const k of ['weights_bytes', 'kv_cache_bytes']) assert.ok(v.memory[k] > 0);
  assert.ok(v.prefill.flops > 0 && v.prefill.time_s > 0);
  assert.ok(v.decode.flops_per_token > 0);
  for (const k of ['tpot_s', 'tpot_first_s', 'tpot_last_s', 'tokens_per_s', 'batch_tokens_per_s']) assert.ok(v.decode[k] > 0, k);
  assert.equal(v.memory.fits, true);
  assert.ok(v.decode.tpot_last_s > v.decode.tpot_first_s);
  const op = v.ops.find((o) => o.name === 'q_proj' && o.phase === 'prefill');
  assert.equal(op.flops, 32 * 2 * 2000 * 4096 * 4096);
  for (const k of ['count', 'weight_bytes', 'act_read_bytes', 'act_write_bytes', 'kv_read_bytes', 'kv_write_bytes', 'intensity_flop_per_byte', 'time_s']) {
    assert.equal(typeof op[k], 'number', k);
  }
  assert.ok(['compute', 'memory', 'dispatch'].includes(op.bound));
});

test('errors come back as envelopes and the module keeps working', () => {
  let r = call('analyze', '{not json');
  assert.equal(r.ok, false);
  assert.equal(r.error.code, 'request.malformed_json');
  r = call('analyze', { model: { model_type: 'llama', hidden_size: -3 } });
  assert.deepEqual(r.error, { code: 'model.out_of_range', path: '/model/hidden_size', message: '/model/hidden_size holds -3; expected a positive integer' });
  r = call('analyze', { model: 'llama-3.1-8b', workload: { prompt: 1e15 } });
  assert.equal(r.error.message, '/workload/prompt holds 1000000000000000; expected an integer from 1 to 1000000000');
  r = call('nope', {});
  assert.equal(r.error.code, 'api.unknown_function');
  for (let i = 0; i < 50; i++) assert.equal(call('analyze', { model: { model_type: 'x' } }).ok, false);
  assert.equal(call('analyze', { model: 'mixtral-8x7b' }).ok, true);
});

test('same numbers as the native CLI', { skip: !fs.existsSync(path.join(root, 'build/native-release/infercast')) }, () => {
  const args = ['analyze', '--model', 'deepseek-v3', '--hardware', 'nvidia-h200-sxm', '--batch', '4', '--prompt', '3000', '--gen', '500', '--format', 'json'];
  const native = JSON.parse(execFileSync(path.join(root, 'build/native-release/infercast'), args, { encoding: 'utf8' }));
  const wasm = call('analyze', { model: 'deepseek-v3', hardware: 'nvidia-h200-sxm', workload: { batch: 4, prompt: 3000, gen: 500 } }).value;
  assert.equal(wasm.model.params_total, native.model.params_total);
  for (const [phase, key] of [['prefill', 'flops'], ['prefill', 'time_s'], ['decode', 'tpot_s'], ['decode', 'flops_per_token']]) {
    assert.ok(Math.abs(wasm[phase][key] / native[phase][key] - 1) < 1e-12, `${phase}.${key}: ${wasm[phase][key]} vs ${native[phase][key]}`);
  }
  assert.equal(wasm.ops.length, native.ops.length);
});

test('validate and calibrate run in the module and agree with the native CLI', () => {
  const v = call('validate', {});
  assert.equal(v.ok, true);
  const native = JSON.parse(execFileSync(path.join(root, 'build/native-release/infercast'), ['validate', '--format', 'json'],
    { maxBuffer: 64 << 20 }).toString());
  // prefill, decode, e2e and the serving groups (docs/serving.md, "Validation"): the module and the CLI agree on each.
  assert.equal(v.value.groups.length, 8);
  for (let i = 0; i < 8; ++i) assert.ok(Math.abs(v.value.groups[i].median_abs_error - native.groups[i].median_abs_error) < 1e-9, v.value.groups[i].name);
  assert.ok(v.value.groups[1].median_abs_error <= 0.15);
  const c = call('calibrate', {
    hardware: 'apple-m2-ultra', model: 'llama-2-7b', fit: ['memory', 'dispatch_us'],
    points: [
      { metric: 'output_tokens_per_s', value: 41.02, workload: { prompt: 1, gen: 128 }, precision: { weights: 'fp16', activations: 'fp16', kv: 'fp16' } },
      { metric: 'output_tokens_per_s', value: 94.27, workload: { prompt: 1, gen: 128 }, precision: { weights: 'q4_0', activations: 'fp16', kv: 'fp16' } },
    ],
  });
  assert.equal(c.ok, true);
  assert.ok(c.value.rms_log_error_after < 0.01);
  const bad = call('calibrate', { hardware: 'apple-m2-ultra', points: [] });
  assert.equal(bad.ok, false);
  assert.equal(bad.error.message, '/points holds an array of 0; expected a non-empty array of objects');
  assert.equal(call('version', {}).ok, true);  // still usable after the error
});

test('columns: callColumns gives the rows\' numbers as Float64Arrays, exactly', () => {
  const req = { model: 'gemma-2-9b', hardware: 'nvidia-h100-sxm', workload: { batch: 4, prompt: 3000, gen: 2000 } };
  const byRows = call('analyze', req).value;
  const { text, columns } = mod.callColumns('analyze', JSON.stringify({ ...req, layout: 'columns' }));
  assert.ok(columns instanceof Float64Array && columns.length > 1000);
  const env = JSON.parse(text);
  assert.equal(env.value.ops.flops, null);  // in the buffer, not in the text
  // String columns: their distinct strings in the text (first appearance first), each row's index in the buffer.
  assert.deepEqual(env.value.ops.phase, ['prefill', 'decode']);
  assert.deepEqual(env.columns.filter((c) => c[3] === 'strings').map((c) => c[0].split('/').pop()),
    ['name', 'phase', 'group', 'class', 'compute_type', 'device', 'bound', 'compute_type_used']);
  const byColumns = placeColumns(env, columns).value;
  assert.equal(env.columns, undefined);
  assert.ok(byColumns.ops.flops instanceof Float64Array);
  assert.deepEqual(rows(byColumns.ops), byRows.ops.map((o) => ({ ...o, count: o.count })));
  assert.deepEqual(rows(byColumns.decode.timeline), byRows.decode.timeline);
  assert.equal(byRows.workload.requests, undefined);
  assert.deepEqual(call('analyze', { ...req, echo_requests: true }).value.workload.requests, [{ cached: 0, input: 3000, count: 4 }]);
});

// Keys with "/" and "~" travel escaped in a column's pointer (RFC 6901); each reply is placed afresh though the
// pointers' keys are kept from call to call.
test('columns: placeColumns unescapes pointers and places every reply, the same pointers twice', () => {
  for (let k = 0; k < 2; k++) {
    const env = { ok: true, value: { 'a/b': { 'c~d': null, s: ['x', 'y'] } },
      columns: [['/value/a~1b/c~0d', 1, 2], ['/value/a~1b/s', 3, 3, 'strings']] };
    const v = placeColumns(env, new Float64Array([9, 1.5, 2.5 + k, 1, 0, 1])).value;
    assert.deepEqual([...v['a/b']['c~d']], [1.5, 2.5 + k]);
    assert.deepEqual(v['a/b'].s, ['y', 'x', 'y']);
    assert.equal(env.columns, undefined);
  }
  // The empty pointer names the document: its column lands at the key "", as it always did.
  assert.deepEqual([...placeColumns({ ok: true, columns: [['', 0, 2]] }, new Float64Array([1, 2]))['']], [1, 2]);
});

test('a sweep split into parts merges (the page\'s dsemerge.js) into exactly the whole', () => {
  const lean = (r) => {
    const { text, columns } = mod.callColumns('sweep', JSON.stringify(r));
    return placeColumns(JSON.parse(text), columns).value;
  };
  const req = { model: 'qwen3-30b-a3b', hardware: 'nvidia-h100-sxm', objectives: ['tpot_s', 'price_USD', 'power_W', 'tokens_per_s'],
    layout: 'columns', keep_points: 3000,
    axes: [{ param: 'compute_TFLOPS', min: 50, max: 5000, steps: 24 }, { param: 'price_USD', min: 2000, max: 60000, steps: 7 },
      { param: 'bandwidth_GBps', min: 200, max: 16000, steps: 31 }, { param: 'capacity_GB', min: 16, max: 1024, steps: 9 }] };
  const whole = lean(req);
  assert.ok(whole.front.length > 20 && whole.sample.count > 1000);
  for (const of of [2, 3, 5]) {
    const parts = Array.from({ length: of }, (_, index) => lean({ ...req, part: { index, of } }));
    assert.equal(parts.reduce((n, p) => n + p.evaluated, 0), whole.points);
    const merged = mergeSweeps(parts, req.keep_points);
    assert.deepEqual(merged.front, whole.front);
    assert.equal(merged.feasible, whole.feasible);
    assert.deepEqual([...merged.sample.id], [...whole.sample.id]);
    for (const k of Object.keys(whole.sample.objectives)) assert.deepEqual([...merged.sample.objectives[k]], [...whole.sample.objectives[k]], k);
    for (const k of Object.keys(whole.sample.params)) assert.deepEqual([...merged.sample.params[k]], [...whole.sample.params[k]], k);
    assert.equal(merged.sample.count, whole.sample.count);
  }
});
