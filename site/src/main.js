// The page: one state object, kept in the URL; every change asks the core for a fresh analysis and renders it.
// User text (model names, config fields, error messages) is only ever set as textContent, never as HTML.
import { plotOf, replacePlot, uplotSvg } from './plots.js';
import { createBackend } from './backend.js';
import { bytes, count, rate, seconds, si } from './format.js';
import { drawRoofline } from './roofline.js';
import { buildDseControls, drawDse, drawTcTm, dseRequest, frontCsv, renderFront } from './dse.js';
import { exportBundle, loadStore, parseImport, saveStore } from './store.js';
import { drawDecomposition, drawMemory, placementRequests, renderPlacements } from './views.js';
import { explainCard, explainOp } from './explain.js';
import { entryRequest, parseEntries, renderCompare } from './compare.js';
import { MULTI_DEFAULTS, addMulti, applySystem, batchingCsv, isMulti, planCards, renderBatching, renderPlan } from './parallel.js';

const $ = (id) => document.getElementById(id);
const backend = createBackend();

const DEFAULTS = {
  model: 'llama-3.1-8b', hardware: 'nvidia-h100-sxm', batch: 1, prompt: 512, gen: 128,
  weights: 'declared', activations: 'bf16', kv: 'bf16', convention: 'infercast', attention: 'fused', moe: 'expected',
  mlp: 'unfused', chunk: 0, tile: 0, lora: 0, loraMode: 'unmerged', scenario: '', hadamard: 'off',
  region: 'world', kwh: 0.1, pue: 1.3, life: 3, util: 0.5, price: 0, power: 0, embodied: -1, wclasses: '',
  reqs: '', cmp: '', opsView: 'total', egemm: 0, eattn: 0, eelem: 0, emem: 0, edisp: -1,
  ...MULTI_DEFAULTS,
};
const state = { ...DEFAULTS, config: null, phase: 'decode', opsPhase: 'prefill', sort: null };
let presets = { models: [], hardware: [], systems: [] };
let lastBatching = null;
let lastResult = null;
let lastSweep = null;
let scenarios = [];
let generation = 0;
// Custom devices and models kept in this browser (store.js); `urlDevice` is a device that came with a shared link.
let store = { doc: { devices: [], models: [] }, notice: '', readOnly: false };
let urlDevice = null;

// The state a link describes: what it names, and the defaults for everything it does not (a link opened in a tab
// that already shows the page replaces that tab's scenario whole).
function readUrl() {
  const p = new URLSearchParams(location.hash.slice(1));
  Object.assign(state, DEFAULTS, { config: null });
  for (const k of Object.keys(DEFAULTS)) {
    if (!p.has(k)) continue;
    state[k] = typeof DEFAULTS[k] === 'number' ? Number(p.get(k)) : p.get(k);
  }
  urlDevice = null;
  if (p.has('device')) {
    try {
      urlDevice = JSON.parse(decodeURIComponent(escape(atob(p.get('device')))));
    } catch {
      urlDevice = null;
    }
  }
  if (p.has('config')) {
    try {
      state.config = JSON.parse(decodeURIComponent(escape(atob(p.get('config')))));
      state.model = 'custom';
    } catch {
      state.config = null;
    }
  }
}

function writeUrl() {
  const p = new URLSearchParams();
  for (const k of Object.keys(DEFAULTS)) if (state[k] !== DEFAULTS[k]) p.set(k, String(state[k]));
  if (state.model === 'custom' && state.config) p.set('config', btoa(unescape(encodeURIComponent(JSON.stringify(state.config)))));
  const dev = customDevice();
  if (dev) p.set('device', btoa(unescape(encodeURIComponent(JSON.stringify(dev)))));
  const hash = p.toString();
  history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
}

function option(value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  return o;
}

function fillModels() {
  const sel = $('model');
  const q = $('model-search').value.trim().toLowerCase();
  sel.textContent = '';
  if (state.config) sel.appendChild(option('custom', `Custom: ${state.config._name_or_path || state.config.model_type || 'config.json'}`));
  const current = state.config ? JSON.stringify(state.config) : '';
  const g = document.createElement('optgroup');
  g.label = 'your models';
  store.doc.models.forEach((m, i) => { if (JSON.stringify(m.config) !== current) g.appendChild(option(`mine:${i}`, `${m.name} (yours)`)); });
  if (g.children.length) sel.appendChild(g);
  for (const m of presets.models) {
    if (q && !`${m.id} ${m.name} ${m.model_type}`.toLowerCase().includes(q)) continue;
    sel.appendChild(option(m.id, `${m.name} (${m.stated_params_total})`));
  }
  sel.value = state.model;
}

function fillHardware() {
  const sel = $('hardware');
  sel.textContent = '';
  sel.appendChild(option('', 'none: FLOPs and bytes only'));
  const byClass = new Map();
  for (const h of presets.hardware) {
    if (!byClass.has(h.class)) byClass.set(h.class, []);
    byClass.get(h.class).push(h);
  }
  const mine = store.doc.devices.map((d) => d.doc);
  if (urlDevice && !mine.some((d) => d.id === urlDevice.id)) mine.push(urlDevice);
  if (mine.length) {
    const g = document.createElement('optgroup');
    g.label = 'your devices';
    for (const d of mine) g.appendChild(option(`custom:${d.id}`, `${d.name} (custom)`));
    sel.appendChild(g);
  }
  for (const [cls, list] of byClass) {
    const g = document.createElement('optgroup');
    g.label = cls;
    for (const h of list) g.appendChild(option(h.id, h.name));
    sel.appendChild(g);
  }
  sel.value = state.hardware;
}

// The hardware document of the selected custom device (stored, or from the link), or null for a preset.
function customDevice() {
  if (!state.hardware.startsWith('custom:')) return null;
  const id = state.hardware.slice('custom:'.length);
  const kept = store.doc.devices.find((d) => d.doc.id === id);
  if (kept) return kept.doc;
  return urlDevice && urlDevice.id === id ? urlDevice : null;
}

// The selected device as a document the editor can start from.
function selectedDeviceDoc() {
  return customDevice() || presets.hardware.find((h) => h.id === state.hardware) || presets.hardware.find((h) => h.id === DEFAULTS.hardware);
}

// Efficiency overrides (the advanced panel): state key, efficiency field, input id.
const EFFICIENCIES = [['egemm', 'gemm', 'eff-gemm'], ['eattn', 'attention', 'eff-attention'], ['eelem', 'elementwise', 'eff-elementwise'],
  ['emem', 'memory', 'eff-memory'], ['edisp', 'dispatch_us', 'eff-dispatch']];
const effSet = (key) => (key === 'edisp' ? state[key] >= 0 : state[key] > 0);

// The request's hardware: a preset id, or a document (a custom device, or any device with efficiencies overridden).
function hardwareArg() {
  if (!state.hardware) return undefined;
  const own = EFFICIENCIES.filter(([k]) => effSet(k));
  if (!own.length) return customDevice() || state.hardware;
  const doc = structuredClone(selectedDeviceDoc());
  doc.efficiency = { ...doc.efficiency };
  for (const [k, field] of own) doc.efficiency[field] = state[k];
  return doc;
}

// Ragged requests typed as "cached+new x count" items ("0+512x4, 8192+128"); throws a message naming the item.
function parseRequests(text) {
  const items = text.split(/[,;\n]/).map((x) => x.trim()).filter(Boolean);
  return items.map((item, i) => {
    const m = /^(?:(\d+)\s*\+\s*)?(\d+)(?:\s*[x×*]\s*(\d+))?$/.exec(item);
    if (!m || Number(m[2]) < 1 || (m[3] !== undefined && Number(m[3]) < 1)) {
      throw new Error(`Ragged requests: item ${i + 1} holds "${item}"; expected cached+new tokens, optionally x count (e.g. 4096+128x2), with at least 1 new token`);
    }
    return { cached: Number(m[1] || 0), input: Number(m[2]), count: Number(m[3] || 1) };
  });
}

function workloadArg() {
  if (state.reqs) {
    try {
      return { requests: parseRequests(state.reqs), gen: state.gen };
    } catch {
      // shown next to the input by its handler; the plain batch stands in until the list is fixed
    }
  }
  return { batch: state.batch, prompt: state.prompt, gen: state.gen };
}

function request() {
  const req = {
    model: state.model === 'custom' && state.config ? state.config : state.model,
    workload: workloadArg(),
    precision: { activations: state.activations, kv: state.kv },
    convention: state.convention,
    attention: state.attention,
    moe_traffic: state.moe,
    mlp: state.mlp,
  };
  // Without a weight format the core applies the one the model is published in (its quantization_config), as
  // the CLI does when --weights is not given.
  if (state.weights !== 'declared') req.precision.weights = state.weights;
  // Weight classes in their own formats (from a GGUF header): "embedding=q6_k,ffn=q4_k".
  for (const pair of state.wclasses ? state.wclasses.split(',') : []) {
    const [cls, dtype] = pair.split('=');
    if (cls && dtype) req.precision[cls] = dtype;
  }
  if (state.chunk > 0) req.workload.prefill_chunk = state.chunk;
  if (state.tile > 0) req.attention_tile = state.tile;
  if (state.lora > 0) req.lora = { rank: state.lora, mode: state.loraMode };
  if (state.scenario) req.scenario = state.scenario;
  req.costs = { region: state.region, usd_per_kWh: state.kwh, pue: state.pue, lifetime_years: state.life, utilization: state.util };
  if (state.price > 0) req.costs.price_USD = state.price;
  if (state.power > 0) req.costs.power_W = state.power;
  if (state.embodied >= 0) req.costs.embodied_kgCO2e = state.embodied;
  req.online_hadamard = state.hadamard === 'on';
  if (state.hardware) req.hardware = hardwareArg();
  return addMulti(req, state);
}

// Errors go next to the input that caused them.
function errorSlot(path) {
  if (path.startsWith('/model')) return 'model-error';
  if (path.startsWith('/hardware')) return 'hardware-error';
  if (path.startsWith('/workload')) return 'workload-error';
  if (path.startsWith('/costs')) return 'cost-error';
  if (/^\/(parallel|system|speculative|batching)/.test(path)) return 'parallel-error';
  return 'precision-error';
}

function clearErrors() {
  for (const id of ['model-error', 'hardware-error', 'workload-error', 'precision-error', 'cost-error', 'parallel-error']) $(id).textContent = '';
}

async function update() {
  writeUrl();
  const mine = ++generation;
  // The results are busy until the latest change's analysis and every chart after it are in.
  const results = document.querySelector('section.results');
  results.setAttribute('aria-busy', 'true');
  const done = () => { if (mine === generation) results.setAttribute('aria-busy', 'false'); };
  const t0 = performance.now();
  const env = await backend.call('analyze', request());
  if (mine !== generation) return;  // a newer request superseded this one
  clearErrors();
  if (!env.ok) {
    $(errorSlot(env.error.path)).textContent = env.error.message;
    $('status').textContent = 'The last change could not be analyzed; the results below are from the previous valid input.';
    done();
    return;
  }
  lastResult = env.value;
  for (const o of lastResult.ops) o.overhead_flops = (o.dequant_flops || 0) + (o.lora_flops || 0) + (o.padded_flops || 0);
  $('status').textContent = `Analyzed in ${(performance.now() - t0).toFixed(1)} ms by the WebAssembly core (${backend.kind}).`;
  render(env.value);
  // The charts and tables that need more calls wait until the input has been still for a moment, so the worker
  // is free for the next analysis while someone types.
  await new Promise((resolve) => setTimeout(resolve, 80));
  if (mine !== generation) return;
  await updateSweep(mine);
  await updateBatching(mine);
  await updatePlacements(mine);
  await updateCompare(mine);
  done();
}

// Every placement of weights and KV cache over the tiers of a device that has several.
async function updatePlacements(mine) {
  const r = lastResult;
  const wanted = r.parallel ? [] : placementRequests(r);
  const results = [];
  for (const placement of wanted) {
    const env = await backend.call('analyze', { ...request(), placement });
    if (mine !== generation) return;
    results.push({ placement, env });
  }
  renderPlacements($('placements'), r, results);
  $('memory-note').textContent = !r.hardware ? '' : wanted.length
    ? 'Each row pins the weights and the KV cache to a tier first (they spill to the next when it is full); the bars show the current placement: fastest tier first.'
    : `${r.hardware.name} has one memory tier: every byte is read at ${r.hardware.memory_tiers[0].bandwidth_GBps.toLocaleString('en-US')} GB/s.`;
}

// The comparison: the current scenario and each pinned device or model, all recomputed now.
async function updateCompare(mine) {
  const entries = parseEntries(state.cmp);
  const base = request();
  const rows = [{ entry: null, env: { ok: true, value: lastResult } }];
  for (const entry of entries) {
    const env = await backend.call('analyze', entryRequest(base, entry));
    if (mine !== generation) return;
    rows.push({ entry, env });
  }
  renderCompare($('compare'), rows, presets, (entry) => {
    state.cmp = parseEntries(state.cmp).filter((e) => e !== entry).join(',');
    update();
  });
  $('compare-note').textContent = entries.length ? '' : 'Add devices or models to see this scenario side by side with them; ratios are to the current scenario.';
}

// Throughput against latency as the batch grows, on the device or the plan.
async function updateBatching(mine) {
  if (!state.hardware) {
    lastBatching = null;
    renderBatching(null, $('batching'), $('batching-note'));
    $('batching-note').textContent = 'Pick a device to see the batching curve.';
    return;
  }
  const env = await backend.call('batching', request());
  if (mine !== generation) return;
  if (!env.ok) {
    $('batching-note').textContent = `The batching curve could not run: ${env.error.message}`;
    return;
  }
  lastBatching = env.value;
  renderBatching(env.value, $('batching'), $('batching-note'));
}

// Throughput and memory for every weight format x KV format, the rest of the scenario unchanged.
async function updateSweep(mine) {
  const env = await backend.call('quant_sweep', request());
  if (mine !== generation) return;
  if (!env.ok) {
    $('sweep-note').textContent = `The sweep could not run: ${env.error.message}`;
    return;
  }
  lastSweep = env.value;
  renderSweep(env.value);
}

const SWEEP_COLORS = ['#2563eb', '#d97706', '#059669', '#dc2626', '#7c3aed'];

function renderSweep(v) {
  const box = $('quant-sweep');
  replacePlot(box, null);
  const kvs = [...new Set(v.rows.map((r) => r.kv))];
  const weights = [...new Set(v.rows.map((r) => r.weights))];
  const bits = new Map(v.rows.map((r) => [r.weights, r.weight_bits]));
  weights.sort((a, b) => bits.get(a) - bits.get(b));
  const row = (w, k) => v.rows.find((r) => r.weights === w && r.kv === k);
  const hw = v.rows.length > 0 && v.rows[0].tokens_per_s !== undefined;
  const xs = weights.map((w) => bits.get(w));
  const data = [xs];
  const series = [{ label: 'weight bits' }];
  const fg = getComputedStyle(document.body).color;
  kvs.forEach((k, i) => {
    const color = SWEEP_COLORS[i % SWEEP_COLORS.length];
    if (hw) {
      data.push(weights.map((w) => (row(w, k).fits ? row(w, k).tokens_per_s : null)));
      series.push({ label: `tok/s, KV ${k}`, stroke: color, width: 2, scale: 'tps', points: { show: true } });
    }
    data.push(weights.map((w) => row(w, k).required_bytes / 1e9));
    series.push({ label: `GB, KV ${k}`, stroke: color, width: 1, dash: [6, 4], scale: 'gb', points: { show: true } });
  });
  const axes = [{ label: 'bits per weight (scales included)', stroke: fg, values: (u, ticks) => ticks.map((t) => String(+t.toFixed(2))) }];
  if (hw) axes.push({ scale: 'tps', label: 'decode tokens/s per sequence', stroke: fg });
  axes.push({ scale: 'gb', label: 'memory required (GB)', stroke: fg, side: hw ? 1 : 3, grid: { show: !hw } });
  replacePlot(box, {
    width: Math.max(320, box.clientWidth || 520), height: 280,
    scales: { x: { time: false }, gb: { range: (u, lo, hi) => [0, hi * 1.05] } },
    axes, series,
  }, data);
  const cap = v.rows.length ? `${weights.length} weight formats x ${kvs.length} KV formats, activations ${v.activations}` : '';
  const over = hw ? v.rows.filter((r) => !r.fits).map((r) => `${r.weights}/${r.kv}`) : [];
  $('sweep-note').textContent = `${cap}.${hw ? ' Solid: tokens/s (missing where the scenario does not fit); dashed: memory.' : ' Memory only: pick a device for speed.'}${over.length ? ` Does not fit: ${over.join(', ')}.` : ''}`;
}

let lastDse = null;
let lastTcTm = null;
// Canvases are drawn at their laid-out size; when the layout changes, they are drawn again.
const redraw = new ResizeObserver(() => {
  if (lastDse) dseFront = drawDse($('dse-plot'), lastDse);
  if (lastTcTm) drawTcTm($('tctm'), lastTcTm, $('tctm-phase').value);
});
let dseFront = [];

async function runDse() {
  $('dse-error').textContent = '';
  if (!state.hardware) {
    $('dse-error').textContent = 'Pick a device first: the sweep varies the selected device.';
    return;
  }
  const built = dseRequest(request());
  if (built.error) {
    $('dse-error').textContent = built.error;
    return;
  }
  $('dse-status').textContent = `Sweeping ${built.points.toLocaleString('en-US')} design points...`;
  $('dse-run').disabled = true;
  const t0 = performance.now();
  const env = await backend.call('sweep', built.req);
  $('dse-run').disabled = false;
  if (!env.ok) {
    $('dse-status').textContent = '';
    $('dse-error').textContent = env.error.message;
    return;
  }
  const v = env.value;
  lastDse = v;
  const ms = performance.now() - t0;
  $('dse-status').textContent = `${v.points.toLocaleString('en-US')} points in ${ms.toFixed(0)} ms (${(v.points / ms / 1000).toFixed(2)} million per second), ${v.feasible.toLocaleString('en-US')} feasible, ${v.front.length} on the front.${v.warnings.length ? ` Note: ${v.warnings.map((w) => w.message).join(' ')}` : ''}`;
  renderFront(v, useDesignPoint);
  dseFront = drawDse($('dse-plot'), v);
}

// A front point becomes a custom device (kept in this browser) and the analysis switches to it.
async function useDesignPoint(f) {
  const env = await backend.call('dse_device', { hardware: hardwareArg(), params: f.params });
  if (!env.ok) {
    $('dse-error').textContent = env.error.message;
    return;
  }
  const doc = env.value;
  const p = f.params;
  doc.name = `Design ${+p.compute_TFLOPS.toPrecision(3)} TFLOPS, ${+p.bandwidth_GBps.toPrecision(3)} GB/s, ${+p.capacity_GB.toPrecision(3)} GB`;
  doc.id = deviceId(doc.name);
  keepDevice(doc);
  persist();
  state.hardware = `custom:${doc.id}`;
  fillHardware();
  fillEditor();
  $('dse-status').textContent = `Loaded ${doc.name} as a custom device.`;
  update();
}

async function runTcTm() {
  const req = request();
  delete req.hardware;
  delete req.costs;
  Object.assign(req, {
    compute_TOPS: { min: 10, max: 100, steps: 10 }, bandwidth_GBps: { min: 10, max: 100, steps: 10 },
    compute_efficiency: Number($('tctm-ce').value), memory_efficiency: Number($('tctm-me').value),
  });
  const env = await backend.call('tc_tm_map', req);
  if (!env.ok) {
    $('tctm-note').textContent = env.error.message;
    return;
  }
  const phase = $('tctm-phase').value;
  lastTcTm = env.value;
  drawTcTm($('tctm'), env.value, phase);
  $('tctm-note').textContent = `${phase}: ${si(env.value[phase].flops, 'FLOP')} and ${bytes(env.value[phase].bytes)}; t_c / t_m = (FLOPs / (TOPS x ${env.value.compute_efficiency})) / (bytes / (GB/s x ${env.value.memory_efficiency})).`;
}

function sweepCsv(v) {
  const keys = ['weights', 'weight_bits', 'kv', 'kv_bits', 'weights_bytes', 'kv_cache_bytes', 'required_bytes', 'fits', 'ttft_s', 'tpot_s', 'tokens_per_s', 'batch_tokens_per_s', 'max_batch', 'max_context', 'decode_bound'];
  return [keys.join(','), ...v.rows.map((r) => keys.map((k) => (r[k] === undefined ? '' : String(r[k]))).join(','))].join('\n') + '\n';
}

function card(label, value, sub, title, bad = false) {
  const d = document.createElement('div');
  d.className = bad ? 'card bad' : 'card';
  d.title = `${title} (click for the numbers)`;
  d.dataset.formula = title;
  d.tabIndex = 0;
  d.setAttribute('role', 'button');
  d.setAttribute('aria-haspopup', 'dialog');
  const l = document.createElement('div');
  l.className = 'label';
  l.textContent = label;
  const v = document.createElement('div');
  v.className = 'value';
  v.textContent = value;
  const s = document.createElement('div');
  s.className = 'sub';
  s.textContent = sub;
  d.append(l, v, s);
  return d;
}

function boundOf(r, phase) {
  const ops = r.ops.filter((o) => o.phase === phase && o.time_s !== undefined);
  const t = { compute: 0, memory: 0, dispatch: 0 };
  for (const o of ops) t[o.bound] += o.time_s;
  const total = t.compute + t.memory + t.dispatch;
  const top = Object.entries(t).sort((a, b) => b[1] - a[1])[0];
  return total > 0 ? `${top[0]}-bound (${((100 * top[1]) / total).toFixed(0)}% of time)` : '-';
}

// The weight formats the model is published in, as the "as published" choice shows them: "fp8_block128 (bf16:
// embedding, lm_head, router)". The classes are listed only while that choice is the one analyzed.
function publishedLabel(p, analyzed) {
  const main = p.declared_weights || 'bf16';
  const byDtype = new Map();
  if (analyzed) for (const [cls, d] of Object.entries(p.by_class)) byDtype.set(d.dtype, [...(byDtype.get(d.dtype) || []), cls]);
  const rest = [...byDtype].filter(([d]) => d !== main).map(([d, cls]) => `${d}: ${cls.join(', ')}`);
  return `as published: ${main}${rest.length ? ` (${rest.join('; ')})` : ''}`;
}

function render(r) {
  const m = r.model;
  $('weights').options[0].textContent = publishedLabel(r.workload.precision, state.weights === 'declared' && !state.wclasses && !state.scenario);
  $('model-info').textContent = `${m.name}: ${count(m.params_total)} parameters${m.stated_params_total ? ` (${m.stated_params_total} stated)` : ''}, ${count(m.params_active)} active per token incl. input embedding; ${m.num_layers} layers in ${m.groups.length} group(s): ${m.groups.map((g) => `${g.count}x ${g.label}`).join('; ')}.`;
  $('warnings').textContent = [...m.warnings, ...(r.warnings || [])].map((w) => `Note: ${w.message}`).join('\n');
  const cards = $('cards');
  cards.textContent = '';
  const mem = r.memory;
  renderPlan(r, $('plan'));
  if (r.parallel) {
    $('hardware-info').textContent = `${r.hardware.vendor} ${r.hardware.class}; source: ${r.hardware.source}. System: ${r.parallel.system.source || r.parallel.system.name}`;
    cards.append(...planCards(r, card));
  } else if (r.hardware) {
    const decodeBound = boundOf(r, 'decode');
    $('hardware-info').textContent = `${r.hardware.vendor} ${r.hardware.class}; source: ${r.hardware.source}`;
    cards.append(
      card('Time to first token', seconds(r.ttft_s), boundOf(r, 'prefill'),
        'TTFT = sum over prefill operators of max(FLOPs / (peak x efficiency), bytes / (bandwidth x efficiency)) + dispatches x latency'),
      card('Time per output token', seconds(r.decode.tpot_s), `first ${seconds(r.decode.tpot_first_s)}, last ${seconds(r.decode.tpot_last_s)}`,
        'Mean TPOT over all decode steps, summed in closed form as the KV cache grows'),
      card('Decode throughput', rate(r.decode.tokens_per_s, 'tok/s'), `${rate(r.decode.batch_tokens_per_s, 'tok/s')} for the batch`,
        'tokens/s per sequence = 1 / mean TPOT; batch = per sequence x requests'),
      card('Memory', `${bytes(mem.required_bytes)}`,
        `of ${bytes(mem.capacity_bytes)}: ${mem.fits ? (mem.fits_first_tier ? 'fits' : 'fits only by spilling to slower tiers') : 'does NOT fit'}`,
        `weights ${bytes(mem.weights_bytes)} + KV cache ${bytes(mem.kv_cache_bytes)} + activations ${bytes(mem.activation_peak_bytes)}`, !mem.fits || !mem.fits_first_tier),
      card('Fits at most', mem.max_batch >= 1 ? `${count(mem.max_batch)} requests` : 'not one request',
        mem.max_batch < 1 ? (mem.weights_bytes > mem.capacity_bytes ? 'the weights alone exceed the memory' : 'weights plus one request exceed the memory')
          : mem.max_context >= 1e9 ? 'any context (windowed layers only)' : `or ${count(mem.max_context)} tokens of context each at this batch`,
        'Largest batch of requests like these, and the longest context per request at this batch, that fit in the memory tiers'),
      card('Decode bound', decodeBound.split(' ')[0], decodeBound, 'Share of decode time by what bounds each operator'),
      card('End to end', seconds(r.e2e_s), `${r.workload.gen} tokens x ${r.workload.batch_requests} request(s)`, 'TTFT + all decode steps'),
    );
    const c = r.cost;
    if (c) {
      const a = c.assumptions;
      if (c.energy_available) {
        cards.append(card('Energy per token', `${c.decode.j_per_token.toPrecision(3)} J`,
          `decode; prefill ${c.prefill.j_per_token.toPrecision(3)} J/token; ${c.busy_power_W.toFixed(0)} W busy`,
          `J = static ${a.static_W.toFixed(1)} W x time + FLOPs x ${(a.pJ_per_flop.bf16 ?? Object.values(a.pJ_per_flop)[0] ?? 0).toPrecision(3)} pJ (bf16) + bytes x ${a.pJ_per_byte_by_tier[0].toPrecision(3)} pJ. ${a.sources.energy}`));
      } else {
        cards.append(card('Energy per token', '-', 'no published power: set it under Energy and cost', c.warnings.map((w) => w.message).join(' '), true));
      }
      cards.append(
        card('Cost per 1M tokens', `$${c.usd_per_million_tokens.toPrecision(3)}`,
          c.has_price ? `hardware $${c.hardware_usd_per_hour.toFixed(3)}/h + energy $${c.energy_usd_per_hour.toFixed(3)}/h` : 'electricity only: no public price',
          `($${a.price_USD} / ${a.lifetime_years} years + power x PUE ${a.pue} x $${a.usd_per_kWh}/kWh) / output tokens at ${Math.round(a.utilization * 100)}% utilization. ${a.sources.ownership}`),
        card('CO2 per 1M tokens', `${c.gCO2e_per_million_tokens.toPrecision(3)} g`,
          `${a.region}, ${a.grid_gCO2e_per_kWh} g/kWh${c.has_embodied ? ', embodied included' : ', operation only'}`,
          `operational ${c.operational_gCO2e_per_million_tokens.toPrecision(3)} g + embodied ${c.embodied_gCO2e_per_million_tokens.toPrecision(3)} g. ${a.sources.grid}`),
      );
    }
    if (r.workload.lora.rank > 0) {
      cards.append(card('LoRA merge (once)', seconds(r.workload.lora.merge_s), si(r.workload.lora.merge_flops, 'FLOP'),
        'Merging the adapters into the weights once: sum over adapted matrices of (2r + 2) x K x N (LIFE Table 12)'));
    }
  } else {
    $('hardware-info').textContent = '';
  }
  cards.append(
    card('Prefill FLOPs', si(r.prefill.flops, 'FLOP'), `${bytes(r.prefill.bytes)} moved`, 'Sum over prefill operators (convention shown in the table header)'),
    card('Decode FLOPs / token', si(r.decode.flops_per_token, 'FLOP'), `${bytes(r.decode.bytes)} moved per step`, 'First decode step, per generated token'),
    card('KV cache', bytes(mem.kv_cache_bytes), `${bytes(mem.kv_bytes_per_token)} per token (before windows)`, 'At the end of the workload, sliding windows and chunks honored'),
  );
  $('roofline-phase').textContent = state.phase;
  $('phase-toggle').textContent = state.phase === 'decode' ? 'Show prefill' : 'Show decode';
  drawRoofline($('roofline'), r, state.phase);
  drawDecomposition($('decomposition'), r);
  drawMemory($('memory'), r);
  renderTimeline(r);
  renderOps(r);
}

function renderTimeline(r) {
  const box = $('timeline');
  replacePlot(box, null);
  const tl = r.parallel ? r.parallel.timeline : r.decode.timeline;
  if (!tl || tl.length === 0) {
    box.textContent = 'Pick a device to see TPOT over the generation.';
    return;
  }
  const xs = tl.map((p) => p.context);
  const ys = tl.map((p) => p.tpot_s * 1e3);
  replacePlot(box, {
    width: Math.max(320, box.clientWidth || 520), height: 260,
    scales: { x: { time: false } },
    axes: [{ label: 'context (tokens)', stroke: getComputedStyle(document.body).color }, { label: 'TPOT (ms)', stroke: getComputedStyle(document.body).color }],
    series: [{ label: 'context' }, { label: 'TPOT ms', stroke: '#2563eb', width: 2 }],
  }, [xs, ys]);
}

const COLUMNS = [
  ['name', 'Operator', (o) => o.name],
  ['group', 'Layers', (o) => o.group || 'model'],
  ['count', 'Count', (o) => String(o.count)],
  ['flops', 'FLOPs', (o) => si(o.flops, 'FLOP')],
  ['weight_bytes', 'Weights', (o) => bytes(o.weight_bytes)],
  ['act_read_bytes', 'Act read', (o) => bytes(o.act_read_bytes)],
  ['act_write_bytes', 'Act write', (o) => bytes(o.act_write_bytes)],
  ['kv_read_bytes', 'KV read', (o) => bytes(o.kv_read_bytes)],
  ['kv_write_bytes', 'KV write', (o) => bytes(o.kv_write_bytes)],
  ['overhead_flops', 'Overhead', (o) => (o.overhead_flops > 0 ? si(o.overhead_flops, 'FLOP') : '-')],
  ['intensity_flop_per_byte', 'FLOP/byte', (o) => o.intensity_flop_per_byte.toPrecision(3)],
  ['time_s', 'Time', (o) => (o.time_s === undefined ? '-' : seconds(o.time_s))],
  ['bound', 'Bound', (o) => o.bound || '-'],
];

const EXPLAINED = new Set(['flops', 'weight_bytes', 'act_read_bytes', 'act_write_bytes', 'kv_read_bytes', 'kv_write_bytes', 'overhead_flops', 'intensity_flop_per_byte', 'time_s', 'bound']);
let shownOps = [];
let explainReturn = null;

// The explanation panel: the formula, the values put in, the convention; next to what was clicked.
function showExplain(x, anchor) {
  const box = $('explain');
  $('explain-title').textContent = x.title;
  $('explain-formula').textContent = x.formula;
  $('explain-lines').textContent = x.lines.join('\n');
  $('explain-convention').textContent = x.convention || '';
  box.hidden = false;
  const a = anchor.getBoundingClientRect();
  const width = Math.min(640, document.documentElement.clientWidth - 16);
  box.style.width = `${width}px`;
  box.style.left = `${Math.max(8, Math.min(a.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - width - 8))}px`;
  box.style.top = `${a.bottom + window.scrollY + 6}px`;
  explainReturn = anchor;
  $('explain-close').focus();
}

function hideExplain() {
  if ($('explain').hidden) return;
  $('explain').hidden = true;
  if (explainReturn && document.contains(explainReturn)) explainReturn.focus();
  explainReturn = null;
}

function explainTarget(target) {
  if (!lastResult) return;
  const c = target.closest('.card');
  if (c) {
    const label = c.querySelector('.label').textContent;
    const x = explainCard(label, lastResult) || { title: label, formula: c.dataset.formula, lines: [`${c.querySelector('.value').textContent}: ${c.querySelector('.sub').textContent}`] };
    showExplain(x, c);
    return;
  }
  const td = target.closest('td[data-field]');
  if (td) showExplain(explainOp(shownOps[Number(td.parentElement.dataset.op)], td.dataset.field, lastResult), td);
}

function renderOps(r) {
  const table = $('ops');
  table.textContent = '';
  let ops = r.ops.filter((o) => o.phase === state.opsPhase);
  if (state.sort) {
    const [key, dir] = state.sort;
    ops = [...ops].sort((a, b) => {
      const x = a[key], y = b[key];
      return (typeof x === 'number' ? x - y : String(x).localeCompare(String(y))) * dir;
    });
  }
  const thead = table.createTHead();
  const hr = thead.insertRow();
  for (const [key, label] of COLUMNS) {
    const th = document.createElement('th');
    th.textContent = label;
    th.scope = 'col';
    th.tabIndex = 0;
    if (state.sort && state.sort[0] === key) th.setAttribute('aria-sort', state.sort[1] > 0 ? 'ascending' : 'descending');
    const sortBy = () => {
      state.sort = state.sort && state.sort[0] === key ? [key, -state.sort[1]] : [key, typeof ops[0]?.[key] === 'number' ? -1 : 1];
      renderOps(r);
    };
    th.addEventListener('click', sortBy);
    th.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(); } });
    hr.appendChild(th);
  }
  const tbody = table.createTBody();
  shownOps = ops;
  // Per layer: one call of each operator (its totals over the layers divided by its count).
  const perCall = (o) => {
    if (state.opsView !== 'layer' || o.count <= 1) return o;
    const v = { ...o };
    for (const k of ['flops', 'overhead_flops', 'weight_bytes', 'act_read_bytes', 'act_write_bytes', 'kv_read_bytes', 'kv_write_bytes', 'bytes', 'time_s']) {
      if (typeof v[k] === 'number') v[k] /= o.count;
    }
    return v;
  };
  ops.forEach((o, i) => {
    const tr = tbody.insertRow();
    tr.dataset.op = String(i);
    const shown = perCall(o);
    for (const [key, , fmt] of COLUMNS) {
      const td = tr.insertCell();
      td.textContent = fmt(shown);
      if (EXPLAINED.has(key)) {
        td.dataset.field = key;
        td.tabIndex = 0;
        td.className = 'explainable';
      }
      if (key === 'bound' && o.bound) td.className = `explainable bound-${o.bound}`;
    }
  });
  const t = r[state.opsPhase];
  const tr = tbody.insertRow();
  tr.className = 'total';
  const totals = {
    name: state.opsView === 'layer' ? 'Total (all layers)' : 'Total', group: '', count: '', flops: si(t.flops, 'FLOP'), weight_bytes: bytes(t.weight_bytes), act_read_bytes: bytes(t.act_read_bytes),
    act_write_bytes: bytes(t.act_write_bytes), kv_read_bytes: bytes(t.kv_read_bytes), kv_write_bytes: bytes(t.kv_write_bytes),
    intensity_flop_per_byte: t.bytes > 0 ? (t.flops / t.bytes).toPrecision(3) : '-',
    time_s: state.opsPhase === 'prefill' ? seconds(t.time_s) : seconds(t.tpot_first_s), bound: '',
  };
  for (const [key] of COLUMNS) tr.insertCell().textContent = totals[key] ?? '';
}

// A chart's SVG with the page's colours written in (the exported file has no stylesheet).
function standaloneSvg(id) {
  const svg = $(id).querySelector('svg');
  if (!svg) return null;
  const copy = svg.cloneNode(true);
  const fg = getComputedStyle(document.body).color;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const vb = svg.viewBox.baseVal;
  copy.setAttribute('width', String(vb.width));
  copy.setAttribute('height', String(vb.height));
  copy.setAttribute('style', `background:${getComputedStyle(document.body).backgroundColor};color:${fg}`);
  for (const t of copy.querySelectorAll('text')) if (!t.getAttribute('fill')) t.setAttribute('fill', fg);
  return new XMLSerializer().serializeToString(copy);
}

function exportSvg(id) {
  const u = plotOf(id);
  const text = u ? uplotSvg(u, getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor) : standaloneSvg(id);
  if (text) download(`infercast-${id}.svg`, 'image/svg+xml', text);
}

// PNG of a chart: an SVG chart drawn at 2x, or the canvas a uPlot or canvas chart draws into.
async function exportPng(id) {
  const box = $(id);
  const save = (canvas) => canvas.toBlob((blob) => blob && download(`infercast-${id}.png`, 'image/png', blob));
  const svg = standaloneSvg(id);
  if (svg) {
    const img = new Image();
    img.src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width * 2;
    c.height = img.height * 2;
    const ctx = c.getContext('2d');
    ctx.scale(2, 2);
    ctx.drawImage(img, 0, 0);
    URL.revokeObjectURL(img.src);
    save(c);
    return;
  }
  const canvas = box.tagName === 'CANVAS' ? box : box.querySelector('canvas');
  if (!canvas) return;
  const c = document.createElement('canvas');
  c.width = canvas.width;
  c.height = canvas.height;
  const ctx = c.getContext('2d');
  ctx.fillStyle = getComputedStyle(document.body).backgroundColor;
  ctx.fillRect(0, 0, c.width, c.height);
  ctx.drawImage(canvas, 0, 0);
  save(c);
}

function download(name, type, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function csv(r) {
  const keys = ['phase', 'name', 'group', 'class', 'count', 'flops', 'dequant_flops', 'lora_flops', 'padded_flops', 'weight_bytes', 'act_read_bytes', 'act_write_bytes', 'kv_read_bytes', 'kv_write_bytes', 'dispatches', 'intensity_flop_per_byte', 'time_s', 'bound'];
  const esc = (v) => (v === undefined ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  return [keys.join(','), ...r.ops.map((o) => keys.map((k) => esc(o[k])).join(','))].join('\n') + '\n';
}

// Dropped or chosen files: the .safetensors shards of a checkpoint (with its config.json or not), a GGUF model
// (its header only) or a config.json.
async function useFiles(list) {
  const files = [...list];
  const shards = files.filter((f) => /\.safetensors$/i.test(f.name));
  if (shards.length) return useSafetensors(shards, files.find((f) => /\.json$/i.test(f.name)));
  if (files.length) return useFile(files[0]);
}

// A checkpoint's weight formats, as the precision selects and the per-class list in the URL hold them.
function applyPrecision(p) {
  const known = new Set([...$('weights').options].map((o) => o.value));
  if (known.has(p.weights)) state.weights = p.weights;
  state.wclasses = Object.entries(p.by_class).filter(([, d]) => known.has(d)).map(([c, d]) => `${c}=${d}`).join(',');
}

// Reads each shard's header (its first 8 bytes give the length; then exactly that much), never the weights. The
// config: the dropped config.json, else the selected model when every shape matches it, else one inferred from
// the tensor names.
async function useSafetensors(shards, configFile) {
  $('model-error').textContent = '';
  $('gguf-info').textContent = `Reading the safetensors headers of ${shards.length} file(s)...`;
  const fail = (msg) => { $('gguf-info').textContent = ''; $('model-error').textContent = msg; };
  const rows = [];
  let headerBytes = 0;
  for (const f of shards) {
    const size = await backend.callBytes('safetensors_size', new Uint8Array(await f.slice(0, 8).arrayBuffer()));
    if (!size.ok) return fail(`${f.name}: ${size.error.message}`);
    const env = await backend.callBytes('safetensors', new Uint8Array(await f.slice(0, size.value.header_bytes).arrayBuffer()));
    if (!env.ok) return fail(`${f.name}: ${env.error.message}`);
    headerBytes += env.value.header_bytes;
    for (const r of env.value.tensors) rows.push(r);
  }
  let given = null;
  if (configFile) {
    try {
      given = JSON.parse(await configFile.text());
    } catch (err) {
      return fail(`${configFile.name} is not valid JSON: ${err.message}`);
    }
  }
  const selected = state.model === 'custom' && state.config ? state.config : state.model;
  let env = await backend.call('checkpoint', { tensors: rows, model: given || selected });
  let origin = given ? configFile.name : 'the selected model';
  if (env.ok && !given && !env.value.matches) {
    env = await backend.call('checkpoint', { tensors: rows });
    origin = 'the tensor names';
  }
  if (!env.ok) return fail(`${configFile && given ? configFile.name : shards[0].name}: ${env.error.message}`);
  const v = env.value;
  if (given || origin === 'the tensor names') {
    state.config = v.config;
    state.model = 'custom';
    keepModel(v.config, given ? (given._name_or_path || shards[0].name.replace(/(-\d+-of-\d+)?\.safetensors$/i, '')) : undefined);
  }
  applyPrecision(v.precision);
  const mix = v.types.filter((t) => t.params > 0).sort((a, b) => b.params - a.params)
    .map((t) => `${t.dtype} ${((100 * t.params) / (v.params_total + v.side_params + v.mtp_params)).toFixed(1)}%`).join(', ');
  const bad = v.checks.filter((c) => !c.ok).map((c) => `${c.field}: config ${count(c.config)}, header ${count(c.header)}`);
  $('gguf-info').textContent = `Read the safetensors headers of ${shards.length} file(s) (${count(headerBytes)} bytes, no weights): ${v.tensors} tensors, `
    + `${count(v.params_total)} parameters, ${bytes(v.tensor_bytes)} stored; types by elements: ${mix}. `
    + `Config from ${origin}: ${v.matches ? 'every shape matches' : `shapes differ (${bad.join('; ')})`}`
    + `${v.assumed.length ? `; assumed ${v.assumed.join(', ')} (not in the shapes: drop config.json with the files to be exact)` : ''}`
    + `${v.packed ? '; packed integer weights: their format comes from the config\'s quantization_config' : ''}. `
    + `Weight formats set per class: ${state.wclasses || 'none known'}.`;
  persist();
  fillModels();
  syncInputs();
  update();
}

// A dropped or chosen file: a GGUF model (its header only) or a config.json.
async function useFile(file) {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  if (/\.gguf$/i.test(file.name) || String.fromCharCode(...head) === 'GGUF') await useGguf(file);
  else useConfigText(await file.text(), file.name);
}

// Reads the header from the first 16 MiB of the file (more when the metadata runs longer); nothing is uploaded.
async function useGguf(file) {
  $('model-error').textContent = '';
  $('gguf-info').textContent = `Reading the header of ${file.name}...`;
  let size = Math.min(file.size, 16 << 20);
  for (;;) {
    const chunk = new Uint8Array(await file.slice(0, size).arrayBuffer());
    const env = await backend.callBytes('gguf', chunk);
    if (!env.ok && env.error.code === 'gguf.truncated' && size < file.size && size < (1 << 30)) {
      size = Math.min(file.size, size * 4);
      continue;
    }
    if (!env.ok) {
      $('gguf-info').textContent = '';
      $('model-error').textContent = `${file.name}: ${env.error.message}`;
      return;
    }
    const v = env.value;
    state.config = v.config;
    state.model = 'custom';
    applyPrecision(v.precision);
    const mix = v.types.filter((t) => t.params > 0).sort((a, b) => b.params - a.params)
      .map((t) => `${t.type} ${((100 * t.params) / v.params_total).toFixed(1)}%`).join(', ');
    $('gguf-info').textContent = `Read from the GGUF header of ${file.name} (${count(v.header_bytes)} bytes, no weights): ${v.tensors} tensors, `
      + `${count(v.params_total)} parameters (${count(v.params_from_config)} in the layers the config describes), ${bytes(v.tensor_bytes)} of tensors; `
      + `types by parameters: ${mix}. Weight formats set per class: ${state.wclasses || 'none known'}.`;
    keepModel(v.config, v.name);
    persist();
    fillModels();
    syncInputs();
    update();
    return;
  }
}

function useConfigText(text, origin) {
  $('model-error').textContent = '';
  let cfg;
  try {
    cfg = JSON.parse(text);
  } catch (err) {
    $('model-error').textContent = `${origin} is not valid JSON: ${err.message}`;
    return;
  }
  if (cfg === null || typeof cfg !== 'object' || Array.isArray(cfg)) {
    $('model-error').textContent = `${origin} holds ${Array.isArray(cfg) ? 'an array' : typeof cfg}; expected a config.json object`;
    return;
  }
  backend.call('model', { model: cfg }).then((env) => {
    if (!env.ok) {
      $('model-error').textContent = `${origin}: ${env.error.message}`;
      return;
    }
    state.config = cfg;
    state.model = 'custom';
    keepModel(cfg);
    persist();
    fillModels();
    update();
  });
}

function tierRow(t) {
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
  cell('number', t.capacity_GB, 'Capacity in GB');
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

function fillEditor() {
  const d = selectedDeviceDoc();
  if (!d) return;
  $('dev-name').value = customDevice() ? d.name : `${d.name} (custom)`;
  const peaks = d.peak_dense_TFLOPS || {};
  $('dev-bf16').value = peaks.bf16 ?? '';
  $('dev-fp8').value = peaks.fp8 ?? '';
  $('dev-int8').value = peaks.int8 ?? '';
  const body = $('dev-tiers').tBodies[0];
  body.textContent = '';
  for (const t of d.memory_tiers) body.appendChild(tierRow(t));
  $('dev-delete').disabled = !customDevice() || !store.doc.devices.some((x) => x.doc.id === customDevice().id);
}

// The id a custom device gets from its name: a slug prefixed with "custom-".
function deviceId(name) {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'device';
  return slug.startsWith('custom-') ? slug : `custom-${slug}`;
}

// Reads the editor into a hardware document. Numbers the user typed are kept as typed when they are not numbers,
// so the core's message names the field and shows the text.
function editorDoc() {
  const base = selectedDeviceDoc();
  const doc = JSON.parse(JSON.stringify(base));
  const name = $('dev-name').value.trim();
  doc.name = name;
  doc.id = deviceId(name);
  doc.source = customDevice() ? base.source : `custom, edited in the browser from ${base.name} (${base.source})`;
  const num = (v) => (v.trim() === '' ? undefined : Number.isFinite(Number(v)) ? Number(v) : v);
  const peaks = { ...(doc.peak_dense_TFLOPS || {}) };
  for (const [k, id] of [['bf16', 'dev-bf16'], ['fp8', 'dev-fp8'], ['int8', 'dev-int8']]) {
    const v = num($(id).value);
    if (v === undefined) delete peaks[k];
    else peaks[k] = v;
  }
  doc.peak_dense_TFLOPS = peaks;
  doc.memory_tiers = [...$('dev-tiers').tBodies[0].rows].map((tr, i) => {
    const [n, c, b] = [...tr.querySelectorAll('input')].map((x) => x.value);
    const old = base.memory_tiers[i] || {};
    return { ...old, name: n.trim() || `tier ${i}`, capacity_GB: num(c) ?? c, bandwidth_GBps: num(b) ?? b };
  });
  return doc;
}

// Writes the store; false (and says why) when this page must not or cannot write it.
function persist() {
  if (store.readOnly) {
    $('store-notice').textContent = `${store.notice} (This change lasts until the page closes.)`;
    return false;
  }
  try {
    saveStore(localStorage, store.doc);
    return true;
  } catch (err) {
    $('store-error').textContent = `Could not save in this browser (${err.message}); the change lasts until the page closes.`;
    return false;
  }
}

async function saveDevice() {
  $('store-error').textContent = '';
  const doc = editorDoc();
  if (!doc.name) {
    $('store-error').textContent = 'Name is empty; expected a name for the device';
    return;
  }
  const env = await backend.call('device', { hardware: doc });
  if (!env.ok) {
    $('store-error').textContent = env.error.message.replace(/^\/hardware/, 'The device: ');
    return;
  }
  keepDevice(doc);
  const kept = persist();
  state.hardware = `custom:${doc.id}`;
  fillHardware();
  fillEditor();
  if (kept) $('store-notice').textContent = `Saved ${doc.name}.`;
  update();
}

function deleteDevice() {
  const d = customDevice();
  if (!d) return;
  store.doc.devices = store.doc.devices.filter((x) => x.doc.id !== d.id);
  persist();
  state.hardware = DEFAULTS.hardware;
  fillHardware();
  fillEditor();
  $('store-notice').textContent = `Deleted ${d.name}.`;
  update();
}

// An import is checked whole by the core before anything is kept: one bad device refuses the file.
async function importFile(file) {
  $('store-error').textContent = '';
  let bundle;
  try {
    bundle = parseImport(await file.text(), file.name);
  } catch (err) {
    $('store-error').textContent = err.message;
    return;
  }
  for (const [i, doc] of bundle.devices.entries()) {
    const env = await backend.call('device', { hardware: doc });
    if (!env.ok) {
      $('store-error').textContent = `${file.name}, device ${i + 1}${doc && doc.name ? ` (${String(doc.name)})` : ''}: ${env.error.message}; nothing was imported`;
      return;
    }
  }
  for (const [i, m] of bundle.models.entries()) {
    const env = await backend.call('model', { model: m && m.config });
    if (!env.ok) {
      $('store-error').textContent = `${file.name}, model ${i + 1}: ${env.error.message}; nothing was imported`;
      return;
    }
  }
  for (const doc of bundle.devices) keepDevice(doc);
  for (const m of bundle.models) keepModel(m.config, m.name);
  const kept = persist();
  fillHardware();
  fillModels();
  if (kept) $('store-notice').textContent = `Imported ${bundle.devices.length} device(s) and ${bundle.models.length} model(s) from ${file.name}.`;
}

// Adds a device to the store, replacing one with the same id.
function keepDevice(doc) {
  const entry = { doc, saved: new Date().toISOString() };
  const i = store.doc.devices.findIndex((d) => d.doc.id === doc.id);
  if (i >= 0) store.doc.devices[i] = entry;
  else store.doc.devices.push(entry);
}

function keepModel(config, name) {
  const text = JSON.stringify(config);
  if (store.doc.models.some((m) => JSON.stringify(m.config) === text)) return;
  store.doc.models.push({ config, name: name || config._name_or_path || config.model_type || 'config.json', saved: new Date().toISOString() });
}

function bind() {
  const numeric = ['batch', 'prompt', 'gen'];
  for (const id of numeric) {
    $(id).addEventListener('input', () => {
      const v = $(id).value.trim();
      if (!/^\d+$/.test(v)) {
        $('workload-error').textContent = `${$(id).labels[0].textContent} holds "${v}"; expected a whole number of at least 1`;
        return;
      }
      state[id] = Number(v);
      update();
    });
  }
  // Energy and cost assumptions: numbers; empty price, power or embodied carbon means the device's own value.
  for (const [id, key, lo, hi] of [['kwh', 'kwh', 0, 100], ['pue', 'pue', 1, 10], ['life', 'life', 0.01, 100], ['util', 'util', 0.001, 1],
    ['price', 'price', 0, 1e10], ['power', 'power', 0, 1e7], ['embodied', 'embodied', 0, 1e9]]) {
    $(id).addEventListener('input', () => {
      const v = $(id).value.trim();
      const optional = ['price', 'power', 'embodied'].includes(key);
      if (optional && v === '') {
        state[key] = key === 'embodied' ? -1 : 0;
        update();
        return;
      }
      const x = Number(v);
      if (v === '' || !Number.isFinite(x) || x < lo || x > hi) {
        $('cost-error').textContent = `${$(id).labels[0].textContent} holds "${v}"; expected a number from ${lo} to ${hi}${optional ? ', or empty for the device\'s own' : ''}`;
        return;
      }
      $('cost-error').textContent = '';
      state[key] = x;
      update();
    });
  }
  $('region').addEventListener('change', () => { state.region = $('region').value; update(); });
  // Efficiencies: a fraction above 0 up to 1 (dispatch: microseconds from 0); empty for the device's own.
  for (const [key, field, id] of EFFICIENCIES) {
    $(id).addEventListener('input', () => {
      const v = $(id).value.trim();
      const x = Number(v);
      const dispatch = field === 'dispatch_us';
      if (v === '') {
        state[key] = dispatch ? -1 : 0;
      } else if (!Number.isFinite(x) || (dispatch ? x < 0 || x > 1e6 : x < 0.001 || x > 1)) {
        $('hardware-error').textContent = `${$(id).labels[0].textContent} holds "${v}"; expected ${dispatch ? 'microseconds from 0 to 1000000' : 'a fraction from 0.001 to 1'}, or empty for the device's own`;
        return;
      } else {
        state[key] = x;
      }
      $('hardware-error').textContent = '';
      update();
    });
  }
  $('reqs').addEventListener('input', () => {
    const v = $('reqs').value.trim();
    try {
      if (v) parseRequests(v);
    } catch (err) {
      $('workload-error').textContent = err.message;
      return;
    }
    $('workload-error').textContent = '';
    state.reqs = v;
    syncRagged();
    update();
  });

  // Several devices: whole numbers of at least 1; link figures and the acceptance are numbers in their ranges.
  for (const [id, lo, hi, whole] of [['tp', 1, 4096, true], ['pp', 1, 4096, true], ['dp', 1, 65536, true], ['ep', 1, 4096, true],
    ['dpn', 1, 4096, true], ['nodes', 1, 65536, true], ['dtok', 1, 16, true], ['ibw', 0, 1e6, false], ['ilat', 0, 1e6, false],
    ['ieff', 0.01, 1, false], ['obw', 0, 1e6, false], ['olat', 0, 1e6, false], ['acc', 0, 1, false]]) {
    $(id).addEventListener('input', () => {
      const v = $(id).value.trim();
      const x = Number(v);
      if (v === '' || !Number.isFinite(x) || x < lo || x > hi || (whole && !Number.isInteger(x))) {
        $('parallel-error').textContent = `${$(id).labels[0].textContent} holds "${v}"; expected ${whole ? 'a whole number' : 'a number'} from ${lo} to ${hi}`;
        return;
      }
      $('parallel-error').textContent = '';
      state[id] = x;
      update();
    });
  }
  $('system').addEventListener('change', () => {
    applySystem(state, presets.systems.find((x) => x.id === $('system').value));
    if (state.system && state.tp * state.pp * state.dp === 1) state.tp = Math.min(8, state.dpn * state.nodes);
    syncInputs();
    fillEditor();
    update();
  });
  for (const id of ['algo', 'draft']) $(id).addEventListener('change', () => { state[id] = $(id).value; update(); });
  $('export-batching').addEventListener('click', () => lastBatching && download('infercast-batching.csv', 'text/csv', batchingCsv(lastBatching)));

  // Optimizations: whole numbers from 0 (0 turns the optimization off).
  for (const id of ['chunk', 'tile', 'lora']) {
    $(id).addEventListener('input', () => {
      const v = $(id).value.trim();
      if (!/^\d+$/.test(v)) {
        $('precision-error').textContent = `${$(id).labels[0].textContent} holds "${v}"; expected a whole number (0 for none)`;
        return;
      }
      state[id] = Number(v);
      update();
    });
  }
  const selects = { model: 'model', hardware: 'hardware', weights: 'weights', activations: 'activations', kv: 'kv', convention: 'convention', attention: 'attention', moe: 'moe', mlp: 'mlp', 'lora-mode': 'loraMode', hadamard: 'hadamard' };
  // A scenario fills the controls it sets; they stay editable and override it.
  $('scenario').addEventListener('change', () => {
    state.scenario = $('scenario').value;
    const sc = scenarios.find((x) => x.name === state.scenario);
    if (sc) {
      Object.assign(state, {
        weights: sc.weights, activations: sc.activations, kv: sc.kv, attention: sc.attention, mlp: sc.mlp,
        lora: sc.lora ? sc.lora.rank : 0, loraMode: sc.lora ? sc.lora.mode : DEFAULTS.loraMode, hadamard: sc.online_hadamard ? 'on' : 'off',
      });
    }
    syncInputs();
    update();
  });
  $('dse-run').addEventListener('click', runDse);
  $('dse-export').addEventListener('click', () => lastDse && download('infercast-pareto-front.csv', 'text/csv', frontCsv(lastDse)));
  $('dse-plot').addEventListener('click', (e) => {
    const r = $('dse-plot').getBoundingClientRect();
    let best = -1, bd = 100;
    dseFront.forEach(([x, y], i) => { const d = Math.hypot(x - (e.clientX - r.left), y - (e.clientY - r.top)); if (d < bd) { bd = d; best = i; } });
    const row = best >= 0 ? $(`dse-front-${best}`) : null;
    if (row) {
      for (const tr of document.querySelectorAll('#dse-front tr.selected')) tr.classList.remove('selected');
      row.classList.add('selected');
      row.scrollIntoView({ block: 'nearest' });
      row.querySelector('button').focus();
    }
  });
  for (const id of ['tctm-run']) $(id).addEventListener('click', runTcTm);
  $('tctm-phase').addEventListener('change', runTcTm);
  $('export-sweep').addEventListener('click', () => lastSweep && download('infercast-quant-sweep.csv', 'text/csv', sweepCsv(lastSweep)));
  for (const [id, key] of Object.entries(selects)) {
    $(id).addEventListener('change', () => {
      const v = $(id).value;
      if (key === 'model' && v.startsWith('mine:')) {
        state.config = store.doc.models[Number(v.slice(5))].config;
        state.model = 'custom';
        fillModels();
      } else {
        state[key] = v;
      }
      // A new model or weight format replaces the per-class formats a GGUF header set.
      if (key === 'model' || key === 'weights') state.wclasses = '';
      update();
    });
  }
  $('model-search').addEventListener('input', fillModels);
  $('hardware').addEventListener('change', () => { fillEditor(); syncEfficiencies(); });
  $('dev-tier-add').addEventListener('click', () => $('dev-tiers').tBodies[0].appendChild(tierRow({ name: '', capacity_GB: '', bandwidth_GBps: '' })));
  $('dev-save').addEventListener('click', saveDevice);
  $('dev-delete').addEventListener('click', deleteDevice);
  $('dev-export').addEventListener('click', () => download('infercast-custom.json', 'application/json', JSON.stringify(exportBundle(store.doc), null, 2)));
  $('dev-import-button').addEventListener('click', () => $('dev-import').click());
  $('dev-import').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    e.target.value = '';
    if (f) await importFile(f);
  });
  $('config-use').addEventListener('click', () => useConfigText($('config-text').value, 'The pasted config'));
  $('config-file').addEventListener('change', async (e) => {
    await useFiles(e.target.files);
    e.target.value = '';
  });
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    await useFiles(e.dataTransfer.files);
  });
  drop.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); $('config-file').click(); } });
  $('cards').addEventListener('click', (e) => explainTarget(e.target));
  $('ops').addEventListener('click', (e) => { if (e.target.closest('td[data-field]')) explainTarget(e.target); });
  for (const id of ['cards', 'ops']) {
    $(id).addEventListener('keydown', (e) => {
      if ((e.key === 'Enter' || e.key === ' ') && (e.target.closest('.card') || e.target.closest('td[data-field]'))) {
        e.preventDefault();
        explainTarget(e.target);
      }
    });
  }
  $('explain-close').addEventListener('click', hideExplain);
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') hideExplain(); });
  document.addEventListener('click', (e) => {
    if (!$('explain').hidden && !e.target.closest('#explain') && !e.target.closest('.card') && !e.target.closest('td[data-field]')) hideExplain();
  });
  for (const [id, kind] of [['compare-device', 'h'], ['compare-model', 'm']]) {
    $(id).addEventListener('change', () => {
      const v = $(id).value;
      $(id).value = '';
      if (!v) return;
      const list = parseEntries(state.cmp);
      if (!list.includes(`${kind}:${v}`)) list.push(`${kind}:${v}`);
      state.cmp = list.slice(-8).join(',');
      update();
    });
  }
  for (const b of document.querySelectorAll('button[data-png]')) b.addEventListener('click', () => exportPng(b.dataset.png));
  for (const b of document.querySelectorAll('button[data-svg]')) b.addEventListener('click', () => exportSvg(b.dataset.svg));
  $('phase-toggle').addEventListener('click', () => {
    state.phase = state.phase === 'decode' ? 'prefill' : 'decode';
    if (lastResult) render(lastResult);
  });
  $('ops-view').addEventListener('change', () => {
    state.opsView = $('ops-view').value;
    writeUrl();
    if (lastResult) renderOps(lastResult);
  });
  $('ops-phase').addEventListener('change', () => {
    state.opsPhase = $('ops-phase').value;
    if (lastResult) renderOps(lastResult);
  });
  $('export-csv').addEventListener('click', () => lastResult && download('infercast-operators.csv', 'text/csv', csv(lastResult)));
  $('export-json').addEventListener('click', () => lastResult && download('infercast-analysis.json', 'application/json', JSON.stringify(lastResult, null, 2)));
  $('copy-link').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      $('status').textContent = 'Link copied: it restores this exact scenario.';
    } catch {
      $('status').textContent = `Copy this link: ${location.href}`;
    }
  });
  window.addEventListener('hashchange', () => {
    readUrl();
    syncInputs();
    update();
  });
}

function syncInputs() {
  fillModels();
  fillHardware();
  for (const id of ['batch', 'prompt', 'gen', 'weights', 'activations', 'kv', 'convention', 'attention', 'mlp', 'chunk', 'tile', 'lora']) $(id).value = String(state[id]);
  $('moe').value = state.moe;
  $('lora-mode').value = state.loraMode;
  $('hadamard').value = state.hadamard;
  for (const id of ['kwh', 'pue', 'life', 'util']) $(id).value = String(state[id]);
  $('price').value = state.price > 0 ? String(state.price) : '';
  $('power').value = state.power > 0 ? String(state.power) : '';
  $('embodied').value = state.embodied >= 0 ? String(state.embodied) : '';
  $('region').value = state.region;
  $('reqs').value = state.reqs;
  $('ops-view').value = state.opsView;
  syncRagged();
  syncEfficiencies();
  if (state.reqs) $('ragged').open = true;
  if (EFFICIENCIES.some(([k]) => effSet(k))) $('advanced').open = true;
  for (const id of Object.keys(MULTI_DEFAULTS)) if ($(id)) $(id).value = String(state[id]);
  $('spec').open = $('spec').open || Boolean(state.draft);
  $('scenario').value = state.scenario;
  const sc = scenarios.find((x) => x.name === state.scenario);
  $('scenario-info').textContent = sc ? `${sc.description}. Source: ${sc.source}.` : '';
  if (state.mlp !== DEFAULTS.mlp || state.chunk || state.tile || state.lora || state.scenario || state.hadamard !== 'off') $('optimizations').open = true;
}

// Batch and prompt stand aside while a list of ragged requests is given.
function syncRagged() {
  for (const id of ['batch', 'prompt']) {
    $(id).disabled = Boolean(state.reqs);
    $(id).title = state.reqs ? 'not used: the ragged requests below set each request' : '';
  }
}

// Each efficiency input shows the device's own value as its placeholder and the override, if any, as its value.
function syncEfficiencies() {
  const doc = state.hardware ? selectedDeviceDoc() : null;
  for (const [key, field, id] of EFFICIENCIES) {
    $(id).placeholder = doc && doc.efficiency ? String(+doc.efficiency[field].toPrecision(4)) : '';
    $(id).value = effSet(key) ? String(state[key]) : '';
  }
}

async function start() {
  store = loadStore(localStorage);
  readUrl();
  const [models, hardware, dtypes, conventions, version, scenarioList, regions, systems] = await Promise.all(
    ['models', 'hardware', 'dtypes', 'conventions', 'version', 'scenarios', 'regions', 'systems'].map((fn) => backend.call(fn, {})));
  for (const env of [models, hardware, dtypes, conventions, version, scenarioList, regions, systems]) {
    if (!env.ok) {
      $('status').textContent = `The core could not start: ${env.error.message}`;
      return;
    }
  }
  presets = { models: models.value, hardware: hardware.value, systems: systems.value };
  $('system').appendChild(option('', 'none: one node of the device, its own interconnect'));
  for (const sy of systems.value) {
    const o = option(sy.id, sy.name);
    o.title = sy.source;
    $('system').appendChild(o);
  }
  $('compare-device').appendChild(option('', 'choose...'));
  for (const h of hardware.value) $('compare-device').appendChild(option(h.id, `${h.name} (${h.class})`));
  $('compare-model').appendChild(option('', 'choose...'));
  for (const m of models.value) $('compare-model').appendChild(option(m.id, m.name));
  $('draft').appendChild(option('', 'none'));
  $('draft').appendChild(option('mtp', "the model's MTP module"));
  for (const m of models.value) $('draft').appendChild(option(m.id, m.name));
  scenarios = scenarioList.value;
  for (const g of regions.value.regions) $('region').appendChild(option(g.id, `${g.name} (${g.gCO2e_per_kWh} g/kWh)`));
  $('region-source').textContent = `Grid intensities: ${regions.value.source}.`;
  $('scenario').appendChild(option('', 'none: the settings below'));
  for (const sc of scenarios) {
    const o = option(sc.name, sc.name);
    o.title = sc.description;
    $('scenario').appendChild(o);
  }
  $('version').textContent = version.value.version;
  $('weights').appendChild(option('declared', 'as published'));
  for (const id of ['weights', 'activations', 'kv']) {
    for (const d of dtypes.value) {
      const o = option(d.name, d.name);
      o.title = `${d.bits_per_element} bits per element: ${d.definition}`;
      $(id).appendChild(o);
    }
  }
  for (const c of conventions.value) {
    const o = option(c.name, c.name);
    o.title = c.description;
    $('convention').appendChild(o);
  }
  buildDseControls();
  redraw.observe($('dse-plot'));
  redraw.observe($('tctm'));
  syncInputs();
  bind();
  fillEditor();
  $('store-notice').textContent = store.notice;
  if (store.notice) $('device-editor').open = true;
  await update();
  runTcTm();
}

start();
