// Side by side: the current scenario on other devices, or with other models, recomputed by the core on every
// change. Entries live in the URL as "h:<hardware id>" and "m:<model id>" (state.cmp, comma-separated).
import { bytes, rate, seconds } from './format.js';

export function parseEntries(text) {
  return text ? text.split(',').filter((e) => /^[hm]:[\w.:-]+$/.test(e)) : [];
}

// The request for one entry: the page's request with its device or its model replaced.
export function entryRequest(base, entry) {
  const req = structuredClone(base);
  const id = entry.slice(2);
  if (entry.startsWith('h:')) {
    req.hardware = id;
    delete req.system;  // a system belongs to its own device; the comparison keeps the split (tp, pp, ...)
    delete req.memory_reserve_GB;  // each device keeps what its own driver and OS keep
  } else {
    req.model = id;
  }
  return req;
}

// The fifth field marks a value that is a bound when the device has no compute peak: "≥" a time, "≤" a rate.
const COLS = [
  ['TTFT', (v) => (v.parallel ? v.parallel.ttft_s : v.ttft_s), seconds, 'lower', '≥ '],
  ['TPOT', (v) => (v.parallel ? v.parallel.tpot_s : v.decode.tpot_s), seconds, 'lower', '≥ '],
  ['tok/s (batch)', (v) => (v.parallel ? v.parallel.total_tokens_per_s : v.decode.batch_tokens_per_s), (x) => rate(x, ''), 'higher', '≤ '],
  ['Memory', (v) => (v.parallel ? v.parallel.device_required_bytes : v.memory.required_bytes), bytes, 'lower'],
  ['Fits', (v) => (v.parallel ? v.parallel.fits : v.memory.fits), (x) => (x ? 'yes' : 'no'), ''],
  ['J/token', (v) => (v.cost && v.cost.energy_available ? v.cost.decode.j_per_token : NaN), (x) => (Number.isFinite(x) ? x.toPrecision(3) : '—'), 'lower'],
  ['$ / 1M tokens', (v) => (v.cost && v.cost.usd_per_million_tokens > 0 ? v.cost.usd_per_million_tokens : NaN), (x) => (Number.isFinite(x) ? `$${x.toPrecision(3)}` : '—'), 'lower'],
];
const isBound = (v) => Boolean(v.parallel ? v.parallel.lower_bound : v.lower_bound);

function label(v, entry, presets) {
  if (!entry) return `${v.model.name} on ${v.hardware ? v.hardware.name : 'no device'} (current)`;
  if (entry.startsWith('h:')) return `on ${presets.hardware.find((h) => h.id === entry.slice(2))?.name || entry.slice(2)}`;
  return `${presets.models.find((m) => m.id === entry.slice(2))?.name || entry.slice(2)}`;
}

// rows: [{entry (null for the current scenario), env}]. Each value shows its ratio to the current scenario.
export function renderCompare(table, rows, presets, onRemove) {
  table.textContent = '';
  if (rows.length < 2) return;
  const head = table.createTHead().insertRow();
  for (const h of ['Scenario', ...COLS.map((c) => c[0]), '']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    head.appendChild(th);
  }
  const base = rows[0].env.ok ? rows[0].env.value : null;
  const body = table.createTBody();
  rows.forEach(({ entry, env }) => {
    const tr = body.insertRow();
    if (!entry) tr.className = 'current';
    if (!env.ok) {
      tr.insertCell().textContent = entry ? label(null, entry, presets) : 'current';
      const td = tr.insertCell();
      td.colSpan = COLS.length;
      td.className = 'error';
      td.textContent = env.error.message;
    } else {
      const v = env.value;
      tr.insertCell().textContent = label(v, entry, presets);
      for (const [, get, fmt, better, bound] of COLS) {
        const x = get(v);
        const td = tr.insertCell();
        td.textContent = `${bound && isBound(v) ? bound : ''}${fmt(x)}`;
        if (bound && isBound(v)) td.title = 'a bound: no compute peak for this device (memory and dispatch only)';
        if (entry && base && better && typeof x === 'number' && Number.isFinite(x) && Number.isFinite(get(base)) && get(base) > 0) {
          const ratio = x / get(base);
          const s = document.createElement('span');
          const same = Math.abs(ratio - 1) < 0.005;
          s.className = `ratio ${same ? '' : (better === 'lower' ? ratio < 1 : ratio > 1) ? 'good' : 'worse'}`;
          s.textContent = ` ${ratio >= 10 ? ratio.toFixed(0) : ratio.toPrecision(2)}x`;
          td.appendChild(s);
        }
      }
    }
    const td = tr.insertCell();
    if (entry) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Remove';
      b.setAttribute('aria-label', `Remove ${entry.startsWith('h:') ? 'device' : 'model'} ${entry.slice(2)} from the comparison`);
      b.addEventListener('click', () => onRemove(entry));
      td.appendChild(b);
    }
  });
}
