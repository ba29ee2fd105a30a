// Config reader of Poolside's Laguna (laguna): Qwen2-MoE's experts with one shared expert and a sigmoid router with
// its score-correction bias after dense layers, LagunaAttention (q/k norms of head_dim and a softplus output gate
// g_proj, per head or per element), a query-head count per layer (num_attention_heads_per_layer), sliding layers where
// layer_types says, and RoPE on a share of each head per layer type (io/config_laguna.cpp). Defaults are transformers'
// LagunaConfig (configuration_laguna.py).
#pragma once

#include "io/config_common.hpp"

namespace infercast {

void parse_laguna(Reader& r, ModelSpec& m);

}  // namespace infercast
