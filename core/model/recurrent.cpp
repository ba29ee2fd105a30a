// Recurrent token mixers: their parameters and the state each keeps per sequence (docs/formulas.md, "Linear
// attention and state-space layers"). Sources: transformers' modeling_qwen3_next.py (Qwen3NextGatedDeltaNet),
// modeling_mamba2.py / modeling_bamba.py / modeling_nemotron_h.py / modeling_falcon_h1.py (Mamba2 mixers),
// modeling_jamba.py (JambaMambaMixer), modeling_minimax.py (MiniMaxLightningAttention); Kimi Delta Attention from
// moonshotai/Kimi-Linear-48B-A3B-Instruct's modeling_kimi.py (KimiDeltaAttention) and vLLM's
// model_executor/layers/kda.py.
#include "model/count.hpp"
#include "model/model.hpp"

namespace infercast {

const NameTable<RecurrentKind>& recurrent_kind_names() {
  static const NameTable<RecurrentKind> t(
      {{RecurrentKind::None, "none", "no recurrent mixer"},
       {RecurrentKind::GatedDeltaNet, "gated-deltanet", "gated DeltaNet linear attention (Qwen3-Next, Qwen3.5)"},
       {RecurrentKind::Mamba, "mamba", "Mamba selective state-space mixer (Mamba, Falcon Mamba, Jamba)"},
       {RecurrentKind::Mamba2, "mamba2", "Mamba2 state-space duality mixer (Mamba2, Bamba, Nemotron-H, Falcon-H1, Granite 4.0)"},
       {RecurrentKind::Lightning, "lightning", "lightning attention: linear attention with decay (MiniMax-01, M1)"},
       {RecurrentKind::ShortConv, "short-conv", "gated short convolution: B x, a depthwise causal conv, C times it (LFM2)"},
       {RecurrentKind::KimiDelta, "kda", "Kimi Delta Attention: gated DeltaNet with a decay per key channel (Kimi Linear)"},
       {RecurrentKind::RgLru, "rg-lru", "Griffin's recurrent block: a gated linear recurrence per channel (RecurrentGemma)"}});
  return t;
}

i64 recurrent_conv_channels(const RecurrentSpec& r) {
  if (r.conv_kernel <= 0) return 0;
  const Count inner = Count(r.heads) * r.head_dim;
  switch (r.kind) {
    case RecurrentKind::GatedDeltaNet:  // q and k of every key head, v of every value head
    case RecurrentKind::KimiDelta:      // q_conv1d, k_conv1d and v_conv1d: the same channels
    case RecurrentKind::Mamba2:         // x, then B and C of every group
      return (inner + Count(2) * r.groups * r.state_dim).v;
    case RecurrentKind::Mamba: return inner.v;  // x only; B, C and the time step come from x_proj after the conv
    case RecurrentKind::ShortConv: return inner.v;  // B x, every channel
    case RecurrentKind::RgLru: return inner.v;      // the x branch, every channel of lru_width
    default: return 0;
  }
}

i64 recurrent_state_elements(const RecurrentSpec& r) {
  if (r.kind == RecurrentKind::None || r.kind == RecurrentKind::ShortConv) return 0;  // a short conv keeps its window only
  return (Count(r.heads) * r.head_dim * r.state_dim).v;
}

i64 recurrent_conv_elements(const RecurrentSpec& r) {
  if (r.conv_kernel <= 1) return 0;
  return (Count(recurrent_conv_channels(r)) * (r.conv_kernel - 1)).v;
}

i64 recurrent_params(const RecurrentSpec& r, i64 hidden) {
  const Count h = hidden;
  const Count inner = Count(r.heads) * r.head_dim;
  const Count bc = Count(2) * r.groups * r.state_dim;  // B and C (Mamba2), q and k (gated DeltaNet)
  const Count conv_ch = recurrent_conv_channels(r);
  Count p = conv_ch * r.conv_kernel + (r.conv_bias ? conv_ch : Count(0));
  switch (r.kind) {
    case RecurrentKind::None: return 0;
    case RecurrentKind::GatedDeltaNet:
      // in_proj_qkvz (q, k, v and the output gate z) and in_proj_ba (beta and the decay input a, one per value
      // head), dt_bias and A_log per value head, the gated RMSNorm (one head_dim-wide weight shared by heads).
      p += h * (bc + Count(2) * inner) + h * (Count(2) * r.heads) + Count(2) * r.heads;
      if (r.norm) p += r.head_dim;
      p += inner * h;
      break;
    case RecurrentKind::KimiDelta:
      // q_proj and k_proj (every key head), v_proj (every value head); the decay per key channel through f_a_proj
      // (h x d_k) and f_b_proj (d_k x H*d_k), its dt_bias (H*d_k) and A_log (one per head); b_proj (beta, h x H);
      // the output gate through g_a_proj (h x d_v) and g_b_proj (d_v x I); o_norm (one d_v-wide weight shared by
      // the heads); o_proj. No biases.
      p += h * (bc + inner);
      p += h * r.state_dim + Count(r.state_dim) * r.heads * r.state_dim + Count(r.heads) * r.state_dim + r.heads;
      p += h * r.heads;
      p += h * r.head_dim + Count(r.head_dim) * inner;
      if (r.norm) p += r.head_dim;
      p += inner * h;
      break;
    case RecurrentKind::Mamba2:
      // in_proj to [z, x, B, C, dt]; dt_bias, A_log and D per head; the gated RMSNorm over d_inner.
      p += h * (Count(2) * inner + bc + r.heads) + (r.in_bias ? Count(2) * inner + bc + r.heads : Count(0));
      p += Count(3) * r.heads;
      if (r.norm) p += inner;
      p += inner * h + (r.out_bias ? h : Count(0));
      break;
    case RecurrentKind::Mamba:
      // in_proj to [x, z]; x_proj to [dt, B, C]; dt_proj (with bias); A_log (d_inner x N) and D.
      p += h * (Count(2) * inner) + (r.in_bias ? Count(2) * inner : Count(0));
      p += inner * (Count(r.dt_rank) + Count(2) * r.state_dim);
      p += Count(r.dt_rank) * inner + inner;
      p += inner * r.state_dim + inner;
      if (r.dt_norms && r.dt_norm_weights) p += Count(r.dt_rank) + Count(2) * r.state_dim;
      p += inner * h + (r.out_bias ? h : Count(0));
      break;
    case RecurrentKind::ShortConv:
      // Lfm2ShortConv: in_proj to [B, C, x] (3 conv_dim), the depthwise conv (counted above), out_proj; conv_bias
      // gives all three their biases.
      p += h * (Count(3) * inner) + (r.in_bias ? Count(3) * inner : Count(0));
      p += inner * h + (r.out_bias ? h : Count(0));
      break;
    case RecurrentKind::RgLru:
      // RecurrentGemmaRecurrentBlock: linear_y and linear_x (h -> W, with biases), the conv (counted above),
      // RG-LRU's recurrent_param (W) and its input and recurrence gates (block-diagonal: heads blocks of
      // head_dim x head_dim, with biases), linear_out (W -> h, with bias).
      p += Count(2) * (h * inner + (r.in_bias ? inner : Count(0)));
      p += inner + Count(2) * (Count(r.heads) * r.head_dim * r.head_dim + inner);
      p += inner * h + (r.out_bias ? h : Count(0));
      break;
    case RecurrentKind::Lightning:
      // qkv_proj, output_gate, the RMSNorm over all heads, out_proj (MiniMax: no biases); Ring-linear's q and k
      // norms, and its biases where use_qkv_bias / use_bias say (vLLM's BailingMoELinearAttention).
      p += h * (Count(3) * inner) + h * inner + (r.norm ? inner : Count(0)) + inner * h;
      p += (r.in_bias ? Count(3) * inner : Count(0)) + (r.out_bias ? h : Count(0));
      if (r.qk_norm) p += Count(2) * r.head_dim;
      break;
  }
  return p.v;
}

}  // namespace infercast
