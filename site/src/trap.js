// A failure of the core itself (a WebAssembly trap, memory running out, an exception the core did not catch), as
// opposed to an error the core names: said in words, never as "[object WebAssembly.Exception]". After one the
// module's memory cannot be trusted, so the backend starts a fresh one (backend.js).
export function coreFailure(err) {
  const text = err && typeof err === 'object' && 'message' in err ? String(err.message) : String(err);
  const wasm = typeof WebAssembly !== 'undefined' ? WebAssembly : {};
  if (/OOM|out of memory|Cannot enlarge memory|allocation failed/i.test(text)) return 'the core ran out of memory on this input';
  if (wasm.Exception && err instanceof wasm.Exception) return 'the core stopped on an error it did not handle';
  if (wasm.RuntimeError && err instanceof wasm.RuntimeError) return `the core stopped on this input (${text})`;
  return `the core failed to run (${text})`;
}

// The envelope a call gets when the core failed under it.
export function failureEnvelope(err, restarted) {
  const message = `${coreFailure(err)}${restarted ? '; it was restarted, and nothing else was affected' : ''}`;
  return { ok: false, error: { code: 'core.failed', path: '', message } };
}
