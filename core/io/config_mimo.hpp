// Config reader of Xiaomi's MiMo-V2-Flash (mimo_v2_flash) and MiMo-V2.5 (mimo_v2: q, k and v fused into one
// projection): full-attention layers beside sliding-window layers with twice the KV heads and attention sinks,
// queries and keys wider than values, partial RoPE, a dense first MLP and sigmoid-routed experts after it
// (io/config_mimo.cpp). Both the Hub's config.json (hybrid_layer_pattern, moe_layer_freq, swa_* keys) and
// transformers' native layout (layer_types, mlp_layer_types) are read, with transformers' defaults
// (configuration_mimo_v2_flash.py) for what a config omits.
#pragma once

#include "io/config_common.hpp"

namespace infercast {

void parse_mimo_v2_flash(Reader& r, ModelSpec& m);

}  // namespace infercast
