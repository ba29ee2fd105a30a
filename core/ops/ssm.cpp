// State-space mixers: Mamba2 (state space duality; Dao & Gu 2024) as in Nemotron-H, Falcon-H1, Granite 4.0 and
// Bamba, and Mamba (selective scan; Gu & Dao 2023) as in Jamba (docs/formulas.md, "Mamba2" and "Mamba").
// Sources: transformers' modeling_mamba2.py, modeling_bamba.py, modeling_nemotron_h.py, modeling_falcon_h1.py,
// modeling_jamba.py; state-spaces/mamba's ssd_combined.py (chunk state, state passing, chunk scan) and
// selective_state_update.
#include "ops/recurrent.hpp"

namespace infercast {

void add_mamba2(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const RecurrentSpec& r = gs.g.spec.recurrent;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden);
  const double H = static_cast<double>(r.heads), P = static_cast<double>(r.head_dim);
  const double N = static_cast<double>(r.state_dim), Gr = static_cast<double>(r.groups);
  const double Q = static_cast<double>(r.chunk);
  const double inner = H * P, bc = 2 * Gr * N;

  b.gemm("in_proj", G, n, T, h, 2 * inner + bc + H, r.in_bias);  // z, x, B, C, dt
  add_conv(b, gs, inner + bc);
  // dt = softplus(dt + dt_bias) and exp(dt A) per head and token.
  b.elementwise("dt_softplus", G, n, T * H, 6, 1, 2 * H);
  // SSD per chunk of Q tokens: C B^T per group (2 Q^2 N), the decay mask (2 Q^2 per head), the intra-chunk output
  // (2 Q^2 P), the chunk's state B^T x (2 Q N P), the state passed between chunks (2 N P) and the output from the
  // states (2 Q N P), and the D skip (2 Q P). One token (selective_state_update): decay, B x, the update and C h
  // per head: 6 N P + 2 P.
  const double per_chunk = 2 * Gr * Q * Q * N + H * (2 * Q * Q + 2 * Q * Q * P + 4 * Q * N * P + 2 * N * P + 2 * Q * P);
  const double per_token = H * (6 * N * P + 2 * P);
  const double flops = gs.chunks * per_chunk + gs.recurrent_tokens * per_token;
  // x, B, C, dt in, y out; the chunked kernels write each chunk's states (fp32: 2 elements of the activation type)
  // and read them twice (state passing, chunk scan), and C B^T once.
  const double io_read = T * (inner + bc + H), io_write = T * inner;
  const double inter_w = gs.chunks * (2 * H * P * N + Gr * Q * Q), inter_r = gs.chunks * (4 * H * P * N + Gr * Q * Q);
  add_scan(b, gs, "ssd_scan", flops, io_read + inter_r, io_write + inter_w);
  if (r.norm)
    b.elementwise("gated_norm", G, n, T * inner, conv.rmsnorm_flops_per_element + conv.silu_flops_per_element + 1, 2, inner);
  else
    b.elementwise("gate", G, n, T * inner, conv.silu_flops_per_element + 1, 2);
  b.gemm("out_proj", G, n, T, inner, h, r.out_bias);
}

void add_mamba(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const RecurrentSpec& r = gs.g.spec.recurrent;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden);
  const double D = static_cast<double>(r.heads * r.head_dim), N = static_cast<double>(r.state_dim);
  const double R = static_cast<double>(r.dt_rank);

  b.gemm("in_proj", G, n, T, h, 2 * D, r.in_bias);  // x, z
  add_conv(b, gs, D);
  b.gemm("x_proj", G, n, T, D, R + 2 * N, false);  // dt, B, C
  if (r.dt_norms)
    b.elementwise("dt_B_C_norms", G, n, T * (R + 2 * N), conv.rmsnorm_flops_per_element, 1, R + 2 * N).dispatches =
        3 * static_cast<double>(n);
  b.gemm("dt_proj", G, n, T, R, D, true);
  // The selective scan per channel and token, prefill and decode alike (selective_scan_fwd runs the recurrence):
  // softplus(dt), exp(dt A) and dt B x (4 N), the update (2 N), C h (2 N), D x and the SiLU(z) gate.
  const double flops = T * D * (8 * N + 6 + conv.silu_flops_per_element);
  add_scan(b, gs, "selective_scan", flops, T * (3 * D + 2 * N), T * D);
  b.gemm("out_proj", G, n, T, D, h, r.out_bias);
}

}  // namespace infercast
