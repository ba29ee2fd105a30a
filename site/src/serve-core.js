// The worker side of the backend: owns one core module and answers {id, fn, request | bytes} with {id, envelope}
// (the npm package's envelope protocol, npm/client.js). Shared by the served site's module worker (worker.js) and
// the offline file's blob worker (worker-offline.js). When the core itself fails (a trap, memory running out), the
// reply says so in words and carries `fatal`: the module's state cannot be trusted after that, so the backend
// replaces this worker (backend.js).
import { failureEnvelope } from './trap.js';

export function serveCore(scope, ready) {
  scope.onmessage = async (event) => {
    const { id, fn, request, bytes } = event.data;
    let module;
    try {
      module = await ready;
    } catch (err) {
      scope.postMessage({ id, envelope: { ok: false, error: { code: 'core.failed', path: '', message: `the core could not load (${err && err.message ? err.message : err})` } } });
      return;
    }
    try {
      const text = bytes ? module.callBytes(fn, bytes) : module.call(fn, JSON.stringify(request ?? {}));
      scope.postMessage({ id, envelope: JSON.parse(text) });
    } catch (err) {
      scope.postMessage({ id, envelope: failureEnvelope(err, true), fatal: true });
    }
  };
}
