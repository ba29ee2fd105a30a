// Golden-section search, the one line search of the fits (validation/fit.cpp) and calibration (calibrate/).
#pragma once

#include <cmath>

namespace infercast {

struct GoldenResult {
  double a = 0, b = 0;            // the last bracket
  double best_x = 0, best_f = 0;  // the better of its two inner points
};

// Narrows [a, b] around the minimum of a unimodal `f`, each step keeping 0.618 of the bracket and evaluating `f` once,
// for `steps` steps or until the bracket is narrower than `tol`.
template <typename F>
GoldenResult golden_min(double a, double b, int steps, F&& f, double tol = 0) {
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double x1 = b - phi * (b - a), x2 = a + phi * (b - a);
  double f1 = f(x1), f2 = f(x2);
  for (int it = 0; it < steps && b - a > tol; ++it) {
    if (f1 < f2) {
      b = x2, x2 = x1, f2 = f1;
      x1 = b - phi * (b - a);
      f1 = f(x1);
    } else {
      a = x1, x1 = x2, f1 = f2;
      x2 = a + phi * (b - a);
      f2 = f(x2);
    }
  }
  return f1 < f2 ? GoldenResult{a, b, x1, f1} : GoldenResult{a, b, x2, f2};
}

}  // namespace infercast
