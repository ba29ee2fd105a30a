// analyze(): a model, a workload and (optionally) a device to operators, memory, TTFT and TPOT, as named steps:
// footprint, the first steps' operators, placement and limits, prefill timing, and the decode sum (decode.cpp).
#include "analysis/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "analysis/steps.hpp"
#include "runtime/memory_budget.hpp"

namespace infercast {

// The activations a step holds at its peak: its largest operator's reads and writes (one layer's, not the count's).
double activation_peak_bytes(const std::vector<Op>& ops) {
  double peak = 0;
  for (const auto& op : ops)
    if (op.count > 0) peak = std::max(peak, (op.act_read_bytes + op.act_write_bytes) / static_cast<double>(op.count));
  return peak;
}

double profile_forward_bytes(const ModelSpec& model, const std::vector<LayerGroup>& groups, const StepSettings& settings, long long token_budget) {
  return activation_peak_bytes(step_ops(model, groups, {Request{0, std::max<i64>(1, token_budget), 1}}, settings));
}

long long longest_engine_step(const SchedulerLimits& l, const std::vector<Request>& requests) {
  long long step = l.token_budget;
  if (!l.chunked_prefill || l.policy == StepPolicy::MixedWhole)
    for (const Request& r : requests) step = std::max<long long>(step, r.input);
  return step;
}

namespace {

// Adds `more` into `into` operator by operator (the same model and settings give the same operator list).
void add_ops(std::vector<Op>& into, const std::vector<Op>& more) {
  for (std::size_t i = 0; i < into.size() && i < more.size(); ++i) {
    Op& o = into[i];
    const Op& m = more[i];
    add_costs(o, m);
    o.dequant_flops += m.dequant_flops;
    o.lora_flops += m.lora_flops;
    o.padded_flops += m.padded_flops;
  }
}

// Memory footprint: each weight class in its own format (norm weights stay in the activations' type), and the
// KV cache at the end of the workload.
void footprint(Analysis& a, const Workload& w) {
  const StepSettings& s = w.settings;
  const double kb = s.precision.kv.bits_per_element / 8;
  const auto bytes_of = [&](WeightClass c) { return s.precision.of(c).bits_per_element / 8; };
  const auto& P = a.params;
  a.weights_bytes = static_cast<double>(P.embedding) * bytes_of(WeightClass::Embedding) +
                    static_cast<double>(P.lm_head) * bytes_of(WeightClass::LmHead) +
                    static_cast<double>(P.attention) * bytes_of(WeightClass::Attention) +
                    static_cast<double>(P.ffn_dense + P.experts_shared) * bytes_of(WeightClass::Ffn) +
                    static_cast<double>(P.experts_routed) * bytes_of(WeightClass::Experts) +
                    static_cast<double>(P.router) * bytes_of(WeightClass::Router) +
                    static_cast<double>(P.vision + P.audio) * bytes_of(WeightClass::Vision) +
                    static_cast<double>(P.norms) * s.activation_bytes();
  for (const auto& r : w.requests) {
    a.batch_requests += static_cast<double>(r.count);
    const double end_ctx = static_cast<double>(r.cached + r.input + std::max<i64>(w.gen_tokens - 1, 0));
    a.kv_cache_bytes += static_cast<double>(r.count) * kv_bytes_per_request(a.groups, kb, end_ctx, a.window_kv_full);
  }
  // Recurrent layers keep a constant state per sequence, and cross-attention layers their image tokens' keys and
  // values, held with the KV cache (docs/formulas.md, "Memory").
  a.state_bytes = a.batch_requests * state_bytes_per_request(a.groups, s);
  a.image_kv_bytes = a.batch_requests * image_kv_bytes_per_request(a.groups, s);
  a.kv_cache_bytes += a.state_bytes;
  for (const auto& g : a.groups) {
    a.kv_bytes_per_token += static_cast<double>(g.count) *
                            (kv_bytes_per_token_layer(g.spec.attn, kb) + compressed_kv_bytes_per_token(g.spec.attn, kb));
    a.kv_bytes_per_token_past_windows +=
        static_cast<double>(g.count) * kv_bytes_per_token_past_windows(g.spec.attn, kb, a.window_kv_full);
  }
}

// llama.cpp holds its compute buffer whatever a step needs: the graph of one micro-batch of n_ubatch tokens over the
// whole cache, reserved when the context is made (runtime/memory_budget.hpp). Its activations are that buffer.
void reserve_compute_buffer(Analysis& a, const ModelSpec& model, const Workload& w) {
  if (!w.runtime || w.runtime->compute_buffer != ComputeBuffer::Reserved) return;
  ComputeBufferShape& s = a.compute_buffer_shape;
  s.flash = w.settings.attention == AttnImpl::Fused;
  // The score matrix held is the one the attention operators move (ops/attention.cpp): one type for both.
  s.score_bytes = w.settings.score_bytes > 0 ? w.settings.score_bytes : w.settings.activation_bytes();
  s.ubatch = static_cast<double>(w.ubatch > 0 ? w.ubatch : w.runtime->prompt_micro_batch);
  const bool logits = model.has_head || w.host_head_bytes > 0;  // the output layer here, or run here from the host
  s.vocab = logits ? static_cast<double>(model.vocab) : 0;
  s.hidden = static_cast<double>(model.hidden);
  s.copied_head = w.host_head_bytes;
  // Every attention layer's queries attend its cache: the whole one, or (a sliding window that llama.cpp keeps as
  // its own cache) window x sequences + ubatch cells. A chunked layer (Llama 4) masks within the whole cache.
  for (const auto& l : model.layers) {
    if (!l.has_attention) continue;
    const double heads = static_cast<double>(l.attn.n_heads);
    s.q_width = std::max(s.q_width, heads * static_cast<double>(l.attn.head_dim));
    if (l.attn.window > 0 && !a.window_kv_full) {
      s.heads_window = std::max(s.heads_window, heads);
      s.window = std::max(s.window, static_cast<double>(l.attn.window));
    } else {
      s.heads_full = std::max(s.heads_full, heads);
    }
  }
  a.compute_buffer_sequences = 0;
  a.compute_buffer_cells = 0;  // every request's whole context in one unified cache (llama-server's slots share it)
  for (const auto& r : w.requests) {
    a.compute_buffer_cells += static_cast<double>((r.cached + r.input + w.gen_tokens) * r.count);
    a.compute_buffer_sequences += static_cast<double>(r.count);
  }
  // A layer's other operators, per token of one micro-batch: F32 where the step's tensors are in the activations'
  // type; an elementwise operator (a norm, an activation) writes over its input, so only its larger side is held.
  const i64 ub = std::max<i64>(1, static_cast<i64>(std::min(s.ubatch, ggml_context_cells(a.compute_buffer_cells, s.flash))));
  const double f32 = 4.0 / w.settings.activation_bytes();
  double layer = 0;
  for (const auto& op : step_ops(model, a.groups, {Request{0, ub, 1}}, w.settings)) {
    if (op.count <= 0 || op.cls == OpClass::Attention) continue;
    // A GEMM in the compute type reads its input so (StepSettings::gemm_input_bytes); ggml holds it as the rest. A
    // GEMM in its 16-bit weights' type (Builder::gemm) read it as stored already.
    const bool narrow = op.cls == OpClass::GEMM && op.compute == w.settings.precision.activations.native;
    const double in = narrow ? w.settings.activation_bytes() / w.settings.gemm_input_bytes() : 1;
    const double rd = in * op.act_read_bytes / static_cast<double>(op.count), wr = op.act_write_bytes / static_cast<double>(op.count);
    layer = std::max(layer, op.cls == OpClass::Elementwise ? std::max(rd, wr) : rd + wr);
  }
  s.layer_per_token = layer * f32 / static_cast<double>(ub) + s.hidden * 4;  // the residual beside it
  // The windowed layers' caches: shared by the sequences, window x sequences + ubatch cells padded (llama.cpp's
  // iSWA cache, llama-kv-cache-iswa.cpp size_swa), not `window` cells per request. The same cells the buffer's
  // masks and scores are sized for.
  if (!a.window_kv_full) {
    const double kb = w.settings.precision.kv.bits_per_element / 8;
    double per_request = 0;
    for (const auto& r : w.requests)
      per_request += static_cast<double>(r.count) *
                     windowed_kv_bytes_per_request(a.groups, kb, static_cast<double>(r.cached + r.input + std::max<i64>(w.gen_tokens - 1, 0)));
    const double delta = ggml_window_kv_bytes(a.groups, kb, s, a.compute_buffer_cells, a.compute_buffer_sequences) - per_request;
    a.kv_cache_bytes += delta;
    a.memory_required_bytes += delta;
  }
  a.compute_buffer_bytes = compute_buffer_bytes(s, a.compute_buffer_cells, a.compute_buffer_sequences);
  a.memory_required_bytes += a.compute_buffer_bytes - a.activation_peak_bytes;
  a.activation_peak_bytes = a.compute_buffer_bytes;
}

// The first step (prefill or the given ragged step) and the first decode step. With chunked prefill the first step
// runs as several: each request advances by at most `prefill_chunk` new tokens per step, attending to what earlier
// chunks cached; the operator table sums the chunks. Each chunk's operators are made, added and dropped (a chunked
// prefill can run tens of thousands of steps: time_prefill makes them again to time them, so memory stays flat).
// Returns the chunks' requests.
std::vector<std::vector<Request>> first_steps(Analysis& a, const ModelSpec& model, const Workload& w) {
  const StepSettings& s = w.settings;
  std::vector<std::vector<Request>> chunks = prefill_steps(w.requests, w.prefill_chunk);
  a.prefill_chunks = static_cast<double>(chunks.size());
  // The activations' peak: the largest operator of any one step (a chunk's own, not the chunks' sum).
  const auto peak = [&](const std::vector<Op>& ops) { a.activation_peak_bytes = std::max(a.activation_peak_bytes, activation_peak_bytes(ops)); };
  a.prefill.ops = step_ops(model, a.groups, chunks.front(), s);
  peak(a.prefill.ops);
  for (std::size_t i = 1; i < chunks.size(); ++i) {
    const std::vector<Op> more = step_ops(model, a.groups, chunks[i], s);
    peak(more);
    add_ops(a.prefill.ops, more);
  }
  for (const auto& r : w.requests) a.prefill.tokens += static_cast<double>(r.input * r.count);
  a.decode_steps = static_cast<double>(std::max<i64>(w.gen_tokens - 1, 0));  // decode steps after the first token
  a.decode.ops = step_ops(model, a.groups, decode_step(w.requests, 0), s);
  a.decode.tokens = a.batch_requests;
  peak(a.decode.ops);
  time_phase(a.prefill, nullptr, w.timing);
  time_phase(a.decode, nullptr, w.timing);
  for (const auto& o : a.prefill.ops) add_work(a.prefill_work, o);
  if (s.lora.rank > 0) {
    const LoraCost lora = lora_cost(model, a.groups, s.lora.rank);
    a.lora_merge_flops = lora.merge_flops;
    // Adapters kept apart from the weights (unmerged, or merged at every call) are memory too, in the activations'
    // type; merged once, they are the weights.
    if (s.lora.mode != LoraMode::Merged) {
      a.lora_adapter_bytes = lora.adapter_elements * s.activation_bytes();
      a.weights_bytes += a.lora_adapter_bytes;
    }
  }
  a.decode_flops_per_token = a.batch_requests > 0 ? a.decode.totals.flops / a.batch_requests : 0;
  a.memory_required_bytes = a.weights_bytes + a.kv_cache_bytes + a.activation_peak_bytes;
  return chunks;
}

// TTFT: the first step's operators bound on their own (or its phase maxed); with chunked prefill each chunk is its
// own step and the times add.
void time_prefill(Analysis& a, const ModelSpec& model, const Workload& w, const std::vector<std::vector<Request>>& chunks,
                  const Timer& timer) {
  a.prefill_blocks.clear();
  if (chunks.size() == 1) {
    a.prefill_blocks.push_back(time_phase(a.prefill, &timer, w.timing));
  } else {
    // Each chunk is its own step: its operators are bound on their own (or its phase maxed) and the times add.
    double t = 0, tc = 0, tm = 0;
    std::vector<OpTime> times(a.prefill.ops.size());
    for (const auto& chunk : chunks) {
      Phase ph;
      ph.ops = step_ops(model, a.groups, chunk, w.settings);
      ph.tokens = a.prefill.tokens / static_cast<double>(chunks.size());
      a.prefill_blocks.push_back(time_phase(ph, &timer, w.timing));
      t += ph.time_s;
      tc += ph.compute_s;
      tm += ph.memory_s;
      for (std::size_t i = 0; i < times.size() && i < ph.times.size(); ++i) {
        times[i].compute_s += ph.times[i].compute_s;
        times[i].memory_s += ph.times[i].memory_s;
        times[i].dispatch_s += ph.times[i].dispatch_s;
        times[i].time_s += ph.times[i].time_s;
        times[i].compute_used = ph.times[i].compute_used;
      }
    }
    for (auto& ot : times) ot.bound = bound_of(ot);
    a.prefill.times = std::move(times);
    a.prefill.time_s = t;
    a.prefill.compute_s = tc;
    a.prefill.memory_s = tm;
  }
}

}  // namespace

const NameTable<Timing>& timing_names() {
  static const NameTable<Timing> t(
      {{Timing::PerOp, "per-op", "each operator bound on its own: sum of max(compute, memory) + dispatch"},
       {Timing::PhaseMax, "phase-max", "LIFE: max(total compute, total memory) per phase + dispatches"}});
  return t;
}

std::vector<std::vector<Request>> prefill_steps(const std::vector<Request>& first, i64 chunk) {
  std::vector<std::vector<Request>> chunks;
  if (chunk > 0) {
    std::vector<Request> left = first;
    for (;;) {
      std::vector<Request> step;
      for (auto& r : left) {
        if (r.input <= 0) continue;
        const i64 take = std::min(r.input, chunk);
        step.push_back(Request{r.cached, take, r.count});
        r.cached += take;
        r.input -= take;
      }
      if (step.empty()) break;
      chunks.push_back(std::move(step));
    }
  }
  if (chunks.size() <= 1) chunks = {first};
  return chunks;
}

std::vector<Request> decode_step(const std::vector<Request>& first, double j) {
  std::vector<Request> step;
  step.reserve(first.size());
  for (const auto& r : first) step.push_back(Request{r.cached + r.input + static_cast<i64>(j), 1, r.count});
  return step;
}

const char* phase_bound(const Phase& p) { return p.memory_s >= p.compute_s ? "memory" : "compute"; }

double op_compute_seconds(const HardwareSpec& hw, const Op& op) { return op_compute_seconds(hw, resolve_execution(hw, nullptr), op); }
double op_compute_seconds(const HardwareSpec& hw, const Execution& x, const Op& op) {
  return Timer(hw, x, TierCost{}, nullptr).compute_s(op, op.flops);
}

Analysis analyze(const ModelSpec& model, const Workload& w, const HardwareSpec* hw) {
  Analysis a;
  a.params = count_params(model);
  a.groups = group_layers(model);
  a.window_kv_full = window_kv_held_in_full(w.runtime, model.model_type);
  if (std::string gap = weight_format_gap(w.runtime, w.settings.precision.weights); !gap.empty())
    a.warnings.push_back({"runtime.weight_format", "/precision/weights", std::move(gap)});
  if (a.window_kv_full)
    a.warnings.push_back({"memory.window_kv_full", "/runtime",
                          window_kv_full_text(*w.runtime, model.model_type) + ": the cache grows with the context in every layer"});
  footprint(a, w);
  const std::vector<std::vector<Request>> chunks = first_steps(a, model, w);
  reserve_compute_buffer(a, model, w);
  if (!hw) return a;
  a.has_hardware = true;
  // The engine's profile step (a forward over its token budget, vLLM's sampler over a full batch), which its pool
  // leaves room for.
  std::optional<SchedulerLimits> engine;
  if (has_fraction_pool(w.runtime)) {
    const SchedulerLimits& l = engine.emplace(engine_limits(*hw, w));
    const double forward = profile_forward_bytes(model, a.groups, w.settings, l.token_budget);
    // A stage's vocabulary is its TP share; the sampler sees all of it.
    a.profile_activation_bytes = profile_activation_bytes(l, forward, model.has_head, static_cast<double>(model.vocab) * std::max(1, w.tp));
    // The engine runs no step past its token budget (chunked prefill, or prompts admitted while their tokens fit
    // it): a static batch's prompts run as budget-sized steps, so their activations peak at a budget's step. (They
    // were the whole batch's prompts in one step: DeepSeek-V3 at batch 460 held 28 GiB a device, and the largest
    // batch under vLLM came out 1.5-2.4x below what its own pool holds; audit H.) Without chunking a prompt runs
    // whole, so the step is the longest prompt where that passes the budget (TensorRT-LLM with chunked prefill off).
    // The prefill is still timed as one step: the same FLOPs, compute-bound at such sizes.
    const long long step = longest_engine_step(l, w.requests);
    const double cap = step > l.token_budget ? profile_forward_bytes(model, a.groups, w.settings, step) : forward;
    if (cap > 0) {
      a.activation_uncapped_bytes = a.activation_peak_bytes;
      a.activation_step_cap_bytes = cap;
      if (cap < a.activation_peak_bytes) {
        a.memory_required_bytes -= a.activation_peak_bytes - cap;
        a.activation_peak_bytes = cap;
      }
    }
  }
  const TierCost inv = place_and_limit(a, *hw, w, w.settings.precision.kv.bits_per_element / 8, engine ? &*engine : nullptr);
  // The longest context memory holds, within the window the model was trained for (max_position_embeddings).
  a.max_context_memory = a.max_context;
  if (model.max_position > 0) a.max_context = std::min(a.max_context, static_cast<double>(model.max_position));
  a.execution = resolve_execution(*hw, w.runtime);
  const Timer timer(*hw, a.execution, inv, &a.warnings);
  time_prefill(a, model, w, chunks, timer);
  time_phase(a.decode, &timer, w.timing);
  if (a.lora_merge_flops > 0) {
    Op merge;
    merge.cls = OpClass::GEMM;
    merge.compute = w.settings.precision.activations.native;
    a.lora_merge_s = timer.compute_s(merge, a.lora_merge_flops);
  }
  a.ttft_s = a.prefill.time_s;
  a.tpot_first_s = a.decode.time_s;
  sum_decode(a, timer, model, w);
  return a;
}

}  // namespace infercast
