// Owns the wasm module: loaded once, answers {id, fn, request | bytes} with {id, envelope}. The main thread only
// renders. When the core itself fails (a trap, memory running out), the reply says so in words and carries
// `fatal`: the module's state cannot be trusted after that, so the backend replaces this worker (backend.js).
import createInfercast from './infercast.mjs';
import { failureEnvelope } from './trap.js';

const ready = createInfercast();

self.onmessage = async (event) => {
  const { id, fn, request, bytes } = event.data;
  let module;
  try {
    module = await ready;
  } catch (err) {
    self.postMessage({ id, envelope: { ok: false, error: { code: 'core.failed', path: '', message: `the core could not load (${err && err.message ? err.message : err})` } } });
    return;
  }
  try {
    const text = bytes ? module.callBytes(fn, bytes) : module.call(fn, JSON.stringify(request ?? {}));
    self.postMessage({ id, envelope: JSON.parse(text) });
  } catch (err) {
    self.postMessage({ id, envelope: failureEnvelope(err, true), fatal: true });
  }
};
