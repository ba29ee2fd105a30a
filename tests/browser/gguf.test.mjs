// Dropping a GGUF file: the page reads only its header in the browser (a file written here in llama.cpp's layout
// for Llama-3.2-1B with a Q4_K_M mix of types), shows the exact parameters and types, analyzes it with the CLI's
// numbers for the same file, and names the problem in a file that is not GGUF.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { seconds } from '../../site/src/format.js';
import { analyzed, artifacts, cardShows, cardValue, openPage, root, withBrowser } from './helpers.mjs';

const env = withBrowser();
const cli = path.join(root, 'build/native-release/infercast');

function gguf() {
  const parts = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const f32 = (v) => { const b = Buffer.alloc(4); b.writeFloatLE(v); parts.push(b); };
  const str = (s) => { u64(Buffer.byteLength(s)); parts.push(Buffer.from(s)); };
  const L = 16;
  parts.push(Buffer.from('GGUF'));
  u32(3); u64(2 + 9 * L + 1); u64(11);
  str('general.architecture'); u32(8); str('llama');
  str('general.name'); u32(8); str('Llama 3.2 1B Instruct');
  for (const [k, v] of [['block_count', L], ['context_length', 131072], ['embedding_length', 2048], ['feed_forward_length', 8192],
    ['attention.head_count', 32], ['attention.head_count_kv', 8], ['vocab_size', 128256]]) { str(`llama.${k}`); u32(4); u32(v); }
  str('llama.attention.layer_norm_rms_epsilon'); u32(6); f32(1e-5);
  str('tokenizer.ggml.tokens'); u32(9); u32(8); u64(3000);
  for (let i = 0; i < 3000; i++) str(`token${i}`);
  const tensor = (name, dims, type) => { str(name); u32(dims.length); for (const d of dims) u64(d); u32(type); u64(0); };
  tensor('token_embd.weight', [2048, 128256], 14);
  tensor('rope_freqs.weight', [32], 0);
  for (let i = 0; i < L; i++) {
    const p = `blk.${i}.`;
    tensor(`${p}attn_norm.weight`, [2048], 0);
    tensor(`${p}attn_q.weight`, [2048, 2048], 12);
    tensor(`${p}attn_k.weight`, [2048, 512], 12);
    tensor(`${p}attn_v.weight`, [2048, 512], 14);
    tensor(`${p}attn_output.weight`, [2048, 2048], 12);
    tensor(`${p}ffn_norm.weight`, [2048], 0);
    tensor(`${p}ffn_gate.weight`, [2048, 8192], 12);
    tensor(`${p}ffn_up.weight`, [2048, 8192], 12);
    tensor(`${p}ffn_down.weight`, [8192, 2048], 14);
  }
  tensor('output_norm.weight', [2048], 0);
  parts.push(Buffer.alloc(1 << 20));  // stands for the start of the weights, which the page never reads
  const file = path.join(artifacts, 'llama-3.2-1b-q4_k_m.gguf');
  fs.writeFileSync(file, Buffer.concat(parts));
  return file;
}

test('a dropped GGUF header gives the exact model and formats, and the CLI agrees', async () => {
  const file = gguf();
  const { page, context, consoleErrors, requests } = await openPage(env.browser, `${env.base}#hardware=nvidia-rtx-4090&prompt=1024&gen=256`);
  await analyzed(page);
  await page.setInputFiles('#config-file', file);
  await page.waitForFunction(() => /Read from the GGUF header/.test(document.getElementById('gguf-info').textContent));
  const info = await page.textContent('#gguf-info');
  assert.match(info, /1,235,814,432 parameters \(1,235,814,400 in the layers the config describes\)/);
  assert.match(info, /Q4_K \d+\.\d%, Q6_K \d+\.\d%, F32/);
  await page.waitForFunction(() => /wclasses=/.test(location.hash) && /model=custom/.test(location.hash));
  const v = JSON.parse(execFileSync(cli, ['analyze', '--model', file, '--hardware', 'nvidia-rtx-4090', '--prompt', '1024', '--gen', '256',
    '--format', 'json'], { encoding: 'utf8' }));
  await cardShows(page, 'Time per output token', seconds(v.decode.tpot_s));
  assert.equal(await cardValue(page, 'Time to first token'), seconds(v.ttft_s));
  assert.equal(await page.inputValue('#weights'), 'q4_k');
  assert.match(await page.textContent('#model-info'), /Llama 3\.2 1B Instruct: 1,235,814,400 parameters/);
  await page.screenshot({ path: path.join(artifacts, 'gguf.png') });
  // Not a GGUF file: the message names the file and what was expected; the last analysis stays.
  const bad = path.join(artifacts, 'not-a-model.gguf');
  fs.writeFileSync(bad, 'PK\u0003\u0004 a zip file');
  await page.setInputFiles('#config-file', bad);
  await page.waitForFunction(() => /not-a-model/.test(document.getElementById('model-error').textContent));
  assert.equal(await page.textContent('#model-error'), 'not-a-model.gguf: the file does not start with "GGUF"; expected a GGUF model file (llama.cpp)');
  assert.equal(await cardValue(page, 'Time to first token'), seconds(v.ttft_s));
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(env.base)), []);
  await context.close();
});

// gpt-oss as llama.cpp writes it (gpt-oss.* keys, sinks, biases, MXFP4 experts), two small layers: the page reads it
// to the same config, parameters and times as the CLI.
function gptOss() {
  const parts = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const str = (s) => { u64(Buffer.byteLength(s)); parts.push(Buffer.from(s)); };
  const H = 256, V = 1000, E = 8, I = 256, L = 2;
  const keys = [['block_count', L], ['context_length', 131072], ['embedding_length', H], ['attention.head_count', 4],
    ['attention.head_count_kv', 2], ['attention.key_length', 64], ['attention.value_length', 64],
    ['expert_count', E], ['expert_used_count', 2], ['expert_feed_forward_length', I], ['attention.sliding_window', 128]];
  const tensors = [];
  const tensor = (name, dims, type = 0) => tensors.push([name, dims, type]);
  tensor('token_embd.weight', [H, V], 30);
  tensor('output_norm.weight', [H]);
  tensor('output.weight', [H, V], 30);
  for (let i = 0; i < L; i++) {
    const p = `blk.${i}.`;
    tensor(`${p}attn_norm.weight`, [H]);
    tensor(`${p}post_attention_norm.weight`, [H]);
    for (const [n, w] of [['attn_q', 256], ['attn_k', 128], ['attn_v', 128]]) { tensor(`${p}${n}.weight`, [H, w], 30); tensor(`${p}${n}.bias`, [w]); }
    tensor(`${p}attn_output.weight`, [256, H], 30); tensor(`${p}attn_output.bias`, [H]);
    tensor(`${p}attn_sinks.weight`, [4]);
    tensor(`${p}ffn_gate_inp.weight`, [H, E]); tensor(`${p}ffn_gate_inp.bias`, [E]);
    for (const n of ['gate', 'up']) { tensor(`${p}ffn_${n}_exps.weight`, [H, I, E], 39); tensor(`${p}ffn_${n}_exps.bias`, [I, E]); }
    tensor(`${p}ffn_down_exps.weight`, [I, H, E], 39); tensor(`${p}ffn_down_exps.bias`, [H, E]);
  }
  parts.push(Buffer.from('GGUF'));
  u32(3); u64(tensors.length); u64(2 + keys.length);
  str('general.architecture'); u32(8); str('gpt-oss');
  str('general.name'); u32(8); str('tiny gpt-oss');
  for (const [k, v] of keys) { str(`gpt-oss.${k}`); u32(4); u32(v); }
  for (const [name, dims, type] of tensors) { str(name); u32(dims.length); for (const d of dims) u64(d); u32(type); u64(0); }
  const file = path.join(artifacts, 'tiny-gpt-oss-mxfp4.gguf');
  fs.writeFileSync(file, Buffer.concat(parts));
  return file;
}

test('a dropped gpt-oss GGUF (MXFP4 experts) reads as the CLI reads it', async () => {
  const file = gptOss();
  const { page, context, consoleErrors, requests } = await openPage(env.browser, `${env.base}#hardware=nvidia-h100-sxm&prompt=512&gen=64`);
  await analyzed(page);
  await page.setInputFiles('#config-file', file);
  await page.waitForFunction(() => /Read from the GGUF header/.test(document.getElementById('gguf-info').textContent));
  const v = JSON.parse(execFileSync(cli, ['analyze', '--model', file, '--hardware', 'nvidia-h100-sxm', '--prompt', '512', '--gen', '64',
    '--format', 'json'], { encoding: 'utf8' }));
  assert.equal(v.model.model_type, 'gpt_oss');
  const info = await page.textContent('#gguf-info');
  assert.match(info, new RegExp(`${v.model.params_total.toLocaleString('en-US')} parameters`));
  await cardShows(page, 'Time per output token', seconds(v.decode.tpot_s));
  assert.equal(await cardValue(page, 'Time to first token'), seconds(v.ttft_s));
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(env.base)), []);
  await context.close();
});

// A GGUF whose general.name holds terminal escapes (ESC ]0;pwned BEL ESC [31m): the page shows the name with each
// control character as '?', as the CLI prints it, in the model line, the answer, the model list and everywhere else.
test('control characters in a file\'s model name are shown as ?, never raw', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#hardware=nvidia-rtx-4090`);
  await analyzed(page);
  await page.setInputFiles('#config-file', path.join(root, 'tests/fuzz/corpus/gguf/escape-name.gguf'));
  await page.waitForFunction(() => /Read from the GGUF header/.test(document.getElementById('gguf-info').textContent));
  await page.waitForFunction(() => /pwned/.test(document.getElementById('model-info').textContent));
  await analyzed(page);
  // eslint-disable-next-line no-control-regex
  const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
  assert.match(await page.textContent('#model-info'), /^\?\]0;pwned\?\?\[31mred: /);
  const texts = await page.evaluate(() => [document.body.textContent, ...[...document.querySelectorAll('option')].map((o) => o.textContent),
    ...[...document.querySelectorAll('[title]')].map((e) => e.title)]);
  const raw = texts.filter((t) => controls.test(t));
  assert.deepEqual(raw.map((t) => JSON.stringify(t.slice(Math.max(0, t.search(controls) - 40), t.search(controls) + 20))), []);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
