#include "hardware/hardware.hpp"

#include <algorithm>

namespace infercast {

double reserve_bytes(const MemoryReserve& r, double capacity) {
  const double share = r.small_up_to_bytes > 0 && capacity <= r.small_up_to_bytes ? r.small_fraction : r.fraction;
  return std::min(capacity, r.fixed_bytes + share * capacity);
}

bool resolve_compute(const HardwareSpec& hw, ComputeType t, ComputeType& used) {
  using C = ComputeType;
  std::vector<C> order;
  switch (t) {
    case C::FP4: order = {C::FP4, C::FP8, C::BF16, C::FP16, C::FP32}; break;
    case C::INT4: order = {C::INT4, C::INT8, C::FP16, C::BF16, C::FP32}; break;
    case C::FP8: order = {C::FP8, C::BF16, C::FP16, C::FP32}; break;
    case C::INT8: order = {C::INT8, C::FP16, C::BF16, C::FP32}; break;
    case C::BF16: order = {C::BF16, C::FP16, C::FP32}; break;
    case C::FP16: order = {C::FP16, C::BF16, C::FP32}; break;
    case C::TF32: order = {C::TF32, C::FP32}; break;
    case C::FP32: order = {C::FP32}; break;
  }
  for (C c : order) {
    if (hw.peak_flops[static_cast<std::size_t>(c)] > 0) {
      used = c;
      return true;
    }
  }
  return false;
}

}  // namespace infercast
