// Design-space exploration in the page: axes around the selected device, objectives, constraints; the sweep runs
// in the core (in the worker), then the sample and the Pareto front are drawn on a canvas, the front is listed,
// and a front point can be kept as a custom device. Also LIFE's t_c/t_m map (its Fig. 4) as a heatmap.
// User text is only set as textContent.
import { markDrawn } from './exports.js';

const $ = (id) => document.getElementById(id);

export const PARAMS = [
  ['compute_TFLOPS', 'Compute (bf16 TFLOPS)', 50, 2000, 32, 'log', true],
  ['bandwidth_GBps', 'Memory bandwidth (GB/s)', 200, 8000, 32, 'log', true],
  ['capacity_GB', 'Memory capacity (GB)', 16, 256, 32, 'log', true],
  ['sram_MB', 'On-chip SRAM (MB)', 0, 1024, 5, 'linear', false],
  ['power_W', 'Power (W)', 100, 1000, 10, 'linear', false],
  ['price_USD', 'Price ($)', 1000, 40000, 32, 'log', true],
];
export const OBJECTIVES = [
  ['tpot_s', 'TPOT (s)', true], ['ttft_s', 'TTFT (s)', false], ['tokens_per_s', 'tokens/s (batch, higher is better)', false],
  ['joules_per_token', 'J per token', false], ['usd_per_million_tokens', '$ per 1M tokens', true],
  ['gCO2e_per_million_tokens', 'g CO2 per 1M tokens', false], ['power_W', 'Power (W)', true], ['price_USD', 'Price ($)', false],
];

export function buildDseControls() {
  const body = $('dse-axes').tBodies[0];
  for (const [key, label, lo, hi, steps, scale, on] of PARAMS) {
    const tr = body.insertRow();
    tr.dataset.param = key;
    // Each cell names its column (data-label): on a phone the rows stack and show it above the input (style.css).
    const cell = (el, name) => {
      const td = tr.insertCell();
      if (name) td.dataset.label = name;
      td.appendChild(el);
    };
    const use = document.createElement('input');
    use.type = 'checkbox';
    use.checked = on;
    use.setAttribute('aria-label', `Sweep ${label}`);
    cell(use);
    tr.insertCell().textContent = label;
    for (const [v, what] of [[lo, 'from'], [hi, 'to'], [steps, 'steps']]) {
      const i = document.createElement('input');
      i.type = 'number';
      i.min = '0';
      i.step = 'any';
      i.value = String(v);
      i.setAttribute('aria-label', `${label} ${what}`);
      cell(i, what[0].toUpperCase() + what.slice(1));
    }
    const sel = document.createElement('select');
    for (const s of ['log', 'linear']) {
      const o = document.createElement('option');
      o.value = s;
      o.textContent = s;
      sel.appendChild(o);
    }
    sel.value = scale;
    sel.setAttribute('aria-label', `${label} scale`);
    cell(sel, 'Scale');
  }
  const box = $('dse-objectives');
  for (const [key, label, on] of OBJECTIVES) {
    const l = document.createElement('label');
    l.className = 'check';
    const c = document.createElement('input');
    c.type = 'checkbox';
    c.value = key;
    c.checked = on;
    l.append(c, ` ${label}`);
    box.appendChild(l);
  }
}

// The sweep request the controls describe, or a message naming what is wrong.
export function dseRequest(base) {
  const axes = [];
  for (const tr of $('dse-axes').tBodies[0].rows) {
    const [use, lo, hi, steps] = tr.querySelectorAll('input');
    if (!use.checked) continue;
    const label = tr.cells[1].textContent;
    const nums = [lo, hi, steps].map((i) => Number(i.value));
    if ([lo, hi, steps].some((i) => i.value.trim() === '') || nums.some((x) => !Number.isFinite(x)))
      return { error: `${label}: from, to and steps must be numbers` };
    axes.push({ param: tr.dataset.param, min: nums[0], max: nums[1], steps: Math.round(nums[2]), scale: tr.querySelector('select').value });
  }
  const objectives = [...$('dse-objectives').querySelectorAll('input:checked')].map((c) => c.value);
  const req = { ...base, axes, objectives, keep_points: 20000 };
  delete req.placement;
  delete req.offload;  // design points hold the whole model
  const cons = {};
  const num = (id) => ($(id).value.trim() === '' ? null : Number($(id).value));
  if (num('dse-max-tpot') !== null) cons.max_tpot_s = num('dse-max-tpot') / 1000;
  if (num('dse-max-power') !== null) cons.max_power_W = num('dse-max-power');
  if (Object.keys(cons).length) req.constraints = cons;
  if (num('dse-sram-bw') !== null) req.sram_bandwidth_GBps = num('dse-sram-bw');
  return { req, points: axes.reduce((n, a) => n * Math.max(1, a.steps), 1) };
}

// Four significant digits with thousands separators and never an exponent ("8,000", not "8.00e+3"); prices in
// dollars.
const num = (v) => (Number.isFinite(v) ? v.toLocaleString('en-US', { maximumSignificantDigits: 4 }) : '-');
const value = (key, v) => (key === 'price_USD' && Number.isFinite(v) ? `$${num(v)}` : num(v));

// Ticks over [lo, hi]: 1, 2 and 5 of each decade on a log axis (1 and 3, or 1, when those are too many), round steps on a
// linear one; at most `most`.
function ticks(lo, hi, log, most) {
  if (!(hi > lo)) return [lo];
  if (log) {
    for (const ks of [[1, 2, 5], [1, 3], [1]]) {
      const out = [];
      for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) for (const k of ks) { const t = k * 10 ** e; if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9)) out.push(t); }
      if (out.length <= most || ks.length === 1) return out.length ? out : [lo, hi];
    }
  }
  const raw = (hi - lo) / Math.max(1, most - 1);
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * p).find((x) => x >= raw);
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(+t.toPrecision(12));
  return out;
}

// A canvas sized to its laid-out box (sharp on high-density screens), cleared.
function prepareCanvas(canvas) {
  const ctx = canvas.getContext('2d');
  const dpr = window.devicePixelRatio || 1;
  const W = canvas.clientWidth || 560, H = canvas.clientHeight || 320;
  canvas.width = W * dpr;
  canvas.height = H * dpr;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, W, H);
  return { ctx, W, H };
}

// Scatter: the first two objectives on log axes where they span a decade, the third as colour; the front on top.
export function drawDse(canvas, v) {
  markDrawn(canvas, true);  // shown in place of its placeholder before it is measured
  const { ctx, W, H } = prepareCanvas(canvas);
  const [ox, oy, oc] = v.objectives;
  const xs = v.sample.objectives[ox], ys = v.sample.objectives[oy];
  const fx = v.front.map((f) => f.objectives[ox]), fy = v.front.map((f) => f.objectives[oy]);
  const all = (a, b) => [...a, ...b].filter((x) => Number.isFinite(x));
  const axis = (vals) => {
    const lo = Math.min(...vals), hi = Math.max(...vals);
    const log = lo > 0 && hi / lo > 10;
    const f = log ? Math.log10 : (x) => x;
    const a = f(lo), b = f(hi) === f(lo) ? f(lo) + 1 : f(hi);
    return { log, lo, hi, map: (x) => (f(x) - a) / (b - a) };
  };
  const ax = axis(all(xs, fx)), ay = axis(all(ys, fy));
  const fg = getComputedStyle(document.body).color;
  ctx.font = '11px sans-serif';
  // The objectives by the names the controls give them, with their units; the third (the colour) named above the
  // frame, in as many lines as the width needs (it sat on the frame and the points, from x = 6 on a phone).
  const named = (k) => (OBJECTIVES.find((o) => o[0] === k) || [k, k])[1];
  const cs = oc ? v.sample.objectives[oc] : null;
  const cr = cs ? axis([...cs].filter((x) => Number.isFinite(x))) : null;
  const L = 64, R = 12, B = 42;
  const legend = [];
  if (cr) {
    for (const word of `colour: ${named(oc)}, ${value(oc, cr.lo)} (blue) to ${value(oc, cr.hi)} (red)`.split(' ')) {
      const line = legend.length ? `${legend[legend.length - 1]} ${word}` : word;
      if (legend.length && ctx.measureText(line).width <= W - L - R) legend[legend.length - 1] = line;
      else legend.push(word);
    }
  }
  const T = 10 + 15 * legend.length;
  const px = (x) => L + ax.map(x) * (W - L - R), py = (y) => H - B - ay.map(y) * (H - T - B);
  ctx.strokeStyle = fg;
  ctx.fillStyle = fg;
  ctx.strokeRect(L, T, W - L - R, H - T - B);
  legend.forEach((line, i) => ctx.fillText(line, L, 13 + 15 * i));
  // Ticks with their values, each label clear of the one before (a label that would touch it is left out).
  ctx.textAlign = 'center';
  let right = -Infinity;
  for (const t of ticks(ax.lo, ax.hi, ax.log, Math.max(2, Math.floor((W - L - R) / 70)))) {
    const x = px(t), text = value(ox, t), w = ctx.measureText(text).width;
    ctx.fillRect(x, H - B, 1, 4);
    if (x - w / 2 < right + 8 || x + w / 2 > W) continue;
    ctx.fillText(text, x, H - B + 15);
    right = x + w / 2;
  }
  ctx.textAlign = 'right';
  let top = Infinity;
  for (const t of ticks(ay.lo, ay.hi, ay.log, Math.max(2, Math.floor((H - T - B) / 40)))) {
    const y = py(t);
    ctx.fillRect(L - 4, y, 4, 1);
    if (y + 4 > top - 14) continue;
    ctx.fillText(value(oy, t), L - 6, y + 4);
    top = y;
  }
  ctx.textAlign = 'center';
  ctx.fillText(`${named(ox)}${ax.log ? ' (log scale)' : ''}`, L + (W - L - R) / 2, H - 6);
  ctx.save();
  ctx.translate(12, T + (H - T - B) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(`${named(oy)}${ay.log ? ' (log scale)' : ''}`, 0, 0);
  ctx.restore();
  ctx.textAlign = 'left';
  const colour = (t) => `hsl(${220 - 200 * Math.min(1, Math.max(0, t))}, 70%, 50%)`;
  // Points in 64 colour steps, each step's points in one path: a canvas parses a colour string per change.
  const STEPS = 64;
  const paths = Array.from({ length: cr ? STEPS : 1 }, () => new Path2D());
  for (let i = 0; i < xs.length; i++) {
    const k = cr ? Math.min(STEPS - 1, Math.max(0, Math.floor(cr.map(cs[i]) * STEPS))) : 0;
    paths[k].rect(px(xs[i]) - 1, py(ys[i]) - 1, 2, 2);
  }
  paths.forEach((path, k) => {
    ctx.fillStyle = cr ? colour((k + 0.5) / STEPS) : 'rgba(100,116,139,0.5)';
    ctx.fill(path);
  });
  ctx.strokeStyle = '#dc2626';
  ctx.fillStyle = '#dc2626';
  const pts = fx.map((x, i) => [px(x), py(fy[i])]);
  if (v.objectives.length === 2) {
    ctx.beginPath();
    pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.stroke();
  }
  for (const [x, y] of pts) {
    ctx.beginPath();
    ctx.arc(x, y, 3.5, 0, 2 * Math.PI);
    ctx.fill();
  }
  return pts;
}

// The front as a table: each parameter and objective under the name the controls give it, with its unit (the CSV
// export keeps the keys); an objective that is also a parameter with the same value at every point (power, price)
// once.
export function renderFront(v, onUse) {
  const table = $('dse-front');
  table.textContent = '';
  const same = (k) => v.front.every((f) => f.objectives[k] === f.params[k]);
  const cols = [...PARAMS.map(([k, label]) => [k, label, (f) => f.params[k]]),
    ...OBJECTIVES.filter(([k]) => !(PARAMS.some((p) => p[0] === k) && same(k))).map(([k, label]) => [k, label, (f) => f.objectives[k]])];
  const hr = table.createTHead().insertRow();
  for (const h of ['', ...cols.map((c) => c[1])]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    hr.appendChild(th);
  }
  const body = table.createTBody();
  v.front.slice(0, 200).forEach((f, i) => {
    const tr = body.insertRow();
    tr.id = `dse-front-${i}`;
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = 'Use as device';
    b.addEventListener('click', () => onUse(f));
    tr.insertCell().appendChild(b);
    for (const [k, , get] of cols) tr.insertCell().textContent = value(k, get(f));
  });
}

export function frontCsv(v) {
  const params = PARAMS.map((p) => p[0]);
  const objs = OBJECTIVES.map((o) => o[0]);
  return [[...params, ...objs].join(','), ...v.front.map((f) => [...params.map((p) => f.params[p]), ...objs.map((o) => f.objectives[o])].join(','))].join('\n') + '\n';
}

// LIFE Fig. 4: t_c/t_m over compute (columns) and bandwidth (rows); above 1 compute-bound (red), below memory-bound (blue).
export function drawTcTm(canvas, m, phase) {
  markDrawn(canvas, true);
  const { ctx, W, H } = prepareCanvas(canvas);
  const grid = m[phase].tc_over_tm;
  const nx = m.compute_TOPS.length, ny = m.bandwidth_GBps.length;
  const L = 56, B = 36, T = 6, R = 6;
  const cw = (W - L - R) / nx, ch = (H - T - B) / ny;
  const fg = getComputedStyle(document.body).color;
  ctx.font = '10px sans-serif';
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const r = grid[j][i];
      const t = Math.max(-1, Math.min(1, Math.log10(r) / 2));
      ctx.fillStyle = t >= 0 ? `hsl(0, 75%, ${90 - 40 * t}%)` : `hsl(220, 75%, ${90 + 40 * t}%)`;
      const x = L + i * cw, y = H - B - (j + 1) * ch;
      ctx.fillRect(x, y, cw - 1, ch - 1);
      ctx.fillStyle = '#111';
      if (cw > 28) ctx.fillText(r.toPrecision(2), x + 3, y + ch / 2 + 3);
    }
  }
  ctx.fillStyle = fg;
  ctx.font = '11px sans-serif';
  // Three digits, never an exponent: the axes follow the device, from a tenth of a TOPS to thousands of GB/s.
  // A label every column or every few, as many as fit with a gap between them (every second column of twenty ran
  // the labels together on a phone: "1090129014801680").
  const tick = (v) => String(+v.toPrecision(3));
  const widest = Math.max(...m.compute_TOPS.map((c) => ctx.measureText(tick(c)).width));
  const xEvery = Math.max(1, Math.ceil((widest + 10) / cw)), yEvery = Math.max(1, Math.ceil(16 / ch));
  m.compute_TOPS.forEach((c, i) => { if (i % xEvery === 0) ctx.fillText(tick(c), L + i * cw + 2, H - B + 13); });
  m.bandwidth_GBps.forEach((b, j) => { if (j % yEvery === 0) ctx.fillText(tick(b), 4, H - B - j * ch - ch / 2 + 4); });
  ctx.fillText('compute (TOPS) →', L, H - 6);
  ctx.fillText('GB/s ↑', 4, T + 10);
  // The device the map is drawn around, ringed at its peak and bandwidth (each axis's cells centred on its values).
  const d = m.device;
  if (d && nx > 1 && ny > 1) {
    const at = (vals, v) => (v - vals[0]) / (vals[1] - vals[0]) + 0.5;
    const x = L + at(m.compute_TOPS, d.tops) * cw, y = H - B - at(m.bandwidth_GBps, d.bw) * ch;
    ctx.lineWidth = 2;
    for (const [colour, r] of [['#fff', 8], ['#111', 6]]) {
      ctx.strokeStyle = colour;
      ctx.beginPath();
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.stroke();
    }
    ctx.lineWidth = 1;
    ctx.font = '11px sans-serif';
    // The device's name beside the ring where it fits, else above it (below when the ring is at the top), inside
    // the map (flipped to the left of the ring, it ran over the y axis's labels on a phone), on a light backing
    // that keeps it legible over any cell.
    const label = d.name;
    const w = ctx.measureText(label).width;
    const beside = x + 10 + w <= W - R ? x + 10 : x - 10 - w >= L + 2 ? x - 10 - w : null;
    const lx = beside ?? Math.max(L + 2, Math.min(W - R - w - 2, x - w / 2));
    const ly = beside !== null ? y - 8 : y - 24 >= T ? y - 12 : y + 22;
    ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
    ctx.fillRect(lx - 2, ly - 10, w + 4, 14);
    ctx.fillStyle = '#111';
    ctx.fillText(label, lx, ly);
  }
}
