// The default scenario's analysis, made when the page was built: scripts/build-site.mjs asks this build's own core
// (the same .wasm the page ships) for the request the page's own request code (request.js) makes from its defaults,
// and builds the reply into the page's script. A first visit then shows numbers as soon as the page's script has
// run, without waiting for the core to download, compile and start in its worker (most of a first load). It is used
// for the page's first analysis only, and only when that request is, byte for byte, the one it was made for (a
// link, a stored device or any other input makes another request, which the core answers as usual).
// The same analysis is built into the page's HTML too (the answer, its notes, the cards and the status line, marked
// data-built): a first visit paints it before any script runs. A link hides them until the page knows its request
// (index.html's first script marks the page "linked"; style.css).
import BUILT from 'infercast:first';
import { placeColumns } from '../../npm/client.js';

export const BUILT_STATUS = 'Analyzed in advance: these numbers were computed when the page was built, by the same WebAssembly core that answers every change.';

// The envelope for `request` as the worker's core would give it (number columns as Float64Arrays), or null.
export function builtAnswer(request) {
  if (!BUILT || JSON.stringify(request) !== BUILT.request) return null;
  return placeColumns(JSON.parse(BUILT.reply), Float64Array.from(BUILT.columns));
}

// The page's first request is known: the numbers built into its HTML become the page's own when it is the built
// request (its first render fills the same elements with the same text), and are taken away when it is another (a
// link), so they are never shown for inputs they were not made for.
export function settleBuilt(used) {
  for (const el of document.querySelectorAll('[data-built]')) {
    el.removeAttribute('data-built');
    if (used) continue;
    if (el.id === 'cards') el.replaceChildren();
    else el.textContent = el.dataset.loading || '';
  }
}
