// What every part of the page shares: the DOM helper, the backend that owns the core, the defaults, the state
// (kept in the link) and the context of the latest results. One object each, mutated in place, never replaced.
import { createBackend } from './backend.js';
import { printable } from './dom.js';
import { MULTI_DEFAULTS } from './parallel.js';

export const $ = (id) => document.getElementById(id);

export function option(value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = printable(text);
  return o;
}

export const backend = createBackend();

export const DEFAULTS = {
  model: 'llama-3.1-8b', hardware: 'nvidia-h100-sxm', batch: 1, prompt: 512, gen: 128,
  weights: 'declared', activations: 'declared', kv: 'bf16', convention: 'infercast', attention: 'auto', moe: 'expected',
  mlp: 'auto', chunk: 0, tile: 0, lora: 0, loraMode: 'unmerged', scenario: '', hadamard: 'off',
  region: 'world', kwh: 0.1, pue: 1.3, life: 3, util: 0.5, price: 0, power: 0, embodied: -1, wclasses: '',
  reqs: '', images: '', cmp: '', opsView: 'total', egemm: 0, eattn: 0, eelem: 0, emem: 0, edisp: -1,
  // The details tab shown; the driver/OS reserve (-1: the device's own); the runtime's memory fraction (0: its own,
  // vLLM's --gpu-memory-utilization); layers offloaded to host memory (ngl -1:
  // the most that fit; host bandwidth and capacity 0: the core's defaults); the runtime (when the core has them).
  tab: 'charts', memgib: 0, reserve: -1, memfrac: 0, offload: 'off', ngl: -1, hostbw: 0, hostgb: 0, runtime: '',
  ...MULTI_DEFAULTS,
  // The Serving tab's inputs (serving.js): lengths, load (clients or requests/s in `level`), scheduler steps, the
  // sequence cap, the tokens per step and the runtime (0 and '': the runtime's); the deployment search's devices,
  // SLA and disaggregation.
  isl: 1024, osl: 256, lengths: 'fixed', load: 'concurrency', level: 32, steps: 0, seqs: 0, batched: 0, srvRuntime: '',
  devices: 8, maxTtft: 2000, maxTpot: 50, disagg: 'auto',
};

export const state = { ...DEFAULTS, config: null, phase: 'decode', opsPhase: 'prefill', sort: null, calConcurrency: 1 };

export const ctx = {
  presets: { models: [], hardware: [], systems: [] },
  scenarios: [],
  options: [],  // the core's `options` call: every request field's range, default and choices
  limits: [],  // the core's `limits` call: sizes, depth and counts it accepts (files.js reads within them)
  fileJob: 0,  // the latest drop or paste (files.js): an older one stops at its next step
  // Custom devices and models kept in this browser (store.js); `urlDevice` is a device that came with a link.
  store: { doc: { devices: [], models: [] }, notice: '', readOnly: false },
  urlDevice: null,
  editorEdited: false,  // the device editor holds the user's edits, not what it was filled with (devices.js)
  generation: 0,  // of the latest change; a call whose generation is older than this is stale
  // The hash the page last read or wrote (url.js): a different one in the address bar is a link whose hashchange
  // has not been handled yet, which the page's own link must not overwrite.
  urlHash: null,
  urlWrite: null,  // the link's write scheduled for when the page is idle (url.js)
  autoPlan: false,  // a system was just chosen with a one-device plan: the core picks the plan (parallel.js)
  planByCore: false,  // the plan shown is the one the core picked, not edited since: a change of runtime asks again
  lastResult: null,
  lastBatching: null,
  lastSweep: null,
  // Which change the sweep and the batching curve were last asked for (they run only where their tab shows), how
  // many of a tab's own calls are in flight (main.js, refresh), and the change whose update() last finished.
  sweepAsked: -1,
  batchingAsked: -1,
  refreshing: 0,
  updated: -1,
  lastCalibration: null,
  validation: null,  // the core's validate call, made once when the Validation tab is first shown
  validating: '',  // the class|device|runtime of the validation in flight (validation.js)
  runtimes: [],
  lastDse: null,
  lastTcTm: null,
  dseFront: [],
  shownOps: [],
  explainReturn: null,
};
