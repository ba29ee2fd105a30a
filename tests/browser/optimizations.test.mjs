// Optimizations in the page: a user opens "Optimizations", sets LoRA, chunked prefill and a grouped int4 format,
// and reads the same numbers the CLI gives for the same scenario, with the overheads in the operator table.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { seconds as fmtSeconds } from '../../site/src/format.js';
import { analyzed, artifacts, cardValue, openPage, root, withBrowser } from './helpers.mjs';

const env = withBrowser();

const cli = path.join(root, 'build/native-release/infercast');

test('LoRA, chunked prefill and int4-g128 weights: the page equals the CLI and shows the overheads', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
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
  // The q_proj row shows its overhead (dequantization + adapters).
  const overhead = await page.evaluate(() => {
    const head = [...document.querySelectorAll('#ops thead th')].map((th) => th.textContent);
    const row = [...document.querySelectorAll('#ops tbody tr')].find((tr) => tr.cells[0].textContent === 'q_proj');
    return row.cells[head.indexOf('Overhead')].textContent;
  });
  assert.notEqual(overhead, '-');
  await page.screenshot({ path: path.join(artifacts, 'optimizations.png'), fullPage: true });
  // A bad value is named next to the inputs; the last valid results stay.
  await page.fill('#tile', '-3');
  await page.waitForFunction(() => /Attention tile holds/.test(document.getElementById('precision-error').textContent));
  assert.equal(await page.textContent('#precision-error'), 'Attention tile holds "-3"; expected a whole number (0 for none)');
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
