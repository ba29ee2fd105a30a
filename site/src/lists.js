// The model and device lists: presets, the user's own models and devices, and a device that came with a link.
// Models are found the way people name them: every word of the search ("llama 3.1 8b", "qwen moe",
// "meta-llama/Llama-3.1-8B") must appear in the preset's id, name, family or Hugging Face id.
import { $, ctx, option, state } from './ctx.js';

// Lower case without separators, so "llama 3.1 8b", "llama-3.1-8B" and "Llama3.1 8b" all match "llama-3.1-8b".
const squash = (s) => s.toLowerCase().replace(/[\s_\-/:]+/g, '');

// The Hugging Face id a preset's source names ("meta-llama/Llama-3.1-8B"), or "".
export function hfId(source) {
  const m = /huggingface\.co\/([\w.-]+\/[\w.-]+)/.exec(source || '');
  return m ? m[1] : '';
}

export function modelMatches(m, query) {
  const words = query.toLowerCase().split(/[\s,]+/).filter(Boolean).map(squash).filter(Boolean);
  if (!words.length) return true;
  const hay = squash(`${m.id} ${m.name} ${m.model_type} ${hfId(m.source)} ${m.declared_weights || ''} ${m.params_active !== m.params_total ? 'moe' : ''}`);
  return words.every((w) => hay.includes(w));
}

// A preset's name in the lists (the page's build writes the default's into the HTML: build-site.mjs).
export const modelLabel = (m) => `${m.name} (${m.stated_params_total})`;
export const hardwareLabel = (h) => (estimatedPeak(h) ? `${h.name} (estimated peak)` : h.name);

export function fillModels() {
  const sel = $('model');
  const q = $('model-search').value.trim();
  sel.textContent = '';
  if (state.config) sel.appendChild(option('custom', `Custom: ${state.config._name_or_path || state.config.model_type || 'config.json'}`));
  const current = state.config ? JSON.stringify(state.config) : '';
  const g = document.createElement('optgroup');
  g.label = 'your models';
  ctx.store.doc.models.forEach((m, i) => { if (JSON.stringify(m.config) !== current) g.appendChild(option(`mine:${i}`, `${m.name} (yours)`)); });
  if (g.children.length) sel.appendChild(g);
  const found = ctx.presets.models.filter((m) => modelMatches(m, q));
  for (const m of found) sel.appendChild(option(m.id, modelLabel(m)));
  // The model analyzed stays in the list (and selected) even when the search does not match it.
  if (!state.config && !found.some((m) => m.id === state.model)) {
    const cur = ctx.presets.models.find((m) => m.id === state.model);
    if (cur) sel.insertBefore(option(cur.id, `${modelLabel(cur)}, current`), sel.firstChild);
  }
  sel.value = state.model;
  const note = $('model-search-note');
  if (!q) note.textContent = '';
  else if (!found.length) note.textContent = `No preset matches "${q}"; the current model stays selected. Search words in a name or a Hugging Face id, or drop its config.json under Settings.`;
  else note.textContent = `${found.length} preset${found.length === 1 ? '' : 's'} match${found.length === 1 ? 'es' : ''} "${q}".`;
}

// A device whose 16-bit peak is derived rather than published says so in the list.
export function estimatedPeak(h) {
  const est = h.peak_estimated && Array.isArray(h.peak_estimated.dtypes) ? h.peak_estimated.dtypes : [];
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
    for (const d of mine) g.appendChild(option(`custom:${d.id}`, `${d.name ?? d.id} (custom${estimatedPeak(d) ? ', estimated peak' : ''})`));
    sel.appendChild(g);
  }
  for (const [cls, list] of byClass) {
    const g = document.createElement('optgroup');
    g.label = cls;
    for (const h of list) g.appendChild(option(h.id, hardwareLabel(h)));
    sel.appendChild(g);
  }
  sel.value = state.hardware;
}
