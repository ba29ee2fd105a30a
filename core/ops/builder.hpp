// The operator builder every block uses: one GEMM, elementwise or memory operator at a time, with its FLOPs and
// bytes by kind (docs/formulas.md). Internal to ops/: the blocks (attention.cpp, mla.cpp, mlp.cpp) and step.cpp.
#pragma once

#include <string>
#include <vector>

#include "ops/ops.hpp"

namespace infercast {

struct Builder {
  const ModelSpec& m;
  const StepSettings& s;
  std::vector<Op>& out;
  double ab, kb;  // bytes per element of stored activations and KV (weights: per class, in gemm)
  double gb;      // bytes per element of a GEMM's input (StepSettings::gemm_input_bytes)
  ComputeType compute;
  WeightClass wclass = WeightClass::Attention;  // class of the GEMMs being added

  Op& add(const std::string& name, const std::string& group, OpClass cls, i64 count);
  // y[M,N] = x[M,K] W[K,N] (+ bias[N]); M tokens. The weights are stored in the format of `wclass`;
  // dequantization costs 2 operations per weight element per call (scale and shift; LIFE's appendix).
  // `weights_touched` is how many K x N matrices the call reads (routed experts read the ones they touch).
  Op& gemm(const std::string& name, const std::string& group, i64 count, double M, double K, double N, bool bias,
           double weights_touched = 1);
  // Elementwise op over `elements` outputs reading `reads` tensors of that size.
  Op& elementwise(const std::string& name, const std::string& group, i64 count, double elements,
                  double flops_per_element, double reads, double weight_elements = 0);
  double norm_cost() const;
  double act_cost() const;
};

// One layer group within one step: the attention work its requests imply (GroupAttention, ops/ops.hpp), the group
// and the step's new tokens.
struct GroupStep : GroupAttention {
  const LayerGroup& g;
  double T = 0;             // new tokens in the step
  bool decode_only = false; // every request adds one token to an existing cache
  // In a step that mixes them with other work: the decode tokens and their share of this group's attention
  // (StepShape::decode_groups); decode_T 0 when there are none.
  double decode_T = 0;
  const GroupAttention* decode_part = nullptr;
  // Attention work on tile padding, and KV dequantization, added to an attention operator.
  void finish_attention(Builder& b, Op& op, double per_pair_flops, double kv_elements) const;
};

// The blocks of a layer, each adding its operators in execution order.
void add_attention(Builder& b, const GroupStep& gs);  // standard (MHA, GQA, MQA), windows and chunks
void add_mla(Builder& b, const GroupStep& gs);        // multi-head latent attention, expanded or absorbed
void add_cross_attention(Builder& b, const GroupStep& gs);  // attention over image tokens (Llama 3.2 Vision)
void add_compressed_attention(Builder& b, const GroupStep& gs);  // DeepSeek-V4: window, pooled entries, indexer
// DeepSeek-V4's hyper-connection around one block of a layer (ops/compressed.cpp): the mixing weights from the n
// streams, their collapse into the block's input (`collapse`), or the block's output written back (otherwise).
void add_hyper_connection(Builder& b, const GroupStep& gs, const std::string& site, bool collapse);
void add_hyper_head(Builder& b, double T);  // the streams collapsed before the final norm
void add_dense_mlp(Builder& b, const GroupStep& gs, const std::string& prefix, double width, bool bias, bool fused);
void add_moe(Builder& b, const GroupStep& gs);        // router, routed experts, shared experts
void add_recurrent(Builder& b, const GroupStep& gs);  // gated DeltaNet, Mamba, Mamba2, lightning (ops/recurrent.cpp)
void add_indexer(Builder& b, const GroupStep& gs);    // DeepSeek sparse attention's lightning indexer and top-k
void add_block_indexer(Builder& b, const GroupStep& gs);  // MiniMax-M3's block indexer (ops/attention.cpp)
// Gemma 3n / Gemma 4 blocks (ops/gemma.cpp): AltUp's prediction or correction, LAuReL, the per-layer input block;
// the per-layer embeddings and AltUp's stream projections before the first layer and after the last.
void add_altup(Builder& b, const GroupStep& gs, const std::string& name);
void add_laurel(Builder& b, const GroupStep& gs);
void add_per_layer_input(Builder& b, const GroupStep& gs);
void add_gemma_inputs(Builder& b, double T);
void add_gemma_outputs(Builder& b, double T);
// The vision encoder over the images of every new prompt in the step (`prompts`: requests with no cache that add
// tokens; ops/vision.cpp).
void add_vision(Builder& b, double prompts, const std::vector<ImageSize>& images);
// Gemma 3n's MobileNetV5 over `images` images (ops/mobilenet.cpp); add_vision calls it.
void add_mobilenet(Builder& b, double images);

}  // namespace infercast
