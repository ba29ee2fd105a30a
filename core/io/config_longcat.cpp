// LongCat-Flash. The structure is transformers' modular_longcat_flash.py (LongcatFlashDecoderLayer,
// LongcatFlashMoE, LongcatFlashTopkRouter, LongcatFlashMLA) and vLLM's models/longcat_flash.py.
#include "io/config_longcat.hpp"

#include <string>

#include "util/limits.hpp"

namespace infercast {

void parse_longcat_flash(Reader& r, ModelSpec& m) {
  // A block is two sub-layers; num_layers counts blocks. transformers sets num_hidden_layers to twice that for its
  // cache, so a saved config may carry either; the blocks decide.
  const i64 blocks = config_layer_count(r, "num_layers");
  if (2 * blocks > limit::kModelLayers)
    r.fail("num_layers", "out_of_range", r.child_path("num_layers") + " holds " + std::to_string(blocks) +
                                             " blocks of two layers; expected at most " +
                                             std::to_string(limit::kModelLayers / 2));
  m.hidden = r.positive_int("hidden_size");
  m.vocab = r.positive_int("vocab_size");
  m.max_position = r.nonneg_int_or("max_position_embeddings", 0);
  m.tied_embeddings = r.boolean_or("tie_word_embeddings", false);
  m.activation = r.string_or("hidden_act", "silu");
  m.mtp_layers = r.nonneg_int_or("num_nextn_predict_layers", 0);
  // RoPE, the LoRA and routing scales, the router's storage type, kernel and parallelism switches: no count changes.
  config_ignore(r, {"rope_theta", "rope_scaling", "rope_parameters", "rms_norm_eps", "mla_scale_q_lora",
                    "mla_scale_kv_lora", "routed_scaling_factor", "router_dtype", "topk_method", "norm_topk_prob",
                    "params_dtype", "ep_size", "nextn_use_scmoe", "attention_method", "num_key_value_heads",
                    "head_dim"});
  if (r.boolean_or("attention_bias", false)) not_modelled(r, "attention_bias", "attention biases in LongCat-Flash");
  if (r.has("zero_expert_type")) {
    const std::string type = r.string("zero_expert_type");
    if (type != "identity")
      r.fail("zero_expert_type", "unsupported", r.child_path("zero_expert_type") + " holds \"" + type +
                                                   "\"; expected identity (the only zero-computation expert modelled)");
  }

  // Multi-head latent attention, DeepSeek-V3's (queries always through q_lora_rank).
  AttentionSpec a;
  a.kind = AttnKind::MLA;
  a.n_heads = r.positive_int("num_attention_heads");
  a.n_kv_heads = a.n_heads;
  a.q_lora_rank = r.positive_int("q_lora_rank");
  a.kv_lora_rank = r.positive_int("kv_lora_rank");
  a.qk_nope_dim = r.positive_int("qk_nope_head_dim");
  a.qk_rope_dim = r.positive_int("qk_rope_head_dim");
  a.v_head_dim = r.positive_int("v_head_dim");
  a.head_dim = (Count(a.qk_nope_dim) + a.qk_rope_dim).v;
  a.rope_dim = a.qk_rope_dim;
  if (r.has("qk_head_dim") && r.positive_int("qk_head_dim") != a.head_dim)
    r.fail("qk_head_dim", "invalid", r.child_path("qk_head_dim") + " holds " + std::to_string(r.positive_int("qk_head_dim")) +
                                         "; expected qk_nope_head_dim + qk_rope_head_dim (" + std::to_string(a.head_dim) + ")");
  r.raw("qk_head_dim");

  FfnSpec dense;
  dense.intermediate = r.positive_int("ffn_hidden_size");
  // The shortcut MoE reads the first sub-layer's normed input, as its dense MLP does: that MLP is costed as the
  // MoE's always-active shared expert (the same GEMMs on the same tokens). The router scores the routed and the
  // identity experts, with a score-correction bias over both.
  FfnSpec moe;
  moe.moe = true;
  moe.n_experts = r.positive_int("n_routed_experts");
  moe.zero_experts = r.nonneg_int_or("zero_expert_num", 0);
  moe.top_k = r.positive_int("moe_topk");
  moe.expert_intermediate = r.positive_int("expert_ffn_hidden_size");
  moe.n_shared = 1;
  moe.shared_intermediate = dense.intermediate;
  moe.score_correction_bias = true;
  moe.router_bias = r.boolean_or("router_bias", false);
  const i64 slots = (Count(moe.n_experts) + moe.zero_experts).v;
  if (moe.top_k > slots)
    r.fail("moe_topk", "invalid", r.child_path("moe_topk") + " holds " + std::to_string(moe.top_k) +
                                      ", more than the routed and zero-computation experts (" +
                                      std::to_string(slots) + ")");

  m.layers.reserve(m.layers.size() + 2 * static_cast<std::size_t>(blocks));
  for (i64 i = 0; i < blocks; ++i) {
    LayerSpec first, second;
    first.attn = second.attn = a;
    first.ffn = moe;
    second.ffn = dense;
    m.layers.push_back(first);
    m.layers.push_back(second);
  }
}

}  // namespace infercast
