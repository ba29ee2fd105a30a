// Optimizations in the page: a user opens "Optimizations", sets LoRA, chunked prefill and a grouped int4 format,
// and reads the same numbers the CLI gives for the same scenario, with the overheads in the operator table.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { seconds as fmtSeconds } from '../../site/src/format.js';
import { analyzed, artifacts, cardValue, openPage, root, settled, showTab, withBrowser } from './helpers.mjs';

const env = withBrowser();

const cli = path.join(root, 'build/native-release/infercast');

test('LoRA, chunked prefill and int4-g128 weights: the page equals the CLI and shows the overheads', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  await showTab(page, 'settings');
  await page.click('#optimizations summary');
  await page.selectOption('#weights', 'int4-g128');
  await page.fill('#prompt', '2048');
  await page.fill('#chunk', '512');
  await page.fill('#lora', '64');
  await page.selectOption('#lora-mode', 'unmerged');
  await page.waitForFunction(() => /lora=64/.test(location.hash) && /chunk=512/.test(location.hash));
  await analyzed(page);
  const native = JSON.parse(execFileSync(cli, ['analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--prompt', '2048',
    '--weights', 'int4-g128', '--prefill-chunk', '512', '--lora-rank', '64', '--lora-mode', 'unmerged', '--format', 'json'], { encoding: 'utf8' }));
  await page.waitForFunction((t) => {
    for (const c of document.querySelectorAll('.card')) if (c.querySelector('.label').textContent === 'Time to first token') return c.querySelector('.value').textContent === t;
    return false;
  }, fmtSeconds(native.ttft_s));
  assert.equal(await cardValue(page, 'Time per output token'), fmtSeconds(native.decode.tpot_s));
  assert.equal(await cardValue(page, 'LoRA merge (once)'), fmtSeconds(native.workload.lora.merge_s));
  assert.equal(native.workload.prefill_chunks, 4);
  // The q_proj row shows its overhead (dequantization + adapters), in the Operators tab.
  await showTab(page, 'ops');
  const overhead = await page.evaluate(() => {
    const head = [...document.querySelectorAll('#ops thead th')].map((th) => th.textContent);
    const row = [...document.querySelectorAll('#ops tbody tr')].find((tr) => tr.cells[0].textContent === 'q_proj');
    return row.cells[head.indexOf('Overhead')].textContent;
  });
  assert.notEqual(overhead, '-');
  await showTab(page, 'settings');
  await page.screenshot({ path: path.join(artifacts, 'optimizations.png'), fullPage: true });
  // A bad value is named next to the inputs; the last valid results stay.
  await page.fill('#tile', '-3');
  await page.waitForFunction(() => /Attention tile holds/.test(document.getElementById('precision-error').textContent));
  assert.equal(await page.textContent('#precision-error'), 'Attention tile holds "-3"; expected a whole number from 0 to 65536 (0 for none)');
  // Reloading the link restores every optimization.
  await page.reload();
  await analyzed(page);
  assert.equal(await page.inputValue('#lora'), '64');
  assert.equal(await page.inputValue('#chunk'), '512');
  assert.equal(await page.inputValue('#weights'), 'int4-g128');
  assert.equal(await cardValue(page, 'Time to first token'), fmtSeconds(native.ttft_s));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a LIFE scenario fills the controls, equals the CLI, and the quantization sweep matches quant-sweep', async () => {
  const { page, context, consoleErrors, requests } = await openPage(env.browser, `${env.base}#model=llama-2-7b&prompt=1024`);
  await analyzed(page);
  await showTab(page, 'settings');
  await page.click('#optimizations summary');
  await page.selectOption('#scenario', 'life/quarot-w4a4kv4');
  await page.waitForFunction(() => /scenario=life%2Fquarot-w4a4kv4/.test(location.hash));
  // The scenario's settings show in the controls it sets, with its description and source.
  assert.equal(await page.inputValue('#weights'), 'int4');
  assert.equal(await page.inputValue('#activations'), 'int8');
  assert.equal(await page.inputValue('#kv'), 'int4');
  assert.equal(await page.inputValue('#mlp'), 'fused');
  assert.equal(await page.inputValue('#hadamard'), 'on');
  assert.match(await page.textContent('#scenario-info'), /QuaRot.*LIFE \(arXiv 2508\.00904\) Table 3/);
  const native = JSON.parse(execFileSync(cli, ['analyze', '--model', 'llama-2-7b', '--hardware', 'nvidia-h100-sxm', '--prompt', '1024',
    '--scenario', 'life/quarot-w4a4kv4', '--format', 'json'], { encoding: 'utf8' }));
  await page.waitForFunction((t) => {
    for (const c of document.querySelectorAll('.card')) if (c.querySelector('.label').textContent === 'Time to first token') return c.querySelector('.value').textContent === t;
    return false;
  }, fmtSeconds(native.ttft_s));
  assert.equal(await cardValue(page, 'Time per output token'), fmtSeconds(native.decode.tpot_s));
  // The rotations appear as operators.
  await showTab(page, 'ops');
  const names = await page.evaluate(() => [...document.querySelectorAll('#ops tbody tr')].map((tr) => tr.cells[0].textContent));
  assert.ok(names.includes('hadamard_down_in'), names.join(', '));

  // The sweep chart is drawn when its tab is shown (for this scenario, not the one before it) and its CSV equals
  // the CLI's quant-sweep.
  await settled(page);
  await showTab(page, 'quant');
  await page.waitForFunction(() => document.querySelector('#quant-sweep canvas') && /10 weight formats x 3 KV formats/.test(document.getElementById('sweep-note').textContent));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-sweep')]);
  const file = path.join(artifacts, 'quant-sweep.csv');
  await download.saveAs(file);
  const pageRows = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split(','));
  const cliRows = execFileSync(cli, ['quant-sweep', '--model', 'llama-2-7b', '--hardware', 'nvidia-h100-sxm', '--prompt', '1024',
    '--scenario', 'life/quarot-w4a4kv4', '--hadamard', 'on', '--format', 'csv'], { encoding: 'utf8' }).trim().split('\n').map((l) => l.split(','));
  assert.equal(pageRows.length, 31);
  const col = (rows, name) => rows.slice(1).map((r) => r[rows[0].indexOf(name)]);
  for (const k of ['weights', 'kv', 'fits']) assert.deepEqual(col(pageRows, k), col(cliRows, k));
  for (const k of ['required_bytes', 'tpot_s', 'tokens_per_s', 'max_batch']) {
    const a = col(pageRows, k).map(Number), b = col(cliRows, k).map(Number);
    a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) <= 1e-9 * Math.abs(b[i]), `${k} row ${i}: ${x} vs ${b[i]}`));
  }
  await page.screenshot({ path: path.join(artifacts, 'scenario-sweep.png'), fullPage: true });

  // Reloading the link restores the scenario; changing a control keeps the scenario as the base.
  await page.reload();
  await analyzed(page);
  assert.equal(await page.inputValue('#scenario'), 'life/quarot-w4a4kv4');
  assert.equal(await cardValue(page, 'Time to first token'), fmtSeconds(native.ttft_s));
  await page.selectOption('#kv', 'bf16');
  await page.waitForFunction(() => /kv=bf16/.test(location.hash) || !/kv=/.test(location.hash));
  await analyzed(page);
  const kvBf16 = JSON.parse(execFileSync(cli, ['analyze', '--model', 'llama-2-7b', '--hardware', 'nvidia-h100-sxm', '--prompt', '1024',
    '--scenario', 'life/quarot-w4a4kv4', '--kv', 'bf16', '--format', 'json'], { encoding: 'utf8' }));
  await page.waitForFunction((t) => {
    for (const c of document.querySelectorAll('.card')) if (c.querySelector('.label').textContent === 'Time per output token') return c.querySelector('.value').textContent === t;
    return false;
  }, fmtSeconds(kvBf16.decode.tpot_s));
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(env.base.replace(/infercast\/$/, ''))), []);
  await context.close();
});
