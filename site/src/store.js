// What the user made (custom devices and models) kept in the browser: one versioned document under one key of
// localStorage. Nothing is ever dropped silently:
//   - an older version is migrated, and the old text is kept under `${STORE_KEY}.backup-v<N>`;
//   - text that cannot be read is kept under `${STORE_KEY}.damaged` and the page says so;
//   - a document from a newer Infercast is used read-only: the page does not overwrite it;
//   - an import is checked whole before anything is written (see importBundle in main.js).
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

// Returns {doc, notice, readOnly}. `storage` is window.localStorage (or a stand-in in tests).
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
    storage.setItem(`${STORE_KEY}.damaged`, raw);
    return { doc: empty(), notice: `The stored custom devices could not be read; their text was kept under the key "${STORE_KEY}.damaged".`, readOnly: false };
  }
  if (parsed.version > STORE_VERSION) {
    return { doc: normalize(parsed), notice: `Custom devices were saved by a newer Infercast (storage version ${parsed.version}); they are shown but changes here are not saved, so nothing of theirs is overwritten.`, readOnly: true };
  }
  if (parsed.version < STORE_VERSION) {
    storage.setItem(`${STORE_KEY}.backup-v${parsed.version}`, raw);
    const doc = migrate(parsed);
    storage.setItem(STORE_KEY, JSON.stringify(doc));
    return { doc, notice: `Custom devices were upgraded from storage version ${parsed.version} to ${STORE_VERSION}; the old copy is under "${STORE_KEY}.backup-v${parsed.version}".`, readOnly: false };
  }
  return { doc: normalize(parsed), notice: '', readOnly: false };
}

export function migrate(old) {
  let doc = old;
  if (doc.version === 1) {
    doc = { version: 2, devices: (Array.isArray(doc.devices) ? doc.devices : []).filter(isObject).map((d) => ({ doc: d, saved: null })), models: [] };
  }
  return normalize(doc);
}

function normalize(doc) {
  return {
    version: STORE_VERSION,
    devices: (Array.isArray(doc.devices) ? doc.devices : []).filter((d) => isObject(d) && isObject(d.doc)),
    models: (Array.isArray(doc.models) ? doc.models : []).filter((m) => isObject(m) && isObject(m.config)),
  };
}

export function saveStore(storage, doc) {
  storage.setItem(STORE_KEY, JSON.stringify({ version: STORE_VERSION, devices: doc.devices, models: doc.models }));
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
