// "Where does this number come from": for a card or an operator cell, the formula, the same formula with this
// scenario's values put in, and the convention used. Every result shown is the core's (no formula is redone
// here); the browser tests redo the arithmetic from the inputs shown and check it lands on those results.
import { bytes, count, kvPerToken, seconds, si, tierCapacity } from './format.js';

const gbps = (bps) => `${(bps / 1e9).toLocaleString('en-US', { maximumFractionDigits: 1 })} GB/s`;
const tflops = (f) => `${(f / 1e12).toLocaleString('en-US', { maximumFractionDigits: 1 })} TFLOP/s`;

// The arithmetic behind an estimated peak of type t: its part of the preset's derivation ("48 SMs x 512 ...").
export function derivationOf(hw, t) {
  const d = (hw.peak_estimated && hw.peak_estimated.derivation) || '';
  const part = d.split('; ').find((x) => x.startsWith(`${t}: `));
  return part ? part.slice(t.length + 2) : d;
}

const isEstimated = (hw, t) => Boolean(hw.peak_estimated && hw.peak_estimated.dtypes.includes(t));

// The peak line of a time's explanation: which peak, published or estimated (with its arithmetic), or none.
function peakLines(r) {
  const p = r.peak;
  if (!p) return [];
  if (p.memory_only) return ['no compute peak: times count memory and dispatch only, a lower bound, not a forecast'];
  // A CPU's vector units' rate (the runtime keeps the type off the matrix engine): its own line of the derivation.
  const t = p.units === 'vector' ? `vector ${p.dtype}` : p.dtype;
  return p.estimated
    ? [`estimated peak: ${t} ${tflops(p.TFLOPS * 1e12)} = ${derivationOf(r.hardware, t)} (${r.hardware.peak_estimated.sources.split(':')[0]})`]
    : [`published peak: ${p.dtype} ${tflops(p.TFLOPS * 1e12)}`];
}

// One operator's time as the core computed it (compute_s, memory_s, dispatch_s), with the inputs put into the
// formula. The formula itself lives in core/analysis; this only shows it. The bandwidth shown is the one the
// core's memory time implies: the tier's own when the operator's bytes sit in one tier, else the blend of tiers.
export function opTime(o, r) {
  const hw = r.hardware;
  const x = r.execution;
  // The peak the core ran at: the FP16-accumulate rate when the runtime's kernels reach it; a CPU's vector units'
  // rate for a type the runtime keeps off its matrix engine (llama.cpp's float GEMMs beside AMX).
  const acc = x.compute_paths && x.compute_paths.fp16_accumulate && hw.peak_dense_TFLOPS_fp16_accumulate;
  const engine = x.compute_paths && x.compute_paths.matrix_engine;
  const vector = engine && hw.peak_dense_TFLOPS_vector && !engine.includes(o.compute_type_used) && hw.peak_dense_TFLOPS_vector[o.compute_type_used];
  const peak = (vector || (acc && hw.peak_dense_TFLOPS_fp16_accumulate[o.compute_type_used]) || hw.peak_dense_TFLOPS[o.compute_type_used] || 0) * 1e12;
  const e = +o.compute_efficiency.toPrecision(3);
  const used = r.memory.placement.filter((p) => p.bytes_per_tier.filter((b) => b > 0).length > 1 || p.bytes_per_tier.findIndex((b) => b > 0) > 0);
  const lines = [
    peak > 0
      ? `compute = FLOPs / (${o.compute_type_used} peak${vector ? ' of the vector units' : ''}${vector || isEstimated(hw, o.compute_type_used) ? ' (estimated)' : ''} x e) = ${si(o.flops, 'FLOP')} / (${tflops(peak)} x ${e}) = ${seconds(o.compute_s)}` +
        ` (e: ${x.runtime_name}'s ${o.class} efficiency${o.class === 'gemm' ? ' x this GEMM\'s tile waves' : ''})`
      : `compute = 0 (no compute peak: a lower bound, not a forecast)`,
    `memory = bytes / achieved bandwidth = ${bytes(o.bytes)} / ${gbps(o.bandwidth_Bps)} = ${seconds(o.memory_s)}` +
      ` (the tiers' bandwidth x ${x.runtime_name}'s memory efficiency ${x.efficiency.memory}${used.length ? '; a blend of the tiers these bytes live in' : ''})`,
    `dispatch = ${count(o.dispatches)} kernels x ${+o.gap_us.toPrecision(3)} µs gap (${x.runtime_name}, ${x.launch === 'graph' ? 'replayed graph' : 'launched one by one'}) = ${seconds(o.dispatch_s)}`,
    `time = max(compute, memory) + dispatch = max(${seconds(o.compute_s)}, ${seconds(o.memory_s)}) + ${seconds(o.dispatch_s)} = ${seconds(o.time_s)}`,
  ];
  if (peak > 0 && (vector || isEstimated(hw, o.compute_type_used)))
    lines.splice(1, 0, `estimated peak: ${derivationOf(hw, vector ? `vector ${o.compute_type_used}` : o.compute_type_used)}`);
  return { lines };
}

function convention(r) {
  const w = r.workload;
  return `Convention "${w.convention}": ${w.convention_description}. Timing ${w.timing === 'per-op' ? 'per operator (each bound on its own)' : 'phase-max (LIFE: max of summed compute and summed memory)'}; attention ${w.attention}, MoE traffic ${w.moe_traffic}.`;
}

function phaseLines(r, phase, total) {
  const ops = r.ops.filter((o) => o.phase === phase && o.time_s !== undefined);
  const sum = { compute: 0, memory: 0, dispatch: 0 };
  let c = 0, m = 0, d = 0;
  for (const o of ops) {
    sum[o.bound] += o.time_s;
    c += o.compute_s;
    m += o.memory_s;
    d += o.dispatch_s;
  }
  const ops_s = r.workload.timing === 'per-op' ? sum.compute + sum.memory + sum.dispatch : Math.max(c, m) + d;
  const lines = r.workload.timing === 'per-op'
    ? [`= ${ops.length} operators: compute-bound ${seconds(sum.compute)} + memory-bound ${seconds(sum.memory)} + dispatch-bound ${seconds(sum.dispatch)} = ${seconds(ops_s)}`]
    : [`= max(sum of compute ${seconds(c)}, sum of memory ${seconds(m)}) + sum of dispatch ${seconds(d)} = ${seconds(ops_s)}`];
  // The runtime's part of a step beyond its operators: its host work per step, and the host launching the kernels
  // one by one when that takes longer than the device (eager frameworks).
  const x = r.execution;
  const steps = phase === 'prefill' ? Math.max(1, r.workload.prefill_chunks || 1) : 1;
  if (x && total - ops_s > 1e-12)
    lines.push(`+ ${x.runtime_name}: ${total - ops_s - steps * x.step_overhead_us * 1e-6 > 1e-9 ? 'the host launching kernels one by one (longer than the device) and ' : ''}` +
      `${steps > 1 ? `${steps} x ` : ''}${+x.step_overhead_us.toPrecision(3)} µs of host work per step = ${seconds(total)}`);
  const top = [...ops].sort((a, b) => b.time_s - a.time_s).slice(0, 2);
  for (const o of top) {
    lines.push(`Largest: ${o.name} (${o.group || 'model'}, x${o.count}), ${((100 * o.time_s) / (sum.compute + sum.memory + sum.dispatch)).toFixed(0)}% of the phase:`);
    for (const l of opTime(o, r).lines) lines.push(`  ${l}`);
  }
  return lines;
}

const planned = (label, r) => ({ title: label, convention: convention(r),
  formula: 'Sum over pipeline stages of each stage\'s time on its own sharded model, plus each step\'s collectives (docs/formulas.md, "Parallelism").',
  lines: ['See the stage and communication tables below.'] });

// {title, formula, lines, convention} for each card id that has a worked explanation (cards.js names them). The
// formula shown on hover is the same one, so it follows the timing convention the result used.
export const CARD_EXPLAINERS = {
  ttft(r) {
    if (r.parallel) return planned('Time to first token', r);
    const w = r.workload;
    const chunks = w.prefill_chunks > 1 ? [`${w.prefill_chunks} prefill steps of at most ${w.prefill_chunk} new tokens per request`] : [];
    return {
      title: 'Time to first token', convention: convention(r),
      formula: w.timing === 'per-op'
        ? 'TTFT = sum over prefill operators of [max(FLOPs / (peak x e_class), bytes / (bandwidth x e_mem)) + kernels x gap], at least the host\'s launches, + the runtime\'s host work per step'
        : 'TTFT = max(sum of compute times, sum of memory times) + sum of dispatches x t_dispatch (phase-max timing)',
      lines: [...chunks, ...phaseLines(r, 'prefill', r.ttft_s), ...peakLines(r), `TTFT = ${seconds(r.ttft_s)}`],
    };
  },
  tpot(r) {
    if (r.parallel) return planned('Time per output token', r);
    const d = r.decode;
    return {
      title: 'Time per output token', convention: convention(r),
      formula: `TPOT = mean over the decode steps of the step time; each step is the decode operators at that step's context (KV reads grow with it), summed in closed form${r.workload.timing === 'per-op' ? '' : '; each step max(sum of compute, sum of memory) + dispatches (phase-max timing)'}`,
      lines: [`first step ${seconds(d.tpot_first_s)} (context ${count(d.timeline[0]?.context ?? 0)}), last ${seconds(d.tpot_last_s)} (context ${count(d.timeline[d.timeline.length - 1]?.context ?? 0)})`,
        `mean over ${count(d.steps)} steps: ${seconds(d.time_s)} / ${count(d.steps)} = ${seconds(d.time_s / d.steps)}`, ...peakLines(r), 'First step:', ...phaseLines(r, 'decode', d.tpot_first_s).map((l) => `  ${l}`)],
    };
  },
  throughput(r) {
    return { title: 'Decode throughput', convention: convention(r), formula: 'tokens/s per request = 1 / TPOT; for the batch, x the requests stepping together',
      lines: [`1 / ${seconds(r.decode.tpot_s)} = ${(1 / r.decode.tpot_s).toFixed(2)} tok/s`, `x ${count(r.workload.batch_requests)} request(s) = ${r.decode.batch_tokens_per_s.toFixed(2)} tok/s`] };
  },
  memory(r) {
    const m = r.memory;
    return { title: 'Memory', convention: convention(r), formula: 'required = weights + KV cache at the end of the workload + peak activations; usable = sum of the memory tiers - what the driver and OS keep',
      lines: [`${bytes(m.weights_bytes)} + ${bytes(m.kv_cache_bytes)} + ${bytes(m.activation_peak_bytes)} = ${bytes(m.required_bytes)}`,
        m.runtime_usable_bytes != null
          ? `usable: what ${r.execution.runtime_name}'s memory fraction budgets of ${r.hardware.memory_tiers[0].name} = ${bytes(m.capacity_bytes)} (the device keeps ${bytes(m.reserve_bytes || 0)} for the driver and OS)`
          : `usable ${r.hardware.memory_tiers.map((t) => `${t.name} ${tierCapacity(t)}`).join(' + ')} - ${bytes(m.reserve_bytes || 0)} kept by the driver and OS = ${bytes(m.capacity_bytes)}`,
        `kept by the driver and OS: ${m.reserve_basis || 'none'}`,
        ...(m.compute_buffer_bytes != null ? [`activations: the compute buffer ${r.execution?.runtime_name ?? 'the runtime'} reserves when it starts, ${bytes(m.compute_buffer_bytes)} (one micro-batch over the whole cache, in F32; without flash attention its scores grow with the cache)`] : []),
        ...(m.runtime_usable_bytes != null ? [`${r.execution.runtime_name}'s memory fraction: at most ${bytes(m.runtime_usable_bytes)} of the first tier${m.runtime_reserve_bytes > 0 ? ` (it keeps ${bytes(m.runtime_reserve_bytes)} aside)` : ''}`] : []),
        m.fits ? (m.fits_first_tier ? 'fits in the first tier' : 'fits only by spilling to slower tiers (see where the bytes live)') : `short by ${bytes(m.required_bytes - m.capacity_bytes)}`] };
  },
  kv(r) {
    const m = r.memory;
    const w = r.workload;
    return { title: 'KV cache', convention: convention(r), formula: 'KV bytes per token = sum over layers of (K + V widths, or the MLA latent) x bytes per element; x each request\'s context, sliding windows and chunks capped',
      lines: [kvPerToken(m), `requests: ${w.requests.map((q) => `${count(q.count)} x (${count(q.cached)} cached + ${count(q.input)} new + ${count(w.gen)} generated)`).join(', ')}`, `at the end: ${bytes(m.kv_cache_bytes)}`,
        ...(m.state_bytes - (m.image_kv_bytes ?? 0) > 0 ? [`of which ${bytes(m.state_bytes - (m.image_kv_bytes ?? 0))} is the recurrent state of linear-attention and state-space layers: constant per sequence, whatever the context`] : []),
        ...(m.image_kv_bytes > 0 ? [`of which ${bytes(m.image_kv_bytes)} is the cross-attention layers' keys and values of each prompt's image tokens: computed once in its prefill, constant per sequence`] : [])] };
  },
  images(r) {
    const w = r.workload;
    return { title: 'Image tokens', convention: convention(r),
      formula: `tokens per image from its size as the ${r.model.vision_encoder} processor resizes and patches it (docs/formulas.md, "Vision encoders"); they join every new prompt`,
      lines: [...w.images.map((im) => `${im.width} x ${im.height}: ${count(im.encoder_patches)} encoder patches in ${count(im.encoder_sequences)} sequence(s) -> ${count(im.tokens)} tokens` +
        (im.cross_attention_tokens > 0 ? `, and ${count(im.cross_attention_tokens)} tokens the cross-attention layers attend (docs/formulas.md, "Cross-attention")` : '')),
        `${count(w.image_tokens)} tokens added to each new prompt`] };
  },
  prefill_flops: (r) => flopsCard('Prefill FLOPs', 'prefill', r),
  decode_flops: (r) => flopsCard('Decode FLOPs / token', 'decode', r),
  e2e(r) {
    if (r.parallel) return planned('End to end', r);
    return { title: 'End to end', convention: convention(r), formula: 'end to end = TTFT + the sum of the decode steps after the first token',
      lines: [`${seconds(r.ttft_s)} + ${seconds(r.e2e_s - r.ttft_s)} = ${seconds(r.e2e_s)}`] };
  },
};

function flopsCard(title, phase, r) {
  const ops = r.ops.filter((o) => o.phase === phase).sort((a, b) => b.flops - a.flops);
  const t = r[phase];
  return { title, convention: convention(r), formula: 'sum over operators of count x FLOPs per call (GEMMs 2 m k n; attention by the convention; dequantization, LoRA and padding included)',
    lines: [`${ops.slice(0, 4).map((o) => `${o.name} ${si(o.flops, 'FLOP')}`).join(' + ')}${ops.length > 4 ? ` + ${ops.length - 4} more` : ''} = ${si(t.flops, 'FLOP')}`,
      phase === 'decode' ? `per generated token: ${si(t.flops, 'FLOP')} / ${count(t.tokens)} token(s) per step = ${si(t.flops_per_token, 'FLOP')}` : `bytes moved: ${bytes(t.bytes)} (weights ${bytes(t.weight_bytes)}, KV ${bytes(t.kv_read_bytes + t.kv_write_bytes)}, activations ${bytes(t.act_read_bytes + t.act_write_bytes)})`] };
}

const FIELD_TITLES = {
  flops: 'FLOPs', weight_bytes: 'Weights', act_read_bytes: 'Activations read', act_write_bytes: 'Activations written',
  kv_read_bytes: 'KV read', kv_write_bytes: 'KV written', overhead_flops: 'Overhead FLOPs', intensity_flop_per_byte: 'FLOP/byte', time_s: 'Time', bound: 'Bound',
};

// An operator cell: its value per call and in total, and for time and bound the roofline arithmetic.
export function explainOp(o, field, r) {
  const title = `${o.name} (${o.group || 'model'}, ${o.phase}): ${FIELD_TITLES[field] || field}`;
  const conv = convention(r);
  const per = (v, fmt) => `${o.count} x ${fmt(v / o.count)} per call = ${fmt(v)}`;
  if (field === 'time_s' || field === 'bound') {
    if (!r.hardware || o.time_s === undefined) return { title, convention: conv, formula: 'Pick a device to time operators.', lines: [] };
    return { title, convention: conv, formula: 'time = max(FLOPs / (peak x e_class), bytes / (bandwidth x e_mem)) + launches x t_dispatch; bound = the largest of the three terms',
      lines: [...opTime(o, r).lines, `bound: ${o.bound}`] };
  }
  if (field === 'intensity_flop_per_byte') {
    return { title, convention: conv, formula: 'intensity = FLOPs / bytes moved (weights + KV + activations)',
      lines: [`${si(o.flops, 'FLOP')} / ${bytes(o.bytes)} = ${(o.flops / o.bytes).toPrecision(3)} FLOP/byte`] };
  }
  if (field === 'flops' || field === 'overhead_flops') {
    const extra = [['dequantization', o.dequant_flops], ['LoRA', o.lora_flops], ['tile padding', o.padded_flops]].filter(([, v]) => v > 0);
    return { title, convention: conv, formula: 'count (layers) x FLOPs per call, overheads included',
      lines: [per(o.flops, (v) => si(v, 'FLOP')), ...extra.map(([k, v]) => `of which ${k}: ${si(v, 'FLOP')}`)] };
  }
  return { title, convention: conv, formula: 'count (layers) x bytes per call', lines: [per(o[field] || 0, bytes)] };
}
