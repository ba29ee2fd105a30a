// The inputs: every control bound to its state key, checked, and written back from the state.
import { parseEntries } from './compare.js';
import { $, ctx, DEFAULTS, state } from './ctx.js';
import { deleteDevice, fillEditor, importFile, saveDevice, syncEfficiencies, tierRow } from './devices.js';
import { frontCsv } from './dse.js';
import { runDse, runTcTm } from './dsepanel.js';
import { explainTarget, hideExplain } from './explainpanel.js';
import { download, exportPng, exportSvg, sweepCsv } from './exports.js';
import { useConfigText, useFiles } from './files.js';
import { fillHardware, fillModels } from './lists.js';
import { render, update } from './main.js';
import { csv, renderOps } from './opstable.js';
import { applySystem, batchingCsv, MULTI_DEFAULTS } from './parallel.js';
import { EFFICIENCIES, effSet, parseRequests, request } from './request.js';
import { exportBundle } from './store.js';
import { readUrl, writeUrl } from './url.js';

export function bind() {
  const numeric = ['batch', 'prompt', 'gen'];
  for (const id of numeric) {
    $(id).addEventListener('input', () => {
      const v = $(id).value.trim();
      if (!/^\d+$/.test(v)) {
        $('workload-error').textContent = `${$(id).labels[0].textContent} holds "${v}"; expected a whole number of at least 1`;
        return;
      }
      state[id] = Number(v);
      update();
    });
  }
  // Energy and cost assumptions: numbers; empty price, power or embodied carbon means the device's own value.
  for (const [id, key, lo, hi] of [['kwh', 'kwh', 0, 100], ['pue', 'pue', 1, 10], ['life', 'life', 0.01, 100], ['util', 'util', 0.001, 1],
    ['price', 'price', 0, 1e10], ['power', 'power', 0, 1e7], ['embodied', 'embodied', 0, 1e9]]) {
    $(id).addEventListener('input', () => {
      const v = $(id).value.trim();
      const optional = ['price', 'power', 'embodied'].includes(key);
      if (optional && v === '') {
        state[key] = key === 'embodied' ? -1 : 0;
        update();
        return;
      }
      const x = Number(v);
      if (v === '' || !Number.isFinite(x) || x < lo || x > hi) {
        $('cost-error').textContent = `${$(id).labels[0].textContent} holds "${v}"; expected a number from ${lo} to ${hi}${optional ? ', or empty for the device\'s own' : ''}`;
        return;
      }
      $('cost-error').textContent = '';
      state[key] = x;
      update();
    });
  }
  $('region').addEventListener('change', () => { state.region = $('region').value; update(); });
  // Efficiencies: a fraction above 0 up to 1 (dispatch: microseconds from 0); empty for the device's own.
  for (const [key, field, id] of EFFICIENCIES) {
    $(id).addEventListener('input', () => {
      const v = $(id).value.trim();
      const x = Number(v);
      const dispatch = field === 'dispatch_us';
      if (v === '') {
        state[key] = dispatch ? -1 : 0;
      } else if (!Number.isFinite(x) || (dispatch ? x < 0 || x > 1e6 : x < 0.001 || x > 1)) {
        $('hardware-error').textContent = `${$(id).labels[0].textContent} holds "${v}"; expected ${dispatch ? 'microseconds from 0 to 1000000' : 'a fraction from 0.001 to 1'}, or empty for the device's own`;
        return;
      } else {
        state[key] = x;
      }
      $('hardware-error').textContent = '';
      update();
    });
  }
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

  // Several devices: whole numbers of at least 1; link figures and the acceptance are numbers in their ranges.
  for (const [id, lo, hi, whole] of [['tp', 1, 4096, true], ['pp', 1, 4096, true], ['dp', 1, 65536, true], ['ep', 1, 4096, true],
    ['dpn', 1, 4096, true], ['nodes', 1, 65536, true], ['dtok', 1, 16, true], ['ibw', 0, 1e6, false], ['ilat', 0, 1e6, false],
    ['ieff', 0.01, 1, false], ['obw', 0, 1e6, false], ['olat', 0, 1e6, false], ['acc', 0, 1, false]]) {
    $(id).addEventListener('input', () => {
      const v = $(id).value.trim();
      const x = Number(v);
      if (v === '' || !Number.isFinite(x) || x < lo || x > hi || (whole && !Number.isInteger(x))) {
        $('parallel-error').textContent = `${$(id).labels[0].textContent} holds "${v}"; expected ${whole ? 'a whole number' : 'a number'} from ${lo} to ${hi}`;
        return;
      }
      $('parallel-error').textContent = '';
      state[id] = x;
      update();
    });
  }
  $('system').addEventListener('change', () => {
    applySystem(state, ctx.presets.systems.find((x) => x.id === $('system').value));
    if (state.system && state.tp * state.pp * state.dp === 1) state.tp = Math.min(8, state.dpn * state.nodes);
    syncInputs();
    fillEditor();
    update();
  });
  for (const id of ['algo', 'draft']) $(id).addEventListener('change', () => { state[id] = $(id).value; update(); });
  $('export-batching').addEventListener('click', () => ctx.lastBatching && download('infercast-batching.csv', 'text/csv', batchingCsv(ctx.lastBatching)));

  // Optimizations: whole numbers from 0 (0 turns the optimization off).
  for (const id of ['chunk', 'tile', 'lora']) {
    $(id).addEventListener('input', () => {
      const v = $(id).value.trim();
      if (!/^\d+$/.test(v)) {
        $('precision-error').textContent = `${$(id).labels[0].textContent} holds "${v}"; expected a whole number (0 for none)`;
        return;
      }
      state[id] = Number(v);
      update();
    });
  }
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
  $('hardware').addEventListener('change', () => { fillEditor(); syncEfficiencies(); });
  $('dev-tier-add').addEventListener('click', () => $('dev-tiers').tBodies[0].appendChild(tierRow({ name: '', capacity_GB: '', bandwidth_GBps: '' })));
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
    try {
      await navigator.clipboard.writeText(location.href);
      $('status').textContent = 'Link copied: it restores this exact scenario.';
    } catch {
      $('status').textContent = `Copy this link: ${location.href}`;
    }
  });
  window.addEventListener('hashchange', () => {
    readUrl();
    syncInputs();
    update();
  });
}

export function syncInputs() {
  fillModels();
  fillHardware();
  for (const id of ['batch', 'prompt', 'gen', 'weights', 'activations', 'kv', 'convention', 'attention', 'mlp', 'chunk', 'tile', 'lora']) $(id).value = String(state[id]);
  $('moe').value = state.moe;
  $('lora-mode').value = state.loraMode;
  $('hadamard').value = state.hadamard;
  for (const id of ['kwh', 'pue', 'life', 'util']) $(id).value = String(state[id]);
  $('price').value = state.price > 0 ? String(state.price) : '';
  $('power').value = state.power > 0 ? String(state.power) : '';
  $('embodied').value = state.embodied >= 0 ? String(state.embodied) : '';
  $('region').value = state.region;
  $('reqs').value = state.reqs;
  $('ops-view').value = state.opsView;
  syncRagged();
  syncEfficiencies();
  if (state.reqs) $('ragged').open = true;
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
