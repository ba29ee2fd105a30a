// Shared setup for the browser tests: Debian's Chromium driven by playwright-core, the built site served on
// loopback under a sub-path (as on GitHub Pages), every request recorded so tests can assert none leaves.
import fs from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const artifacts = path.join(root, 'test-results');
fs.mkdirSync(artifacts, { recursive: true });

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launch() {
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  return chromium.launch({ executablePath, args: ARGS, headless: true });
}

export async function startServer() {
  const server = await serve(path.join(root, 'dist/site'), 0, '127.0.0.1', '/infercast/');
  const { port } = server.address();
  return { server, base: `http://127.0.0.1:${port}/infercast/` };
}

// A page that records console errors and every request's URL. `setup(context)`, when given, runs before the page
// opens (routes that hold a response back, init scripts); `waitUntil` is when the navigation counts as done
// (Playwright's: 'commit' for a page whose script is held back).
export async function openPage(browser, url, setup = null, waitUntil = 'load') {
  const context = await browser.newContext({ viewport: { width: 1360, height: 1000 }, acceptDownloads: true });
  if (setup) await setup(context);
  const page = await context.newPage();
  const consoleErrors = [];
  const requests = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url, { waitUntil });
  return { page, context, consoleErrors, requests };
}

// Waits until the core has rendered the analysis of the latest change: the status line says "Analyzed in" for the
// change the results were last asked for (each change's update() numbers it; the status keeps the last analysis's
// text until the next one lands, and a test that read it alone raced the new numbers), and the link follows them
// (the page writes it once idle: data-link="pending" until then). The analysis built into the page's HTML says
// "Analyzed in advance" before any script has run: only a change the page's script numbered counts.
export async function analyzed(page) {
  await page.waitForFunction(() => {
    const status = document.getElementById('status');
    const results = document.querySelector('section.results');
    return /Analyzed in/.test(status.textContent) && results.dataset.generation !== undefined
      && status.dataset.generation === results.dataset.generation && results.dataset.link === undefined;
  }, null, { timeout: 20000 });
}

// Waits until the latest change's analysis and every chart and table after it (sweep, batching, placements,
// comparison) are in: the results section's aria-busy turns false.
export async function settled(page) {
  await analyzed(page);
  await page.waitForFunction(() => document.querySelector('section.results').getAttribute('aria-busy') === 'false', null, { timeout: 20000 });
}

// Shows a details tab (Charts, Operators, Compare, Quantization, Several devices, Calibrate, Validation, Settings,
// Serving, Design space) as a user would, by clicking it.
// A tab whose content is computed when it shows (the quantization sweep, the batching curve) is waited for: the
// results are busy until its calls are in.
export async function showTab(page, name) {
  await page.click(`#tab-${name}`);
  await page.waitForFunction((n) => !document.getElementById(`panel-${n}`).hidden
    && document.querySelector('section.results').getAttribute('aria-busy') !== 'true', name);
}

export async function cardValue(page, label) {
  return page.evaluate((l) => {
    for (const c of document.querySelectorAll('.card')) if (c.querySelector('.label').textContent === l) return c.querySelector('.value').textContent;
    return null;
  }, label);
}

// Waits until the card with this label shows exactly `text` (a new analysis may still be painting).
export async function cardShows(page, label, text, timeout = 20000) {
  await page.waitForFunction(([l, t]) => {
    for (const c of document.querySelectorAll('.card')) if (c.querySelector('.label').textContent === l) return c.querySelector('.value').textContent === t;
    return false;
  }, [label, text], { timeout });
}

// Registers one browser and one server for a test file; read env.browser and env.base inside tests.
export function withBrowser() {
  const env = {};
  before(async () => {
    env.browser = await launch();
    ({ server: env.server, base: env.base } = await startServer());
  });
  after(async () => {
    await env.browser?.close();
    env.server?.close();
  });
  return env;
}
