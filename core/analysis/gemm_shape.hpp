// How much of a device's compute a GEMM's shape lets it use (docs/forecast.md, "GEMM shapes"). A kernel splits the
// output C[M, N] of each weight matrix into tiles, runs them in waves of one tile per compute unit (SM, CU), and
// chooses the tile whose busy fraction times tile efficiency is highest. A small M (a short prompt, a tensor-
// parallel slice, the tokens one expert sees) leaves units idle in the last wave or forces small tiles that reuse
// less of what they load. Parameters are physical: the unit count, tiles of 16 to 128 rows and 64 or 128 columns;
// below 16 rows the kernel is a matrix-vector product on the vector units and the shape costs nothing.
#pragma once

#include <memory>

namespace infercast {

// The four row tiles' expectations for the last 256 (tokens, p) pairs of routed experts a caller asked for, direct-
// mapped: a serving simulation asks for the same step sizes thousands of times. The caller owns it (a Timer, a
// serving step model), so the core keeps no state between calls; a result is the same with or without it. Its
// table is made on first use, and a copy starts empty.
class RowTileMemo {
 public:
  RowTileMemo() = default;
  RowTileMemo(const RowTileMemo&) {}
  RowTileMemo& operator=(const RowTileMemo&) { return *this; }
  RowTileMemo(RowTileMemo&&) = default;
  RowTileMemo& operator=(RowTileMemo&&) = default;
  static constexpr int kTiles = 4;  // the row tiles tm = 16, 32, 64, 128 (gemm_shape.cpp)
  struct Entry {
    double n = -1, p = -1, v[kTiles] = {};
  };
  Entry& slot(double n, double p);

 private:
  std::unique_ptr<Entry[]> entries_;
};

// The rows of one GEMM call. Dense: M rows through each of `matrices` weight matrices. Routed experts: `tokens`
// tokens, each sent to a given one of `experts` experts with probability `p` (top_k / E under balanced routing), so
// expert e sees X_e ~ Binomial(tokens, p) rows and pads them to whole tiles on its own (vLLM's and SGLang's
// moe_align_block_size); M and matrices are then the mean rows per touched expert and the experts touched.
struct GemmRows {
  double M = 0;
  double matrices = 1;
  double tokens = 0;
  double experts = 0;  // 0: not routed
  double p = 0;
};

// The fraction of the compute peak the shape allows: max over tiles tm in {16, 32, 64, 128}, tn in {64, 128} of
//   tiles / (waves x units) x min(1, (tm tn / (tm + tn)) / 64) x rows / (row tiles x tm) x N / (padded N),
// tiles = row tiles x ceil(N / tn), waves = ceil(tiles / units). Dense: row tiles = matrices x ceil(M / tm) and
// rows = matrices x M. Routed: row tiles = experts x E[ceil(X / tm)] (expected_ceil_binomial) and rows = tokens x p
// x experts, so the padding is the expectation over the routing, smooth in the tokens. 1 when `units` is unknown
// (0) or M (the mean rows per touched expert) is under 16.
double gemm_shape_efficiency(const GemmRows& rows, double N, int units, RowTileMemo* memo = nullptr);
double gemm_shape_efficiency(double M, double N, int units, double matrices = 1);  // dense

// E[ceil(X / t)] for X ~ Binomial(n, p), t a multiple of 16 rows (the row tiles). Exact to 1e-12 absolute for whole n (a
// fractional n is interpolated between its neighbours, so the result is continuous in n). With sigma^2 = n p (1-p):
// sigma < 32: the pmf summed outward from the mode until it falls under 1e-18 of it (at most about 600 terms,
// gathered in blocks of 16 rows);
// otherwise ceil(X/t) = (X + ((-X) mod t)) / t and the residue's mean is the finite Fourier sum
//   E[(-X) mod t] = (t-1)/2 + sum_{m=1}^{t-1} phi(2 pi m / t) / (w^m - 1), phi(u) = (1 - p + p e^{iu})^n, w = e^{2 pi i/t},
// whose terms fall as exp(-8 sigma^2 m^2 / t^2): a few terms, stopped under 1e-15. When sigma >= t the first term is
// under 1e-8, so the result is mean/t + (t-1)/(2t) to that accuracy.
double expected_ceil_binomial(double n, double p, double t);

}  // namespace infercast
