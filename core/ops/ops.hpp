// Operators of one forward step (a prefill, a prefill chunk or a decode step) over a batch of requests,
// each with its own cached and new tokens. Every operator's FLOPs and bytes are computed here, once
// (docs/formulas.md). Layers with identical specs are grouped and computed once, times their count.
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"
#include "ops/conventions.hpp"
#include "quant/dtype.hpp"

namespace infercast {

enum class OpClass { GEMM, Attention, Elementwise, Memory };
const char* op_class_name(OpClass c);

enum class AttnImpl { Fused, Unfused };
enum class MlaForm { Auto, Absorbed, Expanded };

struct Request {
  i64 cached = 0;  // tokens already in the KV cache
  i64 input = 0;   // new tokens processed in this step
  i64 count = 1;   // identical requests
};

struct Precision {
  const DType* weights = nullptr;
  const DType* activations = nullptr;
  const DType* kv = nullptr;
};

struct StepSettings {
  Precision precision;
  const Convention* convention = nullptr;
  AttnImpl attention = AttnImpl::Fused;
  MlaForm mla = MlaForm::Auto;
};

struct Op {
  std::string name;
  std::string group;  // layer group label ("" for embedding and head)
  OpClass cls = OpClass::GEMM;
  i64 count = 1;      // instances in the model (layers of the group)
  ComputeType compute = ComputeType::BF16;
  double flops = 0;   // totals over all instances
  double weight_bytes = 0;
  double act_read_bytes = 0;
  double act_write_bytes = 0;
  double kv_read_bytes = 0;
  double kv_write_bytes = 0;
  double dispatches = 0;
  double bytes() const { return weight_bytes + act_read_bytes + act_write_bytes + kv_read_bytes + kv_write_bytes; }
};

struct LayerGroup {
  LayerSpec spec;
  i64 count = 0;
  std::string label;
  std::vector<i64> layers;
};

std::vector<LayerGroup> group_layers(const ModelSpec& m);

// KV-cache bytes of one token in one layer at the given KV precision.
double kv_bytes_per_token_layer(const AttentionSpec& a, double kv_bytes_per_element);
// Tokens a layer keeps in its cache at context length `ctx` (windows and chunks bound it).
double kv_tokens_resident(const AttentionSpec& a, double ctx);
// (query, key) pairs of `input` new tokens after `cached` ones, honoring causality, windows and chunks.
double attention_pairs(const AttentionSpec& a, double cached, double input, bool causal);
// Distinct cached keys the step reads for one request.
double attention_keys_read(const AttentionSpec& a, double cached, double input);
// Expected number of distinct experts touched by `tokens` routings of top_k out of n_experts.
double experts_touched(MoeTraffic t, double n_experts, double top_k, double tokens);

std::vector<Op> step_ops(const ModelSpec& m, const std::vector<LayerGroup>& groups,
                         const std::vector<Request>& step, const StepSettings& s);

}  // namespace infercast
