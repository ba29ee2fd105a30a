// The uPlot charts drawn from a result: TPOT over the generation and the quantization sweep, updated in place when
// they show the same series. Each takes the width of its box (never wider: the page must not scroll sideways on a
// phone), starts its time axis at zero (a flat TPOT looks flat) and names every point it plots.
import uPlot from 'uplot';
import { $ } from './ctx.js';
import { drawPlot, replacePlot } from './plots.js';

// A box's width, kept current by a ResizeObserver (which reads it after each layout): reading clientWidth while
// the page has unpainted changes forces a layout in the middle of drawing (6 ms per input on a 2-core machine).
// A box seen hidden (width 0) is measured again when next asked.
// A box given a function (whenResized) has it called when its width changes once it has been drawn.
const widths = new WeakMap();
const resized = new WeakMap();
const sizes = typeof ResizeObserver === 'function'
  ? new ResizeObserver((entries) => {
    for (const e of entries) {
      const w = e.target.clientWidth;
      const before = widths.get(e.target);
      widths.set(e.target, w);
      if (w && before !== w) resized.get(e.target)?.();
    }
  })
  : null;
export function whenResized(box, fn) {
  resized.set(box, fn);
  boxWidth(box);
}
function boxWidth(box) {
  const known = widths.get(box);
  if (known) return known;
  const w = box.clientWidth;
  if (sizes) {
    widths.set(box, w);
    sizes.observe(box);
  }
  return w;
}
export const chartWidth = (box) => Math.max(220, Math.min(boxWidth(box) || 520, 1400));

// A y axis as deep as its widest tick label, its tick and the gap: uPlot's default 50 px cut "12,500" to "2,500"
// under the axis title (the batching chart on a phone). Used as an axis's `size`; uPlot calls it as it settles the
// layout (cycleNum counts those rounds; past the first the size is kept, so the layout converges).
export function fitSize(u, values, axisIdx, cycleNum) {
  const axis = u.axes[axisIdx];
  if (cycleNum > 1) return axis._size;
  return Math.ceil(axis.ticks.size + axis.gap + widest(u, axis, values)) + 2;
}

// The widest of an axis's tick labels, in CSS pixels.
function widest(u, axis, values) {
  let w = 0;
  if (values && values.length) {
    u.ctx.save();
    u.ctx.font = axis.font[0];
    for (const v of values) w = Math.max(w, u.ctx.measureText(String(v ?? '')).width);
    u.ctx.restore();
  }
  return w / (uPlot.pxRatio || 1);
}

// The same for an x axis whose labels are drawn at `deg` degrees: as deep as its longest label reaches down.
export function fitRotated(deg) {
  const a = (Math.abs(deg) * Math.PI) / 180;
  return (u, values, axisIdx, cycleNum) => {
    const axis = u.axes[axisIdx];
    if (cycleNum > 1) return axis._size;
    return Math.ceil(axis.ticks.size + axis.gap + widest(u, axis, values) * Math.sin(a) + axis.font[2] * Math.cos(a)) + 4;
  };
}
const zeroBased = (u, lo, hi) => [0, hi > 0 ? hi * 1.1 : 1];

// Writes a label beside each point of the series `list` (canvas text, so it follows the chart's scales); a label
// that would overlap one already drawn, of any of the series, is left out.
export function pointLabels(list, text) {
  return (u) => {
    const c = u.ctx;
    const pr = uPlot.pxRatio || 1;
    c.save();
    c.font = `${11 * pr}px system-ui, sans-serif`;
    c.fillStyle = getComputedStyle(document.body).color;
    c.textAlign = 'left';
    const xs = u.data[0];
    const right = u.bbox.left + u.bbox.width;
    const placed = [];  // labels drawn: a label that would overlap one of them is left out (the point stays)
    for (const si of list) for (let i = xs.length - 1; i >= 0; i--) {
      const ys = u.data[si];
      if (ys[i] === null || ys[i] === undefined) continue;
      const t = text(i);
      if (!t) continue;
      const w = c.measureText(t).width;
      const px = u.valToPos(xs[i], 'x', true), py = u.valToPos(ys[i], u.series[si].scale, true) - 5 * pr;
      const x = px + 5 * pr + w > right ? px - 5 * pr - w : px + 5 * pr;  // inside the plot
      const h = 12 * pr;
      if (placed.some((b) => x < b.x + b.w + 2 * pr && b.x < x + w + 2 * pr && py - h < b.y && b.y - h < py)) continue;
      placed.push({ x, y: py, w });
      c.fillText(t, x, py);
    }
    c.restore();
  };
}

export function renderTimeline(r) {
  const box = $('timeline');
  const tl = r.parallel ? r.parallel.timeline : r.decode.timeline;
  if (!tl || tl.length === 0) {
    replacePlot(box, null);
    box.textContent = 'Pick a device to see TPOT over the generation.';
    return;
  }
  const xs = tl.map((p) => p.context);
  const ys = tl.map((p) => p.tpot_s * 1e3);
  drawPlot(box, {
    width: chartWidth(box), height: 260,
    scales: { x: { time: false }, y: { range: zeroBased } },
    axes: [{ label: 'context (tokens)', stroke: getComputedStyle(document.body).color }, { label: 'TPOT (ms)', stroke: getComputedStyle(document.body).color, size: fitSize }],
    series: [{ label: 'context (tokens)' }, { label: 'TPOT (ms)', stroke: '#2563eb', width: 2 }],
  }, [xs, ys]);
}

export const SWEEP_COLORS = ['#2563eb', '#d97706', '#059669', '#dc2626', '#7c3aed'];

export function renderSweep(v) {
  const box = $('quant-sweep');
  const kvs = [...new Set(v.rows.map((r) => r.kv))];
  const weights = [...new Set(v.rows.map((r) => r.weights))];
  const bits = new Map(v.rows.map((r) => [r.weights, r.weight_bits]));
  weights.sort((a, b) => bits.get(a) - bits.get(b));
  const row = (w, k) => v.rows.find((r) => r.weights === w && r.kv === k);
  const hw = v.rows.length > 0 && v.rows[0].tokens_per_s !== undefined;
  // One column per weight format, fewest bits first, named on the axis with its bits per weight.
  const xs = weights.map((w, i) => i);
  const names = weights.map((w) => `${/_k_|_0$|_1$|^iq|^q\d_k$/.test(w) && !w.includes('-') ? w.toUpperCase() : w} ${(+bits.get(w).toFixed(2))}`);
  const data = [xs];
  const series = [{ label: 'weight format', value: (u, i) => (i === null ? '' : names[i] ?? '') }];
  const fg = getComputedStyle(document.body).color;
  kvs.forEach((k, i) => {
    const color = SWEEP_COLORS[i % SWEEP_COLORS.length];
    if (hw) {
      data.push(weights.map((w) => (row(w, k).fits ? row(w, k).tokens_per_s : null)));
      series.push({ label: `tok/s, KV ${k}`, stroke: color, width: 2, scale: 'tps', points: { show: true } });
    }
    data.push(weights.map((w) => row(w, k).required_bytes / 2 ** 30));
    series.push({ label: `GiB, KV ${k}`, stroke: color, width: 1, dash: [6, 4], scale: 'gb', points: { show: true } });
  });
  // Names at an angle that fits the width: steeper (and the axis deeper) when the columns are narrow. Columns
  // narrower than a line of text (a phone: ten formats in about 150 px) name every second or third format, the
  // others keeping their tick: rotated names closer than their height overlapped.
  const width = chartWidth(box);
  const narrow = width / Math.max(1, xs.length) < 70;
  const phone = width < 500;
  const every = (u) => {
    const col = u.bbox.width / (uPlot.pxRatio || 1) / Math.max(1, xs.length);
    return col > 0 ? Math.max(1, Math.ceil(16 / col)) : 1;
  };
  const axes = [{ label: phone ? 'weight format (bits/weight)' : 'weight format (bits per weight, scales included)', stroke: fg, splits: () => xs,
    rotate: narrow ? -70 : -30, size: fitRotated(narrow ? 70 : 30), values: (u, ticks) => { const k = every(u); return ticks.map((t, i) => (i % k ? '' : names[t] ?? '')); } }];
  if (hw) axes.push({ scale: 'tps', label: phone ? 'tokens/s per sequence' : 'decode tokens/s per sequence', stroke: fg, size: fitSize });
  axes.push({ scale: 'gb', label: 'memory required (GiB)', stroke: fg, side: hw ? 1 : 3, grid: { show: !hw }, size: fitSize });
  drawPlot(box, {
    shapeKey: names.join('\n'),  // the x axis names these formats: a chart of other formats is drawn anew
    width: chartWidth(box), height: 320,
    scales: { x: { time: false, range: [-0.5, Math.max(0.5, xs.length - 0.5)] }, gb: { range: zeroBased }, tps: { range: zeroBased } },
    axes, series,
  }, data);
  const cap = v.rows.length ? `${weights.length} weight formats x ${kvs.length} KV formats, activations ${v.activations}` : '';
  const over = hw ? v.rows.filter((r) => !r.fits).map((r) => `${r.weights}/${r.kv}`) : [];
  $('sweep-note').textContent = `${cap}.${hw ? ' Solid: tokens/s (missing where the scenario does not fit); dashed: memory.' : ' Memory only: pick a device for speed.'}${over.length ? ` Does not fit: ${over.join(', ')}.` : ''}`;
}
