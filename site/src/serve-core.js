// The worker side of the backend: owns one core module and answers {id, fn, request | bytes, columns} with
// {id, envelope}. Shared by the served site's module worker (worker.js) and the offline file's blob worker
// (worker-offline.js). The envelope protocol is the npm package's (npm/client.js), the same code users import.
//
// The page first posts {init: module}: the wasm compiled once on the main thread (null: load it here). `make`
// instantiates the core from it. Before the first call is answered the core is warmed up: a first analysis reads
// every preset; a few more, run while the worker is idle, get the hot code optimized, so the user's first analyses
// pay for neither.
import { moduleTransport } from '../../npm/client.js';

const WARM = { model: 'llama-3.1-8b', hardware: 'nvidia-h100-sxm', layout: 'columns' };

// Every ArrayBuffer under a value (the columns of one reply share one), to transfer rather than copy.
function buffers(v, out = new Set()) {
  if (ArrayBuffer.isView(v)) out.add(v.buffer);
  else if (v && typeof v === 'object') for (const k in v) buffers(v[k], out);
  return out;
}

export function serveCore(scope, make) {
  let init;
  const given = new Promise((resolve) => { init = resolve; });
  const transport = given.then(make).then((module) => {
    const t = moduleTransport(module);
    t.envelopeColumns('analyze', WARM);  // reads the presets
    // A few more analyses while the worker is idle let the engine compile the hot code optimized; a call that
    // arrives goes first (each of these is a task of its own, a few milliseconds).
    let left = 10;
    const more = () => {
      if (left-- <= 0) return;
      t.envelopeColumns('analyze', WARM);
      setTimeout(more, 0);
    };
    setTimeout(more, 0);
    return t;
  });
  scope.onmessage = async (event) => {
    if ('init' in event.data) {
      init(event.data.init);
      return;
    }
    const { id, fn, request, bytes, columns } = event.data;
    let envelope;
    try {
      const t = await transport;
      envelope = bytes ? t.envelopeBytes(fn, bytes) : columns ? t.envelopeColumns(fn, request) : t.envelope(fn, request);
    } catch (err) {
      envelope = { ok: false, error: { code: 'worker.failed', path: '', message: `the core failed to load: ${err}` } };
    }
    scope.postMessage({ id, envelope }, columns ? [...buffers(envelope.value)] : []);
  };
}
