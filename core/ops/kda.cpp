// Kimi Delta Attention (Kimi Linear; Moonshot AI, "Kimi Linear: An Expressive, Efficient Attention Architecture",
// 2025): gated DeltaNet whose decay is one value per key channel instead of one per head. Projections q, k, v (each
// followed by a short convolution with SiLU), the low-rank decay (f_a_proj, f_b_proj) and beta (b_proj), the
// delta-rule scan (fla's chunk_kda for prefill, fused_recurrent_kda for one-token steps), the low-rank output gate
// (g_a_proj, g_b_proj) into a sigmoid-gated RMSNorm, and o_proj (docs/formulas.md, "Kimi Delta Attention").
// Sources: moonshotai/Kimi-Linear-48B-A3B-Instruct's modeling_kimi.py (KimiDeltaAttention); vLLM's
// model_executor/layers/kda.py (vllm-project/vllm at 01a7e5d91d42e6232d746d12f898a590f1ee77f9) and its
// MambaStateDtypeCalculator.kda_state_dtype; fla-org/flash-linear-attention fla/ops/kda (chunk_fwd.py, chunk_intra.py,
// chunk_intra_token_parallel.py, wy_fast.py, fused_recurrent.py) at bc3b101dcb713ddc5bd8924b66754eb68b5ccf89.
#include "ops/recurrent.hpp"

namespace infercast {

void add_kda(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const RecurrentSpec& r = gs.g.spec.recurrent;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden);
  const double nv = static_cast<double>(r.heads), nk = static_cast<double>(r.groups);
  const double dk = static_cast<double>(r.state_dim), dv = static_cast<double>(r.head_dim);
  const double C = static_cast<double>(r.chunk);
  const double qk = 2 * nk * dk, inner = nv * dv, decay = nv * dk;

  // Three separate projections in the checkpoint and in vLLM (q_proj, k_proj, v_proj), three convolutions over
  // their outputs (one operator here: the same work).
  b.gemm("q_proj", G, n, T, h, nk * dk, false);
  b.gemm("k_proj", G, n, T, h, nk * dk, false);
  b.gemm("v_proj", G, n, T, h, inner, false);
  add_conv(b, gs, qk + inner);
  // The decay through a rank-d_k bottleneck (f_a_proj is replicated under tensor parallelism), beta per head.
  b.gemm("f_a_proj", G, n, T, h, dk, false);
  b.gemm("f_b_proj", G, n, T, dk, decay, false);
  b.gemm("b_proj", G, n, T, h, nv, false);
  // fused_kda_gate: g = -exp(A_log) softplus(f + dt_bias) per head and key channel; beta = sigmoid(b) per head.
  b.elementwise("gates", G, n, T * (decay + nv), 10, 1, decay + nv);
  // The delta rule per value head (fla, chunk C = 64). Chunked: A_qk and A_kk on the 10 lower-triangular 16 x 16
  // blocks, the decay folded into both operands (2 x 1.25 C^2 d_k); the triangular inverse (2/3 C^3); w and u
  // (2 C^2 (d_k + d_v)); the state across chunks (4 C d_k d_v) and its per-channel decay (d_k d_v); the output
  // (2 C d_k d_v + 2 C^2 d_v, A_qk already formed); the decay's cumulative sum and the decayed q and k the kernels
  // form (20 C d_k). Recurrent (one token): the per-channel decay (d_k exponentials and d_k d_v products), S^T k,
  // delta, rank-1 update and S^T q: 7 d_k d_v + 3 d_v + d_k. q and k L2-normalized in the kernel (3 per element).
  const double per_chunk = C * C * (4.5 * dk + 4 * dv) + 2.0 / 3.0 * C * C * C + 6 * C * dk * dv + dk * dv + 20 * C * dk;
  const double per_token = 7 * dk * dv + 3 * dv + dk;
  const double l2 = 3 * qk * (gs.chunked_tokens + gs.recurrent_tokens);
  const double flops = nv * (gs.chunks * per_chunk + gs.recurrent_tokens * per_token) + l2;
  // Inputs q, k, v, the decay g (one per key channel) and beta; output o. The chunked kernels also pass A_qk and A_kk
  // (C each per token and head), w, the decayed k and the cumulative g (d_k each), u and v_new (d_v each), and the
  // state of every chunk through memory.
  const double io_read = T * (qk + inner + decay + nv), io_write = T * inner;
  const double inter = gs.chunked_tokens * nv * (2 * C + 3 * dk + 2 * dv) + gs.chunks * nv * dk * dv;
  add_scan(b, gs, "kda_delta_rule", flops, io_read + inter, io_write + inter);
  // The output gate through a rank-d_v bottleneck (g_a_proj replicated), then o_norm: RMSNorm per head times
  // sigmoid(gate) (the sigmoid costs what SiLU's does, counted by the same convention).
  b.gemm("g_a_proj", G, n, T, h, dv, false);
  b.gemm("g_b_proj", G, n, T, dv, inner, false);
  b.elementwise("gated_norm", G, n, T * inner, conv.rmsnorm_flops_per_element + conv.silu_flops_per_element + 1, 2, dv);
  b.gemm("o_proj", G, n, T, inner, h, false);
}

}  // namespace infercast
