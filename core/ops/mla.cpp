// Multi-head latent attention (DeepSeek-V2/V3): the latent c_kv (kv_lora_rank) and the shared rotary key
// (qk_rope_dim) are cached; attention runs expanded (kv_b_proj rebuilds per-head keys and values) or absorbed
// (queries moved into the latent space), as serving engines choose per phase (docs/formulas.md, "MLA").
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
  b.elementwise("rope", G, n, T * (nh + 1) * rope, conv.rope_flops_per_element, 1);
  {
    Op& op = b.add("kv_cache_write", G, OpClass::Memory, n);
    op.act_read_bytes = c * T * (kvl + rope) * b.ab;
    op.kv_write_bytes = c * T * (kvl + rope) * b.kb;
  }
  if (a.index_topk > 0) add_indexer(b, gs);
  // Serving engines (vLLM, SGLang) expand for prefill and absorb for decode; Auto follows them. Sparse attention
  // (DSA) runs absorbed in both phases: FlashMLA's sparse kernels attend the latent of the selected keys.
  const bool absorbed =
      b.s.mla == MlaForm::Absorbed || (b.s.mla == MlaForm::Auto && (gs.decode_only || a.index_topk > 0));
  if (absorbed) {
    // Queries move into latent space (W_UK), attention runs over the latent like MQA, and W_UV maps the latent
    // output back per head. One nope x kvl matrix per head; the call reads all nh of them.
    b.gemm("q_absorb (W_UK)", G, n, T * nh, nope, kvl, false, nh);
    Op& op = b.add("attention (latent)", G, OpClass::Attention, n);
    op.flops = c * (gs.pairs * nh * (2 * (kvl + rope) - bmm_minus) + gs.pairs * nh * 2 * kvl + gs.pairs * nh * sm);
    op.act_read_bytes = c * T * nh * (kvl + rope) * b.ab;
    op.kv_read_bytes = c * gs.keys * (kvl + rope) * b.kb;
    op.act_write_bytes = c * T * nh * kvl * b.ab;
    gs.finish_attention(b, op, nh * (2 * (kvl + rope) + 2 * kvl + sm), c * gs.keys * (kvl + rope));
    b.gemm("v_up (W_UV)", G, n, T * nh, kvl, vhd, false, nh);
  } else {
    // Expanded: kv_b_proj rebuilds per-head keys and values for every key the step attends to.
    Op& kvb = b.gemm("kv_b_proj", G, n, gs.keys, kvl, nh * (nope + vhd), false);
    kvb.act_read_bytes = 0;
    kvb.kv_read_bytes = c * gs.keys * (kvl + rope) * b.kb;
    Op& op = b.add("attention", G, OpClass::Attention, n);
    op.flops = c * (gs.pairs * nh * (2 * (nope + rope) - bmm_minus) + gs.pairs * nh * 2 * vhd + gs.pairs * nh * sm);
    op.act_read_bytes = c * (T * nh * (nope + rope) + gs.keys * nh * (nope + vhd)) * b.ab;
    op.act_write_bytes = c * T * nh * vhd * b.ab;
    gs.finish_attention(b, op, nh * (2 * (nope + rope) + 2 * vhd + sm), 0);
    if (needs_dequant(b.s.precision.kv, b.s.precision.activations)) {  // the latent is converted once, before kv_b_proj
      kvb.dequant_flops += 2 * c * gs.keys * (kvl + rope);
      kvb.flops += 2 * c * gs.keys * (kvl + rope);
    }
  }
  if (b.s.online_hadamard) b.elementwise("hadamard_o_in", G, n, T * nh * vhd, hadamard_flops_per_element(a.n_heads), 1);
  b.gemm("o_proj", G, n, T, nh * vhd, h, false);
}

}  // namespace infercast
