// Hybrid and multimodal models in the page (issue 20): images typed as the CLI's --images join the prompt and give
// the CLI's numbers, the image-tokens card explains each image, the KV card names the recurrent state it holds,
// bad image lists and images for a text-only model are named next to the workload, and the link keeps the images.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { bytes, count, seconds } from '../../site/src/format.js';
import { artifacts, cardValue, openPage, root, settled, showTab, withBrowser } from './helpers.mjs';

const env = withBrowser();
const cli = path.join(root, 'build/native-release/infercast');
const analyze = (...args) => JSON.parse(execFileSync(cli, ['analyze', ...args, '--format', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
const cardSub = (page, label) => page.evaluate((l) => {
  for (const c of document.querySelectorAll('.card')) if (c.querySelector('.label').textContent === l) return c.querySelector('.sub').textContent;
  return null;
}, label);

test('images typed in the page equal the CLI\'s --images; the card explains each image; the link keeps them', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=qwen3-vl-8b&hardware=nvidia-h100-sxm`);
  await settled(page);
  assert.equal(await cardValue(page, 'Image tokens'), null);  // no images, no card
  await page.click('#vision summary');
  await page.fill('#images', '1024x768x2, 640x480');
  await page.waitForFunction(() => /images=/.test(location.hash));
  const native = analyze('--model', 'qwen3-vl-8b', '--hardware', 'nvidia-h100-sxm', '--images', '1024x768x2,640x480');
  assert.equal(native.workload.image_tokens, 1836);
  await page.waitForFunction((t) => [...document.querySelectorAll('.card')].some((c) => c.querySelector('.value').textContent === t), seconds(native.ttft_s));
  assert.equal(await cardValue(page, 'Time per output token'), seconds(native.decode.tpot_s));
  assert.equal(await cardValue(page, 'Image tokens'), count(1836));
  assert.equal(await cardSub(page, 'Image tokens'), '3 image(s) in each prompt, qwen3_vl encoder');
  await page.click('.card:has-text("Image tokens")');
  await page.waitForSelector('#explain:not([hidden])');
  const lines = (await page.textContent('#explain-lines')).split('\n');
  assert.equal(lines[0], `1024 x 768: ${count(3072)} encoder patches in 1 sequence(s) -> 768 tokens`);
  assert.equal(lines.at(-1), `${count(1836)} tokens added to each new prompt`);
  await page.keyboard.press('Escape');
  // The encoder's operators are in the table, in their own group.
  await showTab(page, 'ops');
  await page.waitForFunction(() => [...document.querySelectorAll('#ops tbody tr')].some((r) => /vision_attention/.test(r.textContent)));
  // A bad list is named and the last good one stays.
  await page.fill('#images', '1024x768, big');
  assert.equal(await page.textContent('#workload-error'),
    'Images: item 2 holds "big"; expected WIDTHxHEIGHT, optionally xCOUNT (e.g. 1024x768x2), each side 1 to 65536 pixels, count 1 to 1024');
  assert.equal(await cardValue(page, 'Image tokens'), count(1836));
  await page.fill('#images', '1024x768x2, 640x480');
  await page.screenshot({ path: path.join(artifacts, 'images.png'), fullPage: true });
  await page.reload();
  await settled(page);
  assert.equal(await page.inputValue('#images'), '1024x768x2, 640x480');
  assert.equal(await cardValue(page, 'Time to first token'), seconds(native.ttft_s));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('images for a text-only model are refused next to the workload, as the CLI refuses them', async () => {
  const { page, context } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-h100-sxm&images=1024x768`);
  await page.waitForFunction(() => document.getElementById('workload-error').textContent !== '');
  let cliError = '';
  try {
    execFileSync(cli, ['analyze', '--model', 'llama-3.1-8b', '--images', '1024x768'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    cliError = e.stderr.trim().replace(/^infercast: /, '');
  }
  assert.ok(cliError.startsWith('/workload/images'), cliError);
  assert.equal(await page.textContent('#workload-error'), cliError.replace(/ \[[a-z_.]+\]$/, ''));
  await context.close();
});

test('a hybrid model\'s KV card names the recurrent state it holds, as the CLI reports it', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=qwen3-next-80b-a3b&hardware=nvidia-h100-sxm&prompt=32768&gen=1`);
  await settled(page);
  const native = analyze('--model', 'qwen3-next-80b-a3b', '--hardware', 'nvidia-h100-sxm', '--prompt', '32768', '--gen', '1');
  assert.ok(native.memory.state_bytes > 0);
  assert.equal(await cardValue(page, 'KV cache'), bytes(native.memory.kv_cache_bytes));
  assert.equal(await cardSub(page, 'KV cache'), `${bytes(native.memory.kv_bytes_per_token)} per token; ${bytes(native.memory.state_bytes)} of it recurrent state`);
  await page.click('.card:has-text("KV cache")');
  await page.waitForSelector('#explain:not([hidden])');
  assert.match(await page.textContent('#explain-lines'), new RegExp(`of which ${bytes(native.memory.state_bytes).replace('.', '\\.')} is the recurrent state`));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a sliding-window model\'s KV card gives the bytes a token adds past the windows, as the CLI reports them', async () => {
  // Gemma-3-27B under vLLM: 62 layers x 8,192 B a token, of which the 10 global layers' 81,920 B keep growing past
  // the 1,024-token windows (audit G, finding 3).
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=gemma-3-27b-it&hardware=nvidia-h100-sxm`);
  await settled(page);
  const native = analyze('--model', 'gemma-3-27b-it', '--hardware', 'nvidia-h100-sxm');
  assert.equal(native.memory.kv_bytes_per_token, 507904);
  assert.equal(native.memory.kv_bytes_per_token_past_windows, 81920);
  assert.equal(await cardSub(page, 'KV cache'), '496.00 KiB per token, 80.00 KiB past the windows');
  await page.click('.card:has-text("KV cache")');
  await page.waitForSelector('#explain:not([hidden])');
  assert.equal((await page.textContent('#explain-lines')).split('\n')[0], '496.00 KiB per token, 80.00 KiB past the windows');
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('Llama 3.2 Vision in the page: one prompt token an image, the images\' keys and values in the KV card, as the CLI', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.2-11b-vision&hardware=nvidia-h100-sxm`);
  await settled(page);
  await page.click('#vision summary');
  await page.fill('#images', '1120x560');
  await page.waitForFunction(() => /images=/.test(location.hash));
  const native = analyze('--model', 'llama-3.2-11b-vision', '--hardware', 'nvidia-h100-sxm', '--images', '1120x560');
  assert.equal(native.workload.image_tokens, 1);
  assert.ok(native.memory.image_kv_bytes > 0);
  await page.waitForFunction((t) => [...document.querySelectorAll('.card')].some((c) => c.querySelector('.value').textContent === t), seconds(native.ttft_s));
  assert.equal(await cardValue(page, 'Time per output token'), seconds(native.decode.tpot_s));
  assert.equal(await cardSub(page, 'KV cache'),
    `${bytes(native.memory.kv_bytes_per_token)} per token; ${bytes(native.memory.image_kv_bytes)} of it the images' keys and values`);
  await page.click('.card:has-text("Image tokens")');
  await page.waitForSelector('#explain:not([hidden])');
  const lines = (await page.textContent('#explain-lines')).split('\n');
  assert.equal(lines[0], `1120 x 560: ${count(6432)} encoder patches in 1 sequence(s) -> 1 tokens, and ${count(6404)} tokens the cross-attention layers attend (docs/formulas.md, "Cross-attention")`);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
