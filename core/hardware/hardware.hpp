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

// What the driver and the operating system keep of the first memory tier (a CUDA context, the display, macOS's GPU
// wired limit), so the usable capacity is below the datasheet's: a fixed amount plus a share of the tier, a larger
// share on small tiers where the class has one (docs/forecast.md, "Usable memory").
struct MemoryReserve {
  double fixed_bytes = 0;
  double fraction = 0;
  double small_fraction = 0;      // instead of `fraction` when the tier holds at most small_up_to_bytes
  double small_up_to_bytes = 0;
  std::string basis;              // where the figure comes from
};
double reserve_bytes(const MemoryReserve& r, double tier_capacity_bytes);

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
  double reserve_bytes = 0;   // of the first tier, kept by the driver and OS: not usable for weights or the cache
  std::string reserve_basis;  // the class default's source, or "set for this device"
};

// The data type whose peak an operator computing in `t` runs at on this device: `t` itself when the device has
// a peak for it, else the nearest wider type it has (fp8 on an A100 runs as bf16). Returns false when none.
bool resolve_compute(const HardwareSpec& hw, ComputeType t, ComputeType& used);

// Default efficiencies for a device class: presets/defaults/device_classes.json (io/defaults.cpp reads it), the
// datacenter-gpu row when the class is unknown.
Efficiencies default_efficiencies(const std::string& device_class);
MemoryReserve default_reserve(const std::string& device_class);
std::vector<std::string> device_classes();

}  // namespace infercast
