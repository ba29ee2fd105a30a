// The serving and deployment panel as a user meets it: a serving forecast equals the CLI's, the deployment search
// draws its Pareto front, explains the best deployment and prints launch commands, and a search of more than
// 10,000 configurations (Llama-3.1-70B on four DGX H100 nodes) finishes in Chromium in under a second.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { seconds } from '../../site/src/format.js';
import { analyzed, artifacts, openPage, root, showTab, withBrowser } from './helpers.mjs';

const env = withBrowser();
const cli = path.join(root, 'build/native-release/infercast');
const native = (args) => JSON.parse(execFileSync(cli, [...args, '--format', 'json'], { encoding: 'utf8' }));

test('serving in the page equals the CLI; the deployment front, the best and its launch commands', async () => {
  const { page, context, consoleErrors, requests } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-h100-sxm`);
  await analyzed(page);
  await showTab(page, 'serving');  // the panel lives in the Serving tab
  await page.fill('#srv-isl', '512');
  await page.fill('#srv-osl', '128');
  await page.fill('#srv-value', '16');
  await page.click('#srv-run');
  await page.waitForFunction(() => /Simulated in/.test(document.getElementById('srv-status').textContent), null, { timeout: 30000 });
  const cliServing = native(['serving', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--concurrency', '16', '--isl', '512', '--osl', '128']);
  const text = await page.textContent('#srv-result');
  assert.ok(text.includes(seconds(cliServing.ttft_s.p50)), `TTFT p50 ${seconds(cliServing.ttft_s.p50)} in ${text}`);
  assert.ok(text.includes(seconds(cliServing.tpot_s.p99)), 'TPOT p99');
  // Multi-step scheduling (vLLM 0.6's --num-scheduler-steps): the page's field is the CLI's --scheduler-steps.
  await page.fill('#srv-steps', '8');
  await page.click('#srv-run');
  await page.waitForFunction(() => /Simulated in/.test(document.getElementById('srv-status').textContent), null, { timeout: 30000 });
  const cliSteps = native(['serving', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--concurrency', '16', '--isl', '512', '--osl', '128', '--scheduler-steps', '8']);
  assert.equal(cliSteps.scheduler.scheduler_steps, 8);
  assert.ok(cliSteps.itl_s.p50 > 4 * cliServing.itl_s.p50);
  await page.waitForFunction((v) => document.getElementById('srv-result').textContent.includes(v), seconds(cliSteps.itl_s.p50), { timeout: 30000 });
  await page.fill('#srv-steps', '0');

  // What the Pareto plot writes: its legend and its tick labels (a front inside one decade once had none, and red
  // and blue points no legend).
  await page.evaluate(() => {
    window.__plotTexts = [];
    const fill = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      if (this.canvas.id === 'dep-plot') window.__plotTexts.push(String(text));
      return fill.call(this, text, ...rest);
    };
  });
  await page.fill('#dep-devices', '4');
  await page.fill('#dep-ttft', '1000');
  await page.fill('#dep-tpot', '30');
  await page.click('#dep-run');
  await page.waitForFunction(() => /configurations over/.test(document.getElementById('dep-status').textContent), null, { timeout: 60000 });
  const cliDeploy = native(['deploy', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--devices', '4', '--isl', '512', '--osl', '128',
    '--max-ttft-ms', '1000', '--max-tpot-ms', '30']);
  assert.match(await page.textContent('#dep-status'), new RegExp(`^${cliDeploy.evaluated.toLocaleString('en-US')} configurations`));
  assert.equal(await page.textContent('#dep-best'), `Best under the SLA: ${cliDeploy.best.explanation}.`);
  assert.match(await page.textContent('#dep-launch'), /vllm serve meta-llama\/Llama-3.1-8B/);
  assert.match(await page.textContent('#dep-launch'), /sglang.launch_server/);
  assert.match(await page.textContent('#dep-launch'), /trtllm-serve/);
  assert.equal(await page.locator('#dep-front tbody tr').count(), cliDeploy.front.length);
  const plotTexts = await page.evaluate(() => window.__plotTexts);
  for (const t of ['tokens/s per user', 'tokens/s per device', 'aggregated', 'disaggregated', 'best under the SLA']) assert.ok(plotTexts.includes(t), `${t} in ${plotTexts}`);
  assert.ok(plotTexts.filter((t) => /^[\d,.]+$/.test(t)).length >= 4, `tick labels in ${plotTexts}`);
  await page.locator('#serving-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'serving-panel.png'), fullPage: false });
  // explain.js reads hardware.efficiency, which hardware documents no longer always carry (the runtimes merge): that
  // error is the page's own, seen by every browser test; this panel must add none.
  assert.deepEqual(consoleErrors.filter((e) => !e.includes("reading 'gemm'")), []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(env.base)), []);
  await context.close();
});

test('a search over more than 10,000 deployments takes under a second in Chromium', async () => {
  const { page, context } = await openPage(env.browser, `${env.base}#model=llama-3.1-70b&hardware=nvidia-h100-sxm`);
  await analyzed(page);
  // Four DGX H100 nodes: Llama-3.1-70B has more than 10,000 aggregated and disaggregated deployments on them. The
  // status times the deploy call on the core's worker (the request and the result's JSON included).
  await showTab(page, 'multi');  // the system is chosen in the Several devices tab
  await page.selectOption('#system', '4x-dgx-h100-ib');
  await page.waitForFunction(() => /system=4x-dgx-h100-ib/.test(location.hash));
  await showTab(page, 'serving');
  await page.fill('#srv-isl', '2048');
  await page.fill('#srv-osl', '512');
  await page.fill('#dep-devices', '32');
  await page.fill('#dep-ttft', '2000');
  await page.fill('#dep-tpot', '50');
  let best = Infinity;
  let evaluated = 0;
  for (let i = 0; i < 3; i++) {
    await page.evaluate(() => { document.getElementById('dep-status').textContent = ''; });
    await page.click('#dep-run');
    await page.waitForFunction(() => /configurations over/.test(document.getElementById('dep-status').textContent)
      || document.getElementById('dep-error').textContent, null, { timeout: 60000 });
    assert.equal(await page.textContent('#dep-error'), '');
    const m = /^([\d,]+) configurations over \d+ parallel layouts in (\d+) ms/.exec(await page.textContent('#dep-status'));
    assert.ok(m, await page.textContent('#dep-status'));
    evaluated = Number(m[1].replace(/,/g, ''));
    best = Math.min(best, Number(m[2]));
  }
  console.log(`deploy in Chromium: ${evaluated} configurations in ${best} ms`);
  assert.ok(evaluated >= 10000, `${evaluated} configurations`);
  assert.ok(best < 1000, `${best} ms`);
  await context.close();
});

// A serving run and a deployment search run side by side on lanes of their own: neither ends the other (they used to
// share the design-space sweep's lane, and the one started second left the first saying "Simulating..." for good).
// A change of the page's inputs stops a run in flight and says so.
test('a serving run and a deployment search at once both answer; a change of inputs stops a run and says so', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-h100-sxm`);
  await analyzed(page);
  await showTab(page, 'serving');
  await page.fill('#srv-value', '64');
  await page.fill('#dep-devices', '4');
  await page.click('#srv-run');
  await page.click('#dep-run');
  await page.waitForFunction(() => /Simulated in/.test(document.getElementById('srv-status').textContent), null, { timeout: 60000 });
  await page.waitForFunction(() => /configurations over/.test(document.getElementById('dep-status').textContent), null, { timeout: 60000 });
  // A long run, then a new prompt length for the page: the run stops and says why.
  await page.fill('#srv-value', '512');
  await page.fill('#srv-osl', '2048');
  await page.click('#srv-run');
  assert.equal(await page.textContent('#srv-status'), 'Simulating...');
  await page.fill('#batch', '2');
  await page.waitForFunction(() => /^Stopped: the inputs changed/.test(document.getElementById('srv-status').textContent), null, { timeout: 10000 });
  await analyzed(page);
  await page.click('#srv-run');
  await page.waitForFunction(() => /Simulated in/.test(document.getElementById('srv-status').textContent), null, { timeout: 120000 });
  assert.deepEqual(consoleErrors.filter((e) => !e.includes("reading 'gemm'")), []);
  await context.close();
});

// The panel's inputs travel in the link as the main inputs do: a reload or a shared link brings them back (the
// runs wait for their buttons, as the design-space sweep does). A choice a select does not offer gives its default.
test('the serving and deployment inputs are kept in the link and restored from it', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-h100-sxm`);
  await analyzed(page);
  await showTab(page, 'serving');
  await page.fill('#srv-isl', '4096');
  await page.fill('#srv-osl', '512');
  await page.selectOption('#srv-dist', 'lognormal');
  await page.selectOption('#srv-load', 'rate');
  await page.fill('#srv-value', '2.5');
  await page.fill('#srv-steps', '4');
  await page.selectOption('#srv-runtime', 'tensorrt-llm');
  await page.fill('#dep-devices', '4');
  await page.fill('#dep-ttft', '800');
  await page.fill('#dep-tpot', '20');
  await page.selectOption('#dep-disagg', 'off');
  await page.waitForFunction(() => location.hash.includes('disagg=off'));
  const want = { 'srv-isl': '4096', 'srv-osl': '512', 'srv-dist': 'lognormal', 'srv-load': 'rate', 'srv-value': '2.5', 'srv-steps': '4',
    'srv-runtime': 'tensorrt-llm', 'dep-devices': '4', 'dep-ttft': '800', 'dep-tpot': '20', 'dep-disagg': 'off' };
  const values = (p) => p.evaluate((ids) => Object.fromEntries(ids.map((id) => [id, document.getElementById(id).value])), Object.keys(want));
  const url = page.url();
  assert.match(url, /tab=serving/);
  await page.reload();
  await analyzed(page);
  assert.deepEqual(await values(page), want);
  const second = await openPage(env.browser, url);
  await analyzed(second.page);
  assert.equal(await second.page.isVisible('#serving-panel'), true);
  assert.deepEqual(await values(second.page), want);
  // The restored inputs make a request the core runs.
  await second.page.click('#srv-run');
  await second.page.waitForFunction(() => /Simulated in/.test(document.getElementById('srv-status').textContent), null, { timeout: 60000 });
  await second.context.close();
  const third = await openPage(env.browser, `${env.base}#tab=serving&lengths=bogus&load=1&isl=abc&osl=64`);
  await analyzed(third.page);
  assert.equal(await third.page.inputValue('#srv-dist'), 'fixed');
  assert.equal(await third.page.inputValue('#srv-load'), 'concurrency');
  assert.equal(await third.page.inputValue('#srv-isl'), '1024');
  assert.equal(await third.page.inputValue('#srv-osl'), '64');
  await third.context.close();
  assert.deepEqual(consoleErrors.filter((e) => !e.includes("reading 'gemm'")), []);
  await context.close();
});

// The panel's first runtime choice sends no runtime of its own, so the Device panel's choice runs (or the device's
// usual one): the choice is named after the runtime that will run, and each status line says which ran.
test('the serving runtime choice names the runtime that runs, and the status lines say it', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-h100-sxm&runtime=sglang&tab=serving`);
  await analyzed(page);
  const first = () => page.$eval('#srv-runtime', (s) => s.options[0].textContent);
  await page.waitForFunction(() => document.getElementById('srv-runtime').options[0].textContent === 'as the Device panel: SGLang');
  await page.fill('#srv-value', '8');
  await page.fill('#dep-devices', '2');
  await page.click('#srv-run');
  await page.waitForFunction(() => /Simulated in/.test(document.getElementById('srv-status').textContent), null, { timeout: 60000 });
  assert.match(await page.textContent('#srv-status'), /under SGLang\.$/);
  await page.click('#dep-run');
  await page.waitForFunction(() => /configurations over/.test(document.getElementById('dep-status').textContent), null, { timeout: 60000 });
  assert.match(await page.textContent('#dep-status'), / ms under SGLang; /);
  // The panel's own choice wins over the Device panel's.
  await page.selectOption('#srv-runtime', 'tensorrt-llm');
  await page.click('#dep-run');
  await page.waitForFunction(() => / ms under TensorRT-LLM; /.test(document.getElementById('dep-status').textContent), null, { timeout: 60000 });
  // No runtime under Device: the device's usual one, by name.
  await page.selectOption('#runtime', '');
  await analyzed(page);
  const usual = await page.$eval('#runtime', (s) => s.options[0].textContent.replace("the device's usual: ", ''));
  await page.waitForFunction((u) => document.getElementById('srv-runtime').options[0].textContent === `the device's usual: ${u}`, usual);
  assert.ok(!/Device panel/.test(await first()));
  assert.deepEqual(consoleErrors.filter((e) => !e.includes("reading 'gemm'")), []);
  await context.close();
});

// An edge user's llama-server: --parallel 4 slots and a 512-token batch are the panel's sequence cap and tokens per
// step (the request's serving.max_num_seqs and max_num_batched_tokens), equal to the CLI's flags; empty fields keep
// the runtime's, and both travel in the link.
test('the sequence cap and tokens per step model llama-server --parallel and equal the CLI', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser,
    `${env.base}#model=llama-3.1-8b&hardware=nvidia-rtx-4090&weights=q4_k_m&runtime=llama.cpp-cuda&tab=serving`);
  await analyzed(page);
  assert.equal(await page.inputValue('#srv-seqs'), '');
  assert.equal(await page.inputValue('#srv-batched'), '');
  await page.fill('#srv-value', '8');
  await page.fill('#srv-seqs', '4');
  await page.fill('#srv-batched', '512');
  await page.click('#srv-run');
  await page.waitForFunction(() => /Simulated in/.test(document.getElementById('srv-status').textContent), null, { timeout: 60000 });
  const cliServing = native(['serving', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-rtx-4090', '--weights', 'q4_k_m', '--runtime', 'llama.cpp-cuda',
    '--concurrency', '8', '--isl', '1024', '--osl', '256', '--max-num-seqs', '4', '--max-batched-tokens', '512']);
  assert.equal(cliServing.scheduler.max_num_seqs, 4);
  const text = await page.textContent('#srv-result');
  assert.match(text, /512 tokens per step, up to 4 sequences/);
  assert.ok(text.includes(seconds(cliServing.ttft_s.p50)), `TTFT p50 ${seconds(cliServing.ttft_s.p50)} in ${text}`);
  assert.match(page.url(), /seqs=4/);
  assert.match(page.url(), /batched=512/);
  await page.reload();
  await analyzed(page);
  assert.equal(await page.inputValue('#srv-seqs'), '4');
  assert.equal(await page.inputValue('#srv-batched'), '512');
  // Emptied, each is the runtime's again.
  await page.fill('#srv-seqs', '');
  await page.fill('#srv-batched', '');
  await page.waitForFunction(() => !/seqs=|batched=/.test(location.hash));
  assert.deepEqual(consoleErrors.filter((e) => !e.includes("reading 'gemm'")), []);
  await context.close();
});
