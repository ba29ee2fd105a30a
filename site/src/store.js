// What the user made (custom devices and models) kept in the browser: one versioned document under one key of
// localStorage. Nothing is ever lost (docs/schema.md, "Browser storage"):
//   - an older version is migrated, and the old text is kept under `${STORE_KEY}.backup-v<N>` first;
//   - text that cannot be read is kept under `${STORE_KEY}.damaged` (then .damaged-2, -3, ...: every damaged copy,
//     each kept once) before anything else is written, and the page says so;
//   - entries of the current version with an unexpected shape, and keys it does not know, are kept under
//     `${STORE_KEY}.aside` (numbered the same way) before a save leaves them out;
//   - when a copy cannot be made (no room left), nothing is written over the original: the page runs read-only;
//   - a document from a newer Infercast is used read-only: the page does not overwrite it;
//   - every save reads what is stored now and applies one change to it (updateStore), so two tabs never overwrite
//     each other's changes; the page also follows `storage` events from other tabs (main.js);
//   - an import is checked whole before anything is written, and one that collides asks (devices.js).
// Version history:
//   1: {version: 1, devices: [hardware document, ...]}
//   2: {version: 2, devices: [{doc, saved}], models: [{config, name, saved}]}: custom models and save times
export const STORE_KEY = 'infercast.store';
export const STORE_VERSION = 2;
export const EXPORT_KIND = 'infercast-export';

const empty = () => ({ version: STORE_VERSION, devices: [], models: [] });

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// Keeps `text` under `base`, or `base-2`, `base-3`, ...: the first free key, or the key already holding the same
// text. Returns the key, or throws (no room left) having written nothing else.
export function keepCopy(storage, base, text) {
  for (let n = 1; n < 10000; n++) {
    const key = n === 1 ? base : `${base}-${n}`;
    const held = storage.getItem(key);
    if (held === text) return key;
    if (held === null) {
      storage.setItem(key, text);
      return key;
    }
  }
  throw new Error(`no free key left after ${base}-9999`);
}

// The store's entries split into what the page uses and what it does not know (kept aside, never dropped).
function split(doc) {
  const aside = {};
  const devices = [];
  const models = [];
  const list = (v, name) => {
    if (v === undefined) return [];
    if (Array.isArray(v)) return v;
    aside[name] = v;
    return [];
  };
  // A device the page can list and select: a document with a string id and a list of memory tiers (every device
  // the page saves was checked by the core first); any other entry is kept aside.
  for (const d of list(doc.devices, 'devices')) {
    if (isObject(d) && isObject(d.doc) && typeof d.doc.id === 'string' && Array.isArray(d.doc.memory_tiers)) devices.push(d);
    else (aside.devices ??= []).push(d);
  }
  for (const m of list(doc.models, 'models')) {
    if (isObject(m) && isObject(m.config)) models.push(m);
    else (aside.models ??= []).push(m);
  }
  for (const [k, v] of Object.entries(doc)) if (!['version', 'devices', 'models'].includes(k)) aside[k] = v;
  return { doc: { version: STORE_VERSION, devices, models }, aside };
}

const noRoom = (what) => `${what}, and this browser has no room left to keep a copy: nothing was changed, and changes made here last until the page closes (free some space, or export your devices, then reload).`;

// The page's localStorage, or null where the browser refuses it: with every site's data blocked, Chromium throws
// a SecurityError on reading `window.localStorage` itself (loadStore(null) then says so, and changes last until the
// page closes).
export function pageStorage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

// Returns {doc, notice, readOnly}. `storage` is window.localStorage (or a stand-in in tests; null where the browser
// refuses it). Never throws.
export function loadStore(storage) {
  let raw = null;
  try {
    raw = storage.getItem(STORE_KEY);
  } catch {
    return { doc: empty(), notice: 'This browser does not allow local storage here; custom devices and models last until the page closes.', readOnly: true };
  }
  if (raw === null) return { doc: empty(), notice: '', readOnly: false };
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (!isObject(parsed) || !Number.isInteger(parsed.version) || parsed.version < 1) {
    // Kept first; the page starts empty and its next save replaces the damaged text, which lives on in the copy.
    try {
      const key = keepCopy(storage, `${STORE_KEY}.damaged`, raw);
      return { doc: empty(), notice: `The stored custom devices could not be read; their text was kept under the key "${key}".`, readOnly: false };
    } catch {
      return { doc: empty(), notice: noRoom('The stored custom devices could not be read'), readOnly: true };
    }
  }
  if (parsed.version > STORE_VERSION) {
    return { doc: split(parsed).doc, notice: `Custom devices were saved by a newer Infercast (storage version ${parsed.version}); they are shown but changes here are not saved, so nothing of theirs is overwritten.`, readOnly: true };
  }
  const notices = [];
  let source = parsed;
  if (parsed.version < STORE_VERSION) {
    try {
      const key = keepCopy(storage, `${STORE_KEY}.backup-v${parsed.version}`, raw);
      notices.push(`Custom devices were upgraded from storage version ${parsed.version} to ${STORE_VERSION}; the old copy is under "${key}".`);
    } catch {
      return { doc: migrate(parsed), notice: noRoom(`Custom devices are in storage version ${parsed.version}`), readOnly: true };
    }
    source = migrate(parsed, true);
  }
  const { doc, aside } = split(source);
  if (Object.keys(aside).length) {
    try {
      const key = keepCopy(storage, `${STORE_KEY}.aside`, JSON.stringify(aside));
      notices.push(`Some stored entries have a shape this page does not use; they were kept under the key "${key}".`);
    } catch {
      return { doc, notice: noRoom('Some stored entries have a shape this page does not use'), readOnly: true };
    }
  }
  if (parsed.version < STORE_VERSION) {
    try {
      storage.setItem(STORE_KEY, JSON.stringify(doc));
    } catch {
      return { doc, notice: noRoom(`Custom devices are in storage version ${parsed.version}`), readOnly: true };
    }
  }
  return { doc, notice: notices.join(' '), readOnly: false };
}

// A version-1 document in version 2's shape; `keepUnknown` keeps entries that are not devices for split() to set
// aside.
export function migrate(old, keepUnknown = false) {
  let doc = old;
  if (doc.version === 1) {
    const devices = Array.isArray(doc.devices) ? doc.devices : [];
    doc = { version: 2, devices: devices.filter((d) => keepUnknown || isObject(d)).map((d) => (isObject(d) ? { doc: d, saved: null } : d)), models: [] };
  }
  return keepUnknown ? doc : split(doc).doc;
}

export function saveStore(storage, doc) {
  storage.setItem(STORE_KEY, JSON.stringify({ version: STORE_VERSION, devices: doc.devices, models: doc.models }));
}

// One change, applied to what is stored now (another tab may have saved since this page read it) and written
// back. Returns {doc, notice, readOnly}: readOnly when the store must not be written (the change is then applied
// to `fallback`, the page's copy, only). Throws when the browser refuses the write (the message says why).
export function updateStore(storage, change, fallback) {
  const current = loadStore(storage);
  if (current.readOnly) {
    change(fallback);
    return { doc: fallback, notice: current.notice, readOnly: true };
  }
  change(current.doc);
  saveStore(storage, current.doc);
  return { doc: current.doc, notice: current.notice, readOnly: false };
}

// A device added to a store document, replacing one with the same id.
export function putDevice(doc, device, saved = new Date().toISOString()) {
  const entry = { doc: device, saved };
  const i = doc.devices.findIndex((d) => d.doc.id === device.id);
  if (i >= 0) doc.devices[i] = entry;
  else doc.devices.push(entry);
}

// A model added to a store document unless the same config is there already.
export function putModel(doc, config, name, saved = new Date().toISOString()) {
  const text = JSON.stringify(config);
  if (doc.models.some((m) => JSON.stringify(m.config) === text)) return;
  doc.models.push({ config, name: name || config._name_or_path || config.model_type || 'config.json', saved });
}

// The id a custom device gets from its name: a slug prefixed with "custom-".
export function deviceId(name) {
  const slug = String(name).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'device';
  return slug.startsWith('custom-') ? slug : `custom-${slug}`;
}

// A name whose id (deviceId) no device of `doc` uses, nor any of `taken`: `name`, else the first of `more(2)`,
// `more(3)`, ... Its id is the name's slug, so the device keeps it when it is edited and saved again.
export function freeName(doc, name, more, taken = []) {
  const used = new Set([...doc.devices.map((d) => d.doc.id), ...taken]);
  if (!used.has(deviceId(name))) return name;
  for (let n = 2; ; n++) if (!used.has(deviceId(more(n)))) return more(n);
}

// A device that came with a link, kept apart from a different device stored under the same id: the link's is
// renamed "<name> (from the link)" under that name's free id (a shared link shows what its sender saw, and the
// stored device stays as it is). Returns the renamed device, or null when nothing collides.
export function linkDeviceApart(doc, device) {
  if (!isObject(device) || typeof device.id !== 'string') return null;
  const held = doc.devices.find((d) => d.doc.id === device.id);
  if (!held || JSON.stringify(held.doc) === JSON.stringify(device)) return null;
  const base = `${typeof device.name === 'string' && device.name ? device.name : device.id} (from the link)`;
  const name = freeName(doc, base, (n) => `${base} ${n}`);
  return { ...device, id: deviceId(name), name };
}

// An id not used by any device of `doc`: `id`, else `id-2`, `id-3`, ...
export function freeId(doc, id) {
  const used = new Set(doc.devices.map((d) => d.doc.id));
  if (!used.has(id)) return id;
  for (let n = 2; ; n++) if (!used.has(`${id}-${n}`)) return `${id}-${n}`;
}

export function exportBundle(doc) {
  return { kind: EXPORT_KIND, version: STORE_VERSION, devices: doc.devices.map((d) => d.doc), models: doc.models.map((m) => ({ name: m.name, config: m.config })) };
}

// Reads an import file's text into {devices: [doc], models: [{name, config}]} or throws an Error whose message
// names the file and what is wrong. Accepts an export bundle or a single hardware document.
export function parseImport(text, fileName) {
  let v;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new Error(`${fileName} is not valid JSON (${err.message}); nothing was imported`);
  }
  if (!isObject(v)) throw new Error(`${fileName} holds ${Array.isArray(v) ? 'an array' : JSON.stringify(v)}; expected an Infercast export or a hardware document; nothing was imported`);
  if (v.kind === EXPORT_KIND) {
    if (!Array.isArray(v.devices) || !Array.isArray(v.models ?? [])) throw new Error(`${fileName}: /devices must be an array; nothing was imported`);
    return { devices: v.devices, models: v.models ?? [] };
  }
  if ('memory_tiers' in v) return { devices: [v], models: [] };
  throw new Error(`${fileName} is neither an Infercast export (kind "${EXPORT_KIND}") nor a hardware document (no memory_tiers); nothing was imported`);
}
