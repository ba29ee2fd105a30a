// What every benchmark shares: the workload it times (`batch` requests of `prompt` tokens generating `gen`,
// weights in `weights`, bf16 activations and cache, our counting convention) and a timer of CPU time per call.
#pragma once

#include <ctime>
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
