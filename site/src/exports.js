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
