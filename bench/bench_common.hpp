// What every benchmark shares: the workload it times (`batch` requests of `prompt` tokens generating `gen`,
// weights in `weights`, bf16 activations and cache, our counting convention) and a timer of CPU time per call.
#pragma once

#include <algorithm>
#include <array>
#include <ctime>
#include <initializer_list>
#include <tuple>

#include "analysis/analysis.hpp"

inline infercast::Workload bench_workload(const char* weights, infercast::i64 prompt, infercast::i64 batch, infercast::i64 gen) {
  using namespace infercast;
  Workload w;
  w.settings.precision.weights = *find_dtype(weights);
  w.settings.convention = convention_by_name("infercast");
  w.requests = {{0, prompt, batch}};
  w.gen_tokens = gen;
  return w;
}

// Seconds of CPU time per call of f (after one untimed call): on a machine other work shares, wall time counts
// their time too, CPU time does not.
template <class F>
double per_call_s(int n, F f) {
  f();
  const std::clock_t t0 = std::clock();
  for (int i = 0; i < n; ++i) f();
  return static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC / n;
}

// Seconds of CPU time per call of each of several functions, timed in turns: `rounds` rounds of `n` calls each, the
// functions one after another in every round, and each one's fastest round kept. On a shared machine (another
// process on the sibling hyperthread, a fuzzer beside a build) one function's time can double from one second to
// the next; timed in turns, a ratio of two of them compares the same conditions, and the best round is the one
// least disturbed.
template <class... F>
std::array<double, sizeof...(F)> best_of_rounds(int rounds, int n, F... f) {
  std::array<double, sizeof...(F)> best;
  best.fill(1e300);
  (void)std::initializer_list<int>{(f(), 0)...};  // one untimed call each
  for (int r = 0; r < rounds; ++r) {
    std::size_t k = 0;
    (void)std::initializer_list<int>{(best[k] = std::min(best[k], per_call_s(n, f) ), ++k, 0)...};
  }
  return best;
}
