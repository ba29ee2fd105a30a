// Two SVG charts over one analysis (so they export as SVG and PNG as drawn): where the FLOPs, the bytes and the
// time of each phase go, and where the bytes live across the device's memory tiers. Nothing is computed here
// beyond sums of the core's per-operator numbers. Every label is text content, never HTML.
import { bytes, seconds, si, tierBytes } from './format.js';
import { drawSvg, NS } from './svg.js';

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
    if (width > 54) add(svg, 'text', { x: x + 3, y: y + 13, fill: '#fff', class: 'on-bar' }, name.length * 6 > width - 6 ? `${((100 * v) / total).toFixed(0)}%` : name);
    x += width;
  }
  add(svg, 'text', { x: W - 8, y: y - 3, 'text-anchor': 'end', class: 'total' }, fmt(total));
}

// FLOPs, time and bytes of prefill and of the first decode step, split by operator (bytes by kind).
export function drawDecomposition(container, r) {
  const W = 560, L = 92;
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
  return drawSvg(container, { xmlns: NS, width: '100%', 'font-family': 'system-ui, sans-serif', 'font-size': 11 }, (root, add) => {
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
      const w = 14 + n.length * 6;
      if (x + w > W) { x = 4; y += 14; }
      add(root, 'rect', { x, y: y - 8, width: 9, height: 9, fill: c });
      add(root, 'text', { x: x + 12, y }, n);
      x += w + 8;
    }
    return { viewBox: `0 0 ${W} ${y + 8}` };
  });
}

const PLACED = [['weights', 'weights', '#2563eb'], ['kv_cache', 'KV cache', '#c2410c'], ['activations', 'activations', '#059669']];

// Under a plan over several devices, one bar per pipeline stage: what one device of that stage holds (the plan's
// per-device weights, KV cache and activations) against what one device can use. r.memory describes the whole model
// on one device and would say a model the plan fits "does not fit". More than four stages: the fullest one only.
function drawPlanMemory(container, r) {
  const p = r.parallel;
  const W = 560, L = 4, ROW = 50;
  let stages = p.stages;
  const many = stages.length > 4;
  if (many) stages = [stages.reduce((a, s) => (s.required_bytes / s.capacity_bytes > a.required_bytes / a.capacity_bytes ? s : a))];
  const H = ROW * stages.length + 40;
  const split = ['tp', 'pp', 'ep', 'dp'].filter((k) => p.plan[k] > 1).map((k) => `${k} ${p.plan[k]}`).join(', ') || 'one device';
  const over = Math.max(...stages.map((s) => s.required_bytes - s.capacity_bytes));
  return drawSvg(container, { xmlns: NS, viewBox: `0 0 ${W} ${H}`, width: '100%', 'font-family': 'system-ui, sans-serif', 'font-size': 11 }, (svg, add) => {
    stages.forEach((s, i) => {
      const y = 6 + ROW * i;
      const cap = s.capacity_bytes;
      const which = p.stages.length > 1 ? `, stage ${s.stage}${many ? ` (the fullest of ${p.stages.length})` : ''}` : '';
      add(svg, 'text', { x: L, y: y + 11 }, `One device of ${p.plan.devices} (${split}${which}): ${bytes(cap)} usable`);
      const by = y + 17, bw = W - L - 8;
      add(svg, 'rect', { x: L, y: by, width: bw, height: 22, fill: 'none', stroke: 'currentColor', 'stroke-opacity': 0.4 });
      let x = L;
      for (const [b, [, label, color]] of [[s.weights_bytes, PLACED[0]], [s.kv_cache_bytes, PLACED[1]], [s.activation_peak_bytes, PLACED[2]]]) {
        const width = cap > 0 ? Math.min((b / cap) * bw, L + bw - x) : 0;
        if (width <= 0) continue;
        const rect = add(svg, 'rect', { x, y: by, width, height: 22, fill: color, 'fill-opacity': 0.85 });
        add(rect, 'title', {}, `${label} on one device: ${bytes(b)} (${((100 * b) / cap).toFixed(1)}% of what it can use)`);
        x += width;
      }
      add(svg, 'text', { x: W - 8, y: y + 11, 'text-anchor': 'end', class: 'muted' }, `${((100 * s.required_bytes) / cap).toFixed(1)}% used`);
    });
    let x = 4;
    const y = ROW * stages.length + 24;
    for (const [, label, color] of PLACED) {
      add(svg, 'rect', { x, y: y - 8, width: 9, height: 9, fill: color });
      add(svg, 'text', { x: x + 12, y }, label);
      x += 30 + label.length * 6;
    }
    if (over > 0) add(svg, 'text', { x: W - 8, y, 'text-anchor': 'end', fill: '#dc2626' }, `${bytes(over)} over one device`);
  });
}

// One bar per memory tier, its full width the tier's capacity, filled by what the placement puts there. Under a
// plan over several devices, one device of the plan (drawPlanMemory).
export function drawMemory(container, r) {
  const hw = r.hardware;
  const placement = r.memory.placement;
  if (hw && r.parallel && r.parallel.stages && r.parallel.stages.length) return drawPlanMemory(container, r);
  if (!hw || !placement) {
    container.textContent = 'Pick a device to see where the bytes live.';
    return null;
  }
  // Per tier: its name, size and bandwidth on a line of their own (long names never run into the bar), then the
  // bar, its width the tier's capacity, filled by what is placed there, the driver and OS reserve hatched in grey.
  const W = 560, L = 4, ROW = 50;
  const tiers = hw.memory_tiers;
  const H = ROW * tiers.length + 40;
  const reserve = r.memory.reserve_bytes || 0;
  return drawSvg(container, { xmlns: NS, viewBox: `0 0 ${W} ${H}`, width: '100%', 'font-family': 'system-ui, sans-serif', 'font-size': 11 }, (svg, add) => {
    tiers.forEach((t, i) => {
      const y = 6 + ROW * i;
      const cap = tierBytes(t);
      const name = t.name.length > 52 ? `${t.name.slice(0, 50)}...` : t.name;
      const head = add(svg, 'text', { x: L, y: y + 11 }, `${name}: ${bytes(cap)}, ${t.bandwidth_GBps.toLocaleString('en-US')} GB/s`);
      add(head, 'title', {}, t.name);
      const by = y + 17, bw = W - L - 8;
      add(svg, 'rect', { x: L, y: by, width: bw, height: 22, fill: 'none', stroke: 'currentColor', 'stroke-opacity': 0.4 });
      let x = L;
      let used = 0;
      for (const [what, label, color] of PLACED) {
        const p = placement.find((q) => q.what === what);
        const b = p ? p.bytes_per_tier[i] || 0 : 0;
        used += b;
        const width = cap > 0 ? Math.min((b / cap) * bw, L + bw - x) : 0;
        if (width <= 0) continue;
        const rect = add(svg, 'rect', { x, y: by, width, height: 22, fill: color, 'fill-opacity': 0.85 });
        add(rect, 'title', {}, `${label} in ${t.name}: ${bytes(b)} (${((100 * b) / cap).toFixed(1)}% of it)`);
        x += width;
      }
      if (i === 0 && reserve > 0 && cap > 0) {
        const rw = Math.min((reserve / cap) * bw, bw);
        const rect = add(svg, 'rect', { x: L + bw - rw, y: by, width: rw, height: 22, fill: '#9ca3af', 'fill-opacity': 0.5 });
        add(rect, 'title', {}, `kept by the driver and OS: ${bytes(reserve)}`);
      }
      add(svg, 'text', { x: W - 8, y: y + 11, 'text-anchor': 'end', class: 'muted' }, `${((100 * used) / cap).toFixed(1)}% used`);
    });
    const over = r.memory.required_bytes - r.memory.capacity_bytes;
    let x = 4;
    const y = ROW * tiers.length + 24;
    for (const [, label, color] of [...PLACED, ...(reserve > 0 ? [[null, 'driver and OS', '#9ca3af']] : [])]) {
      add(svg, 'rect', { x, y: y - 8, width: 9, height: 9, fill: color });
      add(svg, 'text', { x: x + 12, y }, label);
      x += 30 + label.length * 6;
    }
    if (over > 0) add(svg, 'text', { x: W - 8, y, 'text-anchor': 'end', fill: '#dc2626' }, `${bytes(over)} do not fit anywhere`);
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
