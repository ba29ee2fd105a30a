// A log-log roofline drawn as SVG (so it exports as SVG as-is): the compute roof of the data type the
// operators run in, a slanted roof per memory tier, and one point per operator at its intensity and the
// throughput the forecast gives it. Every label is text content, never HTML.
import { drawSvg, fitText, FONT, FONT_PX, NS, textWidth } from './svg.js';

// Drawn `width` CSS pixels wide (its box's width: main.js), a view box as wide, so the text is FONT_PX on screen.
export function drawRoofline(container, result, phase, width = 560) {
  const hw = result.hardware;
  // The device's operators (with offload, the host's run elsewhere and are not on this roofline).
  const ops = result.ops.filter((o) => o.phase === phase && o.flops > 0 && o.bytes > 0 && o.time_s > 0 && o.device !== 'host');
  if (!hw || ops.length === 0) {
    container.textContent = hw ? 'No operators with FLOPs in this phase.' : 'Pick a device to see the roofline.';
    return null;
  }
  const W = Math.round(width), H = 300, L = 58, R = 12, T = 10, B = 40;
  const peaks = hw.peak_dense_TFLOPS;
  const used = ops[0].compute_type_used;
  const peak = (peaks[used] ?? Math.max(...Object.values(peaks))) * 1e12;
  if (!(peak > 0)) {
    container.textContent = 'This device has no compute peak, so there is no compute roof to draw: its times count memory and dispatch only, a lower bound.';
    return null;
  }
  const tiers = hw.memory_tiers.map((t) => ({ name: t.name, bw: t.bandwidth_GBps * 1e9 }));
  const xs = ops.map((o) => o.intensity_flop_per_byte);
  const ys = ops.map((o) => o.flops / o.time_s);
  const ridge = peak / tiers[0].bw;
  const xmin = Math.min(...xs, ridge) / 4, xmax = Math.max(...xs, ridge) * 4;
  const ymax = peak * 2, ymin = Math.max(Math.min(...ys) / 4, ymax / 1e9);
  const lx = (x) => L + ((Math.log10(x) - Math.log10(xmin)) / (Math.log10(xmax) - Math.log10(xmin))) * (W - L - R);
  const ly = (y) => T + (1 - (Math.log10(y) - Math.log10(ymin)) / (Math.log10(ymax) - Math.log10(ymin))) * (H - T - B);
  return drawSvg(container, { xmlns: NS, viewBox: `0 0 ${W} ${H}`, width: '100%', 'font-family': FONT, 'font-size': FONT_PX }, (svg, add) => {
    add(svg, 'rect', { x: L, y: T, width: W - L - R, height: H - T - B, fill: 'none', stroke: 'currentColor', 'stroke-opacity': 0.3 });
    // A label every decade, or every second or third where a narrow chart has no room for each.
    const every = Math.ceil((textWidth('1e-10') + 8) / ((W - L - R) / (Math.log10(xmax) - Math.log10(xmin))));
    for (let e = Math.ceil(Math.log10(xmin)); e <= Math.floor(Math.log10(xmax)); e++) {
      const x = lx(10 ** e);
      add(svg, 'line', { x1: x, x2: x, y1: T, y2: H - B, stroke: 'currentColor', 'stroke-opacity': 0.08 });
      if (e % every === 0) add(svg, 'text', { x, y: H - B + 14, 'text-anchor': 'middle' }, `1e${e}`);
    }
    for (let e = Math.ceil(Math.log10(ymin)); e <= Math.floor(Math.log10(ymax)); e++) {
      const y = ly(10 ** e);
      add(svg, 'line', { x1: L, x2: W - R, y1: y, y2: y, stroke: 'currentColor', 'stroke-opacity': 0.08 });
      add(svg, 'text', { x: L - 4, y: y + 4, 'text-anchor': 'end' }, `1e${e}`);
    }
    add(svg, 'text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle' }, 'arithmetic intensity (FLOP/byte)');
    add(svg, 'text', { x: 12, y: (T + H - B) / 2, transform: `rotate(-90 12 ${(T + H - B) / 2})`, 'text-anchor': 'middle' }, 'FLOP/s');
    const colors = ['#2563eb', '#059669', '#9333ea', '#b45309'];
    tiers.forEach((t, i) => {
      const r = peak / t.bw;
      const x0 = xmin, y0 = Math.max(t.bw * x0, ymin);
      const path = add(svg, 'polyline', {
        points: `${lx(x0)},${ly(y0)} ${lx(r)},${ly(peak)} ${lx(xmax)},${ly(peak)}`,
        fill: 'none', stroke: colors[i % colors.length], 'stroke-width': 2,
      });
      add(path, 'title', {}, `${t.name}: ${(t.bw / 1e9).toFixed(0)} GB/s, ridge at ${r.toFixed(1)} FLOP/byte`);
      // Under the flat roof right of the ridge (left of it the slanted roof runs through the label), or left of
      // the ridge where the right has no room.
      // A long tier name ("Grace LPDDR5X (per superchip, ...)") is cut to the room there is, whole in its tooltip.
      const tail = ` ridge ${r.toFixed(0)} FLOP/B`;
      // (A slower tier's ridge may lie past the chart's right edge: its label then ends at the edge.)
      const rx = Math.min(lx(r), W - R);
      const right = W - R - 2 - (rx + 6), leftRoom = rx - 4 - (L + 2);
      const full = `${t.name}${tail}`;
      const left = textWidth(full) > right && leftRoom > right;
      const text = `${fitText(t.name, Math.max(left ? leftRoom : right, 0) - textWidth(tail))}${tail}`;
      const label = add(svg, 'text', { x: left ? rx - 4 : rx + 6, y: ly(peak) + 14 + 13 * i, fill: colors[i % colors.length], 'text-anchor': left ? 'end' : 'start' }, text);
      add(label, 'title', {}, full);
    });
    add(svg, 'text', { x: W - R - 4, y: ly(peak) - 4, 'text-anchor': 'end' }, `${used} peak ${(peak / 1e12).toFixed(1)} TFLOP/s`);
    ops.forEach((o, i) => {
      const c = add(svg, 'circle', {
        cx: lx(xs[i]), cy: ly(ys[i]), r: 4,
        fill: o.bound === 'compute' ? '#c2410c' : o.bound === 'memory' ? '#2563eb' : '#6b7280', 'fill-opacity': 0.8,
      });
      add(c, 'title', {}, `${o.name} (${o.group || 'model'}): ${xs[i].toPrecision(3)} FLOP/byte, ${(ys[i] / 1e12).toPrecision(3)} TFLOP/s achieved, ${o.bound}-bound`);
    });
  });
}
