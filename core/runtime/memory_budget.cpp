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

double reserved_compute_buffer_bytes(double ubatch, double vocab, double hidden, double cells, double scores_f32_bytes,
                                     double layer_f32_bytes, double copied_head_bytes) {
  const double output = copied_head_bytes + ubatch * (vocab + hidden) * 4;
  const double attention = scores_f32_bytes > 0 ? scores_f32_bytes + (cells + 4 * hidden) * ubatch * 4 : 0;
  return std::max({output, attention, layer_f32_bytes});
}

double ggml_context_cells(double cells, bool flash_attention) {
  const double pad = flash_attention ? 256 : 32;
  return std::max(pad, std::ceil(cells / pad) * pad);
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
  if (fraction <= 0) return;
  l.memory_fraction = fraction;
  // SGLang: rest_memory = free after loading - (1 - mem_fraction_static) x total.
  if (l.memory_basis == MemoryBasis::Reserve)
    l.reserve_bytes = (1 - fraction) * (hw.tiers.empty() ? 0 : hw.tiers.front().capacity_bytes);
}

}  // namespace infercast
