// How fast the page answers in Chromium (issue 24): first numbers after navigation, input to painted numbers and
// to everything settled, the assets' compressed size, and a million-point sweep on one worker and on two (the
// same front from both). The figures go to test-results/perf.json. The budgets of the issue (numbers within 16 ms
// at p90, settled within 50 ms, first numbers within 300 ms, 5 million points per second per core, two workers
// 1.8x one) are asserted when INFERCAST_PERF_STRICT=1, on a machine with cores to spare; on a shared machine the
// test checks what does not depend on load and reports the rest.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { analyzed, artifacts, openPage, root, settled, showTab, withBrowser } from './helpers.mjs';

const env = withBrowser();
const strict = process.env.INFERCAST_PERF_STRICT === '1';
const figures = {};
const record = (k, v) => {
  figures[k] = v;
  fs.writeFileSync(path.join(artifacts, 'perf.json'), `${JSON.stringify(figures, null, 2)}\n`);
};
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

// Records, from before the page's own scripts run, when the cards first show numbers and when they are painted.
// The paint is the Element Timing API's: the page marks each card's value (elementtiming="numbers", in the HTML for
// the numbers built into it, cards.js for its own) and the browser reports when a marked text was first painted
// (renderTime); the first report counts. A task queued after the first numbers' frame (its animation callback, then
// a timer) gives another figure, kept beside it: on a first visit it can wait behind the core's compile on the
// page's thread, or come before the frame is presented. The budget is checked on the paint.
const WATCH = () => {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.identifier === 'numbers' && window.__renderAt === undefined) window.__renderAt = e.renderTime || e.loadTime;
  }).observe({ type: 'element', buffered: true });
  // When the page's script has taken the first analysis over (its first update numbers the results section).
  new MutationObserver((_, obs) => {
    if (document.querySelector('section.results')?.dataset.generation === undefined) return;
    window.__updateAt = performance.now();
    obs.disconnect();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-generation'] });
  new MutationObserver((_, obs) => {
    if (![...document.querySelectorAll('#cards .card .value')].some((v) => v.textContent)) return;
    window.__numbersAt = performance.now();
    requestAnimationFrame(() => setTimeout(() => { window.__paintedAt = performance.now(); }, 0));
    obs.disconnect();
  }).observe(document, { subtree: true, childList: true, characterData: true });
};

test('first numbers after navigation; every served asset has its brotli and gzip forms', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1360, height: 1000 } });
  await context.addInitScript(WATCH);
  const page = await context.newPage();
  const bytes = { raw: 0, encoded: 0 };
  let first = true;  // later navigations take the hashed assets from the cache
  page.on('response', async (r) => {
    const h = await r.allHeaders();
    if (!r.url().startsWith(env.base) || !first) return;
    const body = await r.body().catch(() => null);
    if (body) bytes.raw += body.length;
    bytes.encoded += Number(h['content-length'] || 0);
    if (/\.(js|wasm|css|html)$/.test(new URL(r.url()).pathname) || r.url().endsWith('/')) assert.ok(['br', 'gzip'].includes(h['content-encoding']), `${r.url()} ${h['content-encoding']}`);
  });
  const runs = [];
  const after = [];
  const updated = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(env.base);
    await analyzed(page);
    await page.waitForFunction(() => window.__paintedAt !== undefined && window.__renderAt !== undefined);
    const t = await page.evaluate(() => ({ render: window.__renderAt, after: window.__paintedAt, dom: window.__numbersAt, update: window.__updateAt }));
    // The paint comes after the numbers are in the page.
    assert.ok(t.render >= t.dom, JSON.stringify(t));
    runs.push(t.render);
    after.push(t.after);
    updated.push(t.update);
    first = false;
  }
  record('first_numbers_painted_ms', { cold: Math.round(runs[0]), warm: runs.slice(1).map((x) => Math.round(x)) });
  record('first_numbers_task_after_paint_ms', { cold: Math.round(after[0]), warm: after.slice(1).map((x) => Math.round(x)) });
  // The page's script started and took the numbers over (they are the built ones until then; a change waits for it).
  record('page_script_took_over_ms', { cold: Math.round(updated[0]), warm: updated.slice(1).map((x) => Math.round(x)) });
  record('downloaded_kib', { encoded: Math.round(bytes.encoded / 1024), decoded: Math.round(bytes.raw / 1024) });
  const sizes = {};
  for (const f of fs.readdirSync(path.join(root, 'dist/site'))) {
    if (f.endsWith('.br') || f.endsWith('.gz') || f.startsWith('.') || f === 'infercast-offline.html') continue;
    const full = path.join(root, 'dist/site', f);
    assert.ok(fs.existsSync(`${full}.br`) && fs.existsSync(`${full}.gz`), f);
    for (const [k, ext] of [['raw', ''], ['br', '.br'], ['gz', '.gz']]) sizes[k] = (sizes[k] || 0) + fs.statSync(full + ext).size;
  }
  record('served_kib', Object.fromEntries(Object.entries(sizes).map(([k, v]) => [k, Math.round(v / 1024)])));
  if (strict) assert.ok(Math.min(...runs) <= 300, `first numbers after ${runs} ms`);
  await context.close();
});

test('input to painted numbers, and to everything settled', async () => {
  const { page, context, consoleErrors } = await openPage(env.browser, env.base);
  await settled(page);
  // A first visit shows the numbers made when the page was built (site/src/first.js) while the core still loads in
  // its worker: the first change waits for it. Recorded on its own; the figures below are for the changes after it.
  const t0 = await page.evaluate(() => performance.now());
  await page.fill('#batch', '9');
  await settled(page);
  record('first_change_after_load_ms', Math.round(await page.evaluate((t) => performance.now() - t, t0)));
  const trials = await page.evaluate(async () => {
    const out = [];
    const tpot = () => [...document.querySelectorAll('.card')].find((c) => c.querySelector('.label').textContent === 'Time per output token')?.querySelector('.value').textContent;
    const busy = () => document.querySelector('section.results').getAttribute('aria-busy') === 'true';
    for (let i = 0; i < 24; i++) {
      const before = tpot();
      // When the new numbers are in the page (a mutation record, before any frame paints them).
      let inPage = -1;
      const watch = new MutationObserver(() => { if (inPage < 0 && tpot() !== before) inPage = performance.now(); });
      watch.observe(document.getElementById('cards'), { subtree: true, childList: true, characterData: true });
      const input = document.getElementById('batch');
      input.value = String(i % 2 ? 1 : 2 + (i % 5));
      const t0 = performance.now();
      input.dispatchEvent(new Event('input', { bubbles: true }));
      // The new numbers are painted with the first frame whose animation callbacks see them (the task queued
      // in that callback runs after its paint); seen outside a frame, with the next one. (Waiting for a second
      // frame after the one that showed them measured a frame too many: at least 16.7 ms on top.)
      await new Promise((resolve) => {
        const check = (inFrame) => {
          if (tpot() === before) requestAnimationFrame(() => check(true));
          else if (inFrame) setTimeout(resolve, 0);
          else requestAnimationFrame(() => setTimeout(resolve, 0));
        };
        check(false);
      });
      const painted = performance.now() - t0;
      watch.disconnect();
      await new Promise((resolve) => {
        const check = () => (!busy() ? resolve() : setTimeout(check, 1));
        check();
      });
      out.push({ inPage: inPage - t0, painted, settled: performance.now() - t0 });
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    return out;
  });
  const painted = trials.map((t) => t.painted), done = trials.map((t) => t.settled), inPage = trials.map((t) => t.inPage);
  assert.ok(inPage.every((x, i) => x > 0 && x <= painted[i]), JSON.stringify(trials));
  // In the page before they are painted: the painted figure adds the wait for the display's next frame (up to 16.7
  // ms at 60 Hz, wherever the input fell in the frame) and that frame's own work (docs/architecture.md).
  record('input_to_numbers_in_page_ms', { p50: +pct(inPage, 0.5).toFixed(1), p90: +pct(inPage, 0.9).toFixed(1), max: +Math.max(...inPage).toFixed(1) });
  record('input_to_painted_ms', { p50: +pct(painted, 0.5).toFixed(1), p90: +pct(painted, 0.9).toFixed(1), max: +Math.max(...painted).toFixed(1) });
  record('input_to_settled_ms', { p50: +pct(done, 0.5).toFixed(1), p90: +pct(done, 0.9).toFixed(1) });
  assert.ok(pct(painted, 0.9) < 1000, `numbers painted ${pct(painted, 0.9)} ms after the input at p90`);
  if (strict) {
    assert.ok(pct(painted, 0.9) <= 16, `numbers painted ${pct(painted, 0.9)} ms after the input at p90`);
    assert.ok(pct(done, 0.9) <= 50, `settled ${pct(done, 0.9)} ms after the input at p90`);
  }
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

// The page's default sweep (a million points) with the workers the machine's cores allow, forced to 1 and to 2.
async function sweep(workers) {
  const context = await env.browser.newContext({ viewport: { width: 1360, height: 1000 } });
  await context.addInitScript((n) => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n }), workers);
  const page = await context.newPage();
  await page.goto(env.base);
  await settled(page);
  await showTab(page, 'dse');  // the design space has its own tab
  const runs = [];
  let front;
  for (let i = 0; i < 3; i++) {
    await page.evaluate(() => { document.getElementById('dse-status').textContent = ''; });
    const t0 = await page.evaluate(() => performance.now());
    await page.click('#dse-run');
    await page.waitForFunction(() => /points in/.test(document.getElementById('dse-status').textContent), null, { timeout: 60000 });
    const status = await page.textContent('#dse-status');
    const drawn = await page.evaluate(() => performance.now());
    const [, points, ms] = /^([\d,]+) points in (\d+) ms/.exec(status);
    runs.push({ points: Number(points.replace(/,/g, '')), ms: Number(ms), clickToFront: drawn - t0 });
    front = await page.evaluate(() => [...document.querySelectorAll('#dse-front tbody tr')].map((r) => r.textContent));
  }
  await context.close();
  const best = runs.reduce((a, b) => (a.ms <= b.ms ? a : b));
  return { ...best, front };
}

test('a million-point sweep on one worker and on two: the same front, and the speed-up', async () => {
  const one = await sweep(1);
  const two = await sweep(2);
  assert.ok(one.points >= 1e6);
  assert.deepEqual(two.front, one.front);
  const perCore = one.points / one.ms / 1e3;
  record('sweep', {
    points: one.points,
    one_worker: { ms: one.ms, Mpt_per_s: +perCore.toFixed(2), click_to_front_ms: Math.round(one.clickToFront) },
    two_workers: { ms: two.ms, Mpt_per_s: +(two.points / two.ms / 1e3).toFixed(2), click_to_front_ms: Math.round(two.clickToFront) },
    speedup: +(one.ms / two.ms).toFixed(2),
  });
  if (strict) {
    assert.ok(perCore >= 5, `${perCore} million points per second on one worker`);
    assert.ok(one.ms / two.ms >= 1.8, `two workers ${one.ms / two.ms}x one`);
  }
});
