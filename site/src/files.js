// Files the user drops or chooses: safetensors shards, a GGUF file (headers only, never the weights) or a
// config.json, read in this browser and checked by the core. Reading is bounded by the core's limits (the `limits`
// call: a GGUF header, a safetensors header, a JSON text), and a second drop stops the first: each step checks that
// its drop is still the latest before it reads more or changes anything.
import { syncInputs } from './controls.js';
import { $, backend, ctx, state } from './ctx.js';
import { printable } from './dom.js';
import { keepModel } from './devices.js';
import { bytes, count } from './format.js';
import { fillModels } from './lists.js';
import { update } from './main.js';

// A limit of the core's table, by name (util/limits.hpp), with a fallback while the list has not arrived.
export const limitOf = (name, fallback) => ctx.limits.find((l) => l.name === name)?.value ?? fallback;

// A token for the latest drop: `current()` is false once a newer drop (or paste) started.
function newJob() {
  const id = ++ctx.fileJob;
  return { current: () => id === ctx.fileJob };
}

// Dropped or chosen files: the .safetensors shards of a checkpoint (with its config.json or not), a GGUF model
// (its header only) or a config.json.
export async function useFiles(list) {
  const files = [...list];
  const job = newJob();
  const shards = files.filter((f) => /\.safetensors$/i.test(f.name));
  if (shards.length) return useSafetensors(shards, configOf(files), job);
  const gguf = files.find((f) => /\.gguf$/i.test(f.name));
  if (gguf || files.length) return useFile(gguf || configOf(files) || files[0], job);
}

// The JSON files a Hugging Face folder holds beside its config.json (tokenizer, generation, chat template, adapter,
// processor settings, the shards' index): never the model's config.
const SIDE_JSON = /(tokenizer|^generation_config\.json$|^added_tokens\.json$|^special_tokens_map\.json$|\.index\.json$|^chat_template\.json$|^preprocessor_config\.json$|^processor_config\.json$|^adapter_config\.json$|^quantize_config\.json$|^trainer_state\.json$|^training_args\.json$)/i;

// The model's config among files dropped together, as the CLI picks a folder's config.json by name: config.json,
// else the one .json that is none of a folder's other files; null when there is none (or several to choose from).
export function configOf(files) {
  const json = files.filter((f) => /\.json$/i.test(f.name));
  const named = json.find((f) => f.name.toLowerCase() === 'config.json');
  if (named) return named;
  const others = json.filter((f) => !SIDE_JSON.test(f.name));
  return others.length === 1 ? others[0] : null;
}

// A checkpoint's weight formats, as the precision selects and the per-class list in the URL hold them.
export function applyPrecision(p) {
  const known = new Set([...$('weights').options].map((o) => o.value));
  // Without "weights" (a class stored in packed words) the checkpoint's quantization_config fills the rest.
  state.weights = known.has(p.weights) ? p.weights : 'declared';
  state.wclasses = Object.entries(p.by_class).filter(([, d]) => known.has(d)).map(([c, d]) => `${c}=${d}`).join(',');
}

// Reads each shard's header (its first 8 bytes give the length; then exactly that much), never the weights. The
// config: the dropped config.json, else the selected model when every shape matches it, else one inferred from
// the tensor names.
export async function useSafetensors(shards, configFile, job = newJob()) {
  $('model-error').textContent = '';
  $('gguf-info').textContent = `Reading the safetensors headers of ${shards.length} file(s)...`;
  const fail = (msg) => { if (!job.current()) return; $('gguf-info').textContent = ''; $('model-error').textContent = printable(msg); };
  const rows = [];
  let headerBytes = 0;
  // Every header together within the JSON a checkpoint call may take (the rows are smaller than the headers).
  const budget = limitOf('request_bytes', 32 << 20) * 4;
  for (const f of shards) {
    const size = await backend.envelopeBytes('safetensors_size', new Uint8Array(await f.slice(0, 8).arrayBuffer()));
    if (!job.current()) return;
    if (!size.ok) return fail(`${f.name}: ${size.error.message}`);
    if (size.value.header_bytes > f.size)
      return fail(`${f.name}: the header is ${count(size.value.header_bytes)} bytes long and the file only ${count(f.size)}; expected a whole .safetensors file`);
    if (headerBytes + size.value.header_bytes > budget)
      return fail(`${f.name}: the headers of these files add up to more than ${bytes(budget)}; expected the shards of one checkpoint`);
    const env = await backend.envelopeBytes('safetensors', new Uint8Array(await f.slice(0, size.value.header_bytes).arrayBuffer()));
    if (!job.current()) return;
    if (!env.ok) return fail(`${f.name}: ${env.error.message}`);
    headerBytes += env.value.header_bytes;
    for (const r of env.value.tensors) rows.push(r);
  }
  let given = null;
  if (configFile) {
    const text = await boundedText(configFile);
    if (!job.current()) return;
    if (text.error) return fail(text.error);
    const parsed = await parseConfigText(text.text, configFile.name);
    if (!job.current()) return;
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
  if (!job.current()) return;
  if (!env.ok) return fail(`${configFile && given ? configFile.name : shards[0].name}: ${env.error.message}`);
  const v = env.value;
  if (given || origin === 'the tensor names') {
    state.config = v.config;
    state.model = 'custom';
    keepModel(v.config, given ? (given._name_or_path || shards[0].name.replace(/(-\d+-of-\d+)?\.safetensors$/i, '')) : undefined);
  }
  applyPrecision(v.precision);
  const mix = v.types.filter((t) => t.params > 0).sort((a, b) => b.params - a.params)
    .map((t) => `${t.dtype} ${((100 * t.params) / (v.params_total + v.side_params + v.mtp_params + v.encoder_params + v.unloaded_params)).toFixed(1)}%`).join(', ');
  const bad = v.checks.filter((c) => !c.ok).map((c) => `${c.field}: config ${count(c.config)}, header ${count(c.header)}`);
  $('gguf-info').textContent = printable(`Read the safetensors headers of ${shards.length} file(s) (${count(headerBytes)} bytes, no weights): ${v.tensors} tensors, `
    + `${count(v.params_total)} parameters${v.encoder_params ? ` (and ${count(v.encoder_params)} in encoders the forecast leaves out)` : ''}${v.unloaded_params ? ` (and ${count(v.unloaded_params)} stored but never loaded)` : ''}, ${bytes(v.tensor_bytes)} stored; types by elements: ${mix}. `
    + `Config from ${origin}: ${v.matches ? 'every shape matches' : `shapes differ (${bad.join('; ')})`}`
    + `${v.assumed.length ? `; assumed ${v.assumed.join(', ')} (not in the shapes: drop config.json with the files to be exact)` : ''}`
    + `${v.packed ? '; packed integer weights: their format comes from the config\'s quantization_config' : ''}. `
    + `Weight formats set per class: ${state.wclasses || 'none known'}.`);
  fillModels();
  syncInputs();
  update();
}

// The core refuses JSON nested deeper than its limit; the page says so before its own parser and the worker's
// message copy go that deep. "" when `text` is within the limit.
export function depthError(text, what, max) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;  // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return `${what} nests arrays and objects more than ${max} levels deep (at character ${i}); expected at most ${max}`;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return '';
}

// A file's text, when it is within the size the core reads: {text} or {error} (read no further than the limit).
async function boundedText(file) {
  const max = limitOf('request_bytes', 32 << 20);
  if (file.size > max) return { error: `${file.name} is ${bytes(file.size)}; expected a JSON file of at most ${bytes(max)}` };
  return { text: await file.text() };
}

// A dropped or chosen file: a GGUF model (its header only) or a config.json.
export async function useFile(file, job = newJob()) {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  if (!job.current()) return;
  if (/\.gguf$/i.test(file.name) || String.fromCharCode(...head) === 'GGUF') return useGguf(file, job);
  const text = await boundedText(file);
  if (!job.current()) return;
  if (text.error) {
    $('model-error').textContent = printable(text.error);
    return;
  }
  useConfigText(text.text, file.name, job);
}

// Reads the header from the first 16 MiB of the file, and once more up to the core's limit on a GGUF header
// (64 MiB) when the metadata runs longer; never more. Nothing is uploaded.
export async function useGguf(file, job = newJob()) {
  $('model-error').textContent = '';
  $('gguf-info').textContent = printable(`Reading the header of ${file.name}...`);
  const max = Math.min(file.size, limitOf('gguf_header_bytes', 64 << 20));
  let size = Math.min(max, 16 << 20);
  for (;;) {
    const chunk = new Uint8Array(await file.slice(0, size).arrayBuffer());
    if (!job.current()) return;
    const env = await backend.envelopeBytes('gguf', chunk);
    if (!job.current()) return;
    if (!env.ok && env.error.code === 'gguf.truncated' && size < max) {
      size = max;
      continue;
    }
    if (!env.ok) {
      $('gguf-info').textContent = '';
      $('model-error').textContent = printable(`${file.name}: ${env.error.message}`);
      return;
    }
    const v = env.value;
    state.config = v.config;
    state.model = 'custom';
    applyPrecision(v.precision);
    const mix = v.types.filter((t) => t.params > 0).sort((a, b) => b.params - a.params)
      .map((t) => `${t.type} ${((100 * t.params) / v.params_total).toFixed(1)}%`).join(', ');
    $('gguf-info').textContent = printable(`Read from the GGUF header of ${file.name} (${count(v.header_bytes)} bytes, no weights): ${v.tensors} tensors, `
      + `${count(v.params_total)} parameters (${count(v.params_from_config)} in the layers the config describes), ${bytes(v.tensor_bytes)} of tensors; `
      + `types by parameters: ${mix}. Weight formats set per class: ${state.wclasses || 'none known'}.`);
    keepModel(v.config, v.name);
    fillModels();
    syncInputs();
    update();
    return;
  }
}

// A config's text as strict JSON, or as Python's json writes it (NaN, Infinity: the core reads those, refusing
// them by name where a number is computed with). Resolves to {cfg} or {error}. Text nested past the core's depth
// limit is refused before the page's own parser (and the worker's message copy) go that deep.
export async function parseConfigText(text, origin) {
  const deep = depthError(text, origin, limitOf('json_depth', 64));
  if (deep) return { error: deep };
  try {
    return { cfg: JSON.parse(text) };
  } catch (err) {
    const env = await backend.envelopeBytes('config_text', new TextEncoder().encode(text));
    if (env.ok) return { cfg: env.value.config };
    if (env.error.code === 'input.malformed_json') return { error: `${origin} is not valid JSON: ${err.message}` };
    return { error: `${origin}: ${env.error.message}` };
  }
}

export async function useConfigText(text, origin, job = newJob()) {
  $('model-error').textContent = '';
  const parsed = await parseConfigText(text, origin);
  if (!job.current()) return;
  if (parsed.error) {
    $('model-error').textContent = printable(parsed.error);
    return;
  }
  const cfg = parsed.cfg;
  if (cfg === null || typeof cfg !== 'object' || Array.isArray(cfg)) {
    $('model-error').textContent = printable(`${origin} holds ${Array.isArray(cfg) ? 'an array' : typeof cfg}; expected a config.json object`);
    return;
  }
  // The text as given (the core checks its size and depth before reading it); the config kept is the parsed one.
  return backend.envelope('model', { model: cfg }).then((env) => {
    if (!job.current()) return;
    if (!env.ok) {
      $('model-error').textContent = printable(`${origin}: ${env.error.message}`);
      return;
    }
    state.config = cfg;
    state.model = 'custom';
    keepModel(cfg);
    fillModels();
    update();
  });
}
