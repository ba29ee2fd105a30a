#include "analysis/offload.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/steps.hpp"

namespace infercast {

namespace {

// Layers [first, last) of the model, with or without the token embedding and the output layer.
ModelSpec slice(const ModelSpec& m, int first, int last, bool embedding, bool output) {
  ModelSpec s = m;
  s.layers.assign(m.layers.begin() + first, m.layers.begin() + last);
  s.has_embedding = embedding;
  s.has_head = output;
  return s;
}

struct Split {
  int device_first = 0;  // the device holds layers [device_first, L) ...
  bool output = false;   // ... and the output layer
};
Split split_of(int gpu_layers, int L) {
  Split s;
  s.device_first = L - std::min(gpu_layers, L);
  s.output = gpu_layers > L;
  return s;
}

bool discrete(const HardwareSpec& dev) { return dev.device_class == "consumer-gpu" || dev.device_class == "datacenter-gpu"; }

// The device's layers. With the output layer left on the host, a discrete GPU still runs its matrix for a prompt's
// micro-batch (ggml's operator offload), copying the weights into the compute buffer llama.cpp reserves (0.77 GiB of
// Qwen3-14B's Q8_0 output layer beside its logits in a published ROCm log at -ngl 0: 1,094.99 MiB).
Analysis device_part(const ModelSpec& m, const Workload& w, const HardwareSpec& dev, const Split& s, const OffloadSpec& spec) {
  Workload on_device = w;
  on_device.ubatch = spec.ubatch;
  if (!s.output && discrete(dev) && m.has_head && spec.ubatch >= spec.op_offload_min_tokens)
    on_device.host_head_bytes = static_cast<double>(m.vocab) * static_cast<double>(m.hidden) *
                                w.settings.precision.of(WeightClass::LmHead).bits_per_element / 8;
  return analyze(slice(m, s.device_first, static_cast<int>(m.layers.size()), false, s.output), on_device, &dev);
}

// Adds the host's operators after the device's, their groups marked, with their times.
void append(Phase& into, const Phase& from, const std::string& prefix) {
  for (std::size_t i = 0; i < from.ops.size(); ++i) {
    Op o = from.ops[i];
    o.group = o.group.empty() ? prefix : prefix + ": " + o.group;
    into.ops.push_back(o);
    if (i < from.times.size()) into.times.push_back(from.times[i]);
  }
  into.totals = totals_of(into.ops);
  into.tokens = std::max(into.tokens, from.tokens);
  into.compute_s += from.compute_s;
  into.memory_s += from.memory_s;
  into.time_s += from.time_s;
}

void add_sums(WorkSums& into, const WorkSums& from) {
  for (std::size_t i = 0; i < into.flops_by_type.size(); ++i) into.flops_by_type[i] += from.flops_by_type[i];
  into.weight_bytes += from.weight_bytes;
  into.kv_bytes += from.kv_bytes;
  into.act_bytes += from.act_bytes;
}

}  // namespace

Analysis analyze_offloaded(const ModelSpec& model, const Workload& w, const HardwareSpec& device, const OffloadSpec& spec,
                           OffloadResult& out) {
  const int L = static_cast<int>(model.layers.size());
  out.n_layers = L;
  // -ngl: given, or the most layers (and then the output layer) whose weights, cache and activations fit the device.
  int ngl = spec.gpu_layers;
  if (ngl < 0) {
    out.chosen = true;
    int lo = 0, hi = L + 1;  // fits at lo (0 layers always "fits": nothing to hold), test upwards
    if (device_part(model, w, device, split_of(hi, L), spec).fits) {
      lo = hi;
    } else {
      while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        (device_part(model, w, device, split_of(mid, L), spec).fits ? lo : hi) = mid;
      }
    }
    ngl = lo;
  }
  ngl = std::min(ngl, L + 1);
  out.gpu_layers = ngl;
  const Split s = split_of(ngl, L);

  OffloadPart& dp = out.device;
  dp.first_layer = s.device_first;
  dp.layers = L - s.device_first;
  dp.output = s.output;
  dp.a = device_part(model, w, device, s, spec);
  dp.prefill_s = dp.a.ttft_s;

  OffloadPart& hp = out.host;
  hp.first_layer = 0;
  hp.layers = s.device_first;
  hp.embedding = true;
  hp.output = !s.output;
  const ModelSpec host_model = slice(model, 0, s.device_first, true, !s.output);
  Workload on_host = w;
  on_host.ubatch = spec.ubatch;
  if (spec.host_runtime) on_host.runtime = &*spec.host_runtime;
  hp.a = analyze(host_model, on_host, &spec.host);
  hp.prefill_s = hp.a.ttft_s;
  Phase host_prefill = hp.a.prefill;

  // A large prompt step runs the host layers on the device: their weights (not the embedding table, which is only
  // gathered from) are copied over the link once per micro-batch, then computed there.
  i64 step_tokens = 0;
  for (const auto& r : w.requests) step_tokens += r.input * r.count;
  if (discrete(device) && spec.link_bytes_per_s > 0 && step_tokens >= spec.op_offload_min_tokens && hp.layers + (hp.output ? 1 : 0) > 0) {
    HardwareSpec roomy = device;
    for (auto& t : roomy.tiers) t.capacity_bytes = 1e18;
    roomy.reserve_bytes = 0;
    const Analysis on_device = analyze(host_model, w, &roomy);
    const double table = static_cast<double>(model.vocab) * static_cast<double>(model.hidden) *
                         w.settings.precision.of(WeightClass::Embedding).bits_per_element / 8;
    const double copied = std::max(0.0, hp.a.weights_bytes - table);
    const double ubatches = std::ceil(static_cast<double>(step_tokens) / std::max(1, spec.ubatch));
    hp.prefill_streamed = true;
    hp.stream_s = ubatches * copied / spec.link_bytes_per_s;
    hp.prefill_s = on_device.ttft_s + hp.stream_s;
    host_prefill = on_device.prefill;
    Op copy;
    copy.name = "weight_copy";
    copy.cls = OpClass::Memory;
    copy.count = static_cast<i64>(ubatches);
    copy.weight_bytes = ubatches * copied;
    OpTime t;
    t.memory_s = t.time_s = hp.stream_s;
    t.bound = "memory";
    host_prefill.ops.push_back(copy);
    host_prefill.times.push_back(t);
    host_prefill.time_s += hp.stream_s;
    host_prefill.memory_s += hp.stream_s;
  }

  // The two parts run one after the other for every step: times add; memory is each device's own.
  const Analysis& d = dp.a;
  const Analysis& h = hp.a;
  Analysis c;
  c.params = count_params(model);
  c.groups = group_layers(model);
  c.has_hardware = true;
  c.weights_bytes = d.weights_bytes;
  c.kv_bytes_per_token = d.kv_bytes_per_token + h.kv_bytes_per_token;
  c.kv_bytes_per_token_past_windows = d.kv_bytes_per_token_past_windows + h.kv_bytes_per_token_past_windows;
  c.kv_cache_bytes = d.kv_cache_bytes;
  c.activation_peak_bytes = d.activation_peak_bytes;
  c.compute_buffer_bytes = d.compute_buffer_bytes;  // the device's (the host's is in its own part)
  c.compute_buffer_shape = d.compute_buffer_shape;
  c.compute_buffer_cells = d.compute_buffer_cells;
  c.compute_buffer_sequences = d.compute_buffer_sequences;
  c.batch_requests = d.batch_requests;
  c.prefill = d.prefill;
  append(c.prefill, host_prefill, "host");
  c.prefill.time_s = dp.prefill_s + hp.prefill_s;
  c.decode = d.decode;
  append(c.decode, h.decode, "host");
  c.decode_steps = d.decode_steps;
  c.decode_flops_per_token = c.batch_requests > 0 ? c.decode.totals.flops / c.batch_requests : 0;
  c.ttft_s = c.prefill.time_s;
  c.tpot_first_s = d.tpot_first_s + h.tpot_first_s;
  c.tpot_last_s = d.tpot_last_s + h.tpot_last_s;
  c.tpot_mean_s = d.tpot_mean_s + h.tpot_mean_s;
  c.decode_time_s = d.decode_time_s + h.decode_time_s;
  c.e2e_s = c.ttft_s + c.decode_time_s;
  c.tokens_per_s = c.tpot_mean_s > 0 ? 1 / c.tpot_mean_s : 0;
  c.batch_tokens_per_s = c.tokens_per_s * c.batch_requests;
  c.memory_capacity_bytes = d.memory_capacity_bytes;
  c.runtime_budget = d.runtime_budget;
  c.runtime_usable_bytes = d.runtime_usable_bytes;
  c.runtime_reserve_bytes = d.runtime_reserve_bytes;
  c.memory_required_bytes = d.memory_required_bytes;
  c.fits = d.fits && h.fits;
  c.fits_first_tier = d.fits_first_tier && h.fits;
  c.max_batch = std::min(d.max_batch, h.max_batch);
  c.max_context = std::min(d.max_context, h.max_context);
  c.max_context_memory = std::min(d.max_context_memory, h.max_context_memory);
  c.placement = d.placement;
  c.timeline = d.timeline;
  for (std::size_t i = 0; i < c.timeline.size() && i < h.timeline.size(); ++i) c.timeline[i].tpot_s += h.timeline[i].tpot_s;
  c.prefill_work = d.prefill_work;
  add_sums(c.prefill_work, h.prefill_work);
  c.decode_work = d.decode_work;
  add_sums(c.decode_work, h.decode_work);
  c.prefill_chunks = d.prefill_chunks;
  c.lora_merge_flops = d.lora_merge_flops + h.lora_merge_flops;
  c.lora_merge_s = d.lora_merge_s + h.lora_merge_s;
  c.execution = d.execution;  // the device's runtime (it was left at the reference stack's: audit H)
  c.warnings = d.warnings;
  for (auto wr : h.warnings) {
    wr.message = "host (" + spec.host.name + "): " + wr.message;
    // The host's part is analyzed more than once (its own timer per phase): each warning once.
    if (std::none_of(c.warnings.begin(), c.warnings.end(), [&](const Warning& x) { return x.code == wr.code && x.message == wr.message; }))
      c.warnings.push_back(wr);
  }
  return c;
}

}  // namespace infercast
