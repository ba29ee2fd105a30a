// Energy, cost and CO2 cards and the design-space exploration, as a user meets them: the cards equal the CLI, the
// default sweep of about a million design points finishes with its front drawn and listed, a front point becomes a
// custom device, the t_c/t_m map is drawn, a bad axis is named, and the sweep's workers are ready before the click.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { seconds } from '../../site/src/format.js';
import { analyzed, artifacts, cardValue, openPage, root, showTab, withBrowser } from './helpers.mjs';

const env = withBrowser();
const cli = path.join(root, 'build/native-release/infercast');

test('energy, cost and CO2 per token: cards equal the CLI and follow the assumptions', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#hardware=nvidia-rtx-4090&prompt=1024&gen=256`);
  await analyzed(page);
  const native = JSON.parse(execFileSync(cli, ['analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-rtx-4090', '--prompt', '1024',
    '--gen', '256', '--region', 'france', '--format', 'json'], { encoding: 'utf8' }));
  await showTab(page, 'settings');
  await page.click('#costs summary');
  await page.selectOption('#region', 'france');
  await page.waitForFunction(() => /region=france/.test(location.hash));
  await page.waitForFunction((t) => {
    for (const c of document.querySelectorAll('.card')) if (c.querySelector('.label').textContent === 'CO2 per 1M tokens') return c.querySelector('.value').textContent === t;
    return false;
  }, `${native.cost.gCO2e_per_million_tokens.toPrecision(3)} g`);
  assert.equal(await cardValue(page, 'Energy per token'), `${native.cost.decode.j_per_token.toPrecision(3)} J`);
  assert.equal(await cardValue(page, 'Cost per 1M tokens'), `$${native.cost.usd_per_million_tokens.toPrecision(3)}`);
  // A bad assumption is named next to the inputs and nothing else changes.
  await page.fill('#pue', '0.2');
  await page.waitForFunction(() => /PUE holds/.test(document.getElementById('cost-error').textContent));
  assert.equal(await page.textContent('#cost-error'), 'PUE holds "0.2"; expected a number from 1 to 10');
  assert.equal(await cardValue(page, 'Cost per 1M tokens'), `$${native.cost.usd_per_million_tokens.toPrecision(3)}`);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a million-point sweep draws its front, a front point becomes a device, and the t_c/t_m map is drawn', async () => {
  const { page, context, consoleErrors, requests } = await openPage(env.browser, `${env.base}#batch=8&prompt=1024&gen=256`);
  await analyzed(page);
  await page.waitForFunction(() => /prefill:/.test(document.getElementById('tctm-note').textContent));
  await showTab(page, 'dse');
  await page.fill('#dse-max-power', '700');
  const t0 = Date.now();
  await page.click('#dse-run');
  await page.waitForFunction(() => /on the front/.test(document.getElementById('dse-status').textContent), null, { timeout: 30000 });
  const wall = Date.now() - t0;
  const status = await page.textContent('#dse-status');
  assert.match(status, /^1,048,576 points in \d+ ms/);
  console.log(`# sweep in Chromium: ${status.split(' (')[0]}; click to drawn front ${wall} ms`);
  const rows = await page.$$eval('#dse-front tbody tr', (trs) => trs.length);
  assert.ok(rows > 1, `front rows ${rows}`);
  // Every front point keeps the power cap.
  const powers = await page.$$eval('#dse-front tbody tr', (trs) => {
    const head = [...document.querySelectorAll('#dse-front thead th')].map((th) => th.textContent);
    const i = head.lastIndexOf('Power (W)');
    return trs.map((tr) => Number(tr.cells[i].textContent.replace(/,/g, '')));
  });
  assert.ok(powers.every((p) => p <= 700), powers.join(','));
  await page.locator('#dse-plot').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'dse.png') });
  // Clicking the plot near a front point selects its row; "Use as device" loads it.
  await page.click('#dse-front tbody tr:first-child button');
  await page.waitForFunction(() => /Loaded Design/.test(document.getElementById('dse-status').textContent));
  await analyzed(page);
  assert.match(await page.inputValue('#hardware'), /^custom:custom-design-/);
  assert.match(await page.evaluate(() => location.hash), /device=/);
  // A bad axis is named.
  await page.fill('#dse-axes tbody tr:first-child input[aria-label$="steps"]', '');
  await page.click('#dse-run');
  assert.equal(await page.textContent('#dse-error'), 'Compute (bf16 TFLOPS): from, to and steps must be numbers');
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(env.base.replace(/infercast\/$/, ''))), []);
  await context.close();
});

// The sweep's workers start when the design space is shown (site/src/dsepanel.js, warmSweepWorkers): the first
// click on Run makes no worker of its own and so does not wait for one to load the core.
test('the sweep runs on workers started when the design space was shown', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1360, height: 1000 } });
  await context.addInitScript(() => {
    Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 2 });
    const Real = window.Worker;
    window.__workers = 0;
    window.Worker = class extends Real {
      constructor(...args) {
        super(...args);
        window.__workers += 1;
      }
    };
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${env.base}#batch=8&prompt=1024&gen=256`);
  await analyzed(page);
  const before = await page.evaluate(() => window.__workers);
  await showTab(page, 'dse');
  await page.waitForFunction(() => /prefill:/.test(document.getElementById('tctm-note').textContent));
  const shown = await page.evaluate(() => window.__workers);
  assert.ok(shown >= before + 2, `${before} workers before the tab, ${shown} after`);
  await page.click('#dse-run');
  await page.waitForFunction(() => /on the front/.test(document.getElementById('dse-status').textContent), null, { timeout: 30000 });
  assert.match(await page.textContent('#dse-status'), /on 2 workers/);
  assert.equal(await page.evaluate(() => window.__workers), shown);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a long sweep never holds an analysis back, and a change of the inputs stops it', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  // 122 x 32 x 32 x 32 = 3,997,696 points, just under the sweep_points limit (the limits call): seconds of work.
  await showTab(page, 'dse');
  await page.fill('#dse-axes tbody tr:nth-child(1) input[aria-label$="steps"]', '122');
  // The inputs change right after the click: on two workers the sweep now takes well under a second (684 ms in a
  // CI run), which a wait for its status by polling could miss entirely. The click sets the status synchronously.
  await page.click('#dse-run');
  assert.match(await page.textContent('#dse-status'), /^Sweeping 3,997,696/);
  const t0 = Date.now();
  await page.fill('#batch', '4');
  await analyzed(page);
  const ms = Date.now() - t0;
  const native = JSON.parse(execFileSync(cli, ['analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--batch', '4',
    '--format', 'json'], { encoding: 'utf8' }));
  assert.equal(await cardValue(page, 'Time per output token'), seconds(native.decode.tpot_s));
  assert.equal(await page.textContent('#dse-status'), 'Sweep stopped: the inputs changed. Run it again for the new inputs.');
  console.log(`# new numbers ${ms} ms after the change, with a 4M-point sweep in flight (stopped)`);
  // The next sweep runs on a fresh worker and finishes.
  await page.fill('#dse-axes tbody tr:nth-child(1) input[aria-label$="steps"]', '4');
  await page.click('#dse-run');
  await page.waitForFunction(() => /on the front/.test(document.getElementById('dse-status').textContent), null, { timeout: 30000 });
  assert.match(await page.textContent('#dse-status'), /^131,072 points in \d+ ms/);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// The t_c/t_m map is drawn around the analyzed device (a tenth to twice its peak and bandwidth), with the device
// ringed on it, and follows a new device while it shows: a fixed 10 to 100 TOPS x 10 to 100 GB/s held no device.
test('the t_c/t_m map spans the analyzed device, rings it, and follows a new device', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#hardware=nvidia-rtx-4090&tab=dse`);
  await analyzed(page);
  const spans = async (name) => {
    await page.waitForFunction((n) => document.getElementById('tctm-note').textContent.includes(`Around ${n} `), name, { timeout: 30000 });
    const note = await page.textContent('#tctm-note');
    const m = /ringed: ([\d.]+) \w+ TOPS, ([\d.]+) GB\/s\): ([\d.]+) to ([\d.]+) TOPS, ([\d.]+) to ([\d.]+) GB\/s\.$/.exec(note);
    assert.ok(m, note);
    const [tops, bw, c0, c1, b0, b1] = m.slice(1).map(Number);
    assert.ok(c0 < tops && tops < c1 && b0 < bw && bw < b1, note);
    return { tops, bw };
  };
  const rtx = await spans('NVIDIA GeForce RTX 4090');
  assert.ok(rtx.tops > 100 && rtx.bw > 900, JSON.stringify(rtx));  // far outside the old 10-100 x 10-100 map
  await page.locator('#tctm').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'tctm-rtx4090.png') });
  await page.selectOption('#hardware', 'apple-m1');
  const m1 = await spans('Apple M1');
  assert.ok(m1.bw < 100, JSON.stringify(m1));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
