#include "model/model.hpp"

namespace infercast {

i64 ffn_params(i64 hidden, i64 width, bool gated, bool bias) {
  const i64 mats = gated ? 3 : 2;
  i64 p = mats * hidden * width;
  if (bias) p += (gated ? 2 * width : width) + hidden;
  return p;
}

i64 attention_params(const AttentionSpec& a, i64 h) {
  i64 p = 0;
  if (a.kind == AttnKind::MLA) {
    const i64 qdim = a.n_heads * (a.qk_nope_dim + a.qk_rope_dim);
    if (a.q_lora_rank > 0) {
      p += h * a.q_lora_rank + a.q_lora_rank + a.q_lora_rank * qdim;  // q_a_proj, q_a_layernorm, q_b_proj
    } else {
      p += h * qdim;  // q_proj
    }
    p += h * (a.kv_lora_rank + a.qk_rope_dim);                       // kv_a_proj_with_mqa
    p += a.kv_lora_rank;                                             // kv_a_layernorm
    p += a.kv_lora_rank * a.n_heads * (a.qk_nope_dim + a.v_head_dim);  // kv_b_proj
    p += a.n_heads * a.v_head_dim * h;                               // o_proj
  } else {
    const i64 q = a.n_heads * a.head_dim, k = a.n_kv_heads * a.head_dim, v = a.n_kv_heads * a.v_head_dim;
    p += h * (q + k + v) + a.n_heads * a.v_head_dim * h;
    if (a.qkv_bias) p += q + k + v;
  }
  if (a.o_bias) p += h;
  if (a.qk_norm && a.qk_norm_weight) p += 2 * a.head_dim;
  if (a.sinks) p += a.n_heads;
  return p;
}

ParamCounts count_params(const ModelSpec& m) {
  ParamCounts c;
  const i64 h = m.hidden;
  const i64 norm_w = (m.norm == NormKind::Layer && m.norm_bias) ? 2 * h : h;
  c.embedding = m.vocab * h;
  c.lm_head = m.tied_embeddings ? 0 : m.vocab * h;
  c.norms = norm_w;  // final norm
  i64 active_ffn = 0;
  for (const auto& L : m.layers) {
    c.attention += attention_params(L.attn, h);
    c.norms += L.norms * norm_w;
    const auto& f = L.ffn;
    if (!f.moe) {
      c.ffn_dense += ffn_params(h, f.intermediate, f.gated, f.bias);
      active_ffn += ffn_params(h, f.intermediate, f.gated, f.bias);
      continue;
    }
    i64 router = h * f.n_experts + (f.router_bias ? f.n_experts : 0) + (f.score_correction_bias ? f.n_experts : 0);
    const i64 expert = ffn_params(h, f.expert_intermediate, f.gated, f.expert_bias);
    const i64 shared = f.n_shared * ffn_params(h, f.shared_intermediate, f.gated, false) + (f.shared_gate ? h : 0);
    c.router += router;
    c.experts_routed += f.n_experts * expert;
    c.experts_shared += shared;
    active_ffn += router + f.top_k * expert + shared;
  }
  c.total = c.embedding + c.lm_head + c.norms + c.attention + c.ffn_dense + c.router + c.experts_routed +
            c.experts_shared;
  // The LM head is always active; when tied it is the embedding matrix, counted once as "embedding".
  c.active_no_embed = c.attention + c.norms + active_ffn + (m.tied_embeddings ? c.embedding : c.lm_head);
  c.active = c.active_no_embed + (m.tied_embeddings ? 0 : c.embedding);
  return c;
}

}  // namespace infercast
