// Gemma 3n and Gemma 4 configs, read as transformers builds the models: models/gemma3n/configuration_gemma3n.py and
// modeling_gemma3n.py, models/gemma4/configuration_gemma4.py and modular_gemma4.py (docs/formulas.md, "Gemma 3n and
// Gemma 4").
#include "io/config_gemma.hpp"

#include <string>
#include <vector>

#include "model/count.hpp"

namespace infercast {

namespace {

std::string at_index(Reader& r, const std::string& key, std::size_t i) { return r.child_path(key) + "/" + std::to_string(i); }

// Sliding (true) or full (false) per layer: layer_types when given, else every `period`-th layer full.
std::vector<bool> sliding_layers(Reader& r, i64 L, i64 period) {
  std::vector<bool> out(static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) out[static_cast<std::size_t>(i)] = (i + 1) % period != 0;
  const auto types = r.string_array_or("layer_types");
  if (types.empty()) return out;
  config_check_per_layer(r, "layer_types", types.size(), L, PerLayer::Exactly);
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (types[i] == "sliding_attention") out[i] = true;
    else if (types[i] == "full_attention") out[i] = false;
    else
      throw InputError("model.unsupported", at_index(r, "layer_types", i),
                       at_index(r, "layer_types", i) + " holds \"" + types[i] +
                           "\"; expected sliding_attention or full_attention");
  }
  return out;
}

// Which layers read an earlier layer's cache: the last `shared` layers, each from the last layer of its kind before
// them (Gemma3nTextAttention, Gemma4TextAttention). A kind with no such earlier layer has nothing to share.
std::vector<bool> kv_shared_layers(Reader& r, const std::vector<bool>& sliding, i64 shared) {
  const i64 L = static_cast<i64>(sliding.size());
  std::vector<bool> out(sliding.size(), false);
  const i64 first = L - shared;
  if (shared <= 0 || first <= 0) return out;
  // Whether the layers before the shared ones hold a sliding and a full attention layer (one pass, not one per layer).
  bool before[2] = {false, false};
  for (i64 j = 0; j < first; ++j) before[sliding[static_cast<std::size_t>(j)] ? 1 : 0] = true;
  for (i64 i = first; i < L; ++i) {
    const bool producer = before[sliding[static_cast<std::size_t>(i)] ? 1 : 0];
    if (!producer)
      throw InputError("model.invalid", r.child_path("num_kv_shared_layers"),
                       r.child_path("num_kv_shared_layers") + " holds " + std::to_string(shared) + ": layer " +
                           std::to_string(i) + " (" + (sliding[static_cast<std::size_t>(i)] ? "sliding" : "full") +
                           " attention) would share the cache of an earlier layer of its kind, and there is none");
    out[static_cast<std::size_t>(i)] = true;
  }
  return out;
}

// intermediate_size: one width for every layer or a list with one per layer (Gemma 3n's MatFormer).
std::vector<i64> widths(Reader& r, i64 L) {
  const json* v = r.raw("intermediate_size");
  const std::string path = r.child_path("intermediate_size");
  if (v && v->is_array()) {
    config_check_per_layer(r, "intermediate_size", v->size(), L, PerLayer::Exactly, " or a single number");
    std::vector<i64> out;
    for (std::size_t i = 0; i < v->size(); ++i) {
      const json& x = (*v)[i];
      if (!x.is_number_integer() || x.get<i64>() <= 0)
        throw InputError("model.invalid_field", path + "/" + std::to_string(i),
                         path + "/" + std::to_string(i) + " holds " + describe(x) + "; expected a positive integer");
      out.push_back(x.get<i64>());
    }
    return out;
  }
  return std::vector<i64>(static_cast<std::size_t>(L), r.positive_int("intermediate_size"));
}

// activation_sparsity_pattern: a sparsity in [0, 1) per layer; absent: 0.95 on the first 10 layers when there are
// more than 10 (Gemma3nTextConfig), none otherwise.
std::vector<bool> sparse_layers(Reader& r, i64 L) {
  std::vector<bool> out(static_cast<std::size_t>(L), false);
  const json* v = r.raw("activation_sparsity_pattern");
  const std::string path = r.child_path("activation_sparsity_pattern");
  if (!v) {
    for (i64 i = 0; i < L && L > 10 && i < 10; ++i) out[static_cast<std::size_t>(i)] = true;
    return out;
  }
  if (!v->is_array() || static_cast<i64>(v->size()) != L)
    throw InputError("model.invalid", path,
                     path + " holds " + describe(*v) + "; expected a list of one sparsity per layer (" +
                         std::to_string(L) + ")");
  for (std::size_t i = 0; i < v->size(); ++i) {
    const json& x = (*v)[i];
    if (!x.is_number() || !(x.get<double>() >= 0 && x.get<double>() < 1))
      throw InputError("model.invalid_field", path + "/" + std::to_string(i),
                       path + "/" + std::to_string(i) + " holds " + describe(x) + "; expected a number in [0, 1)");
    out[i] = x.get<double>() > 0;
  }
  return out;
}

// Fields that change no count, FLOP or byte (RoPE bases, soft-capping, AltUp's clip and active index, numerics).
void ignore_gemma_keys(Reader& r) {
  config_ignore(r, {"rope_theta", "rope_local_base_freq", "rope_scaling", "rope_parameters", "final_logit_softcapping",
                    "attn_logit_softcapping", "query_pre_attn_scalar", "rms_norm_eps", "altup_active_idx",
                    "altup_coef_clip", "altup_correct_scale", "altup_lr_multiplier", "attention_dropout",
                    "initializer_range", "use_cache", "sliding_window_pattern", "hidden_act", "torch_dtype", "dtype"});
}

// What both families read first, in this order: the width, the layers, the vocabulary, the positions, tying and
// the activation. Returns the layer count.
i64 read_gemma_base(Reader& r, ModelSpec& m) {
  m.hidden = r.positive_int("hidden_size");
  const i64 L = config_layer_count(r, "num_hidden_layers");
  m.vocab = r.positive_int("vocab_size");
  m.max_position = r.nonneg_int_or("max_position_embeddings", 0);
  m.tied_embeddings = r.boolean_or("tie_word_embeddings", true);
  m.activation = r.string("hidden_activation");
  ignore_gemma_keys(r);
  return L;
}

}  // namespace

void parse_gemma3n(Reader& r, ModelSpec& m) {
  const i64 L = read_gemma_base(r, m);
  const i64 h = m.hidden;
  m.ple_vocab = r.positive_int("vocab_size_per_layer_input");
  const i64 P = r.positive_int("hidden_size_per_layer_input");
  m.ple_layers = L;
  m.ple_dim = P;
  m.altup_inputs = r.positive_int("altup_num_inputs");
  const i64 laurel = r.positive_int("laurel_rank");

  AttentionSpec a = config_attention(r, h, true);
  a.qkv_bias = a.o_bias = r.boolean_or("attention_bias", false);
  a.qk_norm = true;
  a.v_norm = true;
  a.kv_weights_kept = true;  // Gemma3nTextAttention builds k_proj, v_proj and k_norm on every layer
  const i64 window = r.positive_int("sliding_window");
  const std::vector<bool> sliding = sliding_layers(r, L, 5);
  const std::vector<bool> shared = kv_shared_layers(r, sliding, r.nonneg_int_or("num_kv_shared_layers", 0));
  const std::vector<i64> width = widths(r, L);
  const std::vector<bool> sparse = sparse_layers(r, L);
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    const auto k = static_cast<std::size_t>(i);
    LayerSpec layer;
    layer.attn = a;
    layer.attn.window = sliding[k] ? window : 0;
    layer.attn.kv_shared = shared[k];
    layer.norms = 4;  // input, post-attention, pre- and post-feedforward
    layer.ffn.intermediate = width[k];
    layer.ffn.gaussian_topk = sparse[k];
    layer.per_layer_input = P;
    layer.laurel_rank = laurel;
    layer.altup = m.altup_inputs;
    m.layers.push_back(layer);
  }
}

void parse_gemma4(Reader& r, ModelSpec& m, bool encoder_free) {
  const i64 L = read_gemma_base(r, m);
  const i64 h = m.hidden;
  // Absent: 256 (the family's defaults fill it); null or 0: no per-layer inputs (`if hidden_size_per_layer_input:`).
  const i64 P = encoder_free ? 0 : r.nonneg_int_or("hidden_size_per_layer_input", 0);
  if (encoder_free) config_ignore(r, {"hidden_size_per_layer_input", "vocab_size_per_layer_input"});
  if (P > 0) {
    m.ple_vocab = r.positive_int("vocab_size_per_layer_input");
    m.ple_layers = L;
    m.ple_dim = P;
  } else {
    r.raw("vocab_size_per_layer_input");
  }

  AttentionSpec local = config_attention(r, h, true);
  local.qkv_bias = local.o_bias = r.boolean_or("attention_bias", false);
  local.qk_norm = true;
  local.v_norm = true;
  // Full layers: global_head_dim, and num_global_key_value_heads where keys are reused as values
  // (Gemma4TextConfig's per_layer_config); RoPE on partial_rotary_factor of the head ("proportional").
  AttentionSpec global = local;
  global.head_dim = global.v_head_dim = r.positive_int_or("global_head_dim", 512);
  const bool k_eq_v = r.boolean_or("attention_k_eq_v", false);
  const auto global_kv = r.optional_positive_int("num_global_key_value_heads");
  if (k_eq_v && global_kv) global.n_kv_heads = *global_kv;
  config_check_divides(r, global.n_heads, global.n_kv_heads, "num_attention_heads",
                       k_eq_v && global_kv ? "num_global_key_value_heads" : "num_key_value_heads");
  global.k_eq_v = k_eq_v;
  double factor = 0.25;
  if (r.has("rope_parameters")) {
    Reader rp = r.object("rope_parameters");
    if (rp.has("full_attention")) {
      Reader full = rp.object("full_attention");
      factor = full.number_in_or("partial_rotary_factor", 0, 1, 0.25);
      for (const auto& key : full.unread()) full.raw(key);
    }
    for (const auto& key : rp.unread()) rp.raw(key);
  }
  global.rope_dim = config_share(global.head_dim, factor);
  i64 window = r.positive_int("sliding_window");
  const std::string bidirectional = r.string_or("use_bidirectional_attention", "");
  if (bidirectional == "all") window = window / 2 + 1;  // Gemma4TextConfig: exclusive bounds for flash attention
  std::vector<bool> sliding = sliding_layers(r, L, 6);
  sliding.back() = false;  // Gemma4TextConfig forces the last layer to full attention
  const std::vector<bool> shared = kv_shared_layers(r, sliding, r.nonneg_int_or("num_kv_shared_layers", 0));
  const i64 width = r.positive_int("intermediate_size");
  const bool double_wide = r.boolean_or("use_double_wide_mlp", false);
  FfnSpec moe;
  if (encoder_free) r.raw("enable_moe_block");
  if (!encoder_free && r.boolean_or("enable_moe_block", false)) {
    moe.moe = true;
    moe.n_experts = r.positive_int("num_experts");
    moe.top_k = r.positive_int("top_k_experts");
    // The experts' width: moe_intermediate_size, or expert_intermediate_size (the name configs written by later
    // transformers releases carry beside it, null in dense models).
    const auto moe_width = r.optional_positive_int("moe_intermediate_size");
    const auto expert_width = r.optional_positive_int("expert_intermediate_size");
    if (moe_width && expert_width && *moe_width != *expert_width)
      r.fail("expert_intermediate_size", "invalid",
             r.child_path("expert_intermediate_size") + " holds " + std::to_string(*expert_width) + " and " +
                 r.child_path("moe_intermediate_size") + " holds " + std::to_string(*moe_width) +
                 "; expected one width for the experts");
    moe.expert_intermediate = moe_width ? *moe_width : expert_width ? *expert_width : r.positive_int("moe_intermediate_size");
    moe.router_scales = true;
    moe.n_shared = 1;  // the dense MLP beside the experts, always active
    config_check_top_k(r, moe, "top_k_experts");
  } else {
    config_ignore(r, {"num_experts", "top_k_experts", "moe_intermediate_size", "expert_intermediate_size"});
  }
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    const auto k = static_cast<std::size_t>(i);
    LayerSpec layer;
    layer.attn = sliding[k] ? local : global;
    if (sliding[k]) layer.attn.window = window;
    layer.attn.kv_shared = shared[k];
    const i64 w = (Count(width) * (double_wide && shared[k] ? 2 : 1)).v;  // Gemma4TextMLP: double width on shared layers
    if (moe.moe) {
      layer.ffn = moe;
      layer.ffn.shared_intermediate = w;
      layer.norms = 7;  // and post_feedforward_layernorm_1 and _2, pre_feedforward_layernorm_2
    } else {
      layer.ffn.intermediate = w;
      layer.norms = 4;
    }
    layer.per_layer_input = P;
    layer.layer_scalar = true;
    m.layers.push_back(layer);
  }
}

}  // namespace infercast
