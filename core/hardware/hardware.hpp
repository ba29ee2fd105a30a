// A device: dense peak compute per data type, memory tiers fastest first, interconnect, power and price, and
// the efficiencies that turn peaks into forecasts. SI units inside (FLOP/s, bytes, bytes/s, seconds, watts).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "quant/dtype.hpp"

namespace infercast {

struct MemoryTier {
  std::string name;
  double capacity_bytes = 0;
  double bandwidth_bytes_per_s = 0;
  double energy_j_per_byte = 0;
};

// Fractions of the datasheet peaks reached in practice, per operator class; overridable per device.
struct Efficiencies {
  double gemm = 0.7;
  double attention = 0.5;
  double elementwise = 0.5;
  double memory = 0.8;
  double dispatch_s = 5e-6;  // fixed cost per kernel launch / operator dispatch
};

// Bits of HardwareSpec::eff_given: the efficiencies a device document states itself (a calibrated device), which win
// over a runtime's (runtime/runtime.hpp).
constexpr unsigned kEffGemm = 1, kEffAttention = 2, kEffElementwise = 4, kEffMemory = 8, kEffDispatch = 16;

struct HardwareSpec {
  std::string id;
  std::string name;
  std::string vendor;
  std::string device_class;
  std::string source;
  std::array<double, 8> peak_flops{};  // indexed by ComputeType; 0: not supported
  std::vector<MemoryTier> tiers;       // fastest first
  double interconnect_bytes_per_s = 0;
  double tdp_w = 0;
  double idle_w = 0;
  double price_usd = 0;
  double embodied_kgco2e = 0;
  Efficiencies eff;
  unsigned eff_given = 0;  // kEff* bits
};

// The data type whose peak an operator computing in `t` runs at on this device: `t` itself when the device has
// a peak for it, else the nearest wider type it has (fp8 on an A100 runs as bf16). Returns false when none.
bool resolve_compute(const HardwareSpec& hw, ComputeType t, ComputeType& used);

// Default efficiencies for a device class: presets/defaults/device_classes.json (io/defaults.cpp reads it), the
// datacenter-gpu row when the class is unknown.
Efficiencies default_efficiencies(const std::string& device_class);
std::vector<std::string> device_classes();

}  // namespace infercast
