// LFM2's gated short convolution (Liquid AI, LFM2; transformers' modeling_lfm2.py, Lfm2ShortConv): in_proj splits
// into B, C and x; B x goes through a depthwise causal convolution of L_cache taps (no activation); C gates its
// output; out_proj. Its only state is the convolution's window of the last L_cache - 1 inputs per sequence
// (docs/formulas.md, "Linear attention and state-space layers").
#include "ops/recurrent.hpp"

namespace infercast {

void add_short_conv(Builder& b, const GroupStep& gs) {
  const RecurrentSpec& r = gs.g.spec.recurrent;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden);
  const double inner = static_cast<double>(r.heads) * static_cast<double>(r.head_dim);
  b.gemm("in_proj", G, n, T, h, 3 * inner, r.in_bias);
  b.elementwise("bx_gate", G, n, T * inner, 1, 2);
  add_conv(b, gs, inner, false);
  b.elementwise("cy_gate", G, n, T * inner, 1, 2);
  b.gemm("out_proj", G, n, T, inner, h, r.out_bias);
}

}  // namespace infercast
