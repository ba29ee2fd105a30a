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
  if (static_cast<i64>(v.size()) < L)
    r.fail(key, "invalid", r.child_path(key) + " has " + std::to_string(v.size()) + " entries; expected one per layer (" +
                               std::to_string(L) + ")");
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
                                   : static_cast<i64>(static_cast<double>(a.head_dim) * r.number_in_or("partial_rotary_factor", 0, 1, 1));
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
      sparse.index_topk = s.positive_int("sparse_topk_blocks") * sparse.index_block;
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
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    layer.attn = sparse_attn[static_cast<std::size_t>(i)] ? sparse : a;
    layer.ffn = is_moe[static_cast<std::size_t>(i)] ? moe : dense;
    m.layers.push_back(layer);
  }
}

}  // namespace infercast
