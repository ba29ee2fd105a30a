// The page as a new user meets it: three questions, each answered in at most five actions with the CLI's numbers
// in the sentence on top; the layout at 360 to 1280 px (no sideways scroll, the answer in the first screen);
// the keyboard (a skip link, tabs that remember themselves in the link); what is unknown or a bound said so; a
// pasted llama-bench run calibrating a device; and how far to trust the number (validation by device class).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { answerOf } from '../../site/src/answer.js';
import { EFFICIENCY_NAMES, seconds } from '../../site/src/format.js';
import { analyzed, artifacts, cardValue, openPage, root, settled, showTab, withBrowser } from './helpers.mjs';

const env = withBrowser();
const cli = path.join(root, 'build/native-release/infercast');
const native = (...args) => JSON.parse(execFileSync(cli, [...args, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));

// Counts the user's actions: every fill, select or click made on their behalf goes through here.
function actions(page) {
  let n = 0;
  return {
    fill: async (sel, v) => { n++; await page.fill(sel, v); },
    select: async (sel, v) => { n++; await page.selectOption(sel, v); },
    click: async (sel) => { n++; await page.click(sel); },
    get count() { return n; },
  };
}

async function answerIs(page, want) {
  try {
    await page.waitForFunction((w) => document.getElementById('answer').textContent === w, want, { timeout: 15000 });
  } catch {
    assert.equal(await page.textContent('#answer'), want);
  }
}

test('how fast is Llama-3.1-8B on my RTX 4090 in Q4_K_M with an 8k prompt? Five actions, the CLI\'s numbers', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  const act = actions(page);
  await act.fill('#model-search', 'llama 3.1 8b');
  assert.match(await page.textContent('#model-search-note'), /^\d+ presets? match/);
  assert.ok(await page.locator('#model option[value="llama-3.1-8b"]').count() === 1);
  await act.select('#model', 'llama-3.1-8b');
  await act.select('#hardware', 'nvidia-rtx-4090');
  await act.select('#weights', 'q4_k_m');
  await act.fill('#prompt', '8192');
  assert.ok(act.count <= 5);
  const r = native('analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-rtx-4090', '--weights', 'q4_k_m', '--prompt', '8192');
  const a = answerOf(r, 'q4_k_m');
  assert.match(a.sentence, /^Llama-3\.1-8B in Q4_K_M on NVIDIA GeForce RTX 4090: fits in \d+\.\d of 23\.1 GiB usable, first token after [\d.]+ s, then \d+ tokens\/s\.$/);
  await answerIs(page, a.sentence);
  assert.equal(await cardValue(page, 'Time to first token'), seconds(r.ttft_s));
  assert.equal(await cardValue(page, 'Time per output token'), seconds(r.decode.tpot_s));
  // The exact file: llama-quantize's per-tensor types, summed.
  assert.equal(r.workload.precision.gguf.tensor_bytes, 4912898304);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('does DeepSeek-V3 fit on 8x H200, and at what TPOT? Three actions', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  const act = actions(page);
  await act.select('#model', 'deepseek-v3');
  await act.click('#tab-multi');
  await act.select('#system', 'hgx-h200');
  assert.ok(act.count <= 5);
  // The CLI's answer to the same question, with no plan given: the core picks tp 8 for both front ends.
  const r = native('analyze', '--model', 'deepseek-v3', '--system', 'hgx-h200');
  assert.equal(r.parallel.plan.tp, 8);
  assert.ok(r.parallel.fits);
  const a = answerOf(r, 'declared');
  assert.match(a.sentence, /^DeepSeek-V3 in fp8_block128 on 8x NVIDIA H200[^:]* \(tp 8\): fits in \d+(\.\d)? of 12[56](\.\d)? GiB per device under vLLM \(V1 engine\)'s memory fraction, first token after/);
  await answerIs(page, a.sentence);
  assert.equal(await cardValue(page, 'Time per output token'), seconds(r.parallel.tpot_s));
  // The quantization sweep runs on the plan (it used to fail with an internal message and keep the old chart).
  await settled(page);
  await showTab(page, 'quant');
  assert.match(await page.textContent('#sweep-note'), /weight formats x 3 KV formats/);
  assert.ok(await page.locator('#quant-sweep canvas').count() === 1);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('which Mac should I buy for Qwen3-30B-A3B? Five actions, side by side', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  const act = actions(page);
  await act.select('#model', 'qwen3-30b-a3b');
  await act.select('#hardware', 'apple-m4-pro');
  await act.click('#tab-compare');
  await act.select('#compare-device', 'apple-m4-max');
  await act.select('#compare-device', 'apple-m3-ultra');
  assert.ok(act.count <= 5);
  await settled(page);
  const rows = await page.$$eval('#compare tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 3);
  const head = await page.$$eval('#compare thead th', (ths) => ths.map((th) => th.textContent));
  const tpotCol = head.indexOf('TPOT');
  for (const [i, id] of ['apple-m4-pro', 'apple-m4-max', 'apple-m3-ultra'].entries()) {
    const r = native('analyze', '--model', 'qwen3-30b-a3b', '--hardware', id);
    const bound = r.lower_bound ? '≥ ' : '';
    assert.ok(rows[i][tpotCol].startsWith(`${bound}${seconds(r.decode.tpot_s)}`), `${id}: ${rows[i][tpotCol]}`);
  }
  // The device picked first: its answer, with what macOS keeps of its memory.
  const m4 = native('analyze', '--model', 'qwen3-30b-a3b', '--hardware', 'apple-m4-pro');
  await answerIs(page, answerOf(m4, 'declared').sentence);
  assert.match(await page.textContent('#answer-notes'), /kept by the driver and OS/);
  // Its basis is cut at a clause, not inside its sources' parenthesis: every parenthesis closes, the sentence ends.
  const notes = await page.textContent('#answer-notes');
  assert.equal((notes.match(/\(/g) || []).length, (notes.match(/\)/g) || []).length, notes);
  assert.match(notes, /\(macOS lets the GPU wire about 2\/3 of the memory on machines up to 36 GB and 3\/4 above\); change it under Device\.$/);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('from 360 px to 1280 px: no sideways scroll, the answer in the first screen, screenshots', async () => {
  for (const [w, h] of [[360, 740], [390, 844], [768, 1024], [1280, 800]]) {
    const context = await env.browser.newContext({ viewport: { width: w, height: h } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${env.base}#hardware=nvidia-rtx-4090&weights=q4_k_m&prompt=8192`);
    await settled(page);
    for (const tab of ['charts', 'ops', 'compare', 'quant', 'multi', 'serving', 'calibrate', 'validation', 'settings', 'dse']) {
      await page.click(`#tab-${tab}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.equal(width, w, `${w} px, tab ${tab}: the page is ${width} px wide`);
    }
    await page.click('#tab-charts');
    const box = await page.locator('#answer').boundingBox();
    assert.ok(box.y + box.height <= h, `${w}x${h}: the answer ends at ${box.y + box.height} px`);
    if ([390, 768, 1280].includes(w)) await page.screenshot({ path: path.join(artifacts, `layout-${w}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

// On a phone every control of the sweep axes and the serving panel reads whole: the axes' six columns once cut the
// "To" numbers ("2(" for 2000) and put the scale off-screen; the serving selects read "the device'" and "concurrenc".
test('at 390 px the sweep axes and the serving selects read whole', async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${env.base}#model=llama-3.1-70b&tab=dse`);
  await analyzed(page);
  const cut = await page.$$eval('#dse-axes input, #dse-axes select', (els) => els.filter((e) => e.type !== 'checkbox').map((e) => {
    const r = e.getBoundingClientRect();
    return { name: e.getAttribute('aria-label'), right: r.right, cut: e.tagName === 'INPUT' && e.scrollWidth > e.clientWidth };
  }).filter((e) => e.right > window.innerWidth || e.cut).map((e) => e.name));
  assert.deepEqual(cut, []);
  await page.locator('#dse-axes').screenshot({ path: path.join(artifacts, 'phone-dse-axes.png') });
  await page.click('#tab-serving');
  // A select's chosen text within the select, its arrow beside it.
  const short = await page.$$eval('#serving-panel select', (sels) => sels.map((s) => {
    const g = document.createElement('canvas').getContext('2d');
    const st = getComputedStyle(s);
    g.font = `${st.fontSize} ${st.fontFamily}`;
    const text = s.options[s.selectedIndex].textContent;
    return { id: s.id, text, need: g.measureText(text).width + 28, has: s.clientWidth };
  }).filter((x) => x.need > x.has));
  assert.deepEqual(short, []);
  await page.locator('#serving-panel').screenshot({ path: path.join(artifacts, 'phone-serving.png') });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  await context.close();
});

test('keyboard: a skip link to the answer, tabs in the link, dark mode legible', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto(env.base);
  await analyzed(page);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to the answer');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'answer');
  // From the answer, the inputs that change it come next, then the results: the first card within a few stops.
  let stops = 0;
  while (stops < 40) {
    await page.keyboard.press('Tab');
    stops++;
    if (await page.evaluate(() => Boolean(document.activeElement.closest('.card')))) break;
  }
  assert.ok(stops < 25, `${stops} tab stops from the answer to the first card`);
  // Tabs: arrow keys move, the link remembers, a reload shows the same tab.
  await page.focus('#tab-charts');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-ops');
  await page.waitForFunction(() => /tab=ops/.test(location.hash));
  await page.reload();
  await analyzed(page);
  assert.equal(await page.getAttribute('#tab-ops', 'aria-selected'), 'true');
  assert.equal(await page.locator('#panel-ops').isVisible(), true);
  // Dark mode: the answer and the cards' text against their backgrounds at 4.5:1 or more (WCAG AA).
  const ratios = await page.evaluate(() => {
    const rgb = (s) => s.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
    const lum = (c) => { const [r, g, b] = c.map((v) => { const x = v / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const pair = (sel, bgSel) => contrast(rgb(getComputedStyle(document.querySelector(sel)).color), rgb(getComputedStyle(document.querySelector(bgSel)).backgroundColor));
    return { answer: pair('#answer', '.answer-box'), card: pair('.card .value', '.card'), sub: pair('.card .sub', '.card'), help: pair('.help', 'body') };
  });
  for (const [k, v] of Object.entries(ratios)) assert.ok(v >= 4.5, `${k}: contrast ${v.toFixed(2)}`);
  await page.screenshot({ path: path.join(artifacts, 'layout-1280-dark.png') });
  await context.close();
});

test('what is not known is said so: a bound, a cost, a context past the window', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  // A device without a compute peak: its times are lower bounds, marked everywhere they show.
  const h100 = JSON.parse(execFileSync(cli, ['call', 'device'], { input: JSON.stringify({ hardware: 'nvidia-h100-sxm' }), encoding: 'utf8' }));
  const nopeak = { ...h100, id: 'custom-no-peak', name: 'No peak', peak_dense_TFLOPS: {} };
  const link = btoa(unescape(encodeURIComponent(JSON.stringify(nopeak))));
  await page.evaluate((l) => { location.hash = `hardware=custom:custom-no-peak&device=${l}`; }, link);
  await page.waitForFunction(() => /^≥ /.test([...document.querySelectorAll('.card')].find((c) => c.querySelector('.label').textContent === 'Time per output token')?.querySelector('.value').textContent || ''));
  assert.match(await page.textContent('#answer'), /first token after at least [\d.]+ m?s, then at most [\d.]+ tokens\/s\.$/);
  assert.match(await cardValue(page, 'Decode throughput'), /^≤ /);
  // No published price or power: a dash and the reason, not $0.00.
  await page.evaluate(() => { location.hash = 'hardware=apple-m3'; });
  await page.waitForFunction(() => [...document.querySelectorAll('.card')].some((c) => c.querySelector('.label').textContent === 'Cost per 1M tokens' && c.querySelector('.value').textContent === '—'));
  assert.match(await page.textContent('.card[data-card="cost"] .sub'), /no published price or power/);
  // A million-token prompt on a 131k-context model: warned on top.
  await page.evaluate(() => { location.hash = 'hardware=nvidia-h100-sxm&prompt=1000000&gen=16'; });
  await page.waitForFunction(() => /trained window of 131,072 tokens/.test(document.getElementById('answer-notes').textContent));
  // A link opened in a tab that shows the page replaces the scenario whole: batch 8 typed, then a link naming only
  // the model: batch is 1 again.
  await page.fill('#batch', '8');
  await page.waitForFunction(() => /batch=8/.test(location.hash));
  await page.evaluate(() => { location.hash = 'model=qwen3-8b'; });
  await page.waitForFunction(() => document.getElementById('batch').value === '1' && document.getElementById('model').value === 'qwen3-8b');
  await analyzed(page);
  assert.equal(await page.inputValue('#prompt'), '512');
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('search keeps the current model when nothing matches; offload answers for a model that does not fit', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=llama-3.1-70b&hardware=nvidia-rtx-4090&weights=q4_k_m`);
  await analyzed(page);
  await page.fill('#model-search', 'zzz no such model');
  assert.match(await page.textContent('#model-search-note'), /^No preset matches "zzz no such model"; the current model stays selected/);
  assert.equal(await page.inputValue('#model'), 'llama-3.1-70b');
  // Enter takes the first match, as a search box does (it did nothing: the user had to open the list).
  await page.fill('#model-search', 'llama 3.1 8b');
  await page.press('#model-search', 'Enter');
  await page.waitForFunction(() => document.getElementById('model').value === 'llama-3.1-8b');
  await page.fill('#model-search', 'meta-llama/Llama-3.1-70B');
  await page.press('#model-search', 'Enter');
  await page.waitForFunction(() => document.getElementById('model').value === 'llama-3.1-70b');
  assert.equal(await page.locator('#model option[value="llama-3.1-70b"]').count(), 1);
  const plain = native('analyze', '--model', 'llama-3.1-70b', '--hardware', 'nvidia-rtx-4090', '--weights', 'q4_k_m');
  await answerIs(page, answerOf(plain, 'q4_k_m').sentence);
  assert.match(await page.textContent('#answer'), /does not fit on NVIDIA GeForce RTX 4090.*offloading layers to system RAM/);
  await page.check('#offload');
  const off = native('analyze', '--model', 'llama-3.1-70b', '--hardware', 'nvidia-rtx-4090', '--weights', 'q4_k_m', '--gpu-layers', 'auto');
  await answerIs(page, answerOf(off, 'q4_k_m').sentence);
  assert.match(await page.textContent('#answer'), /with \d+ of 81 layers on the device and the rest in system RAM \(llama\.cpp -ngl \d+\)/);
  assert.equal(await cardValue(page, 'Offloaded to system RAM'), `${off.offload.gpu_layers} of 81 layers on GPU`);
  await page.fill('#ngl', '20');
  const ngl20 = native('analyze', '--model', 'llama-3.1-70b', '--hardware', 'nvidia-rtx-4090', '--weights', 'q4_k_m', '--gpu-layers', '20');
  await answerIs(page, answerOf(ngl20, 'q4_k_m').sentence);
  // The link follows once the numbers are painted.
  await page.waitForFunction(() => location.hash.includes('ngl=20') && location.hash.includes('offload=on'));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// Llama-3.1-8B Q4_K_M on an RTX 3080 (dmatora/LLM-inference-speed-benchmarks#12: pp512 3806.89 ± 15.44, tg128
// 111.95 ± 2.45 tok/s, llama.cpp build 93bc3839 (3622)), as llama-bench prints it.
const BENCH = `| model                          |       size |     params | backend    | ngl |          test |                  t/s |
| ------------------------------ | ---------: | ---------: | ---------- | --: | ------------: | -------------------: |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |         pp512 |      3806.89 ± 15.44 |
| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |         tg128 |        111.95 ± 2.45 |

build: 93bc3839 (3622)
`;

test('a pasted llama-bench run calibrates the device, shows its residuals, and every model forecasts on it', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#hardware=nvidia-rtx-3080`);
  await analyzed(page);
  await showTab(page, 'calibrate');
  await page.fill('#cal-text', BENCH);
  await page.click('#cal-run');
  await page.waitForFunction(() => document.querySelectorAll('#cal-points tbody tr').length === 2, null, { timeout: 30000 });
  const fs = await import('node:fs');
  fs.writeFileSync(path.join(artifacts, 'llama-bench-3080.txt'), BENCH);
  const want = JSON.parse(execFileSync(cli, ['calibrate', '--hardware', 'nvidia-rtx-3080', '--model', 'llama-3.1-8b', '--measurements',
    path.join(artifacts, 'llama-bench-3080.txt'), '--format', 'json'], { encoding: 'utf8' }));
  const cells = await page.$$eval('#cal-points tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(cells[0][0], 'pp512');
  assert.equal(cells[1][0], 'tg128');
  assert.equal(cells[1][3], '112.0');  // measured 111.95 tok/s
  assert.equal(cells[1][7], `${want.points[1].error_after >= 0 ? '+' : ''}${(100 * want.points[1].error_after).toFixed(1)}%`);
  // The fitted efficiencies by name, as Settings names them: every term the fit reports, none as its raw key.
  const names = await page.$$eval('#cal-fitted tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent));
  assert.deepEqual(names, Object.keys(want.start).map((k) => EFFICIENCY_NAMES[k]));
  assert.ok(names.every((n) => n && !n.includes('_')), names.join(', '));
  assert.match(await page.textContent('#cal-notes'), /Read as llama-bench\. Llama-bench ran "llama 8B Q4_K - Medium" \(8\.03 B parameters\), read as q4_k_m/);
  await page.click('#cal-save');
  await page.waitForFunction(() => /custom:custom-nvidia-rtx-3080-calibrated/.test(decodeURIComponent(location.hash)));
  await analyzed(page);
  // The calibrated device forecasts the measured run: tg128 at 111.95 tok/s within the fit's residual.
  await page.fill('#prompt', '1');
  await page.fill('#gen', '129');
  await page.selectOption('#weights', 'q4_k_m');
  await page.waitForFunction(() => /gen=129/.test(location.hash) && /weights=q4_k_m/.test(location.hash));
  await analyzed(page);
  const tps = Number((await cardValue(page, 'Decode throughput')).split(' ')[0]);
  assert.ok(Math.abs(tps / 111.95 - 1) < 0.02, `${tps} tok/s`);
  // ... and another model on it.
  await page.selectOption('#model', 'qwen3-8b');
  await analyzed(page);
  assert.match(await page.textContent('#answer'), /^Qwen3-8B in Q4_K_M on NVIDIA GeForce RTX 3080 10GB \(calibrated\)/);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// A link to the Validation tab shows it without a click, while the page's own startup work (the analysis, the
// quantization sweep, the t_c/t_m map on the long lane) runs beside it: none of it ends the validation (CI stop 26
// caught the map cancelling it on a slow machine, leaving "Forecasting..." for good). A new device re-validates.
test('validation from a link: shown while the page starts, and followed when the device changes', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#hardware=apple-m1&tab=validation`);
  await page.waitForFunction(() => document.querySelectorAll('#val-summary tbody tr').length > 0, null, { timeout: 120000 });
  assert.match(await page.textContent('#val-status'), /on Apple SoCs \(class apple-soc\), \d+ of them on Apple M1/);
  await page.selectOption('#hardware', 'nvidia-h100-sxm');
  await page.waitForFunction(() => /of them on NVIDIA H100/.test(document.getElementById('val-status').textContent), null, { timeout: 120000 });
  assert.ok(await page.locator('#val-rows tbody tr').count() > 0);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// The validation summary's sets of rows: each tbody's heading (the devices it covers) and its rows' cells.
const summarySections = (page) => page.$$eval('#val-summary tbody', (bs) => bs.map((b) => ({
  title: b.rows[0].textContent, rows: [...b.rows].slice(1).map((tr) => [...tr.cells].map((c) => c.textContent)) })));

// The serving groups (serving-ttft, -tpot, -e2e, -throughput) are named in the summary as `infercast validate`
// names them: the table once looked them up under a key the core never sends, and left their Group cell empty.
test('validation summary: every group is named, the serving groups as the CLI names them', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#hardware=nvidia-h100-sxm&tab=validation`);
  await page.waitForFunction(() => document.querySelectorAll('#val-summary tbody tr').length > 0, null, { timeout: 120000 });
  const sections = await summarySections(page);
  const rows = sections.flatMap((s) => s.rows);
  for (const r of rows) assert.ok(r[0].trim() !== '', `a summary row without a group: ${r.join(' | ')}`);
  const v = native('validate', '--class', 'datacenter-gpu', '--no-cross-validate');
  const serving = v.groups.filter((g) => g.rows > 0 && g.group.startsWith('serving-'));
  assert.ok(serving.length >= 4, 'the public measurements hold serving rows');
  for (const g of serving) {
    const row = sections.find((x) => x.title === 'Every device').rows.find((r) => r[0].split(' ')[0] === g.group);
    assert.ok(row, `no summary row names ${g.group}`);
    assert.equal(row[4], String(g.rows));
  }
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('validation in the page: the error for the device class, equal to the CLI', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#hardware=apple-m1`);
  await analyzed(page);
  await showTab(page, 'validation');
  await page.waitForFunction(() => document.querySelectorAll('#val-summary tbody tr').length > 0, null, { timeout: 120000 });
  const v = JSON.parse(execFileSync(cli, ['validate', '--class', 'apple-soc', '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const decode = v.selection.groups.find((g) => g.group === 'decode');
  const loso = v.selection.loso_groups.find((g) => g.group === 'decode');
  const mine = (await summarySections(page)).find((x) => x.title === 'Apple SoCs').rows.find((r) => r[0].startsWith('decode'));
  assert.equal(mine[4], String(decode.rows));
  assert.equal(mine[1], `${(100 * loso.median_abs_error).toFixed(1)}%`);  // leave-one-source-out, the figure quoted
  assert.equal(mine[5], `${(100 * decode.median_abs_error).toFixed(1)}%`);
  assert.match(await page.textContent('#val-status'), /public measurements were made on Apple SoCs \(class apple-soc\), \d+ of them on Apple M1/);
  assert.ok(await page.locator('#val-rows tbody tr').count() > 0);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// What to try when it does not fit is the core's list (memory.remedies, core/analysis/remedies.cpp), which the page
// and the CLI each word their own way; the rule was written twice before.
test('the answer words the core\'s remedies: past the device, and past a serving engine\'s budget', () => {
  const budget = ['--model', 'llama-3.1-70b', '--hardware', 'nvidia-h100-sxm', '--runtime', 'vllm', '--weights', 'fp8', '--prompt', '4096', '--gen', '1'];
  const four = native('analyze', ...budget, '--batch', '4');
  assert.deepEqual(four.memory.remedies, ['raise_memory_fraction', 'fewer_requests']);
  assert.match(answerOf(four, 'fp8').sentence, /though the device has them: raise the fraction \(the Device panel's "Runtime's memory fraction"\) or run fewer or shorter requests\.$/);
  const lean = native('analyze', ...budget, '--batch', '1', '--memory-fraction', '0.85');
  assert.deepEqual(lean.memory.remedies, ['raise_memory_fraction', 'smaller_format', 'more_devices']);
  assert.match(answerOf(lean, 'fp8').sentence, / or store the weights in fewer bits or split them over more devices\.$/);
  const many = native('analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--batch', '1000', '--prompt', '8192', '--gen', '2');
  assert.deepEqual(many.memory.remedies, ['smaller_format', 'fewer_requests', 'more_devices']);
  assert.match(answerOf(many, 'declared').sentence, /Try a smaller format \(the Quantization tab\), fewer or shorter requests, or several devices\.$/);
});
