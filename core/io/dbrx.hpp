// DBRX's own config schema (d_model, n_heads, n_layers and the nested attn_config / ffn_config), read into a
// ModelSpec (transformers dbrx/configuration_dbrx.py, modeling_dbrx.py).
#pragma once

#include "io/json_reader.hpp"
#include "model/model.hpp"

namespace infercast {

// Every layer: LayerNorm without bias (norm_1), a fused Wqkv of d_model + 2 kv_n_heads head_dim outputs and
// out_proj, both without bias, LayerNorm (norm_2), a router without bias and moe_num_experts gated experts (w1, v1,
// w2) of ffn_hidden_size, moe_top_k active; a final LayerNorm and an untied LM head.
void parse_dbrx(Reader& top, ModelSpec& m);

}  // namespace infercast
