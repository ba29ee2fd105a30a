// The worker side of the backend: owns one core module and answers {id, fn, request | bytes} with {id, envelope}.
// Shared by the served site's module worker (worker.js) and the offline file's blob worker (worker-offline.js).
// The envelope protocol is the npm package's (npm/client.js), the same code users import.
import { moduleTransport } from '../../npm/client.js';

export function serveCore(scope, ready) {
  const transport = ready.then(moduleTransport);
  scope.onmessage = async (event) => {
    const { id, fn, request, bytes } = event.data;
    let envelope;
    try {
      const t = await transport;
      envelope = bytes ? t.envelopeBytes(fn, bytes) : t.envelope(fn, request);
    } catch (err) {
      envelope = { ok: false, error: { code: 'worker.failed', path: '', message: `the core failed to load: ${err}` } };
    }
    scope.postMessage({ id, envelope });
  };
}
