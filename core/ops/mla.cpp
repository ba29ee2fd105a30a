// Multi-head latent attention (DeepSeek-V2/V3): the latent c_kv (kv_lora_rank) and the shared rotary key
// (qk_rope_dim) are cached; attention runs expanded (kv_b_proj rebuilds per-head keys and values) or absorbed
// (queries moved into the latent space), as serving engines choose per phase (docs/formulas.md, "MLA").
#include <algorithm>

#include "ops/builder.hpp"

#include "ops/geometry.hpp"

namespace infercast {

void add_mla(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const AttentionSpec& a = gs.g.spec.attn;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double c = static_cast<double>(n), T = gs.T, h = static_cast<double>(b.m.hidden);
  const double nh = static_cast<double>(a.n_heads), vhd = static_cast<double>(a.v_head_dim);
  const double ql = static_cast<double>(a.q_lora_rank), kvl = static_cast<double>(a.kv_lora_rank);
  const double nope = static_cast<double>(a.qk_nope_dim), rope = static_cast<double>(a.qk_rope_dim);
  const double sm = conv.softmax_flops_per_score + conv.score_scale_flops;
  const double bmm_minus = conv.gemm_minus_mn ? 1 : 0;
  b.wclass = WeightClass::Attention;

  if (a.q_lora_rank > 0) {
    b.gemm("q_a_proj", G, n, T, h, ql, false);
    b.elementwise("q_a_norm", G, n, T * ql, conv.rmsnorm_flops_per_element, 1, ql);
    b.gemm("q_b_proj", G, n, T, ql, nh * (nope + rope), false);
  } else {
    b.gemm("q_proj", G, n, T, h, nh * (nope + rope), false);
  }
  b.gemm("kv_a_proj", G, n, T, h, kvl + rope, false);
  b.elementwise("kv_a_norm", G, n, T * kvl, conv.rmsnorm_flops_per_element, 1, kvl);
  // RoPE on the rotary part of each query head and the shared key; a NoPE layer (Kimi Linear's mla_use_nope) keeps
  // those qk_rope_dim dimensions, cached and attended, but rotates none of them.
  if (a.rope_dim > 0) b.elementwise("rope", G, n, T * (nh + 1) * rope, conv.rope_flops_per_element, 1);
  {
    Op& op = b.add("kv_cache_write", G, OpClass::Memory, n);
    op.act_read_bytes = c * T * (kvl + rope) * b.ab;
    op.kv_write_bytes = c * T * mla_latent_bytes(a, b.kb);
  }
  if (a.index_topk > 0) add_indexer(b, gs);
  // Serving engines (vLLM, SGLang) expand for prefill and absorb for decode; Auto follows them, and in a step that
  // mixes the two it splits the batch as their MLA backends do: the decode tokens absorbed, the prefill work expanded
  // (kv_b_proj over the prefill requests' keys only). Sparse attention (DSA) runs absorbed in both phases: FlashMLA's
  // sparse kernels attend the latent of the selected keys.
  const auto absorbed = [&](const GroupStep& x) {
    // Queries move into latent space (W_UK), attention runs over the latent like MQA, and W_UV maps the latent
    // output back per head. One nope x kvl matrix per head; the call reads all nh of them.
    b.gemm("q_absorb (W_UK)", G, n, x.T * nh, nope, kvl, false, nh);
    Op& op = b.add("attention (latent)", G, OpClass::Attention, n);
    op.flops = c * (x.pairs * nh * (2 * (kvl + rope) - bmm_minus) + x.pairs * nh * 2 * kvl + x.pairs * nh * sm);
    op.act_read_bytes = c * x.T * nh * (kvl + rope) * b.ab;
    op.kv_read_bytes = c * x.keys * mla_latent_bytes(a, b.kb);
    op.act_write_bytes = c * x.T * nh * kvl * b.ab;
    x.finish_attention(b, op, nh * (2 * (kvl + rope) + 2 * kvl + sm), c * x.keys * (kvl + rope));
    b.gemm("v_up (W_UV)", G, n, x.T * nh, kvl, vhd, false, nh);
  };
  const auto expanded = [&](const GroupStep& x) {
    // kv_b_proj rebuilds per-head keys and values for every key the step attends to.
    Op& kvb = b.gemm("kv_b_proj", G, n, x.keys, kvl, nh * (nope + vhd), false);
    kvb.act_read_bytes = 0;
    kvb.kv_read_bytes = c * x.keys * mla_latent_bytes(a, b.kb);
    Op& op = b.add("attention", G, OpClass::Attention, n);
    op.flops = c * (x.pairs * nh * (2 * (nope + rope) - bmm_minus) + x.pairs * nh * 2 * vhd + x.pairs * nh * sm);
    op.act_read_bytes = c * (x.T * nh * (nope + rope) + x.keys * nh * (nope + vhd)) * b.ab;
    op.act_write_bytes = c * x.T * nh * vhd * b.ab;
    x.finish_attention(b, op, nh * (2 * (nope + rope) + 2 * vhd + sm), 0);
    if (needs_dequant(b.s.precision.kv, b.s.precision.activations)) {  // the latent is converted once, before kv_b_proj
      kvb.dequant_flops += 2 * c * x.keys * (kvl + rope);
      kvb.flops += 2 * c * x.keys * (kvl + rope);
    }
  };
  const bool all_absorbed = b.s.mla == MlaForm::Absorbed || (b.s.mla == MlaForm::Auto && (gs.decode_only || a.index_topk > 0));
  if (all_absorbed) {
    absorbed(gs);
  } else if (b.s.mla == MlaForm::Auto && gs.decode_part && gs.decode_T > 0 && gs.decode_T < gs.T) {
    GroupStep dec = gs, pre = gs;
    for (auto part : kGroupAttentionParts) {
      dec.*part = gs.decode_part->*part;
      pre.*part = std::max(0.0, gs.*part - gs.decode_part->*part);
    }
    dec.T = gs.decode_T;
    pre.T = gs.T - gs.decode_T;
    expanded(pre);
    absorbed(dec);
  } else {
    expanded(gs);
  }
  if (b.s.online_hadamard) b.elementwise("hadamard_o_in", G, n, T * nh * vhd, hadamard_flops_per_element(a.n_heads), 1);
  b.gemm("o_proj", G, n, T, nh * vhd, h, false);
}

}  // namespace infercast
