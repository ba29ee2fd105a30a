// Owns the wasm module: loaded once, answers {id, fn, request} with {id, envelope}. The main thread only renders.
import createInfercast from './infercast.mjs';

const ready = createInfercast();

self.onmessage = async (event) => {
  const { id, fn, request, bytes } = event.data;
  let envelope;
  try {
    const module = await ready;
    envelope = JSON.parse(bytes ? module.callBytes(fn, bytes) : module.call(fn, JSON.stringify(request ?? {})));
  } catch (err) {
    envelope = { ok: false, error: { code: 'worker.failed', path: '', message: `the core failed to run: ${err}` } };
  }
  self.postMessage({ id, envelope });
};
