// The operator table: one row per operator (totals over the layers, or one call per layer), sortable, each cell
// explainable; and its CSV.
import { $, ctx, state } from './ctx.js';
import { bytes, count, seconds, si } from './format.js';

export const COLUMNS = [
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

export const EXPLAINED = new Set(['flops', 'weight_bytes', 'act_read_bytes', 'act_write_bytes', 'kv_read_bytes', 'kv_write_bytes', 'overhead_flops', 'intensity_flop_per_byte', 'time_s', 'bound']);

export function renderOps(r) {
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
  ctx.shownOps = ops;
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

export function csv(r) {
  const keys = ['phase', 'name', 'group', 'class', 'count', 'flops', 'dequant_flops', 'lora_flops', 'padded_flops', 'weight_bytes', 'act_read_bytes', 'act_write_bytes', 'kv_read_bytes', 'kv_write_bytes', 'dispatches', 'intensity_flop_per_byte', 'time_s', 'bound'];
  const esc = (v) => (v === undefined ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  return [keys.join(','), ...r.ops.map((o) => keys.map((k) => esc(o[k])).join(','))].join('\n') + '\n';
}
