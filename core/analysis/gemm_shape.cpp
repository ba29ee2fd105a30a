#include "analysis/gemm_shape.hpp"

#include <algorithm>
#include <cmath>

namespace infercast {

double gemm_shape_efficiency(double M, double N, int units, double matrices) {
  // Fewer than 16 rows: a matrix-vector kernel on the vector units, whose work is exactly M x N x K.
  if (units <= 0 || M < 16 || N <= 0) return 1;
  const double u = static_cast<double>(units);
  double best = 0;
  for (double tm : {16.0, 32.0, 64.0, 128.0})
    for (double tn : {64.0, 128.0}) {
      const double tiles = std::max(1.0, matrices) * std::ceil(M / tm) * std::ceil(N / tn);
      const double waves = std::ceil(tiles / u);
      const double busy = tiles / (waves * u);
      const double reuse = std::min(1.0, tm * tn / (tm + tn) / 64);
      const double useful = M / (std::ceil(M / tm) * tm) * N / (std::ceil(N / tn) * tn);  // padding computes nothing
      best = std::max(best, busy * reuse * useful);
    }
  return best;
}

}  // namespace infercast
