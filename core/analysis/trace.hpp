// What a forecast's time depends on, kept apart from the operators: for each block of identical-shaped steps (a
// prefill step or chunk, a decode interval between window boundaries) and each operator, its compute and memory
// seconds at efficiency 1 (at the block's first step, and their change per step) and its kernels. The analysis times
// its phases through these blocks, and validation re-times the same blocks under other efficiencies and launch costs
// without rebuilding a single operator (the leave-one-source-out fits, core/validation).
#pragma once

#include <vector>

#include "ops/ops.hpp"
#include "runtime/runtime.hpp"

namespace infercast {

enum class Timing;

struct OpTerms {
  OpClass cls = OpClass::GEMM;
  double c0 = 0, c1 = 0;  // compute seconds at efficiency 1: the first step, and the change per step
  double m0 = 0, m1 = 0;  // memory seconds at efficiency 1 of weights and activations, likewise
  double k0 = 0, k1 = 0;  // memory seconds at efficiency 1 of KV-cache reads and writes, likewise
  double kernels = 0;     // launches per step
  bool low = false;       // a GEMM computing in 8 bits or fewer (its own efficiency)
};

struct StepBlock {
  double n = 1;       // steps in the block
  double tokens = 0;  // new tokens per step (decides whether a runtime replays it as a graph)
  std::vector<OpTerms> ops;
};

struct BlockTime {
  double total = 0;  // all n steps
  double first = 0;  // the first step
  double last = 0;   // the last step
};

// Whether a step of `tokens` new tokens runs as a replayed graph under `x`.
bool replayed(const Execution& x, double tokens);

// The block's seconds: per step, each operator's max(compute / efficiency, memory / memory efficiency) plus its
// kernels' gaps (phase-max: the phase's max plus the gaps); a step launched kernel by kernel takes at least its
// launches; the runtime's per-step cost adds. Summed over the n steps in closed form (docs/forecast.md).
BlockTime time_block(const StepBlock& b, const Execution& x, Timing timing);

}  // namespace infercast
