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

// Defaults per device class, tuned once against presets/validation/measured_public.csv with `infercast
// calibrate` per device and the class median taken (docs/forecast.md, "Default efficiencies", lists the fitted
// values per device). No per-row tuning: `infercast validate` uses these as they are.
Efficiencies default_efficiencies(const std::string& c) {
  Efficiencies e;  // datacenter GPUs: A100 / H100 / L40S under TensorRT-LLM, V100 under PyTorch
  e.gemm = 0.65;
  e.attention = 0.5;
  e.elementwise = 0.5;
  e.memory = 0.85;
  e.dispatch_s = 9e-6;
  if (c == "consumer-gpu") {  // RTX 3090 Ti / 4090 under llama.cpp CUDA
    e.gemm = 0.7;
    e.memory = 0.88;
    e.dispatch_s = 6e-6;
  } else if (c == "igpu" || c == "embedded-gpu") {  // Radeon 8060S (RyzenAI hybrid): 0.69 memory, 18 us
    e.gemm = 0.6;
    e.memory = 0.7;
    e.dispatch_s = 15e-6;
  } else if (c == "apple-soc") {  // 16 M1/M2 variants under llama.cpp Metal: gemm 0.60-0.72, memory 0.75-0.95
    e.gemm = 0.69;
    e.memory = 0.9;
    e.dispatch_s = 12e-6;
  } else if (c == "cpu") {
    // PyTorch eager on the Ryzen HX 370 (LIFE Table 6) reaches 13% of peak bandwidth in decode; LIFE reports
    // 3-10% on CPUs. Runtimes with hand-written kernels (llama.cpp) reach far more: calibrate for those.
    e.gemm = 0.65;
    e.attention = 0.3;
    e.memory = 0.13;
    e.dispatch_s = 2e-6;
  } else if (c == "npu") {  // Ryzen AI Max+ 395 NPU prefill: 12-23% of its 50 TOPS
    e.gemm = 0.25;
    e.attention = 0.2;
    e.memory = 0.6;
    e.dispatch_s = 50e-6;
  } else if (c == "mobile-soc") {
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
