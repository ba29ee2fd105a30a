// The answer on top, one sentence a newcomer reads first: "Llama-3.1-8B in Q4_K_M on an RTX 4090: fits in 6.1 of
// 23.1 GiB usable, first token after 1.447 s, then 118 tokens/s." Every number is the core's (the same ones the cards
// show), only phrased; what is a bound says so, what does not fit says what to try.
import { setText } from './dom.js';
import { rate, seconds } from './format.js';

// The core's memory.remedies (core/analysis/remedies.cpp) in the page's words: where each is done on the page.
const REMEDIES = {
  raise_memory_fraction: 'a larger memory fraction (the Device panel)',
  smaller_format: 'a smaller format (the Quantization tab)',
  offload_layers: 'offloading layers to system RAM',
  fewer_requests: 'fewer or shorter requests',
  more_devices: 'several devices',
};
// The same past a serving engine's budget, after "raise the fraction ... or".
const BUDGET_REMEDIES = {
  smaller_format: 'store the weights in fewer bits',
  more_devices: 'split them over more devices',
  fewer_requests: 'run fewer or shorter requests',
};

// The first clause of a basis text (a device class's reserve basis): cut at the first ':' or ';' outside
// parentheses, a parenthesis left open at the end (its sources) dropped, so the text shown is a whole sentence part
// with its parentheses closed. Cutting at the first ':' anywhere ended an Apple device's note inside "(Metal's
// recommendedMaxWorkingSetSize", its parenthesis never closed.
export function basisSummary(basis) {
  const text = String(basis || '');
  let depth = 0, end = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if ((c === ':' || c === ';') && depth === 0) { end = i; break; }
  }
  let head = text.slice(0, end).trim();
  // A trailing parenthesis (its sources) goes: "3/4 above (Metal's ...)" reads "3/4 above".
  for (;;) {
    const m = /\s*\([^()]*(?:\([^()]*\)[^()]*)*\)?$/.exec(head);
    if (!m || m.index === 0) break;
    head = head.slice(0, m.index).trim();
  }
  return head;
}

// GiB, as the rest of the page, nvidia-smi and vLLM's logs state memory, and as DRAM is sold (a "141 GB" H200 holds
// 141 GiB): "6.2", "23", "140.5".
export function gb(bytes) {
  const x = bytes / 2 ** 30;
  if (x >= 1000) return x.toFixed(0);
  return x >= 10 ? String(Math.round(x * 10) / 10) : x.toFixed(1);
}

// The weight format as people name it: a llama.cpp file type in capitals (Q4_K_M), the published one, or the choice.
export function formatName(r, chosen) {
  const p = r.workload.precision;
  if (p.gguf) return p.gguf.file_type.toUpperCase();
  if (chosen === 'declared') return p.declared_weights || p.weights;
  return p.weights;
}

function speed(r, tpot, perSeq, batchTotal, bound) {
  const b = r.workload.batch_requests;
  const at = bound ? 'at most ' : '';
  if (b > 1) return `${at}${rate(perSeq, 'tokens/s')} per request (${rate(batchTotal, 'tokens/s')} for the batch of ${b})`;
  return `${at}${rate(perSeq, 'tokens/s')}`;
}

// {sentence, fits, notes[]} for a result; `chosen` is the page's weights choice ("declared" for as published).
export function answerOf(r, chosen) {
  const model = r.model.name;
  const fmt = formatName(r, chosen);
  const notes = [];
  if (!r.hardware) {
    return { fits: true, notes, sentence: `${model} in ${fmt}: ${(r.model.params_total / 1e9).toFixed(2)} B parameters, ${gb(r.memory.weights_bytes)} GiB of weights. Pick a device to forecast its speed and whether it fits.` };
  }
  const dev = r.hardware.name;
  if (r.parallel) {
    const p = r.parallel;
    const pl = p.plan;
    const split = [pl.tp > 1 ? `tp ${pl.tp}` : '', pl.pp > 1 ? `pp ${pl.pp}` : '', pl.ep > 1 ? `ep ${pl.ep}` : '', pl.dp > 1 ? `${pl.dp} replicas` : ''].filter(Boolean).join(', ');
    const where = `${pl.devices > 1 ? `${pl.devices}x ` : ''}${dev}${split ? ` (${split})` : ''}${r.speculative ? ` with ${r.speculative.draft === 'mtp' ? 'its MTP module' : r.speculative.draft} drafting` : ''}`;
    const bound = Boolean(p.lower_bound);
    if (bound) notes.push('No compute peak is known for this device: times are lower bounds and throughputs upper bounds.');
    const planBudget = (p.warnings || []).find((w) => w.code === 'memory.runtime_budget');
    if (!p.fits && planBudget) {
      return { fits: false, notes, sentence: `${model} in ${fmt} does not fit on ${where} under ${r.execution.runtime_name}'s memory fraction: each device needs ${gb(p.device_required_bytes)} GiB of the ${gb(p.device_capacity_bytes)} GiB it budgets, though the device has more: raise the fraction (the Device panel's "Runtime's memory fraction") or use more devices.` };
    }
    if (!p.fits) {
      return { fits: false, notes, sentence: `${model} in ${fmt} does not fit on ${where}: each device needs ${gb(p.device_required_bytes)} GiB of ${gb(p.device_capacity_bytes)} GiB usable. Try a smaller format (the Quantization tab) or more devices.` };
    }
    return { fits: true, notes, sentence: `${model} in ${fmt} on ${where}: fits in ${gb(p.device_required_bytes)} of ${gb(p.device_capacity_bytes)} GiB per device${r.memory.runtime_usable_bytes != null ? ` under ${r.execution.runtime_name}'s memory fraction` : ''}, first token after ${bound ? 'at least ' : ''}${seconds(p.ttft_s)}, then ${speed(r, p.tpot_s, p.tokens_per_s, p.total_tokens_per_s, bound)}.` };
  }
  const m = r.memory;
  const bound = Boolean(r.lower_bound);
  if (bound) notes.push(`No compute peak is published for ${dev}: its times count memory traffic and dispatch only, so they are lower bounds (and tokens/s an upper bound).`);
  if (m.reserve_bytes > 0) notes.push(`${gb(m.reserve_bytes)} GiB of its ${gb(m.physical_capacity_bytes)} GiB are kept by the driver and OS (${basisSummary(m.reserve_basis)}); change it under Device.`);
  const then = `first token after ${bound ? 'at least ' : ''}${seconds(r.ttft_s)}, then ${speed(r, r.decode.tpot_s, r.decode.tokens_per_s, r.decode.batch_tokens_per_s, bound)}`;
  if (r.offload) {
    const o = r.offload;
    const layers = `${o.gpu_layers} of ${o.layers + 1} layers on the device and the rest in system RAM`;
    if (!m.fits) {
      return { fits: false, notes, sentence: `${model} in ${fmt} does not fit on ${dev} with ${layers}: the device needs ${gb(o.device.required_bytes)} of ${gb(o.device.capacity_bytes)} GiB, system RAM ${gb(o.host_part.required_bytes)} of ${gb(o.host_part.capacity_bytes)} GiB.` };
    }
    return { fits: true, notes, sentence: `${model} in ${fmt} on ${dev} with ${layers} (llama.cpp -ngl ${o.gpu_layers}): ${gb(o.device.required_bytes)} of ${gb(o.device.capacity_bytes)} GiB on the device and ${gb(o.host_part.required_bytes)} GiB in system RAM, ${then}.` };
  }
  // A serving engine's pool (vLLM's gpu_memory_utilization...): the budget binds where the device would hold more.
  const engine = r.execution && r.execution.runtime_name;
  const budget = m.runtime_usable_bytes;
  // Past the engine's budget that the device would hold: the core's list (memory.remedies,
  // core/analysis/remedies.cpp) starts with a larger fraction, then says what else would do.
  if (m.remedies.includes('raise_memory_fraction')) {
    const rest = m.remedies.filter((c) => c !== 'raise_memory_fraction').map((c) => BUDGET_REMEDIES[c]).join(' or ');
    return { fits: false, notes, sentence: `${model} in ${fmt} on ${dev} needs ${gb(m.required_bytes)} GiB, more than the ${gb(budget)} GiB ${engine} keeps for weights, activations and cache (its memory fraction) though the device has them: raise the fraction (the Device panel's "Runtime's memory fraction") or ${rest}.` };
  }
  if (!m.fits) {
    const usable = budget != null ? `${gb(m.capacity_bytes)} GiB are usable under ${engine}'s memory fraction` : `${gb(m.capacity_bytes)} GiB are usable`;
    // What to try: the core's list (memory.remedies), as the CLI's device line says it in its flags.
    const tries = m.remedies.map((c) => REMEDIES[c]);
    const list = `${tries.slice(0, -1).join(', ')}, or ${tries[tries.length - 1]}`;
    return { fits: false, notes, sentence: `${model} in ${fmt} does not fit on ${dev}: it needs ${gb(m.required_bytes)} GiB, ${usable}. Try ${list}.` };
  }
  if (!m.fits_first_tier) {
    const first = r.hardware.memory_tiers[0].name;
    return { fits: true, notes, sentence: `${model} in ${fmt} on ${dev} fits only by spilling past ${first} (${gb(m.required_bytes)} of ${gb(m.capacity_bytes)} GiB in all tiers): ${then}.` };
  }
  const under = budget != null ? ` under ${engine}'s memory fraction` : '';
  return { fits: true, notes, sentence: `${model} in ${fmt} on ${dev}: fits in ${gb(m.required_bytes)} of ${gb(m.capacity_bytes)} GiB usable${under}, ${then}.` };
}

// The sentence, whether it fits, and the notes line below it (what is beyond the model's window first).
export function answerTexts(r, chosen) {
  const a = answerOf(r, chosen);
  const warn = (r.warnings || []).filter((w) => w.code === 'workload.beyond_context').map((w) => `Beyond the model's window: ${w.message}.`);
  return { sentence: a.sentence, fits: a.fits, notes: [...warn, ...a.notes].join(' ') };
}

export function renderAnswer(box, notesBox, r, chosen) {
  const a = answerTexts(r, chosen);
  setText(box, a.sentence);
  box.classList.toggle('no', !a.fits);
  setText(notesBox, a.notes);
}
