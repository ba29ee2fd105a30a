#include "analysis/remedies.hpp"

#include <algorithm>

namespace infercast {

const NameTable<Remedy>& remedy_names() {
  static const NameTable<Remedy> t(
      {{Remedy::RaiseFraction, "raise_memory_fraction", "raise the runtime's memory fraction: the device holds the workload"},
       {Remedy::SmallerFormat, "smaller_format", "store the weights in fewer bits"},
       {Remedy::OffloadLayers, "offload_layers", "keep some layers in system RAM (llama.cpp's -ngl)"},
       {Remedy::FewerRequests, "fewer_requests", "run fewer or shorter requests: the weights and activations alone fit"},
       {Remedy::MoreDevices, "more_devices", "split the model over several devices"}});
  return t;
}

bool weights_pass_budget(const Analysis& a) {
  return a.weights_bytes + std::max(a.activation_peak_bytes, a.profile_activation_bytes) >= a.runtime_usable_bytes;
}

std::vector<Remedy> memory_remedies(const Analysis& a, const RuntimeSpec* rt) {
  if (!a.has_hardware || a.fits) return {};
  const bool budget = std::any_of(a.warnings.begin(), a.warnings.end(), [](const Warning& w) { return w.code == "memory.runtime_budget"; });
  if (budget) {
    if (weights_pass_budget(a)) return {Remedy::RaiseFraction, Remedy::SmallerFormat, Remedy::MoreDevices};
    return {Remedy::RaiseFraction, Remedy::FewerRequests};
  }
  std::vector<Remedy> out{Remedy::SmallerFormat};
  if (rt && rt->id.rfind("llama.cpp", 0) == 0) out.push_back(Remedy::OffloadLayers);
  if (a.weights_bytes + a.activation_peak_bytes < a.memory_capacity_bytes) out.push_back(Remedy::FewerRequests);
  out.push_back(Remedy::MoreDevices);
  return out;
}

}  // namespace infercast
