#include "io/decoder_rules.hpp"

#include "io/config_common.hpp"

#include <algorithm>
#include <cmath>

namespace infercast {

namespace {

// An integer or one integer per layer (Hunyuan writes num_experts and moe_topk either way).
std::vector<i64> per_layer_ints(Reader& r, const std::string& key, i64 L) {
  const json* v = r.raw(key);
  if (v && v->is_array()) {
    auto values = r.int_array_or(key);
    config_check_per_layer(r, key, values.size(), L, PerLayer::Exactly, " or a single integer");
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i] <= 0)
        throw InputError("model.out_of_range", r.child_path(key) + "/" + std::to_string(i),
                         r.child_path(key) + "/" + std::to_string(i) + " holds " + std::to_string(values[i]) +
                             "; expected a positive integer");
    return values;
  }
  return std::vector<i64>(static_cast<std::size_t>(L), r.positive_int(key));
}

void check_top_k(Reader& r, const char* key, i64 top_k, i64 experts) {
  if (top_k > experts)
    throw InputError("model.invalid", r.child_path(key),
                     r.child_path(key) + " holds " + std::to_string(top_k) + ", more than the number of experts (" +
                         std::to_string(experts) + ")");
}

// Which layers route under the DeepSeek-style experts: mlp_layer_types (transformers 5: "dense" or "sparse"), else
// is_moe_layer (EXAONE-MoE's configs: a boolean per layer), else the layers from first_k_dense_replace on. Where a
// config writes both lists (K-EXAONE does), they must agree.
std::vector<bool> routed_layers(Reader& r, i64 L) {
  std::vector<bool> out = config_mlp_layer_types(r, L);
  if (const json* v = r.raw("is_moe_layer")) {
    const std::string key = r.child_path("is_moe_layer");
    if (!v->is_array() || static_cast<i64>(v->size()) < L)
      throw InputError("model.invalid", key, key + " holds " + describe(*v) + "; expected one boolean per layer (" +
                                                 std::to_string(L) + ")");
    std::vector<bool> listed(static_cast<std::size_t>(L));
    for (i64 i = 0; i < L; ++i) {
      const json& e = (*v)[static_cast<std::size_t>(i)];
      if (!e.is_boolean())
        throw InputError("model.invalid", key + "/" + std::to_string(i),
                         key + "/" + std::to_string(i) + " holds " + describe(e) + "; expected true or false");
      listed[static_cast<std::size_t>(i)] = e.get<bool>();
    }
    if (out.empty()) {
      out = listed;
    } else {
      for (i64 i = 0; i < L; ++i)
        if (out[static_cast<std::size_t>(i)] != listed[static_cast<std::size_t>(i)])
          throw InputError("model.invalid", key + "/" + std::to_string(i),
                           key + "/" + std::to_string(i) + " holds " + (listed[static_cast<std::size_t>(i)] ? "true" : "false") +
                               " but " + r.child_path("mlp_layer_types") + "/" + std::to_string(i) + " names the layer " +
                               (out[static_cast<std::size_t>(i)] ? "sparse" : "dense") + "; expected the two lists to agree");
    }
  }
  const i64 first_dense = r.nonneg_int_or("first_k_dense_replace", 0);
  if (out.empty())
    for (i64 i = 0; i < L; ++i) out.push_back(i >= first_dense);
  return out;
}

}  // namespace

i64 rotary_dims(Reader& r, i64 head_dim) {
  // transformers 5 keeps the share in rope_parameters; it wins over the top-level key, which a family's default
  // may have filled (Phi's 0.5 where phi-2 says 0.4 in rope_parameters).
  double factor = r.number_in_or("partial_rotary_factor", 0, 1, -1);
  if (r.has("rope_parameters")) {
    const json* rp = r.raw("rope_parameters");
    if (rp->is_object() && rp->contains("partial_rotary_factor")) {
      Reader p = r.object("rope_parameters");
      const double f = p.number_in_or("partial_rotary_factor", 0, 1, -1);
      if (f >= 0) factor = f;
    }
  }
  // rotary_dim (MiniMax-M2, GPT-J): the rotated width itself; transformers turns it into partial_rotary_factor.
  if (factor < 0 && r.has("rotary_dim")) return std::min(head_dim, r.positive_int("rotary_dim"));
  if (factor < 0) return head_dim;
  return config_share(head_dim, factor);
}

std::vector<i64> no_rope_flags(Reader& r, i64 L) {
  auto flags = r.int_array_or("no_rope_layers");
  if (!flags.empty()) config_check_per_layer(r, "no_rope_layers", flags.size(), L, PerLayer::Exactly);
  return flags;
}

std::vector<bool> read_rope_per_layer(Reader& r, i64 L, bool& listed) {
  std::vector<bool> nope(static_cast<std::size_t>(L), false);
  listed = false;
  const std::string at = r.child_path("layer_rope_theta");
  if (const json* thetas = r.raw("layer_rope_theta")) {
    listed = true;
    if (!thetas->is_array())
      throw InputError("model.wrong_type", at, at + " holds " + describe(*thetas) + "; expected a list of RoPE bases, one per layer (0: no RoPE)");
    config_check_per_layer(r, "layer_rope_theta", thetas->size(), L, PerLayer::Exactly);
    for (std::size_t i = 0; i < thetas->size(); ++i) {
      const json& v = (*thetas)[i];
      if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
        throw InputError("model.invalid", at + "/" + std::to_string(i),
                         at + "/" + std::to_string(i) + " holds " + describe(v) + "; expected a RoPE base of 0 (no RoPE) or more");
      nope[i] = v.get<double>() == 0;
    }
  }
  const auto flags = no_rope_flags(r, L);
  listed = listed || !flags.empty();
  for (std::size_t i = 0; i < flags.size(); ++i) nope[i] = nope[i] || flags[i] == 0;
  return nope;
}

std::vector<bool> sliding_by_pattern(Reader& r, i64 L, i64 fallback) {
  std::vector<bool> out(static_cast<std::size_t>(L), false);
  const json* v = r.raw("sliding_window_pattern");
  if (v && v->is_string()) {
    const std::string p = v->get<std::string>();
    const bool valid = !p.empty() && p.find_first_not_of("LG") == std::string::npos;
    if (!valid)
      throw InputError("model.invalid", r.child_path("sliding_window_pattern"),
                       r.child_path("sliding_window_pattern") + " holds " + describe(*v) +
                           "; expected an integer or a string of L (local) and G (global) layers");
    for (i64 i = 0; i < L; ++i) out[static_cast<std::size_t>(i)] = p[static_cast<std::size_t>(i) % p.size()] == 'L';
    out.back() = false;  // the last layer is global whatever the pattern says
    return out;
  }
  const i64 n = r.positive_int_or("sliding_window_pattern", fallback);
  for (i64 i = 0; i < L; ++i) out[static_cast<std::size_t>(i)] = (i + 1) % n != 0;
  return out;
}

std::vector<FfnSpec> moe_rule_layers(Reader& r, const FamilyTraits& t, i64 L, const FfnSpec& dense) {
  std::vector<FfnSpec> out;
  FfnSpec moe = dense;
  moe.moe = true;
  moe.fused_gate_up = false;
  if (t.moe == MoeRule::DeepSeekLike) {
    // GLM-4.5 (glm4_moe/modeling_glm4_moe.py): Glm4MoeTopkRouter (E x h weight, E score-correction bias), routed
    // experts and n_shared_experts of moe_intermediate_size, dense MLPs on the first first_k_dense_replace layers.
    moe.n_experts = r.positive_int("n_routed_experts");
    moe.top_k = r.positive_int("num_experts_per_tok");
    check_top_k(r, "num_experts_per_tok", moe.top_k, moe.n_experts);
    moe.expert_intermediate = r.positive_int("moe_intermediate_size");
    moe.n_shared = r.nonneg_int_or("n_shared_experts", 0);
    moe.shared_intermediate = t.shared_width_key[0] ? r.positive_int_or(t.shared_width_key, moe.expert_intermediate)
                                                    : moe.expert_intermediate;
    moe.score_correction_bias = t.routing_bias_key[0] ? r.boolean_or(t.routing_bias_key, false) : true;
    const std::vector<bool> routed = routed_layers(r, L);
    // A dense layer needs the dense width even where the family has none by default (Solar Open).
    if (dense.intermediate == 0 && std::find(routed.begin(), routed.end(), false) != routed.end()) r.positive_int("intermediate_size");
    for (i64 i = 0; i < L; ++i) out.push_back(routed[static_cast<std::size_t>(i)] ? moe : dense);
  } else if (t.moe == MoeRule::Ernie) {
    // ERNIE 4.5 (ernie4_5_moe/modular_ernie4_5_moe.py): a gate without bias, e_score_correction_bias on every MoE
    // layer, one shared MLP of moe_intermediate_size x moe_num_shared_experts, biases where use_bias says.
    moe.n_experts = r.positive_int("moe_num_experts");
    moe.top_k = r.positive_int("moe_k");
    check_top_k(r, "moe_k", moe.top_k, moe.n_experts);
    moe.expert_intermediate = r.positive_int("moe_intermediate_size");
    moe.expert_bias = dense.bias;
    const i64 shared = r.nonneg_int_or("moe_num_shared_experts", 0);
    moe.n_shared = shared > 0 ? 1 : 0;
    moe.shared_intermediate = (Count(moe.expert_intermediate) * shared).v;  // Ernie4_5_MoeMLP of width x count
    moe.shared_bias = dense.bias;
    moe.score_correction_bias = true;
    const i64 start = r.nonneg_int_or("moe_layer_start_index", 0);
    const json* end_v = r.raw("moe_layer_end_index");
    const i64 end = (end_v && end_v->is_number_integer() && end_v->get<i64>() == -1) ? L - 1
                                                                                      : r.nonneg_int_or("moe_layer_end_index", L - 1);
    const i64 interval = r.positive_int_or("moe_layer_interval", 1);
    for (i64 i = 0; i < L; ++i) out.push_back(((i + 1) % interval == 0 && i >= start && i <= end) ? moe : dense);
  } else if (t.moe == MoeRule::Cohere2Moe) {
    // Cohere2Moe (cohere2_moe/modular_cohere2_moe.py): a router of num_experts x h without bias (sigmoid or softmax
    // scores, no correction bias), MixtralExperts of intermediate_size, one shared MLP of intermediate_size x
    // num_shared_experts where that count is positive; dense MLPs of prefix_dense_intermediate_size (else
    // intermediate_size) on the first first_k_dense_replace layers (or mlp_layer_types' dense ones).
    moe.n_experts = r.positive_int("num_experts");
    moe.top_k = r.positive_int("num_experts_per_tok");
    check_top_k(r, "num_experts_per_tok", moe.top_k, moe.n_experts);
    moe.expert_intermediate = dense.intermediate;
    const i64 shared = r.nonneg_int_or("num_shared_experts", 0);
    moe.n_shared = shared > 0 ? 1 : 0;
    moe.shared_intermediate = (Count(dense.intermediate) * shared).v;
    FfnSpec prefix = dense;
    prefix.intermediate = r.positive_int_or("prefix_dense_intermediate_size", dense.intermediate);
    const std::vector<bool> routed = routed_layers(r, L);
    for (i64 i = 0; i < L; ++i) out.push_back(routed[static_cast<std::size_t>(i)] ? moe : prefix);
  } else if (t.moe == MoeRule::Hunyuan) {
    // Hunyuan (hunyuan_v1_moe/modular_hunyuan_v1_moe.py): on every layer a gate without bias, num_experts experts
    // and one shared MLP, all of intermediate_size; num_experts and moe_topk may be given per layer.
    const auto experts = per_layer_ints(r, "num_experts", L);
    const auto top_k = per_layer_ints(r, "moe_topk", L);
    moe.expert_intermediate = dense.intermediate;
    moe.n_shared = 1;
    moe.shared_intermediate = dense.intermediate;
    for (i64 i = 0; i < L; ++i) {
      FfnSpec f = moe;
      f.n_experts = experts[static_cast<std::size_t>(i)];
      f.top_k = top_k[static_cast<std::size_t>(i)];
      check_top_k(r, "moe_topk", f.top_k, f.n_experts);
      out.push_back(f);
    }
  }
  return out;
}

}  // namespace infercast
