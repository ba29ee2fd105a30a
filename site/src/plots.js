// The page's uPlot charts: one place that replaces a chart in its box, and an SVG of what a chart shows (axes,
// ticks, labels, lines, points) for the "Export SVG" buttons, drawn from the chart's own scales and data.
import uPlot from 'uplot';
import { el, NS } from './svg.js';

const plots = new Map();  // box id -> uPlot instance

// Destroys the chart in `box` (if any), then draws a new one there; `null` opts leave the box empty.
export function replacePlot(box, opts, data) {
  const old = plots.get(box.id);
  if (old) old.destroy();
  plots.delete(box.id);
  box.textContent = '';
  if (!opts) return null;
  // No live legend: its values read "--" until the pointer is over the plot (a phone has none), which looked like
  // missing data; the legend names the series and hides one when clicked.
  const u = new uPlot({ legend: { live: false }, ...opts }, data, box);
  plots.set(box.id, u);
  return u;
}

// Draws a chart in `box`, updating the one already there in place (new data, and size) when it shows the same
// series on the same axes (and the same `shapeKey`, for what the axes' functions name); otherwise replaces it.
// A chart rebuilt on every input costs a layout and its DOM.
export function drawPlot(box, opts, data) {
  const shape = JSON.stringify([opts.height, opts.shapeKey || '', opts.series.map((x) => [x.label, x.scale, x.stroke, x.dash]),
    (opts.axes || []).map((a) => [a.label, a.scale, a.side, a.rotate, a.size])]);
  const old = plots.get(box.id);
  if (old && old.infercastShape === shape && box.contains(old.root)) {
    if (old.width !== opts.width) old.setSize({ width: opts.width, height: opts.height });
    old.setData(data);
    return old;
  }
  const u = replacePlot(box, opts, data);
  u.infercastShape = shape;
  return u;
}

export function plotOf(id) {
  return plots.get(id) || null;
}


// An SVG of a uPlot chart as drawn: plot box, each axis's ticks and label, each shown series as a polyline
// broken at gaps (dashed where the series is), its points, and a legend.
export function uplotSvg(u, fg, bg) {
  const pr = uPlot.pxRatio || 1;
  const L = u.bbox.left / pr, T = u.bbox.top / pr, PW = u.bbox.width / pr, PH = u.bbox.height / pr;
  const shown = u.series.slice(1).filter((s) => s.show);
  const legendH = 16 * Math.ceil(shown.length / 3);
  const W = u.width, H = u.height + legendH;
  const svg = el('svg', { xmlns: NS, width: W, height: H, viewBox: `0 0 ${W} ${H}`, 'font-family': 'system-ui, sans-serif', 'font-size': 11 });
  svg.appendChild(el('rect', { x: 0, y: 0, width: W, height: H, fill: bg }));
  svg.appendChild(el('rect', { x: L, y: T, width: PW, height: PH, fill: 'none', stroke: fg, 'stroke-opacity': 0.3 }));
  u.axes.forEach((ax) => {
    if (ax.show === false || !ax._show || !ax._splits) return;
    const key = ax.scale;
    const horizontal = ax.side === 0 || ax.side === 2;
    ax._splits.forEach((v, j) => {
      const pos = u.valToPos(v, key);
      const label = ax._values ? String(ax._values[j] ?? '') : String(v);
      if (horizontal) {
        const x = L + pos;
        if (x < L - 0.5 || x > L + PW + 0.5) return;
        if (ax.grid && ax.grid.show !== false) svg.appendChild(el('line', { x1: x, x2: x, y1: T, y2: T + PH, stroke: fg, 'stroke-opacity': 0.08 }));
        svg.appendChild(el('text', { x, y: T + PH + 14, 'text-anchor': 'middle', fill: fg }, label));
      } else {
        const y = T + pos;
        if (y < T - 0.5 || y > T + PH + 0.5) return;
        if (ax.grid && ax.grid.show !== false) svg.appendChild(el('line', { x1: L, x2: L + PW, y1: y, y2: y, stroke: fg, 'stroke-opacity': 0.08 }));
        const left = ax.side === 3;
        svg.appendChild(el('text', { x: left ? L - 6 : L + PW + 6, y: y + 4, 'text-anchor': left ? 'end' : 'start', fill: fg }, label));
      }
    });
    if (ax.label) {
      if (horizontal) svg.appendChild(el('text', { x: L + PW / 2, y: T + PH + 34, 'text-anchor': 'middle', fill: fg, 'font-weight': 600 }, ax.label));
      else {
        const x = ax.side === 3 ? 12 : W - 8;
        svg.appendChild(el('text', { x, y: T + PH / 2, transform: `rotate(-90 ${x} ${T + PH / 2})`, 'text-anchor': 'middle', fill: fg, 'font-weight': 600 }, ax.label));
      }
    }
  });
  const xs = u.data[0];
  const colorOf = (s, i) => (typeof s.stroke === 'function' ? s.stroke(u, i) : s.stroke) || fg;
  u.series.forEach((s, i) => {
    if (i === 0 || !s.show) return;
    const ys = u.data[i];
    const color = colorOf(s, i);
    let run = [];
    const flush = () => {
      if (run.length > 1) svg.appendChild(el('polyline', { points: run.join(' '), fill: 'none', stroke: color, 'stroke-width': s.width || 1, 'stroke-dasharray': s.dash ? s.dash.join(' ') : undefined }));
      run = [];
    };
    xs.forEach((x, j) => {
      const y = ys[j];
      if (y === null || y === undefined || !Number.isFinite(y)) return flush();
      const px = L + u.valToPos(x, 'x'), py = T + u.valToPos(y, s.scale);
      run.push(`${px.toFixed(2)},${py.toFixed(2)}`);
      if (s.points && s.points.show) svg.appendChild(el('circle', { cx: px.toFixed(2), cy: py.toFixed(2), r: 2.5, fill: color }));
    });
    flush();
  });
  shown.forEach((s, k) => {
    const x = 10 + (k % 3) * (W / 3), y = u.height + 12 + 16 * Math.floor(k / 3);
    svg.appendChild(el('rect', { x, y: y - 8, width: 10, height: 3, fill: colorOf(s, u.series.indexOf(s)) }));
    svg.appendChild(el('text', { x: x + 14, y, fill: fg }, s.label));
  });
  return new XMLSerializer().serializeToString(svg);
}
