#include "hardware/hardware.hpp"

namespace infercast {

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

const std::vector<std::string>& device_classes() {
  static const std::vector<std::string> v = {"datacenter-gpu", "consumer-gpu", "embedded-gpu", "apple-soc", "cpu",
                                             "npu", "igpu", "tpu", "mobile-soc", "sram-accelerator", "pim",
                                             "flash", "custom"};
  return v;
}

Efficiencies default_efficiencies(const std::string& c) {
  Efficiencies e;  // datacenter GPU defaults
  if (c == "consumer-gpu" || c == "igpu" || c == "embedded-gpu") {
    e.gemm = 0.6;
    e.memory = 0.75;
  } else if (c == "apple-soc") {
    e.gemm = 0.55;
    e.memory = 0.7;
    e.dispatch_s = 8e-6;
  } else if (c == "cpu") {
    e.gemm = 0.5;
    e.attention = 0.3;
    e.memory = 0.5;
    e.dispatch_s = 2e-6;
  } else if (c == "npu" || c == "mobile-soc") {
    e.gemm = 0.4;
    e.memory = 0.6;
    e.dispatch_s = 20e-6;
  } else if (c == "sram-accelerator" || c == "tpu") {
    e.gemm = 0.6;
    e.memory = 0.8;
    e.dispatch_s = 1e-6;
  }
  return e;
}

}  // namespace infercast
