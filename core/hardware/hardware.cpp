#include "hardware/hardware.hpp"

#include <algorithm>

namespace infercast {

double reserve_bytes(const MemoryReserve& r, double capacity) {
  const double share = r.small_up_to_bytes > 0 && capacity <= r.small_up_to_bytes ? r.small_fraction : r.fraction;
  return std::min(capacity, r.fixed_bytes + share * capacity);
}

const NameTable<MemoryTech>& memory_tech_names() {
  static const NameTable<MemoryTech> t(
      {{MemoryTech::HBM2, "HBM2", "stacked DRAM on an interposer, 2nd generation"},
       {MemoryTech::HBM2e, "HBM2e", "HBM2 extended"},
       {MemoryTech::HBM3, "HBM3", "stacked DRAM, 3rd generation"},
       {MemoryTech::HBM3e, "HBM3e", "HBM3 extended"},
       {MemoryTech::GDDR6, "GDDR6", "graphics DRAM on a board, NRZ"},
       {MemoryTech::GDDR6X, "GDDR6X", "graphics DRAM, PAM4"},
       {MemoryTech::GDDR7, "GDDR7", "graphics DRAM, PAM3"},
       {MemoryTech::LPDDR4X, "LPDDR4X", "low-power DRAM, often unified with a CPU"},
       {MemoryTech::LPDDR5, "LPDDR5", "low-power DRAM, often unified with a CPU"},
       {MemoryTech::LPDDR5X, "LPDDR5X", "low-power DRAM, often unified with a CPU"},
       {MemoryTech::DDR4, "DDR4", "socketed system DRAM"},
       {MemoryTech::DDR5, "DDR5", "socketed system DRAM"},
       {MemoryTech::SRAM, "SRAM", "on-chip static RAM"},
       {MemoryTech::UFS, "UFS", "phone flash storage"},
       {MemoryTech::NVMe, "NVMe", "flash over PCIe"},
       {MemoryTech::Other, "other", "anything else (say what in the tier's name)"}},
      ListStyle::OneOf);
  return t;
}

bool PeakEstimate::covers(ComputeType t) const {
  for (ComputeType d : dtypes)
    if (d == t) return true;
  return false;
}

bool HardwareSpec::has_any_peak() const {
  for (double p : peak_flops)
    if (p > 0) return true;
  return false;
}

bool HardwareSpec::has_vector_peaks() const {
  for (double p : peak_flops_vector)
    if (p > 0) return true;
  return false;
}

bool resolve_compute(const HardwareSpec& hw, ComputeType t, ComputeType& used) { return resolve_compute(hw.peak_flops, t, used); }

bool resolve_compute(const std::array<double, 8>& peaks, ComputeType t, ComputeType& used) {
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
    if (peaks[static_cast<std::size_t>(c)] > 0) {
      used = c;
      return true;
    }
  }
  return false;
}

}  // namespace infercast
