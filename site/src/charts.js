// The uPlot charts drawn from a result: TPOT over the generation and the quantization sweep, updated in place.
import { $ } from './ctx.js';
import { drawPlot, replacePlot } from './plots.js';

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
    width: Math.max(320, box.clientWidth || 520), height: 260,
    scales: { x: { time: false } },
    axes: [{ label: 'context (tokens)', stroke: getComputedStyle(document.body).color }, { label: 'TPOT (ms)', stroke: getComputedStyle(document.body).color }],
    series: [{ label: 'context' }, { label: 'TPOT ms', stroke: '#2563eb', width: 2 }],
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
  drawPlot(box, {
    width: Math.max(320, box.clientWidth || 520), height: 280,
    scales: { x: { time: false }, gb: { range: (u, lo, hi) => [0, hi * 1.05] } },
    axes, series,
  }, data);
  const cap = v.rows.length ? `${weights.length} weight formats x ${kvs.length} KV formats, activations ${v.activations}` : '';
  const over = hw ? v.rows.filter((r) => !r.fits).map((r) => `${r.weights}/${r.kv}`) : [];
  $('sweep-note').textContent = `${cap}.${hw ? ' Solid: tokens/s (missing where the scenario does not fit); dashed: memory.' : ' Memory only: pick a device for speed.'}${over.length ? ` Does not fit: ${over.join(', ')}.` : ''}`;
}
