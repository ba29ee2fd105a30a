// Dropping a checkpoint's .safetensors files: the page reads only each shard's header in the browser, checks the
// config against the real shapes (the dropped config.json, else the selected model, else one inferred from the
// names), sets each weight class's format, and shows the CLI's numbers for the same folder.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { seconds } from '../../site/src/format.js';
import { analyzed, artifacts, cardShows, cardValue, openPage, root, withBrowser } from './helpers.mjs';

const env = withBrowser();
const cli = path.join(root, 'build/native-release/infercast');
const tiny = path.join(root, 'tests/data/tiny-checkpoint');

// A safetensors file: the header of these tensors, then a stretch standing for the weights (never read).
function shard(file, tensors) {
  const doc = { __metadata__: { format: 'pt' } };
  let at = 0;
  for (const [name, dtype, shape] of tensors) {
    const b = shape.reduce((a, d) => a * d, 1) * (dtype === 'BF16' ? 2 : 1);
    doc[name] = { dtype, shape, data_offsets: [at, at + b] };
    at += b;
  }
  const text = Buffer.from(JSON.stringify(doc));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(text.length));
  fs.writeFileSync(file, Buffer.concat([len, text, Buffer.alloc(1 << 20)]));
  return file;
}

// Llama-3.2-1B as transformers saves it, in two shards.
function llama1b() {
  const ts = [['model.embed_tokens.weight', 'BF16', [128256, 2048]], ['model.norm.weight', 'BF16', [2048]]];
  for (let i = 0; i < 16; i++) {
    const p = `model.layers.${i}.`;
    for (const [n, r, c] of [['self_attn.q_proj', 2048, 2048], ['self_attn.k_proj', 512, 2048], ['self_attn.v_proj', 512, 2048],
      ['self_attn.o_proj', 2048, 2048], ['mlp.gate_proj', 8192, 2048], ['mlp.up_proj', 8192, 2048], ['mlp.down_proj', 2048, 8192]]) ts.push([`${p}${n}.weight`, 'BF16', [r, c]]);
    ts.push([`${p}input_layernorm.weight`, 'BF16', [2048]], [`${p}post_attention_layernorm.weight`, 'BF16', [2048]]);
  }
  return [shard(path.join(artifacts, 'model-00001-of-00002.safetensors'), ts.slice(0, 70)),
    shard(path.join(artifacts, 'model-00002-of-00002.safetensors'), ts.slice(70))];
}

test('dropped safetensors shards with their config give exact parameters and formats, as the CLI', async () => {
  const { page, context, consoleErrors, requests } = await openPage(env.browser, `${env.base}#hardware=nvidia-l4&prompt=256&gen=64`);
  await analyzed(page);
  await page.setInputFiles('#config-file', ['config.json', 'model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'].map((f) => path.join(tiny, f)));
  await page.waitForFunction(() => /Read the safetensors headers/.test(document.getElementById('gguf-info').textContent));
  const info = await page.textContent('#gguf-info');
  assert.match(info, /of 2 file\(s\) \(\d[\d,]* bytes, no weights\): 21 tensors, 1,897,728 parameters/);
  assert.match(info, /F8_E4M3 55\.7%, BF16 44\.3%/);
  assert.match(info, /Config from config\.json: every shape matches\./);
  assert.match(info, /Weight formats set per class: attention=bf16,embedding=bf16,ffn=fp8,lm_head=bf16\./);
  await page.waitForFunction(() => /wclasses=/.test(location.hash) && /model=custom/.test(location.hash));
  const v = JSON.parse(execFileSync(cli, ['analyze', '--model', tiny, '--hardware', 'nvidia-l4', '--prompt', '256', '--gen', '64', '--format', 'json'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  await cardShows(page, 'Time per output token', seconds(v.decode.tpot_s));
  assert.equal(await cardValue(page, 'Time to first token'), seconds(v.ttft_s));
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(env.base)), []);
  await context.close();
});

// Audit F8: a folder's other JSON files sort before config.json (added_tokens.json, adapter_config.json,
// chat_template.json), and the page took the first .json as the config, refusing a checkpoint the CLI reads.
test('a whole checkpoint folder dropped: its config.json is the config, as the CLI picks it by name', async () => {
  const dir = path.join(artifacts, 'checkpoint-folder');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(tiny, dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'added_tokens.json'), '{"<extra>": 1000}');
  fs.writeFileSync(path.join(dir, 'generation_config.json'), '{"do_sample": true}');
  fs.writeFileSync(path.join(dir, 'model.safetensors.index.json'), '{"metadata": {}, "weight_map": {}}');
  const all = fs.readdirSync(dir).sort();
  assert.equal(all[0], 'added_tokens.json');
  const v = JSON.parse(execFileSync(cli, ['analyze', '--model', dir, '--hardware', 'nvidia-l4', '--prompt', '256', '--gen', '64', '--format', 'json'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#hardware=nvidia-l4&prompt=256&gen=64`);
  await analyzed(page);
  await page.setInputFiles('#config-file', all.map((f) => path.join(dir, f)));
  await page.waitForFunction(() => /Read the safetensors headers/.test(document.getElementById('gguf-info').textContent) || document.getElementById('model-error').textContent);
  assert.equal(await page.textContent('#model-error'), '');
  assert.match(await page.textContent('#gguf-info'), /Config from config\.json: every shape matches\./);
  await cardShows(page, 'Time per output token', seconds(v.decode.tpot_s));
  assert.deepEqual(consoleErrors, []);
  await context.close();
  // The folder's JSON files alone (no shards): config.json is the config too.
  const other = await openPage(env.browser, `${env.base}#hardware=nvidia-l4&prompt=256&gen=64`);
  await analyzed(other.page);
  await other.page.setInputFiles('#config-file', all.filter((f) => f.endsWith('.json')).map((f) => path.join(dir, f)));
  await other.page.waitForFunction(() => /model=custom/.test(location.hash) || document.getElementById('model-error').textContent);
  assert.equal(await other.page.textContent('#model-error'), '');
  assert.deepEqual(other.consoleErrors, []);
  await other.context.close();
});

test('shards without a config: checked against the selected model, else a config inferred; broken headers named', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.2-1b&hardware=nvidia-rtx-4090`);
  await analyzed(page);
  const files = llama1b();
  await page.setInputFiles('#config-file', files);
  await page.waitForFunction(() => /Read the safetensors headers/.test(document.getElementById('gguf-info').textContent));
  assert.match(await page.textContent('#gguf-info'), /146 tensors, 1,235,814,400 parameters, 2\.30 GiB stored; types by elements: BF16 100\.0%\. Config from the selected model: every shape matches\./);
  assert.equal(await page.inputValue('#model'), 'llama-3.2-1b');
  // The same shards while another model is selected: its shapes differ, so a config is inferred from the names.
  await page.selectOption('#model', 'qwen3-8b');
  await analyzed(page);
  await page.setInputFiles('#config-file', files);
  await page.waitForFunction(() => /Config from the tensor names/.test(document.getElementById('gguf-info').textContent));
  assert.match(await page.textContent('#gguf-info'), /Config from the tensor names: every shape matches; assumed head_dim/);
  assert.equal(await page.inputValue('#model'), 'custom');
  await page.waitForFunction(() => /1,235,814,400 parameters/.test(document.getElementById('model-info').textContent));
  await page.screenshot({ path: path.join(artifacts, 'safetensors.png') });
  // A file that is not safetensors: named, and the analysis shown stays.
  const before = await cardValue(page, 'Time per output token');
  const bad = path.join(artifacts, 'broken.safetensors');
  fs.writeFileSync(bad, Buffer.concat([Buffer.from([16, 0, 0, 0, 0, 0, 0, 0]), Buffer.from('{"w": [1, 2, 3]}')]));
  await page.setInputFiles('#config-file', bad);
  await page.waitForFunction(() => /broken/.test(document.getElementById('model-error').textContent));
  assert.equal(await page.textContent('#model-error'), 'broken.safetensors: tensor w holds an array of 3; expected {dtype, shape, data_offsets}');
  assert.equal(await cardValue(page, 'Time per output token'), before);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
