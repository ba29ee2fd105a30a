// MiMo-V2-Flash and MiMo-V2.5 (mimo_v2, the same decoder with a fused qkv_proj). Defaults are transformers'
// (configuration_mimo_v2_flash.py, whose converter convert_mimo_v2_flash_weights_to_hf.py maps the Hub's keys); the
// Hub's per-layer sizes are vLLM's (models/mimo_v2.py, formerly mimo_v2_flash.py: MiMoV2Attention, MiMoV2MoE,
// MiMoV2MLP).
#include "io/config_mimo.hpp"

#include <string>

namespace infercast {

void parse_mimo_v2_flash(Reader& r, ModelSpec& m) {
  const i64 L = config_decoder_basics(r, m, {4096, 48, 152576, 131072, 0, false});
  // RoPE bases, the value scale, routing numerics and the Hub's restated window and chunk: no count changes.
  config_ignore(r, {"swa_rope_theta", "rope_parameters", "attention_value_scale", "layernorm_epsilon", "topk_method",
                    "sliding_window_size", "attention_chunk_size", "swa_qk_head_dim"});
  const bool bias = r.boolean_or("attention_bias", false);
  // MiMo-V2.5 stores q, k and v as one projection (vLLM's mimo_v2.py); any other layout keeps three.
  const bool fused = r.string_or("attention_projection_layout", "") == "fused_qkv";
  // MiMo-V2.5's encoders' processor, the placeholder tokens' family and a hybrid block size it leaves null.
  config_ignore(r, {"processor_config", "vision_model_type", "hybrid_block_size"});

  // Attention: queries and keys of head_dim, values of v_head_dim, RoPE on partial_rotary_factor of head_dim.
  // Sliding layers have their own sizes on the Hub (swa_*); transformers' native layout doubles the KV heads.
  const double rotary = r.number_in_or("partial_rotary_factor", 0, 1, 0.334);
  AttentionSpec full;
  full.n_heads = r.positive_int_or("num_attention_heads", 64);
  full.n_kv_heads = r.positive_int_or("num_key_value_heads", 4);
  full.head_dim = r.positive_int_or("head_dim", 192);
  full.v_head_dim = r.positive_int_or("v_head_dim", 128);
  full.qkv_bias = bias;
  full.fused_qkv = fused;
  full.sinks = r.boolean_or("add_full_attention_sink_bias", false);
  AttentionSpec swa = full;
  swa.n_heads = r.positive_int_or("swa_num_attention_heads", full.n_heads);
  swa.n_kv_heads = r.positive_int_or("swa_num_key_value_heads", (Count(2) * full.n_kv_heads).v);
  swa.head_dim = r.positive_int_or("swa_head_dim", full.head_dim);
  swa.v_head_dim = r.positive_int_or("swa_v_head_dim", full.v_head_dim);
  swa.window = r.positive_int_or("sliding_window", 128);
  swa.sinks = r.boolean_or("add_swa_attention_sink_bias", true);
  config_check_divides(r, full.n_heads, full.n_kv_heads, "num_attention_heads", "num_key_value_heads");
  config_check_divides(r, swa.n_heads, swa.n_kv_heads, "swa_num_attention_heads", "swa_num_key_value_heads");
  full.rope_dim = config_share(full.head_dim, rotary);  // vLLM's int(head_size x factor)
  swa.rope_dim = config_share(swa.head_dim, rotary);

  // Which layers slide: the Hub's hybrid_layer_pattern (1: sliding), else layer_types, else transformers' default
  // (full on the first layer and every sixth).
  std::vector<bool> sliding(static_cast<std::size_t>(L));
  const auto per_layer = [&](const char* key, std::size_t n) { config_check_per_layer(r, key, n, L, PerLayer::AtLeast); };
  if (r.has("hybrid_layer_pattern")) {
    const auto p = r.int_array_or("hybrid_layer_pattern");
    per_layer("hybrid_layer_pattern", p.size());
    for (i64 i = 0; i < L; ++i) sliding[static_cast<std::size_t>(i)] = p[static_cast<std::size_t>(i)] == 1;
    r.raw("layer_types");
  } else if (r.has("layer_types")) {
    sliding = config_layer_list(r, "layer_types", L, "full_attention", "sliding_attention");
  } else {
    for (i64 i = 0; i < L; ++i) sliding[static_cast<std::size_t>(i)] = !(i == 0 || (i + 1) % 6 == 0);
  }

  // Experts: n_routed_experts of moe_intermediate_size with a sigmoid router and its score-correction bias, no
  // shared expert (n_shared_experts is null on the Hub); dense MLPs of intermediate_size where the layer is dense.
  FfnSpec dense;
  dense.intermediate = r.positive_int_or("intermediate_size", 16384);
  FfnSpec moe;
  moe.moe = true;
  moe.n_experts = r.positive_int_or("n_routed_experts", 256);
  moe.top_k = r.positive_int_or("num_experts_per_tok", 8);
  moe.expert_intermediate = r.positive_int_or("moe_intermediate_size", 2048);
  moe.n_shared = r.nonneg_int_or("n_shared_experts", 0);
  moe.shared_intermediate = moe.expert_intermediate;
  moe.score_correction_bias = true;
  config_check_top_k(r, moe, "num_experts_per_tok");
  std::vector<bool> sparse(static_cast<std::size_t>(L));
  const json* freq = r.raw("moe_layer_freq");
  if (freq && freq->is_array()) {
    const auto f = r.int_array_or("moe_layer_freq");
    per_layer("moe_layer_freq", f.size());
    for (i64 i = 0; i < L; ++i) sparse[static_cast<std::size_t>(i)] = f[static_cast<std::size_t>(i)] != 0;
    r.raw("mlp_layer_types");
  } else if (r.has("mlp_layer_types")) {
    sparse = config_mlp_layer_types(r, L);
  } else {
    for (i64 i = 0; i < L; ++i) sparse[static_cast<std::size_t>(i)] = i > 0;  // one dense layer, then MoE
  }
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    layer.attn = sliding[static_cast<std::size_t>(i)] ? swa : full;
    layer.ffn = sparse[static_cast<std::size_t>(i)] ? moe : dense;
    m.layers.push_back(layer);
  }
}

}  // namespace infercast
