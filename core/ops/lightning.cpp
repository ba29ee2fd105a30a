// Lightning attention (MiniMax-01 and M1; Qin et al., "Lightning Attention-2", 2024): linear attention with a
// per-head decay, computed in blocks for prefill (within a block as masked attention, across blocks through the
// d x d state) and as a state update per token in decode (docs/formulas.md, "Lightning attention"). Source:
// transformers' modeling_minimax.py (MiniMaxLightningAttention).
#include "ops/recurrent.hpp"

namespace infercast {

void add_lightning(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const RecurrentSpec& r = gs.g.spec.recurrent;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden);
  const double H = static_cast<double>(r.heads), d = static_cast<double>(r.head_dim);
  const double B = static_cast<double>(r.chunk);
  const double inner = H * d;

  b.gemm("qkv_proj", G, n, T, h, 3 * inner, r.in_bias);
  if (r.qkv_act) b.elementwise("qkv_act", G, n, T * 3 * inner, b.act_cost(), 1);
  if (r.qk_norm) b.elementwise("qk_norm", G, n, T * 2 * inner, b.norm_cost(), 1, 2 * d);
  // Per head, a block of B tokens: Q K^T and its product with V under the decay mask (4 B^2 d + B^2), the
  // queries against the carried state (2 B d^2 + B d), the state update K^T V (2 B d^2 + d^2). One token:
  // k^T v, the decayed state and q S (5 d^2).
  const double per_block = 4 * B * B * d + B * B + 4 * B * d * d + B * d + d * d;
  const double flops = H * (gs.chunks * per_block + gs.recurrent_tokens * 5 * d * d);
  const double inter = gs.chunks * H * d * d;  // each block's state through memory
  add_scan(b, gs, "lightning_attention", flops, T * 3 * inner + inter, T * inner + inter);
  b.elementwise("norm_out", G, n, T * inner, conv.rmsnorm_flops_per_element, 1, inner);
  b.gemm("output_gate", G, n, T, h, inner, false);
  b.elementwise("gate_mul", G, n, T * inner, conv.silu_flops_per_element + 1, 2);
  b.gemm("out_proj", G, n, T, inner, h, r.out_bias);
}

}  // namespace infercast
