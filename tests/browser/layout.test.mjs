// Layout on a phone and on a laptop, in light and dark (the findings of a layout audit): the canvas charts' text is
// read from the drawing calls themselves (every fillText with its transform, alignment, font and colour), so a tick
// label cut at the canvas edge, a title run over by tick labels, rotated names that collide, a legend off the
// canvas or text the colour of the background fails here, not only on a screenshot.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { artifacts, openPage, settled, showTab, withBrowser } from './helpers.mjs';

const env = withBrowser();

// Records, per canvas, the text drawn since it was last cleared whole: each string with the corners of its box
// (canvas pixels, through the transform it was drawn with) and its colour.
function recordCanvasText() {
  const proto = CanvasRenderingContext2D.prototype;
  const fill = proto.fillText;
  const clear = proto.clearRect;
  proto.clearRect = function clearRect(x, y, w, h) {
    if (x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height) this.canvas.__texts = [];
    return clear.call(this, x, y, w, h);
  };
  proto.fillText = function fillText(t, x, y) {
    const text = String(t);
    if (text.trim()) {
      const m = this.getTransform();
      const w = this.measureText(text).width;
      const h = Number(/(\d+(?:\.\d+)?)px/.exec(this.font)?.[1] || 10);
      const x0 = this.textAlign === 'right' || this.textAlign === 'end' ? x - w : this.textAlign === 'center' ? x - w / 2 : x;
      const y0 = this.textBaseline === 'top' || this.textBaseline === 'hanging' ? y : this.textBaseline === 'middle' ? y - h / 2 : y - h * 0.8;
      const corners = [[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]].map(([px, py]) => [m.a * px + m.c * py + m.e, m.b * px + m.d * py + m.f]);
      (this.canvas.__texts ||= []).push({ text, corners, color: String(this.fillStyle) });
    }
    return fill.call(this, t, x, y);
  };
}

// The text on the canvases under `selector`, with the canvas's size in canvas pixels.
const canvasTexts = (page, selector) => page.$$eval(`${selector} canvas`, (cs) => cs.map((c) => ({ width: c.width, height: c.height, texts: c.__texts || [] })));

// Whether two convex quadrilaterals overlap by more than `slack` pixels (separating axes).
function overlap(p, q, slack = 1) {
  for (const poly of [p, q]) {
    for (let i = 0; i < 4; i++) {
      const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % 4];
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const nx = -(y2 - y1) / len, ny = (x2 - x1) / len;
      const proj = (pts) => pts.map(([x, y]) => x * nx + y * ny);
      const a = proj(p), b = proj(q);
      if (Math.max(...a) - slack <= Math.min(...b) || Math.max(...b) - slack <= Math.min(...a)) return false;
    }
  }
  return true;
}

// Every text inside its canvas, no two overlapping.
function assertLegible(chart, what) {
  for (const c of chart) {
    for (const t of c.texts) {
      for (const [x, y] of t.corners) {
        assert.ok(x >= -1 && x <= c.width + 1 && y >= -1 && y <= c.height + 1, `${what}: "${t.text}" leaves the canvas (${Math.round(x)}, ${Math.round(y)} of ${c.width}x${c.height})`);
      }
    }
    for (let i = 0; i < c.texts.length; i++) {
      for (let j = i + 1; j < c.texts.length; j++) {
        assert.ok(!overlap(c.texts[i].corners, c.texts[j].corners), `${what}: "${c.texts[i].text}" overlaps "${c.texts[j].text}"`);
      }
    }
  }
}

test('at 360 px the uPlot charts keep their tick labels whole, names apart and no "--" legend values', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, `${env.base}#model=deepseek-v3&hardware=nvidia-h200-sxm&system=2x-hgx-h200-ib`,
    async (ctx) => ctx.addInitScript(recordCanvasText));
  await page.setViewportSize({ width: 360, height: 780 });
  await settled(page);
  // The batching chart: 12,500 tokens/s and more on its y axis, which read "2,500" under the axis title.
  await showTab(page, 'multi');
  await page.waitForFunction(() => document.querySelector('#batching canvas')?.__texts?.some((t) => /^1\d,\d{3}$/.test(t.text)));
  assertLegible(await canvasTexts(page, '#batching'), 'batching');
  await page.locator('#batching').screenshot({ path: path.join(artifacts, 'layout-batching-360.png') });
  // The quantization sweep: ten formats named on a 360 px chart, two y axes, the x axis's title whole.
  await page.goto(`${env.base}#model=llama-3.1-8b&hardware=nvidia-h100-sxm`);
  await settled(page);
  await showTab(page, 'quant');
  await page.waitForFunction(() => document.querySelector('#quant-sweep canvas')?.__texts?.some((t) => /^weight format/.test(t.text)));
  assertLegible(await canvasTexts(page, '#quant-sweep'), 'quantization sweep');
  await showTab(page, 'charts');
  await page.waitForFunction(() => document.querySelector('#timeline canvas')?.__texts?.length > 0);
  assertLegible(await canvasTexts(page, '#timeline'), 'timeline');
  // No live legend: its values read "--" until a pointer is over the plot, and a phone has none.
  for (const id of ['timeline', 'quant-sweep', 'batching']) {
    assert.deepEqual(await page.$$eval(`#${id} .u-legend .u-value`, (vs) => vs.map((v) => v.textContent)), [], id);
  }
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
