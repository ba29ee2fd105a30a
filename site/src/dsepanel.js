// The design-space panel: runs the sweep (split across workers, cancelled by a newer one) and LIFE's t_c/t_m map,
// and turns a front point into a device.
import { $, backend, ctx, state } from './ctx.js';
import { deviceId, fillEditor, keepDevice } from './devices.js';
import { drawDse, drawTcTm, dseRequest, renderFront } from './dse.js';
import { mergeSweeps } from './dsemerge.js';
import { bytes, si } from './format.js';
import { fillHardware } from './lists.js';
import { update } from './main.js';
import { hardwareArg, request } from './request.js';
import { freeName } from './store.js';

const LONG = { lane: 'long', replace: true };
// Workers a sweep is split across: the machine's cores, at most 8 (each part is timed on its own worker).
const SWEEP_WORKERS = Math.max(1, Math.min(8, (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 1));
const sweepLane = (i) => `sweep-${i}`;

// Ends a sweep in flight when the inputs it was made from change; says so where its answer would have gone.
export function cancelStaleSweep() {
  if ($('dse-status').textContent.startsWith('Sweeping')) $('dse-status').textContent = 'Sweep stopped: the inputs changed. Run it again for the new inputs.';
  backend.cancel('long');
  for (let i = 0; i < SWEEP_WORKERS; i++) backend.cancel(sweepLane(i));
}

// The sweep's workers, started when the design space is shown: each loads and warms up its core before the first
// click instead of after it.
export function warmSweepWorkers() {
  for (let i = 0; i < SWEEP_WORKERS; i++) backend.warm(sweepLane(i));
}

// The sweep in `workers` parts, each on its own worker, the sample's columns as Float64Arrays, merged into the
// whole's result (dsemerge.js). Resolves to an envelope; a newer sweep cancels this one.
export async function sweepEnvelope(req, workers = SWEEP_WORKERS) {
  const envs = await Promise.all(Array.from({ length: workers }, (_, i) => backend.envelope('sweep',
    { ...req, layout: 'columns', part: { index: i, of: workers } }, { lane: sweepLane(i), replace: true, columns: true })));
  const failed = envs.find((e) => !e.ok);
  if (failed) return failed;
  return { ok: true, value: mergeSweeps(envs.map((e) => e.value), req.keep_points ?? 20000) };
}

// Canvases are drawn at their laid-out size; when the layout changes, they are drawn again.
export const redraw = new ResizeObserver(() => {
  if (ctx.lastDse) ctx.dseFront = drawDse($('dse-plot'), ctx.lastDse);
  if (ctx.lastTcTm) drawTcTm($('tctm'), ctx.lastTcTm, $('tctm-phase').value);
});

export async function runDse() {
  $('dse-error').textContent = '';
  if (!state.hardware) {
    $('dse-error').textContent = 'Pick a device first: the sweep varies the selected device.';
    return;
  }
  const built = dseRequest(request());
  if (built.error) {
    $('dse-error').textContent = built.error;
    return;
  }
  $('dse-status').textContent = `Sweeping ${built.points.toLocaleString('en-US')} design points...`;
  const t0 = performance.now();
  // On workers of its own: analyses go on meanwhile, and a newer sweep (or a change of the inputs) ends this one.
  const env = await sweepEnvelope(built.req);
  if (!env.ok && env.error.code === 'cancelled') return;
  if (!env.ok) {
    $('dse-status').textContent = '';
    $('dse-error').textContent = env.error.message;
    return;
  }
  const v = env.value;
  ctx.lastDse = v;
  const ms = performance.now() - t0;
  $('dse-status').textContent = `${v.points.toLocaleString('en-US')} points in ${ms.toFixed(0)} ms (${(v.points / ms / 1000).toFixed(2)} million per second on ${SWEEP_WORKERS} worker${SWEEP_WORKERS > 1 ? 's' : ''}), ${v.feasible.toLocaleString('en-US')} feasible, ${v.front.length} on the front.${v.warnings.length ? ` Note: ${v.warnings.map((w) => w.message).join(' ')}` : ''}`;
  renderFront(v, useDesignPoint);
  ctx.dseFront = drawDse($('dse-plot'), v);
}

// A front point becomes a custom device (kept in this browser) and the analysis switches to it.
export async function useDesignPoint(f) {
  const env = await backend.envelope('dse_device', { hardware: hardwareArg(), params: f.params });
  if (!env.ok) {
    $('dse-error').textContent = env.error.message;
    return;
  }
  const doc = env.value;
  const p = f.params;
  doc.name = `Design ${+p.compute_TFLOPS.toPrecision(3)} TFLOPS, ${+p.bandwidth_GBps.toPrecision(3)} GB/s, ${+p.capacity_GB.toPrecision(3)} GB`;
  doc.id = deviceId(doc.name);
  // A different device saved under that name (the same point of another device's sweep) is kept: this one gets a
  // free name.
  const held = ctx.store.doc.devices.find((x) => x.doc.id === doc.id);
  if (held && JSON.stringify(held.doc) !== JSON.stringify(doc)) {
    const base = doc.name;
    doc.name = freeName(ctx.store.doc, base, (n) => `${base} (${n})`);
    doc.id = deviceId(doc.name);
  }
  keepDevice(doc);
  state.hardware = `custom:${doc.id}`;
  fillHardware();
  fillEditor();
  $('dse-status').textContent = `Loaded ${doc.name} as a custom device.`;
  update();
}

// The device the map is drawn around: the latest analysis's peak (in the format it computed in) and its first
// memory tier; null without a device or a compute peak.
function mapDevice() {
  const r = ctx.lastResult;
  if (!r || !r.hardware || !r.peak || !(r.peak.TFLOPS > 0)) return null;
  return { name: r.hardware.name, dtype: r.peak.dtype, tops: r.peak.TFLOPS, bw: r.hardware.memory_tiers[0].bandwidth_GBps };
}

// The map's axes: 0.1 to 2 times the device's peak and bandwidth in twenty steps of a tenth (the core's grid is
// linear), so the device is a cell of it, in the middle; without a device, LIFE's own 10 to 100.
function mapAxis(v) {
  return v ? { min: v / 10, max: 2 * v, steps: 20 } : { min: 10, max: 100, steps: 10 };
}

export async function runTcTm() {
  const req = request();
  delete req.hardware;
  delete req.costs;
  delete req.offload;
  delete req.memory_reserve_GB;
  const device = mapDevice();
  const generation = ctx.generation;
  Object.assign(req, {
    compute_TOPS: mapAxis(device && device.tops), bandwidth_GBps: mapAxis(device && device.bw),
    compute_efficiency: Number($('tctm-ce').value), memory_efficiency: Number($('tctm-me').value),
  });
  const env = await backend.envelope('tc_tm_map', req, LONG);
  if (!env.ok && env.error.code === 'cancelled') return;
  if (!env.ok) {
    $('tctm-note').textContent = env.error.message;
    return;
  }
  const phase = $('tctm-phase').value;
  ctx.lastTcTm = { ...env.value, device, generation };
  drawTcTm($('tctm'), ctx.lastTcTm, phase);
  const m = env.value;
  const range = (a, unit) => `${+a[0].toPrecision(3)} to ${+a[a.length - 1].toPrecision(3)} ${unit}`;
  $('tctm-note').textContent = `${phase}: ${si(m[phase].flops, 'FLOP')} and ${bytes(m[phase].bytes)}; t_c / t_m = (FLOPs / (TOPS x ${m.compute_efficiency})) / (bytes / (GB/s x ${m.memory_efficiency})). `
    + (device
      ? `Around ${device.name} (ringed: ${+device.tops.toPrecision(4)} ${device.dtype} TOPS, ${+device.bw.toPrecision(4)} GB/s): ${range(m.compute_TOPS, 'TOPS')}, ${range(m.bandwidth_GBps, 'GB/s')}.`
      : `${range(m.compute_TOPS, 'TOPS')}, ${range(m.bandwidth_GBps, 'GB/s')}: pick a device with a compute peak to draw the map around it.`);
}
