// Gated DeltaNet (Qwen3-Next, Qwen3.5; Yang et al., "Gated Delta Networks", ICLR 2025): projections, the short
// convolution over q, k and v, the gates, the delta-rule scan (fla's chunked kernel for prefill, its fused
// recurrent kernel for one-token steps), the gated RMSNorm and out_proj (docs/formulas.md, "Gated DeltaNet").
// Sources: transformers' modeling_qwen3_next.py; fla-org/flash-linear-attention fla/ops/gated_delta_rule
// (chunk_fwd.py, wy_fast.py, chunk.py, fused_recurrent.py).
#include "ops/recurrent.hpp"

namespace infercast {

void add_deltanet(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const RecurrentSpec& r = gs.g.spec.recurrent;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden);
  const double nv = static_cast<double>(r.heads), nk = static_cast<double>(r.groups);
  const double dk = static_cast<double>(r.state_dim), dv = static_cast<double>(r.head_dim);
  const double C = static_cast<double>(r.chunk);
  const double qk = 2 * nk * dk, inner = nv * dv;

  b.gemm("in_proj_qkvz", G, n, T, h, qk + 2 * inner, false);
  b.gemm("in_proj_ba", G, n, T, h, 2 * nv, false);
  add_conv(b, gs, qk + inner);
  // beta = sigmoid(b) and the decay g = -exp(A_log) softplus(a + dt_bias), per value head and token.
  b.elementwise("gates", G, n, T * nv, 10, 2, 2 * nv);
  // The delta rule per value head. Chunked (fla, chunk C = 64): K K^T on the 10 lower-triangular 16 x 16 blocks
  // (1.25 C^2 d_k), the triangular inverse (2/3 C^3), w and u (2 C^2 (d_k + d_v)), the state across chunks
  // (4 C d_k d_v), the output (2 C d_k d_v + 2 C^2 (d_k + d_v)); q and k L2-normalized (3 per element).
  // Recurrent (one token): decay, S^T k, delta, rank-1 update and S^T q: 7 d_k d_v + 3 d_v.
  const double per_chunk = C * C * (5.25 * dk + 4 * dv) + 2.0 / 3.0 * C * C * C + 6 * C * dk * dv;
  const double per_token = 7 * dk * dv + 3 * dv;
  const double l2 = 3 * qk * (gs.chunked_tokens + gs.recurrent_tokens);
  const double flops = nv * (gs.chunks * per_chunk + gs.recurrent_tokens * per_token) + l2;
  // Inputs q, k, v, g and beta; output o. The chunked kernels also pass A (C per token and head), w, u and v_new,
  // and the state of every chunk through memory.
  const double io_read = T * (qk + inner + 2 * nv), io_write = T * inner;
  const double inter = gs.chunked_tokens * nv * (C + dk + 2 * dv) + gs.chunks * nv * dk * dv;
  add_scan(b, gs, "gated_delta_rule", flops, io_read + inter, io_write + inter);
  // Gated RMSNorm per value head, then SiLU(z) times it.
  b.elementwise("gated_norm", G, n, T * inner, conv.rmsnorm_flops_per_element + conv.silu_flops_per_element + 1, 2, dv);
  b.gemm("out_proj", G, n, T, inner, h, false);
}

}  // namespace infercast
