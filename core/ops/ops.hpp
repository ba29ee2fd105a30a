// Operators of one forward step (a prefill, a prefill chunk or a decode step) over a batch of requests,
// each with its own cached and new tokens. Every operator's FLOPs and bytes are computed here, once
// (docs/formulas.md). Layers with identical specs are grouped and computed once, times their count.
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"
#include "ops/conventions.hpp"
#include "ops/geometry.hpp"
#include "ops/layers.hpp"
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

// Which operators run as one kernel, as a runtime fuses them (ops/fusion.cpp applies it; the runtime presets set it).
struct Fusion {
  bool qkv = false;            // q, k and v projections as one GEMM over the concatenated weights
  bool gate_up = false;        // gate and up projections as one GEMM
  bool norm_residual = false;  // each residual add inside the next norm's kernel
  bool rope = false;           // RoPE inside the attention (or qkv) kernel
  bool kv_write = false;       // the KV-cache write inside the attention (or RoPE) kernel
  bool qk_norm = false;        // q/k norms inside another kernel
  bool kv_append_copy = false; // the cache grown by concatenation (HF DynamicCache): every step copies it whole
  // Kernels an eager framework issues per operator where one fused kernel would do (PyTorch's RMSNorm is a cast,
  // a power, a mean, an add, an rsqrt and two products): the launches multiply, the bytes are the fused ones.
  double norm_kernels = 1, rope_kernels = 1, act_kernels = 1, kv_write_kernels = 1;
  double gemm_kernels = 1;
  // Above this many tokens per weight matrix, quantized weights are first expanded into a 16-bit copy in memory by
  // a kernel of their own, which the GEMM then reads (llama.cpp before 2024-06: dequantize + cuBLAS); 0: never.
  double dequant_copy_above = 0;  // e.g. 2 where each quantized GEMM first quantizes its activations (llama.cpp MMVQ/MMQ)
};

struct StepSettings {
  Precision precision;
  Convention convention;  // a value: a request may override its MoE rule without touching the named ones
  AttnImpl attention = AttnImpl::Fused;
  double score_bytes = 0;  // unfused attention: bytes per score (0: the activations' type; RuntimeSpec::unfused_score_bytes)
  MlaForm mla = MlaForm::Auto;
  bool fused_mlp = false;  // gate/up GEMM with the activation in its epilogue: no gate/up outputs written or read
  i64 attention_tile = 0;  // keys padded to a multiple of this per request (0: no padding)
  LoraSettings lora;
  bool online_hadamard = false;  // QuaRot: rotations of q/k, of the o_proj input and of the down_proj input
  Fusion fusion;                 // a runtime's fusions beyond fused_mlp and fused attention
  std::vector<ImageSize> images;  // images in every new prompt: the vision encoder runs on them in the prefill
  // Image tokens every sequence's cross-attention layers attend (Llama 3.2 Vision: cross_attention_tokens of the
  // images); 0: no images, and those layers are skipped.
  i64 cross_tokens = 0;

  // Bytes per element of the tensors between operators: the residual stream, norms' and activations' outputs,
  // attention's inputs and outputs, recurrent states, norm weights, LoRA adapters. Runtimes that compute GEMMs in 8
  // or 4 bits keep these in 16 bits: the GEMM's input is quantized as it is written (vLLM's and SGLang's
  // Fp8LinearMethod quantize per token or per 128-wide group, TensorRT-LLM's FP8 and NVFP4 recipes fuse the quantizer
  // into the norm or the activation) and its output leaves the GEMM's epilogue in 16 bits. fp32 stays 4 bytes.
  // LIFE's convention holds them in the compute type (docs/formulas.md, "Activation storage").
  double activation_bytes() const {
    const double bits = precision.activations.bits_per_element;
    return (convention.activations_stored_in_compute_type ? bits : std::max(bits, 16.0)) / 8;
  }
  // Bytes per element of a GEMM's input: the compute type (its producer wrote it quantized).
  double gemm_input_bytes() const { return precision.activations.bits_per_element / 8; }
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
  double gemm_m = 0, gemm_k = 0, gemm_n = 0;  // GEMMs: one call's shape (M tokens per weight matrix, K in, N out)
  // Routed experts' GEMMs: the tokens routed, the experts E and the chance p that a token picks a given one; expert e
  // sees Binomial(tokens, p) rows (route_experts 0: not routed; analysis/gemm_shape.hpp).
  double route_tokens = 0, route_experts = 0, route_p = 0;
  bool lora_target = false;    // GEMMs: a projection LoRA adapts (attention and MLP)
  bool state = false;          // a recurrent mixer's: it reads the state of every sequence that has one (ops/recurrent.cpp)
  double bytes() const { return weight_bytes + act_read_bytes + act_write_bytes + kv_read_bytes + kv_write_bytes; }
};


// Rank-r adapters on every projection LoRA adapts, from one walk of a step's operators: their elements, A (K x r)
// and B (r x N) each, and the FLOPs of merging them into the weights once: W' = W + (alpha/r) B A costs 2 k r n
// for the product and 2 k n to scale and add (LIFE Table 12's totals count both).
struct LoraCost {
  double adapter_elements = 0;
  double merge_flops = 0;
};
LoraCost lora_cost(const ModelSpec& m, const std::vector<LayerGroup>& groups, i64 rank);

// Applies a runtime's fusions to one step's operators: fused operators keep their FLOPs and lose their launches and
// the activation traffic that stays on chip.
void apply_fusion(std::vector<Op>& ops, const Fusion& f);

// What a step's operators take from its requests: the new tokens, the rows the LM head computes, whether every
// request adds one token to an existing cache, and per layer group the attention work the requests imply. Sums over
// requests; the decode keeps them as running sums from one window or chunk boundary to the next (analysis/decode.cpp).
struct GroupAttention {
  double pairs = 0;         // (query, key) pairs over the batch
  double keys = 0;          // cached keys read over the batch
  double pairs_padded = 0;  // pairs with each request's keys padded to the attention tile
  // DeepSeek sparse attention's indexer: every (query, key) pair and every cached indexer key.
  double index_pairs = 0;
  double index_keys = 0;
  // Recurrent mixers: sequences in the step, those that already hold a state, tokens through the one-token kernel,
  // tokens through the chunked kernel and its chunks (ops/builder.hpp, GroupStep).
  double seqs = 0;
  double seqs_with_state = 0;
  double recurrent_tokens = 0;
  double chunked_tokens = 0;
  double chunks = 0;
  // Cross-attention layers: image tokens whose keys and values the step computes (one image set per new prompt).
  double cross_new = 0;
};
// Every quantity of a GroupAttention: each sums over requests (times their counts).
inline constexpr double GroupAttention::*kGroupAttentionParts[] = {
    &GroupAttention::pairs,      &GroupAttention::keys,           &GroupAttention::pairs_padded,
    &GroupAttention::index_pairs, &GroupAttention::index_keys,    &GroupAttention::seqs,
    &GroupAttention::seqs_with_state, &GroupAttention::recurrent_tokens, &GroupAttention::chunked_tokens,
    &GroupAttention::chunks,     &GroupAttention::cross_new};
inline constexpr int kGroupAttentionPartCount = sizeof(kGroupAttentionParts) / sizeof(kGroupAttentionParts[0]);
struct StepShape {
  double tokens = 0;
  double logit_rows = 0;
  double new_prompts = 0;  // requests with no cache that add tokens: their images run through the vision encoder
  bool decode_only = true;
  std::vector<GroupAttention> groups;  // one per layer group, in order
  // The requests that add one token to a cache they already hold (decode tokens), in a step that also holds other
  // work: their tokens and their share of `groups` (one per layer group; empty when there are none). MLA's Auto form
  // runs them absorbed and the rest expanded, as vLLM's and SGLang's MLA backends split a mixed batch.
  double decode_tokens = 0;
  std::vector<GroupAttention> decode_groups;
};
// One request's share of a layer group's work (times its count in a StepShape).
GroupAttention request_attention(const LayerSpec& l, const Request& r, const StepSettings& s);
StepShape step_shape(const std::vector<LayerGroup>& groups, const std::vector<Request>& step, const StepSettings& s);

std::vector<Op> step_ops(const ModelSpec& m, const std::vector<LayerGroup>& groups,
                         const std::vector<Request>& step, const StepSettings& s);
std::vector<Op> step_ops(const ModelSpec& m, const std::vector<LayerGroup>& groups, const StepShape& shape,
                         const StepSettings& s);

}  // namespace infercast
