// The npm package's entry: `const core = await load()` loads the WebAssembly core (in node, a browser or a worker)
// and returns a client with one method per function of the core: `core.analyze(request)` returns the result or
// throws InfercastError {code, path, message}. Every call runs synchronously in this thread; in a page, call it
// from a Worker for long calls (a design-space sweep), as the Infercast site does.
import createInfercast from './infercast.mjs';
import { createClient, moduleTransport, unwrap } from './client.js';

export { InfercastError, createClient, moduleTransport, connect, unwrap, placeColumns, rows } from './client.js';

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

// A string with a scheme ("https:", "file:"; not a Windows drive letter, "C:\\...") is a URL; in node any other
// string is a path of the file system, relative to the working directory (as fs reads it).
const hasScheme = (s) => /^[a-z][a-z0-9+.-]+:/i.test(s);

// options.wasmBinary: the module's bytes (an ArrayBuffer or Uint8Array), when you fetch them yourself;
// options.wasmUrl: where infercast.wasm is (default: beside this file): a URL, or in node a file path too.
export async function load(options = {}) {
  let url = options.wasmUrl ?? new URL('./infercast.wasm', import.meta.url);
  const settings = {};
  if (isNode && typeof url === 'string' && !hasScheme(url)) {
    const [{ pathToFileURL }, { resolve }] = await Promise.all([import('node:url'), import('node:path')]);
    url = pathToFileURL(resolve(url));
  }
  if (options.wasmBinary) {
    settings.wasmBinary = options.wasmBinary;
  } else if (isNode && String(url).startsWith('file:')) {
    // The module is built for the web; in node it is given its bytes (no fetch of file: URLs).
    const { readFile } = await import('node:fs/promises');
    settings.wasmBinary = await readFile(new URL(url));
  } else {
    settings.locateFile = (p) => (p === 'infercast.wasm' ? String(url) : p);
  }
  const module = await createInfercast(settings);
  const transport = moduleTransport(module);
  return createClient(transport, unwrap(transport.envelope('functions', {})));
}
