// Several devices, speculative decoding and batching curves in the page: the request fields, the plan cards and
// tables, and the batching chart. All numbers come from the core (core/parallel); nothing is computed here.
import { chartWidth, fitSize, pointLabels } from './charts.js';
import { ctx } from './ctx.js';
import { replacePlot } from './plots.js';
import { bytes, count, seconds } from './format.js';

// URL keys of the state (main.js merges these into its defaults).
export const MULTI_DEFAULTS = {
  system: '', tp: 1, pp: 1, ep: 1, dp: 1, algo: 'auto', dpn: 8, nodes: 1,
  ibw: 0, ilat: 0.5, ieff: 0.8, obw: 0, olat: 2.7, oeff: 0.8, draft: '', dtok: 3, acc: 0.8, accl: 0,
};

export function isMulti(state) {
  return Boolean(state.system) || state.tp * state.pp * state.dp > 1 || Boolean(state.draft);
}

// Adds /system, /parallel and /speculative to an analyze (or batching) request.
export function addMulti(req, state) {
  if (!isMulti(state)) return req;
  if (state.system) {
    req.system = {
      devices_per_node: state.dpn,
      nodes: state.nodes,
      intra: { bandwidth_GBps: state.ibw, latency_us: state.ilat, efficiency: state.ieff },
    };
    if (state.nodes > 1 || state.obw > 0) req.system.inter = { bandwidth_GBps: state.obw, latency_us: state.olat, efficiency: state.oeff };
    presetFields(req.system, ctx.presets.systems.find((x) => x.id === state.system), state);
  }
  // Right after a system is chosen (ctx.autoPlan) no plan is sent: the core picks it, as for the CLI's --system.
  if (!(ctx.autoPlan && state.system)) req.parallel = { tp: state.tp, pp: state.pp, ep: state.ep, dp: state.dp, algorithm: state.algo };
  if (state.draft) {
    // A mean acceptance length, when given, stands for the acceptance (the core refuses both).
    req.speculative = state.accl > 0 ? { draft_tokens: state.dtok, acceptance_length: state.accl } : { draft_tokens: state.dtok, acceptance: state.acc };
    if (state.draft === 'mtp') req.speculative.draft = 'mtp';
    else req.speculative.model = state.draft;
  }
  return req;
}

// A system preset's own fields, beside the links the state holds, so the page sends what the CLI's --system reads
// (the system goes inline: a sweep needs its /hardware, which a preset id excludes). On the preset's device, each
// link keeps its peer_to_peer (GeForce cards over PCIe have none, and a runtime's custom all-reduce then does not
// run) and, unchanged, its name; with every field the preset's, the system keeps its id, name, notes and source.
function presetFields(system, sys, state) {
  if (!sys || state.hardware !== sys.device) return;
  const same = (link, key) => ['bandwidth_GBps', 'latency_us', 'efficiency'].every((f) => link[f] === sys[key][f]);
  for (const key of ['intra', 'inter']) {
    const link = system[key];
    if (!link || !sys[key]) continue;
    if (typeof sys[key].peer_to_peer === 'boolean') link.peer_to_peer = sys[key].peer_to_peer;
    if (sys[key].name && same(link, key)) link.name = sys[key].name;
  }
  const f = systemFields(sys);
  if (Object.keys(f).every((k) => state[k] === f[k])) {
    for (const k of ['id', 'name', 'notes', 'source']) if (typeof sys[k] === 'string' && sys[k]) system[k] = sys[k];
  }
}

// The state's fields a system preset sets: its id, its device and its links.
export function systemFields(sys) {
  return {
    system: sys.id, hardware: sys.device, dpn: sys.devices_per_node, nodes: sys.nodes,
    ibw: sys.intra.bandwidth_GBps, ilat: sys.intra.latency_us, ieff: sys.intra.efficiency,
    obw: sys.inter.bandwidth_GBps, olat: sys.inter.latency_us, oeff: sys.inter.efficiency,
  };
}

// A system preset fills the link fields and picks its device; they stay editable.
export function applySystem(state, sys) {
  if (!sys) {
    state.system = '';
    return;
  }
  Object.assign(state, systemFields(sys));
}

function cell(tr, text, tag = 'td') {
  const c = document.createElement(tag);
  c.textContent = text;
  tr.appendChild(c);
  return c;
}

function table(head, rows, label) {
  const t = document.createElement('table');
  t.setAttribute('aria-label', label);
  const tr = document.createElement('tr');
  for (const h of head) cell(tr, h, 'th').scope = 'col';
  const thead = document.createElement('thead');
  thead.appendChild(tr);
  const tbody = document.createElement('tbody');
  for (const r of rows) {
    const row = document.createElement('tr');
    for (const v of r) cell(row, v);
    tbody.appendChild(row);
  }
  t.append(thead, tbody);
  const wrap = document.createElement('div');
  wrap.className = 'table-wrap';
  wrap.appendChild(t);
  return wrap;
}

// The plan's stage and communication tables (its cards are in cards.js).
export function renderPlan(r, box) {
  box.textContent = '';
  if (!r.parallel) return;
  const p = r.parallel;
  const h = document.createElement('h2');
  h.textContent = `Plan: ${p.plan.devices} device(s) of ${p.system.name}`;
  box.appendChild(h);
  const scope = document.createElement('p');
  scope.className = 'help';
  scope.textContent = 'The cards above, these tables and the memory chart describe the plan (one device of it). The roofline, the operator table and the quantization sweep describe the whole model on one device.';
  box.appendChild(scope);
  box.appendChild(table(['Stage', 'Layers', 'Parameters per device', 'Weights', 'KV cache', 'Activations', 'Required', 'Capacity', 'Fits', 'Prefill', 'TPOT'],
    p.stages.map((s) => [String(s.stage), `${s.first_layer}-${s.first_layer + s.layers - 1}`, count(s.params_per_device), bytes(s.weights_bytes),
      bytes(s.kv_cache_bytes), bytes(s.activation_peak_bytes), bytes(s.required_bytes), bytes(s.capacity_bytes), s.fits ? 'yes' : 'NO',
      seconds(s.ttft_s), seconds(s.tpot_s)]), 'Pipeline stages: what each device holds'));
  for (const [key, title] of [['decode_step', 'Communication in one decode step'], ['prefill', 'Communication in the first step']]) {
    const lines = p.communication[key];
    if (!lines.length) continue;
    const c = document.createElement('h3');
    c.textContent = `${title}: ${seconds(p.communication[`${key}_s`])}`;
    box.appendChild(c);
    // Waits: what the calls wait for the group's slowest device (the runtime's collectives.wait_us per call).
    box.appendChild(table(['What', 'Collective', 'Algorithm', 'Devices', 'Link', 'Calls', 'Bytes', 'Waits', 'Time'],
      lines.map((l) => [l.what, l.collective, l.algorithm, String(l.participants), l.link, count(l.calls), bytes(l.bytes), seconds(l.wait_s),
        seconds(l.seconds)]), title));
  }
  for (const w of p.warnings) {
    const n = document.createElement('p');
    n.className = 'help';
    n.textContent = `Note: ${w.message}`;
    box.appendChild(n);
  }
}

// Total throughput against TPOT as the batch grows; points past the KV fit in red.
export function renderBatching(v, box, note) {
  replacePlot(box, null);
  if (!v) return;
  const xs = v.points.map((p) => p.tpot_s * 1e3);
  const fit = v.points.map((p) => (p.fits ? p.total_tokens_per_s : null));
  const over = v.points.map((p) => (p.fits ? null : p.total_tokens_per_s));
  const color = getComputedStyle(document.body).color;
  // Each point is named by its batch (requests per replica).
  const label = (i) => `B=${count(v.points[i].batch)}`;
  replacePlot(box, {
    width: chartWidth(box), height: 280,
    scales: { x: { time: false } },
    axes: [{ label: 'time per output token (ms)', stroke: color }, { label: 'total tokens/s (all requests)', stroke: color, size: fitSize }],
    series: [{ label: 'TPOT (ms)' }, { label: 'fits (tokens/s)', stroke: '#2563eb', width: 2, points: { show: true } },
      { label: 'KV cache does not fit (tokens/s)', stroke: '#dc2626', width: 2, dash: [6, 4], points: { show: true } }],
    hooks: { draw: [pointLabels([2, 1], label)] },
  }, [xs, fit, over]);
  // The "Fits at most" card divides the room left by this batch's KV cache and activations per request; this curve
  // computes each batch's memory at its size: the two can differ by a few requests, and the note says which is which.
  const r = ctx.lastResult;
  const card = r && r.memory ? (r.parallel ? r.parallel.max_batch : r.memory.max_batch) : null;
  const cardNote = card != null && card >= 1 && card !== v.kv_fit_batch
    ? ` (the "Fits at most" card's ${count(card)} grows this batch's KV cache and activations in step with the requests instead)` : '';
  note.textContent = `Batch 1 to ${count(v.points[v.points.length - 1].batch)} per replica; a batch stops fitting after ${count(v.kv_fit_batch)} requests, its KV cache and activations computed at each size${cardNote}. Static batches: the whole batch is prefilled, then decoded together.`;
}

export function batchingCsv(v) {
  const cols = ['batch', 'ttft_s', 'tpot_s', 'e2e_s', 'tokens_per_s_per_user', 'total_tokens_per_s', 'tokens_per_s_per_device', 'device_required_bytes', 'fits'];
  return `${cols.join(',')}\n${v.points.map((p) => cols.map((c) => p[c]).join(',')).join('\n')}\n`;
}
