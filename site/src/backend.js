// The core behind one interface, always in a Web Worker: a module worker on the served site, a blob worker made
// from the inlined core in the offline file opened from file:// (Chromium refuses module scripts and file workers
// there). Only where no worker can be made does the core run on the main thread. The backend is a transport of the
// npm package's client (npm/client.js): `envelope(fn, request)` and `envelopeBytes(fn, bytes)` resolve to an
// envelope {ok, value} | {ok: false, error: {code, path, message}}; `connect(backend)` makes the typed client.
//
// Calls run in lanes, each its own worker: analyses in `main`; long work (a design-space sweep, the t_c/t_m map) in
// `long`, the validation, a calibration, a serving run and a deployment search each in their own, so none holds an
// analysis back or ends another's work; a newer call with `replace` ends the older one in its lane (the worker is terminated, its caller gets the
// `cancelled` code) instead of queueing behind it.
//
// When the core itself fails (a WebAssembly trap, memory running out), that call gets a message in words and the
// core is replaced by a fresh instance: the lane's worker is terminated and started again, with the calls it had not
// answered sent to the new one; the inline module is instantiated again. Nothing after a failure runs on a module
// whose memory cannot be trusted.
import { failureEnvelope } from './trap.js';

/* global __WORKER_URL__ */
const CANCELLED = { ok: false, error: { code: 'cancelled', path: '', message: 'a newer request replaced this one' } };
const pageFailed = (what, err) => ({ ok: false, error: { code: 'page.failed', path: '', message: `${what} (${err && err.message ? err.message : err})` } });

export function createBackend() {
  const offline = typeof document !== 'undefined' && document.getElementById('infercast-core');
  if (!offline) return workerBackend(() => new Worker(typeof __WORKER_URL__ === 'string' ? __WORKER_URL__ : 'worker.js', { type: 'module' }));
  const source = `${offline.textContent};\n${document.getElementById('infercast-serve').textContent}`;
  try {
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const backend = workerBackend(() => new Worker(url));
    backend.kind = 'offline worker';
    return backend;
  } catch {
    // No blob workers here: run the core's script on the main thread.
    const script = document.createElement('script');
    script.textContent = offline.textContent;
    document.head.appendChild(script);
    return inlineBackend(globalThis.createInfercast);
  }
}

function workerBackend(spawn) {
  const lanes = new Map();  // name -> {worker, pending: Map(id -> {resolve, message})}
  let next = 1;
  let restarts = 0;
  const start = (l) => {
    l.worker = spawn();
    l.worker.onmessage = (e) => {
      const { id, envelope, fatal } = e.data;
      const p = l.pending.get(id);
      if (p) {
        l.pending.delete(id);
        p.resolve(envelope);
      }
      if (fatal) restart(l);
    };
    l.worker.onerror = (e) => {
      if (e.preventDefault) e.preventDefault();
      const message = `the core could not load (${e.message || 'the worker failed'})`;
      for (const [, p] of l.pending) p.resolve({ ok: false, error: { code: 'core.failed', path: '', message } });
      l.pending.clear();
    };
  };
  // A fresh worker for the lane; the calls the old one had not answered go to the new one.
  const restart = (l) => {
    l.worker.terminate();
    restarts += 1;
    start(l);
    for (const [, p] of l.pending) l.worker.postMessage(p.message);
  };
  const lane = (name) => {
    let l = lanes.get(name);
    if (l) return l;
    l = { worker: null, pending: new Map() };
    start(l);
    lanes.set(name, l);
    return l;
  };
  const cancel = (name) => {
    const l = lanes.get(name);
    if (!l || l.pending.size === 0) return;
    l.worker.terminate();
    lanes.delete(name);
    for (const [, p] of l.pending) p.resolve(CANCELLED);
  };
  const send = (message, options) => {
    const name = options?.lane || 'main';
    if (options?.replace) cancel(name);
    const l = lane(name);
    return new Promise((resolve) => {
      const id = next++;
      const m = { ...message, id };
      l.pending.set(id, { resolve, message: m });
      try {
        l.worker.postMessage(m);
      } catch (err) {  // a request the browser cannot copy to the worker (too deep, too large)
        l.pending.delete(id);
        resolve(pageFailed('the request could not be sent to the core', err));
      }
    });
  };
  return {
    kind: 'worker',
    get restarts() { return restarts; },
    envelope: (fn, request, options) => send({ fn, request }, options),
    // File bytes (a Uint8Array) for the calls that read them (gguf, safetensors). Copied, not transferred, so a
    // call can be sent again to a restarted worker.
    envelopeBytes: (fn, bytes, options) => send({ fn, bytes }, options),
    // Ends a lane's work in flight, if any (its callers get `cancelled`).
    cancel,
  };
}

function inlineBackend(factory) {
  let ready = factory();
  let restarts = 0;
  const run = async (invoke) => {
    let module;
    try {
      module = await ready;
    } catch (err) {
      return { ok: false, error: { code: 'core.failed', path: '', message: `the core could not load (${err && err.message ? err.message : err})` } };
    }
    try {
      return JSON.parse(invoke(module));
    } catch (err) {
      ready = factory();
      restarts += 1;
      return failureEnvelope(err, true);
    }
  };
  return {
    kind: 'inline',
    get restarts() { return restarts; },
    envelope: (fn, request) => {
      let text;
      try {
        text = JSON.stringify(request ?? {});
      } catch (err) {
        return Promise.resolve(pageFailed('the request could not be written', err));
      }
      return run((m) => m.call(fn, text));
    },
    envelopeBytes: (fn, bytes) => run((m) => m.callBytes(fn, bytes)),
    cancel: () => {},
  };
}
