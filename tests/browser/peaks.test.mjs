// Peaks as a reader meets them: a device whose peak is derived says so in the device list and in the explanation
// of a time (with the arithmetic), a published one says it is published, and a device with no compute peak at
// all shows bounds, never a forecast.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { seconds as fmtSeconds } from '../../site/src/format.js';
import { analyzed, artifacts, cardValue, openPage, root, showTab, withBrowser } from './helpers.mjs';

const env = withBrowser();
const cli = path.join(root, 'build/native-release/infercast');
const native = (...args) => JSON.parse(execFileSync(cli, [...args, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 26 }));

async function explainCard(page, label) {
  await page.click(`.card:has-text("${label}")`);
  await page.waitForSelector('#explain:not([hidden])');
  const lines = (await page.textContent('#explain-lines')).split('\n');
  await page.click('#explain-close');
  return lines;
}

test('an estimated peak is marked in the device list and its arithmetic shown where a time is explained', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-dgx-spark`);
  await analyzed(page);
  assert.equal(await page.textContent('#hardware option[value="nvidia-dgx-spark"]'), 'NVIDIA DGX Spark (GB10 Grace Blackwell) (estimated peak)');
  assert.equal(await page.textContent('#hardware option[value="apple-m3-max"]'), 'Apple M3 Max (40-core GPU) (estimated peak)');
  assert.equal(await page.textContent('#hardware option[value="nvidia-h100-sxm"]'), 'NVIDIA H100 SXM5 80GB');
  // One truth: the numbers are the CLI's, which ran at the same estimated peak.
  const r = native('analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-dgx-spark');
  assert.equal(r.peak.estimated, true);
  assert.equal(await cardValue(page, 'Time to first token'), fmtSeconds(r.ttft_s));
  const ttft = await explainCard(page, 'Time to first token');
  assert.ok(ttft.includes('estimated peak: bf16 61.9 TFLOP/s = 48 SMs x 512 FLOP/clock x 2.52 GHz = 61.93 TFLOPS '
    + '(presets/defaults/architectures.json, nvidia-blackwell-gb10 (low trust))'), ttft.join('\n'));
  assert.equal(ttft.at(-1), `TTFT = ${fmtSeconds(r.ttft_s)}`);
  assert.ok((await explainCard(page, 'Time per output token')).some((l) => l.startsWith('estimated peak: bf16 61.9 TFLOP/s = 48 SMs')));
  // An operator's time: the compute term names the peak as estimated and gives its arithmetic.
  await showTab(page, 'ops');
  const cell = page.locator('#ops tbody tr', { hasText: 'gate_proj' }).first().locator('td[data-field="time_s"]');
  await cell.click();
  await page.waitForSelector('#explain:not([hidden])');
  const op = (await page.textContent('#explain-lines')).split('\n');
  // e: the efficiency this operator ran at (the runtime's GEMM efficiency and the GEMM's tile waves).
  assert.match(op[0], /^compute = FLOPs \/ \(bf16 peak \(estimated\) x e\) = .* \/ \(61\.9 TFLOP\/s x [\d.]+\) = .*'s gemm efficiency/);
  assert.equal(op[1], 'estimated peak: 48 SMs x 512 FLOP/clock x 2.52 GHz = 61.93 TFLOPS');
  await page.screenshot({ path: path.join(artifacts, 'estimated-peak.png') });
  await page.click('#explain-close');
  // A published peak says so.
  await page.selectOption('#hardware', 'nvidia-h100-sxm');
  await page.waitForFunction(() => /hardware=nvidia-h100-sxm/.test(location.hash) || !/hardware=/.test(location.hash));
  await analyzed(page);
  await page.waitForFunction((v) => [...document.querySelectorAll('.card .value')].some((e) => e.textContent === v),
    fmtSeconds(native('analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm').ttft_s));
  assert.ok((await explainCard(page, 'Time to first token')).includes('published peak: bf16 989.4 TFLOP/s'));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a device with no compute peak shows bounds, not forecasts, and a suggested peak', async () => {
  const doc = {
    schema_version: 1, id: 'custom-no-peak', name: 'No peak', class: 'apple-soc', source: 'a test device',
    peak_dense_TFLOPS: {}, memory_tiers: [{ name: 'LPDDR5X', capacity_GB: 64, bandwidth_GBps: 400, technology: 'LPDDR5X' }],
  };
  const device = Buffer.from(JSON.stringify(doc)).toString('base64');
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=custom:custom-no-peak&device=${device}`);
  await analyzed(page);
  const ttft = await cardValue(page, 'Time to first token');
  assert.match(ttft, /^≥ /);
  assert.match(await cardValue(page, 'Time per output token'), /^≥ /);
  assert.match(await cardValue(page, 'Decode throughput'), /^≤ /);
  const sub = await page.textContent('.card:has-text("Time to first token") .sub');
  assert.equal(sub, 'a bound, not a forecast: this device has no compute peak (memory and dispatch only)');
  assert.equal(await page.getAttribute('.card:has-text("Time to first token")', 'class'), 'card bad');
  const warnings = await page.textContent('#warnings');
  assert.match(warnings, /No peak has no compute peak; times count memory traffic and dispatch only \(a lower bound, not a forecast\)\. Add peak_dense_TFLOPS \(bf16\)/);
  assert.match(warnings, /the apple-soc presets have a median of \d+ bf16 FLOP per byte of bandwidth, about [\d.]+ TFLOPS at this device's 400 GB\/s\./);
  assert.ok((await explainCard(page, 'Time to first token')).includes('no compute peak: times count memory and dispatch only, a lower bound, not a forecast'));
  await page.screenshot({ path: path.join(artifacts, 'no-peak-bounds.png') });
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a Xeon under llama.cpp shows its float GEMMs at the vector units\' rate, with their arithmetic', async () => {
  // llama.cpp takes only int8 dot products to AMX: a BF16 model's GEMMs run on AVX-512 (docs/forecast.md).
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.2-3b&hardware=intel-xeon-6980p`);
  await analyzed(page);
  const r = native('analyze', '--model', 'llama-3.2-3b', '--hardware', 'intel-xeon-6980p');
  assert.equal(r.execution.runtime, 'llama.cpp-cpu');
  assert.equal(r.peak.units, 'vector');
  assert.equal(await cardValue(page, 'Time to first token'), fmtSeconds(r.ttft_s));
  const ttft = await explainCard(page, 'Time to first token');
  assert.ok(ttft.includes('estimated peak: vector bf16 32.8 TFLOP/s = 128 CPU cores x 128 FLOP/clock x 2 GHz = 32.77 TFLOPS '
    + '(presets/defaults/architectures.json, intel-amx-spr (medium trust))'), ttft.join('\n'));
  await showTab(page, 'ops');
  const cell = page.locator('#ops tbody tr', { hasText: 'gate_proj' }).first().locator('td[data-field="time_s"]');
  await cell.click();
  await page.waitForSelector('#explain:not([hidden])');
  const op = (await page.textContent('#explain-lines')).split('\n');
  assert.match(op[0], /^compute = FLOPs \/ \(bf16 peak of the vector units \(estimated\) x e\) = .* \/ \(32\.8 TFLOP\/s x [\d.]+\) = /);
  assert.equal(op[1], 'estimated peak: 128 CPU cores x 128 FLOP/clock x 2 GHz = 32.77 TFLOPS');
  await page.click('#explain-close');
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
