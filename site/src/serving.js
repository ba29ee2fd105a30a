// The serving and deployment panel: the serving call (continuous batching at a load) and the deploy call (the
// search over deployments), each on a worker lane of its own (so neither ends the other, nor a design-space sweep
// either; a change of the page's inputs stops both, as their answers would be for inputs no longer shown), with the percentiles, the Pareto chart, the chosen
// deployment explained and its launch commands. Every number comes from the core (core/serving); nothing is computed
// here. It takes the model, device, precisions and costs the rest of the page has chosen (request.js).
import { $, backend, DEFAULTS, state } from './ctx.js';
import { markDrawn } from './exports.js';
import { count, seconds } from './format.js';
import { addMulti } from './parallel.js';
import { request } from './request.js';
import { nameOf } from './runtimes.js';
import { writeUrl } from './url.js';

// The panel's inputs and their state keys: kept in the link as the main inputs are, so a reload or a shared link
// brings them back (the runs themselves are not repeated: each waits for its button, as the design-space sweep).
const FIELDS = [['srv-isl', 'isl'], ['srv-osl', 'osl'], ['srv-dist', 'lengths'], ['srv-load', 'load'], ['srv-value', 'level'],
  ['srv-steps', 'steps'], ['srv-seqs', 'seqs'], ['srv-batched', 'batched'], ['srv-runtime', 'srvRuntime'], ['dep-devices', 'devices'],
  ['dep-ttft', 'maxTtft'], ['dep-tpot', 'maxTpot'], ['dep-disagg', 'disagg']];
// Inputs left empty for the runtime's own value (the state holds 0, as the request does).
const EMPTY_IS_RUNTIMES = new Set(['seqs', 'batched']);

// The inputs from the state. A link's choice that a select does not offer, or a number its input refuses, gives
// the default rather than a blank control.
export function syncServing() {
  if (!$('serving-panel')) return;
  for (const [id, key] of FIELDS) {
    const el = $(id);
    if (EMPTY_IS_RUNTIMES.has(key) && !(state[key] > 0)) {
      state[key] = 0;
      el.value = '';
      continue;
    }
    el.value = String(state[key]);
    if (el.value !== String(state[key])) {
      state[key] = DEFAULTS[key];
      el.value = String(state[key]);
    }
  }
}

// An input's value into the state and the link. A number being typed (empty, or not yet a number) leaves the
// state as it was; the core names what is out of range when the run asks for it.
function keep(id, key) {
  const v = $(id).value;
  if (typeof DEFAULTS[key] === 'number') {
    const x = Number(v);
    if (v.trim() === '' && EMPTY_IS_RUNTIMES.has(key)) state[key] = 0;
    else if (v.trim() === '' || !Number.isFinite(x)) return;
    else state[key] = x;
  } else {
    state[key] = v;
  }
  writeUrl();
}

const SERVING = { lane: 'serving', replace: true };
const DEPLOY = { lane: 'deploy', replace: true };

// The page's inputs changed: a run in flight would answer for inputs no longer on screen. It is stopped, and says so
// where its answer would have gone.
export function cancelStaleServing() {
  if (!$('serving-panel')) return;
  const stopped = 'Stopped: the inputs changed. Run it again for the new inputs.';
  if ($('srv-status').textContent === 'Simulating...') $('srv-status').textContent = stopped;
  if ($('dep-status').textContent === 'Searching...') $('dep-status').textContent = stopped;
  backend.cancel('serving');
  backend.cancel('deploy');
}
const SPREAD = { fixed: 0, uniform: 0.5, lognormal: 0.8 };

// The page's request for this model and device, with the serving lengths in place of the static workload.
function baseRequest() {
  const req = request();
  delete req.workload;
  const dist = $('srv-dist').value;
  req.serving = {
    isl: Number($('srv-isl').value), osl: Number($('srv-osl').value),
    isl_distribution: dist, osl_distribution: dist, isl_spread: SPREAD[dist], osl_spread: SPREAD[dist],
  };
  if ($('srv-runtime').value) req.runtime = $('srv-runtime').value;
  return req;
}

export function servingRequest() {
  const req = addMulti(baseRequest(), state);
  const v = Number($('srv-value').value);
  if ($('srv-load').value === 'rate') req.serving.request_rate = v;
  else req.serving.concurrency = Math.round(v);
  const steps = Number($('srv-steps').value);
  if (steps > 0) req.serving.scheduler_steps = steps;  // multi-step scheduling; 0 keeps the runtime's
  // The engine's limits, as its flags set them (llama-server --parallel N: N sequences); empty keeps the runtime's.
  // A value the core refuses (not a whole number) is sent as typed, so its message names the field.
  for (const [id, field] of [['srv-seqs', 'max_num_seqs'], ['srv-batched', 'max_num_batched_tokens']]) {
    const v = $(id).value.trim();
    if (v !== '') req.serving[field] = Number(v);
  }
  return req;
}

export function deployRequest() {
  const req = baseRequest();
  // The search chooses the plan: the page's own (and a draft model) stay out of it.
  delete req.parallel;
  delete req.speculative;
  req.deploy = {
    devices: Number($('dep-devices').value), max_ttft_ms: Number($('dep-ttft').value), max_tpot_ms: Number($('dep-tpot').value),
    disaggregated: $('dep-disagg').value,
  };
  if (state.system && typeof state.system === 'string') {
    req.system = state.system;
    delete req.hardware;
  }
  return req;
}

function table(head, rows, label) {
  const t = document.createElement('table');
  t.setAttribute('aria-label', label);
  const tr = document.createElement('tr');
  for (const h of head) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    tr.appendChild(th);
  }
  const thead = document.createElement('thead');
  thead.appendChild(tr);
  const tbody = document.createElement('tbody');
  for (const r of rows) {
    const row = document.createElement('tr');
    for (const v of r) {
      const td = document.createElement('td');
      td.textContent = v;
      row.appendChild(td);
    }
    tbody.appendChild(row);
  }
  t.append(thead, tbody);
  return t;
}

export function renderServing(v, box) {
  box.textContent = '';
  const pct = (p) => [seconds(p.p50), seconds(p.p90), seconds(p.p99), seconds(p.mean)];
  box.appendChild(table(['Metric', 'p50', 'p90', 'p99', 'mean', 'steady state'], [
    ['TTFT', ...pct(v.ttft_s), seconds(v.steady_state.ttft_s.mean)],
    ['TPOT', ...pct(v.tpot_s), seconds(v.steady_state.tpot_s.mean)],
    ['ITL', ...pct(v.itl_s), seconds(v.steady_state.itl_s.mean)],
    ['End-to-end', ...pct(v.e2e_s), seconds(v.steady_state.e2e_s.mean)],
  ], 'Serving latencies'));
  const p = document.createElement('p');
  p.className = 'help';
  const s = v.scheduler;
  p.textContent = `${v.requests_per_s.toFixed(2)} requests/s, ${count(v.output_tokens_per_s)} output tokens/s (${count(v.output_tokens_per_s_per_device)} per device, ${v.output_tokens_per_s_per_user.toFixed(1)} per user) over ${count(v.engine.requests)} simulated requests; `
    + `scheduler ${s.policy}${s.chunked_prefill ? ', chunked prefill' : ''}, ${s.max_num_batched_tokens} tokens per step, up to ${s.max_num_seqs || 'as many as the cache holds'} sequences${s.stated ? '' : ' (assumed: the runtime states none)'}; `
    + `KV pool ${count(v.memory.kv_tokens)} tokens, at most ${(100 * v.memory.kv_peak_fraction).toFixed(0)}% used, ${v.engine.preemptions} evictions.`
    + (v.warnings.length ? ` Note: ${v.warnings.map((w) => w.message).join(' ')}` : '');
  box.appendChild(p);
}

// The front on a canvas: tokens/s per user across, tokens/s per device up (log-log), the best ringed.
// The colour of a front point by its mode, the points' and the legend's.
const MODE_COLOUR = { aggregated: '#c0392b', disaggregated: '#2e86c1' };

export function drawFront(canvas, v) {
  // Shown (in place of its placeholder) before it is measured; no front, the placeholder says so.
  markDrawn(canvas, v.front.length > 0);
  $('dep-plot-empty').textContent = v.front.length ? '' : 'No deployment meets the SLA: there is no front to draw.';
  if (!v.front.length) return;
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth || 600, h = canvas.clientHeight || 320;
  canvas.width = w * dpr;
  canvas.height = h * dpr;
  const g = canvas.getContext('2d');
  g.scale(dpr, dpr);
  g.clearRect(0, 0, w, h);
  const pts = v.front;
  if (!pts.length) return;
  // Text and the ring in the page's text colour (dark mode too: #444 and #111 vanished on its #1d2026).
  const fg = getComputedStyle(document.body).color;
  // The legend: what the colours and the ring mean, in as many rows as the width needs (a phone cut it off).
  g.font = '11px sans-serif';
  const items = [...Object.entries(MODE_COLOUR).map(([text, c]) => ({ text, c, w: 11 + g.measureText(text).width })),
    ...(v.best ? [{ text: 'best under the SLA', ring: true, w: 15 + g.measureText('best under the SLA').width }] : [])];
  const m = { l: 64, r: 12, t: 0, b: 38 };
  let lx = m.l + 8, row = 0;
  for (const it of items) {
    if (lx > m.l + 8 && lx + it.w > w - m.r) { lx = m.l + 8; row += 1; }
    it.x = lx;
    it.row = row;
    lx += it.w + 16;
  }
  m.t = 26 + 16 * row;  // the legend above the plot, clear of the front
  const pad = 12;  // points and the best one's ring inside the frame, never on its edge
  const xs = pts.map((p) => p.tokens_per_s_per_user), ys = pts.map((p) => p.tokens_per_s_per_device);
  const lx0 = Math.log10(Math.min(...xs) * 0.8), lx1 = Math.log10(Math.max(...xs) * 1.25);
  const ly0 = Math.log10(Math.min(...ys) * 0.8), ly1 = Math.log10(Math.max(...ys) * 1.25);
  const X = (x) => m.l + pad + (Math.log10(x) - lx0) / (lx1 - lx0 || 1) * (w - m.l - m.r - 2 * pad);
  const Y = (y) => h - m.b - pad - (Math.log10(y) - ly0) / (ly1 - ly0 || 1) * (h - m.t - m.b - 2 * pad);
  g.strokeStyle = '#888';
  g.strokeRect(m.l, m.t, w - m.l - m.r, h - m.t - m.b);
  g.fillStyle = fg;
  g.font = '12px sans-serif';
  g.textAlign = 'center';
  g.fillText('tokens/s per user', m.l + (w - m.l - m.r) / 2, h - 4);
  g.save();
  g.translate(11, m.t + (h - m.t - m.b) / 2);
  g.rotate(-Math.PI / 2);
  g.fillText('tokens/s per device', 0, 0);
  g.restore();
  // Ticks at 1, 2 and 5 of every decade the axis spans, so a range inside one decade is labelled too.
  const ticks = (lo, hi) => {
    const out = [];
    for (let e = Math.floor(lo); e <= Math.ceil(hi); e++)
      for (const k of [1, 2, 5]) if (Math.log10(k * 10 ** e) >= lo && Math.log10(k * 10 ** e) <= hi) out.push(k * 10 ** e);
    return out;
  };
  const label = (t) => (t >= 1 ? t.toLocaleString('en-US') : String(+t.toPrecision(2)));
  g.font = '11px sans-serif';
  for (const t of ticks(lx0, lx1)) g.fillText(label(t), X(t), h - m.b + 14);
  g.textAlign = 'right';
  for (const t of ticks(ly0, ly1)) g.fillText(label(t), m.l - 4, Y(t) + 4);
  g.textAlign = 'left';
  for (const it of items) {
    const y = 14 + 16 * it.row;
    if (it.ring) {
      g.strokeStyle = fg;
      g.lineWidth = 1.5;
      g.beginPath();
      g.arc(it.x + 5, y - 4, 6, 0, 2 * Math.PI);
      g.stroke();
      g.lineWidth = 1;
      g.fillStyle = fg;
      g.fillText(it.text, it.x + 15, y);
    } else {
      g.fillStyle = it.c;
      g.beginPath();
      g.arc(it.x + 4, y - 4, 3.5, 0, 2 * Math.PI);
      g.fill();
      g.fillStyle = fg;
      g.fillText(it.text, it.x + 11, y);
    }
  }
  g.strokeStyle = MODE_COLOUR.aggregated;
  g.beginPath();
  pts.forEach((p, i) => (i ? g.lineTo : g.moveTo).call(g, X(p.tokens_per_s_per_user), Y(p.tokens_per_s_per_device)));
  g.stroke();
  for (const p of pts) {
    g.fillStyle = MODE_COLOUR[p.mode] || MODE_COLOUR.aggregated;
    g.beginPath();
    g.arc(X(p.tokens_per_s_per_user), Y(p.tokens_per_s_per_device), 3.5, 0, 2 * Math.PI);
    g.fill();
  }
  if (v.best) {
    g.strokeStyle = fg;
    g.lineWidth = 2;
    g.beginPath();
    g.arc(X(v.best.tokens_per_s_per_user), Y(v.best.tokens_per_s_per_device), 8, 0, 2 * Math.PI);
    g.stroke();
    g.lineWidth = 1;
  }
}

function planText(c) {
  const p = (x) => `TP${x.tp}${x.pp > 1 ? ` PP${x.pp}` : ''}${x.ep > 1 ? ` EP${x.ep}` : ''}`;
  return c.mode === 'disaggregated' ? `${c.xPyD}: prefill ${p(c.prefill)}, decode ${p(c.plan)}` : `${c.plan.dp} x ${p(c.plan)}`;
}

export function renderDeploy(v) {
  drawFront($('dep-plot'), v);
  $('dep-best').textContent = v.best ? `Best under the SLA: ${v.best.explanation}.` : 'No deployment meets the SLA: relax it or add devices.';
  $('dep-launch').textContent = v.best
    ? `# vLLM\n${v.best.launch.vllm}\n\n# SGLang\n${v.best.launch.sglang}\n\n# TensorRT-LLM\n${v.best.launch.trtllm}` : '';
  const t = $('dep-front');
  t.textContent = '';
  const rows = v.front.map((c) => [planText(c), String(c.devices), String(c.batch), String(c.max_num_batched_tokens), seconds(c.ttft_s),
    seconds(c.tpot_s), c.tokens_per_s_per_user.toFixed(1), c.tokens_per_s_per_device.toFixed(1)]);
  t.replaceWith(Object.assign(table(['Deployment', 'Devices', 'Batch', 'Tokens/step', 'TTFT', 'TPOT', 'tok/s/user', 'tok/s/device'], rows,
    'Deployments on the Pareto front'), { id: 'dep-front' }));
}

export async function runServing() {
  $('srv-error').textContent = '';
  $('srv-status').textContent = 'Simulating...';
  const t0 = performance.now();
  const env = await backend.envelope('serving', servingRequest(), SERVING);
  if (!env.ok && env.error.code === 'cancelled') return;
  $('srv-status').textContent = '';
  if (!env.ok) {
    $('srv-error').textContent = env.error.message;
    return;
  }
  $('srv-status').textContent = `Simulated in ${(performance.now() - t0).toFixed(0)} ms under ${env.value.execution.runtime_name}.`;
  renderServing(env.value, $('srv-result'));
}

export async function runDeploy() {
  $('dep-error').textContent = '';
  $('dep-status').textContent = 'Searching...';
  const t0 = performance.now();
  const env = await backend.envelope('deploy', deployRequest(), DEPLOY);
  if (!env.ok && env.error.code === 'cancelled') return;
  $('dep-status').textContent = '';
  if (!env.ok) {
    $('dep-error').textContent = env.error.message;
    return;
  }
  const v = env.value;
  $('dep-status').textContent = `${v.evaluated.toLocaleString('en-US')} configurations over ${v.layouts} parallel layouts in ${(performance.now() - t0).toFixed(0)} ms under ${nameOf(v.runtime)}; ${v.feasible.toLocaleString('en-US')} meet the SLA, ${v.front.length} on the front.`;
  renderDeploy(v);
}

export function initServingPanel() {
  if (!$('serving-panel')) return;
  for (const [id, key] of FIELDS) $(id).addEventListener($(id).tagName === 'SELECT' ? 'change' : 'input', () => keep(id, key));
  $('srv-run').addEventListener('click', runServing);
  $('dep-run').addEventListener('click', runDeploy);
}
