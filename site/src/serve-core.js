// The worker side of the backend: owns one core module and answers {id, fn, request | bytes} with {id, envelope}.
// Shared by the served site's module worker (worker.js) and the offline file's blob worker (worker-offline.js).
export function serveCore(scope, ready) {
  scope.onmessage = async (event) => {
    const { id, fn, request, bytes } = event.data;
    let envelope;
    try {
      const module = await ready;
      envelope = JSON.parse(bytes ? module.callBytes(fn, bytes) : module.call(fn, JSON.stringify(request ?? {})));
    } catch (err) {
      envelope = { ok: false, error: { code: 'worker.failed', path: '', message: `the core failed to run: ${err}` } };
    }
    scope.postMessage({ id, envelope });
  };
}
