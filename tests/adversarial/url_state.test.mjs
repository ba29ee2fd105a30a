// Property tests of the link's decoding (site/src/urlstate.js) in node: for links made of random bytes, random
// mixes of the characters links use, and mutations of real links, decodeState never throws and always gives a
// state of the defaults' shape: every key present, numbers finite, strings strings, an embedded device or config
// a plain object or null, and an object that nests deeper than the core accepts refused. Seeded, so a failure
// names the link that caused it and reproduces.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeObject, decodeState, encodeObject } from '../../site/src/urlstate.js';

// The page's defaults have these types (site/src/ctx.js imports the browser; this is its shape).
const DEFAULTS = { model: 'llama-3.1-8b', hardware: 'nvidia-h100-sxm', batch: 1, prompt: 512, gen: 128, chunk: 0, tile: 0, lora: 0,
  kwh: 0.1, pue: 1.3, embodied: -1, edisp: -1, weights: 'declared', reqs: '', cmp: '', tp: 1, acceptance: 0.8 };

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function check(hash) {
  let out;
  assert.doesNotThrow(() => { out = decodeState(hash, DEFAULTS); }, `decodeState(${JSON.stringify(hash)})`);
  for (const [k, v] of Object.entries(DEFAULTS)) {
    assert.equal(typeof out.state[k], typeof v, `${k} of ${JSON.stringify(hash)}`);
    if (typeof v === 'number') assert.ok(Number.isFinite(out.state[k]), `${k} of ${JSON.stringify(hash)} is finite`);
  }
  // `named` lists the keys of the defaults the link names, and only those (url.js reads a plan left out from it).
  assert.ok(out.named instanceof Set, `named of ${JSON.stringify(hash)}`);
  for (const k of out.named) assert.ok(k in DEFAULTS, `${k} named by ${JSON.stringify(hash)} is a key of the defaults`);
  for (const o of [out.device, out.config]) {
    assert.ok(o === null || (typeof o === 'object' && !Array.isArray(o)), `an object or null from ${JSON.stringify(hash)}`);
  }
  return out;
}

const ALPHABET = ['#', '&', '=', '%', '%2', '%zz', '%E0%A4%A', '+', ' ', 'batch', 'prompt', 'device', 'config', 'gen', 'NaN',
  'Infinity', '-1e999', '1e308', '0x10', '', '\u0000', '\ud800', '\u{1f600}', 'eyJ', 'e30=', '==', '/', '?', 'kwh', '.5'];

test('random links never break the decoding', () => {
  const r = rng(23);
  for (let i = 0; i < 20000; i++) {
    let hash = r() < 0.5 ? '#' : '';
    const n = Math.floor(r() * 12);
    for (let k = 0; k < n; k++) {
      if (r() < 0.7) hash += ALPHABET[Math.floor(r() * ALPHABET.length)];
      else hash += String.fromCharCode(Math.floor(r() * 0x10000));
    }
    check(hash);
  }
});

test('random bytes as base64 devices and configs never break the decoding', () => {
  const r = rng(7);
  for (let i = 0; i < 5000; i++) {
    const bytes = Buffer.from(Array.from({ length: Math.floor(r() * 64) }, () => Math.floor(r() * 256)));
    const b64 = bytes.toString('base64');
    check(`#device=${encodeURIComponent(b64)}&config=${b64}`);
  }
});

test('numbers that are not finite keep the defaults; finite ones are read', () => {
  for (const v of ['NaN', 'Infinity', '-Infinity', '1e999', '', ' ', 'abc', '0x']) {
    assert.equal(check(`#batch=${encodeURIComponent(v)}`).state.batch, DEFAULTS.batch, v);
  }
  assert.equal(check('#batch=8&prompt=1e3').state.batch, 8);
  assert.equal(check('#batch=8&prompt=1e3').state.prompt, 1000);
  // Out of range but finite: kept, for the core to name (the page shows its message by the input).
  assert.equal(check('#batch=-5').state.batch, -5);
});

test('a device or config in a link reads back exactly, and one deeper than the core accepts is refused', () => {
  const device = { id: 'custom-x', name: 'X \u00e9\u{1f600}', memory_tiers: [{ name: 'HBM', capacity_GB: 80, bandwidth_GBps: 3350 }] };
  const out = check(`#hardware=custom:custom-x&device=${encodeURIComponent(encodeObject(device))}`);
  assert.deepEqual(out.device, device);
  // The old encoding (btoa(unescape(encodeURIComponent(json)))) is the same base64 of UTF-8.
  const old = btoa(unescape(encodeURIComponent(JSON.stringify(device))));
  assert.deepEqual(decodeObject(old, 64), device);
  let deep = {};
  for (let i = 0; i < 64; i++) deep = { a: deep };
  assert.equal(decodeObject(encodeObject(deep), 64), null);
  assert.deepEqual(decodeObject(encodeObject(deep.a), 64), deep.a);
  for (const v of ['[1, 2]', 'null', '"text"', '42']) assert.equal(decodeObject(Buffer.from(v).toString('base64'), 64), null, v);
  assert.equal(decodeObject(Buffer.from([0xff, 0xfe]).toString('base64'), 64), null, 'bytes that are not UTF-8');
});

test('mutations of a real link never break the decoding', () => {
  const real = `#model=custom&hardware=custom:custom-x&batch=8&prompt=2048&kwh=0.2&config=${encodeURIComponent(encodeObject({ model_type: 'llama', hidden_size: 64 }))}&device=${encodeURIComponent(encodeObject({ id: 'custom-x' }))}`;
  const r = rng(11);
  for (let i = 0; i < 20000; i++) {
    const chars = [...real];
    const n = 1 + Math.floor(r() * 4);
    for (let k = 0; k < n; k++) {
      const at = Math.floor(r() * chars.length);
      const op = r();
      if (op < 0.4) chars.splice(at, 1);
      else if (op < 0.8) chars[at] = ALPHABET[Math.floor(r() * ALPHABET.length)];
      else chars.splice(at, 0, String.fromCharCode(Math.floor(r() * 0x10000)));
    }
    check(chars.join(''));
  }
});

test('the keys a link names are known, whatever they hold: a plan left out is told from a plan of 1', () => {
  assert.deepEqual([...check('#model=deepseek-v3&tp=abc&unknown=1').named].sort(), ['model', 'tp']);
  assert.equal(check('#tp=abc').state.tp, 1);  // named, but not a number: the default is kept
  assert.deepEqual([...check('#tp=1').named], ['tp']);
  assert.deepEqual([...check('#model=deepseek-v3').named], ['model']);
  assert.deepEqual([...check('').named], []);
});
