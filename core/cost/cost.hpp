// What a token costs: energy (joules per token), total cost of ownership (dollars per million tokens) and CO2
// (grams per million tokens), from an analysis on a device and a set of assumptions the user can edit. Every formula
// is here and in docs/formulas.md ("Energy, cost and CO2"); every default names its source.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "hardware/hardware.hpp"
#include "parallel/parallel.hpp"

namespace infercast {

// A grid region's carbon intensity of electricity generation.
struct GridRegion {
  std::string id;
  std::string name;
  double g_per_kwh;
};
const std::vector<GridRegion>& grid_regions();
const GridRegion* find_grid_region(const std::string& id);
// Where the regions' figures come from (presets/defaults/grid_regions.json, read by io/defaults.cpp).
const std::string& grid_source();

struct CostAssumptions {
  // Energy (LLM-Para's power model after Ghane et al., ISPASS 2018): at full compute and full memory traffic the
  // device draws its TDP, a fraction `compute_power_fraction` of the dynamic power in compute and the rest in memory.
  double compute_power_fraction = 0.55;  // LLM-Para metrics.py default compute_power_frac
  double static_fraction = 0.05;         // idle power as a share of TDP when the device has no idle_W (LLM-Para's floor)
  double power_w = 0;                    // > 0 overrides the device's TDP
  // Ownership (LLM-Para metrics.py compute_tco defaults)
  double lifetime_years = 3;
  double utilization = 0.5;   // share of the lifetime spent serving
  double usd_per_kwh = 0.10;
  double pue = 1.3;           // facility power per device power
  double price_usd = 0;       // > 0 overrides the device's price
  // CO2
  std::string region = "world";
  double grid_g_per_kwh = 0;  // > 0 overrides the region
  double embodied_kgco2e = -1;  // >= 0 overrides the device's
};

// The device's energy coefficients (J per FLOP by compute type, J per byte by tier, static W).
struct EnergyModel {
  bool available = false;
  std::string why_not;                 // when not available
  double tdp_w = 0;
  double static_w = 0;
  std::array<double, 8> j_per_flop{};  // by ComputeType (the type an operator computes in, after fallbacks)
  std::vector<double> j_per_byte;      // by memory tier
};
EnergyModel energy_model(const HardwareSpec& hw, const CostAssumptions& a);

struct PhaseEnergy {
  double joules = 0, static_j = 0, compute_j = 0, memory_j = 0;
  double tokens = 0;         // tokens the phase produces or consumes (prompt tokens; generated tokens)
  double j_per_token = 0;
  double tokens_per_j = 0;
  double avg_power_w = 0;
};

struct CostReport {
  EnergyModel model;
  PhaseEnergy prefill, decode;
  double joules_per_request_batch = 0;  // the whole workload
  double output_tokens = 0;             // generated tokens of the whole batch
  double busy_power_w = 0;              // mean power while serving this workload
  // Ownership
  bool has_price = false;
  double price_usd = 0;
  double usd_per_hour = 0;              // amortized hardware + electricity (at the utilization)
  double hardware_usd_per_hour = 0, energy_usd_per_hour = 0;
  double usd_per_million_tokens = 0;    // output tokens; 0 without a price or energy
  // CO2
  double grid_g_per_kwh = 0;
  std::string region;
  double embodied_kgco2e = 0;
  bool has_embodied = false;
  double operational_g_per_million_tokens = 0;
  double embodied_g_per_million_tokens = 0;
  double g_per_million_tokens = 0;
  std::vector<Warning> warnings;
};

// The grid intensity the assumptions select: grid_gCO2e_per_kWh when given, else the region's (world if unknown).
double grid_intensity(const CostAssumptions& a);

// Owning and running a device for a workload: the hardware amortized over its lifetime whether busy or not,
// electricity at `busy_w` for the utilization and at `static_w` otherwise, times PUE; per million output tokens
// at the workload's rate while busy. Shared by cost_report and the design-space sweep.
struct Ownership {
  double hardware_usd_per_hour = 0, energy_usd_per_hour = 0;
  double usd_per_million_tokens = 0;  // 0 when the workload makes no tokens
  double operational_g_per_million_tokens = 0, embodied_g_per_million_tokens = 0;
};
Ownership ownership(const CostAssumptions& a, double price_usd, double embodied_kgco2e, double busy_w, double static_w,
                    double e2e_s, double output_tokens);
// The same at a grid intensity already looked up (grid_intensity(a)): what a sweep computes for millions of points.
Ownership ownership_at(const CostAssumptions& a, double grid_g_per_kwh, double price_usd, double embodied_kgco2e,
                       double busy_w, double static_w, double e2e_s, double output_tokens);

// Needs an analysis made with hardware (a.has_hardware).
CostReport cost_report(const Analysis& a, const HardwareSpec& hw, const CostAssumptions& as);

// A plan over several devices: every stage's device as cost_report counts it (its FLOPs and bytes), times the
// stage's tensor-parallel devices and the replicas; static power on every device over the plan's own times; the
// hardware and its embodied carbon times the devices.
CostReport plan_cost_report(const PlanForecast& f, const HardwareSpec& hw, const CostAssumptions& as);

// Serving: `compute_s` and `memory_s` of work summed over the devices (seconds at every operator's peak and at the
// first tier's bandwidth, efficiency 1: the dynamic energy is the power model's share of each), `seconds` of wall
// time on `devices` devices (static power all along), producing `output_tokens` from `input_tokens`. The whole run
// is reported as one phase in `decode` (tokens: the output tokens).
CostReport work_cost_report(const HardwareSpec& hw, const CostAssumptions& as, int devices, double compute_s,
                            double memory_s, double seconds, double output_tokens);

}  // namespace infercast
