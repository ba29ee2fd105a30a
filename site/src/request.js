// The request the page sends the core, built from the state the same way for every call (analyze, sweeps,
// batching, comparisons), and where an error the core names goes.
import { $, ctx, DEFAULTS, state } from './ctx.js';
import { count } from './format.js';
import { addMulti } from './parallel.js';

// The hardware document of the selected custom device (stored, or from the link), or null for a preset.
export function customDevice() {
  if (!state.hardware.startsWith('custom:')) return null;
  const id = state.hardware.slice('custom:'.length);
  const kept = ctx.store.doc.devices.find((d) => d.doc.id === id);
  if (kept) return kept.doc;
  return ctx.urlDevice && ctx.urlDevice.id === id ? ctx.urlDevice : null;
}

// The selected device as a document the editor can start from.
export function selectedDeviceDoc() {
  return customDevice() || ctx.presets.hardware.find((h) => h.id === state.hardware) || ctx.presets.hardware.find((h) => h.id === DEFAULTS.hardware);
}

// Efficiency overrides (the advanced panel): state key, efficiency field, input id.
export const EFFICIENCIES = [['egemm', 'gemm', 'eff-gemm'], ['eattn', 'attention', 'eff-attention'], ['eelem', 'elementwise', 'eff-elementwise'],
  ['emem', 'memory', 'eff-memory'], ['edisp', 'dispatch_us', 'eff-dispatch']];

export const effSet = (key) => (key === 'edisp' ? state[key] >= 0 : state[key] > 0);

// The request's hardware: a preset id, or a document (a custom device, or any device with efficiencies overridden).
export function hardwareArg() {
  if (!state.hardware) return undefined;
  const own = EFFICIENCIES.filter(([k]) => effSet(k));
  if (!own.length) return customDevice() || state.hardware;
  const doc = structuredClone(selectedDeviceDoc());
  doc.efficiency = { ...doc.efficiency };
  for (const [k, field] of own) doc.efficiency[field] = state[k];
  return doc;
}

// Ragged requests typed as "cached+new x count" items ("0+512x4, 8192+128"); throws a message naming the item.
export function parseRequests(text) {
  const items = text.split(/[,;\n]/).map((x) => x.trim()).filter(Boolean);
  return items.map((item, i) => {
    const m = /^(?:(\d+)\s*\+\s*)?(\d+)(?:\s*[x×*]\s*(\d+))?$/.exec(item);
    if (!m || Number(m[2]) < 1 || (m[3] !== undefined && Number(m[3]) < 1)) {
      throw new Error(`Ragged requests: item ${i + 1} holds "${item}"; expected cached+new tokens, optionally x count (e.g. 4096+128x2), with at least 1 new token`);
    }
    return { cached: Number(m[1] || 0), input: Number(m[2]), count: Number(m[3] || 1) };
  });
}

// Images typed as "WIDTHxHEIGHT" items, optionally "xCOUNT" ("1024x768, 640x480x2"), as the CLI's --images; the
// ranges are the core's (the options call). Throws a message naming the item.
export function parseImages(text) {
  const range = (key) => ctx.options.find((o) => o.path === `/workload/images/*/${key}`);
  const items = text.split(/[,;\n]/).map((x) => x.trim()).filter(Boolean);
  return items.map((item, i) => {
    const m = /^(\d+)\s*[x×*]\s*(\d+)(?:\s*[x×*]\s*(\d+))?$/.exec(item);
    const img = m ? { width: Number(m[1]), height: Number(m[2]), count: Number(m[3] || 1) } : null;
    const outside = img && ['width', 'height', 'count'].find((k) => img[k] < range(k).min || img[k] > range(k).max);
    if (!img || outside) {
      const size = range('width'), n = range('count');
      throw new Error(`Images: item ${i + 1} holds "${item}"; expected WIDTHxHEIGHT, optionally xCOUNT (e.g. 1024x768x2), `
        + `each side ${size.min} to ${size.max} pixels, count ${n.min} to ${n.max}`);
    }
    if (!m[3]) delete img.count;
    return img;
  });
}

// What in the ragged requests or the images does not parse, as a refusal naming the item, or null. An input's
// handler refuses such text before it reaches the state; a link carries it as typed, and the page then says so as
// the CLI refuses it, never analyzing without the list (main.js, update).
export function workloadProblem() {
  try {
    if (state.reqs) parseRequests(state.reqs);
  } catch (err) {
    return { code: 'request.wrong_type', path: '/workload/requests', message: err.message };
  }
  try {
    if (state.images) parseImages(state.images);
  } catch (err) {
    return { code: 'request.wrong_type', path: '/workload/images', message: err.message };
  }
  return null;
}

function baseWorkload() {
  if (state.reqs) {
    try {
      return { requests: parseRequests(state.reqs), gen: state.gen };
    } catch {
      // never analyzed: the input's handler refuses such text, and update() a link's (workloadProblem)
    }
  }
  return { batch: state.batch, prompt: state.prompt, gen: state.gen };
}

export function workloadArg() {
  const w = baseWorkload();
  if (state.images) {
    try {
      w.images = parseImages(state.images);
    } catch {
      // never analyzed: the input's handler refuses such text, and update() a link's (workloadProblem)
    }
  }
  return w;
}

export function request() {
  const req = {
    model: state.model === 'custom' && state.config ? state.config : state.model,
    workload: workloadArg(),
    precision: { kv: state.kv },
    convention: state.convention,
    moe_traffic: state.moe,
  };
  // Without a weight format the core applies the one the model is published in (its quantization_config), as
  // the CLI does when --weights is not given.
  if (state.weights !== 'declared') req.precision.weights = state.weights;
  // Nor activations: a W8A8 checkpoint computes in fp8 where the device and runtime can (the CLI without
  // --activations).
  if (state.activations !== 'declared') req.precision.activations = state.activations;
  // Weight classes in their own formats (from a GGUF header): "embedding=q6_k,ffn=q4_k".
  for (const pair of state.wclasses ? state.wclasses.split(',') : []) {
    const [cls, dtype] = pair.split('=');
    if (cls && dtype) req.precision[cls] = dtype;
  }
  if (state.chunk > 0) req.workload.prefill_chunk = state.chunk;
  // Attention and MLP kernels: the runtime's unless chosen ("auto" sends nothing, as the CLI without --attention).
  if (state.attention !== 'auto') req.attention = state.attention;
  if (state.mlp !== 'auto') req.mlp = state.mlp;
  if (state.tile > 0) req.attention_tile = state.tile;
  if (state.lora > 0) req.lora = { rank: state.lora, mode: state.loraMode };
  if (state.scenario) req.scenario = state.scenario;
  req.costs = { region: state.region, usd_per_kWh: state.kwh, pue: state.pue, lifetime_years: state.life, utilization: state.util };
  if (state.price > 0) req.costs.price_USD = state.price;
  if (state.power > 0) req.costs.power_W = state.power;
  if (state.embodied >= 0) req.costs.embodied_kgCO2e = state.embodied;
  req.online_hadamard = state.hadamard === 'on';
  if (state.hardware) req.hardware = hardwareArg();
  if (state.hardware && state.memgib > 0) req.memory_capacity_GiB = state.memgib;
  if (state.hardware && state.reserve >= 0) req.memory_reserve_GB = state.reserve;
  if (state.runtime) req.runtime = state.runtime;
  if (state.memfrac > 0) req.memory_fraction = state.memfrac;
  addMulti(req, state);
  // Layers in host memory (llama.cpp's -ngl) only next to one device.
  if (state.hardware && state.offload === 'on' && !req.system && !req.parallel && !req.speculative) {
    req.offload = {};
    if (state.ngl >= 0) req.offload.gpu_layers = state.ngl;
    if (state.hostbw > 0) req.offload.host_bandwidth_GBps = state.hostbw;
    if (state.hostgb > 0) req.offload.host_capacity_GB = state.hostgb;
  }
  return req;
}

// Errors go next to the input that caused them.
export function errorSlot(path) {
  if (path.startsWith('/model')) return 'model-error';
  if (path.startsWith('/hardware') || path.startsWith('/memory_reserve') || path.startsWith('/memory_capacity') || path.startsWith('/memory_fraction') || path.startsWith('/runtime')) return 'hardware-error';
  if (path.startsWith('/offload')) return 'offload-error';
  if (path.startsWith('/workload')) return 'workload-error';
  if (path.startsWith('/costs')) return 'cost-error';
  if (/^\/(parallel|system|speculative|batching)/.test(path)) return 'parallel-error';
  return 'precision-error';
}

export function clearErrors() {
  for (const id of ['model-error', 'hardware-error', 'workload-error', 'precision-error', 'cost-error', 'parallel-error', 'offload-error']) $(id).textContent = '';
}
