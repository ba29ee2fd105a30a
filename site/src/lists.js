// The model and device lists: presets, the user's own models and devices, and a device that came with a link.
import { $, ctx, option, state } from './ctx.js';
import { bytes } from './format.js';

export function fillModels() {
  const sel = $('model');
  const q = $('model-search').value.trim().toLowerCase();
  sel.textContent = '';
  if (state.config) sel.appendChild(option('custom', `Custom: ${state.config._name_or_path || state.config.model_type || 'config.json'}`));
  const current = state.config ? JSON.stringify(state.config) : '';
  const g = document.createElement('optgroup');
  g.label = 'your models';
  ctx.store.doc.models.forEach((m, i) => { if (JSON.stringify(m.config) !== current) g.appendChild(option(`mine:${i}`, `${m.name} (yours)`)); });
  if (g.children.length) sel.appendChild(g);
  for (const m of ctx.presets.models) {
    if (q && !`${m.id} ${m.name} ${m.model_type}`.toLowerCase().includes(q)) continue;
    sel.appendChild(option(m.id, `${m.name} (${m.stated_params_total})`));
  }
  sel.value = state.model;
}

// A device whose 16-bit peak is derived rather than published says so in the list.
export function estimatedPeak(h) {
  const est = (h.peak_estimated && h.peak_estimated.dtypes) || [];
  const p = h.peak_dense_TFLOPS || {};
  return est.includes(p.bf16 !== undefined ? 'bf16' : 'fp16');
}

export function fillHardware() {
  const sel = $('hardware');
  sel.textContent = '';
  sel.appendChild(option('', 'none: FLOPs and bytes only'));
  const byClass = new Map();
  for (const h of ctx.presets.hardware) {
    if (!byClass.has(h.class)) byClass.set(h.class, []);
    byClass.get(h.class).push(h);
  }
  const mine = ctx.store.doc.devices.map((d) => d.doc);
  if (ctx.urlDevice && !mine.some((d) => d.id === ctx.urlDevice.id)) mine.push(ctx.urlDevice);
  if (mine.length) {
    const g = document.createElement('optgroup');
    g.label = 'your devices';
    for (const d of mine) g.appendChild(option(`custom:${d.id}`, `${d.name} (custom${estimatedPeak(d) ? ', estimated peak' : ''})`));
    sel.appendChild(g);
  }
  for (const [cls, list] of byClass) {
    const g = document.createElement('optgroup');
    g.label = cls;
    for (const h of list) g.appendChild(option(h.id, estimatedPeak(h) ? `${h.name} (estimated peak)` : h.name));
    sel.appendChild(g);
  }
  sel.value = state.hardware;
}
