// The inputs: every control bound to its state key, checked, and written back from the state.
import { parseEntries } from './compare.js';
import { $, ctx, DEFAULTS, state } from './ctx.js';
import { deleteDevice, fillEditor, importFile, saveDevice, syncEfficiencies, tierRow, watchEdits } from './devices.js';
import { frontCsv } from './dse.js';
import { runDse, runTcTm } from './dsepanel.js';
import { explainTarget, hideExplain } from './explainpanel.js';
import { bindExports, download, exportPng, exportSvg, sweepCsv } from './exports.js';
import { useConfigText, useFiles } from './files.js';
import { fillHardware, fillModels, modelMatches } from './lists.js';
import { render, update } from './main.js';
import { csv, renderOps } from './opstable.js';
import { applySystem, batchingCsv, MULTI_DEFAULTS } from './parallel.js';
import { EFFICIENCIES, effSet, parseImages, parseRequests, request } from './request.js';
import { syncRuntime } from './runtimes.js';
import { syncServing } from './serving.js';
import { exportBundle } from './store.js';
import { bindCalibration } from './calibrate.js';
import { bindTabs, showTab } from './tabs.js';
import { flushUrl, readUrl, writeUrl } from './url.js';

// The numeric inputs, one entry each: input id, state key, the request or document field whose range the core's
// options give (or an explicit range where the page's value is not one field), where its error goes, and the state
// value of an empty input when empty means "the device's own" or "none".
const NUMBERS = [
  { id: 'batch', path: '/workload/batch', error: 'workload-error' },
  { id: 'prompt', path: '/workload/prompt', error: 'workload-error' },
  { id: 'gen', path: '/workload/gen', error: 'workload-error' },
  { id: 'kwh', path: '/costs/usd_per_kWh', error: 'cost-error' },
  { id: 'pue', path: '/costs/pue', error: 'cost-error' },
  { id: 'life', path: '/costs/lifetime_years', error: 'cost-error' },
  { id: 'util', path: '/costs/utilization', error: 'cost-error' },
  { id: 'price', path: '/costs/price_USD', error: 'cost-error', empty: 0 },
  { id: 'power', path: '/costs/power_W', error: 'cost-error', empty: 0 },
  { id: 'embodied', path: '/costs/embodied_kgCO2e', error: 'cost-error', empty: -1 },
  { id: 'eff-gemm', key: 'egemm', path: '/hardware/efficiency/gemm', error: 'hardware-error', empty: 0 },
  { id: 'eff-attention', key: 'eattn', path: '/hardware/efficiency/attention', error: 'hardware-error', empty: 0 },
  { id: 'eff-elementwise', key: 'eelem', path: '/hardware/efficiency/elementwise', error: 'hardware-error', empty: 0 },
  { id: 'eff-memory', key: 'emem', path: '/hardware/efficiency/memory', error: 'hardware-error', empty: 0 },
  { id: 'eff-dispatch', key: 'edisp', path: '/hardware/efficiency/dispatch_us', error: 'hardware-error', empty: -1 },
  { id: 'tp', path: '/parallel/tp', error: 'parallel-error' },
  { id: 'pp', path: '/parallel/pp', error: 'parallel-error' },
  { id: 'dp', path: '/parallel/dp', error: 'parallel-error' },
  { id: 'ep', path: '/parallel/ep', error: 'parallel-error' },
  { id: 'dpn', path: '/system/devices_per_node', error: 'parallel-error' },
  { id: 'nodes', path: '/system/nodes', error: 'parallel-error' },
  { id: 'dtok', path: '/speculative/draft_tokens', error: 'parallel-error' },
  { id: 'acc', path: '/speculative/acceptance', error: 'parallel-error' },
  { id: 'accl', path: '/speculative/acceptance_length', error: 'parallel-error', empty: 0 },
  { id: 'ilat', path: '/system/intra/latency_us', error: 'parallel-error' },
  { id: 'olat', path: '/system/intra/latency_us', error: 'parallel-error' },
  { id: 'ieff', path: '/system/intra/efficiency', error: 'parallel-error' },
  // A link's bandwidth: 0 stands for "the device's own interconnect" in the page; the document needs it positive.
  { id: 'ibw', range: { kind: 'number', min: 0, max: 1e6 }, error: 'parallel-error' },
  { id: 'obw', range: { kind: 'number', min: 0, max: 1e6 }, error: 'parallel-error' },
  // Optimizations: 0 turns each off (the request then leaves the field out).
  { id: 'chunk', path: '/workload/prefill_chunk', error: 'precision-error', none: true },
  { id: 'tile', path: '/attention_tile', error: 'precision-error', none: true },
  { id: 'lora', path: '/lora/rank', error: 'precision-error', none: true, min: 0 },
  // Usable memory and offload: empty means the device's own reserve, the most layers that fit, the default host.
  { id: 'memgib', path: '/memory_capacity_GiB', error: 'hardware-error', empty: 0 },
  { id: 'reserve', path: '/memory_reserve_GB', error: 'hardware-error', empty: -1 },
  { id: 'memfrac', path: '/memory_fraction', error: 'hardware-error', empty: 0 },
  { id: 'ngl', path: '/offload/gpu_layers', error: 'offload-error', empty: -1, min: 0 },
  { id: 'host-bw', key: 'hostbw', path: '/offload/host_bandwidth_GBps', error: 'offload-error', empty: 0 },
  { id: 'host-gb', key: 'hostgb', path: '/offload/host_capacity_GB', error: 'offload-error', empty: 0 },
  { id: 'cal-concurrency', key: 'calConcurrency', range: { kind: 'integer', min: 1, max: 1000000 }, error: 'cal-error', local: true },
];

function rangeOf(c) {
  if (c.range) return c.range;
  const o = ctx.options.find((x) => x.path === c.path);
  return { kind: o.kind, min: c.min ?? o.min, max: o.max };
}

// Checks an input against its range and writes it to the state; a bad value is named next to the input and the
// state keeps the last good one.
function bindNumber(c) {
  const key = c.key || c.id;
  $(c.id).addEventListener('input', () => {
    const v = $(c.id).value.trim();
    const r = rangeOf(c);
    const whole = r.kind === 'integer';
    const x = Number(v);
    if (v === '' && c.empty !== undefined) {
      state[key] = c.empty;
    } else if (v === '' || !Number.isFinite(x) || x < r.min || x > r.max || (whole && !Number.isInteger(x))) {
      $(c.error).textContent = `${$(c.id).labels[0].textContent} holds "${v}"; expected ${whole ? 'a whole number' : 'a number'} from ${r.min} to ${r.max}`
        + `${c.none ? ' (0 for none)' : ''}${c.empty !== undefined ? ', or empty for the device\'s own' : ''}`;
      return;
    } else {
      state[key] = x;
    }
    $(c.error).textContent = '';
    // A plan field the user sets is theirs: no longer left to the core (ctx.autoPlan, set when a system is chosen).
    if (c.path?.startsWith('/parallel/')) ctx.autoPlan = ctx.planByCore = false;
    if (!c.local) update();
  });
}

// The selects whose choices are an enum of the core: filled from the options call, so a new value in a core table
// appears here with no change to the page. The option's description is its tooltip.
const CHOICES = [['attention', '/attention'], ['moe', '/moe_traffic'], ['mlp', '/mlp'], ['lora-mode', '/lora/mode'], ['algo', '/parallel/algorithm']];

export function fillChoices() {
  for (const [id, path] of CHOICES) {
    const o = ctx.options.find((x) => x.path === path);
    const sel = $(id);
    sel.textContent = '';
    // Kernels the runtime chooses unless the user does.
    if (id === 'attention' || id === 'mlp') {
      const auto = document.createElement('option');
      auto.value = 'auto';
      auto.textContent = "the runtime's";
      sel.appendChild(auto);
    }
    for (const v of o.values) {
      const opt = document.createElement('option');
      opt.value = v.name;
      opt.textContent = v.name;
      opt.title = v.description;
      sel.appendChild(opt);
    }
  }
}

export function bind() {
  for (const c of NUMBERS) bindNumber(c);
  $('region').addEventListener('change', () => { state.region = $('region').value; update(); });
  $('reqs').addEventListener('input', () => {
    const v = $('reqs').value.trim();
    try {
      if (v) parseRequests(v);
    } catch (err) {
      $('workload-error').textContent = err.message;
      return;
    }
    $('workload-error').textContent = '';
    state.reqs = v;
    syncRagged();
    update();
  });
  $('images').addEventListener('input', () => {
    const v = $('images').value.trim();
    try {
      if (v) parseImages(v);
    } catch (err) {
      $('workload-error').textContent = err.message;
      return;
    }
    $('workload-error').textContent = '';
    state.images = v;
    update();
  });

  $('system').addEventListener('change', () => {
    applySystem(state, ctx.presets.systems.find((x) => x.id === $('system').value));
    // A plan left at one device: the core picks it (under vLLM-like runtimes the largest tensor-parallel group of a
    // node, at most 8, that the model splits over; under llama.cpp a stage per device: as the CLI's --system without
    // --tp), and the plan fields then show what it picked.
    ctx.autoPlan = Boolean(state.system) && state.tp * state.pp * state.dp * state.ep === 1;
    syncInputs();
    fillEditor();
    update();
  });
  for (const id of ['algo', 'draft']) {
    $(id).addEventListener('change', () => {
      state[id] = $(id).value;
      if (id === 'algo') ctx.autoPlan = ctx.planByCore = false;  // /parallel/algorithm: the plan is the user's now
      update();
    });
  }
  $('export-batching').addEventListener('click', () => ctx.lastBatching && download('infercast-batching.csv', 'text/csv', batchingCsv(ctx.lastBatching)));

  const selects = { model: 'model', hardware: 'hardware', weights: 'weights', activations: 'activations', kv: 'kv', convention: 'convention', attention: 'attention', moe: 'moe', mlp: 'mlp', 'lora-mode': 'loraMode', hadamard: 'hadamard' };
  // A scenario fills the controls it sets; they stay editable and override it.
  $('scenario').addEventListener('change', () => {
    state.scenario = $('scenario').value;
    const sc = ctx.scenarios.find((x) => x.name === state.scenario);
    if (sc) {
      Object.assign(state, {
        weights: sc.weights, activations: sc.activations, kv: sc.kv, attention: sc.attention, mlp: sc.mlp,
        lora: sc.lora ? sc.lora.rank : 0, loraMode: sc.lora ? sc.lora.mode : DEFAULTS.loraMode, hadamard: sc.online_hadamard ? 'on' : 'off',
      });
    }
    syncInputs();
    update();
  });
  $('dse-run').addEventListener('click', runDse);
  $('dse-export').addEventListener('click', () => ctx.lastDse && download('infercast-pareto-front.csv', 'text/csv', frontCsv(ctx.lastDse)));
  $('dse-plot').addEventListener('click', (e) => {
    const r = $('dse-plot').getBoundingClientRect();
    let best = -1, bd = 100;
    ctx.dseFront.forEach(([x, y], i) => { const d = Math.hypot(x - (e.clientX - r.left), y - (e.clientY - r.top)); if (d < bd) { bd = d; best = i; } });
    const row = best >= 0 ? $(`dse-front-${best}`) : null;
    if (row) {
      for (const tr of document.querySelectorAll('#dse-front tr.selected')) tr.classList.remove('selected');
      row.classList.add('selected');
      row.scrollIntoView({ block: 'nearest' });
      row.querySelector('button').focus();
    }
  });
  for (const id of ['tctm-run']) $(id).addEventListener('click', runTcTm);
  $('tctm-phase').addEventListener('change', runTcTm);
  $('export-sweep').addEventListener('click', () => ctx.lastSweep && download('infercast-quant-sweep.csv', 'text/csv', sweepCsv(ctx.lastSweep)));
  for (const [id, key] of Object.entries(selects)) {
    $(id).addEventListener('change', () => {
      const v = $(id).value;
      if (key === 'model' && v.startsWith('mine:')) {
        state.config = ctx.store.doc.models[Number(v.slice(5))].config;
        state.model = 'custom';
        fillModels();
      } else {
        state[key] = v;
      }
      // A new model or weight format replaces the per-class formats a GGUF header set.
      if (key === 'model' || key === 'weights') state.wclasses = '';
      update();
    });
  }
  $('model-search').addEventListener('input', fillModels);
  // Enter takes the first preset the search matches, as a search box would.
  $('model-search').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const q = $('model-search').value.trim();
    const first = q && ctx.presets.models.find((m) => modelMatches(m, q));
    if (!first || (first.id === state.model && !state.config)) return;
    $('model').value = first.id;
    $('model').dispatchEvent(new Event('change'));
  });
  $('offload').addEventListener('change', () => {
    state.offload = $('offload').checked ? 'on' : 'off';
    syncOffload();
    update();
  });
  $('runtime').addEventListener('change', () => {
    state.runtime = $('runtime').value;
    // The runtime decides the default plan (llama.cpp splits layers, vLLM tensors): a plan the core picked is asked
    // for again, one the user set is kept.
    if (state.system && ctx.planByCore) ctx.autoPlan = true;
    update();
  });
  bindTabs();
  bindCalibration();
  $('hardware').addEventListener('change', () => { $('hardware-notice').textContent = ''; fillEditor(); syncEfficiencies(); syncRuntime(); });
  $('dev-tier-add').addEventListener('click', () => $('dev-tiers').tBodies[0].appendChild(tierRow({ name: '', capacity_GiB: '', bandwidth_GBps: '' })));
  watchEdits();
  $('dev-save').addEventListener('click', saveDevice);
  $('dev-delete').addEventListener('click', deleteDevice);
  $('dev-export').addEventListener('click', () => download('infercast-custom.json', 'application/json', JSON.stringify(exportBundle(ctx.store.doc), null, 2)));
  $('dev-import-button').addEventListener('click', () => $('dev-import').click());
  $('dev-import').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    e.target.value = '';
    if (f) await importFile(f);
  });
  $('config-use').addEventListener('click', () => useConfigText($('config-text').value, 'The pasted config'));
  $('config-file').addEventListener('change', async (e) => {
    await useFiles(e.target.files);
    e.target.value = '';
  });
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    await useFiles(e.dataTransfer.files);
  });
  drop.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); $('config-file').click(); } });
  // A tap on the zone chooses files as its role says (on a phone there is nothing to drop, and its "choose files"
  // link alone was a 15 px target); the link is a label of the file input and opens it itself.
  drop.addEventListener('click', (e) => { if (!e.target.closest('label, input')) $('config-file').click(); });
  $('cards').addEventListener('click', (e) => explainTarget(e.target));
  $('ops').addEventListener('click', (e) => { if (e.target.closest('td[data-field]')) explainTarget(e.target); });
  for (const id of ['cards', 'ops']) {
    $(id).addEventListener('keydown', (e) => {
      if ((e.key === 'Enter' || e.key === ' ') && (e.target.closest('.card') || e.target.closest('td[data-field]'))) {
        e.preventDefault();
        explainTarget(e.target);
      }
    });
  }
  $('explain-close').addEventListener('click', hideExplain);
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') hideExplain(); });
  document.addEventListener('click', (e) => {
    if (!$('explain').hidden && !e.target.closest('#explain') && !e.target.closest('.card') && !e.target.closest('td[data-field]')) hideExplain();
  });
  for (const [id, kind] of [['compare-device', 'h'], ['compare-model', 'm']]) {
    $(id).addEventListener('change', () => {
      const v = $(id).value;
      $(id).value = '';
      if (!v) return;
      const list = parseEntries(state.cmp);
      if (!list.includes(`${kind}:${v}`)) list.push(`${kind}:${v}`);
      state.cmp = list.slice(-8).join(',');
      update();
    });
  }
  bindExports();
  for (const b of document.querySelectorAll('button[data-png]')) b.addEventListener('click', () => exportPng(b.dataset.png));
  for (const b of document.querySelectorAll('button[data-svg]')) b.addEventListener('click', () => exportSvg(b.dataset.svg));
  $('phase-toggle').addEventListener('click', () => {
    state.phase = state.phase === 'decode' ? 'prefill' : 'decode';
    if (ctx.lastResult) render(ctx.lastResult);
  });
  $('ops-view').addEventListener('change', () => {
    state.opsView = $('ops-view').value;
    writeUrl();
    if (ctx.lastResult) renderOps(ctx.lastResult);
  });
  $('ops-phase').addEventListener('change', () => {
    state.opsPhase = $('ops-phase').value;
    if (ctx.lastResult) renderOps(ctx.lastResult);
  });
  $('export-csv').addEventListener('click', () => ctx.lastResult && download('infercast-operators.csv', 'text/csv', csv(ctx.lastResult)));
  $('export-json').addEventListener('click', () => ctx.lastResult && download('infercast-analysis.json', 'application/json', JSON.stringify(ctx.lastResult, null, 2)));
  $('copy-link').addEventListener('click', async () => {
    flushUrl();
    try {
      await navigator.clipboard.writeText(location.href);
      $('status').textContent = 'Link copied: it restores this exact scenario.';
    } catch {
      $('status').textContent = `Copy this link: ${location.href}`;
    }
  });
  // A link still to be written is written before the page is left (a reload restores what was on screen).
  window.addEventListener('pagehide', flushUrl);
  window.addEventListener('hashchange', () => {
    readUrl();
    syncInputs();
    // The editor shows the link's device, unless it holds the user's edits (kept, as when another tab saves).
    if (!ctx.editorEdited) fillEditor();
    update();
  });
}

// The offload fields show while offloading is on; a plan over several devices has no host to offload to.
export function syncOffload() {
  $('offload').checked = state.offload === 'on';
  $('offload-fields').hidden = state.offload !== 'on';
}

export function syncInputs() {
  fillModels();
  fillHardware();
  for (const id of ['batch', 'prompt', 'gen', 'weights', 'activations', 'kv', 'convention', 'attention', 'mlp', 'chunk', 'tile', 'lora']) $(id).value = String(state[id]);
  $('moe').value = state.moe;
  $('lora-mode').value = state.loraMode;
  $('hadamard').value = state.hadamard;
  for (const id of ['kwh', 'pue', 'life', 'util']) $(id).value = String(state[id]);
  $('memgib').value = state.memgib > 0 ? String(state.memgib) : '';
  $('reserve').value = state.reserve >= 0 ? String(state.reserve) : '';
  $('memfrac').value = state.memfrac > 0 ? String(state.memfrac) : '';
  $('ngl').value = state.ngl >= 0 ? String(state.ngl) : '';
  $('host-bw').value = state.hostbw > 0 ? String(state.hostbw) : '';
  $('host-gb').value = state.hostgb > 0 ? String(state.hostgb) : '';
  syncRuntime();
  syncOffload();
  showTab(state.tab, false);
  syncServing();
  $('price').value = state.price > 0 ? String(state.price) : '';
  $('power').value = state.power > 0 ? String(state.power) : '';
  $('embodied').value = state.embodied >= 0 ? String(state.embodied) : '';
  $('region').value = state.region;
  $('reqs').value = state.reqs;
  $('images').value = state.images;
  $('ops-view').value = state.opsView;
  syncRagged();
  syncEfficiencies();
  if (state.reqs) $('ragged').open = true;
  if (state.images) $('vision').open = true;
  if (EFFICIENCIES.some(([k]) => effSet(k))) $('advanced').open = true;
  for (const id of Object.keys(MULTI_DEFAULTS)) if ($(id)) $(id).value = String(state[id]);
  $('spec').open = $('spec').open || Boolean(state.draft);
  $('scenario').value = state.scenario;
  const sc = ctx.scenarios.find((x) => x.name === state.scenario);
  $('scenario-info').textContent = sc ? `${sc.description}. Source: ${sc.source}.` : '';
  if (state.mlp !== DEFAULTS.mlp || state.chunk || state.tile || state.lora || state.scenario || state.hadamard !== 'off') $('optimizations').open = true;
}

// Batch and prompt stand aside while a list of ragged requests is given.
export function syncRagged() {
  for (const id of ['batch', 'prompt']) {
    $(id).disabled = Boolean(state.reqs);
    $(id).title = state.reqs ? 'not used: the ragged requests below set each request' : '';
  }
}
