// Files the user drops or chooses: safetensors shards, a GGUF file (headers only, never the weights) or a
// config.json, read in this browser and checked by the core.
import { syncInputs } from './controls.js';
import { $, backend, state } from './ctx.js';
import { keepModel, persist } from './devices.js';
import { bytes, count } from './format.js';
import { fillModels } from './lists.js';
import { update } from './main.js';

// Dropped or chosen files: the .safetensors shards of a checkpoint (with its config.json or not), a GGUF model
// (its header only) or a config.json.
export async function useFiles(list) {
  const files = [...list];
  const shards = files.filter((f) => /\.safetensors$/i.test(f.name));
  if (shards.length) return useSafetensors(shards, files.find((f) => /\.json$/i.test(f.name)));
  if (files.length) return useFile(files[0]);
}

// A checkpoint's weight formats, as the precision selects and the per-class list in the URL hold them.
export function applyPrecision(p) {
  const known = new Set([...$('weights').options].map((o) => o.value));
  if (known.has(p.weights)) state.weights = p.weights;
  state.wclasses = Object.entries(p.by_class).filter(([, d]) => known.has(d)).map(([c, d]) => `${c}=${d}`).join(',');
}

// Reads each shard's header (its first 8 bytes give the length; then exactly that much), never the weights. The
// config: the dropped config.json, else the selected model when every shape matches it, else one inferred from
// the tensor names.
export async function useSafetensors(shards, configFile) {
  $('model-error').textContent = '';
  $('gguf-info').textContent = `Reading the safetensors headers of ${shards.length} file(s)...`;
  const fail = (msg) => { $('gguf-info').textContent = ''; $('model-error').textContent = msg; };
  const rows = [];
  let headerBytes = 0;
  for (const f of shards) {
    const size = await backend.envelopeBytes('safetensors_size', new Uint8Array(await f.slice(0, 8).arrayBuffer()));
    if (!size.ok) return fail(`${f.name}: ${size.error.message}`);
    const env = await backend.envelopeBytes('safetensors', new Uint8Array(await f.slice(0, size.value.header_bytes).arrayBuffer()));
    if (!env.ok) return fail(`${f.name}: ${env.error.message}`);
    headerBytes += env.value.header_bytes;
    for (const r of env.value.tensors) rows.push(r);
  }
  let given = null;
  if (configFile) {
    const parsed = await parseConfigText(await configFile.text(), configFile.name);
    if (parsed.error) return fail(parsed.error);
    given = parsed.cfg;
  }
  const selected = state.model === 'custom' && state.config ? state.config : state.model;
  let env = await backend.envelope('checkpoint', { tensors: rows, model: given || selected });
  let origin = given ? configFile.name : 'the selected model';
  if (env.ok && !given && !env.value.matches) {
    env = await backend.envelope('checkpoint', { tensors: rows });
    origin = 'the tensor names';
  }
  if (!env.ok) return fail(`${configFile && given ? configFile.name : shards[0].name}: ${env.error.message}`);
  const v = env.value;
  if (given || origin === 'the tensor names') {
    state.config = v.config;
    state.model = 'custom';
    keepModel(v.config, given ? (given._name_or_path || shards[0].name.replace(/(-\d+-of-\d+)?\.safetensors$/i, '')) : undefined);
  }
  applyPrecision(v.precision);
  const mix = v.types.filter((t) => t.params > 0).sort((a, b) => b.params - a.params)
    .map((t) => `${t.dtype} ${((100 * t.params) / (v.params_total + v.side_params + v.mtp_params)).toFixed(1)}%`).join(', ');
  const bad = v.checks.filter((c) => !c.ok).map((c) => `${c.field}: config ${count(c.config)}, header ${count(c.header)}`);
  $('gguf-info').textContent = `Read the safetensors headers of ${shards.length} file(s) (${count(headerBytes)} bytes, no weights): ${v.tensors} tensors, `
    + `${count(v.params_total)} parameters, ${bytes(v.tensor_bytes)} stored; types by elements: ${mix}. `
    + `Config from ${origin}: ${v.matches ? 'every shape matches' : `shapes differ (${bad.join('; ')})`}`
    + `${v.assumed.length ? `; assumed ${v.assumed.join(', ')} (not in the shapes: drop config.json with the files to be exact)` : ''}`
    + `${v.packed ? '; packed integer weights: their format comes from the config\'s quantization_config' : ''}. `
    + `Weight formats set per class: ${state.wclasses || 'none known'}.`;
  persist();
  fillModels();
  syncInputs();
  update();
}

// A dropped or chosen file: a GGUF model (its header only) or a config.json.
export async function useFile(file) {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  if (/\.gguf$/i.test(file.name) || String.fromCharCode(...head) === 'GGUF') await useGguf(file);
  else useConfigText(await file.text(), file.name);
}

// Reads the header from the first 16 MiB of the file (more when the metadata runs longer); nothing is uploaded.
export async function useGguf(file) {
  $('model-error').textContent = '';
  $('gguf-info').textContent = `Reading the header of ${file.name}...`;
  let size = Math.min(file.size, 16 << 20);
  for (;;) {
    const chunk = new Uint8Array(await file.slice(0, size).arrayBuffer());
    const env = await backend.envelopeBytes('gguf', chunk);
    if (!env.ok && env.error.code === 'gguf.truncated' && size < file.size && size < (1 << 30)) {
      size = Math.min(file.size, size * 4);
      continue;
    }
    if (!env.ok) {
      $('gguf-info').textContent = '';
      $('model-error').textContent = `${file.name}: ${env.error.message}`;
      return;
    }
    const v = env.value;
    state.config = v.config;
    state.model = 'custom';
    applyPrecision(v.precision);
    const mix = v.types.filter((t) => t.params > 0).sort((a, b) => b.params - a.params)
      .map((t) => `${t.type} ${((100 * t.params) / v.params_total).toFixed(1)}%`).join(', ');
    $('gguf-info').textContent = `Read from the GGUF header of ${file.name} (${count(v.header_bytes)} bytes, no weights): ${v.tensors} tensors, `
      + `${count(v.params_total)} parameters (${count(v.params_from_config)} in the layers the config describes), ${bytes(v.tensor_bytes)} of tensors; `
      + `types by parameters: ${mix}. Weight formats set per class: ${state.wclasses || 'none known'}.`;
    keepModel(v.config, v.name);
    persist();
    fillModels();
    syncInputs();
    update();
    return;
  }
}

// A config's text as strict JSON, or as Python's json writes it (NaN, Infinity: the core reads those, refusing
// them by name where a number is computed with). Resolves to {cfg} or {error}.
export async function parseConfigText(text, origin) {
  try {
    return { cfg: JSON.parse(text) };
  } catch (err) {
    const env = await backend.envelopeBytes('config_text', new TextEncoder().encode(text));
    if (env.ok) return { cfg: env.value.config };
    if (env.error.code === 'input.malformed_json') return { error: `${origin} is not valid JSON: ${err.message}` };
    return { error: `${origin}: ${env.error.message}` };
  }
}

export async function useConfigText(text, origin) {
  $('model-error').textContent = '';
  const parsed = await parseConfigText(text, origin);
  if (parsed.error) {
    $('model-error').textContent = parsed.error;
    return;
  }
  const cfg = parsed.cfg;
  if (cfg === null || typeof cfg !== 'object' || Array.isArray(cfg)) {
    $('model-error').textContent = `${origin} holds ${Array.isArray(cfg) ? 'an array' : typeof cfg}; expected a config.json object`;
    return;
  }
  backend.envelope('model', { model: cfg }).then((env) => {
    if (!env.ok) {
      $('model-error').textContent = `${origin}: ${env.error.message}`;
      return;
    }
    state.config = cfg;
    state.model = 'custom';
    keepModel(cfg);
    persist();
    fillModels();
    update();
  });
}
