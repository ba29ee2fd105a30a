// Validation in the page: the core's validate call (as `infercast validate --class ... --device ...`) forecasts every
// public measurement with the default efficiencies and summarizes the error for the selected device's class and the
// device itself, so a user sees how far to trust the number on top. Asked once per class, device and runtime, when
// the Validation tab shows, and again when an analysis changes them while it shows.
import { $, backend, ctx, state } from './ctx.js';
import { selectedDeviceDoc } from './request.js';

const pct = (x, signed) => `${signed && x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
// The core's group names (core/validation/validation.cpp, as `infercast validate` prints them), each with what it
// measures; a group this table does not know yet shows the core's own name, never an empty cell.
const GROUP = {
  prefill: 'prefill (TTFT, pp512)', decode: 'decode (TPOT, tg128)', e2e: 'end to end (static-batch throughput)',
  'serving-ttft': 'serving-ttft (TTFT under load)', 'serving-tpot': 'serving-tpot (TPOT and ITL under load)',
  'serving-e2e': 'serving-e2e (request latency under load)', 'serving-throughput': 'serving-throughput (output tokens/s)',
  'serving-itl-p99': 'serving-itl-p99 (99th percentile ITL)',
};
const groupName = (g) => GROUP[g] || g;
// The device classes in words (the core's class ids, kept beside them where they name a CLI flag's value).
const CLASS = {
  'datacenter-gpu': 'datacenter GPUs', 'consumer-gpu': 'consumer GPUs', 'embedded-gpu': 'embedded GPUs', igpu: 'integrated GPUs',
  'apple-soc': 'Apple SoCs', 'mobile-soc': 'mobile SoCs', cpu: 'CPUs', npu: 'NPUs', tpu: 'TPUs', 'sram-accelerator': 'SRAM accelerators',
  pim: 'processing-in-memory devices',
};
export const className = (c) => CLASS[c] || `${c} devices`;

function cellRow(tr, values, tag = 'td') {
  for (const v of values) {
    const c = document.createElement(tag);
    if (tag === 'th') c.scope = 'col';
    c.textContent = v;
    tr.appendChild(c);
  }
}

function selection() {
  const doc = state.hardware ? selectedDeviceDoc() : null;
  const preset = ctx.presets.hardware.find((h) => h.id === state.hardware);
  return { cls: doc ? doc.class : '', id: preset ? preset.id : '', name: doc ? doc.name : '' };
}

export async function showValidation() {
  const sel = selection();
  if (!sel.cls) {
    $('val-status').textContent = 'Pick a device to see the error for its class.';
    $('val-summary').textContent = '';
    $('val-rows').textContent = '';
    return;
  }
  const key = `${sel.cls}|${sel.id}|${state.runtime}`;
  if (ctx.validation && ctx.validation.key === key) return;
  // The same validation already in flight (the tab shown at start, then the first analysis) answers both: asking
  // again would end it and start over.
  if (ctx.validating === key) return;
  ctx.validating = key;
  $('val-status').textContent = 'Forecasting every public measurement...';
  const req = { hardware_class: sel.cls };
  if (state.runtime) req.runtime_id = state.runtime;
  // Its own lane: a sweep or a new analysis never ends it; only a newer validation (another device) replaces it.
  const env = await backend.envelope('validate', req, { lane: 'validation', replace: true });
  if (env.error && env.error.code === 'cancelled') return;
  ctx.validating = '';
  if (!env.ok) {
    $('val-status').textContent = `The validation could not run: ${env.error.message}`;
    return;
  }
  ctx.validation = { key, value: env.value };
  renderValidation(env.value, sel);
}

export function renderValidation(v, sel) {
  const mine = v.rows.filter((r) => r.covered && r.hardware_class === sel.cls);
  const exact = mine.filter((r) => r.hardware_id === sel.id);
  // Leave-one-source-out is the figure quoted (each source forecast with every fit made without it); in sample beside it.
  const loso = v.selection.loso_groups || v.selection.groups;
  const groups = v.selection.groups.filter((g) => g.rows > 0);
  const allLoso = v.cross_validation ? v.cross_validation.groups : {};
  const all = v.groups.filter((g) => g.rows > 0);
  $('val-status').textContent = groups.length
    ? `${mine.length} public measurements were made on ${className(sel.cls)} (class ${sel.cls})${exact.length ? `, ${exact.length} of them on ${sel.name}` : `, none on ${sel.name}`}. `
      + 'Errors leave each source out of every fit (the figure to quote); a positive error means the forecast is above the measurement (for a time: slower than measured; for tokens/s: faster).'
    : `No public measurement covers ${className(sel.cls)} (class ${sel.cls}) yet: the error below is over every device (${all.reduce((n, g) => n + g.rows, 0)} rows). Calibrate to your own measurements to know more.`;
  // The figures first, after the group they are for: on a phone the table shows its first three columns, and the
  // errors sat past a column repeating which devices each row covers. Those are a heading over their rows.
  const t = $('val-summary');
  t.textContent = '';
  const head = ['Group', 'Median |error|, source left out', '90th percentile |error|, left out', 'Median error, left out', 'Measurements', 'Median |error|, in sample'];
  cellRow(t.createTHead().insertRow(), head, 'th');
  const section = (title, list, lookup) => {
    if (!list.length) return;
    const body = t.createTBody();
    const th = document.createElement('th');
    th.scope = 'rowgroup';
    th.colSpan = head.length;
    th.textContent = title;
    body.insertRow().appendChild(th);
    for (const g of list) {
      const l = lookup(g);
      cellRow(body.insertRow(), [groupName(g.group), pct(l.median_abs_error), pct(l.p90_abs_error), pct(l.median_signed_error, true), String(g.rows), pct(g.median_abs_error)]);
    }
  };
  section(`${className(sel.cls)[0].toUpperCase()}${className(sel.cls).slice(1)}`, groups, (g) => loso.find((x) => x.group === g.group) || g);
  section('Every device', all, (g) => allLoso[g.group] || g);
  const rows = $('val-rows');
  rows.textContent = '';
  const list = (exact.length ? exact : mine).slice(0, 200);
  if (!list.length) return;
  cellRow(rows.createTHead().insertRow(), ['Device', 'Model', 'Weights', 'Batch', 'Prompt', 'Gen', 'Metric', 'Measured', 'Forecast (source left out)', 'Error', 'Runtime', 'Source'], 'th');
  const rb = rows.createTBody();
  for (const r of list) {
    const tr = rb.insertRow();
    const e = r.loso_error ?? r.error;
    cellRow(tr, [r.hardware, r.model, r.weights, String(r.batch), String(r.prompt), String(r.gen), `${r.metric} (${r.unit})`,
      r.measured.toPrecision(4), (r.loso_forecast ?? r.forecast).toPrecision(4), pct(e, true), r.runtime, r.source_id]);
    tr.cells[9].className = Math.abs(e) > 0.25 ? 'bad' : '';
  }
}
