#include "ops/layers.hpp"

#include <tuple>

namespace infercast {

namespace {

// Every field of an AttentionSpec, bound by position: a field added to AttentionSpec and not named here
// does not compile.
auto fields_of(const AttentionSpec& x) {
  const auto& [kind, n_heads, n_kv_heads, head_dim, v_head_dim, q_lora_rank, kv_lora_rank, qk_nope_dim, qk_rope_dim, rope_dim, window, chunk, qkv_bias, o_bias, qk_norm, qk_norm_weight, qk_norm_full, sinks, fused_qkv, output_gate, head_gate, cross, index_topk, index_heads, index_head_dim, index_block, kv_shared, kv_weights_kept, k_eq_v, v_norm, compress_ratio, o_groups, o_lora_rank] = x;
  return std::tie(kind, n_heads, n_kv_heads, head_dim, v_head_dim, q_lora_rank, kv_lora_rank, qk_nope_dim, qk_rope_dim, rope_dim, window, chunk, qkv_bias, o_bias, qk_norm, qk_norm_weight, qk_norm_full, sinks, fused_qkv, output_gate, head_gate, cross, index_topk, index_heads, index_head_dim, index_block, kv_shared, kv_weights_kept, k_eq_v, v_norm, compress_ratio, o_groups, o_lora_rank);
}

// Every field of a RecurrentSpec, bound by position: a field added to RecurrentSpec and not named here
// does not compile.
auto fields_of(const RecurrentSpec& x) {
  const auto& [kind, heads, groups, head_dim, state_dim, conv_kernel, dt_rank, chunk, in_bias, out_bias, conv_bias, norm, dt_norms, dt_norm_weights, state_bits, qk_norm, qkv_act] = x;
  return std::tie(kind, heads, groups, head_dim, state_dim, conv_kernel, dt_rank, chunk, in_bias, out_bias, conv_bias, norm, dt_norms, dt_norm_weights, state_bits, qk_norm, qkv_act);
}

// A group's label for its recurrent mixer: a switch without a default, so a kind added without a label is a
// compiler warning, never an index past a table.
const char* recurrent_label(RecurrentKind k) {
  switch (k) {
    case RecurrentKind::None: return "";
    case RecurrentKind::GatedDeltaNet: return "gated DeltaNet";
    case RecurrentKind::Mamba: return "Mamba";
    case RecurrentKind::Mamba2: return "Mamba2";
    case RecurrentKind::Lightning: return "lightning";
    case RecurrentKind::ShortConv: return "short conv";
    case RecurrentKind::KimiDelta: return "KDA";
    case RecurrentKind::RgLru: return "RG-LRU";
  }
  return "";
}

// Every field of a FfnSpec, bound by position: a field added to FfnSpec and not named here
// does not compile.
auto fields_of(const FfnSpec& x) {
  const auto& [moe, gated, bias, fused_gate_up, intermediate, n_experts, top_k, expert_intermediate, zero_experts, n_shared, shared_intermediate, shared_gate, shared_bias, router_bias, expert_bias, score_correction_bias, hash_routed, router_scales, gaussian_topk, act_params, latent] = x;
  return std::tie(moe, gated, bias, fused_gate_up, intermediate, n_experts, top_k, expert_intermediate, zero_experts, n_shared, shared_intermediate, shared_gate, shared_bias, router_bias, expert_bias, score_correction_bias, hash_routed, router_scales, gaussian_topk, act_params, latent);
}

// Every field of a LayerSpec, bound by position: a field added to LayerSpec and not named here
// does not compile.
auto fields_of(const LayerSpec& x) {
  const auto& [attn, recurrent, ffn, norms, parallel, has_attention, has_ffn, sub_norms, per_layer_input, laurel_rank, altup, layer_scalar, hc_mult, hc_sinkhorn_iters] = x;
  return std::make_tuple(fields_of(attn), fields_of(recurrent), fields_of(ffn), norms, parallel, has_attention, has_ffn,
                         sub_norms, per_layer_input, laurel_rank, altup, layer_scalar, hc_mult, hc_sinkhorn_iters);
}

std::string label_of(const LayerSpec& l) {
  std::string attn;
  if (l.has_attention) {
    if (l.attn.kind == AttnKind::Compressed && l.attn.compress_ratio > 0)
      attn = (l.attn.index_topk > 0 ? "CSA 1/" : "HCA 1/") + std::to_string(l.attn.compress_ratio);
    else if (l.attn.window > 0) attn = "sliding " + std::to_string(l.attn.window);
    else if (l.attn.chunk > 0) attn = "chunked " + std::to_string(l.attn.chunk);
    else if (l.attn.kind == AttnKind::MLA) attn = "MLA";
    else if (l.attn.cross) attn = "cross";
    else attn = "full";
    if (l.attn.rope_dim == 0 && l.attn.kind != AttnKind::Compressed && !l.attn.cross) attn += " NoPE";
    if (l.attn.index_topk > 0) attn += " top-" + std::to_string(l.attn.index_topk);
    if (l.attn.kv_shared) attn += " shared KV";
  }
  const std::string rec = recurrent_label(l.recurrent.kind);
  std::string mixer = rec.empty() ? attn : (attn.empty() ? rec : rec + " + " + attn);
  if (!l.has_ffn) return mixer.empty() ? "identity" : mixer;
  const std::string ffn = l.ffn.moe ? "MoE" : "dense";
  return mixer.empty() ? ffn : ffn + ", " + mixer;
}

}  // namespace

bool same_layer(const LayerSpec& a, const LayerSpec& b) { return fields_of(a) == fields_of(b); }

std::vector<LayerGroup> group_layers(const ModelSpec& m) {
  std::vector<LayerGroup> groups;
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const LayerSpec& l = m.layers[i];
    std::size_t g = groups.size();
    for (std::size_t k = 0; k < groups.size() && g == groups.size(); ++k)
      if (same_layer(groups[k].spec, l)) g = k;
    if (g == groups.size()) groups.push_back(LayerGroup{l, 0, label_of(l), {}});
    groups[g].count += 1;
    groups[g].layers.push_back(static_cast<i64>(i));
  }
  return groups;
}

}  // namespace infercast
