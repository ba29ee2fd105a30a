#include "runtime/scheduler.hpp"

#include <algorithm>
#include <cctype>

namespace infercast {

const NameTable<StepPolicy>& step_policy_names() {
  static const NameTable<StepPolicy> t(
      {{StepPolicy::DecodeFirst, "decode-first", "running requests decode first, waiting prompts fill the rest of the token budget (in chunks)"},
       {StepPolicy::PrefillFirst, "prefill-first", "a step is a prefill of waiting prompts when one can be admitted, else a decode of every running request"},
       {StepPolicy::MixedWhole, "mixed-whole", "decodes and whole prompts in one step; a prompt waits until all of it fits the budget"}});
  return t;
}

const NameTable<MemoryBasis>& memory_basis_names() {
  static const NameTable<MemoryBasis> t(
      {{MemoryBasis::Total, "total", "a fraction of the device's memory holds weights, activations and the KV cache"},
       {MemoryBasis::Free, "free", "a fraction of what the weights and activations leave goes to the KV cache"},
       {MemoryBasis::Reserve, "reserve", "the device's memory less a reserve computed from the chunk size holds weights and KV cache"}});
  return t;
}

const NameTable<KvPool>& kv_pool_names() {
  static const NameTable<KvPool> t(
      {{KvPool::Fraction, "fraction", "a pool sized at start from the memory fraction; a batch fits only inside it"},
       {KvPool::Requested, "requested", "the cache is allocated for the contexts asked for; nothing is held back"}});
  return t;
}

const NameTable<Preemption>& preemption_names() {
  static const NameTable<Preemption> t(
      {{Preemption::Recompute, "recompute", "when the cache runs out the newest running request is evicted and recomputed later"},
       {Preemption::None, "none", "admission reserves the cache to each request's last token; nothing is evicted"}});
  return t;
}

namespace {
bool name_has(const std::string& name, const std::string& what) {
  std::string a = name, b = what;
  const auto up = [](std::string& s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  };
  up(a);
  up(b);
  return a.find(b) != std::string::npos;
}
}  // namespace

SchedulerLimits resolve_scheduler(const SchedulerSpec& s, const HardwareSpec& hw, int devices, int tp, long long graph_batch,
                                  long long max_num_seqs, long long token_budget) {
  return resolve_scheduler(s, hw.tiers.empty() ? 0 : hw.tiers.front().capacity_bytes, hw.name, devices, tp, graph_batch, max_num_seqs,
                           token_budget);
}

SchedulerLimits resolve_scheduler(const SchedulerSpec& s, double capacity_bytes, const std::string& device_name, int devices, int tp,
                                  long long graph_batch, long long max_num_seqs, long long token_budget) {
  SchedulerLimits l;
  l.stated = s.stated;
  l.policy = s.policy;
  l.chunked_prefill = s.chunked_prefill;
  l.max_num_seqs = s.max_num_seqs;
  l.token_budget = s.max_num_batched_tokens;
  const double gb = capacity_bytes / 1e9;
  for (const auto& r : s.rules) {
    if (gb < r.min_memory_gb || (r.max_memory_gb > 0 && gb >= r.max_memory_gb)) continue;
    if (!r.names.empty() && std::none_of(r.names.begin(), r.names.end(), [&](const std::string& x) { return name_has(device_name, x); }))
      continue;
    if (std::any_of(r.exclude.begin(), r.exclude.end(), [&](const std::string& x) { return name_has(device_name, x); })) continue;
    if (r.max_num_seqs) l.max_num_seqs = *r.max_num_seqs;
    if (r.max_num_batched_tokens) l.token_budget = *r.max_num_batched_tokens;
    if (tp >= 4 && r.graph_max_tokens_tp4) graph_batch = *r.graph_max_tokens_tp4;
    else if (r.graph_max_tokens) graph_batch = *r.graph_max_tokens;
    break;
  }
  if (max_num_seqs > 0) l.max_num_seqs = max_num_seqs;
  if (token_budget > 0) l.token_budget = token_budget;
  l.max_prefill_tokens = s.max_prefill_tokens > 0 ? std::max(s.max_prefill_tokens, l.token_budget) : l.token_budget;
  l.memory_fraction = s.memory_fraction;
  l.memory_basis = s.memory_basis;
  l.kv_pool = s.kv_pool;
  l.graph_batch = graph_batch;
  if (s.memory_basis == MemoryBasis::Reserve) {
    const EngineReserve& r = s.reserve;
    double mb = r.base_mb + r.per_chunk_token_mb * static_cast<double>(std::max<long long>(l.token_budget, 2048)) +
                r.per_graph_batch_mb * static_cast<double>(graph_batch) + r.per_device_mb * devices;
    if (gb > 60) mb = std::max(mb, r.min_large_mb);
    l.reserve_bytes = mb * 1048576.0;
    // The fraction SGLang derives from it (mem_fraction_static = (total - reserve) / total), as it logs it.
    if (gb > 0) l.memory_fraction = std::max(0.0, 1 - l.reserve_bytes / (gb * 1e9));
  }
  l.kv_block_tokens = std::max<long long>(1, s.kv_block_tokens);
  l.preemption = s.preemption;
  l.prefix_caching = s.prefix_caching;
  l.pool_seqs = s.pool_seqs;
  l.output_delay_steps = s.output_delay_steps;
  l.scheduler_steps = s.scheduler_steps;
  l.pp_micro_batches = s.pp_micro_batches;
  l.sampler_bytes_per_logit = s.sampler_bytes_per_logit;
  return l;
}

}  // namespace infercast
