// Internal to dse/: one design point evaluated in two halves. What the timing needs (its placement over the tiers
// and its compute scale) depends only on compute, bandwidth, capacity and SRAM, so a sweep times each such cell
// once and finishes every price and power point of it with finish_point (sweep.cpp); dse_point does both for one.
#pragma once

#include "dse/dse.hpp"

namespace infercast {

// The base device's "compute TFLOPS": its bf16 peak (else fp16, else its largest); every peak scales with it.
double base_tflops(const HardwareSpec& hw);

// A point's seconds per byte of weights, cache and activations (placed fastest tier first, at the memory
// efficiency), whether everything fits, and its compute scale f over the base device (inv_f = 1 / f).
struct PointCoeffs {
  double iw = 0, ikv = 0, ia = 0;
  double f = 1, inv_f = 1;
  bool fits = true;       // everything fits in the point's tiers, the base's slower ones (host memory, flash) included
  bool fits_main = true;  // everything fits in the on-chip SRAM and the main memory, nothing spilled to slower tiers
};
PointCoeffs point_coeffs(const DseWorkload& wl, const DseSpec& spec, const std::array<double, kDseParams>& p);

// One step's seconds at a point: per operator max(compute, memory) (or the phase's max), the kernels' gaps, at
// least the host's launches, and the runtime's per-step cost.
double phase_seconds(const DseWorkload& wl, const std::vector<DseWorkload::OpCost>& ops, double dispatch, double launch,
                     const PointCoeffs& k);

// Power, energy, cost, CO2 and the constraints of a point (pt.params set) from its TTFT and TPOT; `grid` is
// grid_intensity(spec.costs).
void finish_point(const DseWorkload& wl, const DseSpec& spec, double grid, const PointCoeffs& k, double ttft, double tpot,
                  DsePoint& pt);

}  // namespace infercast
