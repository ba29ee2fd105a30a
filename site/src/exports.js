// Exports: charts as SVG and PNG, tables as CSV, files saved through a download link.
import { $ } from './ctx.js';
import { plotOf, uplotSvg } from './plots.js';

// A chart's SVG with the page's colours written in (the exported file has no stylesheet).
export function standaloneSvg(id) {
  const svg = $(id).querySelector('svg');
  if (!svg) return null;
  const copy = svg.cloneNode(true);
  const fg = getComputedStyle(document.body).color;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const vb = svg.viewBox.baseVal;
  copy.setAttribute('width', String(vb.width));
  copy.setAttribute('height', String(vb.height));
  copy.setAttribute('style', `background:${getComputedStyle(document.body).backgroundColor};color:${fg}`);
  for (const t of copy.querySelectorAll('text')) if (!t.getAttribute('fill')) t.setAttribute('fill', fg);
  return new XMLSerializer().serializeToString(copy);
}

export function exportSvg(id) {
  const u = plotOf(id);
  const text = u ? uplotSvg(u, getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor) : standaloneSvg(id);
  if (text) download(`infercast-${id}.svg`, 'image/svg+xml', text);
}

// PNG of a chart: an SVG chart drawn at 2x, or the canvas a uPlot or canvas chart draws into.
export async function exportPng(id) {
  const box = $(id);
  const save = (canvas) => canvas.toBlob((blob) => blob && download(`infercast-${id}.png`, 'image/png', blob));
  const svg = standaloneSvg(id);
  if (svg) {
    const img = new Image();
    img.src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width * 2;
    c.height = img.height * 2;
    const ctx = c.getContext('2d');
    ctx.scale(2, 2);
    ctx.drawImage(img, 0, 0);
    URL.revokeObjectURL(img.src);
    save(c);
    return;
  }
  const canvas = box.tagName === 'CANVAS' ? box : box.querySelector('canvas');
  if (!canvas) return;
  const c = document.createElement('canvas');
  c.width = canvas.width;
  c.height = canvas.height;
  const ctx = c.getContext('2d');
  ctx.fillStyle = getComputedStyle(document.body).backgroundColor;
  ctx.fillRect(0, 0, c.width, c.height);
  ctx.drawImage(canvas, 0, 0);
  save(c);
}

// A chart's Export buttons are enabled only while it holds a drawing: before a run (the deployment front, the
// design-space sweep) or with no device, they exported a blank image. A box's drawing is its <svg> or its uPlot's
// canvas (its children, watched); a canvas chart says it is drawn with data-drawn (markDrawn).
const hasDrawing = (box) => (box.tagName === 'CANVAS' ? box.dataset.drawn !== undefined : Boolean(box.querySelector('svg, canvas')));
function syncExports(id) {
  const box = $(id);
  for (const b of document.querySelectorAll(`button[data-svg="${id}"], button[data-png="${id}"]`)) b.disabled = !hasDrawing(box);
}

export function bindExports() {
  for (const id of new Set([...document.querySelectorAll('button[data-svg], button[data-png]')].map((b) => b.dataset.svg || b.dataset.png))) {
    const box = $(id);
    if (box.tagName !== 'CANVAS') new MutationObserver(() => syncExports(id)).observe(box, { childList: true });
    syncExports(id);
  }
}

// A canvas chart drawn (or cleared, `drawn` false): shown in place of its placeholder (style.css), its exports on.
export function markDrawn(canvas, drawn) {
  if (drawn) canvas.dataset.drawn = '';
  else delete canvas.dataset.drawn;
  syncExports(canvas.id);
}

export function download(name, type, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function sweepCsv(v) {
  const keys = ['weights', 'weight_bits', 'kv', 'kv_bits', 'weights_bytes', 'kv_cache_bytes', 'required_bytes', 'fits', 'ttft_s', 'tpot_s', 'tokens_per_s', 'batch_tokens_per_s', 'max_batch', 'max_context', 'decode_bound'];
  return [keys.join(','), ...v.rows.map((r) => keys.map((k) => (r[k] === undefined ? '' : String(r[k]))).join(','))].join('\n') + '\n';
}
