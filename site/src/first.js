// The default scenario's analysis, made when the page was built: scripts/build-site.mjs asks this build's own core
// (the same .wasm the page ships) for the request the page's own request code (request.js) makes from its defaults,
// and builds the reply into the page's script. A first visit then shows numbers as soon as the page's script has
// run, without waiting for the core to download, compile and start in its worker (most of a first load). It is used
// for the page's first analysis only, and only when that request is, byte for byte, the one it was made for (a
// link, a stored device or any other input makes another request, which the core answers as usual).
import BUILT from 'infercast:first';
import { placeColumns } from '../../npm/client.js';

// The envelope for `request` as the worker's core would give it (number columns as Float64Arrays), or null.
export function builtAnswer(request) {
  if (!BUILT || JSON.stringify(request) !== BUILT.request) return null;
  return placeColumns(JSON.parse(BUILT.reply), Float64Array.from(BUILT.columns));
}
