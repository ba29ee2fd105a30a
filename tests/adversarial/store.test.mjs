// The page's store (site/src/store.js) on a stand-in for localStorage, in node: nothing stored is ever lost.
// The same rules run in Chromium in tests/browser/adversarial.test.mjs; here each one also runs where no
// browser is at hand, including the quota, which a stand-in can refuse at will.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freeId, loadStore, putDevice, putModel, STORE_KEY, updateStore } from '../../site/src/store.js';

// localStorage's interface over a Map; `room` bytes of quota (keys and values, as characters).
function storage(room = Infinity) {
  const m = new Map();
  const used = () => [...m].reduce((s, [k, v]) => s + k.length + v.length, 0);
  return {
    m,
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem: (k, v) => {
      const before = m.get(k);
      m.set(k, String(v));
      if (used() > room) {
        if (before === undefined) m.delete(k); else m.set(k, before);
        throw new Error('QuotaExceededError');
      }
    },
  };
}

// A device as the page saves one: an id and its memory tiers (a stored device without them is kept aside).
const dev = (id, extra = {}) => ({ id, name: id, memory_tiers: [], ...extra });

test('two tabs saving one after the other keep both devices (each save reads what is stored now)', () => {
  const s = storage();
  const tabA = loadStore(s).doc;  // both tabs read the empty store
  const tabB = loadStore(s).doc;
  updateStore(s, (d) => putDevice(d, dev('custom-a'), 't'), tabA);
  const r = updateStore(s, (d) => putDevice(d, dev('custom-b'), 't'), tabB);
  assert.deepEqual(r.doc.devices.map((d) => d.doc.id), ['custom-a', 'custom-b']);
  assert.deepEqual(JSON.parse(s.getItem(STORE_KEY)).devices.map((d) => d.doc.id), ['custom-a', 'custom-b']);
});

test('entries of an unexpected shape and unknown keys are kept aside before a save leaves them out', () => {
  const s = storage();
  s.setItem(STORE_KEY, JSON.stringify({ version: 2, devices: [{ doc: dev('custom-a') }, 42, { doc: 'x' }], models: [{ config: {} }, null], extra: [1] }));
  const loaded = loadStore(s);
  assert.match(loaded.notice, /kept under the key "infercast\.store\.aside"/);
  assert.deepEqual(JSON.parse(s.getItem(`${STORE_KEY}.aside`)), { devices: [42, { doc: 'x' }], models: [null], extra: [1] });
  updateStore(s, (d) => putModel(d, { model_type: 'llama' }, 'm', 't'), loaded.doc);
  const saved = JSON.parse(s.getItem(STORE_KEY));
  assert.deepEqual(saved.devices.map((d) => d.doc.id), ['custom-a']);
  assert.equal(saved.models.length, 2);
  // The same entries again are kept once; other ones under the next number.
  s.setItem(STORE_KEY, JSON.stringify({ version: 2, devices: [42, { doc: 'x' }], models: [null], extra: [1] }));
  loadStore(s);
  assert.equal(s.getItem(`${STORE_KEY}.aside-2`), null);
  s.setItem(STORE_KEY, JSON.stringify({ version: 2, devices: [43] }));
  assert.match(loadStore(s).notice, /"infercast\.store\.aside-2"/);
});

test('every damaged copy is kept, numbered, each text once; the next save replaces the damaged text', () => {
  const s = storage();
  s.setItem(STORE_KEY, '{"version": 2, "devices": [tru');
  assert.match(loadStore(s).notice, /"infercast\.store\.damaged"/);
  s.setItem(STORE_KEY, 'second damage');
  assert.match(loadStore(s).notice, /"infercast\.store\.damaged-2"/);
  assert.match(loadStore(s).notice, /"infercast\.store\.damaged-2"/);
  assert.equal(s.getItem(`${STORE_KEY}.damaged-3`), null);
  const r = updateStore(s, (d) => putDevice(d, dev('custom-a'), 't'), loadStore(s).doc);
  assert.equal(r.readOnly, false);
  assert.deepEqual(JSON.parse(s.getItem(STORE_KEY)).devices.map((d) => d.doc.id), ['custom-a']);
  assert.equal(s.getItem(`${STORE_KEY}.damaged`), '{"version": 2, "devices": [tru');
  assert.equal(s.getItem(`${STORE_KEY}.damaged-2`), 'second damage');
});

test('without room for a copy nothing stored is written, and loading never throws', () => {
  const damaged = `{damaged ${'x'.repeat(600)}`;
  const s = storage(1000);
  s.setItem(STORE_KEY, damaged);
  const loaded = loadStore(s);
  assert.equal(loaded.readOnly, true);
  assert.match(loaded.notice, /no room left to keep a copy: nothing was changed/);
  const page = loaded.doc;
  const r = updateStore(s, (d) => putDevice(d, dev('custom-a'), 't'), page);
  assert.equal(r.readOnly, true);
  assert.deepEqual(r.doc.devices.map((d) => d.doc.id), ['custom-a'], 'the change lives in the page');
  assert.equal(s.getItem(STORE_KEY), damaged);
  // An old version that cannot be backed up is not migrated over.
  const v1 = JSON.stringify({ version: 1, devices: [dev('custom-old', { pad: 'y'.repeat(600) })] });
  const t = storage(1000);
  t.setItem(STORE_KEY, v1);
  assert.equal(loadStore(t).readOnly, true);
  assert.equal(t.getItem(STORE_KEY), v1);
  // A storage that throws on every read: an empty, read-only store.
  assert.equal(loadStore({ getItem() { throw new Error('SecurityError'); } }).readOnly, true);
});

test('a newer version is read but never written', () => {
  const s = storage();
  const v3 = JSON.stringify({ version: 3, devices: [{ doc: dev('custom-f') }], future: true });
  s.setItem(STORE_KEY, v3);
  const r = updateStore(s, (d) => putDevice(d, dev('custom-a'), 't'), loadStore(s).doc);
  assert.equal(r.readOnly, true);
  assert.equal(s.getItem(STORE_KEY), v3);
});

test('a free id for an imported device that collides', () => {
  const doc = { devices: [{ doc: dev('custom-x') }, { doc: dev('custom-x-2') }] };
  assert.equal(freeId(doc, 'custom-x'), 'custom-x-3');
  assert.equal(freeId(doc, 'custom-y'), 'custom-y');
});
