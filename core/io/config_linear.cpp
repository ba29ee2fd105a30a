// Gated DeltaNet hybrids (Qwen3-Next, Qwen3.5 dense and MoE) and lightning-attention hybrids (MiniMax-01, M1):
// transformers' defaults per family (configuration_qwen3_next.py, configuration_qwen3_5.py,
// configuration_qwen3_5_moe.py, configuration_minimax.py; MiniMax's own configuration_minimax_m1.py).
#include <algorithm>
#include <cmath>
#include <string>

#include "io/config_hybrid.hpp"

namespace infercast {

i64 read_hybrid_frame(Reader& r, ModelSpec& m, const HybridFrame& d) {
  m.hidden = r.positive_int_or("hidden_size", d.hidden);
  const i64 L = r.has("num_hidden_layers") ? config_layer_count(r, "num_hidden_layers") : d.layers;
  m.vocab = r.positive_int_or("vocab_size", d.vocab);
  m.max_position = r.nonneg_int_or("max_position_embeddings", d.window);
  m.tied_embeddings = r.boolean_or("tie_word_embeddings", d.tied);
  return L;
}

namespace {

// transformers' class defaults of the fields that differ between the three gated DeltaNet families.
struct DeltaNetDefaults {
  i64 vocab, hidden, intermediate, layers, heads, kv_heads;
  i64 experts, top_k;  // 0: a dense family (Qwen3.5)
};
DeltaNetDefaults deltanet_defaults(const std::string& type) {
  if (type == "qwen3_5_text") return {248320, 4096, 12288, 32, 16, 4, 0, 0};
  if (type == "qwen3_5_moe_text") return {248320, 2048, 0, 40, 16, 2, 256, 8};
  if (type == "olmo_hybrid") return {100352, 3840, 11008, 32, 30, 30, 0, 0};
  return {151936, 2048, 5632, 48, 16, 2, 512, 10};  // qwen3_next
}

// RoPE's share of the head: partial_rotary_factor at the top level (Qwen3-Next) or in rope_parameters (Qwen3.5).
double rotary_factor(Reader& r, double fallback) {
  if (r.has("rope_parameters")) {
    Reader rp = r.object("rope_parameters");
    if (rp.has("partial_rotary_factor")) return rp.number_in_or("partial_rotary_factor", 0, 1, fallback);
  }
  return r.number_in_or("partial_rotary_factor", 0, 1, fallback);
}

// One layer kind per layer: layer_types when given (values `linear` / `full`), else the family's pattern.
std::vector<bool> linear_layers(Reader& r, i64 L, const std::vector<bool>& fallback, const char* linear, const char* full) {
  auto types = r.string_array_or("layer_types");
  if (types.empty()) return fallback;
  config_check_per_layer(r, "layer_types", types.size(), L, PerLayer::Exactly);
  std::vector<bool> out;
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (types[i] == linear) out.push_back(true);
    else if (types[i] == full) out.push_back(false);
    else
      throw InputError("model.unsupported", r.child_path("layer_types") + "/" + std::to_string(i),
                       r.child_path("layer_types") + "/" + std::to_string(i) + " holds \"" + types[i] + "\"; expected " +
                           linear + " or " + full);
  }
  return out;
}

// One layer of a hybrid: the recurrent mixer `g` where `recurrent`, else the attention `a`; then its MLP.
LayerSpec hybrid_layer(bool recurrent, const RecurrentSpec& g, const AttentionSpec& a, const FfnSpec& ffn) {
  LayerSpec layer;
  if (recurrent) {
    layer.recurrent = g;
    layer.has_attention = false;
  } else {
    layer.attn = a;
  }
  layer.ffn = ffn;
  return layer;
}

}  // namespace

void parse_gated_deltanet_hybrid(Reader& r, ModelSpec& m, const FamilyTraits& t) {
  const DeltaNetDefaults d = deltanet_defaults(t.model_type);
  const i64 L = read_hybrid_frame(r, m, {d.hidden, d.layers, d.vocab, t.model_type == std::string("olmo_hybrid") ? 65536 : 0, false});
  m.activation = r.string_or("hidden_act", "silu");
  m.mtp_layers = r.nonneg_int_or("mtp_num_hidden_layers", 0);  // Qwen3.5's MTP module: reported, not counted
  config_ignore(r, {"mtp_use_dedicated_embeddings", "full_attention_interval", "mamba_ssm_dtype", "router_aux_loss_coef",
                    "output_router_logits", "norm_topk_prob", "rope_parameters"});

  // OLMo Hybrid (modular_olmo_hybrid.py): OLMo 3's attention (q/k norms over the whole projection, heads of
  // hidden / heads, RoPE only when rope_parameters or rope_theta is given: NoPE otherwise) and post-norms; its
  // linear layers are Qwen3-Next's gated DeltaNet under the same keys with its own defaults (every head count the
  // attention's, keys 0.75 h / heads wide, values twice that).
  const bool olmo = std::string(t.model_type) == "olmo_hybrid";
  AttentionSpec a;
  a.n_heads = r.positive_int_or("num_attention_heads", d.heads);
  a.n_kv_heads = r.positive_int_or("num_key_value_heads", olmo ? a.n_heads : d.kv_heads);
  config_check_divides(r, a.n_heads, a.n_kv_heads, "num_attention_heads", "num_key_value_heads");
  if (olmo) {
    a.head_dim = config_head_dim(r, m.hidden, a.n_heads, "num_attention_heads");
    const json* rp = r.raw("rope_parameters");
    const json* theta = r.raw("rope_theta");
    a.rope_dim = (rp && rp->is_object()) || (theta && theta->is_number()) ? a.head_dim : 0;
    a.qk_norm_full = true;
    config_ignore(r, {"linear_a_log_min", "linear_a_log_max", "linear_dt_min", "linear_dt_max", "linear_dt_init_floor",
                      "linear_allow_neg_eigval"});
  } else {
    // Gated attention (Qwen3NextAttention): q_proj also yields a sigmoid gate, per-head q/k RMSNorms, partial RoPE.
    a.head_dim = r.positive_int_or("head_dim", 256);
    a.rope_dim = config_share(a.head_dim, rotary_factor(r, 0.25));
    a.output_gate = r.boolean_or("attn_output_gate", true);
  }
  a.v_head_dim = a.head_dim;
  a.qk_norm = true;
  a.qkv_bias = a.o_bias = r.boolean_or("attention_bias", false);

  RecurrentSpec g;
  g.kind = RecurrentKind::GatedDeltaNet;
  g.heads = r.positive_int_or("linear_num_value_heads", olmo ? a.n_heads : 32);
  g.groups = r.positive_int_or("linear_num_key_heads", olmo ? a.n_heads : 16);
  // OlmoHybridConfig: int(0.75 * hidden / key heads), values twice as wide (bounded so that the defaults cannot
  // overflow; a real size past 2^40 is refused by the count).
  const i64 olmo_key = std::clamp<i64>(static_cast<i64>(0.75 * static_cast<double>(std::min<i64>(m.hidden, i64(1) << 40)) /
                                                        static_cast<double>(g.groups)),
                                       1, i64(1) << 40);
  g.state_dim = r.positive_int_or("linear_key_head_dim", olmo ? olmo_key : 128);
  g.head_dim = r.positive_int_or("linear_value_head_dim", olmo ? 2 * std::min<i64>(g.state_dim, i64(1) << 40) : 128);
  g.conv_kernel = r.positive_int_or("linear_conv_kernel_dim", 4);
  g.chunk = 64;  // fla's chunk_gated_delta_rule
  g.state_bits = config_state_bits(r, "mamba_ssm_dtype", 0);
  config_check_divides(r, g.heads, g.groups, "linear_num_value_heads", "linear_num_key_heads");

  std::vector<bool> fallback(static_cast<std::size_t>(L));
  const i64 interval = r.positive_int_or("full_attention_interval", 4);
  for (i64 i = 0; i < L; ++i) fallback[static_cast<std::size_t>(i)] = (i + 1) % interval != 0;
  // OlmoHybridConfig makes the last layer full when the pattern gives none (fewer than four layers).
  if (olmo && std::find(fallback.begin(), fallback.end(), false) == fallback.end()) fallback.back() = false;
  const std::vector<bool> linear = linear_layers(r, L, fallback, "linear_attention", "full_attention");

  FfnSpec dense;
  dense.intermediate = d.intermediate > 0 ? r.positive_int_or("intermediate_size", d.intermediate) : 0;
  FfnSpec moe;
  std::vector<bool> is_moe(static_cast<std::size_t>(L), false);
  if (d.experts > 0) {
    moe.moe = true;
    moe.n_experts = r.positive_int_or("num_experts", d.experts);
    moe.top_k = r.positive_int_or("num_experts_per_tok", d.top_k);
    moe.expert_intermediate = r.positive_int_or("moe_intermediate_size", 512);
    moe.n_shared = 1;
    moe.shared_intermediate = r.positive_int_or("shared_expert_intermediate_size", 512);
    moe.shared_gate = true;  // Qwen2MoeSparseMoeBlock's shared_expert_gate
    config_check_top_k(r, moe, "num_experts_per_tok");
    const i64 step = r.positive_int_or("decoder_sparse_step", 1);
    const auto dense_only = config_listed_layers(r, "mlp_only_layers", L);
    for (i64 i = 0; i < L; ++i)
      is_moe[static_cast<std::size_t>(i)] = !dense_only[static_cast<std::size_t>(i)] && (i + 1) % step == 0;
    if (dense.intermediate == 0 && std::find(is_moe.begin(), is_moe.end(), false) != is_moe.end())
      dense.intermediate = r.positive_int("intermediate_size");  // dense layers need their width
  }
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i)
    m.layers.push_back(hybrid_layer(linear[static_cast<std::size_t>(i)], g, a, is_moe[static_cast<std::size_t>(i)] ? moe : dense));
}

void parse_minimax(Reader& r, ModelSpec& m, const FamilyTraits& /*t*/) {
  const i64 h = r.positive_int("hidden_size");
  const i64 L = config_layer_count(r, "num_hidden_layers");
  m.hidden = h;
  m.vocab = r.positive_int("vocab_size");
  m.max_position = r.nonneg_int_or("max_position_embeddings", 0);
  m.tied_embeddings = r.boolean_or("tie_word_embeddings", false);
  m.activation = r.string_or("hidden_act", "silu");
  // Residual scalings (DeepNorm's alpha and beta, post-norm placement) and router numerics change no count.
  config_ignore(r, {"layernorm_full_attention_alpha", "layernorm_full_attention_beta", "layernorm_linear_attention_alpha",
                    "layernorm_linear_attention_beta", "layernorm_mlp_alpha", "layernorm_mlp_beta", "postnorm",
                    "full_attn_alpha_factor", "full_attn_beta_factor", "linear_attn_alpha_factor", "linear_attn_beta_factor",
                    "mlp_alpha_factor", "mlp_beta_factor", "router_jitter_noise", "sliding_window", "rope_parameters"});

  AttentionSpec a;
  a.n_heads = r.positive_int("num_attention_heads");
  a.n_kv_heads = r.positive_int_or("num_key_value_heads", 8);
  config_check_divides(r, a.n_heads, a.n_kv_heads, "num_attention_heads", "num_key_value_heads");
  a.head_dim = config_head_dim(r, h, a.n_heads, "num_attention_heads");
  a.v_head_dim = a.head_dim;
  a.rope_dim = r.has("rotary_dim") ? std::min(r.positive_int("rotary_dim"), a.head_dim)
                                   : config_share(a.head_dim, rotary_factor(r, 1.0));

  RecurrentSpec g;
  g.kind = RecurrentKind::Lightning;
  g.heads = a.n_heads;
  g.head_dim = a.head_dim;
  g.state_dim = a.head_dim;
  g.chunk = r.has("block_size") ? r.positive_int("block_size") : 256;  // MiniMax's lightning kernel block

  // attn_type_list (MiniMax's own configs: 0 lightning, 1 softmax) or layer_types (transformers' conversion);
  // transformers' default alternates, full attention first.
  std::vector<bool> linear(static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) linear[static_cast<std::size_t>(i)] = (i + 1) % 2 == 0;
  if (r.has("attn_type_list")) {
    const auto list = r.int_array_or("attn_type_list");
    config_check_per_layer(r, "attn_type_list", list.size(), L, PerLayer::Exactly);
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i] != 0 && list[i] != 1)
        throw InputError("model.unsupported", r.child_path("attn_type_list") + "/" + std::to_string(i),
                         r.child_path("attn_type_list") + "/" + std::to_string(i) + " holds " + std::to_string(list[i]) +
                             "; expected 0 (lightning attention) or 1 (softmax attention)");
      linear[i] = list[i] == 0;
    }
  }
  linear = linear_layers(r, L, linear, "linear_attention", "full_attention");

  FfnSpec moe;
  moe.moe = true;
  moe.n_experts = r.has("num_local_experts") ? r.positive_int("num_local_experts") : r.positive_int_or("num_experts", 8);
  r.raw("num_experts");
  moe.top_k = r.positive_int_or("num_experts_per_tok", 2);
  moe.expert_intermediate = r.positive_int("intermediate_size");
  const i64 shared = r.nonneg_int_or("shared_intermediate_size", 0);
  const std::string shared_mode = r.string_or("shared_moe_mode", "softmax");
  if (shared > 0) {  // MiniMax's shared MLP with a sigmoid coefficient (shared_moe_mode "sigmoid")
    moe.n_shared = 1;
    moe.shared_intermediate = shared;
    moe.shared_gate = shared_mode == "sigmoid";
  }
  config_check_top_k(r, moe, "num_experts_per_tok");
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) m.layers.push_back(hybrid_layer(linear[static_cast<std::size_t>(i)], g, a, moe));
}

// Ring-linear 2.0 (bailing_moe_linear; inclusionAI's remote BailingMoeLinearV2ForCausalLM, not in any corpus read
// here): Ling 2.0's layers (bailing_moe) with lightning attention on all but every layer_group_size-th layer. The
// shapes are SGLang's port (models/bailing_moe_linear.py) and mlx-lm's (models/bailing_moe_linear.py): a linear layer
// has query_key_value of 3 x heads x d (its KV heads are its heads, d = hidden / heads), g_proj, a g_norm over the
// heads (in group_norm_size groups, one weight), q/k norms and dense; its decay is ALiBi-like slopes per head, no
// weights. Defaults are SGLang's BailingMoeLinearConfig (configs/bailing_moe_linear.py).
void parse_bailing_linear(Reader& r, ModelSpec& m) {
  const i64 L = config_decoder_basics(r, m, {2048, 20, 157184, 32768, 0, false});
  const i64 h = m.hidden;
  // Routing numerics, dropouts, the router's fp32 storage, the g_norm's grouping, RoPE's base: no count changes.
  config_ignore(r, {"routed_scaling_factor", "router_dtype", "score_function", "n_group", "topk_group", "norm_topk_prob",
                    "embedding_dropout", "output_dropout", "group_norm_size", "rope_theta", "rope_scaling", "norm_head"});
  if (!r.boolean_or("use_rmsnorm", true)) not_modelled(r, "use_rmsnorm", "LayerNorm in place of RMSNorm in Ring-linear");
  AttentionSpec a;
  a.n_heads = r.positive_int_or("num_attention_heads", 16);
  a.n_kv_heads = r.positive_int_or("num_key_value_heads", 4);
  config_check_divides(r, a.n_heads, a.n_kv_heads, "num_attention_heads", "num_key_value_heads");
  a.head_dim = a.v_head_dim = config_head_dim(r, h, a.n_heads, "num_attention_heads");
  a.rope_dim = config_share(a.head_dim, r.number_in_or("partial_rotary_factor", 0, 1, 1.0));
  a.fused_qkv = true;
  a.qk_norm = r.boolean_or("use_qk_norm", true);
  a.qkv_bias = r.boolean_or("use_qkv_bias", false);
  a.o_bias = r.boolean_or("use_bias", false);
  if (h % a.n_heads != 0)
    r.fail("hidden_size", "invalid", r.child_path("hidden_size") + " holds " + std::to_string(h) + ", which the " +
                                         std::to_string(a.n_heads) + " heads do not divide; expected a multiple (the "
                                         "linear layers' head width is hidden_size / num_attention_heads)");
  RecurrentSpec g;
  g.kind = RecurrentKind::Lightning;
  g.heads = a.n_heads;
  g.head_dim = g.state_dim = h / a.n_heads;
  g.chunk = 256;  // the lightning kernel's block, as MiniMax's
  g.qk_norm = a.qk_norm;
  g.qkv_act = r.boolean_or("linear_silu", false);  // SiLU on q, k and v before the linear attention
  // vLLM's BailingMoELinearAttention: query_key_value biased by use_qkv_bias or use_bias, dense by use_bias.
  g.in_bias = a.qkv_bias || a.o_bias;
  g.out_bias = a.o_bias;
  // Softmax layers: every layer_group_size-th, and the layers past the last whole group (the remote code's rule;
  // SGLang's asserts there are none).
  const i64 group = r.positive_int_or("layer_group_size", 1);
  std::vector<bool> linear(static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) linear[static_cast<std::size_t>(i)] = (i + 1) % group != 0 && i < L / group * group;
  if (L % group != 0)
    m.warnings.push_back(Warning{"model.layer_pattern", r.child_path("layer_group_size"),
                                 r.child_path("layer_group_size") + " holds " + std::to_string(group) + ", which does not divide the " +
                                     std::to_string(L) + " layers: the " + std::to_string(L % group) +
                                     " layers past the last whole group are read as softmax attention (the remote code's rule; "
                                     "vLLM makes them linear and SGLang refuses the config)"});
  FfnSpec dense;
  dense.intermediate = r.positive_int_or("intermediate_size", 5120);
  FfnSpec moe;
  moe.moe = true;
  moe.n_experts = r.positive_int_or("num_experts", 256);
  moe.top_k = r.positive_int_or("num_experts_per_tok", 8);
  moe.expert_intermediate = r.positive_int_or("moe_intermediate_size", 512);
  moe.n_shared = r.boolean_or("moe_router_enable_shared_expert", true) ? r.nonneg_int_or("num_shared_experts", 1) : 0;
  r.raw("num_shared_experts");
  moe.shared_intermediate = r.positive_int_or("moe_shared_expert_intermediate_size", moe.expert_intermediate);
  moe.score_correction_bias = r.boolean_or("moe_router_enable_expert_bias", true);
  config_check_top_k(r, moe, "num_experts_per_tok");
  const i64 first_dense = r.nonneg_int_or("first_k_dense_replace", 1);
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) m.layers.push_back(hybrid_layer(linear[static_cast<std::size_t>(i)], g, a, i < first_dense ? dense : moe));
}

// LFM2 (Liquid AI; transformers' configuration_lfm2.py and modeling_lfm2.py): gated short-convolution layers and
// GQA attention layers with per-head q/k RMSNorms (layer_types `conv` / `full_attention`, or full_attn_idxs), a
// SwiGLU MLP on every layer whose width block_auto_adjust_ff_dim shrinks to 2/3 (times block_ffn_dim_multiplier,
// rounded up to block_multiple_of), embeddings tied by default (tie_embedding, the older key).
// LFM2-MoE (lfm2_moe; configuration_lfm2_moe.py, modeling_lfm2_moe.py): the same layers with a SwiGLU MLP of
// intermediate_size as given on the first num_dense_layers layers and, on the others, num_experts experts of
// moe_intermediate_size (top num_experts_per_tok) behind a router of h x E and its expert_bias (use_expert_bias).
void parse_lfm2(Reader& r, ModelSpec& m, const FamilyTraits& t) {
  const bool experts = t.moe != MoeRule::None;
  const i64 L = read_hybrid_frame(r, m, {2560, 32, 65536, 128000, r.boolean_or("tie_embedding", true)});
  const i64 h = m.hidden;
  r.raw("tie_embedding");
  m.activation = "silu";
  // Initialisation, numerics and the older spellings of sizes read here (block_dim, conv_dim: the hidden width).
  config_ignore(r, {"block_dim", "conv_dim", "conv_dim_out", "block_use_swiglu", "block_mlp_init_scale", "block_out_init_scale",
                    "block_use_xavier_init", "conv_use_xavier_init", "block_norm_eps", "norm_eps", "num_heads", "use_pos_enc",
                    "theta", "rope_theta", "rope_parameters"});

  AttentionSpec a;
  a.n_heads = r.positive_int_or("num_attention_heads", 32);
  a.n_kv_heads = r.positive_int_or("num_key_value_heads", 8);
  config_check_divides(r, a.n_heads, a.n_kv_heads, "num_attention_heads", "num_key_value_heads");
  a.head_dim = config_head_dim(r, h, a.n_heads, "num_attention_heads");
  a.v_head_dim = a.head_dim;
  a.rope_dim = a.head_dim;
  a.qk_norm = true;

  RecurrentSpec g;
  g.kind = RecurrentKind::ShortConv;
  g.heads = h;  // the convolution runs over every hidden channel
  g.head_dim = 1;
  g.conv_kernel = r.positive_int_or("conv_L_cache", 3);
  g.in_bias = g.out_bias = g.conv_bias = r.boolean_or("conv_bias", false);
  g.norm = false;

  // Which layers attend: layer_types, else full_attn_idxs (every layer when neither is given).
  std::vector<bool> conv(static_cast<std::size_t>(L), false);
  if (r.has("full_attn_idxs") && !r.has("layer_types")) {
    std::fill(conv.begin(), conv.end(), true);
    for (i64 i : r.int_array_or("full_attn_idxs")) {
      if (i < 0 || i >= L)
        throw InputError("model.invalid", r.child_path("full_attn_idxs"),
                         r.child_path("full_attn_idxs") + " holds " + std::to_string(i) + "; expected layer indices from 0 to " +
                             std::to_string(L - 1));
      conv[static_cast<std::size_t>(i)] = false;
    }
  } else {
    r.raw("full_attn_idxs");
    conv = linear_layers(r, L, conv, "conv", "full_attention");
  }

  FfnSpec f;
  i64 ff = r.has("intermediate_size") ? r.positive_int("intermediate_size") : r.positive_int_or("block_ff_dim", 12288);
  r.raw("block_ff_dim");
  if (!experts && r.boolean_or("block_auto_adjust_ff_dim", true)) {
    // Lfm2MLP: int(2 ff / 3), times block_ffn_dim_multiplier, rounded up to block_multiple_of. Computed in
    // doubles and bounded, so a huge width is refused as such rather than wrapping.
    const double mult = r.number_in_or("block_ffn_dim_multiplier", 0, 100, 1.0);
    const i64 multiple = r.positive_int_or("block_multiple_of", 256);
    const double scaled = std::floor(mult * std::floor(2.0 * static_cast<double>(ff) / 3));
    const double rounded = static_cast<double>(multiple) * std::ceil(scaled / static_cast<double>(multiple));
    if (!(rounded < 1e15)) {
      const char* key = static_cast<double>(multiple) > scaled ? "block_multiple_of"
                                                                : (r.has("intermediate_size") ? "intermediate_size" : "block_ff_dim");
      r.fail(key, "out_of_range",
             r.child_path(key) + " makes the MLP " + number_text(json(rounded)) +
                 " wide (2/3 of the width, times block_ffn_dim_multiplier, rounded up to block_multiple_of); expected at most 1e15");
    }
    ff = static_cast<i64>(rounded);
  } else {
    r.raw("block_ffn_dim_multiplier");
    r.raw("block_multiple_of");
  }
  if (ff <= 0)
    throw InputError("model.invalid", r.child_path("block_ffn_dim_multiplier"),
                     r.child_path("block_ffn_dim_multiplier") + " leaves an MLP of no width; expected a positive multiplier");
  f.intermediate = ff;
  FfnSpec moe = f;
  i64 dense_layers = L;
  if (experts) {
    config_ignore(r, {"routed_scaling_factor", "norm_topk_prob"});
    moe.moe = true;
    moe.n_experts = r.positive_int("num_experts");
    moe.top_k = r.positive_int("num_experts_per_tok");
    moe.expert_intermediate = r.positive_int("moe_intermediate_size");
    moe.score_correction_bias = r.boolean_or("use_expert_bias", true);
    config_check_top_k(r, moe, "num_experts_per_tok");
    dense_layers = r.nonneg_int_or("num_dense_layers", 2);
  }
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) m.layers.push_back(hybrid_layer(conv[static_cast<std::size_t>(i)], g, a, i < dense_layers ? f : moe));
}

}  // namespace infercast
