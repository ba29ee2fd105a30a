// Validation in the page: the core's validate call (as `infercast validate --class ... --device ...`) forecasts every
// public measurement with the default efficiencies and summarizes the error for the selected device's class and the
// device itself, so a user sees how far to trust the number on top. Asked once per class and device, when the
// Validation tab shows.
import { $, backend, ctx, state } from './ctx.js';
import { selectedDeviceDoc } from './request.js';

const pct = (x, signed) => `${signed && x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const GROUP = { prefill: 'prefill (TTFT, pp512)', decode: 'decode (TPOT, tg128)', e2e: 'end to end (static-batch throughput)' };

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
  $('val-status').textContent = 'Forecasting every public measurement...';
  const req = { hardware_class: sel.cls };
  if (state.runtime) req.framework = state.runtime;
  const env = await backend.call('validate', req, { lane: 'long', replace: true });
  if (env.error && env.error.code === 'cancelled') return;
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
  const groups = v.selection.groups.filter((g) => g.rows > 0);
  const all = v.groups;
  $('val-status').textContent = groups.length
    ? `${mine.length} public measurements were made on ${sel.cls} devices${exact.length ? `, ${exact.length} of them on ${sel.name}` : `, none on ${sel.name}`}. `
      + 'A positive error means the forecast is above the measurement (for a time: slower than measured; for tokens/s: faster).'
    : `No public measurement covers a ${sel.cls} device yet: the error below is over every device (${all.reduce((s, g) => s + g.rows, 0)} rows). Calibrate to your own measurements to know more.`;
  const t = $('val-summary');
  t.textContent = '';
  cellRow(t.createTHead().insertRow(), ['Rows', 'Group', 'Measurements', 'Median |error|', '90th percentile |error|', 'Median error'], 'th');
  const body = t.createTBody();
  for (const g of groups) cellRow(body.insertRow(), [`${sel.cls} devices`, GROUP[g.group], String(g.rows), pct(g.median_abs_error), pct(g.p90_abs_error), pct(g.median_signed_error, true)]);
  for (const g of all) cellRow(body.insertRow(), ['every device', GROUP[g.group], String(g.rows), pct(g.median_abs_error), pct(g.p90_abs_error), pct(g.median_signed_error, true)]);
  const rows = $('val-rows');
  rows.textContent = '';
  const list = (exact.length ? exact : mine).slice(0, 200);
  if (!list.length) return;
  cellRow(rows.createTHead().insertRow(), ['Device', 'Model', 'Weights', 'Batch', 'Prompt', 'Gen', 'Metric', 'Measured', 'Forecast', 'Error', 'Runtime', 'Source'], 'th');
  const rb = rows.createTBody();
  for (const r of list) {
    const tr = rb.insertRow();
    cellRow(tr, [r.hardware, r.model, r.weights, String(r.batch), String(r.prompt), String(r.gen), `${r.metric} (${r.unit})`,
      r.measured.toPrecision(4), r.forecast.toPrecision(4), pct(r.error, true), r.framework, r.source_id]);
    tr.cells[9].className = Math.abs(r.error) > 0.25 ? 'bad' : '';
  }
}
