// Small reading rules of the decoder families added for issue 20, used by parse_llama_like (io/model_config.cpp):
// partial rotary embeddings, sliding-window patterns written as a string, and the MoE layouts of GLM-4.5,
// ERNIE 4.5 and Hunyuan (docs/formulas.md, "Families and defaults").
#pragma once

#include <vector>

#include "io/families.hpp"
#include "io/json_reader.hpp"
#include "model/model.hpp"

namespace infercast {

// Dimensions RoPE rotates per head: int(head_dim * partial_rotary_factor) (transformers' convention), the factor
// read from partial_rotary_factor or rope_parameters.partial_rotary_factor; head_dim when neither is given.
i64 rotary_dims(Reader& r, i64 head_dim);

// Which of L layers use the sliding window under sliding_window_pattern: an integer n (every n-th layer full, the
// rest sliding), or a string of L (local) and G (global) repeated over the layers, the last layer global
// (EXAONE 4's "LLLG").
std::vector<bool> sliding_by_pattern(Reader& r, i64 L, i64 fallback);

// no_rope_layers (SmolLM3, Llama 4, Granite SWASH's earlier revision): a flag a layer, 1 RoPE and 0 none; empty when
// absent, refused naming the key when it does not list one per layer.
std::vector<i64> no_rope_flags(Reader& r, i64 L);

// Which of L layers are NoPE for a family that sets RoPE per layer (Granite SWASH): layer_rope_theta holds each
// layer's base (0: no RoPE), an earlier revision's no_rope_layers a flag a layer (1: RoPE, 0: none); all RoPE
// without either.
// `listed`: whether either key was given.
std::vector<bool> read_rope_per_layer(Reader& r, i64 L, bool& listed);

// The FFN of every layer under MoeRule::DeepSeekLike, Ernie or Hunyuan (empty for the other rules). `dense` is the
// dense MLP the non-MoE layers keep.
std::vector<FfnSpec> moe_rule_layers(Reader& r, const FamilyTraits& t, i64 L, const FfnSpec& dense);

}  // namespace infercast
