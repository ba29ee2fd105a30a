// Builds the static site from the wasm build: dist/site/ (served; ES modules, a module Worker, split .wasm)
// and dist/infercast-offline.html (one file that opens from file://: classic scripts, wasm inlined).
// Usage: node scripts/build-site.mjs [wasm build dir, default build/wasm-release/wasm]
// INFERCAST_NO_MINIFY=1 keeps the scripts' names (to read a profile of the page); the site is minified otherwise.
import { build } from 'esbuild';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const wasmDir = path.resolve(root, process.argv[2] || 'build/wasm-release/wasm');
const out = path.join(root, 'dist', 'site');
for (const f of ['infercast.mjs', 'infercast.wasm', 'infercast-single.js']) {
  if (!fs.existsSync(path.join(wasmDir, f))) {
    console.error(`build-site: ${path.join(wasmDir, f)} is missing; build the wasm-release preset first`);
    process.exit(1);
  }
}
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const css = fs.readFileSync(path.join(root, 'node_modules/uplot/dist/uPlot.min.css'), 'utf8') + '\n' +
  fs.readFileSync(path.join(root, 'site/style.css'), 'utf8');
const html = fs.readFileSync(path.join(root, 'site/index.html'), 'utf8');

// Served build. Every asset but index.html is named by a hash of its content, so a browser or CDN may cache it
// forever and a new deployment is never mixed with an old one: the wasm first, then the worker that names it,
// then the page's script that names the worker.
const hashed = (name, content) => {
  const dot = name.indexOf('.');
  const file = `${name.slice(0, dot)}.${crypto.createHash('sha256').update(content).digest('hex').slice(0, 12)}${name.slice(dot)}`;
  fs.writeFileSync(path.join(out, file), content);
  return file;
};
// The core's ES module lives in the wasm build, not in site/src: the bundler takes it from there.
const coreModule = { name: 'core-module', setup(b) {
  b.onResolve({ filter: /^\.\/infercast\.mjs$/ }, () => ({ path: path.join(wasmDir, 'infercast.mjs') }));
  b.onResolve({ filter: /^infercast:(catalogs|first)$/ }, (a) => ({ path: a.path.slice('infercast:'.length), namespace: 'infercast' }));
  b.onLoad({ filter: /.*/, namespace: 'infercast' }, (a) => ({ contents: a.path === 'first' ? firstModule : catalogModule, loader: 'js' }));
} };
const bundle = async (entry, format, define = {}) => (await build({ entryPoints: [path.join(root, 'site/src', entry)],
  bundle: true, format, minify: process.env.INFERCAST_NO_MINIFY !== '1', write: false, logLevel: 'warning', legalComments: 'none', define,
  plugins: [coreModule] })).outputFiles[0].text;
// The presets and lists the page's controls show, read by the core itself now (its catalog calls, as the page
// would make them at start), and built into the page's script: the page fills its controls without a call.
const { default: createCore } = await import(path.join(wasmDir, 'infercast.mjs'));
const buildCore = await createCore({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'infercast.wasm')) });
const catalogs = {};
const { CATALOGS } = await import(path.join(root, 'site/src/catalog-names.js'));
for (const name of CATALOGS) {
  const env = JSON.parse(buildCore.call(name, '{}'));
  if (!env.ok) throw new Error(`build-site: the core's ${name} call failed: ${env.error.message}`);
  catalogs[name] = env.value;
}
// A module the page imports as 'infercast:catalogs' (JSON.parse of one string reads faster than a literal).
const catalogModule = `export default JSON.parse(${JSON.stringify(JSON.stringify(catalogs))});`;

// The page's first analysis, made now (site/src/first.js): the request is the one the page's own request code makes
// from its defaults (request.js, bundled here for node with the worker backend and the chart library left out: the
// request needs neither), and the reply is this core's, exactly as the worker's callColumns returns it.
const pageRequest = { name: 'page-request', setup(b) {
  b.onResolve({ filter: /^(\.\/backend\.js|uplot)$/ }, (a) => ({ path: a.path, namespace: 'left-out' }));
  b.onLoad({ filter: /.*/, namespace: 'left-out' }, (a) => ({
    contents: a.path === 'uplot' ? 'export default {};' : 'export function createBackend() { return null; }', loader: 'js' }));
} };
const requestCode = (await build({ stdin: { contents: "export { request } from './request.js';", resolveDir: path.join(root, 'site/src'), loader: 'js' },
  bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'warning', plugins: [pageRequest] })).outputFiles[0].text;
let firstRequest;
try {
  const { request: pageDefaultRequest } = await import(`data:text/javascript;base64,${Buffer.from(requestCode).toString('base64')}`);
  // As main.js's update() asks for an analysis.
  firstRequest = JSON.stringify({ ...pageDefaultRequest(), layout: 'columns', echo_requests: true });
} catch (err) {
  throw new Error(`build-site: the page's request code (site/src/request.js and what it imports) could not run under node to make the page's first analysis (${err.message}); keep the DOM out of those modules' top level`);
}
const first = buildCore.callColumns('analyze', new TextEncoder().encode(firstRequest));
if (!JSON.parse(first.text).ok) throw new Error(`build-site: the core refused the page's first request ${firstRequest}: ${first.text}`);
// The columns go into the script as JSON numbers, which carry every finite double exactly (a result has no other).
if (!first.columns.every(Number.isFinite)) throw new Error('build-site: the first analysis has a number that is not finite');
const firstModule = `export default ${JSON.stringify({ request: firstRequest, reply: first.text, columns: Array.from(first.columns) })};`;

// The same analysis built into the page's HTML (site/src/first.js): the answer, its notes, the cards and the status
// line as the page's own code writes them (cards.js, answer.js, result.js, bundled for node like request.js), so a
// first visit paints the numbers before any script has run. Each is marked data-built; a link hides them until the
// page knows its request (the guard below, style.css), and the page's first update takes them away if its request
// is another (first.js, settleBuilt).
const builtCode = (await build({
  stdin: { contents: "export { cardsHtml, publishedLabel } from './cards.js'; export { answerTexts } from './answer.js'; export { readResult } from './result.js';" +
    " export { BUILT_STATUS, builtAnswer } from './first.js'; export { DEFAULTS } from './ctx.js'; export { inputNotes } from './notes.js';" +
    " export { hardwareLabel, modelLabel } from './lists.js'; export { usualRuntimeText } from './runtimes.js';",
  resolveDir: path.join(root, 'site/src'), loader: 'js' },
  bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'warning', plugins: [pageRequest, coreModule] })).outputFiles[0].text;
const page = await import(`data:text/javascript;base64,${Buffer.from(builtCode).toString('base64')}`);
const escapeHtml = (t) => String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
// The envelope as the page's first update gets it (first.js builtAnswer, for the page's own first request).
const builtResult = page.readResult(page.builtAnswer(JSON.parse(firstRequest)).value);
const builtAnswerText = page.answerTexts(builtResult, page.DEFAULTS.weights);
// The inputs as the page's script fills them for its defaults (the selects' chosen options, the runtime's field,
// the lines under the model and the device), so that filling them moves nothing: empty at first paint, they grew
// the inputs by 175 px on a phone and pushed the cards down when the script ran. Only the chosen option is written
// (the script fills the lists); a link hides them until then, as it hides the numbers.
const notes = page.inputNotes(builtResult);
const defaultModel = catalogs.models.find((m) => m.id === page.DEFAULTS.model);
const defaultDevice = catalogs.hardware.find((h) => h.id === page.DEFAULTS.hardware);
const usualRuntime = (catalogs.runtimes.find((rt) => rt.id === defaultDevice.default_runtime) || {}).name || '';
const chosen = (value, text) => `<option value="${escapeHtml(value)}" selected>${escapeHtml(text)}</option>`;
const helpBuilt = (id, text, title) => [`<p id="${id}" class="help"></p>`,
  `<p id="${id}" class="help" data-built${title ? ` title="${escapeHtml(title)}"` : ''}>${escapeHtml(text)}</p>`];
// index.html's elements, each replaced once (a missing one is an error: the page changed under this script).
const BUILT_INTO = [
  ['<select id="model"></select>', `<select id="model" data-built>${chosen(defaultModel.id, page.modelLabel(defaultModel))}</select>`],
  ['<select id="hardware"></select>', `<select id="hardware" data-built>${chosen(defaultDevice.id, page.hardwareLabel(defaultDevice))}</select>`],
  ['<div id="runtime-field" hidden>', '<div id="runtime-field">'],
  ['<select id="runtime" disabled></select>', `<select id="runtime" data-built>${chosen('', page.usualRuntimeText(usualRuntime))}</select>`],
  ['<select id="weights"></select>', `<select id="weights" data-built>${chosen('declared', page.publishedLabel(builtResult.workload.precision, true))}</select>`],
  ['<select id="kv"></select>', `<select id="kv" data-built>${chosen(page.DEFAULTS.kv, page.DEFAULTS.kv)}</select>`],
  helpBuilt('model-info', notes.modelInfo, notes.modelTitle),
  helpBuilt('hardware-info', notes.hardwareInfo),
  helpBuilt('reserve-help', notes.reserveHelp, notes.reserveBasis),
  helpBuilt('memfrac-help', notes.memfracHelp),
  ['<p id="status" class="status" role="status" aria-live="polite">Loading the core...</p>',
    `<p id="status" class="status" role="status" aria-live="polite" data-built data-loading="Loading the core...">${escapeHtml(page.BUILT_STATUS)}</p>`],
  ['<p id="answer" class="answer" tabindex="-1" aria-live="polite">Loading the core...</p>',
    `<p id="answer" class="answer${builtAnswerText.fits ? '' : ' no'}" tabindex="-1" aria-live="polite" data-built data-loading="Loading the core...">${escapeHtml(builtAnswerText.sentence)}</p>`],
  ['<p id="answer-notes" class="answer-notes"></p>', `<p id="answer-notes" class="answer-notes" data-built>${escapeHtml(builtAnswerText.notes)}</p>`],
  ['<div id="cards" class="cards"></div>', `<div id="cards" class="cards" data-built>${page.cardsHtml(builtResult, escapeHtml)}</div>`],
];
const withBuilt = (text) => BUILT_INTO.reduce((t, [from, to]) => {
  if (!t.includes(from)) throw new Error(`build-site: site/index.html has no ${from} to build the first analysis into`);
  return t.replace(from, () => to);
}, text);
// Marks the page "linked" before the body is parsed when the address holds a link (style.css hides the built
// numbers then): run inline, allowed by its hash in the served page's policy.
const GUARD = "if (location.hash.length > 1) document.documentElement.classList.add('linked');";
const guardHash = `'sha256-${crypto.createHash('sha256').update(GUARD).digest('base64')}'`;

const wasmFile = hashed('infercast.wasm', fs.readFileSync(path.join(wasmDir, 'infercast.wasm')));
const workerFile = hashed('worker.js', await bundle('worker.js', 'esm', { __WASM_FILE__: JSON.stringify(wasmFile) }));
const appFile = hashed('app.js', await bundle('main.js', 'esm',
  { __WORKER_URL__: JSON.stringify(workerFile), __WASM_URL__: JSON.stringify(wasmFile) }));
const cssFile = hashed('style.css', css);
const csp = `default-src 'self'; script-src 'self' ${guardHash} 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; ` +
  "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'none'";
fs.writeFileSync(path.join(out, 'index.html'), withBuilt(html)
  .replace('<!--CSP-->', `<meta http-equiv="Content-Security-Policy" content="${csp}">\n<script>${GUARD}</script>`)
  .replace('<!--STYLE-->', `<link rel="stylesheet" href="${cssFile}">`)
  .replace('<!--SCRIPTS-->', `<link rel="preload" href="${wasmFile}" as="fetch" type="application/wasm" crossorigin>\n` +
    `<script type="module" src="${appFile}"></script>`));
fs.writeFileSync(path.join(out, '.nojekyll'), '');

// Offline single file: the page's script as a classic script, and the core with its worker side as text that the
// page turns into a blob worker (script elements of an unknown type are never run).
const inline = (js) => js.replace(/<\/script/gi, '<\\/script');
const offlineCsp = "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; worker-src blob:; connect-src data:; style-src 'unsafe-inline'; img-src data: blob:";
const single = fs.readFileSync(path.join(wasmDir, 'infercast-single.js'), 'utf8');
const serve = await bundle('worker-offline.js', 'iife');
const app = await bundle('main.js', 'iife');
fs.writeFileSync(path.join(root, 'dist', 'infercast-offline.html'), withBuilt(html)
  .replace('<!--CSP-->', `<meta http-equiv="Content-Security-Policy" content="${offlineCsp}">\n<script>${GUARD}</script>`)
  .replace('<!--STYLE-->', () => `<style>${css}</style>`)
  .replace('<!--SCRIPTS-->', () => `<script type="text/x-infercast-core" id="infercast-core">${inline(single)}</script>\n` +
    `<script type="text/x-infercast-core" id="infercast-serve">${inline(serve)}</script>\n<script>${inline(app)}</script>`));
fs.copyFileSync(path.join(root, 'dist', 'infercast-offline.html'), path.join(out, 'infercast-offline.html'));
// Every served file also compressed (brotli and gzip at their highest levels), for servers that send a file's
// precompressed form (scripts/serve.mjs does; nginx gzip_static/brotli_static, Caddy precompressed): a browser
// downloads the .br (or .gz) of each.
let raw = 0, br = 0, gz = 0;
for (const f of fs.readdirSync(out)) {
  const full = path.join(out, f);
  if (!fs.statSync(full).isFile() || f.startsWith('.')) continue;
  const data = fs.readFileSync(full);
  const b = zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
  const g = zlib.gzipSync(data, { level: 9 });
  fs.writeFileSync(`${full}.br`, b);
  fs.writeFileSync(`${full}.gz`, g);
  if (f !== 'infercast-offline.html') {
    raw += data.length;
    br += b.length;
    gz += g.length;
  }
}
const size = (f) => `${(fs.statSync(f).size / 1024).toFixed(0)} KiB`;
console.log(`build-site: dist/site (${appFile} ${size(path.join(out, appFile))}, ${wasmFile} ${size(path.join(out, wasmFile))}), ` +
  `dist/infercast-offline.html (${size(path.join(root, 'dist', 'infercast-offline.html'))}); the served page: ` +
  `${(raw / 1024).toFixed(0)} KiB, ${(br / 1024).toFixed(0)} KiB brotli, ${(gz / 1024).toFixed(0)} KiB gzip`);
