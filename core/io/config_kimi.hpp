// Config reader of Moonshot AI's Kimi Linear (kimi_linear; KimiLinearForCausalLM, Kimi-Linear-48B-A3B): Kimi Delta
// Attention layers (a gated DeltaNet with a decay per key channel) beside MLA layers without RoPE, a dense first MLP
// and sigmoid-routed experts with a shared one after it (io/config_kimi.cpp). Both the Hub's config.json
// (linear_attn_config, num_experts, num_experts_per_token, num_shared_experts, model_max_length) and transformers'
// native spelling (layer_types, mlp_layer_types, linear_num_heads, n_routed_experts, ...) are read.
#pragma once

#include "io/config_common.hpp"

namespace infercast {

void parse_kimi_linear(Reader& r, ModelSpec& m);

}  // namespace infercast
