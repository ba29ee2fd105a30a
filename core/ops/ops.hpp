// Operators of one forward step (a prefill, a prefill chunk or a decode step) over a batch of requests,
// each with its own cached and new tokens. Every operator's FLOPs and bytes are computed here, once
// (docs/formulas.md). Layers with identical specs are grouped and computed once, times their count.
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"
#include "ops/conventions.hpp"
#include "quant/dtype.hpp"
#include "util/names.hpp"

namespace infercast {

enum class OpClass { GEMM, Attention, Elementwise, Memory };
const NameTable<OpClass>& op_class_names();
inline const char* op_class_name(OpClass c) { return op_class_names().name(c); }

enum class AttnImpl { Fused, Unfused };
const NameTable<AttnImpl>& attn_impl_names();
enum class MlaForm { Auto, Absorbed, Expanded };
const NameTable<MlaForm>& mla_form_names();
// The MLP as separate kernels or with the activation fused into the gate/up GEMM (StepSettings::fused_mlp).
const NameTable<bool>& mlp_form_names();

struct Request {
  i64 cached = 0;  // tokens already in the KV cache
  i64 input = 0;   // new tokens processed in this step
  i64 count = 1;   // identical requests
};

struct Precision {
  DType weights;      // the default for every weight class
  DType activations;  // what GEMMs compute in
  DType kv;
  std::optional<DType> by_class[kWeightClasses];  // overrides, by WeightClass; empty: `weights`
  const DType& of(WeightClass c) const {
    const auto& d = by_class[static_cast<int>(c)];
    return d ? *d : weights;
  }
};

// True when weights stored as `w` must be converted before a GEMM computing in `act` (weight-only formats, and
// narrower weights than the activations, e.g. int4 or fp8 weights with bf16 activations).
bool needs_dequant(const DType& w, const DType& act);

enum class LoraMode { Unmerged, MergePerCall, Merged };
const NameTable<LoraMode>& lora_mode_names();
inline const char* lora_mode_name(LoraMode m) { return lora_mode_names().name(m); }

struct LoraSettings {
  i64 rank = 0;  // 0: no adapters
  // Unmerged: y = xW + (xA)B on every call, the way PEFT, vLLM and S-LoRA serve adapters;
  // MergePerCall: W + BA rebuilt inside every GEMM call (LIFE's inline merge);
  // Merged: merged once ahead of time; no cost per step (the one-time cost is reported apart).
  LoraMode mode = LoraMode::Unmerged;
};

struct StepSettings {
  Precision precision;
  Convention convention;  // a value: a request may override its MoE rule without touching the named ones
  AttnImpl attention = AttnImpl::Fused;
  MlaForm mla = MlaForm::Auto;
  bool fused_mlp = false;  // gate/up GEMM with the activation in its epilogue: no gate/up outputs written or read
  i64 attention_tile = 0;  // keys padded to a multiple of this per request (0: no padding)
  LoraSettings lora;
  bool online_hadamard = false;  // QuaRot: rotations of q/k, of the o_proj input and of the down_proj input
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
  double dequant_flops = 0;  // included in flops: converting quantized weights or KV before the math
  double lora_flops = 0;     // included in flops: adapter work
  double padded_flops = 0;   // included in flops: work on padding to the attention tile
  double weight_elements = 0;  // GEMMs: weight matrix elements read (all instances)
  bool lora_target = false;    // GEMMs: a projection LoRA adapts (attention and MLP)
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

// FLOPs per element of an online Hadamard transform of length d (QuaRot's kernels): log2(p) butterfly operations
// for the power-of-two part p and 2m for a dense m x m Hadamard of the rest, m = 4 x the odd part of d (Hadamard
// matrices exist for orders 1, 2 and multiples of 4). Powers of two cost log2(d); 11008 = 64 x 172 costs 6 + 344.
double hadamard_flops_per_element(i64 d);

// FLOPs of merging rank-r adapters into every adapted weight once: W' = W + (alpha/r) B A costs 2 k r n for the
// product and 2 k n to scale and add (LIFE Table 12's totals count both).
double lora_merge_flops(const ModelSpec& m, const std::vector<LayerGroup>& groups, i64 rank);

std::vector<Op> step_ops(const ModelSpec& m, const std::vector<LayerGroup>& groups,
                         const std::vector<Request>& step, const StepSettings& s);

}  // namespace infercast
