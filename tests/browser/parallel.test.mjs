// Several devices, speculative decoding and the batching curve, as a user meets them: a system preset splits
// DeepSeek-V3 over 8 H200 (cards equal the CLI, the stage and communication tables are listed), a split that does
// not divide is named next to the inputs, Llama-3.1-405B over two nodes with a draft model, and the batching chart.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { bytes, count, rate, seconds } from '../../site/src/format.js';
import { analyzed, artifacts, cardValue, openPage, root, settled, withBrowser, showTab } from './helpers.mjs';

const env = withBrowser();
const cli = path.join(root, 'build/native-release/infercast');
const native = (args) => JSON.parse(execFileSync(cli, [...args, '--format', 'json'], { encoding: 'utf8' }));

async function cardIs(page, label, value) {
  await page.waitForFunction(([l, v]) => {
    for (const c of document.querySelectorAll('.card')) if (c.querySelector('.label').textContent === l) return c.querySelector('.value').textContent === v;
    return false;
  }, [label, value], { timeout: 20000 });
}

test('a system preset splits DeepSeek-V3 over 8 H200: cards equal the CLI; a bad split is named', async () => {
  const { page, context, consoleErrors, requests } = await openPage(env.browser, `${env.base}#model=deepseek-v3&weights=fp8&prompt=1024&gen=256`);
  await analyzed(page);
  // One H100 cannot hold it: the single-device memory card says so.
  assert.match(await page.textContent('#cards'), /does NOT fit/);
  await showTab(page, 'multi');
  await page.selectOption('#system', 'hgx-h200');
  // The plan is the core's for a system without one (the CLI's --system without --tp): tp 8 here, shown in the field.
  await page.waitForFunction(() => /system=hgx-h200/.test(location.hash) && /tp=8/.test(location.hash));
  assert.equal(await page.inputValue('#tp'), '8');
  const cli8 = native(['analyze', '--model', 'deepseek-v3', '--weights', 'fp8', '--prompt', '1024', '--gen', '256', '--hardware', 'nvidia-h200-sxm',
    '--system', path.join(root, 'presets/systems/hgx-h200.json')]).parallel;
  assert.equal(cli8.plan.tp, 8);
  await cardIs(page, 'Memory per device', bytes(cli8.device_required_bytes));
  assert.equal(await cardValue(page, 'Time to first token'), seconds(cli8.ttft_s));
  assert.equal(await cardValue(page, 'Time per output token'), seconds(cli8.tpot_s));
  assert.equal(await cardValue(page, 'Devices'), '8');
  assert.match(await page.textContent('#cards'), /fits/);
  assert.match(await page.textContent('#plan'), /MoE output/);
  assert.match(await page.textContent('#plan'), /all-reduce/);
  // The decode step's communication table: each line's wait for the slowest device (the runtime's) equals the CLI's.
  const decodeTable = page.locator('#plan table').nth(1);
  const heads = await decodeTable.locator('thead th').allTextContents();
  assert.deepEqual(heads, ['What', 'Collective', 'Algorithm', 'Devices', 'Link', 'Calls', 'Bytes', 'Waits', 'Time']);
  const cells = await decodeTable.locator('tbody tr').first().locator('td').allTextContents();
  assert.equal(cells[7], seconds(cli8.communication.decode_step[0].wait_s));
  assert.ok(cli8.communication.decode_step[0].wait_s > 0);
  await page.waitForFunction(() => /stops fitting after/.test(document.getElementById('batching-note').textContent));
  // The curve's fit and the "Fits at most" card differ by a few requests; the note names both and says how each is counted.
  const fitCard = await cardValue(page, 'Fits at most');
  const batchNote = await page.textContent('#batching-note');
  assert.match(batchNote, /a batch stops fitting after [\d,]+ requests, its KV cache and activations computed at each size/);
  if (!batchNote.includes(`after ${fitCard}`)) assert.ok(batchNote.includes(`the "Fits at most" card's ${fitCard.replace(' requests', '')} grows this batch's`), `${fitCard} | ${batchNote}`);
  await page.locator('#plan').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'parallel-deepseek.png'), fullPage: false });
  // Expert parallelism inside tp communicates as tp alone: every device holds every token, so the MoE output is
  // all-reduced (vLLM dispatches with an all-to-all only under data-parallel attention). Same collectives, same TPOT.
  const tpotTp = await cardValue(page, 'Time per output token');
  await page.fill('#ep', '8');
  await page.waitForFunction(() => /ep 8/.test(document.getElementById('cards').textContent));
  assert.doesNotMatch(await page.textContent('#plan'), /all-to-all/);
  assert.equal(await cardValue(page, 'Time per output token'), tpotTp);
  // tp 3 does not divide 128 heads: the message names the field and the valid values; the cards keep the last plan.
  const before = await cardValue(page, 'Memory per device');
  await page.fill('#ep', '1');
  await page.waitForFunction(() => !/ep 8/.test(document.getElementById('cards').textContent));
  await page.fill('#tp', '3');
  await page.waitForFunction(() => /tp holds 3/.test(document.getElementById('parallel-error').textContent));
  assert.equal(await page.textContent('#parallel-error'),
    '/parallel/tp holds 3; DeepSeek-V3: layer 0 has 128 attention heads, which 3 does not divide; expected one of 1, 2, 4, 8, 16, 32, 64, 128');
  assert.equal(await cardValue(page, 'Memory per device'), before);
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(env.base)), []);
  await context.close();
});

// Audit F3: the page sent a system preset as its link numbers alone, so the GeForce PCIe presets lost peer_to_peer
// false (vLLM's custom all-reduce then ran on the page, not in the CLI) and every preset its name and notes.
test('every system preset under a runtime gives the CLI\'s --system numbers and names the system as the CLI does', async () => {
  const systems = JSON.parse(execFileSync(cli, ['call', 'systems'], { input: '{}', encoding: 'utf8' }));
  assert.ok(systems.length >= 20);
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  const workload = ['--batch', '8', '--prompt', '2048', '--gen', '512'];
  let compared = 0;
  for (const sys of systems) {
    for (const runtime of ['vllm', '']) {
      const generation = await page.evaluate(() => document.querySelector('section.results').dataset.generation);
      await page.evaluate((h) => { location.hash = h; }, `system=${sys.id}&batch=8&prompt=2048&gen=512${runtime ? `&runtime=${runtime}` : ''}`);
      await page.waitForFunction((g) => document.querySelector('section.results').dataset.generation !== g, generation);
      await page.waitForFunction(() => document.getElementById('status').dataset.generation === document.querySelector('section.results').dataset.generation);
      let v;
      try {
        v = native(['analyze', '--model', 'llama-3.1-8b', '--system', sys.id, ...(runtime ? ['--runtime', runtime] : []), ...workload]);
      } catch (err) {
        // Refused by the CLI: the page refuses it with the same message.
        assert.match(String(err.stderr), /^infercast: /);
        assert.ok(String(err.stderr).includes(await page.textContent('#answer').then((t) => t.replace(/^No answer yet: /, '').replace(/^.*previous valid input: /, ''))), sys.id);
        continue;
      }
      await analyzed(page);
      const what = `${sys.id} ${runtime || 'no runtime'}`;
      assert.equal(await cardValue(page, 'Time per output token'), seconds(v.parallel.tpot_s), what);
      assert.equal(await cardValue(page, 'Time to first token'), seconds(v.parallel.ttft_s), what);
      assert.ok((await page.textContent('#hardware-info')).endsWith(`; in ${v.parallel.system.name}`), what);
      assert.equal(v.parallel.system.name, sys.name);
      compared += 1;
    }
  }
  assert.ok(compared >= systems.length, `${compared} compared`);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('the memory chart under a plan draws one device of it, never the whole model on one device', async () => {
  // DeepSeek-V3 on 16 H200 (the audit's case): the planner picks tp 8; the chart used to say "444.7% used" and
  // "501.29 GiB do not fit anywhere" while the answer said it fits on each device.
  const scenario = 'model=deepseek-v3&hardware=nvidia-h200-sxm&system=2x-hgx-h200-ib';
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#${scenario}&tab=charts`);
  await settled(page);
  const cli = native(['analyze', '--model', 'deepseek-v3', '--hardware', 'nvidia-h200-sxm', '--system', path.join(root, 'presets/systems/2x-hgx-h200-ib.json')]).parallel;
  assert.equal(cli.fits, true);
  const s0 = cli.stages[0];
  await page.waitForFunction(() => /One device of/.test(document.getElementById('memory').textContent));
  const labels = () => page.$$eval('#memory svg > text', (ts) => ts.map((t) => t.textContent));
  const text = await labels();
  assert.ok(!text.some((t) => /do not fit/.test(t)), text.join(' | '));
  assert.equal(text[0], `One device of 8 (tp 8): ${bytes(s0.capacity_bytes)} usable`);
  assert.equal(text[1], `${((100 * s0.required_bytes) / s0.capacity_bytes).toFixed(1)}% used`);
  assert.match(await page.textContent('#memory-note'), /^One device of the plan/);
  // Two pipeline stages: one bar each, every one under 100%.
  await page.goto(`${env.base}#${scenario}&tp=8&pp=2&tab=charts`);
  await settled(page);
  await page.waitForFunction(() => /stage 1/.test(document.getElementById('memory').textContent));
  const used = (await labels()).filter((t) => /% used$/.test(t));
  assert.equal(used.length, 2);
  for (const u of used) assert.ok(parseFloat(u) < 100, u);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a link naming a system and no plan runs the core\'s plan, as the CLI does; a link naming tp 1 keeps one device', async () => {
  const scenario = 'model=deepseek-v3&weights=fp8&prompt=1024&gen=256&system=hgx-h200';
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#${scenario}`);
  await analyzed(page);
  // The CLI given the system and no --tp: tp 8 (core/parallel default_plan).
  const cli = native(['analyze', '--model', 'deepseek-v3', '--weights', 'fp8', '--prompt', '1024', '--gen', '256', '--hardware', 'nvidia-h200-sxm',
    '--system', path.join(root, 'presets/systems/hgx-h200.json')]).parallel;
  assert.equal(cli.plan.tp, 8);
  assert.equal(await page.inputValue('#tp'), '8');
  assert.equal(await cardValue(page, 'Devices'), '8');
  assert.equal(await cardValue(page, 'Time per output token'), seconds(cli.tpot_s));
  assert.match(await page.textContent('#cards'), /fits/);
  // The link now names the plan the core ran, so it reopens the same numbers.
  await page.waitForFunction(() => /tp=8/.test(location.hash));
  // A link that names tp 1 is a plan of the user's: one H200, which cannot hold the model.
  await page.goto(`${env.base}#${scenario}&tp=1`);
  await analyzed(page);
  assert.equal(await page.inputValue('#tp'), '1');
  assert.match(await page.textContent('#cards'), /does NOT fit/);
  assert.match(page.url(), /tp=1/);
  // Two DGX H100 nodes: one node cannot hold DeepSeek-V3, so the core's plan puts a pipeline stage on each (audit H:
  // it ran tp 8 on one node, "does NOT fit", the other node idle), says why, and the page takes that plan as the CLI.
  await page.goto(`${env.base}#model=deepseek-v3&system=2x-dgx-h100-ib`);
  await analyzed(page);
  const two = native(['analyze', '--model', 'deepseek-v3', '--hardware', 'nvidia-h100-sxm', '--system', path.join(root, 'presets/systems/2x-dgx-h100-ib.json')]).parallel;
  assert.equal(two.plan.pp, 2);
  await page.waitForFunction(() => /pp=2/.test(location.hash));
  assert.equal(await page.inputValue('#pp'), '2');
  assert.equal(await cardValue(page, 'Devices'), '16');
  assert.equal(await cardValue(page, 'Time per output token'), seconds(two.tpot_s));
  assert.match(await page.textContent('body'), /so the default plan adds pipeline stages over the nodes, the fewest that hold it \(tp 8 x pp 2/);
  // Two RTX 4090s run llama.cpp, which splits layers over its GPUs by default (--split-mode layer): the core's plan
  // is pp 2, the page takes it and says why, as the CLI (it was tp 2, vLLM's plan, a third too fast).
  await page.goto(`${env.base}#model=llama-3.1-70b&weights=q4_k_m&system=2x-rtx-4090-pcie`);
  await analyzed(page);
  const ll = native(['analyze', '--model', 'llama-3.1-70b', '--weights', 'q4_k_m', '--system', path.join(root, 'presets/systems/2x-rtx-4090-pcie.json')]).parallel;
  assert.equal(ll.plan.tp, 1);
  assert.equal(ll.plan.pp, 2);
  await page.waitForFunction(() => /pp=2/.test(location.hash));
  assert.equal(await page.inputValue('#tp'), '1');
  assert.equal(await page.inputValue('#pp'), '2');
  assert.equal(await cardValue(page, 'Time per output token'), seconds(ll.tpot_s));
  assert.match(await page.textContent('body'), /llama\.cpp \(CUDA\) splits a model's layers over the devices by default \(pp 2/);
  // The plan's other half of the first question: how long a context each request can have (the CLI's max_context).
  assert.ok(ll.max_context > 10000);
  assert.ok((await page.textContent('#cards')).includes(`at a batch of 1: ${count(ll.max_context)} tokens of context each`));
  // Switching the runtime asks the core again for a plan it picked (vLLM: tensor parallelism), as the CLI would.
  await page.selectOption('#runtime', 'vllm');
  await page.waitForFunction(() => /tp=2/.test(location.hash) && !/pp=2/.test(location.hash));
  assert.equal(await page.inputValue('#tp'), '2');
  assert.equal(await page.inputValue('#pp'), '1');
  // A system the page does not know is left out (it has no links to send for it): one H100, analyzed.
  await page.goto(`${env.base}#model=llama-3.1-8b&system=no-such-system`);
  await analyzed(page);
  assert.equal(await page.inputValue('#system'), '');
  assert.equal(await page.textContent('#parallel-error'), '');
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('Llama-3.1-405B over two H200 nodes with a draft model; the batching curve is drawn and exported', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-405b&batch=4&prompt=2048&gen=256`);
  await analyzed(page);
  await showTab(page, 'multi');
  await page.selectOption('#system', '2x-hgx-h200-ib');
  await page.waitForFunction(() => /tp=8/.test(location.hash));
  await page.fill('#pp', '2');
  await page.waitForFunction(() => document.querySelectorAll('#plan table')[0]?.tBodies[0].rows.length === 2);
  assert.match(await page.textContent('#plan'), /point-to-point/);
  assert.match(await page.textContent('#plan'), /inter-node/);
  await page.click('#spec summary');
  await page.selectOption('#draft', 'llama-3.2-1b');
  await page.fill('#dtok', '4');
  await page.fill('#acc', '0.7');
  await page.waitForFunction(() => /acc=0.7/.test(location.hash) && /dtok=4/.test(location.hash));
  const v = native(['analyze', '--model', 'llama-3.1-405b', '--batch', '4', '--prompt', '2048', '--gen', '256', '--hardware', 'nvidia-h200-sxm',
    '--system', path.join(root, 'presets/systems/2x-hgx-h200-ib.json'), '--tp', '8', '--pp', '2', '--draft', 'llama-3.2-1b',
    '--draft-tokens', '4', '--acceptance', '0.7']);
  await cardIs(page, 'Time per output token', seconds(v.speculative.tpot_s));
  assert.equal(await cardValue(page, 'Speculative decoding'), `${v.speculative.tokens_per_step.toFixed(2)} tok/step`);
  // Throughput follows the speculative TPOT (issue 22, item 5: it used to stay at the plain figure), the plain one
  // beside it.
  assert.ok(v.parallel.total_tokens_per_s > 1.2 * v.speculative.plain_total_tokens_per_s);
  assert.equal(await cardValue(page, 'Throughput'), rate(v.parallel.total_tokens_per_s, 'tok/s'));
  const sub = await page.evaluate(() => [...document.querySelectorAll('.card')].find((c) => c.querySelector('.label').textContent === 'Throughput').querySelector('.sub').textContent);
  assert.match(sub, new RegExp(`; ${rate(v.speculative.plain_total_tokens_per_s, 'tok/s')} without speculative decoding$`));
  // vLLM's mean acceptance length typed in its own field: the CLI's --acceptance-length, and the acceptance then
  // has no say (audit H: vLLM's draft acceptance rate pasted as the acceptance halved the speed-up).
  await page.fill('#accl', '2.5');
  await page.waitForFunction(() => /accl=2.5/.test(location.hash));
  const l = native(['analyze', '--model', 'llama-3.1-405b', '--batch', '4', '--prompt', '2048', '--gen', '256', '--hardware', 'nvidia-h200-sxm',
    '--system', path.join(root, 'presets/systems/2x-hgx-h200-ib.json'), '--tp', '8', '--pp', '2', '--draft', 'llama-3.2-1b',
    '--draft-tokens', '4', '--acceptance-length', '2.5']);
  assert.equal(l.speculative.tokens_per_step, 2.5);
  await cardIs(page, 'Time per output token', seconds(l.speculative.tpot_s));
  assert.equal(await cardValue(page, 'Speculative decoding'), '2.50 tok/step');
  await cardIs(page, 'Time to first token', seconds(l.parallel.ttft_s));
  await page.fill('#accl', '');
  await page.waitForFunction(() => !/accl=/.test(location.hash));
  await cardIs(page, 'Time per output token', seconds(v.speculative.tpot_s));
  await settled(page);  // the batching curve of this plan, not of the one before it
  await page.waitForFunction(() => document.querySelector('#batching canvas') !== null);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-batching')]);
  const text = await (await download.createReadStream()).toArray();
  const lines = Buffer.concat(text).toString().trim().split('\n');
  assert.equal(lines[0], 'batch,ttft_s,tpot_s,e2e_s,tokens_per_s_per_user,total_tokens_per_s,tokens_per_s_per_device,device_required_bytes,fits');
  assert.ok(lines.length > 5);
  assert.ok(lines.some((l) => l.endsWith(',false')), 'the curve reaches past the KV fit');
  await page.locator('#batching').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'parallel-405b.png') });
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
