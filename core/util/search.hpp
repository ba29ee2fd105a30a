// The largest integer where a monotone condition holds, by bisection: the largest batch, context or pool that fits.
#pragma once

#include <cmath>

namespace infercast {

// The largest integer n in [1, top] with holds(n), `holds` true up to some point and false after; 0 where it does not
// hold at 1. At most log2(top) + 2 evaluations.
template <class F>
double largest_where(F holds, double top) {
  if (!holds(1.0)) return 0;
  if (holds(top)) return top;
  double lo = 1, hi = top;  // holds at lo, not at hi
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    (holds(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace infercast
