// Kimi Linear (kimi_linear). The layer shapes are those of the checkpoint's own modeling code
// (moonshotai/Kimi-Linear-48B-A3B-Instruct, modeling_kimi.py: KimiDeltaAttention, KimiMLAAttention, KimiSparseMoeBlock,
// KimiMoEGate; read in a copy, troy12x/quasar-kimi at 153735fdfeb5d1942406f7f7a47f9cae35e3e3c6) and of vLLM's
// models/kimi_linear.py (vllm-project/vllm at 01d995867291dd13119ea66cd18e3c9c9b51c50e), layers/kda.py (at
// 01a7e5d91d42e6232d746d12f898a590f1ee77f9) and transformers_utils/configs/kimi_linear.py (at
// 6b06599499a6f9d6f140ae26ff95b3cbd2e7e75c). What a config omits takes transformers' KimiLinearConfig defaults
// (models/kimi_linear/configuration_kimi_linear.py at 0bc4dd0d6a7cbd5dee2280a076b8ea89e8af22cd: the 48B model's
// sizes; the traits in io/families_hybrid.cpp fill the keys spelled one way, the keys below those spelled two ways).
// Moonshot's configuration_kimi.py has other defaults (4096 wide, 32 layers, no experts) that describe no released
// model.
#include "io/config_kimi.hpp"

#include <initializer_list>
#include <string>

namespace infercast {

namespace {

// A size the Hub and transformers spell differently: the first of `keys` present, else `fallback`; every spelling is
// marked read. `used` names the key read (the first spelling when none is present).
i64 either_int(Reader& r, std::initializer_list<const char*> keys, i64 fallback, bool positive, const char** used = nullptr) {
  const char* key = *keys.begin();
  for (const char* k : keys)
    if (r.has(k)) {
      key = k;
      break;
    }
  for (const char* k : keys)
    if (k != key) r.raw(k);
  if (used) *used = key;
  return positive ? r.positive_int_or(key, fallback) : r.nonneg_int_or(key, fallback);
}

// 1-based layer numbers (the Hub's kda_layers / full_attn_layers, as vLLM's is_kda_layer reads them) marked in `kinds`
// with `value`; 0 marks a layer no list has named yet.
void mark_layers(Reader& la, const char* key, i64 L, int value, std::vector<int>& kinds) {
  const auto list = la.int_array_or(key);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const i64 n = list[i];
    const std::string at = la.child_path(key) + "/" + std::to_string(i);
    if (n < 1 || n > L)
      throw InputError("model.invalid", at, at + " holds " + std::to_string(n) + "; expected a layer number from 1 to " +
                                                std::to_string(L) + " (the lists count layers from 1)");
    int& k = kinds[static_cast<std::size_t>(n - 1)];
    if (k != 0 && k != value)
      throw InputError("model.invalid", at, at + " holds " + std::to_string(n) +
                                                ", a layer both kda_layers and full_attn_layers name");
    k = value;
  }
}

}  // namespace

void parse_kimi_linear(Reader& r, ModelSpec& m) {
  m.hidden = r.positive_int("hidden_size");
  const i64 L = config_layer_count(r, "num_hidden_layers");
  m.vocab = r.positive_int("vocab_size");
  m.tied_embeddings = r.boolean_or("tie_word_embeddings", false);
  m.activation = r.string_or("hidden_act", "silu");
  m.max_position = either_int(r, {"model_max_length", "max_position_embeddings"}, 1048576, false);
  m.mtp_layers = either_int(r, {"num_nextn_predict_layers", "num_mtp_layers"}, 0, false);
  // Routing numerics (sigmoid scores, renormalized top-k, the routed scale, one expert group), the legacy head_dim
  // (hidden / heads, used by no module), num_key_value_heads (MLA caches one latent), RoPE's base (unused by NoPE
  // layers), attention_bias (KimiLinearAttention forces it off) and SiTU's betas: no count changes.
  config_ignore(r, {"moe_renormalize", "moe_router_activation_func", "use_grouped_topk", "num_expert_group", "topk_method",
                    "head_dim", "num_key_value_heads", "attention_bias", "activation_situ_beta",
                    "activation_situ_linear_beta", "rope_parameters"});
  // Kimi K3's additions to the class (transformers' configuration_kimi_linear.py): refused by name.
  if (r.boolean_or("mla_use_output_gate", false)) not_modelled(r, "mla_use_output_gate", "a sigmoid output gate on MLA (Kimi K3)");
  if (r.nonneg_int_or("attn_res_block_size", 0) > 0) not_modelled(r, "attn_res_block_size", "block attention residuals (Kimi K3)");
  if (r.has("routed_expert_hidden_size")) not_modelled(r, "routed_expert_hidden_size", "a latent MoE (Kimi K3)");
  r.raw("latent_moe_use_norm");

  // MLA (KimiMLAAttention: DeepSeek-V3's, the queries without compression in the released model). With
  // mla_use_nope no dimension is rotated, but the qk_rope_head_dim part of the keys is still projected, cached in
  // the latent and attended (modeling_kimi.py; vLLM passes rotary_emb=None).
  AttentionSpec a;
  a.kind = AttnKind::MLA;
  a.n_heads = r.positive_int("num_attention_heads");
  a.n_kv_heads = a.n_heads;
  a.q_lora_rank = r.nonneg_int_or("q_lora_rank", 0);  // null in the release: q_proj is h x heads*(nope + rope)
  a.kv_lora_rank = r.positive_int("kv_lora_rank");
  a.qk_nope_dim = r.positive_int("qk_nope_head_dim");
  a.qk_rope_dim = r.nonneg_int_or("qk_rope_head_dim", 64);
  a.v_head_dim = r.positive_int("v_head_dim");
  a.head_dim = (Count(a.qk_nope_dim) + a.qk_rope_dim).v;
  a.rope_dim = r.boolean_or("mla_use_nope", false) ? 0 : a.qk_rope_dim;

  // KDA (KimiDeltaAttention): num_heads heads of head_dim for q, k and v alike, a short convolution on each.
  RecurrentSpec g;
  g.kind = RecurrentKind::KimiDelta;
  g.chunk = 64;       // fla's chunk_kda
  g.state_bits = 32;  // vLLM's MambaStateDtypeCalculator.kda_state_dtype: the recurrent state in float32 always
  std::vector<int> kinds(static_cast<std::size_t>(L), 0);  // 1: KDA, 2: MLA
  if (r.has("linear_attn_config")) {
    Reader la = r.object("linear_attn_config");
    g.heads = g.groups = la.positive_int_or("num_heads", 32);
    g.head_dim = g.state_dim = la.positive_int_or("head_dim", 128);
    g.conv_kernel = la.positive_int_or("short_conv_kernel_size", 4);
    if (la.boolean_or("use_full_rank_gate", false))
      not_modelled(la, "use_full_rank_gate", "KDA's full-rank forget and output gates (Kimi K3)");
    la.raw("gate_lower_bound");  // a bounded decay (a sigmoid instead of softplus): no count changes
    // transformers restates the dict's sizes at the top level when it saves a config: the dict's are read.
    config_ignore(r, {"linear_num_heads", "linear_num_key_heads", "linear_head_dim", "linear_key_head_dim",
                      "linear_conv_kernel_dim"});
    if (r.has("layer_types")) {  // transformers: an explicit layer_types wins over the checkpoint's lists
      la.raw("kda_layers");
      la.raw("full_attn_layers");
    } else {
      mark_layers(la, "kda_layers", L, 1, kinds);
      mark_layers(la, "full_attn_layers", L, 2, kinds);
    }
    for (const auto& key : la.unread()) {
      m.warnings.push_back(Warning{"model.unused_field", la.child_path(key),
                                   la.child_path(key) + " is not used by Infercast; check that it does not change the architecture"});
      la.raw(key);
    }
  } else {
    g.heads = g.groups = either_int(r, {"linear_num_heads", "linear_num_key_heads"}, 32, true);
    g.head_dim = g.state_dim = either_int(r, {"linear_head_dim", "linear_key_head_dim"}, 128, true);
    g.conv_kernel = r.positive_int_or("linear_conv_kernel_dim", 4);
  }
  if (r.has("layer_types")) {
    const auto types = r.string_array_or("layer_types");
    config_check_per_layer(r, "layer_types", types.size(), L, PerLayer::Exactly);
    for (std::size_t i = 0; i < types.size(); ++i) {
      if (types[i] == "linear_attention" || types[i] == "kda_attention") kinds[i] = 1;
      else if (types[i] == "full_attention") kinds[i] = 2;
      else
        throw InputError("model.unsupported", r.child_path("layer_types") + "/" + std::to_string(i),
                         r.child_path("layer_types") + "/" + std::to_string(i) + " holds \"" + types[i] +
                             "\"; expected linear_attention (or kda_attention) or full_attention");
    }
  }
  // Without a layer list the sources disagree (vLLM and Moonshot's code: no KDA layer; transformers: every fourth
  // layer MLA, counted from 0 or from 1 depending on the version): refused rather than guessed.
  for (std::size_t i = 0; i < kinds.size(); ++i)
    if (kinds[i] == 0) {
      const char* key = r.has("linear_attn_config") ? "linear_attn_config" : "layer_types";
      r.fail(key, "invalid", r.child_path(key) + " does not say whether layer " + std::to_string(i + 1) +
                                 " (counted from 1) is KDA or MLA; expected linear_attn_config.kda_layers and "
                                 "full_attn_layers naming every layer, or layer_types");
    }

  // MoE (KimiSparseMoeBlock): num_experts gated experts of moe_intermediate_size, top num_experts_per_token by
  // sigmoid score plus e_score_correction_bias, and one shared MLP of num_shared_experts x moe_intermediate_size.
  FfnSpec dense;
  dense.intermediate = r.has("dense_ffn_hidden") ? r.positive_int("dense_ffn_hidden") : r.positive_int("intermediate_size");
  r.raw("intermediate_size");
  FfnSpec moe;
  moe.moe = true;
  moe.n_experts = either_int(r, {"num_experts", "n_routed_experts", "num_local_experts"}, 256, true);
  const char* top_k_key = nullptr;
  moe.top_k = either_int(r, {"num_experts_per_token", "num_experts_per_tok"}, 8, true, &top_k_key);
  moe.expert_intermediate = r.positive_int("moe_intermediate_size");
  moe.n_shared = either_int(r, {"num_shared_experts", "n_shared_experts"}, 1, false);
  moe.shared_intermediate = moe.expert_intermediate;
  moe.score_correction_bias = true;  // KimiMoEGate's e_score_correction_bias (E values)
  config_check_top_k(r, moe, top_k_key);
  // Which layers route: mlp_layer_types (transformers: dense / sparse), else layer i >= first_k_dense_replace with
  // i % moe_layer_freq == 0 (vLLM's KimiDecoderLayer).
  std::vector<bool> routed(static_cast<std::size_t>(L));
  const i64 first_dense = r.nonneg_int_or("first_k_dense_replace", 1);
  const i64 freq = r.positive_int_or("moe_layer_freq", 1);
  for (i64 i = 0; i < L; ++i) routed[static_cast<std::size_t>(i)] = i >= first_dense && i % freq == 0;
  if (const auto listed = config_mlp_layer_types(r, L); !listed.empty()) routed = listed;

  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    const auto k = static_cast<std::size_t>(i);
    if (kinds[k] == 1) {
      layer.recurrent = g;
      layer.has_attention = false;
    } else {
      layer.attn = a;
    }
    layer.ffn = routed[k] ? moe : dense;
    m.layers.push_back(layer);
  }
}

}  // namespace infercast
