// The core behind one interface, always in a Web Worker: a module worker on the served site, a blob worker made
// from the inlined core in the offline file opened from file:// (Chromium refuses module scripts and file workers
// there). Only where no worker can be made does the core run on the main thread. The backend is a transport of the
// npm package's client (npm/client.js): `envelope(fn, request)` and `envelopeBytes(fn, bytes)` resolve to an
// envelope {ok, value} | {ok: false, error: {code, path, message}}; `connect(backend)` makes the typed client.
//
// Calls run in lanes, each its own worker: analyses in `main`; long work (a design-space sweep) in its own lane, so
// it never holds an analysis back, and a newer call with `replace` ends the older one (the worker is terminated,
// its caller gets the `cancelled` code) instead of queueing behind it.

import { moduleTransport } from '../../npm/client.js';

/* global __WORKER_URL__ */
const CANCELLED = { ok: false, error: { code: 'cancelled', path: '', message: 'a newer request replaced this one' } };

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
  const lanes = new Map();  // name -> {worker, pending: Map(id -> resolve)}
  let next = 1;
  const lane = (name) => {
    let l = lanes.get(name);
    if (l) return l;
    l = { worker: spawn(), pending: new Map() };
    l.worker.onmessage = (e) => {
      const p = l.pending.get(e.data.id);
      if (p) {
        l.pending.delete(e.data.id);
        p(e.data.envelope);
      }
    };
    l.worker.onerror = (e) => {
      for (const [, p] of l.pending) p({ ok: false, error: { code: 'worker.failed', path: '', message: `the core could not load: ${e.message || 'worker error'}` } });
      l.pending.clear();
    };
    lanes.set(name, l);
    return l;
  };
  const cancel = (name) => {
    const l = lanes.get(name);
    if (!l || l.pending.size === 0) return;
    l.worker.terminate();
    lanes.delete(name);
    for (const [, p] of l.pending) p(CANCELLED);
  };
  const send = (message, transfer, options) => {
    const name = options?.lane || 'main';
    if (options?.replace) cancel(name);
    const l = lane(name);
    return new Promise((resolve) => {
      const id = next++;
      l.pending.set(id, resolve);
      l.worker.postMessage({ id, ...message }, transfer);
    });
  };
  return {
    kind: 'worker',
    envelope: (fn, request, options) => send({ fn, request }, [], options),
    // File bytes (a Uint8Array) for the calls that read them (gguf, safetensors).
    envelopeBytes: (fn, bytes, options) => send({ fn, bytes }, [bytes.buffer], options),
    // Ends a lane's work in flight, if any (its callers get `cancelled`).
    cancel,
  };
}

function inlineBackend(factory) {
  const ready = factory().then(moduleTransport);
  const run = async (f) => {
    try {
      return f(await ready);
    } catch (err) {
      return { ok: false, error: { code: 'core.failed', path: '', message: `the core failed to load: ${err}` } };
    }
  };
  return {
    kind: 'inline',
    envelope: (fn, request) => run((t) => t.envelope(fn, request)),
    envelopeBytes: (fn, bytes) => run((t) => t.envelopeBytes(fn, bytes)),
    cancel: () => {},
  };
}
