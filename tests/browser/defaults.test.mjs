// One truth: opened on any preset with nothing else changed, the page shows the CLI's numbers for the same
// preset with no flag given, declared precisions included (a model published in fp8 or MXFP4 is analyzed in it).
// Every model preset on the default device, every hardware preset with the default model, and the two cases a
// user met first (DeepSeek-V3 on 8x H200, gpt-oss-120b on one H100).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { bytes, seconds } from '../../site/src/format.js';
import { analyzed, cardValue, openPage, root, withBrowser, showTab } from './helpers.mjs';

const env = withBrowser();
const cli = path.join(root, 'build/native-release/infercast');
const native = (...args) => JSON.parse(execFileSync(cli, [...args, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
const list = (what) => JSON.parse(execFileSync(cli, [what, '--format', 'json'], { encoding: 'utf8' }));

// Opens the page on a link and waits until the cards show what the CLI computed for it.
async function expectCards(page, hash, want) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  try {
    await page.waitForFunction((w) => Object.entries(w).every(([label, v]) => [...document.querySelectorAll('.card')]
      .some((c) => c.querySelector('.label').textContent === label && c.querySelector('.value').textContent === v)), want, { timeout: 10000 });
  } catch {
    const shown = {};
    for (const label of Object.keys(want)) shown[label] = await cardValue(page, label);
    assert.deepEqual(shown, want, `page at #${hash}`);
  }
}

// A device without a compute peak shows its times as lower bounds ("≥").
function single(r) {
  const bound = r.lower_bound ? '≥ ' : '';
  return {
    'Time to first token': `${bound}${seconds(r.ttft_s)}`,
    'Time per output token': `${bound}${seconds(r.decode.tpot_s)}`,
    Memory: bytes(r.memory.required_bytes),
  };
}

test('every model preset on the default device shows the CLI numbers, in the precision it is published in', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  const models = list('models');
  assert.ok(models.length >= 47);
  for (const m of models) {
    const r = native('analyze', '--model', m.id, '--hardware', 'nvidia-h100-sxm', '--batch', '1', '--prompt', '512', '--gen', '128');
    await expectCards(page, `model=${m.id}`, single(r));
    if (r.workload.precision.declared_weights) {
      assert.match(await page.locator('#weights option[value=declared]').textContent(), new RegExp(`^as published: ${r.workload.precision.declared_weights}`));
    }
  }
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('every hardware preset with the default model shows the CLI numbers', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  const devices = list('hardware');
  assert.ok(devices.length >= 95);
  for (const h of devices) {
    const r = native('analyze', '--model', 'llama-3.1-8b', '--hardware', h.id, '--batch', '1', '--prompt', '512', '--gen', '128');
    await expectCards(page, `hardware=${h.id}`, single(r));
  }
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('DeepSeek-V3 on 8x H200 and gpt-oss-120b on one H100 are analyzed in their published fp8 and MXFP4', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  // DeepSeek-V3's quantization_config: fp8 in 128x128 blocks. 671B parameters in about 1 byte each over 8
  // devices: about 79 GiB per device, which fits the H200's 141 GiB (0.9 of it under vLLM's gpu_memory_utilization, the H200's default runtime, less what its memory profile keeps for activations); in bf16 (the page's old default) it did not.
  const ds = native('analyze', '--model', 'deepseek-v3', '--system', 'hgx-h200', '--tp', '8', '--ep', '8', '--batch', '1', '--prompt', '512', '--gen', '128');
  assert.equal(ds.workload.precision.declared_weights, 'fp8_block128');
  assert.ok(ds.parallel.fits);
  const perDevice = ds.parallel.device_required_bytes / 2 ** 30;
  assert.ok(perDevice > 75 && perDevice < 85, `${perDevice} GiB per device`);
  await page.selectOption('#model', 'deepseek-v3');
  await showTab(page, 'multi');
  await page.selectOption('#system', 'hgx-h200');
  await page.fill('#tp', '8');
  await page.fill('#ep', '8');
  await page.waitForFunction((v) => [...document.querySelectorAll('.card .value')].some((e) => e.textContent === v), seconds(ds.parallel.tpot_s), { timeout: 10000 });
  assert.equal(await cardValue(page, 'Memory per device'), bytes(ds.parallel.device_required_bytes));
  assert.equal(await cardValue(page, 'Time per output token'), seconds(ds.parallel.tpot_s));
  assert.match(await page.locator('#cards').textContent(), /of 12[56]\.\d\d GiB: fits/);
  // The formats in the choice, the classes in each under it (in the choice they made it 532 px wide).
  assert.equal(await page.locator('#weights option[value=declared]').textContent(), 'as published: fp8_block128 + bf16');
  assert.match(await page.textContent('#weights-info'), /^Published in fp8_block128; bf16: [a-z_, ]+\.$/);
  // Its activation_scheme makes it W8A8: fp8 GEMMs on the H200, in the CLI without --activations and on the page.
  assert.equal(ds.workload.precision.activations, 'fp8');
  assert.equal(await page.inputValue('#activations'), 'declared');
  assert.equal(await page.locator('#activations option[value=declared]').textContent(), 'as published: fp8');

  // gpt-oss-120b: MXFP4 experts, everything else in bf16: about 61 GiB, not 218.
  const oss = native('analyze', '--model', 'gpt-oss-120b', '--hardware', 'nvidia-h100-sxm', '--batch', '1', '--prompt', '512', '--gen', '128');
  assert.equal(oss.workload.precision.by_class.experts.dtype, 'mxfp4');
  assert.ok(oss.memory.required_bytes / 2 ** 30 < 70);
  await expectCards(page, 'model=gpt-oss-120b', single(oss));
  assert.equal(await page.locator('#weights option[value=declared]').textContent(), 'as published: mxfp4 + bf16');
  assert.match(await page.textContent('#weights-info'), /^Published in mxfp4; bf16: .*attention/);
  assert.equal(await page.locator('#activations option[value=declared]').textContent(), 'as published: bf16');

  // Choosing a format replaces the published one, as --weights does in the CLI.
  const bf16 = native('analyze', '--model', 'gpt-oss-120b', '--hardware', 'nvidia-h100-sxm', '--weights', 'bf16', '--batch', '1', '--prompt', '512', '--gen', '128');
  await page.selectOption('#weights', 'bf16');
  await page.waitForFunction((v) => [...document.querySelectorAll('.card .value')].some((e) => e.textContent === v), bytes(bf16.memory.required_bytes), { timeout: 10000 });
  // The link follows once the numbers are painted.
  await page.waitForFunction(() => location.hash.includes('weights=bf16'));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// A first visit shows the default scenario's analysis made when the page was built (site/src/first.js,
// scripts/build-site.mjs), before the core has loaded in its worker. It must be what that core computes for the same
// request: the CLI's numbers, and, once the worker answers the same inputs again, the same cards, answer and
// operator table. A link makes another request, which the worker answers.
test('a first visit shows the analysis made at build time, the same as the core computes now', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  assert.match(await page.textContent('#status'), /^Analyzed in advance: /);
  const r = native('analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--batch', '1', '--prompt', '512', '--gen', '128');
  for (const [label, value] of Object.entries(single(r))) assert.equal(await cardValue(page, label), value, label);
  await showTab(page, 'ops');
  const shown = () => page.evaluate(() => ['cards', 'answer', 'ops'].map((id) => document.getElementById(id).textContent));
  const built = await shown();
  for (const batch of ['2', '1']) {
    await page.fill('#batch', batch);
    await analyzed(page);
  }
  assert.match(await page.textContent('#status'), /^Analyzed in [\d.]+ ms by the WebAssembly core/);
  assert.deepEqual(await shown(), built);
  assert.deepEqual(consoleErrors, []);
  await context.close();
  const linked = await openPage(env.browser, `${env.base}#batch=2`);
  await analyzed(linked.page);
  assert.match(await linked.page.textContent('#status'), /^Analyzed in [\d.]+ ms by the WebAssembly core/);
  assert.deepEqual(linked.consoleErrors, []);
  await linked.context.close();
});

// The same analysis is in the page's HTML (scripts/build-site.mjs): painted before any script runs, the CLI's
// numbers, and what the page's own code writes once it runs. A link hides it until the page knows its request.
test("the page's HTML holds the analysis made at build time; a link hides it until the page's script runs", async () => {
  const r = native('analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--batch', '1', '--prompt', '512', '--gen', '128');
  const texts = (page) => page.evaluate(() => ['status', 'answer', 'answer-notes', 'cards'].map((id) => document.getElementById(id).textContent));
  // No script at all: what the HTML holds.
  const bare = await env.browser.newContext({ javaScriptEnabled: false });
  const html = await bare.newPage();
  await html.goto(env.base);
  for (const [label, value] of Object.entries(single(r))) assert.equal(await cardValue(html, label), value, label);
  const fromHtml = await texts(html);
  const builtCards = await html.locator('#cards .card').count();
  assert.match(await html.textContent('noscript'), /JavaScript is off: the numbers below were computed when the page was built, for its default inputs/);
  // Not buttons until the page's script makes them cards that open their explanation.
  assert.equal(await html.locator('#cards [role=button], #cards [tabindex]').count(), 0);
  assert.match(fromHtml[0], /^Analyzed in advance: /);
  await bare.close();
  // The page's script held back: the built numbers are shown (and painted) without it; once it runs, its own
  // cards replace them with the same text, and nothing is marked built any more.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const hold = (c) => c.route(/app\.[0-9a-f]+\.js$/, async (route) => { await held; await route.continue(); });
  const { page, context, consoleErrors } = await openPage(env.browser, env.base, hold, 'commit');
  await page.waitForSelector('#cards .card');
  assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('cards')).visibility), 'visible');
  await page.evaluate(() => { for (const c of document.querySelectorAll('#cards .card')) c.builtNode = true; });
  release();
  await analyzed(page);
  assert.deepEqual(await texts(page), fromHtml);
  assert.equal(await page.locator('[data-built]').count(), 0);
  assert.equal(await page.locator('#cards .card').count(), builtCards);
  // The very nodes painted from the HTML, taken over (not laid out anew), now buttons.
  assert.ok(await page.evaluate(() => [...document.querySelectorAll('#cards .card')].every((c) => c.builtNode && c.getAttribute('role') === 'button' && c.tabIndex === 0)));
  // The page's own cards: hovering one writes its formula (a listener the built ones do not have).
  await page.hover('#cards .card[data-card="tpot"]');
  assert.match(await page.getAttribute('#cards .card[data-card="tpot"]', 'title'), /click for the numbers/);
  assert.deepEqual(consoleErrors, []);
  await context.close();
  // A link: the built numbers are hidden while the script is held, and the core's answer for the link replaces them.
  let releaseLinked, releaseCore;
  const heldLinked = new Promise((resolve) => { releaseLinked = resolve; });
  const heldCore = new Promise((resolve) => { releaseCore = resolve; });
  const linked = await openPage(env.browser, `${env.base}#batch=2`, async (c) => {
    await c.route(/app\.[0-9a-f]+\.js$/, async (route) => { await heldLinked; await route.continue(); });
    await c.route(/\.wasm$/, async (route) => { await heldCore; await route.continue(); });
  }, 'commit');
  await linked.page.waitForSelector('#cards .card', { state: 'attached' });
  // The body can be parsed before the stylesheet arrives; nothing is painted until it has (a stylesheet in the head
  // blocks rendering), so the rules are read once it is loaded (a link's sheet exists only then).
  await linked.page.waitForFunction(() => [...document.querySelectorAll('link[rel=stylesheet]')].every((l) => l.sheet));
  for (const id of ['cards', 'answer', 'status']) {
    assert.equal(await linked.page.evaluate((i) => getComputedStyle(document.getElementById(i)).visibility, id), 'hidden', id);
  }
  // What shows in their place says the page is loading.
  for (const id of ['answer', 'status']) {
    assert.equal(await linked.page.evaluate((i) => getComputedStyle(document.getElementById(i), '::before').content, id), '"Loading the core..."', id);
  }
  releaseLinked();
  // The script runs, the core does not yet: no numbers are shown, and the status says the core is loading (not that
  // the numbers shown are for previous inputs: there are none).
  await linked.page.waitForFunction(() => document.querySelector('section.results').dataset.generation === '1');
  await linked.page.waitForTimeout(400);
  assert.equal(await linked.page.textContent('#status'), 'Loading the core...');
  assert.equal(await linked.page.locator('#cards .card').count(), 0);
  releaseCore();
  await analyzed(linked.page);
  assert.match(await linked.page.textContent('#status'), /^Analyzed in [\d.]+ ms by the WebAssembly core/);
  assert.equal(await linked.page.evaluate(() => getComputedStyle(document.getElementById('cards')).visibility), 'visible');
  const r2 = native('analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--batch', '2', '--prompt', '512', '--gen', '128');
  for (const [label, value] of Object.entries(single(r2))) assert.equal(await cardValue(linked.page, label), value, label);
  assert.deepEqual(linked.consoleErrors, []);
  await linked.context.close();
});

// Until the core has loaded, a change cannot be answered, and the numbers made at build time stay on screen: the
// status line says they are for the previous inputs, and the new ones come when the core does. The core's download
// is held back here until the change is made.
test('a change made while the core loads says the numbers shown are for the previous inputs, then shows the new ones', async () => {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const { page, context, consoleErrors } = await openPage(env.browser, env.base,
    (c) => c.route(/\.wasm$/, async (route) => { await held; await route.continue(); }));
  await analyzed(page);
  assert.match(await page.textContent('#status'), /^Analyzed in advance: /);
  const before = await cardValue(page, 'Time per output token');
  await page.fill('#batch', '2');
  await page.waitForFunction(() => /^Analyzing the new inputs: the numbers below are for the previous ones/.test(document.getElementById('status').textContent));
  assert.equal(await cardValue(page, 'Time per output token'), before);
  release();
  await analyzed(page);
  assert.match(await page.textContent('#status'), /^Analyzed in [\d.]+ ms by the WebAssembly core/);
  const r = native('analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--batch', '2', '--prompt', '512', '--gen', '128');
  for (const [label, value] of Object.entries(single(r))) assert.equal(await cardValue(page, label), value, label);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
