#include "analysis/gemm_shape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace infercast {

namespace {

constexpr int kRowTiles = RowTileMemo::kTiles;
constexpr double kTm[kRowTiles] = {16.0, 32.0, 64.0, 128.0};
constexpr double kPi = 3.14159265358979323846;

// E[ceil(X / t[i])] for X ~ Binomial(n, p), n whole, 0 < p < 1 (gemm_shape.hpp).
void expected_ceils_whole(double n, double p, const double* t, int count, double* out) {
  const double sigma2 = n * p * (1 - p);
  if (sigma2 < 32.0 * 32.0) {
    // The pmf relative to its mode, summed outward until it falls under 1e-18 of it; the normalisation divides out.
    // Mass is gathered per block of 16 rows (every tile is a multiple of 16: ceil(x/t) = ceil(ceil(x/16) / (t/16))),
    // at most about 40 blocks.
    const double mode = std::min(n, std::floor((n + 1) * p)), r = p / (1 - p);
    const double first = std::max(0.0, std::ceil(mode / 16) - 64);  // the lowest block kept (no mass lower)
    double block[160] = {};                                         // blocks first .. first + 159
    const auto add = [&](double x, double w) {
      const auto b = static_cast<long>(std::ceil(x / 16) - first);
      block[std::clamp(b, 0L, 159L)] += w;
    };
    double s0 = 1, w = 1;
    add(mode, 1);
    for (double x = mode; x < n && w >= 1e-18;) {
      w *= (n - x) / (x + 1) * r;
      x += 1;
      s0 += w;
      add(x, w);
    }
    w = 1;
    for (double x = mode; x > 0 && w >= 1e-18;) {
      w *= x / (n - x + 1) / r;
      x -= 1;
      s0 += w;
      add(x, w);
    }
    for (int i = 0; i < count; ++i) {
      const double per = t[i] / 16;
      double si = 0;
      for (int b = 0; b < 160; ++b)
        if (block[b] > 0) si += block[b] * std::ceil((first + b) / per);
      out[i] = si / s0;
    }
    return;
  }
  // ceil(X/t) = (X + Y) / t with Y = (-X) mod t; E[Y] by the finite Fourier sum, conjugate terms m and t - m paired.
  for (int i = 0; i < count; ++i) {
    const double tt = t[i];
    double ey = (tt - 1) / 2;
    for (double m = 1; 2 * m <= tt; m += 1) {
      const double th = 2 * kPi * m / tt, c = std::cos(th), sn = std::sin(th);
      const double amp = std::exp(0.5 * n * std::log1p(-2 * p * (1 - p) * (1 - c)));
      if (amp < 1e-15) break;  // |phi| falls with m up to t/2
      const double ph = n * std::atan2(p * sn, 1 - p + p * c);
      const double a = amp * std::cos(ph), b = amp * std::sin(ph), x = c - 1, y = sn;
      const double re = (a * x + b * y) / (x * x + y * y);
      ey += 2 * m == tt ? re : 2 * re;  // m = t/2 is its own conjugate (phi real, w^m - 1 = -2)
    }
    out[i] = (n * p + ey) / tt;
  }
}

// The four row tiles' expectations for whole n, from the caller's memo where it gives one.
void expected_row_tiles_whole(double n, double p, double* out, RowTileMemo* memo) {
  if (!memo) {
    expected_ceils_whole(n, p, kTm, kRowTiles, out);
    return;
  }
  RowTileMemo::Entry& e = memo->slot(n, p);
  if (e.n != n || e.p != p) {
    expected_ceils_whole(n, p, kTm, kRowTiles, e.v);
    e.n = n;
    e.p = p;
  }
  std::copy(e.v, e.v + kRowTiles, out);
}

void expected_ceils(double n, double p, const double* t, int count, double* out, RowTileMemo* memo = nullptr) {
  if (n <= 0 || p <= 0) {
    for (int i = 0; i < count; ++i) out[i] = 0;
    return;
  }
  if (p >= 1) {
    for (int i = 0; i < count; ++i) out[i] = std::ceil(n / t[i]);
    return;
  }
  const bool tiles = count == kRowTiles && std::equal(t, t + count, kTm);
  const auto whole = [&](double m, double* o) {
    if (tiles) expected_row_tiles_whole(m, p, o, memo);
    else expected_ceils_whole(m, p, t, count, o);
  };
  const double lo = std::floor(n);
  whole(lo, out);
  if (n > lo) {
    double hi[kRowTiles];
    whole(lo + 1, hi);
    for (int i = 0; i < count; ++i) out[i] += (n - lo) * (hi[i] - out[i]);
  }
}

// The best tile over tm and tn, given per tm the row tiles over all matrices and the useful fraction of their rows.
double best_tile(const double (&row_tiles)[kRowTiles], const double (&row_useful)[kRowTiles], double N, int units) {
  const double u = static_cast<double>(units);
  double best = 0;
  for (int i = 0; i < kRowTiles; ++i)
    for (double tn : {64.0, 128.0}) {
      const double tm = kTm[i];
      const double tiles = row_tiles[i] * std::ceil(N / tn);
      const double waves = std::ceil(tiles / u);
      const double busy = tiles / (waves * u);
      const double reuse = std::min(1.0, tm * tn / (tm + tn) / 64);
      const double useful = row_useful[i] * N / (std::ceil(N / tn) * tn);  // padding computes nothing
      best = std::max(best, busy * reuse * useful);
    }
  return best;
}

}  // namespace

double expected_ceil_binomial(double n, double p, double t) {
  double out = 0;
  expected_ceils(n, p, &t, 1, &out);
  return out;
}

RowTileMemo::Entry& RowTileMemo::slot(double n, double p) {
  if (!entries_) entries_ = std::make_unique<Entry[]>(256);
  std::uint64_t pb = 0;
  std::memcpy(&pb, &p, sizeof pb);
  const std::uint64_t h = (static_cast<std::uint64_t>(n) * 0x9E3779B97F4A7C15ULL) ^ (pb >> 17) ^ pb;
  return entries_[(h ^ (h >> 29)) & 255];
}

double gemm_shape_efficiency(const GemmRows& g, double N, int units, RowTileMemo* memo) {
  // Fewer than 16 rows: a matrix-vector kernel on the vector units, whose work is exactly M x N x K.
  if (units <= 0 || g.M < 16 || N <= 0) return 1;
  double row_tiles[kRowTiles], row_useful[kRowTiles];
  if (g.experts > 0 && g.p > 0 && g.tokens > 0) {
    // Each expert pads its own rows: E x E[ceil(X / tm)] row tiles for E x tokens x p rows.
    double per_expert[kRowTiles];
    expected_ceils(g.tokens, g.p, kTm, kRowTiles, per_expert, memo);
    for (int i = 0; i < kRowTiles; ++i) {
      row_tiles[i] = g.experts * per_expert[i];
      row_useful[i] = g.tokens * g.p / (per_expert[i] * kTm[i]);
    }
  } else {
    const double matrices = std::max(1.0, g.matrices);
    for (int i = 0; i < kRowTiles; ++i) {
      row_tiles[i] = matrices * std::ceil(g.M / kTm[i]);
      row_useful[i] = g.M / (std::ceil(g.M / kTm[i]) * kTm[i]);
    }
  }
  return best_tile(row_tiles, row_useful, N, units);
}

double gemm_shape_efficiency(double M, double N, int units, double matrices) {
  GemmRows g;
  g.M = M;
  g.matrices = matrices;
  return gemm_shape_efficiency(g, N, units);
}

}  // namespace infercast
