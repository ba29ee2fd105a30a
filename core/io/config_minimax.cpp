// MiniMax-M3. The structure is that of the serving implementations (vLLM's MiniMax-M3 plugin:
// MiniMaxM3Attention, MiniMaxM3SparseAttention with MinimaxM3QKVParallelLinearWithIndexer, MiniMaxM3MoE,
// MiniMaxM3MLP); no transformers class exists, so the sizes a config omits are refused, not guessed.
#include "io/config_minimax.hpp"

#include <string>

namespace infercast {

namespace {

// A per-layer list of 0/1 (moe_layer_freq, sparse_attention_freq), one entry a layer.
std::vector<bool> layer_flags(Reader& r, const char* key, i64 L) {
  const auto v = r.int_array_or(key);
  config_check_per_layer(r, key, v.size(), L, PerLayer::AtLeast);
  std::vector<bool> out(static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) out[static_cast<std::size_t>(i)] = v[static_cast<std::size_t>(i)] != 0;
  return out;
}

}  // namespace

void parse_minimax_m3(Reader& r, ModelSpec& m) {
  const i64 h = r.positive_int("hidden_size");
  const i64 L = config_layer_count(r, "num_hidden_layers");
  m.hidden = h;
  m.vocab = r.positive_int("vocab_size");
  m.max_position = r.nonneg_int_or("max_position_embeddings", 0);
  m.tied_embeddings = r.boolean_or("tie_word_embeddings", false);
  m.activation = r.string_or("hidden_act", "swigluoai");
  m.mtp_layers = r.has("num_nextn_predict_layers") ? r.nonneg_int_or("num_nextn_predict_layers", 0)
                                                   : r.nonneg_int_or("num_mtp_modules", 0);
  r.raw("num_mtp_modules");
  // Gemma-style norms (1 + w), the SwiGLU-OAI clamp, routing scale and scoring: no count changes.
  config_ignore(r, {"use_gemma_norm", "swiglu_alpha", "swiglu_beta", "swiglu_limit", "use_routing_bias_scale"});

  AttentionSpec a;
  a.n_heads = r.positive_int("num_attention_heads");
  a.n_kv_heads = r.positive_int("num_key_value_heads");
  config_check_divides(r, a.n_heads, a.n_kv_heads, "num_attention_heads", "num_key_value_heads");
  a.head_dim = a.v_head_dim = config_head_dim(r, h, a.n_heads, "num_attention_heads");
  a.rope_dim = r.has("rotary_dim") ? r.positive_int("rotary_dim")
                                   : config_share(a.head_dim, r.number_in_or("partial_rotary_factor", 0, 1, 1));
  r.raw("partial_rotary_factor");
  // Per-head q/k norms: per_head shares one head_dim-wide weight across the heads, per_layer has one per head.
  a.qk_norm = r.boolean_or("use_qk_norm", true);
  a.qk_norm_full = a.qk_norm && r.string_or("qk_norm_type", "per_head") == "per_layer";
  a.output_gate = r.boolean_or("attention_output_gate", false);
  a.qkv_bias = a.o_bias = r.boolean_or("attention_bias", false);

  std::vector<bool> sparse_attn(static_cast<std::size_t>(L), false);
  AttentionSpec sparse = a;
  if (r.has("sparse_attention_config")) {
    Reader s = r.object("sparse_attention_config");
    if (s.boolean_or("use_sparse_attention", true)) {
      sparse.index_heads = s.positive_int("sparse_num_index_heads");
      sparse.index_head_dim = s.positive_int("sparse_index_dim");
      sparse.index_block = s.positive_int("sparse_block_size");
      sparse.index_topk = (Count(s.positive_int("sparse_topk_blocks")) * sparse.index_block).v;
      if (s.has("sparse_attention_freq")) sparse_attn = layer_flags(s, "sparse_attention_freq", L);
      else sparse_attn.assign(static_cast<std::size_t>(L), true);
    }
    // Which blocks are forced (the first, the local one), how blocks are scored, the value-index switch: the
    // attended keys stay sparse_topk_blocks x sparse_block_size.
    for (const auto& key : s.unread()) s.raw(key);
  }

  FfnSpec dense;
  dense.intermediate = r.positive_int("dense_intermediate_size");
  FfnSpec moe;
  moe.moe = true;
  moe.n_experts = r.positive_int("num_local_experts");
  moe.top_k = r.positive_int("num_experts_per_tok");
  moe.expert_intermediate = r.has("moe_intermediate_size") ? r.positive_int("moe_intermediate_size") : r.positive_int("intermediate_size");
  r.raw("intermediate_size");
  moe.n_shared = r.nonneg_int_or("n_shared_experts", 0);
  moe.shared_intermediate = r.has("shared_intermediate_size") ? r.positive_int("shared_intermediate_size") : moe.expert_intermediate;
  r.raw("shared_intermediate_size");
  moe.score_correction_bias = r.boolean_or("use_routing_bias", false);  // e_score_correction_bias, one per expert
  config_check_top_k(r, moe, "num_experts_per_tok");
  std::vector<bool> is_moe(static_cast<std::size_t>(L), true);
  if (r.has("moe_layer_freq")) {
    is_moe = layer_flags(r, "moe_layer_freq", L);
    r.raw("first_k_dense_replace");
  } else {
    const i64 first = r.nonneg_int_or("first_k_dense_replace", 0);
    for (i64 i = 0; i < L && i < first; ++i) is_moe[static_cast<std::size_t>(i)] = false;
  }
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    layer.attn = sparse_attn[static_cast<std::size_t>(i)] ? sparse : a;
    layer.ffn = is_moe[static_cast<std::size_t>(i)] ? moe : dense;
    m.layers.push_back(layer);
  }
}

// Step-3.7-Flash. Defaults are transformers' Step3p7TextConfig (configuration_step3p7.py, modular_step3p7.py), which
// also reads the Hub's legacy keys (num_experts, moe_layers_enum, attention_other_setting, a layer_types list padded
// with the MTP layers' entries); the attention is LagunaAttention's (q/k norms of head_dim, g_proj h x n_h).
void parse_step3p7(Reader& r, ModelSpec& m) {
  const i64 L = config_decoder_basics(r, m, {4096, 45, 128815, 128000, 0, false});
  const i64 h = m.hidden;
  // RoPE per layer, the routed scale, the experts' clamps, the query scale: no count changes.
  config_ignore(r, {"rope_theta", "partial_rotary_factors", "rope_scaling", "rope_parameters", "moe_router_scaling_factor",
                    "swiglu_limits", "swiglu_limits_shared", "query_pre_attn_scalar", "scoring_func", "use_head_wise_attn_gate",
                    "mtp_layer_types", "mtp_mlp_layer_types", "per_layer_config"});
  const char* kv_key = r.has("num_attention_groups") ? "num_attention_groups" : "num_key_value_heads";
  AttentionSpec full;
  full.n_heads = r.positive_int_or("num_attention_heads", 64);
  full.n_kv_heads = r.positive_int_or(kv_key, 8);
  r.raw("num_key_value_heads");
  config_check_divides(r, full.n_heads, full.n_kv_heads, "num_attention_heads", kv_key);
  full.head_dim = full.v_head_dim = config_head_dim(r, h, full.n_heads, "num_attention_heads");
  full.rope_dim = full.head_dim;
  full.qk_norm = true;    // LagunaAttention's q_norm and k_norm, one head_dim-wide weight each
  full.head_gate = true;  // g_proj: one sigmoid gate a head
  full.qkv_bias = full.o_bias = r.boolean_or("attention_bias", false);
  AttentionSpec sliding = full;
  sliding.window = r.positive_int_or("sliding_window", 512);
  // Sliding layers' head count: num_sliding_attention_heads, else the Hub's attention_other_setting.
  if (r.has("num_sliding_attention_heads")) {
    sliding.n_heads = r.positive_int("num_sliding_attention_heads");
  } else if (r.has("attention_other_setting")) {
    Reader o = r.object("attention_other_setting");
    sliding.n_heads = o.positive_int_or("num_attention_heads", full.n_heads);
    for (const auto& key : o.unread()) o.raw(key);
  }
  r.raw("num_sliding_attention_heads");
  r.raw("attention_other_setting");
  config_check_divides(r, sliding.n_heads, sliding.n_kv_heads, "num_sliding_attention_heads", kv_key);
  // layer_types: one per layer; the Hub pads it with the MTP layers' entries, which are theirs.
  std::vector<bool> slides = config_layer_list(r, "layer_types", L, "full_attention", "sliding_attention");
  if (slides.empty()) slides.assign(static_cast<std::size_t>(L), false);
  // Experts: n_routed_experts (the Hub's num_experts / moe_num_experts) of moe_intermediate_size, a sigmoid router
  // with its score-correction bias, one shared MLP of share_expert_dim; dense MLPs of intermediate_size.
  FfnSpec dense;
  dense.intermediate = r.positive_int_or("intermediate_size", 11264);
  FfnSpec moe;
  moe.moe = true;
  const char* experts_key = r.has("n_routed_experts") ? "n_routed_experts" : r.has("moe_num_experts") ? "moe_num_experts" : "num_experts";
  moe.n_experts = r.positive_int_or(experts_key, 288);
  const char* topk_key = r.has("moe_top_k") ? "moe_top_k" : "num_experts_per_tok";
  moe.top_k = r.positive_int_or(topk_key, 8);
  moe.expert_intermediate = r.positive_int_or("moe_intermediate_size", 1280);
  moe.n_shared = 1;
  moe.shared_intermediate = r.positive_int_or(r.has("share_expert_dims") ? "share_expert_dims" : "share_expert_dim", 1280);
  moe.score_correction_bias = r.boolean_or("use_moe_router_bias", true);
  for (const char* k : {"n_routed_experts", "moe_num_experts", "num_experts", "moe_top_k", "num_experts_per_tok",
                        "share_expert_dims", "share_expert_dim", "n_shared_experts"})
    r.raw(k);
  config_check_top_k(r, moe, topk_key);
  // Which layers are MoE: mlp_layer_types, else moe_layers_enum (indices), else first_k_dense_replace, else from 3 on.
  std::vector<bool> sparse(static_cast<std::size_t>(L), true);
  if (r.has("mlp_layer_types")) {
    const auto t = r.string_array_or("mlp_layer_types");
    config_check_per_layer(r, "mlp_layer_types", t.size(), L, PerLayer::AtLeast);
    for (i64 i = 0; i < L; ++i) sparse[static_cast<std::size_t>(i)] = t[static_cast<std::size_t>(i)] == "sparse";
  } else if (r.has("moe_layers_enum")) {
    const json* e = r.raw("moe_layers_enum");
    std::vector<i64> idx;
    if (e->is_string()) {
      // Digits between commas; an index of more than 9 digits is past any layer (kept out, as indices past L are).
      std::string s = e->get<std::string>(), cur;
      for (char ch : s + ",") {
        if (ch == ',') {
          if (!cur.empty()) idx.push_back(cur.size() > 9 ? L : static_cast<i64>(std::stoll(cur)));
          cur.clear();
        } else if (ch >= '0' && ch <= '9') {
          cur += ch;
        }
      }
    } else {
      idx = r.int_array_or("moe_layers_enum");
    }
    sparse.assign(static_cast<std::size_t>(L), false);
    for (i64 i : idx)
      if (i >= 0 && i < L) sparse[static_cast<std::size_t>(i)] = true;
  } else {
    const i64 first = r.nonneg_int_or("first_k_dense_replace", 3);
    for (i64 i = 0; i < L && i < first; ++i) sparse[static_cast<std::size_t>(i)] = false;
  }
  r.raw("first_k_dense_replace");
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    layer.attn = slides[static_cast<std::size_t>(i)] ? sliding : full;
    layer.ffn = sparse[static_cast<std::size_t>(i)] ? moe : dense;
    m.layers.push_back(layer);
  }
}

}  // namespace infercast
