// Custom devices and models kept in this browser: the device editor, import and export, and the store.
import { $, backend, ctx, DEFAULTS, state } from './ctx.js';
import { setProp } from './dom.js';
import { fillHardware, fillModels } from './lists.js';
import { update } from './main.js';
import { customDevice, EFFICIENCIES, effSet, selectedDeviceDoc } from './request.js';
import { deviceId, freeId, freeName, pageStorage, parseImport, putDevice, putModel, updateStore } from './store.js';

export { deviceId };

export function tierRow(t) {
  const tr = document.createElement('tr');
  const cell = (type, value, label) => {
    const input = document.createElement('input');
    input.type = type;
    if (type === 'number') { input.min = '0'; input.step = 'any'; }
    input.value = value ?? '';
    input.setAttribute('aria-label', label);
    const td = document.createElement('td');
    td.appendChild(input);
    tr.appendChild(td);
  };
  cell('text', t.name, 'Tier name');
  // Capacity and its unit in one cell: GiB for DRAM, HBM and SRAM (how they are sold), GB for flash.
  const binary = t.capacity_GB == null;
  cell('number', binary ? t.capacity_GiB : t.capacity_GB, 'Capacity');
  const unit = document.createElement('select');
  unit.setAttribute('aria-label', 'Capacity unit');
  unit.title = 'GiB for DRAM, HBM and SRAM (how they are sold: an "80 GB" H100 holds 80 GiB); GB for flash';
  for (const v of ['GiB', 'GB']) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = v;
    o.selected = (v === 'GiB') === binary;
    unit.appendChild(o);
  }
  // The number and its unit side by side in one cell.
  const capacity = tr.lastChild;
  const wrap = document.createElement('div');
  wrap.className = 'capacity';
  wrap.append(capacity.firstChild, unit);
  capacity.appendChild(wrap);
  cell('number', t.bandwidth_GBps, 'Bandwidth in GB/s');
  const td = document.createElement('td');
  const rm = document.createElement('button');
  rm.type = 'button';
  rm.textContent = 'x';
  rm.title = 'Remove this tier';
  rm.setAttribute('aria-label', `Remove tier ${t.name || ''}`);
  rm.addEventListener('click', () => tr.remove());
  td.appendChild(rm);
  tr.appendChild(td);
  return tr;
}

// A name for a new device made from `name` whose id no saved device (nor the link's) uses yet.
const newName = (name, more) => freeName(ctx.store.doc, name, more, ctx.urlDevice && typeof ctx.urlDevice.id === 'string' ? [ctx.urlDevice.id] : []);

// The editor filled from the selected device. A device that came with a link may hold anything: what is not a
// field the editor shows is left empty, and the core names what is wrong when the device is analyzed.
export function fillEditor() {
  const d = selectedDeviceDoc();
  if (!d) return;
  // A preset's copy is named so that its id is free: saving it never replaces a device saved before.
  $('dev-name').value = customDevice() ? String(d.name ?? '') : newName(`${d.name} (custom)`, (n) => `${d.name} (custom ${n})`);
  const peaks = d.peak_dense_TFLOPS !== null && typeof d.peak_dense_TFLOPS === 'object' ? d.peak_dense_TFLOPS : {};
  $('dev-bf16').value = peaks.bf16 ?? '';
  $('dev-fp8').value = peaks.fp8 ?? '';
  $('dev-int8').value = peaks.int8 ?? '';
  const body = $('dev-tiers').tBodies[0];
  body.textContent = '';
  for (const t of Array.isArray(d.memory_tiers) ? d.memory_tiers : []) body.appendChild(tierRow(t !== null && typeof t === 'object' ? t : {}));
  ctx.editorEdited = false;
  syncDelete();
}

// Delete is offered for a custom device this browser keeps.
export function syncDelete() {
  $('dev-delete').disabled = !customDevice() || !ctx.store.doc.devices.some((x) => x.doc.id === customDevice().id);
}

// The user typed in the editor, or added or removed a tier, since it was last filled: a save in another tab must
// not refill it over their edits (main.js, followOtherTabs).
export function watchEdits() {
  const edited = (e) => {
    if (e.target.id !== 'dev-import') ctx.editorEdited = true;
    e.target.removeAttribute?.('aria-invalid');  // the field named in an error, typed in since
  };
  $('device-editor').addEventListener('input', edited);
  $('device-editor').addEventListener('change', edited);
  $('dev-tiers').addEventListener('click', (e) => { if (e.target.closest('button')) ctx.editorEdited = true; });
  $('dev-tier-add').addEventListener('click', edited);
}

// Reads the editor into a hardware document. Numbers the user typed are kept as typed when they are not numbers,
// so the core's message names the field and shows the text.
export function editorDoc() {
  const base = selectedDeviceDoc();
  const doc = JSON.parse(JSON.stringify(base));
  const name = $('dev-name').value.trim();
  doc.name = name;
  // The device edited keeps its id while its name is unchanged (an imported or linked device's id need not be its
  // name's slug); a new name is a new device.
  const editing = customDevice();
  doc.id = editing && name === editing.name && typeof editing.id === 'string' ? editing.id : deviceId(name);
  doc.source = customDevice() ? base.source : `custom, edited in the browser from ${base.name} (${base.source})`;
  const num = (v) => (v.trim() === '' ? undefined : Number.isFinite(Number(v)) ? Number(v) : v);
  const peaks = { ...(doc.peak_dense_TFLOPS || {}) };
  for (const [k, id] of [['bf16', 'dev-bf16'], ['fp8', 'dev-fp8'], ['int8', 'dev-int8']]) {
    const v = num($(id).value);
    if (v === undefined) delete peaks[k];
    else peaks[k] = v;
  }
  doc.peak_dense_TFLOPS = peaks;
  // A peak typed over or cleared is the user's own now, no longer a derived estimate.
  if (doc.peak_estimated) {
    const was = base.peak_dense_TFLOPS || {};
    const kept = doc.peak_estimated.dtypes.filter((t) => peaks[t] !== undefined && peaks[t] === was[t]);
    if (kept.length) doc.peak_estimated = { ...doc.peak_estimated, dtypes: kept };
    else delete doc.peak_estimated;
  }
  // The vector units' rates of a matrix-engine CPU stay for the types whose matrix peak is unchanged.
  if (doc.peak_dense_TFLOPS_vector) {
    const was = base.peak_dense_TFLOPS || {};
    const vec = Object.fromEntries(Object.entries(doc.peak_dense_TFLOPS_vector).filter(([t]) => peaks[t] === was[t]));
    if (Object.keys(vec).length) doc.peak_dense_TFLOPS_vector = vec;
    else delete doc.peak_dense_TFLOPS_vector;
  }
  if (doc.peak_dense_TFLOPS_fp16_accumulate) {
    const was = base.peak_dense_TFLOPS || {};
    const acc = Object.fromEntries(Object.entries(doc.peak_dense_TFLOPS_fp16_accumulate).filter(([t]) => peaks[t] !== undefined && peaks[t] === was[t]));
    if (Object.keys(acc).length) doc.peak_dense_TFLOPS_fp16_accumulate = acc;
    else delete doc.peak_dense_TFLOPS_fp16_accumulate;
  }
  doc.memory_tiers = [...$('dev-tiers').tBodies[0].rows].map((tr, i) => {
    const [n, c, b] = [...tr.querySelectorAll('input')].map((x) => x.value);
    const was = Array.isArray(base.memory_tiers) ? base.memory_tiers[i] : null;
    const { capacity_GB: _gb, capacity_GiB: _gib, ...old } = was !== null && typeof was === 'object' ? was : {};
    const key = tr.querySelector('select').value === 'GB' ? 'capacity_GB' : 'capacity_GiB';
    return { ...old, name: n.trim() || `tier ${i}`, [key]: num(c) ?? c, bandwidth_GBps: num(b) ?? b };
  });
  return doc;
}

// Applies one change (a function of a store document) to what is stored now, merged with what other tabs saved,
// and to this page's copy. False (and says why) when this page must not or cannot write the store: the change then
// lasts until the page closes.
export function persist(change) {
  if (ctx.store.readOnly) {
    change(ctx.store.doc);
    $('store-notice').textContent = `${ctx.store.notice} (This change lasts until the page closes.)`;
    return false;
  }
  try {
    const r = updateStore(pageStorage(), change, ctx.store.doc);
    ctx.store.doc = r.doc;
    if (r.readOnly) {
      Object.assign(ctx.store, { readOnly: true, notice: r.notice });
      $('store-notice').textContent = `${r.notice} (This change lasts until the page closes.)`;
      return false;
    }
    if (r.notice) $('store-notice').textContent = r.notice;
    return true;
  } catch (err) {
    change(ctx.store.doc);
    $('store-error').textContent = `Could not save in this browser (${err.message}); the change lasts until the page closes.`;
    return false;
  }
}

// The editor's input a refusal's pointer names (the core's path into the device document), and how to name it:
// "Tier 2, capacity" for /hardware/memory_tiers/1/capacity_GiB (the message read "The device:
// /memory_tiers/1/capacity_GiB holds ..." and no field was marked).
function editorField(path) {
  const tier = /^\/hardware\/memory_tiers\/(\d+)(?:\/(\w+))?/.exec(path || '');
  if (tier) {
    const row = $('dev-tiers').tBodies[0].rows[Number(tier[1])];
    const [name, capacity, bandwidth] = row ? [...row.querySelectorAll('input')] : [];
    const which = { name: [name, 'name'], capacity_GiB: [capacity, 'capacity (GiB)'], capacity_GB: [capacity, 'capacity (GB)'], bandwidth_GBps: [bandwidth, 'bandwidth (GB/s)'] }[tier[2]];
    return { input: which ? which[0] : name, label: `Tier ${Number(tier[1]) + 1}${which ? `, ${which[1]}` : ''}` };
  }
  const peak = /^\/hardware\/peak_dense_TFLOPS\/(bf16|fp8|int8)/.exec(path || '');
  if (peak) return { input: $(`dev-${peak[1]}`), label: $(`dev-${peak[1]}`).labels[0].textContent };
  if (/^\/hardware\/name/.test(path || '')) return { input: $('dev-name'), label: 'Name' };
  return null;
}

function clearEditorError() {
  $('store-error').textContent = '';
  for (const e of $('device-editor').querySelectorAll('[aria-invalid]')) {
    e.removeAttribute('aria-invalid');
    e.removeAttribute('aria-errormessage');
  }
}

// A refused device: the message names the field as the editor shows it, and that field is marked and focused.
function showEditorError(error) {
  const field = editorField(error.path);
  const pointer = (error.path || '').replace(/^\/hardware/, '');
  // The core's message, its pointer replaced by the field's name; an empty field said so.
  let message = error.message.replace(/^\/hardware\S*\s*/, '').replace(/^holds "" \(a string\)/, 'is empty');
  if (field) message = `${field.label}${/^(holds|is)\b/.test(message) ? ' ' : ': '}${message}`;
  else message = `The device: ${pointer ? `${pointer} ` : ''}${message}`;
  $('store-error').textContent = message;
  if (field && field.input) {
    field.input.setAttribute('aria-invalid', 'true');
    field.input.setAttribute('aria-errormessage', 'store-error');
    field.input.focus();
  }
}

export async function saveDevice() {
  clearEditorError();
  const doc = editorDoc();
  if (!doc.name) {
    $('store-error').textContent = 'Name is empty; expected a name for the device';
    return;
  }
  const env = await backend.envelope('device', { hardware: doc });
  if (!env.ok) {
    showEditorError(env.error);
    return;
  }
  // A different device saved under this id (two devices made from one preset, or two names with one slug) is
  // never replaced silently: the user chooses, as for an import. The device being edited is replaced.
  const held = ctx.store.doc.devices.find((x) => x.doc.id === doc.id);
  const editing = customDevice();
  let alsoKept = '';
  if (held && !(editing && held.doc.id === editing.id) && JSON.stringify(held.doc) !== JSON.stringify(doc)) {
    const other = newName(doc.name, (n) => `${doc.name} (${n})`);
    if (!window.confirm(`A different device is already saved here under the id "${doc.id}": "${held.doc.name}"${held.saved ? `, saved ${held.saved}` : ''}.\n\nOK replaces the saved device with this one; Cancel keeps both (this one is saved as "${other}").`)) {
      alsoKept = held.doc.name;
      doc.name = other;
      doc.id = deviceId(other);
    }
  }
  const kept = keepDevice(doc);
  // The link's device, saved here, is the stored one from now on (a later edit saved under its id is not the link's).
  if (ctx.urlDevice && ctx.urlDevice.id === doc.id) ctx.urlDevice = null;
  state.hardware = `custom:${doc.id}`;
  fillHardware();
  fillEditor();
  if (kept) $('store-notice').textContent = alsoKept ? `Saved ${doc.name}; ${alsoKept} is kept too.` : `Saved ${doc.name}.`;
  update();
}

export function deleteDevice() {
  const d = customDevice();
  if (!d) return;
  persist((doc) => { doc.devices = doc.devices.filter((x) => x.doc.id !== d.id); });
  state.hardware = DEFAULTS.hardware;
  fillHardware();
  fillEditor();
  $('store-notice').textContent = `Deleted ${d.name}.`;
  update();
}

// An import is checked whole by the core before anything is kept: one bad device refuses the file.
export async function importFile(file) {
  $('store-error').textContent = '';
  let bundle;
  try {
    bundle = parseImport(await file.text(), file.name);
  } catch (err) {
    $('store-error').textContent = err.message;
    return;
  }
  for (const [i, doc] of bundle.devices.entries()) {
    const env = await backend.envelope('device', { hardware: doc });
    if (!env.ok) {
      $('store-error').textContent = `${file.name}, device ${i + 1}${doc && doc.name ? ` (${String(doc.name)})` : ''}: ${env.error.message}; nothing was imported`;
      return;
    }
  }
  for (const [i, m] of bundle.models.entries()) {
    const env = await backend.envelope('model', { model: m && m.config });
    if (!env.ok) {
      $('store-error').textContent = `${file.name}, model ${i + 1}: ${env.error.message}; nothing was imported`;
      return;
    }
  }
  // A device whose id is already saved with other contents asks: replace it, or keep both (the imported one under
  // a free id). The same contents are nothing to ask about.
  const devices = [];
  for (const doc of bundle.devices) {
    const held = ctx.store.doc.devices.find((x) => x.doc.id === doc.id);
    if (held && JSON.stringify(held.doc) === JSON.stringify(doc)) continue;
    if (held && !window.confirm(`${file.name} holds a device "${doc.name}" with the id "${doc.id}", and a different device with that id is already saved here ("${held.doc.name}"${held.saved ? `, saved ${held.saved}` : ''}).\n\nOK replaces the saved device with the imported one; Cancel keeps both (the imported one is saved under a new id).`)) {
      const id = freeId({ devices: [...ctx.store.doc.devices, ...devices.map((d) => ({ doc: d }))] }, doc.id);
      devices.push({ ...doc, id, name: `${doc.name} (imported)` });
    } else {
      devices.push(doc);
    }
  }
  const kept = persist((d) => {
    for (const doc of devices) putDevice(d, doc);
    for (const m of bundle.models) putModel(d, m.config, m.name);
  });
  fillHardware();
  fillModels();
  if (kept) $('store-notice').textContent = `Imported ${bundle.devices.length} device(s) and ${bundle.models.length} model(s) from ${file.name}.`;
}

// Adds a device to the store, replacing one with the same id (the editor saving the device it edits).
export const keepDevice = (doc) => persist((d) => putDevice(d, doc));

export const keepModel = (config, name) => persist((d) => putModel(d, config, name));

// Each efficiency input shows what the analysis ran with as its placeholder (the device's own, else its runtime's,
// else its class's: the result's `execution`) and the override, if any, as its value.
export function syncEfficiencies() {
  const doc = state.hardware ? selectedDeviceDoc() : null;
  const ran = ctx.lastResult && ctx.lastResult.execution ? ctx.lastResult.execution.efficiency : null;
  for (const [key, field, id] of EFFICIENCIES) {
    const v = (doc && doc.efficiency && doc.efficiency[field]) ?? (ran ? ran[field] : undefined);
    setProp($(id), 'placeholder', typeof v === 'number' ? String(+v.toPrecision(4)) : '');
    setProp($(id), 'value', effSet(key) ? String(state[key]) : '');
  }
}
