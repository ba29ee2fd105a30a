// The headline cards, one entry each: when it shows, its value and line below, its hover text, whether it warns,
// and its worked explanation (explain.js, by the same id). A new card is one entry here.
import { setProp, setText } from './dom.js';
import { CARD_EXPLAINERS } from './explain.js';
import { bytes, count, kvPerToken, rate, seconds, si } from './format.js';

const one = (r) => Boolean(r.hardware) && !r.parallel;  // one device
const plan = (r) => Boolean(r.parallel);
const costs = (r) => one(r) && Boolean(r.cost);
const spec = (r) => r.speculative;

export function boundOf(r, phase) {
  const ops = r.ops.filter((o) => o.phase === phase && o.time_s !== undefined);
  const t = { compute: 0, memory: 0, dispatch: 0 };
  for (const o of ops) t[o.bound] += o.time_s;
  const total = t.compute + t.memory + t.dispatch;
  const top = Object.entries(t).sort((a, b) => b[1] - a[1])[0];
  return total > 0 ? `${top[0]}-bound (${((100 * top[1]) / total).toFixed(0)}% of time)` : '-';
}

// What the KV cache holds per sequence whatever its length: recurrent layers' state, cross-attention layers'
// keys and values of the images (Llama 3.2 Vision).
const stateNote = (m) => {
  const image = m.image_kv_bytes ?? 0;
  const recurrent = (m.state_bytes ?? 0) - image;
  return (recurrent > 0 ? `; ${bytes(recurrent)} of it recurrent state` : '') + (image > 0 ? `; ${bytes(image)} of it the images' keys and values` : '');
};
const fitsText = (m) => (m.fits ? (m.fits_first_tier ? 'fits' : 'fits only by spilling to slower tiers') : 'does NOT fit');
// A value the core cannot know (no published price or power) shows as a dash with the reason.
const DASH = '—';
const pj = (a) => (a.pJ_per_flop.bf16 ?? Object.values(a.pJ_per_flop)[0] ?? 0).toPrecision(3);

export const CARDS = [
  // One device.
  { id: 'ttft', label: 'Time to first token', show: one, value: (r) => seconds(r.ttft_s), sub: (r) => boundOf(r, 'prefill') },
  { id: 'tpot', label: 'Time per output token', show: one, value: (r) => seconds(r.decode.tpot_s),
    sub: (r) => `first ${seconds(r.decode.tpot_first_s)}, last ${seconds(r.decode.tpot_last_s)}` },
  { id: 'throughput', label: 'Decode throughput', show: one, value: (r) => rate(r.decode.tokens_per_s, 'tok/s'),
    sub: (r) => `${rate(r.decode.batch_tokens_per_s, 'tok/s')} for the batch` },
  { id: 'memory', label: 'Memory', show: one, value: (r) => bytes(r.memory.required_bytes),
    sub: (r) => `of ${bytes(r.memory.capacity_bytes)} usable${r.memory.runtime_usable_bytes != null ? ` under ${r.execution.runtime_name}'s memory fraction` : (r.memory.reserve_bytes > 0 ? ` (${bytes(r.memory.reserve_bytes)} kept by driver/OS)` : '')}: ${fitsText(r.memory)}`,
    bad: (r) => !r.memory.fits || !r.memory.fits_first_tier,
    hint: (r) => `Weights, the KV cache at the end of the workload and the largest activations, against the device's memory less what the driver and OS keep (${r.memory.reserve_basis})${r.memory.runtime_usable_bytes != null ? `, within what ${r.execution.runtime_name} budgets for its KV pool` : ''}` },
  { id: 'offload', label: 'Offloaded to system RAM', show: (r) => one(r) && Boolean(r.offload),
    value: (r) => `${r.offload.gpu_layers} of ${r.offload.layers + 1} layers on GPU`,
    sub: (r) => `system RAM: ${bytes(r.offload.host_part.required_bytes)} of ${bytes(r.offload.host_part.capacity_bytes)}, decode ${seconds(r.offload.host_part.tpot_s)}/token there`,
    bad: (r) => !r.offload.host_part.fits,
    hint: (r) => `llama.cpp -ngl ${r.offload.gpu_layers}${r.offload.chosen ? ' (the most that fit)' : ''}: the last layers on the device, the token embedding and the first ${r.offload.host_part.layers} layers in host memory at ${r.offload.host.memory_tiers[0].bandwidth_GBps} GB/s; TPOT = device part + host part. A prompt of 32+ tokens runs the host layers on the device, their weights copied over the ${r.offload.link_GBps} GB/s link per micro-batch.` },
  { id: 'fits', label: 'Fits at most', show: one, value: (r) => (r.memory.max_batch >= 1 ? `${count(r.memory.max_batch)} requests` : 'not one request'),
    sub: (r) => {
      const m = r.memory;
      if (m.max_batch < 1) return m.weights_bytes > m.capacity_bytes ? 'the weights alone exceed the memory' : 'weights plus one request exceed the memory';
      const at = `at a batch of ${count(r.workload.batch_requests)}`;
      if (m.max_context_limit === 'window') return `${at}: its whole ${count(m.max_context)}-token window each (memory holds ${m.max_context_memory >= 1e9 ? 'any context' : count(m.max_context_memory)})`;
      return m.max_context >= 1e9 ? 'any context (windowed layers only)' : `${at}: ${count(m.max_context)} tokens of context each`;
    },
    hint: () => 'Largest batch of requests like these, and the longest context per request at the batch asked about, that fit in the memory tiers: the room the weights leave divided by this batch\'s KV cache and activations per request (the batching curve computes each batch at its size)' },
  { id: 'bound', label: 'Decode bound', show: one, value: (r) => boundOf(r, 'decode').split(' ')[0], sub: (r) => boundOf(r, 'decode'),
    hint: () => 'Share of decode time by what bounds each operator' },
  { id: 'e2e', label: 'End to end', show: one, value: (r) => seconds(r.e2e_s), sub: (r) => `${r.workload.gen} tokens x ${r.workload.batch_requests} request(s)` },
  { id: 'energy', label: 'Energy per token', show: costs,
    value: (r) => (r.cost.energy_available ? `${r.cost.decode.j_per_token.toPrecision(3)} J` : DASH),
    sub: (r) => (r.cost.energy_available
      ? `decode; prefill ${r.cost.prefill.j_per_token.toPrecision(3)} J/token; ${r.cost.busy_power_W.toFixed(0)} W busy`
      : 'no published power: set it under Energy and cost'),
    unknown: (r) => !r.cost.energy_available,
    hint: (r) => {
      const a = r.cost.assumptions;
      return r.cost.energy_available
        ? `J = static ${a.static_W.toFixed(1)} W x time + FLOPs x ${pj(a)} pJ (bf16) + bytes x ${a.pJ_per_byte_by_tier[0].toPrecision(3)} pJ. ${a.sources.energy}`
        : r.cost.warnings.map((w) => w.message).join(' ');
    } },
  { id: 'cost', label: 'Cost per 1M tokens', show: costs,
    value: (r) => (r.cost.usd_per_million_tokens === null ? DASH : `$${r.cost.usd_per_million_tokens.toPrecision(3)}`),
    sub: (r) => (r.cost.usd_per_million_tokens === null ? r.cost.usd_unknown_reason
      : r.cost.usd_basis === 'hardware and electricity' ? `hardware $${r.cost.hardware_usd_per_hour.toFixed(3)}/h + energy $${r.cost.energy_usd_per_hour.toFixed(3)}/h` : r.cost.usd_basis),
    unknown: (r) => r.cost.usd_per_million_tokens === null,
    hint: (r) => {
      const a = r.cost.assumptions;
      return `($${a.price_USD} / ${a.lifetime_years} years + power x PUE ${a.pue} x $${a.usd_per_kWh}/kWh) / output tokens at ${Math.round(a.utilization * 100)}% utilization. ${a.sources.ownership}`;
    } },
  { id: 'co2', label: 'CO2 per 1M tokens', show: costs,
    value: (r) => (r.cost.gCO2e_per_million_tokens === null ? DASH : `${r.cost.gCO2e_per_million_tokens.toPrecision(3)} g`),
    sub: (r) => (r.cost.gCO2e_per_million_tokens === null ? r.cost.co2_unknown_reason
      : `${r.cost.assumptions.region}, ${r.cost.assumptions.grid_gCO2e_per_kWh} g/kWh${r.cost.has_embodied ? ', embodied included' : ', operation only'}`),
    unknown: (r) => r.cost.gCO2e_per_million_tokens === null,
    hint: (r) => (r.cost.gCO2e_per_million_tokens === null ? r.cost.co2_unknown_reason
      : `operational ${(r.cost.operational_gCO2e_per_million_tokens ?? 0).toPrecision(3)} g + embodied ${r.cost.embodied_gCO2e_per_million_tokens.toPrecision(3)} g. ${r.cost.assumptions.sources.grid}`) },
  { id: 'lora', label: 'LoRA merge (once)', show: (r) => one(r) && r.workload.lora.rank > 0, value: (r) => seconds(r.workload.lora.merge_s),
    sub: (r) => si(r.workload.lora.merge_flops, 'FLOP'),
    hint: () => 'Merging the adapters into the weights once: sum over adapted matrices of (2r + 2) x K x N (LIFE Table 12)' },
  // A plan over several devices.
  { id: 'ttft', label: 'Time to first token', show: plan, value: (r) => seconds(r.parallel.ttft_s),
    sub: (r) => `communication ${seconds(r.parallel.communication.prefill_s)}` },
  { id: 'tpot', label: 'Time per output token', show: plan, value: (r) => seconds(r.parallel.tpot_s),
    sub: (r) => (spec(r) ? `speculative; ${seconds(spec(r).plain_tpot_s)} without (${spec(r).speedup.toFixed(2)}x)` : `communication ${seconds(r.parallel.communication.decode_step_s)} per step`) },
  { id: 'plan_throughput', label: 'Throughput', show: plan, value: (r) => rate(r.parallel.total_tokens_per_s, 'tok/s'),
    sub: (r) => `${rate(r.parallel.tokens_per_s_per_device, 'tok/s')} per device; ${rate(r.parallel.tokens_per_s, 'tok/s')} per sequence${spec(r) ? `; ${rate(spec(r).plain_total_tokens_per_s, 'tok/s')} without speculative decoding` : ''}`,
    hint: (r) => `batch per replica x replicas / mean TPOT (one batch in flight per replica)${spec(r) ? '; TPOT with speculative decoding' : ''}` },
  { id: 'plan_memory', label: 'Memory per device', show: plan, value: (r) => bytes(r.parallel.device_required_bytes),
    sub: (r) => `of ${bytes(r.parallel.device_capacity_bytes)}: ${r.parallel.fits ? 'fits' : 'does NOT fit'}`, bad: (r) => !r.parallel.fits,
    hint: () => 'The fullest device: its share of the weights, its KV cache and activations (and a speculative draft on the first stage)' },
  { id: 'devices', label: 'Devices', show: plan, value: (r) => `${r.parallel.plan.devices}`,
    sub: (r) => { const pl = r.parallel.plan; return `tp ${pl.tp} x pp ${pl.pp} x dp ${pl.dp}${pl.ep > 1 ? `, ep ${pl.ep}` : ''}`; },
    hint: (r) => r.parallel.system.name },
  { id: 'plan_fits', label: 'Fits at most', show: plan, value: (r) => (r.parallel.max_batch >= 1 ? `${count(r.parallel.max_batch)} requests` : 'not one request'),
    sub: (r) => {
      const c = r.parallel.max_context;
      const at = `per replica, shaped like these; at a batch of ${count(r.workload.batch_requests)}`;
      if (c == null) return 'per replica, shaped like these (with a draft, the longest context is not computed)';
      return c >= 1 ? `${at}: ${count(c)} tokens of context each` : `${at}: no context`;
    },
    hint: () => 'Largest batch per replica whose KV cache and activations fit every device, and the longest context per request at the batch asked about (the smallest of the stages\' own, within the model\'s window)' },
  { id: 'e2e', label: 'End to end', show: plan, value: (r) => seconds(r.parallel.e2e_s), sub: (r) => `${r.workload.gen} tokens x ${r.workload.batch_requests} request(s)` },
  { id: 'speculative', label: 'Speculative decoding', show: (r) => plan(r) && Boolean(spec(r)), value: (r) => `${spec(r).tokens_per_step.toFixed(2)} tok/step`,
    sub: (r) => `draft ${seconds(spec(r).draft_step_s)}, verify ${seconds(spec(r).verify_step_s)}`,
    hint: (r) => `${spec(r).draft === 'mtp' ? 'MTP module' : spec(r).draft} drafts ${spec(r).draft_tokens} at acceptance ${spec(r).acceptance.toPrecision(3)} (${(100 * spec(r).draft_acceptance_rate).toPrecision(3)}% of drafted tokens accepted, vLLM's draft acceptance rate); draft on ${spec(r).draft_tp} device(s); (draft tokens x draft step + verification step) / expected tokens per step, (1 - a^(g+1)) / (1 - a); the draft's prefill, ${seconds(spec(r).draft_prefill_s)}, is in TTFT` },
  // Always.
  { id: 'prefill_flops', label: 'Prefill FLOPs', show: () => true, value: (r) => si(r.prefill.flops, 'FLOP'), sub: (r) => `${bytes(r.prefill.bytes)} moved` },
  { id: 'decode_flops', label: 'Decode FLOPs / token', show: () => true, value: (r) => si(r.decode.flops_per_token, 'FLOP'), sub: (r) => `${bytes(r.decode.bytes)} moved per step` },
  { id: 'kv', label: 'KV cache', show: () => true, value: (r) => bytes(r.memory.kv_cache_bytes),
    sub: (r) => `${kvPerToken(r.memory)}${stateNote(r.memory)}` },
  { id: 'images', label: 'Image tokens', show: (r) => r.workload.image_tokens > 0, value: (r) => count(r.workload.image_tokens),
    sub: (r) => `${r.workload.images.length} image(s) in each prompt, ${r.model.vision_encoder} encoder` },
];

// A card's explanation: its worked one, or its hover text with the value shown.
export function explainCard(id, r, element) {
  const x = CARD_EXPLAINERS[id] && CARD_EXPLAINERS[id](r);
  if (x) return x;
  const c = CARDS.find((k) => k.id === id && k.show(r));
  return { title: c ? c.label : id, formula: c && c.hint ? c.hint(r) : '',
    lines: [`${element.querySelector('.value').textContent}: ${element.querySelector('.sub').textContent}`] };
}

// Cards whose value is a time (a lower bound when the device has no compute peak) or a rate (then an upper bound).
const TIMES = new Set(['ttft', 'tpot', 'e2e']);
const RATES = new Set(['throughput', 'plan_throughput']);
// With offload or a plan, a part without a peak makes the whole a bound too (the core's lower_bound says so).
const isBound = (r) => Boolean(r.parallel ? r.parallel.lower_bound : r.lower_bound || (r.peak && r.peak.memory_only));
const lowerBound = (c, r) => (one(r) || plan(r)) && isBound(r) && (TIMES.has(c.id) || RATES.has(c.id));

// The result each card last showed: its hover text (the worked formula) is made when the pointer or the focus
// comes to it, not for every card on every input (2-3 ms per input).
const shown = new WeakMap();
function fillTitle(event) {
  const d = event.currentTarget;
  const s = shown.get(d);
  if (!s) return;
  const x = CARD_EXPLAINERS[s.c.id] && CARD_EXPLAINERS[s.c.id](s.r);
  setProp(d, 'title', `${x ? x.formula : s.c.hint ? s.c.hint(s.r) : ''} (click for the numbers)`);
}

// A card's element, made once and then updated in place: a new analysis sets only the text and attributes that
// changed, so the browser re-lays out and re-shapes only those (rebuilding every card cost a 7-8 ms layout per
// input on a 2-core machine), and a card that has the keyboard focus keeps it.
function cardElement(c) {
  const d = document.createElement('div');
  d.dataset.card = c.id;
  activate(d);
  for (const cls of ['label', 'value', 'sub']) {
    const e = document.createElement('div');
    e.className = cls;
    d.appendChild(e);
  }
  d.children[1].setAttribute('elementtiming', 'numbers');  // the Element Timing API reports when they are painted
  return d;
}

// What each card shown for a result says, in order: its id, class, label, value and the line below. The page's
// cards are filled from it, and so are the cards built into the page's HTML (scripts/build-site.mjs, cardsHtml), so
// a first visit paints the default analysis before any script has run.
export function cardTexts(r) {
  return CARDS.filter((c) => c.show(r)).map((c) => {
    const bound = lowerBound(c, r);
    return {
      c,
      className: (c.bad && c.bad(r)) || bound ? 'card bad' : c.unknown && c.unknown(r) ? 'card unknown' : 'card',
      label: c.label,
      value: bound ? `${TIMES.has(c.id) ? '≥' : '≤'} ${c.value(r)}` : c.value(r),
      sub: bound ? 'a bound, not a forecast: this device has no compute peak (memory and dispatch only)' : c.sub(r),
    };
  });
}

function fillCard(d, t, r) {
  shown.set(d, { c: t.c, r });
  setProp(d, 'className', t.className);
  const [label, val, small] = d.children;
  setText(label, t.label);
  setText(val, t.value);
  setText(small, t.sub);
  if (d.title && (d === document.activeElement || d.matches(':hover'))) fillTitle({ currentTarget: d });
}

// What makes a card one: its listeners, and its role as a button that opens its explanation (a card built into the
// page's HTML gets them when the page's script takes it over, so it is never a button that does nothing).
function activate(d) {
  d.addEventListener('pointerenter', fillTitle);
  d.addEventListener('focus', fillTitle);
  d.tabIndex = 0;
  d.setAttribute('role', 'button');
  d.setAttribute('aria-haspopup', 'dialog');
}

// The cards of a result, updated in place. The cards built into the page's HTML (cardsHtml) are taken over by its
// first render: kept where they are (already painted), made cards (activate), and filled like the page's own.
export function renderCards(box, r) {
  for (const e of [...box.children]) {
    if (shown.has(e)) continue;
    if (e.dataset.card && e.children.length === 3) activate(e);
    else e.remove();
  }
  const have = new Map([...box.children].map((e) => [e.dataset.card, e]));
  let at = box.firstElementChild;
  for (const t of cardTexts(r)) {
    const d = have.get(t.c.id) || cardElement(t.c);
    have.delete(t.c.id);
    fillCard(d, t, r);
    if (d !== at) box.insertBefore(d, at);
    else at = at.nextElementSibling;
  }
  for (const e of have.values()) e.remove();
}

// The cards of a result as HTML, as cardElement and fillCard make them, for the page as it is built (renderCards
// takes them over). `escape` makes a text safe in HTML.
export function cardsHtml(r, escape) {
  return cardTexts(r).map((t) => `<div data-card="${escape(t.c.id)}" class="${escape(t.className)}">`
    + `<div class="label">${escape(t.label)}</div><div class="value" elementtiming="numbers">${escape(t.value)}</div><div class="sub">${escape(t.sub)}</div></div>`).join('');
}

// The weight formats the model is published in, as the "as published" choice shows them: "fp8_block128 + bf16",
// the formats only (the classes, listed in the choice itself, made it 532 px wide in a 132 px select); the classes in
// each other format under the select (publishedClasses). Both only while that choice is the one analyzed.
function published(p, analyzed) {
  const main = p.declared_weights || 'bf16';
  const byDtype = new Map();
  if (analyzed) for (const [cls, d] of Object.entries(p.by_class)) byDtype.set(d.dtype, [...(byDtype.get(d.dtype) || []), cls]);
  return { main, rest: [...byDtype].filter(([d]) => d !== main) };
}

export function publishedLabel(p, analyzed) {
  const { main, rest } = published(p, analyzed);
  return `as published: ${[main, ...rest.map(([d]) => d)].join(' + ')}`;
}

export function publishedClasses(p, analyzed) {
  const { main, rest } = published(p, analyzed);
  return rest.length ? `Published in ${main}; ${rest.map(([d, cls]) => `${d}: ${cls.join(', ')}`).join('; ')}.` : '';
}
