// Builds the static site from the wasm build: dist/site/ (served; ES modules, a module Worker, split .wasm)
// and dist/infercast-offline.html (one file that opens from file://: classic scripts, wasm inlined).
// Usage: node scripts/build-site.mjs [wasm build dir, default build/wasm-release/wasm]
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

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

// Served build.
await build({ entryPoints: [path.join(root, 'site/src/main.js')], bundle: true, format: 'esm', minify: true,
  outfile: path.join(out, 'app.js'), logLevel: 'warning', legalComments: 'none' });
// The worker bundles what it imports (trap.js) and loads the wasm module beside it.
await build({ entryPoints: [path.join(root, 'site/src/worker.js')], bundle: true, format: 'esm', minify: true,
  external: ['./infercast.mjs'], outfile: path.join(out, 'worker.js'), logLevel: 'warning', legalComments: 'none' });
fs.copyFileSync(path.join(wasmDir, 'infercast.mjs'), path.join(out, 'infercast.mjs'));
fs.copyFileSync(path.join(wasmDir, 'infercast.wasm'), path.join(out, 'infercast.wasm'));
fs.writeFileSync(path.join(out, 'style.css'), css);
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; " +
  "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'none'";
fs.writeFileSync(path.join(out, 'index.html'), html
  .replace('<!--CSP-->', `<meta http-equiv="Content-Security-Policy" content="${csp}">`)
  .replace('<!--STYLE-->', '<link rel="stylesheet" href="style.css">')
  .replace('<!--SCRIPTS-->', '<script type="module" src="app.js"></script>'));
fs.writeFileSync(path.join(out, '.nojekyll'), '');

// Offline single file.
const app = await build({ entryPoints: [path.join(root, 'site/src/main.js')], bundle: true, format: 'iife', minify: true,
  write: false, logLevel: 'warning', legalComments: 'none' });
const inline = (js) => js.replace(/<\/script/gi, '<\\/script');
const offlineCsp = "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; connect-src data:; style-src 'unsafe-inline'; img-src data: blob:";
const single = fs.readFileSync(path.join(wasmDir, 'infercast-single.js'), 'utf8');
fs.writeFileSync(path.join(root, 'dist', 'infercast-offline.html'), html
  .replace('<!--CSP-->', `<meta http-equiv="Content-Security-Policy" content="${offlineCsp}">`)
  .replace('<!--STYLE-->', () => `<style>${css}</style>`)
  .replace('<!--SCRIPTS-->', () => `<script>${inline(single)}</script>\n<script>${inline(app.outputFiles[0].text)}</script>`));
fs.copyFileSync(path.join(root, 'dist', 'infercast-offline.html'), path.join(out, 'infercast-offline.html'));
const size = (f) => `${(fs.statSync(f).size / 1024).toFixed(0)} KiB`;
console.log(`build-site: dist/site (app.js ${size(path.join(out, 'app.js'))}, infercast.wasm ${size(path.join(out, 'infercast.wasm'))}), ` +
  `dist/infercast-offline.html (${size(path.join(root, 'dist', 'infercast-offline.html'))})`);
