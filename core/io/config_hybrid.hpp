// Config readers of the families whose layers mix softmax attention with recurrent mixers (constant state per
// sequence): gated DeltaNet hybrids (Qwen3-Next, Qwen3.5), lightning-attention hybrids (MiniMax-01, M1) and LFM2's
// gated short convolutions in config_linear.cpp; Mamba and Mamba2 models and hybrids (Mamba,
// Falcon Mamba, Mamba2, Bamba, Nemotron-H, Jamba, Falcon-H1, Granite 4.0) in config_ssm.cpp.
// transformers' defaults of each family fill what a config omits; a block Infercast does not model is refused
// naming the field.
#pragma once

#include "io/config_common.hpp"

namespace infercast {

// What every hybrid reads first, with its family's defaults: the hidden width, the vocabulary, the trained window
// and whether the embeddings are tied go into `m`; the layer count is returned.
struct HybridFrame {
  i64 hidden, layers, vocab, window;
  bool tied;
};
i64 read_hybrid_frame(Reader& r, ModelSpec& m, const HybridFrame& d);

void parse_gated_deltanet_hybrid(Reader& r, ModelSpec& m, const FamilyTraits& t);
void parse_minimax(Reader& r, ModelSpec& m, const FamilyTraits& t);
// Ring-linear 2.0: Ling 2.0's layers with lightning attention between its softmax layers.
void parse_bailing_linear(Reader& r, ModelSpec& m);
void parse_lfm2(Reader& r, ModelSpec& m, const FamilyTraits& t);
void parse_nemotron_h(Reader& r, ModelSpec& m, const FamilyTraits& t);
void parse_jamba(Reader& r, ModelSpec& m, const FamilyTraits& t);
void parse_falcon_h1(Reader& r, const json& cfg, ModelSpec& m, const FamilyTraits& t);
void parse_granite_hybrid(Reader& r, ModelSpec& m, const FamilyTraits& t);
// Mamba, Falcon Mamba and Mamba2: a Mamba or Mamba2 mixer and a pre-norm in every layer, nothing else.
void parse_mamba(Reader& r, ModelSpec& m, const FamilyTraits& t);
// Bamba: Mamba2 layers, Llama attention on attn_layer_indices, a gated MLP after either.
void parse_bamba(Reader& r, ModelSpec& m, const FamilyTraits& t);
// RecurrentGemma (Griffin): RG-LRU recurrent blocks and local MQA attention in block_types' cycle (config_griffin.cpp).
void parse_recurrent_gemma(Reader& r, ModelSpec& m);

// The hybrid families' entries of the traits table (io/families_hybrid.cpp).
void add_hybrid_families(std::vector<FamilyTraits>& table);

}  // namespace infercast
