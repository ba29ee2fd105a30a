// Laguna. Defaults are transformers' LagunaConfig (laguna/configuration_laguna.py, __post_init__); shapes are
// LagunaAttention's and LagunaSparseMoeBlock's (modeling_laguna.py), with vLLM's models/laguna.py for the keys it
// reads beside them (mlp_only_layers and decoder_sparse_step, qkv_bias, swa_attention_sink_enabled).
#include "io/config_laguna.hpp"

#include <string>

namespace infercast {

namespace {

// RoPE's share of each head for one layer type: rope_parameters[type].partial_rotary_factor (transformers 5's per-type
// parameters), else a partial_rotary_factor for every type, else the type's default.
double rotary_share(Reader& r, const char* type, double fallback) {
  if (!r.has("rope_parameters")) return fallback;
  Reader p = r.object("rope_parameters");
  if (!p.has(type)) return p.number_in_or("partial_rotary_factor", 0, 1, fallback);
  Reader t = p.object(type);
  const double f = t.number_in_or("partial_rotary_factor", 0, 1, fallback);
  for (const auto& key : t.unread()) t.raw(key);  // theta and YaRN's scaling: no count changes
  return f;
}

}  // namespace

void parse_laguna(Reader& r, ModelSpec& m) {
  const i64 L = config_decoder_basics(r, m, {2048, 40, 100352, 131072, 0, false});
  // Routing numerics (the routed scale, a logit soft cap, the auxiliary loss), no count changes.
  config_ignore(r, {"moe_routed_scaling_factor", "moe_router_logit_softcapping", "router_aux_loss_coef", "norm_topk_prob",
                    "rope_theta", "rope_scaling", "output_router_logits", "use_sliding_window", "max_window_layers"});
  if (r.boolean_or("moe_apply_router_weight_on_input", false))
    not_modelled(r, "moe_apply_router_weight_on_input", "router weights applied to the experts' input (transformers raises "
                                                        "NotImplementedError for it too)");
  AttentionSpec full;
  full.n_heads = r.positive_int_or("num_attention_heads", 48);
  full.n_kv_heads = r.positive_int_or("num_key_value_heads", 8);
  config_check_divides(r, full.n_heads, full.n_kv_heads, "num_attention_heads", "num_key_value_heads");
  full.head_dim = full.v_head_dim = r.positive_int_or("head_dim", 128);
  full.qk_norm = true;  // q_norm and k_norm, one head_dim-wide weight each
  // attention_bias (transformers), or the qkv_bias Qwen2-MoE's config carries (vLLM's laguna.py reads it for q, k, v).
  full.qkv_bias = r.boolean_or("attention_bias", false) || r.boolean_or("qkv_bias", false);
  full.o_bias = r.boolean_or("attention_bias", false);
  // The output gate: softplus(g_proj(x)) per head (gating true or "per-head") or per element ("per-element");
  // gating_types names it per layer. Either costs as Step-3.7's per-head gate or AFMoE's per-element one.
  enum class Gate { None, Head, Element };
  const auto gate_of = [&](const json& v, const std::string& at) {
    if (v.is_boolean()) return v.get<bool>() ? Gate::Head : Gate::None;
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      if (s == "per-head" || s == "per_head") return Gate::Head;
      if (s == "per-element" || s == "per_element") return Gate::Element;
    }
    throw InputError("model.unsupported", at, at + " holds " + v.dump() + "; expected true, false, \"per-head\" or \"per-element\"");
  };
  const json* gating = r.raw("gating");
  const Gate gate = gating ? gate_of(*gating, r.child_path("gating")) : Gate::Head;
  std::vector<Gate> gates(static_cast<std::size_t>(L), gate);
  if (const json* g = r.raw("gating_types")) {
    if (!g->is_array() || static_cast<i64>(g->size()) < L)
      r.fail("gating_types", "invalid", r.child_path("gating_types") + " holds " + (g->is_array() ? std::to_string(g->size()) + " entries" : "no list") +
                                            "; expected one entry per layer (" + std::to_string(L) + ")");
    for (i64 i = 0; i < L; ++i)
      gates[static_cast<std::size_t>(i)] = gate_of((*g)[static_cast<std::size_t>(i)], r.child_path("gating_types") + "/" + std::to_string(i));
  }
  AttentionSpec sliding = full;
  sliding.window = r.positive_int_or("sliding_window", 512);
  sliding.sinks = r.boolean_or("swa_attention_sink_enabled", false);  // vLLM's option: a sink logit per head
  full.rope_dim = config_share(full.head_dim, rotary_share(r, "full_attention", 0.5));
  sliding.rope_dim = config_share(sliding.head_dim, rotary_share(r, "sliding_attention", 1.0));
  r.raw("rope_parameters");
  std::vector<bool> slides = config_layer_list(r, "layer_types", L, "full_attention", "sliding_attention");
  if (slides.empty()) slides.assign(static_cast<std::size_t>(L), false);
  // Query heads per layer (q, o and the gate follow them; the KV heads and head_dim do not).
  std::vector<i64> heads(static_cast<std::size_t>(L), full.n_heads);
  if (r.has("num_attention_heads_per_layer")) {
    const auto n = r.int_array_or("num_attention_heads_per_layer");
    config_check_per_layer(r, "num_attention_heads_per_layer", n.size(), L, PerLayer::AtLeast);
    for (i64 i = 0; i < L; ++i) {
      const i64 x = n[static_cast<std::size_t>(i)];
      if (x < 1 || x > (i64(1) << 20) || x % full.n_kv_heads != 0) {
        const std::string at = r.child_path("num_attention_heads_per_layer") + "/" + std::to_string(i);
        throw InputError("model.invalid", at, at + " holds " + std::to_string(x) + "; expected a positive multiple of "
                                                  "num_key_value_heads (" + std::to_string(full.n_kv_heads) + "), at most 1048576");
      }
      heads[static_cast<std::size_t>(i)] = x;
    }
  } else {
    r.raw("num_attention_heads_per_layer");
  }
  // Experts: num_experts of moe_intermediate_size behind a sigmoid router whose score-correction bias the experts
  // module stores, one shared expert of shared_expert_intermediate_size (none at 0); dense MLPs of intermediate_size.
  FfnSpec dense;
  dense.intermediate = r.positive_int_or("intermediate_size", 8192);
  FfnSpec moe;
  moe.moe = true;
  moe.n_experts = r.positive_int_or("num_experts", 256);
  moe.top_k = r.positive_int_or("num_experts_per_tok", 8);
  moe.expert_intermediate = r.positive_int_or("moe_intermediate_size", 512);
  moe.shared_intermediate = r.nonneg_int_or("shared_expert_intermediate_size", 512);
  moe.n_shared = moe.shared_intermediate > 0 ? 1 : 0;
  moe.score_correction_bias = true;
  config_check_top_k(r, moe, "num_experts_per_tok");
  // Which layers have experts: mlp_layer_types (transformers), else vLLM's mlp_only_layers and decoder_sparse_step,
  // else transformers' default (a dense first layer).
  std::vector<bool> sparse = config_mlp_layer_types(r, L);
  if (sparse.empty()) {
    sparse.assign(static_cast<std::size_t>(L), true);
    if (r.has("mlp_only_layers") || r.has("decoder_sparse_step")) {
      const i64 step = r.positive_int_or("decoder_sparse_step", 1);
      const auto dense_only = config_listed_layers(r, "mlp_only_layers", L);
      for (i64 i = 0; i < L; ++i)
        sparse[static_cast<std::size_t>(i)] = !dense_only[static_cast<std::size_t>(i)] && (i + 1) % step == 0;
    } else {
      sparse[0] = false;
    }
  }
  r.raw("mlp_only_layers");
  r.raw("decoder_sparse_step");
  m.layers.reserve(m.layers.size() + static_cast<std::size_t>(L));
  for (i64 i = 0; i < L; ++i) {
    const auto at = static_cast<std::size_t>(i);
    LayerSpec layer;
    layer.attn = slides[at] ? sliding : full;
    layer.attn.n_heads = heads[at];
    layer.attn.head_gate = gates[at] == Gate::Head;
    layer.attn.output_gate = gates[at] == Gate::Element;
    layer.ffn = sparse[at] ? moe : dense;
    m.layers.push_back(layer);
  }
}

}  // namespace infercast
