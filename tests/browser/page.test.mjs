// The page as a user meets it, in Debian's headless Chromium: served under a sub-path like GitHub Pages, and the
// offline single file from file://. Screenshots of the main views go to test-results/ for a person to look at.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { seconds as fmtSeconds } from '../../site/src/format.js';
import { analyzed, artifacts, cardValue, openPage, root, withBrowser, showTab } from './helpers.mjs';

const env = withBrowser();

const cli = path.join(root, 'build/native-release/infercast');


async function dropFile(page, name, text) {
  await page.evaluate(([n, t]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], n, { type: 'application/json' }));
    document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, text]);
}

test('opens on a real analysis whose numbers equal the CLI, with no console error and no foreign request', async () => {
  const { page, context, consoleErrors, requests } = await openPage(env.browser, env.base);
  await analyzed(page);
  const native = JSON.parse(execFileSync(cli, ['analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm',
    '--batch', '1', '--prompt', '512', '--gen', '128', '--format', 'json'], { encoding: 'utf8' }));
  assert.equal(await cardValue(page, 'Time to first token'), fmtSeconds(native.ttft_s));
  assert.equal(await cardValue(page, 'Time per output token'), fmtSeconds(native.decode.tpot_s));
  assert.match(await page.textContent('#model-info'), /8,030,261,248 parameters/);
  assert.ok(await page.locator('#roofline svg circle').count() > 5);
  // The operator table is drawn when its tab is shown.
  await showTab(page, 'ops');
  const rows = await page.locator('#ops tbody tr').count();
  assert.equal(rows, native.ops.filter((o) => o.phase === 'prefill').length + 1);
  await showTab(page, 'charts');
  await page.screenshot({ path: path.join(artifacts, 'main-view.png'), fullPage: true });
  assert.deepEqual(consoleErrors, []);
  const foreign = requests.filter((u) => !u.startsWith(env.base) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, []);
  await context.close();
});

test('picking a preset and typing values updates the results and the URL, and the link restores them', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  await page.fill('#model-search', 'mixtral');
  await page.selectOption('#model', 'mixtral-8x7b');
  await page.fill('#batch', '8');
  await page.fill('#gen', '256');
  await page.waitForFunction(() => /Mixtral/.test(document.getElementById('model-info').textContent));
  await page.waitForFunction(() => location.hash.includes('batch=8') && location.hash.includes('gen=256'));
  const native = JSON.parse(execFileSync(cli, ['analyze', '--model', 'mixtral-8x7b', '--hardware', 'nvidia-h100-sxm',
    '--batch', '8', '--prompt', '512', '--gen', '256', '--format', 'json'], { encoding: 'utf8' }));
  await page.waitForFunction((v) => [...document.querySelectorAll('.card .value')].some((e) => e.textContent === v), fmtSeconds(native.decode.tpot_s));
  const url = page.url();
  const second = await openPage(env.browser, url);
  await analyzed(second.page);
  assert.equal(await second.page.inputValue('#batch'), '8');
  assert.equal(await second.page.inputValue('#model'), 'mixtral-8x7b');
  assert.equal(await cardValue(second.page, 'Time per output token'), fmtSeconds(native.decode.tpot_s));
  // Mixtral in bf16 (93 GB) does not fit an 80 GB H100: the page says so rather than showing a batch limit.
  assert.equal(native.memory.max_batch, 0);
  assert.equal(await cardValue(second.page, 'Fits at most'), 'not one request');
  await second.page.screenshot({ path: path.join(artifacts, 'mixtral-batch8.png'), fullPage: true });
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(second.consoleErrors, []);
  await second.context.close();
  await context.close();
});

// Issue 22, item 4: a shared link opened in a tab that already shows the page used to keep every setting the link
// does not name. The link's scenario replaces the tab's whole: what it does not name takes the defaults.
test('a link opened in a tab that shows the page replaces its scenario whole', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=qwen3-8b&batch=4&prompt=2048&gen=64&tab=ops`);
  await analyzed(page);
  assert.equal(await page.inputValue('#batch'), '4');
  await page.evaluate(() => { location.hash = '#model=mistral-7b-v0.1'; });
  await page.waitForFunction(() => /Mistral/.test(document.getElementById('model-info').textContent));
  await analyzed(page);
  assert.equal(await page.inputValue('#model'), 'mistral-7b-v0.1');
  assert.equal(await page.inputValue('#batch'), '1');
  assert.equal(await page.inputValue('#prompt'), '512');
  assert.equal(await page.inputValue('#gen'), '128');
  assert.equal(await page.getAttribute('#tab-charts', 'aria-selected'), 'true');  // the default tab, not ops
  const native = JSON.parse(execFileSync(cli, ['analyze', '--model', 'mistral-7b-v0.1', '--hardware', 'nvidia-h100-sxm', '--format', 'json'], { encoding: 'utf8' }));
  await page.waitForFunction((v) => [...document.querySelectorAll('.card .value')].some((e) => e.textContent === v), fmtSeconds(native.decode.tpot_s));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a link opened while the last numbers are painting is the one analyzed, not overwritten by their link', async () => {
  // The page writes its link after an analysis's numbers are painted (once idle). A link the user opens in between
  // (its hashchange still queued) must win: the page once wrote the older link over it and read that back.
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  await page.evaluate(() => {
    const cards = document.getElementById('cards');
    const seen = new MutationObserver(() => {
      seen.disconnect();
      // After the frame that paints the batch-2 numbers, while the page's own link is still to be written.
      requestAnimationFrame(() => { location.hash = '#model=mistral-7b-v0.1'; });
    });
    seen.observe(cards, { childList: true, subtree: true, characterData: true });
    const batch = document.getElementById('batch');
    batch.value = '2';
    batch.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => /Mistral/.test(document.getElementById('model-info').textContent), null, { timeout: 10000 });
  await analyzed(page);
  assert.equal(await page.inputValue('#model'), 'mistral-7b-v0.1');
  assert.equal(await page.inputValue('#batch'), '1');
  assert.equal(await page.evaluate(() => location.hash), '#model=mistral-7b-v0.1');
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('dropping a config analyzes it; a broken config gets a clear error next to the model input', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  await dropFile(page, 'tiny-llama.json', fs.readFileSync(path.join(root, 'tests/data/tiny-llama.json'), 'utf8'));
  await page.waitForFunction(() => /^custom llama: /.test(document.getElementById('model-info').textContent));
  const tiny = JSON.parse(execFileSync(cli, ['analyze', '--model', path.join(root, 'tests/data/tiny-llama.json'), '--format', 'json'], { encoding: 'utf8' }));
  assert.match(await page.textContent('#model-info'), new RegExp(`${tiny.model.params_total.toLocaleString('en-US')} parameters`));
  await page.waitForFunction(() => location.hash.includes('config='));  // the link follows once the numbers are painted
  const before = await cardValue(page, 'Time to first token');

  await dropFile(page, 'broken.json', '{"model_type": "llama", "hidden_size": 4096,');
  await page.waitForFunction(() => document.getElementById('model-error').textContent.length > 0);
  assert.match(await page.textContent('#model-error'), /^broken\.json is not valid JSON/);
  await dropFile(page, 'zero.json', '{"model_type": "llama", "hidden_size": 0}');
  await page.waitForFunction(() => /hidden_size/.test(document.getElementById('model-error').textContent));
  assert.equal(await page.textContent('#model-error'), 'zero.json: /model/hidden_size holds 0; expected a positive integer');
  // JSON as Python's json writes it (NaN in a field nothing is computed from) is read by the core, as the CLI reads
  // it: the error goes and the model is analyzed again.
  const tinyText = fs.readFileSync(path.join(root, 'tests/data/tiny-llama.json'), 'utf8');
  await dropFile(page, 'python.json', tinyText.replace('{', '{"initializer_range": NaN, '));
  await page.waitForFunction(() => document.getElementById('model-error').textContent === '');
  assert.match(await page.textContent('#model-info'), new RegExp(`${tiny.model.params_total.toLocaleString('en-US')} parameters`));
  // JSON as Python writes it: the core reads NaN and Infinity, and refuses them by name where a size is computed.
  await dropFile(page, 'nan.json', '{"model_type": "llama", "hidden_size": NaN, "rope_scaling": {"factor": Infinity}}');
  await page.waitForFunction(() => /NaN/.test(document.getElementById('model-error').textContent));
  assert.equal(await page.textContent('#model-error'),
    'nan.json: /model/hidden_size holds NaN; expected a positive integer (in the config of model_type "llama")');
  assert.equal(await cardValue(page, 'Time to first token'), before, 'the last good result stays on screen');
  await page.screenshot({ path: path.join(artifacts, 'config-error.png'), fullPage: true });

  await page.fill('#prompt', '2.5');
  await page.waitForFunction(() => /expected a whole number/.test(document.getElementById('workload-error').textContent));
  // The range is the core's (the options call), checked before anything is sent.
  assert.equal(await page.textContent('#workload-error'), 'Prompt tokens holds "2.5"; expected a whole number from 1 to 1000000000');
  await page.fill('#prompt', '0');
  await page.waitForFunction(() => /holds "0"/.test(document.getElementById('workload-error').textContent));
  assert.equal(await page.textContent('#workload-error'), 'Prompt tokens holds "0"; expected a whole number from 1 to 1000000000');
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('names from user files are shown as text, never run as HTML', async () => {
  const { page, context } = await openPage(env.browser, env.base);
  await analyzed(page);
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs++; d.dismiss(); });
  const cfg = JSON.parse(fs.readFileSync(path.join(root, 'tests/data/tiny-llama.json'), 'utf8'));
  cfg._name_or_path = '<img src=x onerror=alert(1)>';
  await dropFile(page, 'evil.json', JSON.stringify(cfg));
  await page.waitForFunction(() => /<img src=x/.test(document.getElementById('model-info').textContent));
  assert.equal(await page.locator('img').count(), 0);
  assert.equal(dialogs, 0);
  await context.close();
});

test('exports the operator table as CSV', async () => {
  const { page, context } = await openPage(env.browser, env.base);
  await analyzed(page);
  await showTab(page, 'ops');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const file = path.join(artifacts, 'operators.csv');
  await download.saveAs(file);
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  assert.equal(lines[0].split(',')[0], 'phase');
  assert.ok(lines.some((l) => l.startsWith('decode,attention,')));
  await context.close();
});

test('the offline single file computes from file:// with no server', async () => {
  const file = path.join(root, 'dist/infercast-offline.html');
  const { page, context, consoleErrors, requests } = await openPage(env.browser, `file://${file}`);
  await analyzed(page);
  // The default scenario's numbers come built into the file (site/src/first.js); a change is the core's, which runs
  // in a blob worker made from the inlined core, off the main thread.
  assert.match(await page.textContent('#status'), /^Analyzed in advance: /);
  await page.fill('#batch', '2');
  await analyzed(page);
  assert.match(await page.textContent('#status'), /\(offline worker\)/);
  assert.match(await cardValue(page, 'Time to first token'), /ms$/);
  await page.screenshot({ path: path.join(artifacts, 'offline.png'), fullPage: true });
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:') && !u.startsWith('blob:')), []);
  await context.close();
});

// The driver/OS reserve is typed in GB (the request's memory_reserve_GB, decimal): its placeholder and note state
// the device's own reserve in that unit, so typing the placeholder's number changes nothing. An RTX 4090 keeps
// 1.0 GB, which the field once showed as "0.9" (GiB, rounded) under its GB label.
test('the memory reserve field, its placeholder and its note are in one unit, GB', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#hardware=nvidia-rtx-4090&weights=q4_k_m`);
  await analyzed(page);
  assert.match(await page.textContent('label[for="reserve"]'), /\(GB\)$/);
  assert.equal(await page.getAttribute('#reserve', 'placeholder'), "1 (device's)");
  assert.match(await page.textContent('#reserve-help'), /^1 of 25\.8 GB \(24 GiB\): /);
  const usable = await page.textContent('#answer');
  await page.fill('#reserve', '1');
  await page.waitForFunction(() => location.hash.includes('reserve=1'));
  await analyzed(page);
  assert.equal(await page.textContent('#answer'), usable);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// A chip sold with several memory sizes has one preset, the largest (Apple M4: 32 GiB); typing the machine's own size
// (16) gives the CLI's --memory 16 numbers, with macOS's share of the 16 GiB in the note beside the reserve (audit H).
test('the memory size field sets the device a user owns, as the CLI\'s --memory', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#hardware=apple-m4&weights=q4_k_m`);
  await analyzed(page);
  await page.fill('#memgib', '16');
  await page.waitForFunction(() => location.hash.includes('memgib=16'));
  await analyzed(page);
  const m16 = JSON.parse(execFileSync(cli, ['analyze', '--model', 'llama-3.1-8b', '--hardware', 'apple-m4', '--weights', 'q4_k_m',
    '--memory', '16', '--format', 'json'], { encoding: 'utf8' }));
  assert.equal(m16.memory.physical_capacity_bytes, 16 * 2 ** 30);
  assert.equal(await cardValue(page, 'Fits at most'), `${m16.memory.max_batch} requests`);
  assert.match(await page.textContent('#reserve-help'), /of 17\.2 GB \(16 GiB\): /);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// A serving engine's memory fraction (vLLM's --gpu-memory-utilization) is the page's too: on an H100 under vLLM the
// note beside the field says the 0.9 of the 79.22 GiB CUDA reports (71.3 GiB), and typing 0.5 halves the budget the
// memory card counts against, as `infercast analyze --memory-fraction 0.5` does. Under llama.cpp no fraction applies.
test('the runtime memory fraction field sets the budget the answer counts against', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#hardware=nvidia-h100-sxm`);
  await analyzed(page);
  // The budget (71.3 GiB) and, beside it, the "usable" figure the answer and the memory card count against (what the
  // memory profile keeps for activations beyond this workload's comes off): two numbers, each named.
  const help = await page.textContent('#memfrac-help');
  assert.match(help, /^vLLM \(V1 engine\) holds weights, activations and its KV cache within 71\.3 GiB of the first memory tier; ([\d.]+) GiB of it are usable for this workload, the rest held for the activations its memory profiling reserves beyond this workload's own\.$/);
  const answer = await page.textContent('#answer');
  assert.match(answer, /usable under vLLM \(V1 engine\)'s memory fraction/);
  assert.equal(/ of ([\d.]+) GiB usable/.exec(answer)[1], /; ([\d.]+) GiB of it are usable/.exec(help)[1]);
  await page.fill('#memfrac', '0.5');
  await page.waitForFunction(() => location.hash.includes('memfrac=0.5'));
  await page.waitForFunction(() => /within 39\.6 GiB/.test(document.getElementById('memfrac-help').textContent));
  const fromCli = JSON.parse(execFileSync(cli, ['analyze', '--model', 'llama-3.1-8b', '--hardware', 'nvidia-h100-sxm', '--memory-fraction', '0.5', '--format', 'json'], { encoding: 'utf8' }));
  assert.ok(Math.abs(fromCli.memory.runtime_usable_bytes - 0.5 * 0.99025 * 80 * 2 ** 30) < 1);
  // The memory card counts against the budget less what vLLM's profile keeps for its sampler, as the CLI does.
  const usable = (fromCli.memory.capacity_bytes / 2 ** 30).toFixed(2);
  assert.ok((await page.locator('#cards').textContent()).includes(`of ${usable} GiB usable under vLLM`), usable);
  await page.selectOption('#runtime', 'llama.cpp-cuda');
  await page.waitForFunction(() => /no fraction applies/.test(document.getElementById('memfrac-help').textContent));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
