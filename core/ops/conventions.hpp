// Counting conventions. Tools disagree on how to count (shared FIELD.md section 13); our default counts what a
// good implementation executes, and the others are selectable by name. Every constant lives here, once;
// docs/conventions.md explains each.
#pragma once

#include <string>
#include <vector>

#include "util/names.hpp"

namespace infercast {

enum class MoeTraffic { Expected, TopK, All, UpperBound };

struct Convention {
  std::string name = "infercast";  // the members default to the infercast convention
  std::string description;
  bool causal_pairs = true;          // fused attention skips masked (query, key) pairs
  bool gemm_minus_mn = false;        // LIFE: a GEMM is 2mkn - mn (the first product of each dot is not an add)
  bool lm_head_all_tokens = false;   // logits for every prompt token, not only the last of each request
  bool embedding_whole_table = false;  // LIFE: the embedding reads the whole vocab x hidden table
  double softmax_flops_per_score = 5;  // max, subtract, exp, sum, divide
  double score_scale_flops = 0;        // multiply by 1/sqrt(d) as its own op (LIFE puts it in the BMM)
  double rmsnorm_flops_per_element = 4;
  double layernorm_flops_per_element = 7;
  double rope_flops_per_element = 3;  // x*cos + rotate(x)*sin
  double silu_flops_per_element = 4;  // x * sigmoid(x): negate, exp, add, divide
  double gelu_flops_per_element = 8;  // tanh approximation
  double gate_mul_flops_per_element = 1;
  MoeTraffic moe = MoeTraffic::Expected;
  bool split_rope_and_cache_write = false;  // LIFE: RoPE on q and k, and the cache write of k and v, as 2 kernels each
  // LIFE: the tensors between operators are held in the GEMMs' compute type (int8 under QuaRot); otherwise in 16 bits
  // (StepSettings::activation_bytes).
  bool activations_stored_in_compute_type = false;
};

// Throws InputError("workload.unknown_convention") listing the names when `name` is unknown.
const Convention& convention_by_name(const std::string& name, const std::string& path = "/convention");
const std::vector<Convention>& all_conventions();

const NameTable<MoeTraffic>& moe_traffic_names();
inline const char* moe_traffic_name(MoeTraffic t) { return moe_traffic_names().name(t); }

}  // namespace infercast
