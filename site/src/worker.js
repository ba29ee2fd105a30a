// The served site's worker: loads the core once; the main thread only renders. The build bundles the core's ES
// module in and names the hashed .wasm file (__WASM_FILE__). The page posts the module it compiled; without one,
// the worker fetches and compiles the file itself.
import createInfercast from './infercast.mjs';
import { serveCore } from './serve-core.js';

/* global __WASM_FILE__ */
const wasmFile = typeof __WASM_FILE__ === 'string' ? __WASM_FILE__ : 'infercast.wasm';
serveCore(self, (compiled) => createInfercast(compiled
  ? { instantiateWasm: (imports, done) => { WebAssembly.instantiate(compiled, imports).then((instance) => done(instance, compiled)); return {}; } }
  : { locateFile: (p) => (p === 'infercast.wasm' ? wasmFile : p) }));
