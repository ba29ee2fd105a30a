// The workload every benchmark times: `batch` requests of `prompt` tokens generating `gen`, weights in `weights`,
// bf16 activations and cache, our counting convention.
#pragma once

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
