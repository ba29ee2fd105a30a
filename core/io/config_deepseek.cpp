// DeepSeek-V4 (deepseek_v4, and deepseek_ref as SGLang's FP8 copies name it). Defaults are transformers'
// (configuration_deepseek_v4.py); the structure is modular_deepseek_v4.py's and SGLang's models/deepseek_v4.py.
#include "io/config_deepseek.hpp"

#include <string>

namespace infercast {

void parse_deepseek_v4(Reader& r, ModelSpec& m) {
  const i64 L = config_decoder_basics(r, m, {4096, 43, 129280, 1048576, 1, false});
  // RoPE bases and YaRN, the router's scoring and scaling, the experts' clamp, the mHC epsilon: no count changes.
  config_ignore(r, {"rope_theta", "compress_rope_theta", "rope_scaling", "rope_parameters", "hc_eps", "topk_method",
                    "scoring_func", "norm_topk_prob", "routed_scaling_factor", "swiglu_limit", "rms_norm_eps"});
  if (r.boolean_or("attention_bias", false)) not_modelled(r, "attention_bias", "attention biases in DeepSeek-V4");
  if (r.boolean_or("mlp_bias", false)) not_modelled(r, "mlp_bias", "MLP biases in DeepSeek-V4");

  // Attention: one shared key-value head (keys are the values), queries through q_lora_rank, sinks, the grouped
  // output projection.
  AttentionSpec a;
  a.kind = AttnKind::Compressed;
  a.n_heads = r.positive_int_or("num_attention_heads", 64);
  a.n_kv_heads = r.positive_int_or("num_key_value_heads", 1);
  if (a.n_kv_heads != 1)
    r.fail("num_key_value_heads", "invalid", r.child_path("num_key_value_heads") + " holds " + std::to_string(a.n_kv_heads) +
                                                 "; DeepSeek-V4 shares one key-value head (expected 1)");
  a.head_dim = a.v_head_dim = r.positive_int_or("head_dim", 512);
  // qk_rope_head_dim (the released configs), else partial_rotary_factor x head_dim (transformers), else 64 of 512.
  if (r.has("qk_rope_head_dim")) {
    a.qk_rope_dim = r.positive_int("qk_rope_head_dim");
  } else {
    const double f = r.number_in_or("partial_rotary_factor", 0, 1, 64.0 / 512.0);
    a.qk_rope_dim = config_share(a.head_dim, f);
  }
  r.raw("partial_rotary_factor");
  if (a.qk_rope_dim > a.head_dim)
    r.fail("qk_rope_head_dim", "invalid", r.child_path("qk_rope_head_dim") + " holds " + std::to_string(a.qk_rope_dim) +
                                              "; expected at most head_dim (" + std::to_string(a.head_dim) + ")");
  a.rope_dim = a.qk_rope_dim;
  a.q_lora_rank = r.positive_int_or("q_lora_rank", 1024);
  a.o_groups = r.positive_int_or("o_groups", 8);
  a.o_lora_rank = r.positive_int_or("o_lora_rank", 1024);
  config_check_divides(r, a.n_heads, a.o_groups, "num_attention_heads", "o_groups");
  a.window = r.positive_int_or("sliding_window", 128);
  a.sinks = true;
  const i64 index_heads = r.positive_int_or("index_n_heads", 64), index_dim = r.positive_int_or("index_head_dim", 128);
  const i64 index_topk = r.positive_int_or("index_topk", 512);

  // Compression per layer: layer_types, else compress_ratios (one per layer, the MTP layer's after them), else
  // transformers' default: two HCA layers, then CSA and HCA alternating. Rates: compress_rates, else the
  // compress_rate_csa / compress_rate_hca keys, else 4 and 128.
  i64 csa = 4, hca = 128;
  if (r.has("compress_rates")) {
    Reader rates = r.object("compress_rates");
    csa = rates.positive_int_or("compressed_sparse_attention", 4);
    hca = rates.positive_int_or("heavily_compressed_attention", 128);
    rates.reject_unknown();
  } else {
    r.raw("compress_rates");
    csa = r.positive_int_or("compress_rate_csa", 4);
    hca = r.positive_int_or("compress_rate_hca", 128);
  }
  if (csa == hca)
    r.fail("compress_rates", "invalid", r.child_path("compress_rates") + ": CSA and HCA both pool " + std::to_string(csa) +
                                            " tokens; expected two rates");
  std::vector<i64> ratios;
  if (r.has("layer_types")) {
    const auto types = r.string_array_or("layer_types");
    for (std::size_t i = 0; i < types.size(); ++i) {
      const auto& t = types[i];
      if (t == "sliding_attention") ratios.push_back(0);
      else if (t == "compressed_sparse_attention") ratios.push_back(csa);
      else if (t == "heavily_compressed_attention") ratios.push_back(hca);
      else
        throw InputError("model.unsupported", r.child_path("layer_types") + "/" + std::to_string(i),
                         r.child_path("layer_types") + "/" + std::to_string(i) + " holds \"" + t +
                             "\"; expected sliding_attention, compressed_sparse_attention or heavily_compressed_attention");
    }
    r.raw("compress_ratios");
  } else if (r.has("compress_ratios")) {
    ratios = r.int_array_or("compress_ratios");
    for (std::size_t i = 0; i < ratios.size(); ++i)
      if (ratios[i] != 0 && ratios[i] != csa && ratios[i] != hca)
        throw InputError("model.unsupported", r.child_path("compress_ratios") + "/" + std::to_string(i),
                         r.child_path("compress_ratios") + "/" + std::to_string(i) + " holds " + std::to_string(ratios[i]) +
                             "; expected 0 (the window alone), " + std::to_string(csa) + " (CSA) or " + std::to_string(hca) + " (HCA)");
  } else {
    for (i64 i = 0; i < L; ++i) ratios.push_back(i < 2 ? hca : ((i - 2) % 2 ? csa : hca));
  }
  const char* types_key = r.has("layer_types") ? "layer_types" : "compress_ratios";
  config_check_per_layer(r, types_key, ratios.size(), L, PerLayer::AtLeast);

  // Experts: hash-routed first layers (a stored token-id table picks their experts), then top-k routing with a
  // score-correction bias; one shared MLP of moe_intermediate_size per shared expert.
  FfnSpec moe;
  moe.moe = true;
  moe.n_experts = r.positive_int_or("n_routed_experts", 256);
  moe.top_k = r.positive_int_or("num_experts_per_tok", 6);
  moe.expert_intermediate = r.positive_int_or("moe_intermediate_size", 2048);
  moe.n_shared = r.nonneg_int_or("n_shared_experts", 1);
  moe.shared_intermediate = moe.expert_intermediate;
  moe.score_correction_bias = true;
  config_check_top_k(r, moe, "num_experts_per_tok");
  FfnSpec hashed = moe;
  hashed.score_correction_bias = false;
  hashed.hash_routed = true;
  std::vector<bool> hash(static_cast<std::size_t>(L), false);
  if (r.has("mlp_layer_types")) {
    const std::vector<bool> routed = config_layer_list(r, "mlp_layer_types", L, "hash_moe", "moe");
    for (i64 i = 0; i < L; ++i) hash[static_cast<std::size_t>(i)] = !routed[static_cast<std::size_t>(i)];
    r.raw("num_hash_layers");
  } else {
    const i64 n_hash = r.nonneg_int_or("num_hash_layers", 3);
    for (i64 i = 0; i < L && i < n_hash; ++i) hash[static_cast<std::size_t>(i)] = true;
  }
  // DeepSeek's checkpoints store the routed experts in FP4 (e2m1 with a power-of-two scale per 32: MXFP4) beside
  // FP8 weights; SGLang's FP8 copies drop the key.
  if (r.string_or("expert_dtype", "") == "fp4") m.declared_expert_weights = "mxfp4";

  const i64 hc = r.positive_int_or("hc_mult", 4), iters = r.nonneg_int_or("hc_sinkhorn_iters", 20);
  m.hc_mult = hc;
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    layer.attn = a;
    const i64 ratio = ratios[static_cast<std::size_t>(i)];
    layer.attn.compress_ratio = ratio;
    if (ratio == csa) {
      layer.attn.index_topk = index_topk;
      layer.attn.index_heads = index_heads;
      layer.attn.index_head_dim = index_dim;
    }
    layer.ffn = hash[static_cast<std::size_t>(i)] ? hashed : moe;
    layer.hc_mult = hc;
    layer.hc_sinkhorn_iters = iters;
    m.layers.push_back(layer);
  }
}

}  // namespace infercast
