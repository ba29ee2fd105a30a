// Mamba and Mamba2 models: pure ones (Mamba, Falcon Mamba, Mamba2 / Codestral Mamba: one mixer a layer, no
// attention, no MLP) and hybrids: Bamba (Mamba2 layers and Llama attention on attn_layer_indices, a SwiGLU MLP in
// every layer), Nemotron-H (single-block layers: Mamba2, attention, MLP or MoE), Jamba (Mamba layers
// with attention every attn_layer_period, MoE every expert_layer_period), Falcon-H1 (attention and Mamba2 side by
// side in every layer) and Granite 4.0 hybrids (Mamba2 or attention, then MoE with a shared MLP). Defaults are
// transformers' (configuration_nemotron_h.py, configuration_jamba.py, configuration_falcon_h1.py,
// configuration_granitemoehybrid.py, configuration_mamba.py, configuration_falcon_mamba.py, configuration_mamba2.py,
// configuration_bamba.py).
#include <cmath>
#include <string>

#include "io/config_hybrid.hpp"
#include "model/count.hpp"

namespace infercast {

namespace {

// A key or its older spelling (Nemotron-H's configs use both: n_groups / mamba_n_groups, conv_kernel / mamba_d_conv).
const char* either(Reader& r, const char* key, const char* old_key) { return r.has(key) || !r.has(old_key) ? key : old_key; }

// Mamba2's mixer under the mamba_* keys Granite 4.0 hybrids and Bamba share (their config classes' defaults):
// mamba_expand x hidden_size wide in mamba_n_heads heads (mamba_d_head "auto": the width over the heads), B and C in
// mamba_n_groups groups.
RecurrentSpec read_mamba2_keys(Reader& r, i64 h) {
  RecurrentSpec g;
  g.kind = RecurrentKind::Mamba2;
  const i64 inner = (Count(r.positive_int_or("mamba_expand", 2)) * h).v;
  g.heads = r.positive_int_or("mamba_n_heads", 128);
  const json* dh = r.raw("mamba_d_head");
  g.head_dim = (!dh || (dh->is_string() && dh->get<std::string>() == "auto")) ? inner / g.heads : r.positive_int("mamba_d_head");
  if ((Count(g.heads) * g.head_dim).v != inner)
    throw InputError("model.invalid", r.child_path("mamba_n_heads"),
                     r.child_path("mamba_n_heads") + " (" + std::to_string(g.heads) + ") x mamba_d_head (" +
                         std::to_string(g.head_dim) + ") is not mamba_expand x hidden_size (" + std::to_string(inner) + ")");
  g.groups = r.positive_int_or("mamba_n_groups", 1);
  config_check_divides(r, g.heads, g.groups, "mamba_n_heads", "mamba_n_groups");
  g.state_dim = r.positive_int_or("mamba_d_state", 256);
  g.conv_kernel = r.positive_int_or("mamba_d_conv", 4);
  g.chunk = r.positive_int_or("mamba_chunk_size", 256);
  g.conv_bias = r.boolean_or("mamba_conv_bias", true);
  g.in_bias = g.out_bias = r.boolean_or("mamba_proj_bias", false);
  return g;
}

}  // namespace

void parse_nemotron_h(Reader& r, ModelSpec& m, const FamilyTraits& /*t*/) {
  const i64 h = r.positive_int_or("hidden_size", 4096);
  m.hidden = h;
  m.vocab = r.positive_int_or("vocab_size", 131072);
  m.max_position = r.nonneg_int_or("max_position_embeddings", 4096);
  m.tied_embeddings = r.boolean_or("tie_word_embeddings", false);
  m.activation = r.string_or("mlp_hidden_act", "relu2");
  m.mtp_layers = r.nonneg_int_or("num_nextn_predict_layers", 0);
  config_ignore(r, {"time_step_min", "time_step_max", "time_step_limit", "time_step_floor", "time_step_rank",
                    "mamba_hidden_act", "use_mamba_kernels", "residual_in_fp32", "rescale_prenorm_residual",
                    "num_logits_to_keep", "hidden_dropout", "layer_norm_epsilon", "norm_eps", "n_group", "topk_group",
                    "norm_topk_prob", "routed_scaling_factor", "partial_rotary_factor", "moe_shared_expert_overlap",
                    "mtp_hybrid_override_pattern", "mtp_layers_block_type", "expand", "mamba_expand", "mamba_proj_bias",
                    "mamba_dt_min", "mamba_dt_max", "mamba_dt_limit", "mamba_dt_init_floor", "hidden_act", "n_shared_experts"});
  if (r.has("sliding_window")) not_modelled(r, "sliding_window", "a sliding window in Nemotron-H's attention layers");
  r.raw("sliding_window");

  // The layer pattern: hybrid_override_pattern (M Mamba2, * attention, - MLP, E MoE) or layers_block_type.
  std::vector<char> kinds;
  if (r.has("hybrid_override_pattern")) {
    const std::string p = r.string("hybrid_override_pattern");
    if (p.empty())
      r.fail("hybrid_override_pattern", "invalid", r.child_path("hybrid_override_pattern") + " is empty; expected one character per layer");
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (p[i] != 'M' && p[i] != '*' && p[i] != '-' && p[i] != 'E')
        throw InputError("model.unsupported", r.child_path("hybrid_override_pattern"),
                         r.child_path("hybrid_override_pattern") + " holds '" + std::string(1, p[i]) + "' at " +
                             std::to_string(i) + "; expected M (Mamba2), * (attention), - (MLP) or E (MoE)");
      kinds.push_back(p[i]);
    }
  } else {
    const char* key = r.has("layers_block_type") ? "layers_block_type" : "layer_types";
    const auto types = r.string_array_or(key);
    for (std::size_t i = 0; i < types.size(); ++i) {
      const auto& s = types[i];
      if (s == "mamba" || s == "linear_attention") kinds.push_back('M');
      else if (s == "attention" || s == "full_attention") kinds.push_back('*');
      else if (s == "mlp") kinds.push_back('-');
      else if (s == "moe") kinds.push_back('E');
      else
        throw InputError("model.unsupported", r.child_path(key) + "/" + std::to_string(i),
                         r.child_path(key) + "/" + std::to_string(i) + " holds \"" + s +
                             "\"; expected mamba, attention, mlp or moe");
    }
    if (kinds.empty()) kinds = {'M', 'E', '*', '-'};  // transformers' default
  }
  if (kinds.size() > 100000)
    r.fail("hybrid_override_pattern", "out_of_range", r.child_path("hybrid_override_pattern") + " describes more than 100000 layers");
  if (r.has("num_hidden_layers")) {
    const i64 L = r.positive_int("num_hidden_layers");
    if (L != static_cast<i64>(kinds.size()))
      m.warnings.push_back(Warning{"model.assumed", r.child_path("num_hidden_layers"),
                                   r.child_path("num_hidden_layers") + " holds " + std::to_string(L) + " but the layer pattern has " +
                                       std::to_string(kinds.size()) + " layers; the pattern is used, as transformers does"});
  }

  // Attention (JambaAttention): no positional embedding, q/k/v/o with attention_bias.
  AttentionSpec a;
  a.n_heads = r.positive_int_or("num_attention_heads", 32);
  a.n_kv_heads = r.positive_int_or("num_key_value_heads", 8);
  config_check_divides(r, a.n_heads, a.n_kv_heads, "num_attention_heads", "num_key_value_heads");
  a.head_dim = r.has("head_dim") ? r.positive_int("head_dim") : r.positive_int_or("attention_head_dim", 128);
  r.raw("head_dim");
  r.raw("attention_head_dim");
  a.v_head_dim = a.head_dim;
  a.rope_dim = 0;
  r.raw("rope_theta");
  a.qkv_bias = a.o_bias = r.boolean_or("attention_bias", false);

  RecurrentSpec g;
  g.kind = RecurrentKind::Mamba2;
  g.heads = r.positive_int_or("mamba_num_heads", 128);
  g.head_dim = r.positive_int_or("mamba_head_dim", 64);
  g.state_dim = r.positive_int_or("ssm_state_size", 128);
  g.groups = r.positive_int_or(either(r, "n_groups", "mamba_n_groups"), 8);
  g.conv_kernel = r.positive_int_or(either(r, "conv_kernel", "mamba_d_conv"), 4);
  g.chunk = r.positive_int_or(either(r, "chunk_size", "mamba_chunk_size"), 128);
  g.conv_bias = r.boolean_or(either(r, "use_conv_bias", "mamba_conv_bias"), true);
  config_ignore(r, {"n_groups", "mamba_n_groups", "conv_kernel", "mamba_d_conv", "chunk_size", "mamba_chunk_size",
                    "use_conv_bias", "mamba_conv_bias"});
  g.in_bias = g.out_bias = r.boolean_or("use_bias", false);
  g.state_bits = config_state_bits(r, "mamba_ssm_cache_dtype", 32);  // transformers' default: float32
  config_check_divides(r, g.heads, g.groups, "mamba_num_heads", "n_groups");

  FfnSpec mlp;
  mlp.gated = false;
  mlp.bias = r.boolean_or("mlp_bias", false);
  FfnSpec moe = mlp;
  moe.moe = true;
  bool any_mlp = false, any_moe = false;
  for (char k : kinds) any_mlp |= k == '-', any_moe |= k == 'E';
  mlp.intermediate = any_mlp ? r.positive_int_or("intermediate_size", 21504) : 0;
  if (!any_mlp) r.raw("intermediate_size");
  if (any_moe) {
    moe.n_experts = r.positive_int_or("n_routed_experts", 8);
    moe.top_k = r.positive_int_or("num_experts_per_tok", 2);
    moe.expert_intermediate = r.positive_int_or("moe_intermediate_size", 7688);
    moe.n_shared = 1;  // NemotronHMoE: one shared MLP of moe_shared_expert_intermediate_size
    moe.shared_intermediate = r.positive_int_or("moe_shared_expert_intermediate_size", 7688);
    moe.score_correction_bias = true;  // DeepseekV3TopkRouter's e_score_correction_bias
    // Nemotron 3 Super and Ultra: a latent MoE. fc1_latent_proj and fc2_latent_proj (with mlp_bias) wrap the routed
    // experts, which work at moe_latent_size; the router and the shared MLP read h (vLLM's NemotronHMoE).
    moe.latent = r.has("moe_latent_size") ? r.positive_int("moe_latent_size") : 0;
    r.raw("moe_latent_size");
    config_check_top_k(r, moe, "num_experts_per_tok");
  } else {
    config_ignore(r, {"n_routed_experts", "num_experts_per_tok", "moe_intermediate_size", "moe_shared_expert_intermediate_size",
                      "moe_latent_size"});
  }
  for (char k : kinds) {
    LayerSpec layer;
    layer.norms = 1;  // one pre-norm per block
    layer.has_attention = k == '*';
    layer.has_ffn = k == '-' || k == 'E';
    if (k == '*') layer.attn = a;
    if (k == 'M') layer.recurrent = g;
    if (k == '-') layer.ffn = mlp;
    if (k == 'E') layer.ffn = moe;
    m.layers.push_back(layer);
  }
}

void parse_jamba(Reader& r, ModelSpec& m, const FamilyTraits& /*t*/) {
  const i64 L = read_hybrid_frame(r, m, {4096, 32, 65536, 262144, false});
  const i64 h = m.hidden;
  m.activation = r.string_or("hidden_act", "silu");
  config_ignore(r, {"use_mamba_kernels", "num_logits_to_keep", "router_aux_loss_coef", "output_router_logits",
                    "calc_logits_for_entire_prompt", "n_ctx", "mamba_inner_layernorms"});
  if (r.has("sliding_window")) not_modelled(r, "sliding_window", "a sliding window in Jamba's attention layers");
  r.raw("sliding_window");

  AttentionSpec a;  // JambaAttention: no positional embedding, no biases
  a.n_heads = r.positive_int_or("num_attention_heads", 32);
  a.n_kv_heads = r.positive_int_or("num_key_value_heads", 8);
  config_check_divides(r, a.n_heads, a.n_kv_heads, "num_attention_heads", "num_key_value_heads");
  if (h % a.n_heads != 0)
    throw InputError("model.invalid", r.child_path("hidden_size"),
                     r.child_path("hidden_size") + " holds " + std::to_string(h) + ", which is not a multiple of " +
                         r.child_path("num_attention_heads") + " (" + std::to_string(a.n_heads) + ")");
  a.head_dim = a.v_head_dim = h / a.n_heads;  // JambaAttention: hidden_size / num_attention_heads
  a.rope_dim = 0;

  RecurrentSpec g;
  g.kind = RecurrentKind::Mamba;
  g.heads = (Count(r.positive_int_or("mamba_expand", 2)) * h).v;  // d_inner channels
  g.head_dim = 1;
  g.groups = 1;
  g.state_dim = r.positive_int_or("mamba_d_state", 16);
  g.conv_kernel = r.positive_int_or("mamba_d_conv", 4);
  const json* dt = r.raw("mamba_dt_rank");
  if (!dt || (dt->is_string() && dt->get<std::string>() == "auto")) g.dt_rank = (Count(h) + 15).v / 16;  // ceil(h / 16)
  else g.dt_rank = r.positive_int("mamba_dt_rank");
  g.conv_bias = r.boolean_or("mamba_conv_bias", true);
  g.in_bias = g.out_bias = r.boolean_or("mamba_proj_bias", false);
  g.dt_norms = true;  // JambaMambaMixer's dt, B and C RMSNorms
  g.chunk = 1;

  const i64 attn_period = r.positive_int_or("attn_layer_period", 8), attn_offset = r.nonneg_int_or("attn_layer_offset", 4);
  const i64 exp_period = r.positive_int_or("expert_layer_period", 2), exp_offset = r.nonneg_int_or("expert_layer_offset", 1);
  if (attn_offset >= attn_period)
    r.fail("attn_layer_offset", "invalid", r.child_path("attn_layer_offset") + " holds " + std::to_string(attn_offset) +
                                               "; expected less than attn_layer_period (" + std::to_string(attn_period) + ")");
  if (exp_offset >= exp_period)
    r.fail("expert_layer_offset", "invalid", r.child_path("expert_layer_offset") + " holds " + std::to_string(exp_offset) +
                                                 "; expected less than expert_layer_period (" + std::to_string(exp_period) + ")");
  FfnSpec dense;
  dense.intermediate = r.positive_int_or("intermediate_size", 14336);
  FfnSpec moe = dense;
  moe.moe = true;
  moe.n_experts = r.positive_int_or("num_experts", 16);
  moe.top_k = r.positive_int_or("num_experts_per_tok", 2);
  moe.expert_intermediate = dense.intermediate;
  if (moe.n_experts > 1) config_check_top_k(r, moe, "num_experts_per_tok");  // one expert: plain MLPs (transformers)
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    if (i % attn_period == attn_offset) layer.attn = a;
    else {
      layer.has_attention = false;
      layer.recurrent = g;
    }
    layer.ffn = (moe.n_experts > 1 && i % exp_period == exp_offset) ? moe : dense;
    m.layers.push_back(layer);
  }
}

void parse_falcon_h1(Reader& r, const json& cfg, ModelSpec& m, const FamilyTraits& /*t*/) {
  const i64 L = read_hybrid_frame(r, m, {4096, 32, 128000, 8192, false});
  const i64 h = m.hidden;
  m.activation = r.string_or("hidden_act", "silu");
  // muP multipliers scale activations and logits: no parameters, no counted FLOPs.
  config_ignore(r, {"lm_head_multiplier", "embedding_multiplier", "mlp_multipliers", "key_multiplier",
                    "attention_out_multiplier", "attention_in_multiplier", "ssm_multipliers", "ssm_in_multiplier",
                    "ssm_out_multiplier", "time_step_min", "time_step_max", "time_step_limit", "time_step_floor",
                    "mamba_norm_before_gate", "num_logits_to_keep", "mamba_use_mlp", "mamba_chunk_size",
                    "rope_parameters"});

  AttentionSpec a;  // LlamaAttention with RoPE; transformers' defaults 32 heads, 8 KV heads
  a.n_heads = r.positive_int_or("num_attention_heads", 32);
  a.n_kv_heads = r.positive_int_or("num_key_value_heads", 8);
  config_check_divides(r, a.n_heads, a.n_kv_heads, "num_attention_heads", "num_key_value_heads");
  a.head_dim = config_head_dim(r, h, a.n_heads, "num_attention_heads");
  a.v_head_dim = a.rope_dim = a.head_dim;
  a.qkv_bias = a.o_bias = r.boolean_or("attention_bias", false);

  RecurrentSpec g;
  g.kind = RecurrentKind::Mamba2;
  const i64 expand = r.positive_int_or("mamba_expand", 2);
  // mamba_d_ssm: absent takes the class default 1024; null means mamba_expand x hidden_size.
  const bool d_ssm_null = cfg.contains("mamba_d_ssm") && cfg["mamba_d_ssm"].is_null();
  const i64 inner = r.has("mamba_d_ssm") ? r.positive_int("mamba_d_ssm") : (d_ssm_null ? (Count(expand) * h).v : 1024);
  r.raw("mamba_d_ssm");
  g.heads = r.positive_int_or("mamba_n_heads", 128);
  const json* dh = r.raw("mamba_d_head");
  g.head_dim = (!dh || (dh->is_string() && dh->get<std::string>() == "auto")) ? inner / g.heads : r.positive_int("mamba_d_head");
  if ((Count(g.heads) * g.head_dim).v != inner)
    throw InputError("model.invalid", r.child_path("mamba_n_heads"),
                     r.child_path("mamba_n_heads") + " (" + std::to_string(g.heads) + ") x mamba_d_head (" +
                         std::to_string(g.head_dim) + ") is not the Mamba width " + std::to_string(inner) +
                         " (mamba_d_ssm, or mamba_expand x hidden_size)");
  g.groups = r.positive_int_or("mamba_n_groups", 1);
  g.state_dim = r.positive_int_or("mamba_d_state", 256);
  g.conv_kernel = r.positive_int_or("mamba_d_conv", 4);
  g.chunk = r.positive_int_or("mamba_chunk_size", 256);
  g.conv_bias = r.boolean_or("mamba_conv_bias", true);
  g.in_bias = r.boolean_or("mamba_proj_bias", false);
  g.out_bias = r.boolean_or("projectors_bias", false);
  g.norm = r.boolean_or("mamba_rms_norm", false);

  FfnSpec mlp;  // LlamaMLP
  mlp.intermediate = r.positive_int_or("intermediate_size", 14336);
  mlp.bias = r.boolean_or("mlp_bias", false);
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    layer.attn = a;
    layer.recurrent = g;  // side by side with attention, summed into the residual
    layer.ffn = mlp;
    m.layers.push_back(layer);
  }
}

void parse_granite_hybrid(Reader& r, ModelSpec& m, const FamilyTraits& /*t*/) {
  const i64 L = read_hybrid_frame(r, m, {4096, 32, 32000, 2048, false});
  const i64 h = m.hidden;
  m.activation = r.string_or("hidden_act", "silu");
  // Granite's embedding, residual, attention and logit scalings change no count.
  config_ignore(r, {"embedding_multiplier", "logits_scaling", "residual_multiplier", "attention_multiplier",
                    "router_aux_loss_coef", "output_router_logits", "normalization_function", "init_method"});

  const std::string pos = r.string_or("position_embedding_type", "nope");
  AttentionSpec a = config_attention(r, h, pos == "rope");
  a.qkv_bias = a.o_bias = r.boolean_or("attention_bias", false);

  RecurrentSpec g = read_mamba2_keys(r, h);

  std::vector<std::string> types = r.string_array_or("layer_types");
  if (types.empty()) types.assign(static_cast<std::size_t>(L), "mamba");
  config_check_per_layer(r, "layer_types", types.size(), L, PerLayer::Exactly);
  // Every layer: a MoE block (when num_local_experts > 0) beside a shared gated MLP of shared_intermediate_size.
  FfnSpec ffn;
  const i64 experts = r.nonneg_int_or("num_local_experts", 8);
  const i64 shared = r.positive_int_or("shared_intermediate_size", 1024);
  if (experts > 0) {
    ffn.moe = true;
    ffn.n_experts = experts;
    ffn.top_k = r.positive_int_or("num_experts_per_tok", 2);
    ffn.expert_intermediate = r.positive_int_or("intermediate_size", 11008);
    ffn.n_shared = 1;
    ffn.shared_intermediate = shared;
    config_check_top_k(r, ffn, "num_experts_per_tok");
  } else {
    ffn.intermediate = shared;
    config_ignore(r, {"num_experts_per_tok", "intermediate_size"});
  }
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    const auto& t = types[static_cast<std::size_t>(i)];
    LayerSpec layer;
    if (t == "attention") layer.attn = a;
    else if (t == "mamba") {
      layer.has_attention = false;
      layer.recurrent = g;
    } else
      throw InputError("model.unsupported", r.child_path("layer_types") + "/" + std::to_string(i),
                       r.child_path("layer_types") + "/" + std::to_string(i) + " holds \"" + t + "\"; expected mamba or attention");
    layer.ffn = ffn;
    m.layers.push_back(layer);
  }
}

void parse_mamba(Reader& r, ModelSpec& m, const FamilyTraits& t) {
  // MambaConfig, FalconMambaConfig and Mamba2Config: every default is in the family's table (io/families_hybrid.cpp).
  const std::string type = t.model_type;
  const bool v2 = type == "mamba2";
  const i64 L = read_hybrid_frame(r, m, v2 ? HybridFrame{4096, 64, 32768, 0, false} : HybridFrame{768, 32, 50280, 0, true});
  const i64 h = m.hidden;
  m.max_position = 0;  // no positions: nothing bounds the context but memory
  m.activation = r.string_or("hidden_act", "silu");
  config_ignore(r, {"layer_norm_epsilon", "initializer_range", "residual_in_fp32", "rescale_prenorm_residual",
                    "time_step_scale", "time_step_min", "time_step_max", "time_step_init_scheme", "time_step_floor",
                    "time_step_limit", "use_mambapy", "use_falcon_mambapy", "mixer_rms_eps", "fused_add_norm",
                    "pad_vocab_size_multiple", "ssm_cfg", "rms_norm", "norm_before_gate", "use_cache",
                    // state-spaces' own names beside the -hf checkpoints' keys (mamba-130m-hf writes both); the
                    // config classes never read them
                    "d_model", "d_inner", "n_layer"});

  RecurrentSpec g;
  g.conv_kernel = r.positive_int_or("conv_kernel", 4);
  g.conv_bias = r.boolean_or("use_conv_bias", true);
  g.in_bias = g.out_bias = r.boolean_or("use_bias", false);
  g.state_dim = r.positive_int_or("state_size", v2 ? 128 : 16);
  g.state_bits = config_state_bits(r, "mamba_ssm_cache_dtype", 0);  // the model's dtype unless the config says
  // The mixer's width. MambaConfig and FalconMambaConfig derive intermediate_size = expand x hidden_size and then
  // set the config's own keys over it, so a written intermediate_size wins (Falcon Mamba 7B writes expand 16 beside
  // intermediate_size 8192, and its checkpoint is 8192 wide). Mamba2Mixer takes expand x hidden_size whatever the
  // config writes.
  const i64 expand = r.positive_int_or("expand", 2);
  const bool written = !v2 && r.has("intermediate_size");
  const i64 inner = written ? r.positive_int("intermediate_size") : (Count(expand) * h).v;
  if (v2) r.raw("intermediate_size");
  if (v2) {
    g.kind = RecurrentKind::Mamba2;
    g.heads = r.positive_int_or("num_heads", 128);
    g.head_dim = r.positive_int_or("head_dim", 64);
    g.groups = r.positive_int_or("n_groups", 8);
    g.chunk = r.positive_int_or("chunk_size", 256);
    g.norm = true;  // Mamba2Mixer's MambaRMSNormGated over the width, whatever rms_norm says
    if ((Count(g.heads) * g.head_dim).v != inner)
      throw InputError("model.invalid", r.child_path("num_heads"),
                       r.child_path("num_heads") + " (" + std::to_string(g.heads) + ") x head_dim (" + std::to_string(g.head_dim) +
                           ") is not the mixer's width " + std::to_string(inner) + " (expand x hidden_size)");
    config_check_divides(r, g.heads, g.groups, "num_heads", "n_groups");
    r.raw("time_step_rank");  // Mamba2 has one time step per head: the rank changes no count
  } else {
    g.kind = RecurrentKind::Mamba;
    g.heads = inner;  // d_inner channels
    g.head_dim = 1;
    g.groups = 1;
    g.chunk = 1;
    const json* dt = r.raw("time_step_rank");
    if (!dt || (dt->is_string() && dt->get<std::string>() == "auto")) g.dt_rank = (Count(h) + 15).v / 16;  // ceil(h / 16)
    else g.dt_rank = r.positive_int("time_step_rank");
    // Falcon Mamba normalizes dt, B and C with RMSNorms that have no weights (rms_forward): work, no parameters.
    g.dt_norms = type == "falcon_mamba";
    g.dt_norm_weights = false;
  }
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    layer.norms = 1;  // the block's pre-norm
    layer.has_attention = false;
    layer.has_ffn = false;
    layer.recurrent = g;
    m.layers.push_back(layer);
  }
}

void parse_bamba(Reader& r, ModelSpec& m, const FamilyTraits& /*t*/) {
  const i64 L = read_hybrid_frame(r, m, {4096, 32, 128000, 262144, false});
  const i64 h = m.hidden;
  m.activation = r.string_or("hidden_act", "silu");
  config_ignore(r, {"z_loss_coefficient", "num_logits_to_keep", "rms_norm_eps", "initializer_range", "attention_dropout",
                    "rope_theta", "rope_scaling", "rope_parameters", "use_cache", "use_mamba_kernels"});

  // BambaAttention: Llama's, head_dim hidden / heads, RoPE on half of each head (partial_rotary_factor 0.5, set by
  // BambaConfig itself), no biases unless the config says.
  AttentionSpec a = config_attention(r, h, true);
  const double rotary = r.number_in_or("partial_rotary_factor", 0, 1, 0.5);
  a.rope_dim = config_share(a.head_dim, rotary);
  a.qkv_bias = a.o_bias = r.boolean_or("attention_bias", false);

  RecurrentSpec g = read_mamba2_keys(r, h);  // BambaMixer: Mamba2's mixer under mamba_* keys
  g.state_bits = config_state_bits(r, "mamba_ssm_cache_dtype", 0);

  FfnSpec mlp;  // BambaMLP: Llama's gated MLP
  mlp.intermediate = r.positive_int_or("intermediate_size", 14336);
  mlp.bias = r.boolean_or("mlp_bias", false);

  // attn_layer_indices names the attention layers; every other layer is Mamba2 (null or absent: all of them).
  std::vector<bool> attention(static_cast<std::size_t>(L), false);
  const std::vector<i64> idx = r.int_array_or("attn_layer_indices");
  const std::string at = r.child_path("attn_layer_indices");
  for (std::size_t i = 0; i < idx.size(); ++i) {
    if (idx[i] < 0 || idx[i] >= L)
      throw InputError("model.invalid", at + "/" + std::to_string(i),
                       at + "/" + std::to_string(i) + " holds " + std::to_string(idx[i]) + "; expected a layer from 0 to " +
                           std::to_string(L - 1));
    attention[static_cast<std::size_t>(idx[i])] = true;
  }
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    LayerSpec layer;
    if (attention[static_cast<std::size_t>(i)]) layer.attn = a;
    else {
      layer.has_attention = false;
      layer.recurrent = g;
    }
    layer.ffn = mlp;  // input_layernorm and pre_ff_layernorm: the default two norms
    m.layers.push_back(layer);
  }
}

}  // namespace infercast
