// Dense peaks from the architecture: compute units x FLOP per clock per unit x clock, per data type, with the
// per-generation rates of presets/defaults/architectures.json (io/defaults.cpp reads it). Where a vendor gives
// no units or clock (an NPU quoted only in TOPS), a published peak of another type scales by the generation's
// ratio of rates instead. docs/forecast.md, "Peaks: published and derived".
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "hardware/hardware.hpp"

namespace infercast {

// One row of presets/defaults/architectures.json: dense FLOP (or integer ops) per clock per compute unit.
struct Generation {
  std::string key;     // "nvidia-hopper"
  std::string name;    // "NVIDIA Hopper (GH100)"
  std::string unit;    // what a compute unit is: "SM", "CU", "GPU core", "CPU core", "NPU tile", ...
  std::array<double, 8> flop_per_clock{};                   // by ComputeType; 0: the engine has no such rate
  std::array<double, 8> flop_per_clock_fp16_accumulate{};   // where FP16 accumulation is faster (GeForce)
  std::string accumulate;  // what flop_per_clock assumes for fp16/fp8 ("FP32 accumulate"), or empty
  std::string source;
  std::string trust;   // high | medium | low
};

struct DerivedPeaks {
  std::array<double, 8> flops{};                  // FLOP/s; 0 where the generation has no rate
  std::array<double, 8> flops_fp16_accumulate{};  // FLOP/s; 0 where it does not differ
  std::string method;                             // "architecture" | "ratio"
  std::array<std::string, 8> arithmetic;          // per type: "48 SMs x 1024 FLOP/clock x 2.52 GHz = 123.9 TFLOPS"
  std::array<std::string, 8> arithmetic_fp16_accumulate;
};

// units x rate x clock for every type of the generation; nothing when units or clock are missing.
std::optional<DerivedPeaks> derive_from_architecture(const Architecture& a, const Generation& g);
// A published (not estimated) peak of `hw` scaled by the generation's rates: the first of bf16, fp16, fp8, int8,
// fp4, int4, tf32, fp32 that both have. Nothing when there is none.
std::optional<DerivedPeaks> derive_from_ratio(const HardwareSpec& hw, const Generation& g);
// The architecture when it has units and a clock, else the ratio.
std::optional<DerivedPeaks> derive_peaks(const HardwareSpec& hw, const Generation& g);

// What estimated peaks are stored as: TFLOPS rounded to 4 significant digits (a derived 123.86 is kept as 123.9).
double round_estimate_tflops(double flops);
// "fp16 ...; bf16 ..." over `types` (the ones derived), for a preset's peak_estimated.derivation.
std::string derivation_text(const DerivedPeaks& d, const std::vector<ComputeType>& types);

}  // namespace infercast
