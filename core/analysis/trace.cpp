#include "analysis/trace.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/analysis.hpp"

namespace infercast {

namespace {

// sum_{i=s}^{e-1} (c0 + c1 i)
double affine_sum(double c0, double c1, double s, double e) {
  if (e <= s) return 0;
  const double n = e - s;
  return n * c0 + c1 * ((e - 1) * e / 2 - (s - 1) * s / 2);
}

// sum_{i=0}^{N-1} max(a0 + a1 i, b0 + b1 i)
double sum_max_affine(double a0, double a1, double b0, double b1, double N) {
  const double d0 = a0 - b0, d1 = a1 - b1;
  if (N <= 0) return 0;
  if (d1 == 0) return d0 >= 0 ? affine_sum(a0, a1, 0, N) : affine_sum(b0, b1, 0, N);
  const double r = -d0 / d1;
  if (d1 > 0) {  // a wins from ceil(r) on
    const double i0 = std::clamp(std::ceil(r), 0.0, N);
    return affine_sum(b0, b1, 0, i0) + affine_sum(a0, a1, i0, N);
  }
  const double i1 = std::clamp(std::floor(r) + 1, 0.0, N);
  return affine_sum(a0, a1, 0, i1) + affine_sum(b0, b1, i1, N);
}

// sum_{i=0}^{N-1} max(0, H - (t0 + d i)): what a floor H adds to a step time running linearly from t0 with slope d.
double sum_below(double H, double t0, double d, double N) {
  if (N <= 0) return 0;
  if (d == 0) return N * std::max(0.0, H - t0);
  const double r = (H - t0) / d;  // H - S(i) > 0 for i < r (d > 0) or i > r (d < 0)
  if (d > 0) return affine_sum(H - t0, -d, 0, std::clamp(std::ceil(r), 0.0, N));
  return affine_sum(H - t0, -d, std::clamp(std::floor(r) + 1, 0.0, N), N);
}

double efficiency(const Efficiencies& e, OpClass c) {
  switch (c) {
    case OpClass::GEMM: return e.gemm;
    case OpClass::Attention: return e.attention;
    default: return e.elementwise;
  }
}

}  // namespace

bool replayed(const Execution& x, double tokens) {
  return x.graphs && (x.graph_max_tokens == 0 || tokens <= static_cast<double>(x.graph_max_tokens));
}

BlockTime time_block(const StepBlock& b, const Execution& x, Timing timing) {
  const bool graph = replayed(x, b.tokens);
  const double gap = graph ? x.graph_gap_s : x.eff.dispatch_s;
  const double n = b.n, last = std::max(n - 1, 0.0);
  BlockTime t;
  double C0 = 0, C1 = 0, M0 = 0, M1 = 0, disp = 0, kernels = 0;
  for (const auto& o : b.ops) {
    const double ec = o.low ? x.eff.gemm_low : efficiency(x.eff, o.cls), em = x.eff.memory;
    const double ek = x.kv_memory;
    const double c0 = o.c0 / ec, c1 = o.c1 / ec, m0 = o.m0 / em + o.k0 / ek, m1 = o.m1 / em + o.k1 / ek;
    const double d = o.kernels * gap;
    kernels += o.kernels;
    if (timing == Timing::PerOp) {
      t.total += sum_max_affine(c0, c1, m0, m1, n) + n * d;
      t.first += std::max(c0, m0) + d;
      t.last += std::max(c0 + c1 * last, m0 + m1 * last) + d;
    }
    C0 += c0, C1 += c1, M0 += m0, M1 += m1, disp += d;
  }
  if (timing == Timing::PhaseMax) {
    t.total = sum_max_affine(C0, C1, M0, M1, n) + n * disp;
    t.first = std::max(C0, M0) + disp;
    t.last = std::max(C0 + C1 * last, M0 + M1 * last) + disp;
  }
  // Kernels launched one by one from the host bound each step from below (linear between the block's ends).
  const double H = graph ? 0 : kernels * x.launch_s;
  if (H > 0) {
    t.total += sum_below(H, t.first, n > 1 ? (t.last - t.first) / last : 0, n);
    t.first = std::max(t.first, H);
    t.last = std::max(t.last, H);
  }
  t.total += n * x.step_overhead_s;
  t.first += x.step_overhead_s;
  t.last += x.step_overhead_s;
  return t;
}

}  // namespace infercast
