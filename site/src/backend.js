// Two ways to reach the core with one interface: a module Worker (the served site) or, in the offline single
// file opened from file://, the inlined module on the main thread (Chromium allows neither module scripts nor
// workers there). Every call resolves to an envelope {ok, value} | {ok: false, error: {code, path, message}}.
// When the core itself fails (a WebAssembly trap, memory running out), that call gets a message in words and the
// core is replaced by a fresh instance: a worker is terminated and started again, with the calls it had not
// answered sent to the new one; the inline module is instantiated again. Nothing after a failure runs on a module
// whose memory cannot be trusted.
import { failureEnvelope } from './trap.js';

export function createBackend() {
  if (typeof globalThis.createInfercast === 'function') return inlineBackend(globalThis.createInfercast);
  return workerBackend();
}

function workerBackend() {
  const pending = new Map();  // id -> {resolve, message}
  let next = 1;
  let worker = null;
  let restarts = 0;
  const start = () => {
    worker = new Worker('worker.js', { type: 'module' });
    worker.onmessage = (e) => {
      const { id, envelope, fatal } = e.data;
      const p = pending.get(id);
      if (p) {
        pending.delete(id);
        p.resolve(envelope);
      }
      if (fatal) restart();
    };
    worker.onerror = (e) => {
      if (e.preventDefault) e.preventDefault();
      const message = `the core could not load (${e.message || 'the worker failed'})`;
      for (const [, p] of pending) p.resolve({ ok: false, error: { code: 'core.failed', path: '', message } });
      pending.clear();
    };
  };
  const restart = () => {
    worker.terminate();
    restarts += 1;
    start();
    for (const [, p] of pending) worker.postMessage(p.message);
  };
  const send = (message) => new Promise((resolve) => {
    const id = next++;
    const m = { ...message, id };
    pending.set(id, { resolve, message: m });
    try {
      worker.postMessage(m);
    } catch (err) {  // a request the browser cannot copy to the worker (too deep, too large)
      pending.delete(id);
      resolve({ ok: false, error: { code: 'page.failed', path: '', message: `the request could not be sent to the core (${err && err.message ? err.message : err})` } });
    }
  });
  start();
  return {
    kind: 'worker',
    get restarts() { return restarts; },
    call: (fn, request) => send({ fn, request }),
    // File bytes (a Uint8Array) for the calls that read them (gguf, safetensors). Copied, not transferred, so a
    // call can be sent again to a restarted worker.
    callBytes: (fn, bytes) => send({ fn, bytes }),
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
    call: (fn, request) => {
      let text;
      try {
        text = JSON.stringify(request ?? {});
      } catch (err) {
        return Promise.resolve({ ok: false, error: { code: 'page.failed', path: '', message: `the request could not be written (${err && err.message ? err.message : err})` } });
      }
      return run((m) => m.call(fn, text));
    },
    callBytes: (fn, bytes) => run((m) => m.callBytes(fn, bytes)),
  };
}
