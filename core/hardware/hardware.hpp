// A device: dense peak compute per data type, memory tiers fastest first, interconnect, power and price, and
// the efficiencies that turn peaks into forecasts. SI units inside (FLOP/s, bytes, bytes/s, seconds, watts).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "quant/dtype.hpp"
#include "util/names.hpp"

namespace infercast {

// What a memory tier is made of (presets/hardware `technology`): efficiency defaults follow the memory system.
enum class MemoryTech { Unknown, HBM2, HBM2e, HBM3, HBM3e, GDDR6, GDDR6X, GDDR7, LPDDR4X, LPDDR5, LPDDR5X, DDR4, DDR5, SRAM, UFS, NVMe, Other };
const NameTable<MemoryTech>& memory_tech_names();  // Unknown is not a name: a tier without `technology`

constexpr double kBytesPerGiB = 1073741824.0;  // 2^30

struct MemoryTier {
  std::string name;
  double capacity_bytes = 0;
  double bandwidth_bytes_per_s = 0;
  double energy_j_per_byte = 0;
  MemoryTech technology = MemoryTech::Unknown;
  // The document gave the capacity in GiB (2^30 bytes), as DRAM and SRAM are sold: a "80 GB" H100 holds 80 GiB
  // (nvidia-smi: 81,559 MiB). Written back in the unit it came in.
  bool capacity_in_gib = false;
};

// The compute engine: a generation of presets/defaults/architectures.json, how many of its units the device has
// and their clock. Peaks follow as units x FLOP per clock per unit x clock (hardware/derive.hpp).
struct Architecture {
  std::string generation;  // empty: not given
  int compute_units = 0;   // SMs, CUs, GPU cores, CPU cores, NPU tiles, MMEs, MXUs (0: not given)
  double clock_ghz = 0;    // boost clock (0: not given)
  double matrix_clock_ghz = 0;  // the clock matrix-engine peaks are quoted at, when it differs (H100: 1.83 vs 1.98)
  double l2_mb = 0;        // 0: not given
};

// Which dense peaks are derived rather than published: the data types, the arithmetic, its sources.
struct PeakEstimate {
  std::vector<ComputeType> dtypes;
  std::string derivation;
  std::string sources;
  bool covers(ComputeType t) const;
};

// Fractions of the datasheet peaks reached in practice, per operator class; overridable per device.
struct Efficiencies {
  double gemm = 0.7;
  double attention = 0.5;
  double elementwise = 0.5;
  double memory = 0.8;
  double dispatch_s = 5e-6;  // fixed cost per kernel launch / operator dispatch
  // GEMMs computing in 8 bits or fewer (FP8, INT8, FP4): a fraction of that doubled peak. On a device, read only where
  // it states it (kEffGemmLow); an Execution always holds the resolved value (runtime/runtime.hpp).
  double gemm_low = 0;
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
// Bits of HardwareSpec::eff_given: the efficiencies a device document states itself (a calibrated device), which win
// over a runtime's (runtime/runtime.hpp).
constexpr unsigned kEffGemm = 1, kEffAttention = 2, kEffElementwise = 4, kEffMemory = 8, kEffDispatch = 16, kEffGemmLow = 32;

struct HardwareSpec {
  std::string id;
  std::string name;
  std::string vendor;
  std::string device_class;
  std::string source;
  std::array<double, 8> peak_flops{};  // indexed by ComputeType; 0: not supported. GeForce: FP32-accumulate rates
  // The FP16-accumulate tensor rate (fp16, fp8) where it differs (GeForce and RTX parts: 2x); 0 where it does not.
  // A runtime whose kernels accumulate in fp16 reaches it; carried and listed, not yet used for timing.
  std::array<double, 8> peak_flops_fp16_accumulate{};
  // Where peak_flops are a CPU's matrix engine's (Intel AMX, Arm SME), the vector units' rates for the same types
  // (AVX-512, SVE): what a runtime that keeps a type off the matrix engine runs at (RuntimeSpec::matrix_engine).
  // All 0: the device states none, and every runtime is timed at peak_flops.
  std::array<double, 8> peak_flops_vector{};
  PeakEstimate estimate;
  Architecture architecture;
  std::vector<MemoryTier> tiers;       // fastest first
  double interconnect_bytes_per_s = 0;
  double tdp_w = 0;
  double idle_w = 0;
  double price_usd = 0;
  double embodied_kgco2e = 0;
  int launch_year = 0;
  std::string notes;
  std::string default_runtime;  // the runtime its users most run ("": the rules of default_runtimes.json decide)
  Efficiencies eff;
  double reserve_bytes = 0;   // of the first tier, kept by the driver and OS: not usable for weights or the cache
  std::string reserve_basis;  // the class default's source, or "set for this device"
  // Of the first tier, the share the driver never shows: inline ECC's check bits (GDDR6 with ECC on, as datacenter
  // cards ship: 1/16), a unified-memory SoC's carve-outs for firmware and board functions. Counted in reserve_bytes;
  // a runtime's share of "total memory" (vLLM's gpu_memory_utilization) is of what remains.
  double hidden_fraction = 0;
  double hidden_bytes() const { return tiers.empty() ? 0 : hidden_fraction * tiers.front().capacity_bytes; }
  unsigned eff_given = 0;  // kEff* bits
  bool peak_is_estimated(ComputeType t) const { return estimate.covers(t); }
  bool has_any_peak() const;
  bool has_vector_peaks() const;
};

// The data type whose peak an operator computing in `t` runs at on this device: `t` itself when the device has
// a peak for it, else the nearest wider type it has (fp8 on an A100 runs as bf16). Returns false when none.
bool resolve_compute(const HardwareSpec& hw, ComputeType t, ComputeType& used);
// The same over any table of peaks by type (the vector units' rates).
bool resolve_compute(const std::array<double, 8>& peaks, ComputeType t, ComputeType& used);

// Default efficiencies for a device class: presets/defaults/device_classes.json (io/defaults.cpp reads it), the
// datacenter-gpu row when the class is unknown.
Efficiencies default_efficiencies(const std::string& device_class);
MemoryReserve default_reserve(const std::string& device_class);
std::vector<std::string> device_classes();

}  // namespace infercast
