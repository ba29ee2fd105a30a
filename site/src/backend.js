// The core behind one interface, always in Web Workers: module workers on the served site, blob workers made from
// the inlined core in the offline file opened from file:// (Chromium refuses module scripts and file workers
// there). Only where no worker can be made does the core run on the main thread. The backend is a transport of the
// npm package's client (npm/client.js): `envelope(fn, request, options)` and `envelopeBytes(fn, bytes)` resolve to
// an envelope {ok, value} | {ok: false, error: {code, path, message}}; `connect(backend)` makes the typed client.
//
// Calls run in lanes, each its own worker with one call in flight: analyses in `main`; the charts' extra calls in
// `aux` lanes, so they never hold the next analysis back; long work (a sweep's parts, the t_c/t_m map) in lanes of
// their own; the validation, a calibration, a serving run and a deployment search each in their own, so no sweep,
// map or new analysis ends them (a change of inputs stops a serving run or a search: serving.js). `drop(lane, tag)`
// ends the calls a lane has not started (those given that `tag`; their callers get the `cancelled` code): a newer
// input drops stale work instead of waiting it out. A call with `replace` ends the lane's
// work in flight too (the worker is terminated): only a newer call of the same lane replaces it.
//
// The served site compiles the wasm once, on the main thread, as soon as the page's script runs (index.html
// preloads it), and hands the compiled module to every worker; each worker instantiates it and warms the core up
// (code compiled and tiered up) before its first call.
//
// A worker that fails to load (its script not fetched on a flaky connection) or dies is replaced at once: the call
// it held goes to the new one (unless it moved file bytes to the dead one: that call gets the message). After
// LOAD_TRIES failures in a row the lane's calls are answered with the message, "reload the page" in it, and each new
// call gives the lane one more try: never a call left without an answer.
//
// When the core itself fails (a WebAssembly trap, memory running out), that call gets a message in words and the
// core is replaced by a fresh instance: the lane's worker is terminated and started again (given the compiled
// module too), and the lane's queued calls go to the new one; the inline module is instantiated again. Nothing
// after a failure runs on a module whose memory cannot be trusted.
import { moduleTransport } from '../../npm/client.js';
import { failureEnvelope } from './trap.js';

/* global __WORKER_URL__, __WASM_URL__ */
const CANCELLED = { ok: false, error: { code: 'cancelled', path: '', message: 'a newer request replaced this one' } };
const LOAD_TRIES = 3;
const pageFailed = (what, err) => ({ ok: false, error: { code: 'page.failed', path: '', message: `${what} (${err && err.message ? err.message : err})` } });

export function createBackend() {
  const offline = typeof document !== 'undefined' && document.getElementById('infercast-core');
  if (!offline) {
    const wasm = typeof __WASM_URL__ === 'string' && typeof WebAssembly.compileStreaming === 'function'
      ? WebAssembly.compileStreaming(fetch(__WASM_URL__)).catch(() => null)
      : Promise.resolve(null);
    return workerBackend(() => new Worker(typeof __WORKER_URL__ === 'string' ? __WORKER_URL__ : 'worker.js', { type: 'module' }), wasm);
  }
  const source = `${offline.textContent};\n${document.getElementById('infercast-serve').textContent}`;
  try {
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const backend = workerBackend(() => new Worker(url), Promise.resolve(null));
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

function workerBackend(spawn, wasm) {
  // name -> {worker, queue: [{message, transfer, resolve, tag}], busy: {id, message, transfer, resolve, tag} | null,
  // failures: the worker's failures in a row, failed: the envelope every call gets after LOAD_TRIES of them}
  const lanes = new Map();
  let next = 1;
  let restarts = 0;
  const pump = (l) => {
    if (l.failed) {
      for (const q of l.queue.splice(0)) q.resolve(l.failed);
      return;
    }
    if (l.busy || l.queue.length === 0) return;
    const call = l.queue.shift();
    const { message, transfer, resolve } = call;
    const id = next++;
    l.busy = { ...call, id };
    try {
      l.worker.postMessage({ id, ...message }, transfer);
    } catch (err) {  // a request the browser cannot copy to the worker (too deep, too large)
      l.busy = null;
      resolve(pageFailed('the request could not be sent to the core', err));
      pump(l);
    }
  };
  // The lane's worker, new: its first message is the compiled module (or null: it fetches its own).
  const start = (l) => {
    const worker = spawn();
    l.worker = worker;
    wasm.then((module) => worker.postMessage({ init: module }));
    worker.onmessage = (e) => {
      l.failures = 0;
      const { id, envelope, fatal } = e.data;
      if (!l.busy || id !== l.busy.id) return;
      const { resolve } = l.busy;
      l.busy = null;
      resolve(envelope);
      if (fatal) restart(l);
      pump(l);
    };
    // The worker failed to load or died: it never answers again, so it is replaced (the calls it held go to the
    // new one), or after LOAD_TRIES failures in a row every call is answered with the message.
    worker.onerror = (e) => {
      if (e.preventDefault) e.preventDefault();
      if (l.worker !== worker) return;  // a worker already replaced
      worker.terminate();
      l.failures += 1;
      const why = e.message || 'the worker failed';
      const busy = l.busy;
      l.busy = null;
      if (l.failures >= LOAD_TRIES) {
        l.failed = { ok: false, error: { code: 'core.failed', path: '', message: `the core could not load (${why}, ${l.failures} tries); reload the page to try again` } };
        if (busy) busy.resolve(l.failed);
        pump(l);
        return;
      }
      if (busy && busy.transfer.length) busy.resolve({ ok: false, error: { code: 'core.failed', path: '', message: `the core failed (${why}); try again` } });
      else if (busy) l.queue.unshift(busy);
      start(l);
      pump(l);
    };
  };
  // A fresh worker for the lane after its core failed; the calls queued behind the failed one go to the new one.
  const restart = (l) => {
    l.worker.terminate();
    restarts += 1;
    start(l);
  };
  const lane = (name) => {
    let l = lanes.get(name);
    if (l) return l;
    l = { worker: null, queue: [], busy: null, failures: 0, failed: null };
    start(l);
    lanes.set(name, l);
    return l;
  };
  // Calls of a lane not started yet (those with the tag, if one is given) end as cancelled.
  const drop = (name, tag) => {
    const l = lanes.get(name);
    if (!l) return;
    const dropped = l.queue.filter((q) => tag === undefined || q.tag === tag);
    l.queue = l.queue.filter((q) => !dropped.includes(q));
    for (const q of dropped) q.resolve(CANCELLED);
  };
  // Every call of a lane ends as cancelled, the one in flight too (its worker is terminated; the next call makes
  // a new one).
  const cancel = (name) => {
    const l = lanes.get(name);
    if (!l || (!l.busy && l.queue.length === 0)) return;
    drop(name);
    l.worker.terminate();
    lanes.delete(name);
    if (l.busy) l.busy.resolve(CANCELLED);
  };
  const send = (message, transfer, options) => {
    const name = options?.lane || 'main';
    if (options?.replace) cancel(name);
    const l = lane(name);
    // A lane that gave up loading gets one more try for each new call (the connection may be back).
    if (l.failed) {
      l.failed = null;
      l.failures = LOAD_TRIES - 1;
      start(l);
    }
    return new Promise((resolve) => {
      l.queue.push({ message, transfer, resolve, tag: options?.tag });
      pump(l);
    });
  };
  lane('main');  // started with the page: its worker loads and warms up while the page's script runs
  return {
    kind: 'worker',
    get restarts() { return restarts; },
    // options.columns: the result's number columns (a request's "layout": "columns") come as Float64Arrays.
    envelope: (fn, request, options) => send({ fn, request, columns: !!options?.columns }, [], options),
    // File bytes (a Uint8Array) for the calls that read them (gguf, safetensors).
    envelopeBytes: (fn, bytes, options) => send({ fn, bytes }, [bytes.buffer], options),
    drop,
    cancel,
    // Starts a lane's worker ahead of its first call.
    warm: (name) => { lane(name); },
  };
}

function inlineBackend(factory) {
  const load = () => factory().then((module) => moduleTransport(module, (err) => { throw err; }));
  let ready = load();
  let restarts = 0;
  const run = async (f) => {
    let t;
    try {
      t = await ready;
    } catch (err) {
      return { ok: false, error: { code: 'core.failed', path: '', message: `the core could not load (${err && err.message ? err.message : err})` } };
    }
    try {
      return f(t);
    } catch (err) {
      ready = load();
      restarts += 1;
      return failureEnvelope(err, true);
    }
  };
  return {
    kind: 'inline',
    get restarts() { return restarts; },
    envelope: (fn, request, options) => {
      try {
        JSON.stringify(request ?? {});
      } catch (err) {
        return Promise.resolve(pageFailed('the request could not be written', err));
      }
      return run((t) => (options?.columns ? t.envelopeColumns(fn, request) : t.envelope(fn, request)));
    },
    envelopeBytes: (fn, bytes) => run((t) => t.envelopeBytes(fn, bytes)),
    drop: () => {},
    cancel: () => {},
    warm: () => {},
  };
}
