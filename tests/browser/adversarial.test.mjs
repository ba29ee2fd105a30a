// The page under attack (issue 23): hostile files are read within the core's limits and never re-read without
// bound, a second drop stops the first, a failure of the core itself restarts it with a message in words (served
// and offline), and what the user saved is never lost: two tabs merge, entries of an unexpected shape and every
// damaged copy are kept, a colliding import asks, and a damaged store that fills the quota does not stop the page.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { analyzed, artifacts, openPage, root, settled, withBrowser } from './helpers.mjs';

const env = withBrowser();
const KEY = 'infercast.store';
const MiB = 1 << 20;
const cli = path.join(root, 'build/native-release/infercast');
const stored = (page, key = KEY) => page.evaluate((k) => localStorage.getItem(k), key);

// GGUF pieces (llama.cpp's layout).
const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); return b; };
const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); return b; };
const str = (s) => Buffer.concat([u64(Buffer.byteLength(s)), Buffer.from(s)]);
const kvStr = (k, v) => Buffer.concat([str(k), u32(8), str(v)]);
const kvU32 = (k, v) => Buffer.concat([str(k), u32(4), u32(v)]);
const tensor = (name, dims, type) => Buffer.concat([str(name), u32(dims.length), ...dims.map(u64), u32(type), u64(0)]);
function tinyGguf(name = 'tiny gguf') {
  const kvs = [kvStr('general.architecture', 'llama'), kvStr('general.name', name), kvU32('llama.embedding_length', 64), kvU32('llama.block_count', 1),
    kvU32('llama.attention.head_count', 2), kvU32('llama.feed_forward_length', 128), kvU32('llama.vocab_size', 100)];
  const ts = [tensor('token_embd.weight', [64, 100], 0), tensor('blk.0.attn_q.weight', [64, 64], 8), tensor('blk.0.attn_k.weight', [64, 64], 8),
    tensor('blk.0.attn_v.weight', [64, 64], 8), tensor('blk.0.attn_output.weight', [64, 64], 8), tensor('blk.0.ffn_gate.weight', [64, 128], 8),
    tensor('blk.0.ffn_up.weight', [64, 128], 8), tensor('blk.0.ffn_down.weight', [128, 64], 8)];
  return Buffer.concat([Buffer.from('GGUF'), u32(3), u64(ts.length), u64(kvs.length), ...kvs, ...ts]);
}

// A 2 GiB file (sparse on disk) whose header holds a 1 GiB string: a reader that follows the header reads it all.
function hostileGguf() {
  const file = path.join(artifacts, 'hostile.gguf');
  const head = Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(1), str('general.architecture'), u32(8), u64(1 << 30)]);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, head);
  fs.ftruncateSync(fd, 2 ** 31);
  fs.closeSync(fd);
  return file;
}

// Records every Blob slice the page takes: [start, end] in bytes.
const recordSlices = (page) => page.addInitScript(() => {
  window.__slices = [];
  const slice = Blob.prototype.slice;
  Blob.prototype.slice = function (start, end, type) {
    window.__slices.push([start ?? 0, Math.min(end ?? this.size, this.size)]);
    return slice.call(this, start, end, type);
  };
});

test('a hostile 2 GiB GGUF is read within the 64 MiB header limit, said in words, and a second drop takes over', async () => {
  const hostile = hostileGguf();
  const tiny = path.join(artifacts, 'tiny.gguf');
  fs.writeFileSync(tiny, tinyGguf());
  const { page, context, consoleErrors } = await openPage(env.browser, 'about:blank');
  await recordSlices(page);
  await page.goto(env.base);
  await analyzed(page);
  await page.setInputFiles('#config-file', hostile);
  await page.waitForFunction(() => document.getElementById('model-error').textContent !== '', null, { timeout: 30000 });
  assert.equal(await page.textContent('#model-error'),
    'hostile.gguf: the GGUF header runs past 67108864 bytes (64.0 MiB, at byte 64); expected a header within that limit (llama.cpp\'s headers take a few MiB)');
  const slices = await page.evaluate(() => window.__slices);
  assert.ok(slices.every(([a, b]) => b - a <= 64 * 1024 * 1024), JSON.stringify(slices));
  assert.ok(slices.reduce((s, [a, b]) => s + b - a, 0) <= 16 * 1024 * 1024 + 4, `read ${JSON.stringify(slices)}`);
  // A second drop while the first is being read: the second one's result is what the page shows.
  await page.evaluate(() => { window.__slices = []; });
  const grow = path.join(artifacts, 'long-header.gguf');
  const fd = fs.openSync(grow, 'w');  // a header whose string runs to 40 MiB: read once at 16 MiB, once whole
  fs.writeSync(fd, Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(1), str('general.architecture'), u32(8), u64(40 * MiB)]));
  fs.ftruncateSync(fd, 40 * MiB);
  fs.closeSync(fd);
  await page.setInputFiles('#config-file', grow);
  await page.setInputFiles('#config-file', tiny);
  await page.waitForFunction(() => /Read from the GGUF header of tiny\.gguf/.test(document.getElementById('gguf-info').textContent), null, { timeout: 30000 });
  await settled(page);
  assert.equal(await page.textContent('#model-error'), '');
  assert.match(await page.textContent('#model-info'), /^tiny gguf: /);
  // The long header alone: two reads (16 MiB, then the file's 40 MiB), and the file's end named.
  await page.evaluate(() => { window.__slices = []; });
  await page.setInputFiles('#config-file', grow);
  await page.waitForFunction(() => /long-header/.test(document.getElementById('model-error').textContent), null, { timeout: 30000 });
  assert.match(await page.textContent('#model-error'), /^long-header\.gguf: the GGUF header continues past the 41943040 bytes read/);
  assert.deepEqual(await page.evaluate(() => window.__slices), [[0, 4], [0, 16 * 1024 * 1024], [0, 40 * 1024 * 1024]]);
  assert.deepEqual(consoleErrors, []);
  await context.close();
  fs.rmSync(hostile);
  fs.rmSync(grow);
});

// The model file, the pasted config and the device editor live in the Settings tab.
const toSettings = (page) => page.click('#tab-settings');

test('a config nested 3,000 levels deep is refused by name, and the page goes on', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  await toSettings(page);
  const text = `${'{"text_config": '.repeat(3000)}{"model_type": "llama"}${'}'.repeat(3000)}`;
  await page.fill('#config-text', text);
  await page.click('#config-use');
  await page.waitForFunction(() => document.getElementById('model-error').textContent !== '');
  assert.equal(await page.textContent('#model-error'), 'The pasted config nests arrays and objects more than 64 levels deep (at character 1024); expected at most 64');
  // Within the depth limit the core names the text_config levels.
  await page.fill('#config-text', `${'{"text_config": '.repeat(5)}{"model_type": "llama"}${'}'.repeat(5)}`);
  await page.click('#config-use');
  await page.waitForFunction(() => /text_config/.test(document.getElementById('model-error').textContent));
  assert.equal(await page.textContent('#model-error'),
    'The pasted config: /model/text_config/text_config/text_config/text_config nests text_config 4 levels deep; expected at most 3 (a multimodal config holds its language model in one text_config)');
  await page.fill('#batch', '4');
  await analyzed(page);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// Code run first in the core's worker: a request naming "__trap__" fails inside the worker's call to the core as a
// WebAssembly fault would (the build bundles the core into the worker, so the call's own JSON step is where it
// can be reached from outside).
const TRAP = `{ const stringify = JSON.stringify;
  JSON.stringify = function (...a) { const t = stringify.apply(this, a);
    if (typeof t === 'string' && t.includes('__trap__')) throw new WebAssembly.RuntimeError('memory access out of bounds');
    return t; }; }
`;

async function trapAndRecover(page) {
  await toSettings(page);
  await page.fill('#config-text', '{"model_type": "llama", "_name_or_path": "__trap__"}');
  await page.click('#config-use');
  await page.waitForFunction(() => document.getElementById('model-error').textContent !== '');
  assert.equal(await page.textContent('#model-error'),
    'The pasted config: the core stopped on this input (memory access out of bounds); it was restarted, and nothing else was affected');
  // The restarted core answers: a change is analyzed, and a good config is read.
  await page.fill('#batch', '3');
  await analyzed(page);
  await page.fill('#config-text', JSON.stringify({ model_type: 'llama', hidden_size: 64, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 128, vocab_size: 100, _name_or_path: 'after the trap' }));
  await page.click('#config-use');
  await page.waitForFunction(() => /^after the trap: /.test(document.getElementById('model-info').textContent), null, { timeout: 20000 });
  assert.equal(await page.textContent('#model-error'), '');
}

test('a failure of the core in the worker restarts it, with a message in words', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, 'about:blank');
  const worker = fs.readdirSync(path.join(root, 'dist/site')).find((f) => /^worker\.[0-9a-f]+\.js$/.test(f));
  const real = fs.readFileSync(path.join(root, 'dist/site', worker), 'utf8');
  await page.route(`**/${worker}`, (route) => route.fulfill({ contentType: 'text/javascript', body: TRAP + real }));
  await page.goto(env.base);
  await analyzed(page);
  await trapAndRecover(page);
  await trapAndRecover(page);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// Audit F4: a worker whose script failed to load once answered the calls it held, but stayed in its lane: every
// later call was posted to it and never answered (the page busy for good).
test('a worker that fails to load is started again; one that never loads answers every call, saying reload', async () => {
  const loadFailures = (errors) => errors.filter((e) => !/Failed to load resource/.test(e));
  // The first fetch of the worker's script fails: the lane starts another, and the analysis held is answered.
  let fetches = 0;
  const once = await openPage(env.browser, `${env.base}#batch=2`, (c) => c.route(/worker\.[0-9a-f]+\.js$/, (route) => (fetches++ === 0 ? route.abort('failed') : route.continue())));
  await analyzed(once.page);
  assert.ok(fetches >= 2);
  assert.equal(await once.page.textContent('#workload-error'), '');
  await once.page.fill('#batch', '4');
  await analyzed(once.page);
  assert.deepEqual(loadFailures(once.consoleErrors), []);
  await once.context.close();
  // It never loads: the calls are answered with the message, and a later change is answered too (never a hang).
  const never = await openPage(env.browser, `${env.base}#batch=2`, (c) => c.route(/worker\.[0-9a-f]+\.js$/, (route) => route.abort('failed')));
  const answered = async () => {
    await never.page.waitForFunction(() => document.getElementById('status').dataset.generation === document.querySelector('section.results').dataset.generation
      && document.querySelector('section.results').getAttribute('aria-busy') === 'false', null, { timeout: 20000 });
    assert.match(await never.page.textContent('#answer'), /^No answer yet: the core could not load \(.*, 3 tries\); reload the page to try again$/);
  };
  await answered();
  await never.page.fill('#batch', '4');
  await answered();
  assert.equal(await never.page.evaluate(() => document.querySelector('section.results').dataset.generation), '2');
  assert.deepEqual(loadFailures(never.consoleErrors), []);
  await never.context.close();
});

test('a failure of the core in the offline file restarts its worker, with a message in words', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, 'about:blank');
  // The offline file makes its worker from a Blob of the inlined core: the trap goes first in it.
  await page.addInitScript(`{ const RealBlob = window.Blob; const trap = ${JSON.stringify(TRAP)};
    window.Blob = class extends RealBlob { constructor(parts, options) {
      super(options && options.type === 'text/javascript' ? [trap, ...parts] : parts, options); } }; }`);
  await page.goto(`file://${path.join(root, 'dist/infercast-offline.html')}`);
  await analyzed(page);
  await trapAndRecover(page);
  // The core runs in the offline file's blob worker: a hostile file is refused after one bounded read.
  const hostile = hostileGguf();
  const t0 = Date.now();
  await page.setInputFiles('#config-file', hostile);
  await page.waitForFunction(() => /hostile\.gguf: the GGUF header runs past/.test(document.getElementById('model-error').textContent), null, { timeout: 30000 });
  const ms = Date.now() - t0;
  assert.ok(ms < 5000, `${ms} ms to refuse the hostile file`);
  fs.rmSync(hostile);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a device with numbers past their ranges is named, never shown as Infinity or 0', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  await openEditor(page);
  await page.fill('#dev-name', 'Extreme');
  for (const [value, message] of [['1e-320', '1e-320'], ['1e308', '1e+308']]) {
    await page.fill('#dev-tiers tbody tr:first-child td:nth-child(3) input', value);
    await page.click('#dev-save');
    await page.waitForFunction((m) => document.getElementById('store-error').textContent.includes(m), message);
    assert.equal(await page.textContent('#store-error'), `Tier 1, bandwidth (GB/s) holds ${message}; expected a number from 1e-06 to 1000000000`);
  }
  assert.doesNotMatch(await page.textContent('#cards'), /Infinity|NaN/);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// A hardware document as the core reads it, renamed.
function device(id, name, bandwidth = 3350) {
  const h100 = JSON.parse(execFileSync(cli, ['call', 'device'], { input: '{"hardware": "nvidia-h100-sxm"}', encoding: 'utf8' }));
  return { ...h100, id, name, memory_tiers: [{ ...h100.memory_tiers[0], bandwidth_GBps: bandwidth }] };
}

// Opens the device editor (the page opens it itself when it has a storage notice).
const openEditor = async (page) => {
  await toSettings(page);
  await page.evaluate(() => { document.getElementById('device-editor').open = true; });
};

async function saveInEditor(page, name) {
  await openEditor(page);
  await page.fill('#dev-name', name);
  await page.click('#dev-save');
  await page.waitForFunction((n) => document.getElementById('store-notice').textContent === `Saved ${n}.`, name);
}

// Audit F5: a link whose device had no memory_tiers stopped the page at start ("e.memory_tiers is not iterable"),
// before the core could name the field; a reload repeated it.
test('a link whose device is not a hardware document starts the page, and the core names the field', async () => {
  const h100 = device('x', 'X');
  const { memory_tiers: _tiers, ...noTiers } = h100;
  for (const [doc, message] of [
    [noTiers, '/hardware/memory_tiers is missing; expected a non-empty array of objects'],
    [{ ...h100, memory_tiers: 5 }, '/hardware/memory_tiers holds 5; expected a non-empty array of objects'],
    [{ ...h100, memory_tiers: [null] }, '/hardware/memory_tiers/0 holds null; expected an object'],
    [{ ...h100, peak_estimated: { dtypes: 7 }, efficiency: { gemm: 'fast' }, peak_dense_TFLOPS: 'many' }, '/hardware/'],
    [{ id: 'x' }, '/hardware/'],
  ]) {
    const url = `${env.base}#hardware=custom:x&device=${encodeURIComponent(Buffer.from(JSON.stringify(doc)).toString('base64'))}`;
    const { page, context, consoleErrors } = await openPage(env.browser, url);
    await page.waitForFunction(() => document.getElementById('hardware-error').textContent !== '', null, { timeout: 20000 });
    assert.ok((await page.textContent('#hardware-error')).startsWith(message), await page.textContent('#hardware-error'));
    assert.match(await page.textContent('#status'), /^The last change could not be analyzed/);
    // The page works: another device is analyzed.
    await page.selectOption('#hardware', 'nvidia-a100-sxm-80gb');
    await analyzed(page);
    assert.equal(await page.textContent('#hardware-error'), '');
    assert.deepEqual(consoleErrors, []);
    await context.close();
  }
  // A stored device of that shape is kept aside (never listed, never lost).
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  const odd = JSON.stringify({ version: 2, devices: [{ doc: { id: 'custom-odd', name: 'Odd' }, saved: null }, { doc: { ...h100, id: 7 }, saved: null }], models: [] });
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [KEY, odd]);
  await page.reload();
  await analyzed(page);
  assert.match(await page.textContent('#store-notice'), /kept under the key "infercast\.store\.aside"/);
  assert.deepEqual(JSON.parse(await stored(page, `${KEY}.aside`)).devices.map((d) => [d.doc.id, d.doc.name]), [['custom-odd', 'Odd'], [7, 'X']]);
  assert.equal(await page.locator('#hardware option[value^="custom:"]').count(), 0);
  await page.evaluate(() => localStorage.clear());
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('two tabs saving merge, and each shows what the other saved', async () => {
  const { page: a, context, consoleErrors } = await openPage(env.browser, env.base);
  const b = await context.newPage();
  await b.goto(env.base);
  await analyzed(a);
  await analyzed(b);
  // b starts typing a device while a saves one: b's list follows a's save and b's edits are kept.
  await openEditor(b);
  await b.fill('#dev-name', 'Beta');
  await saveInEditor(a, 'Alpha');
  await b.waitForFunction(() => !!document.querySelector('#hardware option[value="custom:custom-alpha"]'));
  assert.equal(await b.inputValue('#dev-name'), 'Beta');
  assert.match(await b.textContent('#store-notice'), /another tab.*Your edits in the editor are kept\./);
  await saveInEditor(b, 'Beta');
  assert.deepEqual(JSON.parse(await stored(a)).devices.map((d) => d.doc.id), ['custom-alpha', 'custom-beta']);
  // Each tab's list follows the other's saves (storage events).
  await a.waitForFunction(() => !!document.querySelector('#hardware option[value="custom:custom-beta"]'));
  assert.equal(await b.locator('#hardware option[value="custom:custom-alpha"]').count(), 1);
  assert.match(await a.textContent('#store-notice'), /changed in another tab/);
  // A delete in one tab keeps the other's selection working: the device stays selected there.
  await b.selectOption('#hardware', 'custom:custom-alpha');
  await analyzed(b);
  await a.selectOption('#hardware', 'custom:custom-alpha');
  await a.click('#dev-delete');
  await a.waitForFunction(() => /Deleted Alpha/.test(document.getElementById('store-notice').textContent));
  await b.waitForFunction(() => /another tab/.test(document.getElementById('store-notice').textContent));
  assert.equal(await b.inputValue('#hardware'), 'custom:custom-alpha');
  await b.fill('#batch', '2');
  await analyzed(b);
  assert.deepEqual(JSON.parse(await stored(b)).devices.map((d) => d.doc.id), ['custom-beta']);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// With every site's data blocked, Chromium throws a SecurityError on reading window.localStorage itself: the page
// still starts (a link's numbers too), says custom devices last until it closes, and saving one works for the page.
test('a browser that refuses local storage: the page starts, says so, and keeps a saved device until it closes', async () => {
  const blocked = (c) => c.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', { configurable: true, get() { throw new DOMException('Access is denied for this document.', 'SecurityError'); } });
  });
  for (const url of [env.base, `${env.base}#batch=2`]) {
    const { page, context, consoleErrors } = await openPage(env.browser, url, blocked);
    await analyzed(page);
    assert.match(await page.textContent('#status'), /^Analyzed in/);
    assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('status')).visibility), 'visible');
    assert.match(await page.textContent('#store-notice'), /does not allow local storage here; custom devices and models last until the page closes/);
    await openEditor(page);
    await page.fill('#dev-name', 'Kept');
    await page.click('#dev-save');
    await page.waitForFunction(() => !!document.querySelector('#hardware option[value="custom:custom-kept"]'));
    assert.match(await page.textContent('#store-notice'), /This change lasts until the page closes/);
    assert.deepEqual(consoleErrors, []);
    await context.close();
  }
});

test('entries of an unexpected shape are kept aside, and every damaged copy is kept, numbered', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  const good = { doc: device('custom-good', 'Good'), saved: null };
  const odd = JSON.stringify({ version: 2, devices: [good, 42, { doc: 'text' }], models: [{ name: 'no config' }], extra: { kept: true } });
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [KEY, odd]);
  await page.reload();
  await analyzed(page);
  assert.match(await page.textContent('#store-notice'), /kept under the key "infercast\.store\.aside"/);
  assert.deepEqual(JSON.parse(await stored(page, `${KEY}.aside`)),
    { devices: [42, { doc: 'text' }], models: [{ name: 'no config' }], extra: { kept: true } });
  await saveInEditor(page, 'Second');
  assert.deepEqual(JSON.parse(await stored(page)).devices.map((d) => d.doc.id), ['custom-good', 'custom-second']);
  // Damaged once, then again with other text: both copies kept.
  await page.evaluate((k) => localStorage.setItem(k, '{"version": 2, "devices": [tru'), KEY);
  await page.reload();
  await analyzed(page);
  assert.match(await page.textContent('#store-notice'), /kept under the key "infercast\.store\.damaged"/);
  await saveInEditor(page, 'Third');
  await page.evaluate((k) => localStorage.setItem(k, 'not json at all'), KEY);
  await page.reload();
  await analyzed(page);
  assert.match(await page.textContent('#store-notice'), /kept under the key "infercast\.store\.damaged-2"/);
  assert.equal(await stored(page, `${KEY}.damaged`), '{"version": 2, "devices": [tru');
  assert.equal(await stored(page, `${KEY}.damaged-2`), 'not json at all');
  // The same damaged text again is not copied twice.
  await page.reload();
  await analyzed(page);
  assert.equal(await stored(page, `${KEY}.damaged-3`), null);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('an import whose device id is taken asks: Cancel keeps both, OK replaces', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  await saveInEditor(page, 'Mine');
  const mine = JSON.parse(await stored(page)).devices[0].doc;
  const theirs = { ...device('custom-mine', 'Theirs', 1234) };
  const bundle = JSON.stringify({ kind: 'infercast-export', devices: [theirs], models: [] });
  const dialogs = [];
  page.once('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.setInputFiles('#dev-import', { name: 'theirs.json', mimeType: 'application/json', buffer: Buffer.from(bundle) });
  await page.waitForFunction(() => /Imported 1 device/.test(document.getElementById('store-notice').textContent));
  assert.match(dialogs[0], /theirs\.json holds a device "Theirs" with the id "custom-mine", and a different device with that id is already saved here \("Mine"/);
  let devices = JSON.parse(await stored(page)).devices.map((d) => d.doc);
  assert.deepEqual(devices.map((d) => [d.id, d.name]), [['custom-mine', 'Mine'], ['custom-mine-2', 'Theirs (imported)']]);
  assert.deepEqual(devices[0], mine);
  page.once('dialog', (d) => d.accept());
  await page.setInputFiles('#dev-import', { name: 'theirs-again.json', mimeType: 'application/json', buffer: Buffer.from(bundle) });
  await page.waitForFunction(() => /theirs-again/.test(document.getElementById('store-notice').textContent));
  devices = JSON.parse(await stored(page)).devices.map((d) => d.doc);
  assert.deepEqual(devices.map((d) => [d.id, d.name]), [['custom-mine', 'Theirs'], ['custom-mine-2', 'Theirs (imported)']]);
  // The same device again asks nothing.
  await page.setInputFiles('#dev-import', { name: 'same.json', mimeType: 'application/json', buffer: Buffer.from(bundle) });
  await page.waitForFunction(() => /same\.json/.test(document.getElementById('store-notice').textContent));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a damaged store over half the quota does not stop the page, and is left as it is', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  // Chromium gives an origin about 5 MiB of localStorage (UTF-16: 2.5 M characters of 2 bytes... it counts
  // characters): fill it past half with damaged text, so a copy cannot fit.
  const size = await page.evaluate((k) => {
    let n = 1 << 20;
    for (;;) {
      try {
        localStorage.setItem(k, 'x'.repeat(n));
        n *= 2;
      } catch {
        break;
      }
    }
    const hi = n;
    let lo = n / 2;
    for (let step = lo / 2; step >= 1024; step /= 2) {
      try {
        localStorage.setItem(k, 'x'.repeat(lo + step));
        lo += step;
      } catch { /* too big */ }
    }
    localStorage.setItem(k, `{damaged ${'x'.repeat(Math.floor(lo * 0.6))}`);
    return [lo, hi];
  }, KEY);
  assert.ok(size[0] > 100000);
  const damaged = await stored(page);
  await page.reload();
  await analyzed(page);
  assert.match(await page.textContent('#store-notice'), /could not be read, and this browser has no room left to keep a copy: nothing was changed/);
  assert.equal(await stored(page), damaged);
  // Saving here changes nothing stored; the page keeps working.
  await openEditor(page);
  await page.fill('#dev-name', 'Transient');
  await page.click('#dev-save');
  await page.waitForFunction(() => /until the page closes/.test(document.getElementById('store-notice').textContent));
  assert.equal(await stored(page), damaged);
  assert.equal(await page.inputValue('#hardware'), 'custom:custom-transient');
  await analyzed(page);
  await page.evaluate(() => localStorage.clear());
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
