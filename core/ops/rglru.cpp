// Griffin's recurrent block (De et al., "Griffin", 2024; transformers' modeling_recurrent_gemma.py,
// RecurrentGemmaRecurrentBlock and RecurrentGemmaRglru): the y branch is linear_y and a GeLU; the x branch is
// linear_x, a depthwise causal convolution (no activation) and the RG-LRU, whose input and recurrence gates are
// block-diagonal matmuls (heads blocks of head_dim x head_dim); y times the recurrence's output goes through
// linear_out. The state is one value per channel (fp32) and the convolution's window (docs/formulas.md, "Linear
// attention and state-space layers").
#include "ops/recurrent.hpp"

namespace infercast {

void add_rglru(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const RecurrentSpec& r = gs.g.spec.recurrent;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden);
  const double W = static_cast<double>(r.heads) * static_cast<double>(r.head_dim), bw = static_cast<double>(r.head_dim);
  b.gemm("linear_y", G, n, T, h, W, r.in_bias);
  b.gemm("linear_x", G, n, T, h, W, r.in_bias);
  add_conv(b, gs, W, false);
  // Both gates at once: every token's block of head_dim channels times its head_dim x head_dim block, with biases.
  b.gemm("rg_lru_gates", G, n, T, bw, 2 * W, true);
  // Per channel and token: the two sigmoids (4 each), softplus of recurrent_param times -8 r (3), exp (1),
  // sqrt(1 - a^2) (3), x times the input gate and the multiplier (2), the update a h + x' (2).
  const double flops = T * W * (2 * 4 + 3 + 1 + 3 + 2 + 2);
  add_scan(b, gs, "rg_lru", flops, T * 3 * W, T * W);
  b.elementwise("gelu_gate", G, n, T * W, conv.gelu_flops_per_element + 1, 2);  // GeLU(y) times the recurrence
  b.gemm("linear_out", G, n, T, W, h, r.out_bias);
}

}  // namespace infercast
