// Two ways to reach the core with one interface: a module Worker (the served site) or, in the offline single
// file opened from file://, the inlined module on the main thread (Chromium allows neither module scripts nor
// workers there). Every call resolves to an envelope {ok, value} | {ok: false, error: {code, path, message}}.

export function createBackend() {
  if (typeof globalThis.createInfercast === 'function') return inlineBackend(globalThis.createInfercast);
  return workerBackend();
}

function workerBackend() {
  const worker = new Worker('worker.js', { type: 'module' });
  const pending = new Map();
  let next = 1;
  worker.onmessage = (e) => {
    const p = pending.get(e.data.id);
    if (p) {
      pending.delete(e.data.id);
      p(e.data.envelope);
    }
  };
  worker.onerror = (e) => {
    for (const [, p] of pending) p({ ok: false, error: { code: 'worker.failed', path: '', message: `the core could not load: ${e.message || 'worker error'}` } });
    pending.clear();
  };
  return {
    kind: 'worker',
    call(fn, request) {
      return new Promise((resolve) => {
        const id = next++;
        pending.set(id, resolve);
        worker.postMessage({ id, fn, request });
      });
    },
    // File bytes (a Uint8Array) for the calls that read them (gguf).
    callBytes(fn, bytes) {
      return new Promise((resolve) => {
        const id = next++;
        pending.set(id, resolve);
        worker.postMessage({ id, fn, bytes }, [bytes.buffer]);
      });
    },
  };
}

function inlineBackend(factory) {
  const ready = factory();
  return {
    kind: 'inline',
    async call(fn, request) {
      try {
        const module = await ready;
        return JSON.parse(module.call(fn, JSON.stringify(request ?? {})));
      } catch (err) {
        return { ok: false, error: { code: 'core.failed', path: '', message: `the core failed to run: ${err}` } };
      }
    },
    async callBytes(fn, bytes) {
      try {
        const module = await ready;
        return JSON.parse(module.callBytes(fn, bytes));
      } catch (err) {
        return { ok: false, error: { code: 'core.failed', path: '', message: `the core failed to run: ${err}` } };
      }
    },
  };
}
