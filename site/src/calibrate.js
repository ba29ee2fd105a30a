// Calibrate in the page: measurements pasted as llama-bench, `vllm bench serve` or a CSV print them are read and
// fitted by the core's calibrate call (the same as `infercast calibrate --measurements`), for the selected model on
// the selected device. The residuals show before and after; the fitted device is kept in this browser and selected,
// so every other model, workload and format is then forecast on it.
import { $, backend, ctx, state } from './ctx.js';
import { EFFICIENCY_NAMES } from './format.js';
import { fillEditor, keepDevice } from './devices.js';
import { fillHardware } from './lists.js';
import { update } from './main.js';
import { hardwareArg } from './request.js';

const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const num = (x) => (Math.abs(x) >= 100 ? x.toFixed(1) : x.toPrecision(4));

function table(el, head, rows, classes = []) {
  el.textContent = '';
  if (!rows.length) return;
  const tr = el.createTHead().insertRow();
  for (const h of head) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    tr.appendChild(th);
  }
  const body = el.createTBody();
  rows.forEach((r, i) => {
    const row = body.insertRow();
    r.forEach((v, j) => {
      const td = row.insertCell();
      td.textContent = v;
      if (classes[i] && classes[i][j]) td.className = classes[i][j];
    });
  });
}

export function calibrationRequest() {
  const req = {
    hardware: hardwareArg(),
    model: state.model === 'custom' && state.config ? state.config : state.model,
    measurements: $('cal-text').value,
    concurrency: state.calConcurrency,
    precision: { kv: state.kv },
  };
  if (state.weights !== 'declared') req.precision.weights = state.weights;
  if (state.activations !== 'declared') req.precision.activations = state.activations;
  // The runtime the measurements ran under (the device's usual one unless chosen), as `calibrate --runtime`.
  if (state.runtime) req.runtime = state.runtime;
  return req;
}

export async function runCalibration() {
  $('cal-error').textContent = '';
  if (!state.hardware) {
    $('cal-error').textContent = 'Pick the device the measurements were made on first (Device, above).';
    return;
  }
  if (!$('cal-text').value.trim()) {
    $('cal-error').textContent = 'Measurements is empty; paste the output of llama-bench or vllm bench serve, or a CSV with metric and value columns.';
    return;
  }
  $('cal-status').textContent = 'Fitting...';
  // Its own lane: a sweep or a new analysis never ends a fit; a newer fit replaces it.
  const env = await backend.envelope('calibrate', calibrationRequest(), { lane: 'calibrate', replace: true });
  if (env.error && env.error.code === 'cancelled') return;
  $('cal-status').textContent = '';
  if (!env.ok) {
    ctx.lastCalibration = null;
    $('cal-save').disabled = true;
    $('cal-error').textContent = env.error.message;
    return;
  }
  ctx.lastCalibration = env.value;
  renderCalibration(env.value);
}

export function renderCalibration(v) {
  const fmt = (k, x) => (k.endsWith('_us') ? `${x.toPrecision(3)} µs` : x.toPrecision(3));
  table($('cal-fitted'), ['Efficiency', 'Before', 'Fitted'], Object.keys(v.start).map((k) => [EFFICIENCY_NAMES[k] || k, fmt(k, v.start[k]), fmt(k, v.fitted[k])]));
  const rows = v.points.map((p) => [p.label || p.metric, p.metric, `${p.batch} x ${p.cached ? `${p.cached}+` : ''}${p.prompt}, gen ${p.gen}, ${p.weights}`,
    num(p.measured), num(p.forecast_before), pct(p.error_before), num(p.forecast_after), pct(p.error_after)]);
  const cls = v.points.map((p) => [, , , , , Math.abs(p.error_before) > 0.15 ? 'bad' : '', , Math.abs(p.error_after) > 0.15 ? 'bad' : 'good']);
  table($('cal-points'), ['Point', 'Metric', 'Workload', 'Measured', 'Forecast before', 'Error before', 'Forecast after', 'Error after'], rows, cls);
  $('cal-notes').textContent = [`Read as ${v.measurements.format}.`, ...v.measurements.notes.map((n) => `${n[0].toUpperCase()}${n.slice(1)}.`),
    `RMS log error ${v.rms_log_error_before.toPrecision(3)} before, ${v.rms_log_error_after.toPrecision(3)} after (${v.evaluations} forecasts).`].join(' ');
  $('cal-save').disabled = false;
}

// Keeps the calibrated device in this browser, selects it and forecasts on it.
export function saveCalibrated() {
  const v = ctx.lastCalibration;
  if (!v) return;
  const doc = structuredClone(v.hardware);
  doc.id = doc.id.startsWith('custom-') ? doc.id : `custom-${doc.id}`;
  const kept = keepDevice(doc);  // stored in one read-modify-write (devices.js persist)
  state.hardware = `custom:${doc.id}`;
  for (const k of ['egemm', 'eattn', 'eelem', 'emem']) state[k] = 0;
  state.edisp = -1;
  fillHardware();
  fillEditor();
  $('cal-status').textContent = `${kept ? 'Saved' : 'Using'} ${doc.name}: every model now forecasts on it (pick one above, or add models under Compare).`;
  update();
}

export function bindCalibration() {
  $('cal-run').addEventListener('click', runCalibration);
  $('cal-save').addEventListener('click', saveCalibrated);
}
