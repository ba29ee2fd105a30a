// Standard attention (MHA, GQA, MQA; windows, chunks, NoPE layers, q/k norms, sinks): projections, RoPE, the cache
// write, fused or unfused attention, the output projection (docs/formulas.md, "Attention").
#include "ops/builder.hpp"

#include "ops/geometry.hpp"

namespace infercast {

// MiniMax-M3's block indexer (vLLM's MiniMaxM3SparseAttention): index_q and index_k come out of the qkv GEMM, are
// normalized per head and rotated; every query scores every cached index key (per index head a d_i-wide dot
// product and the block's running max), and the best index_topk / index_block blocks are kept.
void add_block_indexer(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const AttentionSpec& a = gs.g.spec.attn;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double c = static_cast<double>(n), T = gs.T, h = static_cast<double>(b.m.hidden);
  const double ih = static_cast<double>(a.index_heads), id = static_cast<double>(a.index_head_dim);
  const double key_bytes = index_key_bytes(a), blocks = static_cast<double>(a.index_topk / a.index_block);
  b.gemm("indexer_qk", G, n, T, h, (ih + 1) * id, false);
  b.elementwise("indexer_norm", G, n, T * (ih + 1) * id, b.norm_cost(), 1, 2 * id);
  b.elementwise("indexer_rope", G, n, T * (ih + 1) * static_cast<double>(a.rope_dim), conv.rope_flops_per_element, 1);
  {
    Op& op = b.add("indexer_cache_write", G, OpClass::Memory, n);
    op.act_read_bytes = c * T * id * b.ab;
    op.kv_write_bytes = c * T * key_bytes;
  }
  {
    Op& op = b.add("indexer_scores", G, OpClass::Attention, n);
    op.flops = c * gs.index_pairs * ih * (2 * id + 1);
    op.act_read_bytes = c * T * ih * id * b.ab;
    op.kv_read_bytes = c * gs.index_keys * key_bytes;
    op.act_write_bytes = c * gs.index_pairs / static_cast<double>(a.index_block) * 4;  // one fp32 score a block
  }
  {
    Op& op = b.add("indexer_topk", G, OpClass::Elementwise, n);
    op.flops = c * gs.index_pairs / static_cast<double>(a.index_block);
    op.act_read_bytes = c * gs.index_pairs / static_cast<double>(a.index_block) * 4;
    op.act_write_bytes = c * T * blocks * 4;
  }
}

namespace {

// The attention kernel over the step's (query, key) pairs and cached keys: fused (flash), or scores, softmax and
// the weighted sum of values apart.
void add_attention_kernel(Builder& b, const GroupStep& gs, double nh, double nkv, double hd, double vhd) {
  const Convention& conv = b.s.convention;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double c = static_cast<double>(n), T = gs.T;
  const double sm = conv.softmax_flops_per_score + conv.score_scale_flops;
  const double bmm_minus = conv.gemm_minus_mn ? 1 : 0;
  const double qk_flops = gs.pairs * nh * (2 * hd - bmm_minus);
  const double av_flops = gs.pairs * nh * (2 * vhd) - (conv.gemm_minus_mn ? T * nh * vhd : 0);
  const double kv_read = gs.keys * nkv * (hd + vhd) * b.kb;
  if (b.s.attention == AttnImpl::Fused) {
    Op& op = b.add("attention", G, OpClass::Attention, n);
    op.flops = c * (qk_flops + av_flops + gs.pairs * nh * sm);
    op.act_read_bytes = c * T * nh * hd * b.ab;
    op.kv_read_bytes = c * kv_read;
    op.act_write_bytes = c * T * nh * vhd * b.ab;
    gs.finish_attention(b, op, nh * (2 * hd + 2 * vhd + sm), c * gs.keys * nkv * (hd + vhd));
  } else {
    // The scores go through memory in the runtime's score type: F32 in ggml (ggml_mul_mat writes F32, softmax
    // keeps it), the activations' type elsewhere.
    const double sb = b.s.score_bytes > 0 ? b.s.score_bytes : b.ab;
    Op& qk = b.add("attn_scores", G, OpClass::Attention, n);
    qk.flops = c * (qk_flops + gs.pairs * nh * conv.score_scale_flops);
    qk.act_read_bytes = c * T * nh * hd * b.ab;
    qk.kv_read_bytes = c * gs.keys * nkv * hd * b.kb;
    qk.act_write_bytes = c * gs.pairs * nh * sb;
    gs.finish_attention(b, qk, nh * 2 * hd, c * gs.keys * nkv * hd);
    Op& softmax = b.elementwise("softmax", G, n, gs.pairs * nh, conv.softmax_flops_per_score, 1);
    softmax.act_read_bytes = softmax.act_write_bytes = c * gs.pairs * nh * sb;
    Op& av = b.add("attn_av", G, OpClass::Attention, n);
    av.flops = c * av_flops;
    av.act_read_bytes = c * gs.pairs * nh * sb;
    av.kv_read_bytes = c * gs.keys * nkv * vhd * b.kb;
    av.act_write_bytes = c * T * nh * vhd * b.ab;
    gs.finish_attention(b, av, nh * 2 * vhd, c * gs.keys * nkv * vhd);
  }
}

}  // namespace

void add_attention(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const AttentionSpec& a = gs.g.spec.attn;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double c = static_cast<double>(n), T = gs.T, h = static_cast<double>(b.m.hidden);
  const double nh = static_cast<double>(a.n_heads), nkv = static_cast<double>(a.n_kv_heads);
  const double hd = static_cast<double>(a.head_dim), vhd = static_cast<double>(a.v_head_dim);
  b.wclass = WeightClass::Attention;

  // A layer sharing an earlier layer's cache computes queries only (Gemma 3n, Gemma 4): no k/v projections,
  // k-norm, key RoPE or cache write; its attention reads the shared cache.
  const double knew = a.kv_shared ? 0 : nkv;
  if (a.fused_qkv) {
    b.gemm("qkv_proj", G, n, T, h, nh * hd + nkv * (hd + vhd), a.qkv_bias);
  } else {
    b.gemm("q_proj", G, n, T, h, (a.output_gate ? 2 : 1) * nh * hd, a.qkv_bias);  // and the output gate
    if (!a.kv_shared) b.gemm("k_proj", G, n, T, h, nkv * hd, a.qkv_bias);
    if (!a.kv_shared && !a.k_eq_v) b.gemm("v_proj", G, n, T, h, nkv * vhd, a.qkv_bias);
  }
  if (a.qk_norm)
    b.elementwise("qk_norm", G, n, T * (nh + knew) * hd, b.norm_cost(), 1,
                  a.qk_norm_weight ? (a.qk_norm_full ? (nh + knew) * hd : (a.kv_shared ? 1 : 2) * hd) : 0)
        .dispatches = (a.kv_shared ? 1 : 2) * c;
  if (a.v_norm && !a.kv_shared) b.elementwise("v_norm", G, n, T * nkv * vhd, b.norm_cost(), 1);
  if (a.rope_dim > 0)
    b.elementwise("rope", G, n, T * (nh + knew) * static_cast<double>(a.rope_dim), conv.rope_flops_per_element, 1)
        .dispatches = (conv.split_rope_and_cache_write && !a.kv_shared ? 2 : 1) * c;  // queries and keys apart, or one kernel
  if (b.s.online_hadamard)
    b.elementwise("hadamard_qk", G, n, T * (nh + knew) * hd, hadamard_flops_per_element(a.head_dim), 1);
  if (a.index_topk > 0 && a.index_block > 0) add_block_indexer(b, gs);
  if (!a.kv_shared) {
    Op& op = b.add("kv_cache_write", G, OpClass::Memory, n);
    op.act_read_bytes = c * T * nkv * (hd + vhd) * b.ab;
    op.kv_write_bytes = c * T * nkv * (hd + vhd) * b.kb;
    if (conv.split_rope_and_cache_write) op.dispatches = 2 * c;  // keys and values apart
  }
  add_attention_kernel(b, gs, nh, nkv, hd, vhd);
  if (a.output_gate) b.elementwise("output_gate", G, n, T * nh * vhd, conv.silu_flops_per_element + 1, 2);  // o * sigmoid(g)
  if (a.head_gate) {  // Step-3.7: one gate a head, g_proj from the layer's input
    b.gemm("g_proj (head gate)", G, n, T, h, nh, false);
    b.elementwise("head_gate", G, n, T * nh * vhd, 1, 1).flops += c * T * nh * conv.silu_flops_per_element;
  }
  if (b.s.online_hadamard) b.elementwise("hadamard_o_in", G, n, T * nh * vhd, hadamard_flops_per_element(a.n_heads), 1);
  if (gs.g.spec.sub_norms)  // BitNet's attn_sub_norm (sized hidden_size, which n_h x d equals in its checkpoints)
    b.elementwise("attn_sub_norm", G, n, T * nh * vhd, b.norm_cost(), 1, h * norm_vectors(b.m));
  b.gemm("o_proj", G, n, T, nh * vhd, h, a.o_bias);
}

// Llama 3.2 Vision's cross-attention (MllamaTextCrossAttention): queries from the step's tokens with a per-head
// q_norm and no RoPE; keys and values projected from the image tokens (already at the text width) with a per-head
// k_norm, once per new prompt, and kept in the cache; every query attends all of its sequence's image tokens; the
// attention's and the MLP's outputs are scaled by tanh of their gates.
void add_cross_attention(Builder& b, const GroupStep& gs) {
  const AttentionSpec& a = gs.g.spec.attn;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double c = static_cast<double>(n), T = gs.T, h = static_cast<double>(b.m.hidden), X = gs.cross_new;
  const double nh = static_cast<double>(a.n_heads), nkv = static_cast<double>(a.n_kv_heads);
  const double hd = static_cast<double>(a.head_dim), vhd = static_cast<double>(a.v_head_dim);
  b.wclass = WeightClass::Attention;
  b.gemm("q_proj", G, n, T, h, nh * hd, false);
  b.elementwise("q_norm", G, n, T * nh * hd, b.norm_cost(), 1, hd);
  if (X > 0) {
    b.gemm("cross_k_proj", G, n, X, h, nkv * hd, false);
    b.gemm("cross_v_proj", G, n, X, h, nkv * vhd, false);
    b.elementwise("k_norm", G, n, X * nkv * hd, b.norm_cost(), 1, hd);
    Op& op = b.add("cross_kv_cache_write", G, OpClass::Memory, n);
    op.act_read_bytes = c * X * nkv * (hd + vhd) * b.ab;
    op.kv_write_bytes = c * X * image_kv_bytes_per_token(a, b.kb);
  }
  add_attention_kernel(b, gs, nh, nkv, hd, vhd);
  b.gemm("o_proj", G, n, T, nh * vhd, h, false);
  b.elementwise("cross_attn_gates", G, n, 2 * T * h, 1, 1, 2);  // tanh(gate) x output, for attention and MLP
}

}  // namespace infercast
