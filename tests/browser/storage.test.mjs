// What the user keeps in the browser: custom devices made in the editor survive a reload and match the CLI; a
// shared link carries the device; stored data from an older version is migrated with a backup, damaged stored
// text is kept aside, a newer version's data is never overwritten; a damaged import is refused whole and leaves
// what is stored untouched, byte for byte.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { seconds as fmtSeconds } from '../../site/src/format.js';
import { analyzed, artifacts, cardValue, openPage, root, withBrowser, showTab } from './helpers.mjs';

const env = withBrowser();

const cli = path.join(root, 'build/native-release/infercast');
const KEY = 'infercast.store';
const stored = (page, key = KEY) => page.evaluate((k) => localStorage.getItem(k), key);

async function makeDevice(page, name, bandwidth) {
  await showTab(page, 'settings');
  await page.click('#device-editor summary');
  await page.fill('#dev-name', name);
  await page.fill('#dev-bf16', '500');
  await page.fill('#dev-tiers tbody tr:first-child td:nth-child(3) input', String(bandwidth));
  await page.click('#dev-save');
  await page.waitForFunction((n) => document.getElementById('store-notice').textContent === `Saved ${n}.`, name);
  await analyzed(page);
}

async function importText(page, name, text) {
  await page.setInputFiles('#dev-import', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

test('a device made in the editor is used, kept across a reload, equals the CLI, and travels in the link', async () => {
  const { page, context, consoleErrors, requests } = await openPage(env.browser, env.base);
  await analyzed(page);
  const presetTpot = await cardValue(page, 'Time per output token');
  await makeDevice(page, 'Slow H100', 1000);
  assert.equal(await page.inputValue('#hardware'), 'custom:custom-slow-h100');
  const tpot = await cardValue(page, 'Time per output token');
  assert.notEqual(tpot, presetTpot);
  // The same device through the CLI gives the same number.
  const doc = JSON.parse(await stored(page)).devices[0].doc;
  assert.equal(doc.memory_tiers[0].bandwidth_GBps, 1000);
  assert.equal(doc.peak_dense_TFLOPS.bf16, 500);
  // HBM keeps the preset's binary unit: an H100's 80 GiB, not 80e9 bytes.
  assert.equal(doc.memory_tiers[0].capacity_GiB, 80);
  assert.equal(doc.memory_tiers[0].capacity_GB, undefined);
  const file = path.join(artifacts, 'slow-h100.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const native = JSON.parse(execFileSync(cli, ['analyze', '--model', 'llama-3.1-8b', '--hardware', file, '--format', 'json'], { encoding: 'utf8' }));
  assert.equal(tpot, fmtSeconds(native.decode.tpot_s));
  await page.screenshot({ path: path.join(artifacts, 'custom-device.png'), fullPage: true });
  // Reload: still there, still selected, same numbers (the link is written once the page is idle; analyzed() waits for it).
  await analyzed(page);
  const link = page.url();
  await page.reload();
  await analyzed(page);
  assert.equal(await page.inputValue('#hardware'), 'custom:custom-slow-h100');
  assert.equal(await cardValue(page, 'Time per output token'), tpot);
  // A fresh browser (no storage) opening the link gets the device from the link.
  const other = await openPage(env.browser, link);
  await analyzed(other.page);
  assert.equal(await other.page.inputValue('#hardware'), 'custom:custom-slow-h100');
  assert.equal(await cardValue(other.page, 'Time per output token'), tpot);
  assert.equal(await stored(other.page), null);
  await other.context.close();
  // Bad input in the editor: the core's message, nothing saved.
  const before = await stored(page);
  await showTab(page, 'settings');
  await page.click('#device-editor summary');
  // The unit sits beside the capacity on its line, and the unit and the row's remove button stay inside the editor
  // (both once ran out of view past its edge).
  const row = '#dev-tiers tbody tr:first-child';
  const inp = await page.locator(`${row} td:nth-child(2) input`).boundingBox();
  const sel = await page.locator(`${row} td:nth-child(2) select`).boundingBox();
  const rm = await page.locator(`${row} button`).boundingBox();
  const box = await page.locator('#device-editor').boundingBox();
  assert.ok(sel.x >= inp.x + inp.width - 1 && Math.abs(sel.y + sel.height / 2 - (inp.y + inp.height / 2)) < inp.height / 2, 'unit beside the capacity');
  assert.ok(sel.x + sel.width <= box.x + box.width + 1, 'unit inside the editor');
  assert.ok(rm.x + rm.width <= box.x + box.width + 1, 'remove button inside the editor');
  await page.fill('#dev-tiers tbody tr:first-child td:nth-child(2) input', '-3');
  // The unit chosen beside the capacity names the key the core reads.
  await page.selectOption('#dev-tiers tbody tr:first-child td:nth-child(2) select', 'GB');
  await page.click('#dev-save');
  await page.waitForFunction(() => /capacity \(GB\)/.test(document.getElementById('store-error').textContent));
  assert.equal(await page.textContent('#store-error'), 'Tier 1, capacity (GB) holds -3; expected a number from 1e-06 to 1000000000');
  assert.equal(await stored(page), before);
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(requests.filter((u) => !u.startsWith(env.base) && !u.startsWith('data:') && !u.startsWith('blob:')), []);
  await context.close();
});

const TIER_BW = '#dev-tiers tbody tr:first-child td:nth-child(3) input';
const savedDevices = async (page) => JSON.parse(await stored(page)).devices.map((d) => [d.doc.id, d.doc.name, d.doc.memory_tiers[0].bandwidth_GBps]);

// Audit F1: two copies of one preset saved with the editor's default name had one id, and the second replaced the
// first; so did "My GPU" and "my gpu", without a word.
test('saving in the editor never replaces a different saved device: a preset copy gets a free name, a taken name asks', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  await showTab(page, 'settings');
  await page.click('#device-editor summary');
  const dialogs = [];
  const save = async (notice, answer) => {
    if (answer !== undefined) page.once('dialog', (d) => { dialogs.push(d.message()); return answer ? d.accept() : d.dismiss(); });
    await page.click('#dev-save');
    await page.waitForFunction((n) => document.getElementById('store-notice').textContent === n, notice);
    await analyzed(page);
  };
  for (const [bw, name] of [[1000, 'NVIDIA H100 SXM5 80GB (custom)'], [2000, 'NVIDIA H100 SXM5 80GB (custom 2)']]) {
    await page.selectOption('#hardware', 'nvidia-h100-sxm');
    await analyzed(page);
    assert.equal(await page.inputValue('#dev-name'), name);
    await page.fill(TIER_BW, String(bw));
    await save(`Saved ${name}.`);
  }
  assert.deepEqual(await savedDevices(page), [['custom-nvidia-h100-sxm5-80gb-custom', 'NVIDIA H100 SXM5 80GB (custom)', 1000],
    ['custom-nvidia-h100-sxm5-80gb-custom-2', 'NVIDIA H100 SXM5 80GB (custom 2)', 2000]]);
  // A name whose id a different device holds asks: Cancel keeps both, the new one under a free name.
  await page.selectOption('#hardware', 'nvidia-h100-sxm');
  await analyzed(page);
  await page.fill('#dev-name', 'My GPU');
  await page.fill(TIER_BW, '1000');
  await save('Saved My GPU.');
  await page.selectOption('#hardware', 'nvidia-rtx-4090');
  await analyzed(page);
  await page.fill('#dev-name', 'my gpu');
  await page.fill(TIER_BW, '500');
  await save('Saved my gpu (2); My GPU is kept too.', false);
  assert.match(dialogs[0], /^A different device is already saved here under the id "custom-my-gpu": "My GPU", saved \d{4}-.*OK replaces the saved device with this one; Cancel keeps both \(this one is saved as "my gpu \(2\)"\)\.$/s);
  assert.deepEqual((await savedDevices(page)).slice(2), [['custom-my-gpu', 'My GPU', 1000], ['custom-my-gpu-2', 'my gpu (2)', 500]]);
  assert.equal(await page.inputValue('#hardware'), 'custom:custom-my-gpu-2');
  // The device being edited is saved over itself without a question, under its own id.
  await page.fill(TIER_BW, '600');
  await save('Saved my gpu (2).');
  assert.equal(dialogs.length, 1);
  // OK replaces.
  await page.selectOption('#hardware', 'nvidia-a100-sxm-80gb');
  await analyzed(page);
  await page.fill('#dev-name', 'MY GPU');
  await page.fill(TIER_BW, '700');
  await save('Saved MY GPU.', true);
  assert.equal(dialogs.length, 2);
  assert.deepEqual((await savedDevices(page)).slice(2), [['custom-my-gpu', 'MY GPU', 700], ['custom-my-gpu-2', 'my gpu (2)', 600]]);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// Audit F2: a link's device was replaced by a different device stored under the same id (two people who tuned the
// same preset), and the address bar rewritten with it.
test('a link whose device differs from one saved under its id shows the link\'s, listed beside the saved one', async () => {
  const made = async (page, bw) => {
    await showTab(page, 'settings');
    await page.click('#device-editor summary');
    await page.fill(TIER_BW, String(bw));
    await page.click('#dev-save');
    await page.waitForFunction(() => /^Saved /.test(document.getElementById('store-notice').textContent));
    await analyzed(page);
  };
  const sender = await openPage(env.browser, env.base);
  await analyzed(sender.page);
  await made(sender.page, 1000);
  const link = sender.page.url();
  const sent = await cardValue(sender.page, 'Time per output token');
  await sender.context.close();
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  await made(page, 3000);
  const mine = await stored(page);
  const own = await cardValue(page, 'Time per output token');
  assert.notEqual(own, sent);
  const linkBandwidth = (u) => JSON.parse(Buffer.from(new URLSearchParams(new URL(u).hash.slice(1)).get('device'), 'base64').toString()).memory_tiers[0].bandwidth_GBps;
  // Opened in a new page, and followed in the page already open (a hashchange).
  for (const how of ['load', 'hashchange']) {
    if (how === 'load') {
      await page.goto('about:blank');
      await page.goto(link);
    } else {
      await page.selectOption('#hardware', 'custom:custom-nvidia-h100-sxm5-80gb-custom');
      await analyzed(page);
      assert.equal(await cardValue(page, 'Time per output token'), own);
      await page.evaluate((h) => { location.hash = h; }, new URL(link).hash);
      await page.waitForFunction(() => document.getElementById('hardware-notice').textContent !== '');
    }
    await analyzed(page);
    assert.equal(await page.inputValue('#hardware'), 'custom:custom-nvidia-h100-sxm5-80gb-custom-from-the-link', how);
    assert.equal(await cardValue(page, 'Time per output token'), sent, how);
    assert.equal(await page.textContent('#hardware-notice'), 'The link\'s device differs from "NVIDIA H100 SXM5 80GB (custom)", saved here under the same id '
      + '("custom-nvidia-h100-sxm5-80gb-custom"): the link\'s is analyzed, listed as "NVIDIA H100 SXM5 80GB (custom) (from the link)". Save it in the device editor (Settings) to keep it; yours is unchanged.');
    assert.equal(await page.locator('#hardware option[value="custom:custom-nvidia-h100-sxm5-80gb-custom"]').count(), 1);
    assert.equal(linkBandwidth(page.url()), 1000);
    assert.equal(await stored(page), mine);
  }
  // Saved from the editor, it is kept beside the other.
  await showTab(page, 'settings');
  await page.evaluate(() => { document.getElementById('device-editor').open = true; });
  await page.click('#dev-save');
  await page.waitForFunction(() => /^Saved .*\(from the link\)\.$/.test(document.getElementById('store-notice').textContent));
  assert.deepEqual((await savedDevices(page)).map((d) => d[2]), [3000, 1000]);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a damaged import is refused whole and leaves the stored devices untouched', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  await makeDevice(page, 'Kept', 2000);
  const before = await stored(page);
  await importText(page, 'broken.json', '{"kind": "infercast-export", "devices": [');
  await page.waitForFunction(() => /broken.json is not valid JSON/.test(document.getElementById('store-error').textContent));
  assert.match(await page.textContent('#store-error'), /nothing was imported$/);
  assert.equal(await stored(page), before);
  // One good and one bad device: neither is kept.
  const good = JSON.parse(before).devices[0].doc;
  const bundle = { kind: 'infercast-export', version: 2, devices: [{ ...good, id: 'custom-good', name: 'Good' },
    { ...good, id: 'custom-bad', name: 'Bad', memory_tiers: [{ name: 'HBM', capacity_GB: 80, bandwidth_GBps: 0 }] }], models: [] };
  await importText(page, 'mixed.json', JSON.stringify(bundle));
  await page.waitForFunction(() => /mixed.json/.test(document.getElementById('store-error').textContent));
  assert.equal(await page.textContent('#store-error'),
    'mixed.json, device 2 (Bad): /hardware/memory_tiers/0/bandwidth_GBps holds 0; expected a number from 1e-06 to 1000000000; nothing was imported');
  assert.equal(await stored(page), before);
  assert.equal(await page.locator('#hardware option[value="custom:custom-good"]').count(), 0);
  // Not a device at all.
  await importText(page, 'list.json', '[1, 2]');
  await page.waitForFunction(() => /list.json holds an array/.test(document.getElementById('store-error').textContent));
  assert.equal(await stored(page), before);
  // A good bundle is imported.
  bundle.devices.pop();
  await importText(page, 'good.json', JSON.stringify(bundle));
  await page.waitForFunction(() => /Imported 1 device/.test(document.getElementById('store-notice').textContent));
  assert.equal(await page.textContent('#store-error'), '');
  assert.deepEqual(JSON.parse(await stored(page)).devices.map((d) => d.doc.id), ['custom-kept', 'custom-good']);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('exported devices import into another browser exactly', async () => {
  const { page, context } = await openPage(env.browser, env.base);
  await analyzed(page);
  await makeDevice(page, 'Travel', 1500);
  const tpot = await cardValue(page, 'Time per output token');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#dev-export')]);
  const file = path.join(artifacts, 'infercast-custom.json');
  await download.saveAs(file);
  const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(exported.kind, 'infercast-export');
  assert.equal(exported.devices[0].name, 'Travel');
  const other = await openPage(env.browser, env.base);
  await analyzed(other.page);
  await showTab(other.page, 'settings');
  await other.page.click('#device-editor summary');
  await importText(other.page, 'infercast-custom.json', fs.readFileSync(file, 'utf8'));
  await other.page.waitForFunction(() => /Imported 1 device/.test(document.getElementById('store-notice').textContent));
  await other.page.selectOption('#hardware', 'custom:custom-travel');
  await analyzed(other.page);
  await other.page.waitForFunction((t) => {
    for (const c of document.querySelectorAll('.card')) if (c.querySelector('.label').textContent === 'Time per output token') return c.querySelector('.value').textContent === t;
    return false;
  }, tpot);
  assert.deepEqual(JSON.parse(await stored(other.page)).devices[0].doc, exported.devices[0]);
  await other.context.close();
  await context.close();
});

test('stored data: an old version is migrated with a backup, damaged text is kept aside, a newer version is not overwritten', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await analyzed(page);
  const h100 = JSON.parse(execFileSync(cli, ['call', 'device'], { input: '{"hardware": "nvidia-h100-sxm"}', encoding: 'utf8' }));
  // Version 1 (devices as a bare array of documents).
  const v1 = JSON.stringify({ version: 1, devices: [{ ...h100, id: 'custom-old', name: 'Old device' }] });
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [KEY, v1]);
  await page.reload();
  await analyzed(page);
  assert.match(await page.textContent('#store-notice'), /upgraded from storage version 1 to 2/);
  assert.equal(await stored(page, `${KEY}.backup-v1`), v1);
  const migrated = JSON.parse(await stored(page));
  assert.equal(migrated.version, 2);
  assert.equal(migrated.devices[0].doc.name, 'Old device');
  assert.equal(await page.locator('#hardware option[value="custom:custom-old"]').count(), 1);
  // Damaged text: kept under .damaged, the page still works.
  await page.evaluate((k) => localStorage.setItem(k, '{"version": 2, "devices": [tru'), KEY);
  await page.reload();
  await analyzed(page);
  assert.match(await page.textContent('#store-notice'), /could not be read; their text was kept under the key "infercast.store.damaged"/);
  assert.equal(await stored(page, `${KEY}.damaged`), '{"version": 2, "devices": [tru');
  // A newer version: shown, and saving here does not overwrite it.
  const v3 = JSON.stringify({ version: 3, devices: [{ doc: { ...h100, id: 'custom-future', name: 'Future' }, saved: null }], models: [], extra: 'kept' });
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [KEY, v3]);
  await page.reload();
  await analyzed(page);
  assert.match(await page.textContent('#store-notice'), /newer Infercast \(storage version 3\)/);
  assert.equal(await page.locator('#hardware option[value="custom:custom-future"]').count(), 1);
  await page.fill('#dev-name', 'Another');
  await page.click('#dev-save');
  await page.waitForFunction(() => /until the page closes/.test(document.getElementById('store-notice').textContent));
  assert.equal(await stored(page), v3);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
