// The worker side of the backend: owns one core module and answers {id, fn, request | bytes, columns} with
// {id, envelope}. Shared by the served site's module worker (worker.js) and the offline file's blob worker
// (worker-offline.js). The envelope protocol is the npm package's (npm/client.js), the same code users import.
//
// The page first posts {init: module}: the wasm compiled once on the main thread (null: load it here). `make`
// instantiates the core from it. Before the first call is answered the core is warmed up: a first analysis compiles
// the code it runs (the core reads each preset the first time it is asked for, core/io/presets.cpp); a few more,
// run while the worker is idle, get the hot code optimized, so the user's first analyses pay for neither.
//
// When the core itself fails (a trap, memory running out), the reply says so in words and carries `fatal`: the
// module's state cannot be trusted after that, so the backend replaces this worker (backend.js), and nothing more
// runs here (the warm-up stops too).
import { moduleTransport } from '../../npm/client.js';
import { failureEnvelope } from './trap.js';

const WARM = { model: 'llama-3.1-8b', hardware: 'nvidia-h100-sxm', layout: 'columns' };

// Every ArrayBuffer under a value (the columns of one reply share one), to transfer rather than copy.
function buffers(v, out = new Set()) {
  if (ArrayBuffer.isView(v)) out.add(v.buffer);
  else if (v && typeof v === 'object') for (const k in v) buffers(v[k], out);
  return out;
}

export function serveCore(scope, make) {
  let init;
  let failed = false;
  const given = new Promise((resolve) => { init = resolve; });
  // A throw from inside the module is not turned into an envelope here: it is a failure of the core (below).
  const transport = given.then(make).then((module) => {
    const t = moduleTransport(module, (err) => { throw err; });
    t.envelopeColumns('analyze', WARM);  // the first run of the code
    // A few more analyses while the worker is idle let the engine compile the hot code optimized; a call that
    // arrives goes first (each of these is a task of its own, a few milliseconds).
    let left = 10;
    const more = () => {
      if (failed || left-- <= 0) return;
      try {
        t.envelopeColumns('analyze', WARM);
      } catch {
        return;  // the next call finds out, and says so
      }
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
    let t;
    try {
      t = await transport;
    } catch (err) {
      scope.postMessage({ id, envelope: { ok: false, error: { code: 'core.failed', path: '', message: `the core could not load (${err && err.message ? err.message : err})` } } });
      return;
    }
    let envelope;
    try {
      envelope = bytes ? t.envelopeBytes(fn, bytes) : columns ? t.envelopeColumns(fn, request) : t.envelope(fn, request);
    } catch (err) {
      failed = true;
      scope.postMessage({ id, envelope: failureEnvelope(err, true), fatal: true });
      return;
    }
    scope.postMessage({ id, envelope }, columns ? [...buffers(envelope.value)] : []);
  };
}
