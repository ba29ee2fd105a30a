// The page: one state object, kept in the URL; every change asks the core for a fresh analysis and renders it.
// This file only orchestrates: the request (request.js), the cards (cards.js), the charts and tables, the inputs
// (controls.js), files (files.js) and devices (devices.js) live in their own modules.
// User text (model names, config fields, error messages) is only ever set as textContent, never as HTML.
import BUILT from 'infercast:catalogs';
import { renderAnswer } from './answer.js';
import { CATALOGS } from './catalog-names.js';
import { connect } from '../../npm/client.js';
import { publishedClasses, publishedLabel, renderCards } from './cards.js';
import { chartWidth, renderSweep, renderTimeline, whenResized } from './charts.js';
import { entryRequest, parseEntries, renderCompare } from './compare.js';
import { bind, fillChoices, syncInputs } from './controls.js';
import { $, backend, ctx, option, state } from './ctx.js';
import { fillEditor, syncDelete, syncEfficiencies } from './devices.js';
import { buildDseControls } from './dse.js';
import { cancelStaleSweep, redraw, runTcTm, warmSweepWorkers } from './dsepanel.js';
import { setProp, setText } from './dom.js';
import { inputNotes } from './notes.js';
import { renderOps } from './opstable.js';
import { replacePlot } from './plots.js';
import { showTab, whenShown } from './tabs.js';
import { showValidation } from './validation.js';
import { renderBatching, renderPlan } from './parallel.js';
import { clearErrors, customDevice, errorSlot, request, workloadProblem } from './request.js';
import { drawRoofline } from './roofline.js';
import { fillHardware, fillModels } from './lists.js';
import { BUILT_STATUS, builtAnswer, settleBuilt } from './first.js';
import { readResult } from './result.js';
import { cancelStaleServing, initServingPanel } from './serving.js';
import { fillRuntimes, syncRuntime } from './runtimes.js';
import { loadStore, pageStorage, STORE_KEY } from './store.js';
import { keepLinkDeviceApart, readUrl, writeUrl } from './url.js';
import { drawDecomposition, drawMemory, placementRequests, renderPlacements } from './views.js';

const SLOW_STATUS = 'Analyzing the new inputs: the numbers below are for the previous ones until the core answers.';

// A promise that settles after the next frame is painted: what is rendered before it is on screen first.
const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

export async function update() {
  cancelStaleSweep();
  cancelStaleServing();
  const mine = ++ctx.generation;
  // The calls of older inputs that have not started never will; the analysis goes first on its own worker.
  for (const lane of ['main', 'aux', 'aux2']) backend.drop(lane, 'input');
  // The results are busy until the latest change's analysis and every chart after it are in.
  const results = document.querySelector('section.results');
  results.setAttribute('aria-busy', 'true');
  // Which change the status line speaks for: it keeps the last analysis's "Analyzed in" until this one's lands, so
  // whoever waits for this change's numbers (the browser tests) compares the two.
  results.dataset.generation = String(mine);
  // The quantization sweep and the batching curve of the inputs before are stale now (computed where they show).
  ctx.lastSweep = null;
  ctx.lastBatching = null;
  const done = () => {
    ctx.updated = mine;
    settle();
  };
  const t0 = performance.now();
  // Operators and timeline as columns (Float64Arrays, no digits written or parsed); the workload's requests back
  // for the explanations.
  const req = { ...request(), layout: 'columns', echo_requests: true };
  // A list the state holds that does not parse (from a link) is refused here, by item, as the CLI refuses it.
  const problem = workloadProblem();
  // The page's first analysis may be the one made when the page was built (first.js): the same core, the same
  // request.
  const built = mine === 1 && !problem ? builtAnswer(req) : null;
  if (mine === 1) settleBuilt(Boolean(built));
  // A reply that takes a while (the core still loading after a first visit showed numbers made at build time, or a
  // long analysis) leaves the previous numbers on screen: the status line says so until it lands.
  const slow = built || !ctx.lastResult ? null : setTimeout(() => {
    if (mine === ctx.generation) $('status').textContent = SLOW_STATUS;
  }, 150);
  const env = problem ? { ok: false, error: problem } : built || await backend.envelope('analyze', req, { columns: true, tag: 'input' });
  clearTimeout(slow);
  if (mine !== ctx.generation) return;  // a newer request superseded this one
  clearErrors();
  if (!env.ok) {
    writeUrl();  // the link follows the inputs, valid or not
    $(errorSlot(env.error.path)).textContent = env.error.message;
    $('status').textContent = 'The last change could not be analyzed; the results below are from the previous valid input.';
    $('status').dataset.generation = String(mine);
    // The answer never silently shows numbers for inputs that are no longer on screen.
    if (ctx.lastResult) $('answer-notes').textContent = `This answer is for the previous valid input: ${env.error.message}`;
    else $('answer').textContent = `No answer yet: ${env.error.message}`;
    done();
    return;
  }
  const r = env.value;
  // The plan the core picked for a system just chosen becomes the page's own (its fields, the link).
  if (ctx.autoPlan && r.parallel) {
    ctx.autoPlan = false;
    ctx.planByCore = true;
    const { tp, pp, ep, dp } = r.parallel.plan;
    Object.assign(state, { tp, pp, ep, dp });
    for (const id of ['tp', 'pp', 'ep', 'dp']) $(id).value = String(state[id]);
  }
  ctx.lastResult = readResult(r);
  // The numbers first, painted in this frame; the charts and tables after it.
  renderNumbers(r);
  // The Validation tab shown follows the device and runtime analyzed (its own lane: nothing below ends it).
  if (state.tab === 'validation') showValidation();
  await painted();
  if (mine !== ctx.generation) return;
  // The link follows the inputs (the plan the core picked too), written once the page is idle (url.js): replacing
  // it takes milliseconds (history.replaceState), which the reply waited for when it was written while the core
  // worked, and then the charts did.
  writeUrl();
  renderCharts(r);
  // The t_c/t_m map shown follows the model, workload and device analyzed (hidden, it is redrawn when shown).
  if (state.tab === 'dse') runTcTm();
  setText($('status'), built
    ? BUILT_STATUS
    : `Analyzed in ${(performance.now() - t0).toFixed(1)} ms by the WebAssembly core (${backend.kind}).`);
  $('status').dataset.generation = String(mine);
  // The charts and tables that need more calls run on workers of their own right away, the two longest side by
  // side; a newer input drops the ones not started yet. The quantization sweep and the batching curve run only
  // when their tab shows (for a hidden tab, when it is shown: whenShown below).
  await Promise.all([state.tab === 'quant' && updateSweep(mine), state.tab === 'multi' && updateBatching(mine)]);
  await updatePlacements(mine);
  await updateCompare(mine);
  done();
}

// The results are settled (aria-busy false) once the latest change's update() and every call a tab asked for
// since (refresh) are in.
function settle() {
  if (ctx.updated === ctx.generation && ctx.refreshing === 0) document.querySelector('section.results').setAttribute('aria-busy', 'false');
}

// A tab's own calls (the sweep, the batching curve), made when it is shown after the inputs changed.
async function refresh(fn) {
  ctx.refreshing += 1;
  document.querySelector('section.results').setAttribute('aria-busy', 'true');
  try {
    await fn(ctx.generation);
  } finally {
    ctx.refreshing -= 1;
    settle();
  }
}

const AUX = { lane: 'aux', tag: 'input' };
const AUX2 = { lane: 'aux2', tag: 'input' };

// Every placement of weights and KV cache over the tiers of a device that has several.
async function updatePlacements(mine) {
  const r = ctx.lastResult;
  const wanted = r.parallel ? [] : placementRequests(r);
  const results = [];
  for (const placement of wanted) {
    const env = await backend.envelope('analyze', { ...request(), placement }, AUX);
    if (mine !== ctx.generation) return;
    results.push({ placement, env });
  }
  renderPlacements($('placements'), r, results);
  $('memory-note').textContent = !r.hardware ? '' : r.parallel
    ? `One device of the plan: the bar's full width is what one ${r.hardware.name} can hold (its memory less what the driver, the OS and the runtime keep); the Several devices tab lists every stage.`
    : wanted.length
    ? 'Each row pins the weights and the KV cache to a tier first (they spill to the next when it is full); the bars show the current placement: fastest tier first.'
    : `${r.hardware.name} has one memory tier: every byte is read at ${r.hardware.memory_tiers[0].bandwidth_GBps.toLocaleString('en-US')} GB/s.`;
}

// The comparison: the current scenario and each pinned device or model, all recomputed now.
async function updateCompare(mine) {
  const entries = parseEntries(state.cmp);
  const base = request();
  const rows = [{ entry: null, env: { ok: true, value: ctx.lastResult } }];
  for (const entry of entries) {
    const env = await backend.envelope('analyze', entryRequest(base, entry), AUX);
    if (mine !== ctx.generation) return;
    rows.push({ entry, env });
  }
  renderCompare($('compare'), rows, ctx.presets, (entry) => {
    state.cmp = parseEntries(state.cmp).filter((e) => e !== entry).join(',');
    update();
  });
  $('compare-note').textContent = entries.length ? '' : 'Add devices or models to see this scenario side by side with them; ratios are to the current scenario.';
}

// Throughput against latency as the batch grows, on the device or the plan.
async function updateBatching(mine) {
  if (ctx.batchingAsked === mine) return;  // asked already for these inputs (the tab shown meanwhile)
  ctx.batchingAsked = mine;
  if (!state.hardware) {
    ctx.lastBatching = null;
    renderBatching(null, $('batching'), $('batching-note'));
    $('batching-note').textContent = 'Pick a device to see the batching curve.';
    return;
  }
  const env = await backend.envelope('batching', request(), AUX2);
  if (mine !== ctx.generation) return;
  if (!env.ok) {
    ctx.lastBatching = null;
    renderBatching(null, $('batching'), $('batching-note'));
    $('batching-note').textContent = `The batching curve could not run: ${env.error.message}`;
    return;
  }
  ctx.lastBatching = env.value;
  // Drawn only where it shows: a hidden tab is drawn from ctx.lastBatching when it is shown (whenShown).
  if (!$('panel-multi').hidden) renderBatching(env.value, $('batching'), $('batching-note'));
}

// Throughput and memory for every weight format x KV format, the rest of the scenario unchanged.
async function updateSweep(mine) {
  if (ctx.sweepAsked === mine) return;  // asked already for these inputs (the tab shown meanwhile)
  ctx.sweepAsked = mine;
  const env = await backend.envelope('quant_sweep', request(), AUX);
  if (mine !== ctx.generation) return;
  if (!env.ok) {
    // Never leave the previous scenario's chart beside this one's message.
    ctx.lastSweep = null;
    replacePlot($('quant-sweep'), null);
    $('sweep-note').textContent = `The sweep could not run: ${env.error.message}`;
    return;
  }
  ctx.lastSweep = env.value;
  if (!$('panel-quant').hidden) renderSweep(env.value);  // as the batching chart
}

export function render(r) {
  renderNumbers(r);
  renderCharts(r);
}

// The cards and the lines about the model, the device and the plan.
function renderNumbers(r) {
  const m = r.model;
  renderAnswer($('answer'), $('answer-notes'), r, state.weights);
  syncRuntime(r);
  const asPublished = state.weights === 'declared' && !state.wclasses && !state.scenario;
  setText($('weights').options[0], publishedLabel(r.workload.precision, asPublished));
  setText($('weights-info'), publishedClasses(r.workload.precision, asPublished));
  if (state.activations === 'declared' && !state.scenario) setText($('activations').options[0], `as published: ${r.workload.precision.activations}`);
  const notes = inputNotes(r);
  if (notes.hasReserve) {
    setProp($('reserve'), 'placeholder', notes.reservePlaceholder);
    setText($('reserve-help'), notes.reserveHelp);
    setProp($('reserve-help'), 'title', notes.reserveBasis);
    setProp($('reserve'), 'title', notes.reserveBasis);
  } else {
    setText($('reserve-help'), '');
  }
  setText($('memfrac-help'), notes.memfracHelp);
  setText($('model-info'), notes.modelInfo);
  setProp($('model-info'), 'title', notes.modelTitle);
  setText($('warnings'), [...m.warnings, ...(r.warnings || [])].map((w) => `Note: ${w.message}`).join('\n'));
  renderPlan(r, $('plan'));
  syncEfficiencies();  // the placeholders show what this analysis ran with
  setText($('hardware-info'), notes.hardwareInfo);
  setText($('hardware-source'), notes.hardwareSource);
  setProp($('hardware-source-box'), 'hidden', !r.hardware);
  renderCards($('cards'), r);
}

// The charts and the operator table, each drawn only while its tab is shown (a tab is drawn when it is shown,
// whenShown below).
function renderCharts(r) {
  if (!$('panel-charts').hidden) {
    setText($('roofline-phase'), state.phase);
    setText($('phase-toggle'), state.phase === 'decode' ? 'Show prefill' : 'Show decode');
    drawSvgCharts(r);
    renderTimeline(r);
  }
  if (!$('panel-ops').hidden) renderOps(r);
}

// The SVG charts, each drawn as wide as its box (its text at its size on screen, not scaled with the drawing).
function drawSvgCharts(r) {
  drawRoofline($('roofline'), r, state.phase, chartWidth($('roofline')));
  drawDecomposition($('decomposition'), r, chartWidth($('decomposition')));
  drawMemory($('memory'), r, chartWidth($('memory')));
}

// A box whose width changed (a phone turned, a window resized, the layout's columns) is drawn again at its width,
// once per frame however many changed.
let resizeFrame = 0;
function redrawSvgCharts() {
  if (resizeFrame) return;
  resizeFrame = requestAnimationFrame(() => {
    resizeFrame = 0;
    if (ctx.lastResult && !$('panel-charts').hidden) drawSvgCharts(ctx.lastResult);
  });
}

// The presets and lists the controls are filled from: read by the core at build time and built into the page
// (scripts/build-site.mjs), so the page fills its controls without waiting for the core; a build without them
// asks the core through the npm package's typed client over the worker (a refusal throws InfercastError).
async function catalogs() {
  if (BUILT) return BUILT;
  const core = await connect(backend);
  const values = await Promise.all(CATALOGS.map((name) => core[name]()));
  return Object.fromEntries(CATALOGS.map((name, i) => [name, values[i]]));
}

// Another tab saved or removed custom devices or models: this page shows what is stored now. A device this page
// has selected and the other tab deleted stays selected, held as if it came with the link. What the user has typed
// in the device editor is kept: the editor is refilled only when it holds what it was filled with.
function followOtherTabs(event) {
  if (event.storageArea !== pageStorage() || (event.key !== null && event.key !== STORE_KEY)) return;
  const before = customDevice();
  const fromLink = Boolean(before) && before === ctx.urlDevice;
  ctx.store = loadStore(pageStorage());
  if (before && !ctx.store.doc.devices.some((d) => d.doc.id === before.id)) ctx.urlDevice = before;
  // A different device another tab saved under the id of the link's device shown here does not replace it.
  if (fromLink) keepLinkDeviceApart();
  fillHardware();
  fillModels();
  if (ctx.editorEdited) syncDelete();
  else fillEditor();
  const kept = ctx.editorEdited ? ' Your edits in the editor are kept.' : '';
  $('store-notice').textContent = ctx.store.notice || `Custom devices or models were changed in another tab; the lists show them now.${kept}`;
}

async function start() {
  ctx.store = loadStore(pageStorage());
  window.addEventListener('storage', followOtherTabs);
  let lists;
  try {
    lists = await catalogs();
  } catch (err) {
    settleBuilt(false);
    $('status').textContent = `The core could not start: ${err.message}`;
    return;
  }
  const [models, hardware, dtypes, conventions, version, scenarioList, regions, systems, options, limits, runtimeList] = CATALOGS.map((name) => ({ value: lists[name] }));
  ctx.presets = { models: models.value, hardware: hardware.value, systems: systems.value };
  readUrl();  // after the presets: a system the link names fills what the link leaves out
  ctx.options = options.value;
  ctx.limits = limits.value;
  fillChoices();
  $('system').appendChild(option('', 'none: one node of the device'));
  for (const sy of systems.value) {
    const o = option(sy.id, sy.name);
    o.title = sy.source;
    $('system').appendChild(o);
  }
  $('compare-device').appendChild(option('', 'choose...'));
  for (const h of hardware.value) $('compare-device').appendChild(option(h.id, `${h.name} (${h.class})`));
  $('compare-model').appendChild(option('', 'choose...'));
  for (const m of models.value) $('compare-model').appendChild(option(m.id, m.name));
  $('draft').appendChild(option('', 'none'));
  $('draft').appendChild(option('mtp', "the model's MTP module"));
  for (const m of models.value) $('draft').appendChild(option(m.id, m.name));
  ctx.scenarios = scenarioList.value;
  for (const g of regions.value.regions) $('region').appendChild(option(g.id, `${g.name} (${g.gCO2e_per_kWh} g/kWh)`));
  $('region-source').textContent = `Grid intensities: ${regions.value.source}.`;
  $('scenario').appendChild(option('', 'none: the settings below'));
  for (const sc of ctx.scenarios) {
    const o = option(sc.name, sc.name);
    o.title = sc.description;
    $('scenario').appendChild(o);
  }
  $('version').textContent = version.value.version;
  // The chosen options the page's build wrote into the HTML (build-site.mjs) give way to the whole lists.
  for (const id of ['weights', 'kv']) $(id).textContent = '';
  $('weights').appendChild(option('declared', 'as published'));
  $('activations').appendChild(option('declared', 'as published'));
  // llama.cpp's file types (each tensor in the type llama-quantize gives it) first for weights, then every format.
  const mixes = document.createElement('optgroup');
  mixes.label = 'llama.cpp files (GGUF)';
  for (const d of dtypes.value.filter((x) => x.mix)) {
    const o = option(d.name, d.name.toUpperCase());
    o.title = d.definition;
    mixes.appendChild(o);
  }
  $('weights').appendChild(mixes);
  for (const id of ['weights', 'activations', 'kv']) {
    const group = id === 'weights' ? document.createElement('optgroup') : $(id);
    if (id === 'weights') group.label = 'one format for every weight';
    for (const d of dtypes.value.filter((x) => !x.mix)) {
      const o = option(d.name, d.name);
      o.title = `${d.bits_per_element} bits per element: ${d.definition}`;
      group.appendChild(o);
    }
    if (id === 'weights') $(id).appendChild(group);
  }
  fillRuntimes(runtimeList.value);
  for (const c of conventions.value) {
    const o = option(c.name, c.name);
    o.title = c.description;
    $('convention').appendChild(o);
  }
  whenShown('charts', () => ctx.lastResult && render(ctx.lastResult));
  whenShown('ops', () => ctx.lastResult && renderOps(ctx.lastResult));
  whenShown('quant', () => (ctx.sweepAsked === ctx.generation ? ctx.lastSweep && renderSweep(ctx.lastSweep) : refresh(updateSweep)));
  whenShown('multi', () => (ctx.batchingAsked === ctx.generation
    ? ctx.lastBatching && renderBatching(ctx.lastBatching, $('batching'), $('batching-note'))
    : refresh(updateBatching)));
  whenShown('validation', showValidation);
  // The t_c/t_m map is drawn around the analyzed device: shown again, it follows the device analyzed since.
  whenShown('dse', () => {
    warmSweepWorkers();
    if (!ctx.lastTcTm || ctx.lastTcTm.generation !== ctx.generation) runTcTm();
  });
  buildDseControls();
  for (const id of ['roofline', 'decomposition', 'memory']) whenResized($(id), redrawSvgCharts);
  redraw.observe($('dse-plot'));
  redraw.observe($('tctm'));
  syncInputs();
  // The lists are the page's own now (a link's choices in them): shown, never emptied as built numbers are (first.js).
  for (const sel of document.querySelectorAll('select[data-built]')) sel.removeAttribute('data-built');
  if (!ctx.runtimes.length) $('runtime-field').hidden = true;
  bind();
  initServingPanel();
  try {
    fillEditor();
  } catch (err) {
    // The editor is filled from the selected device, which a link may carry in any shape: the analysis still runs,
    // and the core names what is wrong with the device.
    $('store-error').textContent = `The device editor could not show this device (${err && err.message ? err.message : err}).`;
  }
  $('store-notice').textContent = ctx.store.notice;
  if (ctx.store.notice) {
    // A message about the devices kept in this browser is shown where they are edited.
    $('device-editor').open = true;
    showTab('settings', false);
  }
  await update();
  runTcTm();
}

// Whatever happens while starting (a damaged store, a core that cannot load) is said on the page, never left at
// "Loading the core...".
start().catch((err) => {
  settleBuilt(false);
  $('status').textContent = `The page could not start: ${err && err.message ? err.message : err}. Reload to try again.`;
});
