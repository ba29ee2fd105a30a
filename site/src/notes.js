// The lines under the inputs that describe the analysis: the model, the device, the driver and OS reserve and the
// runtime's memory fraction. Pure text from a result, so the page's build (scripts/build-site.mjs) writes the
// default analysis's lines into the HTML and a first visit paints them before any script runs (without them the
// inputs grew by 175 px on a phone when the script filled them, and the cards below jumped down).
import { basisSummary, gb } from './answer.js';
import { count } from './format.js';

export function inputNotes(r) {
  const m = r.model;
  const notes = {};
  if (r.memory.reserve_bytes !== undefined) {
    // In the field's unit, decimal GB (the request's memory_reserve_GB): the placeholder is the value to type for
    // the device's own reserve. The capacity beside it in GiB too, as the rest of the page states memory.
    const GB = (b, digits) => String(+(b / 1e9).toFixed(digits));
    notes.reservePlaceholder = `${GB(r.memory.reserve_bytes, 2)} (device's)`;
    // The basis's first clause on the page, the whole of it (with its sources) as the field's tooltip.
    notes.reserveHelp = `${GB(r.memory.reserve_bytes, 2)} of ${GB(r.memory.physical_capacity_bytes, 1)} GB (${gb(r.memory.physical_capacity_bytes)} GiB): ${basisSummary(r.memory.reserve_basis)}`;
    notes.reserveBasis = r.memory.reserve_basis;
    notes.hasReserve = true;
  } else {
    notes.reserveHelp = '';
  }
  // The serving engine's budget of the first tier (its memory fraction), where it holds one.
  const runtimeName = r.execution ? r.execution.runtime_name : 'the runtime';
  notes.memfracHelp = r.memory.runtime_usable_bytes != null
    ? `${runtimeName} holds weights, activations and its KV cache within ${gb(r.memory.runtime_usable_bytes)} GiB of the first memory tier${r.memory.runtime_reserve_bytes > 0 ? ` (it keeps ${gb(r.memory.runtime_reserve_bytes)} GiB aside)` : ''}${gb(r.memory.capacity_bytes) !== gb(r.memory.runtime_usable_bytes) ? `; ${gb(r.memory.capacity_bytes)} GiB of it are usable for this workload, the rest held for the activations its memory profiling reserves beyond this workload's own` : ''}.`
    : r.hardware ? `${runtimeName} allocates the cache for the context asked for: no fraction applies.` : '';
  notes.modelInfo = `${m.name}: ${count(m.params_total)} parameters${m.stated_params_total ? ` (${m.stated_params_total} stated)` : ''}${m.params_active !== m.params_total ? `, ${count(m.params_active)} active per token` : ''}; ${m.num_layers} layers${m.groups.length > 1 ? `: ${m.groups.map((g) => `${g.count}x ${g.label}`).join('; ')}` : ''}.`;
  notes.modelTitle = `${m.name}: ${count(m.params_active)} parameters active per token including the input embedding; layer groups: ${m.groups.map((g) => `${g.count}x ${g.label}`).join('; ')}`;
  // The device in a line; its sources (and how an estimated peak was derived) one click away.
  const est = r.hardware && r.hardware.peak_estimated ? `estimated peaks (${r.hardware.peak_estimated.dtypes.join(', ')}): ${r.hardware.peak_estimated.derivation}. ` : '';
  notes.hardwareInfo = !r.hardware ? '' : `${r.hardware.vendor} ${r.hardware.class}${r.hardware.peak_estimated ? '; peaks estimated' : ''}${r.parallel ? `; in ${r.parallel.system.name}` : ''}`;
  notes.hardwareSource = !r.hardware ? '' : `${est}Source: ${r.hardware.source}${r.parallel ? `. System: ${r.parallel.system.source || r.parallel.system.name}` : ''}`;
  return notes;
}
