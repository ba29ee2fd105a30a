// Two SVG charts over one analysis (so they export as SVG and PNG as drawn): where the FLOPs, the bytes and the
// time of each phase go, and where the bytes live across the device's memory tiers. Nothing is computed here
// beyond sums of the core's per-operator numbers. Every label is text content, never HTML.
import { bytes, seconds, si, tierBytes } from './format.js';
import { drawSvg, FONT, FONT_PX, NS, textWidth, wrapText } from './svg.js';

const PALETTE = ['#2563eb', '#c2410c', '#059669', '#9333ea', '#b45309', '#0891b2', '#db2777', '#4d7c0f', '#6b7280'];
export const BYTE_KINDS = [
  ['weight_bytes', 'weights', '#2563eb'], ['act_read_bytes', 'activations read', '#059669'], ['act_write_bytes', 'activations written', '#86efac'],
  ['kv_read_bytes', 'KV read', '#c2410c'], ['kv_write_bytes', 'KV written', '#fdba74'],
];

// Sums of a field per operator name in a phase, largest first, the tail past `keep` folded into "other".
export function shares(ops, field, keep = 7) {
  const by = new Map();
  for (const o of ops) by.set(o.name, (by.get(o.name) || 0) + (o[field] || 0));
  const all = [...by.entries()].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  const head = all.slice(0, keep);
  const rest = all.slice(keep).reduce((s, [, v]) => s + v, 0);
  if (rest > 0) head.push(['other', rest]);
  return head;
}

function bar(add, svg, y, label, parts, total, fmt, colorOf, W, L) {
  add(svg, 'text', { x: 4, y: y + 13 }, label);
  let x = L;
  const w = W - L - 8;
  for (const [name, v] of parts) {
    const width = total > 0 ? (v / total) * w : 0;
    const r = add(svg, 'rect', { x, y, width: Math.max(width, 0), height: 18, fill: colorOf(name) });
    add(r, 'title', {}, `${name}: ${fmt(v)} (${((100 * v) / total).toFixed(1)}%)`);
    // The name where it fits in the segment, else its share where that fits.
    const pct = `${((100 * v) / total).toFixed(0)}%`;
    const text = textWidth(name) <= width - 6 ? name : textWidth(pct) <= width - 6 ? pct : null;
    if (width > 24 && text) add(svg, 'text', { x: x + 3, y: y + 13, fill: '#fff', class: 'on-bar' }, text);
    x += width;
  }
  add(svg, 'text', { x: W - 8, y: y - 3, 'text-anchor': 'end', class: 'total' }, fmt(total));
}

// FLOPs, time and bytes of prefill and of the first decode step, split by operator (bytes by kind).
// Drawn `width` CSS pixels wide (its box's width: main.js), so its text is FONT_PX on screen.
export function drawDecomposition(container, r, width = 560) {
  const W = Math.round(width), L = 56;
  const names = shares(r.ops.filter((o) => o.phase === 'prefill'), 'flops', 8).map(([n]) => n).filter((n) => n !== 'other');
  const colorOf = (n) => (n === 'other' ? '#9ca3af' : PALETTE[names.indexOf(n) >= 0 ? names.indexOf(n) : (names.length + n.length) % PALETTE.length]);
  const timed = r.ops.some((o) => o.time_s !== undefined);
  const rows = [];
  for (const phase of ['prefill', 'decode']) {
    const ops = r.ops.filter((o) => o.phase === phase);
    rows.push({ title: phase === 'prefill' ? 'Prefill' : 'Decode (first step)' });
    rows.push({ label: 'FLOPs', parts: shares(ops, 'flops'), fmt: (v) => si(v, 'FLOP'), color: colorOf });
    if (timed) rows.push({ label: 'time', parts: shares(ops, 'time_s'), fmt: seconds, color: colorOf });
    const kinds = BYTE_KINDS.map(([k, label]) => [label, ops.reduce((s, o) => s + (o[k] || 0), 0)]).filter(([, v]) => v > 0);
    rows.push({ label: 'bytes', parts: kinds, fmt: bytes, color: (n) => BYTE_KINDS.find((b) => b[1] === n)[2] });
  }
  // The height is known once the legend has wrapped: the drawing returns its view box.
  return drawSvg(container, { xmlns: NS, width: '100%', 'font-family': FONT, 'font-size': FONT_PX }, (root, add) => {
    let y = 4;
    for (const row of rows) {
      if (row.title) {
        add(root, 'text', { x: 4, y: y + 14, 'font-weight': 600 }, row.title);
        y += 20;
        continue;
      }
      const total = row.parts.reduce((s, [, v]) => s + v, 0);
      bar(add, root, y + 8, row.label, row.parts, total, row.fmt, row.color, W, L);
      y += 30;
    }
    // Legend: operator colours, then byte kinds.
    let x = 4;
    y += 12;
    for (const [n, c] of [...names.map((n) => [n, colorOf(n)]), ['other', '#9ca3af'], ...BYTE_KINDS.map(([, l, c]) => [l, c])]) {
      const w = 12 + textWidth(n);
      if (x > 4 && x + w > W - 4) { x = 4; y += 15; }
      add(root, 'rect', { x, y: y - 8, width: 9, height: 9, fill: c });
      add(root, 'text', { x: x + 12, y }, n);
      x += w + 8;
    }
    return { viewBox: `0 0 ${W} ${y + 8}` };
  });
}

const PLACED = [['weights', 'weights', '#2563eb'], ['kv_cache', 'KV cache', '#c2410c'], ['activations', 'activations', '#059669']];
const LINE = 14;  // a line of text

// A bar's heading (its text wrapped to the width left beside the share on its right, which stays on the first line)
// and the bar under it; returns the y below it. `fill(by, bw)` draws the bar's segments.
function memoryRow(svg, add, y, W, L, head, used, title, fill) {
  const bw = W - L - 8;
  const lines = wrapText(head, bw - textWidth(used) - 12);
  lines.forEach((line, k) => {
    const t = add(svg, 'text', { x: L, y: y + 11 + LINE * k }, line);
    if (title) add(t, 'title', {}, title);
  });
  add(svg, 'text', { x: W - 8, y: y + 11, 'text-anchor': 'end', class: 'muted' }, used);
  const by = y + 17 + LINE * (lines.length - 1);
  add(svg, 'rect', { x: L, y: by, width: bw, height: 22, fill: 'none', stroke: 'currentColor', 'stroke-opacity': 0.4 });
  fill(by, bw);
  return by + 22 + 10;
}

// The legend under the bars, wrapped to the width, then `note` (red: bytes that do not fit) right-aligned on the
// last line when it has room, on a line of its own when not; returns the height of the drawing.
function memoryLegend(svg, add, y, W, items, note) {
  let x = 4;
  y += 14;
  for (const [label, color] of items) {
    const w = 12 + textWidth(label);
    if (x > 4 && x + w > W - 4) { x = 4; y += LINE + 2; }
    add(svg, 'rect', { x, y: y - 8, width: 9, height: 9, fill: color });
    add(svg, 'text', { x: x + 12, y }, label);
    x += w + 14;
  }
  if (note) {
    if (x + textWidth(note) > W - 8) y += LINE + 2;
    add(svg, 'text', { x: W - 8, y, 'text-anchor': 'end', fill: '#dc2626' }, note);
  }
  return y + 8;
}

// Under a plan over several devices, one bar per pipeline stage: what one device of that stage holds (the plan's
// per-device weights, KV cache and activations) against what one device can use. r.memory describes the whole model
// on one device and would say a model the plan fits "does not fit". More than four stages: the fullest one only.
function drawPlanMemory(container, r, width) {
  const p = r.parallel;
  const W = Math.round(width), L = 4;
  let stages = p.stages;
  const many = stages.length > 4;
  if (many) stages = [stages.reduce((a, s) => (s.required_bytes / s.capacity_bytes > a.required_bytes / a.capacity_bytes ? s : a))];
  const split = ['tp', 'pp', 'ep', 'dp'].filter((k) => p.plan[k] > 1).map((k) => `${k} ${p.plan[k]}`).join(', ') || 'one device';
  const over = Math.max(...stages.map((s) => s.required_bytes - s.capacity_bytes));
  return drawSvg(container, { xmlns: NS, width: '100%', 'font-family': FONT, 'font-size': FONT_PX }, (svg, add) => {
    let y = 6;
    for (const s of stages) {
      const cap = s.capacity_bytes;
      const which = p.stages.length > 1 ? `, stage ${s.stage}${many ? ` (the fullest of ${p.stages.length})` : ''}` : '';
      y = memoryRow(svg, add, y, W, L, `One device of ${p.plan.devices} (${split}${which}): ${bytes(cap)} usable`,
        `${((100 * s.required_bytes) / cap).toFixed(1)}% used`, null, (by, bw) => {
          let x = L;
          for (const [b, [, label, color]] of [[s.weights_bytes, PLACED[0]], [s.kv_cache_bytes, PLACED[1]], [s.activation_peak_bytes, PLACED[2]]]) {
            const w = cap > 0 ? Math.min((b / cap) * bw, L + bw - x) : 0;
            if (w <= 0) continue;
            const rect = add(svg, 'rect', { x, y: by, width: w, height: 22, fill: color, 'fill-opacity': 0.85 });
            add(rect, 'title', {}, `${label} on one device: ${bytes(b)} (${((100 * b) / cap).toFixed(1)}% of what it can use)`);
            x += w;
          }
        });
    }
    const H = memoryLegend(svg, add, y, W, PLACED.map(([, label, color]) => [label, color]), over > 0 ? `${bytes(over)} over one device` : '');
    return { viewBox: `0 0 ${W} ${H}` };
  });
}

// One bar per memory tier, its full width the tier's capacity, filled by what the placement puts there. Under a
// plan over several devices, one device of the plan (drawPlanMemory). Drawn `width` CSS pixels wide (its box's
// width: main.js), so its text is FONT_PX on screen; a long tier name wraps above its bar (its whole name: a
// phone has no tooltip).
export function drawMemory(container, r, width = 560) {
  const hw = r.hardware;
  const placement = r.memory.placement;
  if (hw && r.parallel && r.parallel.stages && r.parallel.stages.length) return drawPlanMemory(container, r, width);
  if (!hw || !placement) {
    container.textContent = 'Pick a device to see where the bytes live.';
    return null;
  }
  // Per tier: its name, size and bandwidth on a line of their own (long names never run into the bar), then the
  // bar, its width the tier's capacity, filled by what is placed there, the driver and OS reserve hatched in grey.
  const W = Math.round(width), L = 4;
  const tiers = hw.memory_tiers;
  const reserve = r.memory.reserve_bytes || 0;
  return drawSvg(container, { xmlns: NS, width: '100%', 'font-family': FONT, 'font-size': FONT_PX }, (svg, add) => {
    let y = 6;
    tiers.forEach((t, i) => {
      const cap = tierBytes(t);
      let used = 0;
      for (const [what] of PLACED) {
        const p = placement.find((q) => q.what === what);
        used += p ? p.bytes_per_tier[i] || 0 : 0;
      }
      y = memoryRow(svg, add, y, W, L, `${t.name}: ${bytes(cap)}, ${t.bandwidth_GBps.toLocaleString('en-US')} GB/s`,
        `${((100 * used) / cap).toFixed(1)}% used`, t.name, (by, bw) => {
          let x = L;
          for (const [what, label, color] of PLACED) {
            const p = placement.find((q) => q.what === what);
            const b = p ? p.bytes_per_tier[i] || 0 : 0;
            const w = cap > 0 ? Math.min((b / cap) * bw, L + bw - x) : 0;
            if (w <= 0) continue;
            const rect = add(svg, 'rect', { x, y: by, width: w, height: 22, fill: color, 'fill-opacity': 0.85 });
            add(rect, 'title', {}, `${label} in ${t.name}: ${bytes(b)} (${((100 * b) / cap).toFixed(1)}% of it)`);
            x += w;
          }
          if (i === 0 && reserve > 0 && cap > 0) {
            const rw = Math.min((reserve / cap) * bw, bw);
            const rect = add(svg, 'rect', { x: L + bw - rw, y: by, width: rw, height: 22, fill: '#9ca3af', 'fill-opacity': 0.5 });
            add(rect, 'title', {}, `kept by the driver and OS: ${bytes(reserve)}`);
          }
        });
    });
    const over = r.memory.required_bytes - r.memory.capacity_bytes;
    const items = [...PLACED.map(([, label, color]) => [label, color]), ...(reserve > 0 ? [['driver and OS', '#9ca3af']] : [])];
    const H = memoryLegend(svg, add, y, W, items, over > 0 ? `${bytes(over)} do not fit anywhere` : '');
    return { viewBox: `0 0 ${W} ${H}` };
  });
}

// Placements worth comparing on a device with several tiers: weights and KV cache each pinned to every tier.
export function placementRequests(r) {
  const n = r.hardware ? r.hardware.memory_tiers.length : 0;
  if (n < 2) return [];
  const out = [];
  for (let w = 0; w < n; w++) for (let k = 0; k < n; k++) out.push({ weights: w, kv_cache: k });
  return out;
}

// The table of those placements: what fits and the throughput each gives.
export function renderPlacements(table, r, results) {
  table.textContent = '';
  if (!results.length) return;
  const names = r.hardware.memory_tiers.map((t) => t.name);
  const head = table.createTHead().insertRow();
  for (const h of ['Weights first in', 'KV cache first in', 'Fits', 'TTFT', 'TPOT', 'tok/s (batch)']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const { placement, env } of results) {
    const tr = body.insertRow();
    const cells = [names[placement.weights], names[placement.kv_cache]];
    if (env.ok) {
      const v = env.value;
      cells.push(v.memory.fits ? (v.memory.fits_first_tier ? 'yes' : 'spills') : 'no', seconds(v.ttft_s), seconds(v.decode.tpot_s),
        v.decode.batch_tokens_per_s.toFixed(v.decode.batch_tokens_per_s >= 100 ? 0 : 1));
    } else {
      cells.push(env.error.message, '', '', '');
    }
    for (const c of cells) tr.insertCell().textContent = c;
  }
}
