// The views added for issue 6, used as a reader would: every card and operator cell explains itself with the
// scenario's values (and the explanation lands on the number shown), the decomposition and memory-tier charts,
// devices and models side by side equal to the CLI, PNG and SVG exports, efficiencies under "advanced" and
// ragged requests typed in the page, each equal to the CLI for the same scenario.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { seconds, si } from '../../site/src/format.js';
import { artifacts, cardValue, openPage, root, settled, withBrowser, showTab } from './helpers.mjs';

const env = withBrowser();
const cli = path.join(root, 'build/native-release/infercast');
const analyze = (...args) => JSON.parse(execFileSync(cli, ['analyze', ...args, '--format', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));

test('cards and operator cells explain themselves, and the arithmetic lands on the numbers shown', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-h100-sxm&batch=4`);
  await settled(page);
  await page.click('.card:has-text("Time to first token")');
  await page.waitForSelector('#explain:not([hidden])');
  assert.equal(await page.textContent('#explain-title'), 'Time to first token');
  assert.match(await page.textContent('#explain-formula'), /^TTFT = sum over prefill operators of \[max\(FLOPs \/ \(peak x e_class\)/);
  const lines = (await page.textContent('#explain-lines')).split('\n');
  assert.equal(lines.at(-1), `TTFT = ${await cardValue(page, 'Time to first token')}`);
  // The per-operator sum printed first, plus the runtime's host work per step printed next, equals the card.
  const ttftShown = await cardValue(page, 'Time to first token');
  assert.match(lines[0], /^= \d+ operators: .* = [\d.]+ [mµ]?s$/);
  assert.match(lines[1], new RegExp(`^\\+ vLLM \\(V1 engine\\): .*µs of host work per step = ${ttftShown.replace('.', '\\.')}$`));
  assert.match(await page.textContent('#explain-convention'), /^Convention "infercast": what a good implementation executes/);
  await page.screenshot({ path: path.join(artifacts, 'explain.png') });
  // Keyboard: Escape closes and gives the focus back; Enter on an operator's time cell opens its arithmetic.
  await page.keyboard.press('Escape');
  assert.equal(await page.isHidden('#explain'), true);
  assert.equal(await page.evaluate(() => document.activeElement.querySelector('.label')?.textContent), 'Time to first token');
  await showTab(page, 'ops');
  await page.selectOption('#ops-phase', 'decode');
  const row = page.locator('#ops tbody tr', { hasText: 'down_proj' });
  const cell = row.locator('td[data-field="time_s"]');
  const shown = await cell.textContent();
  await cell.focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('#explain:not([hidden])');
  const op = (await page.textContent('#explain-lines')).split('\n');
  // The arithmetic redone here from the inputs the panel shows lands on the results it shows (display rounding).
  const num = (t) => {
    const m = /^([\d.,]+) ?(k|M|G|T|P|Ki|Mi|Gi|Ti|m|µ)?(FLOP|B|s|TFLOP\/s|GB\/s)?$/.exec(t.trim());
    const scale = { k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, m: 1e-3, 'µ': 1e-6 };
    const base = m[3] === 'TFLOP/s' ? 1e12 : m[3] === 'GB/s' ? 1e9 : 1;
    return Number(m[1].replace(/,/g, '')) * (scale[m[2]] || 1) * base;
  };
  const near = (a, b, what) => assert.ok(Math.abs(a / b - 1) < 0.01, `${what}: ${a} vs ${b}`);
  const c = /^compute = FLOPs \/ \(bf16 peak x e\) = (.+) \/ \((989\.4 TFLOP\/s) x ([\d.]+)\) = ([^(]+) \(e: vLLM \(V1 engine\)'s gemm efficiency x this GEMM's tile waves\)$/.exec(op[0]);
  assert.ok(c, op[0]);
  near(num(c[1]) / (num(c[2]) * Number(c[3])), num(c[4]), 'compute');
  const mem = /^memory = bytes \/ achieved bandwidth = (.+) \/ ([\d,.]+ GB\/s) = ([^(]+) \(the tiers' bandwidth x vLLM \(V1 engine\)'s memory efficiency [\d.]+\)$/.exec(op[1]);
  assert.ok(mem, op[1]);
  near(num(mem[1]) / num(mem[2]), num(mem[3]), 'memory');
  mem[4] = mem[3];
  const disp = /^dispatch = (\d+) kernels x ([\d.]+) µs gap \(vLLM \(V1 engine\), replayed graph\) = (.+)$/.exec(op[2]);
  near(Number(disp[1]) * Number(disp[2]) * 1e-6, num(disp[3]), 'dispatch');
  near(Math.max(num(c[4]), num(mem[4])) + num(disp[3]), num(shown), 'time');
  assert.ok(op[3].endsWith(`= ${shown}`), `${op[3]} ends with ${shown}`);
  await page.click('#explain-close');
  // Per layer: each value is its total over the layers divided by the count (32 for Llama-3.1-8B's down_proj).
  const total = await row.locator('td[data-field="flops"]').textContent();
  await page.selectOption('#ops-view', 'layer');
  await page.waitForFunction(() => /opsView=layer/.test(location.hash));
  const perLayer = await page.locator('#ops tbody tr', { hasText: 'down_proj' }).locator('td[data-field="flops"]').textContent();
  const v = analyze('--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--batch', '4');
  const down = v.ops.find((o) => o.phase === 'decode' && o.name === 'down_proj');
  assert.equal(total, si(down.flops, 'FLOP'));
  assert.equal(perLayer, si(down.flops / 32, 'FLOP'));
  assert.equal(down.count, 32);
  assert.equal(await page.textContent('#ops tr.total td:first-child'), 'Total (all layers)');
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('decomposition and memory-tier charts; placements on a device with two tiers equal the CLI', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-70b&hardware=sambanova-sn40l`);
  await settled(page);
  const totals = await page.$$eval('#decomposition text.total', (ts) => ts.map((t) => t.textContent));
  const v = analyze('--model', 'llama-3.1-70b', '--hardware', 'sambanova-sn40l');
  assert.equal(totals[0], si(v.prefill.flops, 'FLOP'));  // prefill FLOPs bar
  assert.equal(totals[1], seconds(v.ttft_s));             // prefill time bar: the TTFT
  assert.equal(totals[3], si(v.decode.flops, 'FLOP'));    // first decode step's FLOPs
  assert.equal(await page.$$eval('#memory svg rect[fill-opacity]', (rs) => rs.length) > 0, true);
  assert.match(await page.textContent('#memory'), /HBM \(co-packaged\).*% used/);
  const rows = await page.$$eval('#placements tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 4);
  const pinned = analyze('--model', 'llama-3.1-70b', '--hardware', 'sambanova-sn40l', '--pin-weights', '1', '--pin-kv', '1');
  assert.deepEqual(rows[3].slice(0, 2), ['DDR5 (direct-attached)', 'DDR5 (direct-attached)']);
  assert.equal(rows[3][4], seconds(pinned.decode.tpot_s));
  assert.equal(rows[0][4], seconds(v.decode.tpot_s));
  await showTab(page, 'charts');
  await page.locator('#memory').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'memory-tiers.png') });
  // Exports: SVG as drawn, PNG from an SVG chart and from a uPlot canvas.
  for (const [sel, magic] of [['button[data-svg="memory"]', '<svg'], ['button[data-png="decomposition"]', '\x89PNG'], ['button[data-png="timeline"]', '\x89PNG']]) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(sel)]);
    const file = path.join(artifacts, download.suggestedFilename());
    await download.saveAs(file);
    assert.equal(fs.readFileSync(file, 'latin1').slice(0, magic.length), magic, sel);
  }
  // A uPlot chart as SVG: its axes' labels and ticks, a line per series, a legend.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('button[data-svg="timeline"]')]);
  const svgFile = path.join(artifacts, dl.suggestedFilename());
  await dl.saveAs(svgFile);
  const svg = fs.readFileSync(svgFile, 'utf8');
  assert.equal(dl.suggestedFilename(), 'infercast-timeline.svg');
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg, />context \(tokens\)</);
  assert.match(svg, />TPOT \(ms\)</);
  assert.equal((svg.match(/<polyline /g) || []).length, 1);
  assert.equal((svg.match(/>TPOT \(ms\)</g) || []).length, 2);  // the axis and the legend
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('the SVG charts redrawn in place on every input equal the same charts drawn afresh', async () => {
  // Each chart as a canonical text: attributes sorted (an element reused for another one keeps its old attributes'
  // order), text and child elements in order.
  const charts = (page) => page.evaluate(() => {
    const norm = (n) => (n.nodeType === Node.TEXT_NODE ? n.data
      : `<${n.localName} ${[...n.attributes].map((a) => `${a.name}="${a.value}"`).sort().join(' ')}>${[...n.childNodes].map(norm).join('')}</${n.localName}>`);
    return ['roofline', 'decomposition', 'memory'].map((id) => norm(document.getElementById(id)));
  });
  const target = 'model=llama-3.1-70b&hardware=sambanova-sn40l&batch=4&gen=512';
  const fresh = await openPage(env.browser, `${env.base}#${target}`);
  await settled(fresh.page);
  const want = await charts(fresh.page);
  await fresh.context.close();
  // The same charts reached through scenarios of other shapes: one memory tier and a mixture of experts, then
  // fewer operators on another device; each change redraws the charts over the previous drawing.
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=mixtral-8x7b&hardware=nvidia-h100-sxm`);
  await settled(page);
  await page.evaluate(() => { for (const id of ['roofline', 'decomposition', 'memory']) document.querySelector(`#${id} svg`).infercastFirst = 'yes'; });
  for (const hash of ['model=llama-3.2-1b&hardware=nvidia-rtx-4090&gen=2048', target]) {
    await page.evaluate((h) => { location.hash = h; }, hash);
    await settled(page);
  }
  assert.deepEqual(await charts(page), want);
  assert.ok(want.every((c) => c.includes('<title ')), 'the charts carry their titles');
  // Redrawn in place: the <svg> elements are the ones the first scenario drew.
  assert.deepEqual(await page.evaluate(() => ['roofline', 'decomposition', 'memory'].map((id) => document.querySelector(`#${id} svg`).infercastFirst)),
    ['yes', 'yes', 'yes']);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('devices and models side by side equal the CLI, and the comparison survives a reload', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-h100-sxm&prompt=1024`);
  await settled(page);
  await showTab(page, 'compare');
  await page.selectOption('#compare-device', 'nvidia-l4');
  await page.waitForFunction(() => document.querySelectorAll('#compare tbody tr').length === 2);
  await page.selectOption('#compare-model', 'qwen3-8b');
  await page.waitForFunction(() => document.querySelectorAll('#compare tbody tr').length === 3);
  await page.waitForFunction(() => /cmp=h%3Anvidia-l4%2Cm%3Aqwen3-8b/.test(location.hash));
  const cells = async () => page.$$eval('#compare tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.firstChild ? c.firstChild.textContent : '')));
  let rows = await cells();
  const l4 = analyze('--model', 'llama-3.1-8b', '--hardware', 'nvidia-l4', '--prompt', '1024');
  const qwen = analyze('--model', 'qwen3-8b', '--hardware', 'nvidia-h100-sxm', '--prompt', '1024');
  assert.equal(rows[1][0], 'on NVIDIA L4');
  assert.deepEqual(rows[1].slice(1, 3), [seconds(l4.ttft_s), seconds(l4.decode.tpot_s)]);
  assert.equal(rows[2][0], 'Qwen3-8B');
  assert.deepEqual(rows[2].slice(1, 3), [seconds(qwen.ttft_s), seconds(qwen.decode.tpot_s)]);
  assert.match(await page.textContent('#compare tbody tr:nth-child(2)'), /\d+(\.\d+)?x/);
  // A new workload recomputes every row; a reload restores the same comparison.
  await page.fill('#gen', '512');
  await page.waitForFunction(() => /gen=512/.test(location.hash));
  await settled(page);
  const l4b = analyze('--model', 'llama-3.1-8b', '--hardware', 'nvidia-l4', '--prompt', '1024', '--gen', '512');
  await page.waitForFunction((t) => document.querySelector('#compare tbody tr:nth-child(2) td:nth-child(3)').firstChild.textContent === t, seconds(l4b.decode.tpot_s));
  await page.reload();
  await settled(page);
  await page.waitForFunction(() => document.querySelectorAll('#compare tbody tr').length === 3);
  rows = await cells();
  assert.equal(rows[1][2], seconds(l4b.decode.tpot_s));
  await page.locator('#compare').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'compare.png') });
  await page.click('#compare button[aria-label="Remove device nvidia-l4 from the comparison"]');
  await page.waitForFunction(() => document.querySelectorAll('#compare tbody tr').length === 2);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('efficiencies under advanced and ragged requests equal the CLI; bad values are named', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-h100-sxm`);
  await settled(page);
  await showTab(page, 'settings');
  await page.click('#advanced summary');
  // The placeholder is what the analysis ran with: the device's runtime's (vLLM on an H100), as the CLI resolves it.
  const ran = analyze('--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm').execution.efficiency;
  await page.waitForFunction((v) => document.getElementById('eff-gemm').placeholder === v, String(+ran.gemm.toPrecision(4)));
  await page.fill('#eff-gemm', '0.5');
  await page.fill('#eff-dispatch', '4');
  await page.waitForFunction(() => /egemm=0\.5/.test(location.hash) && /edisp=4/.test(location.hash));
  const doc = JSON.parse(fs.readFileSync(path.join(root, 'presets/hardware/nvidia-h100-sxm.json'), 'utf8'));
  doc.efficiency = { ...(doc.efficiency || {}), gemm: 0.5, dispatch_us: 4 };
  const hwFile = path.join(artifacts, 'h100-gemm-0.5.json');
  fs.writeFileSync(hwFile, JSON.stringify(doc));
  const eff = analyze('--model', 'llama-3.1-8b', '--hardware', hwFile);
  await page.waitForFunction((t) => [...document.querySelectorAll('.card')].some((c) => c.querySelector('.value').textContent === t), seconds(eff.ttft_s));
  assert.equal(await cardValue(page, 'Time per output token'), seconds(eff.decode.tpot_s));
  await page.fill('#eff-memory', '1.5');
  assert.equal(await page.textContent('#hardware-error'), 'Memory bandwidth holds "1.5"; expected a number from 0.001 to 1, or empty for the device\'s own');
  await page.fill('#eff-memory', '');
  // Ragged requests.
  await page.click('#ragged summary');
  await page.fill('#reqs', '0+512, 4096+128');
  await page.waitForFunction(() => /reqs=/.test(location.hash));
  assert.equal(await page.isDisabled('#batch'), true);
  const ragged = analyze('--model', 'llama-3.1-8b', '--hardware', hwFile, '--cached-tokens', '0', '4096', '--input-tokens', '512', '128');
  await page.waitForFunction((t) => [...document.querySelectorAll('.card')].some((c) => c.querySelector('.value').textContent === t), seconds(ragged.ttft_s));
  assert.equal(await cardValue(page, 'Time per output token'), seconds(ragged.decode.tpot_s));
  await page.fill('#reqs', '0+512, lots');
  assert.equal(await page.textContent('#workload-error'),
    'Ragged requests: item 2 holds "lots"; expected cached+new tokens, optionally x count (e.g. 4096+128x2), with at least 1 new token');
  assert.equal(await cardValue(page, 'Time to first token'), seconds(ragged.ttft_s));
  // The link restores both.
  await page.fill('#reqs', '0+512, 4096+128');
  await page.waitForFunction(() => /reqs=0%2B512/.test(location.hash));
  await page.reload();
  await settled(page);
  assert.equal(await page.inputValue('#eff-gemm'), '0.5');
  assert.equal(await page.inputValue('#reqs'), '0+512, 4096+128');
  assert.equal(await cardValue(page, 'Time to first token'), seconds(ragged.ttft_s));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// Audit F9: a link whose ragged requests or images held one bad item showed the text in its input and analyzed
// without the list (the plain batch, or no images), with no word: the message came only when the input was edited.
test('a link whose ragged requests or images do not parse is refused by item, as the CLI refuses it', async () => {
  for (const [hash, input, message] of [
    ['reqs=4096%2B128x2%2C8192%2B0', '4096+128x2,8192+0',
      'Ragged requests: item 2 holds "8192+0"; expected cached+new tokens, optionally x count (e.g. 4096+128x2), with at least 1 new token'],
    ['model=gemma-3-27b-it&images=896x896x2000', '896x896x2000',
      'Images: item 1 holds "896x896x2000"; expected WIDTHxHEIGHT, optionally xCOUNT (e.g. 1024x768x2), each side 1 to 65536 pixels, count 1 to 1024'],
  ]) {
    const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#${hash}`);
    await page.waitForFunction(() => document.getElementById('workload-error').textContent !== '', null, { timeout: 20000 });
    assert.equal(await page.textContent('#workload-error'), message);
    assert.equal(await page.inputValue(input.includes('+') ? '#reqs' : '#images'), input);
    assert.match(await page.textContent('#status'), /^The last change could not be analyzed/);
    assert.equal(await page.textContent('#answer'), `No answer yet: ${message}`);
    assert.equal(await cardValue(page, 'Time to first token'), null);
    // Fixed in its input, it is analyzed.
    await page.fill(input.includes('+') ? '#reqs' : '#images', input.includes('+') ? '4096+128x2' : '896x896');
    await settled(page);
    assert.equal(await page.textContent('#workload-error'), '');
    assert.notEqual(await cardValue(page, 'Time to first token'), null);
    assert.deepEqual(consoleErrors, []);
    await context.close();
  }
});

// Issue 22, item 8: every chart is labelled. Each is an image with a name for screen readers, inside a figure with
// a caption; its axes say what they measure and in what unit; series are named in a legend (with units where the
// chart is uPlot's, whose axes are drawn on the canvas); the quantization sweep names every format on its axis.
test('every chart has a name, a caption, axis titles with units and a legend', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-rtx-4090&batch=4`);
  await settled(page);
  for (const tab of ['charts', 'quant', 'multi']) await showTab(page, tab);
  const charts = await page.$$eval('.chart', (els) => els.map((c) => ({
    id: c.id,
    role: c.getAttribute('role'),
    name: c.getAttribute('aria-label') || '',
    caption: c.closest('figure')?.querySelector('figcaption')?.textContent.trim() || '',
  })));
  assert.ok(charts.length >= 9, `${charts.length} charts`);
  for (const c of charts) {
    assert.equal(c.role, 'img', c.id);
    assert.ok(c.name.length > 10, `${c.id} has no accessible name`);
    assert.ok(c.caption.length > 10, `${c.id} has no caption`);
  }
  const svgText = (id) => page.$$eval(`#${id} svg text`, (ts) => ts.map((t) => t.textContent));
  assert.ok((await svgText('roofline')).includes('arithmetic intensity (FLOP/byte)'));
  assert.ok((await svgText('roofline')).some((t) => /peak .*FLOP\/s$/.test(t)));
  const legend = (id) => page.$$eval(`#${id} .u-legend .u-label`, (ls) => ls.map((l) => l.textContent));
  for (const [id, want] of [['timeline', /TPOT \(ms\)/], ['batching', /tokens\/s/], ['quant-sweep', /tok\/s, KV bf16/]])
    assert.ok((await legend(id)).some((l) => want.test(l)), `${id}: ${await legend(id)}`);
  // The sweep's formats are named on the axis (the axis values of uPlot's x scale, one per format).
  const sweep = await page.evaluate(() => document.getElementById('sweep-note').textContent);
  assert.match(sweep, /^10 weight formats x 3 KV formats/);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// The quantization sweep and the batching curve are computed only where their tab shows: inputs changed while the
// tab was hidden give, once it is shown, the sweep and the curve of those inputs (equal to the CLI's), never the
// ones drawn before.
test('a hidden tab\'s sweep and batching curve are computed when it shows, for the inputs of then', async () => {
  const base = ['--model', 'llama-3.1-8b', '--hardware', 'nvidia-l40s'];
  const csvOf = (cmd, ...args) => execFileSync(cli, [cmd, ...base, ...args, '--format', 'csv'], { encoding: 'utf8' }).trim().split('\n');
  const exported = async (page, button) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    return Buffer.concat(await (await download.createReadStream()).toArray()).toString().trim().split('\n');
  };
  // The same rows, in every column both files have (the page's export adds columns of its own).
  const same = (a, b) => {
    assert.equal(a.length, b.length);
    const [ha, hb] = [a[0].split(','), b[0].split(',')];
    const common = ha.filter((k) => hb.includes(k));
    assert.ok(common.length >= 8, `${common}`);
    for (let i = 1; i < a.length; i++) {
      const [ra, rb] = [a[i].split(','), b[i].split(',')];
      for (const k of common) {
        const [v, w] = [ra[ha.indexOf(k)], rb[hb.indexOf(k)]];
        if (Number.isNaN(Number(w))) assert.equal(v, w, `row ${i} ${k}`);
        else assert.ok(Math.abs(Number(v) - Number(w)) <= 1e-9 * Math.abs(Number(w)), `row ${i} ${k}: ${v} vs ${w}`);
      }
    }
  };
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-8b&hardware=nvidia-l40s&prompt=1024`);
  await settled(page);
  for (const [tab, cmd, button] of [['quant', 'quant-sweep', '#export-sweep'], ['multi', 'batching', '#export-batching']]) {
    await showTab(page, tab);
    same(await exported(page, button), csvOf(cmd, '--prompt', '1024'));
  }
  await showTab(page, 'charts');
  await page.fill('#prompt', '4096');
  await settled(page);
  for (const [tab, cmd, button] of [['quant', 'quant-sweep', '#export-sweep'], ['multi', 'batching', '#export-batching']]) {
    await showTab(page, tab);
    same(await exported(page, button), csvOf(cmd, '--prompt', '4096'));
  }
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
