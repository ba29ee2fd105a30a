#include "runtime/memory_budget.hpp"

#include <algorithm>
#include <cmath>

namespace infercast {

double profile_activation_bytes(const SchedulerLimits& l, double forward_bytes, bool has_head, double vocab) {
  double bytes = forward_bytes;
  if (l.sampler_bytes_per_logit > 0 && has_head && vocab > 0) {
    const long long seqs = l.max_num_seqs > 0 ? std::min(l.max_num_seqs, l.token_budget) : l.token_budget;
    bytes = std::max(bytes, l.sampler_bytes_per_logit * static_cast<double>(seqs) * vocab);
  }
  return bytes;
}

double compute_buffer_bytes(const ComputeBufferShape& s, double cells, double sequences) {
  const double full = ggml_context_cells(cells, s.flash);
  const double ub = std::min(full, s.ubatch);
  const double output = s.copied_head + ub * (s.vocab + s.hidden) * 4;
  const double layer = ub * s.layer_per_token;
  double attention = 0;
  if (!s.flash && (s.heads_full > 0 || s.heads_window > 0)) {
    const double windowed = ggml_window_cells(s.window, sequences, s.ubatch, cells, s.flash);
    const double scores = ub * s.score_bytes * std::max(s.heads_full * full, s.heads_window * windowed);
    const double masks = ub * 4 * ((s.heads_full > 0 ? full : 0) + (s.heads_window > 0 ? windowed : 0));
    attention = scores + masks + (2 * s.hidden + 2 * s.q_width) * ub * 4;
  }
  return std::max({output, attention, layer});
}

double ggml_context_cells(double cells, bool flash_attention) {
  const double pad = flash_attention ? 256 : 32;
  return std::max(pad, std::ceil(cells / pad) * pad);
}

double ggml_window_cells(double window, double sequences, double ubatch, double cells, bool flash_attention) {
  // A windowed layer's cache: window x sequences + ubatch cells, padded, never more than the whole cache.
  const double full = ggml_context_cells(cells, flash_attention);
  const double ub = std::min(full, ubatch);
  return std::min(full, ggml_context_cells(window * std::max(1.0, sequences) + ub, flash_attention));
}

MemoryBudget memory_budget(const SchedulerLimits& l, const HardwareSpec& hw, double weights_bytes, double activation_bytes) {
  return memory_budget(l, hw.tiers.empty() ? 0 : hw.tiers.front().capacity_bytes, hw.reserve_bytes, hw.hidden_bytes(), weights_bytes,
                       activation_bytes);
}

MemoryBudget memory_budget(const SchedulerLimits& l, double capacity, double reserve, double hidden, double weights_bytes,
                           double activation_bytes) {
  MemoryBudget b;
  // What the driver and OS keep (the CUDA context, a display, macOS's share of unified memory) is outside the
  // runtime's reach: vLLM's fraction of the total leaves it in the headroom (never more than the rest), the free
  // memory TensorRT-LLM and SGLang measure after loading has already lost it.
  const double outside = capacity - reserve;
  switch (l.memory_basis) {
    case MemoryBasis::Total:  // of the total the driver reports, which lacks what it hides (HardwareSpec::hidden_fraction)
      b.usable_bytes = std::min(l.memory_fraction * (capacity - hidden), outside);
      b.kv_bytes = b.usable_bytes - weights_bytes - activation_bytes;
      break;
    case MemoryBasis::Free:
      b.kv_bytes = l.memory_fraction * (outside - weights_bytes - activation_bytes);
      b.usable_bytes = b.kv_bytes > 0 ? weights_bytes + activation_bytes + b.kv_bytes : outside;
      break;
    case MemoryBasis::Reserve:
      b.reserve_bytes = l.reserve_bytes;
      b.usable_bytes = outside - l.reserve_bytes;
      b.kv_bytes = b.usable_bytes - weights_bytes;
      break;
  }
  b.usable_bytes = std::max(0.0, b.usable_bytes);
  return b;
}

void apply_memory_fraction(SchedulerLimits& l, const HardwareSpec& hw, double fraction) {
  apply_memory_fraction(l, hw.tiers.empty() ? 0 : hw.tiers.front().capacity_bytes, fraction);
}

void apply_memory_fraction(SchedulerLimits& l, double capacity_bytes, double fraction) {
  if (fraction <= 0) return;
  l.memory_fraction = fraction;
  // SGLang: rest_memory = free after loading - (1 - mem_fraction_static) x total.
  if (l.memory_basis == MemoryBasis::Reserve)
    l.reserve_bytes = (1 - fraction) * capacity_bytes;
}

}  // namespace infercast
