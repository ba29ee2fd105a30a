// DeepSeek-V4's attention and hyper-connections (docs/formulas.md, "DeepSeek-V4"). Sources: transformers'
// models/deepseek_v4 (DeepseekV4Attention, its HCA and CSA compressors, DeepseekV4Indexer, DeepseekV4HyperConnection,
// DeepseekV4HyperHead) and SGLang's models/deepseek_v4.py (the MQA layer, its fused cache writes).
//
// Every token's query comes through the query latent; its one shared key-value vector (keys are the values) goes into
// the sliding window's cache. Compressed layers also pool every m tokens into one entry (a softmax over the window of
// m, or 2m overlapping ones under CSA, of gated projections), normalized, rotated and cached; the queries attend the
// window and all the pooled entries (HCA) or the index_topk an indexer picks (CSA). The indexer pools its own keys
// the same way and scores each query against every pooled key. The output's rotary part is rotated back and goes
// through the grouped projection: o_groups GEMMs of n_h*d/g -> o_lora_rank, then one to h.
//
// Pooled entries per position are counted fractionally, (p+1)/m (ops/geometry.cpp): a step of T tokens pools T/m
// entries, the mean over the m steps a pool spans. The attention is one fused operator, as FlashMLA's kernels run it.
#include "ops/builder.hpp"

#include <cmath>

#include "ops/geometry.hpp"

namespace infercast {

void add_compressed_attention(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const AttentionSpec& a = gs.g.spec.attn;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double c = static_cast<double>(n), T = gs.T, h = static_cast<double>(b.m.hidden);
  const double nh = static_cast<double>(a.n_heads), d = static_cast<double>(a.head_dim);
  const double rq = static_cast<double>(a.q_lora_rank), rope = static_cast<double>(a.rope_dim);
  const double g = static_cast<double>(a.o_groups), ro = static_cast<double>(a.o_lora_rank);
  const double sm = conv.softmax_flops_per_score + conv.score_scale_flops;
  const double bmm_minus = conv.gemm_minus_mn ? 1 : 0;
  const double norm = conv.rmsnorm_flops_per_element;
  b.wclass = WeightClass::Attention;

  b.gemm("q_a_proj", G, n, T, h, rq, false);
  b.elementwise("q_norm", G, n, T * rq, norm, 1, rq);
  b.gemm("q_b_proj", G, n, T, rq, nh * d, false);
  b.elementwise("q_head_norm", G, n, T * nh * d, norm, 1);  // per head, no weights
  b.gemm("kv_proj", G, n, T, h, d, false);
  b.elementwise("kv_norm", G, n, T * d, norm, 1, d);
  b.elementwise("rope", G, n, T * (nh + 1) * rope, conv.rope_flops_per_element, 1);
  {
    Op& op = b.add("kv_cache_write", G, OpClass::Memory, n);
    op.act_read_bytes = c * T * d * b.ab;
    op.kv_write_bytes = c * T * d * b.kb;
  }
  if (a.compress_ratio > 0) {
    const double m = static_cast<double>(a.compress_ratio), pooled = T / m;
    const bool csa = a.index_topk > 0;
    // The pool of a window: the gate plus its position bias, a softmax over the window's slots, the weighted sum
    // (about 6 operations per projected element), then the pooled entry's norm and RoPE.
    const auto pool = [&](const std::string& name, double width, double out_width) {
      b.gemm(name + "_kv_gate", G, n, T, h, 2 * width, false);
      Op& op = b.elementwise(name + "_pool", G, n, T * width, 6, 2, m * width);
      op.act_write_bytes = c * pooled * out_width * b.ab;
      b.elementwise(name + "_norm_rope", G, n, pooled * out_width,
                    norm + conv.rope_flops_per_element * rope / out_width, 1, out_width);
    };
    pool("compressor", (csa ? 2 : 1) * d, d);
    {
      Op& op = b.add("compressed_cache_write", G, OpClass::Memory, n);
      op.act_read_bytes = c * pooled * d * b.ab;
      op.kv_write_bytes = c * pooled * d * b.kb;
    }
    if (csa) {
      const double ih = static_cast<double>(a.index_heads), id = static_cast<double>(a.index_head_dim);
      const double key_bytes = index_key_bytes(a);
      pool("indexer", 2 * id, id);
      b.gemm("indexer_q (wq_b)", G, n, T, rq, ih * id, false);
      b.elementwise("indexer_q_rope", G, n, T * ih * rope, conv.rope_flops_per_element, 1);
      b.gemm("indexer_weights", G, n, T, h, ih, false);
      {
        Op& op = b.add("indexer_cache_write", G, OpClass::Memory, n);
        op.act_read_bytes = c * pooled * id * b.ab;
        op.kv_write_bytes = c * pooled * key_bytes;
      }
      {
        // Every query against every pooled key: per indexer head a d-wide fp8 dot product, ReLU, the head's weight.
        Op& op = b.add("indexer_scores", G, OpClass::Attention, n);
        op.compute = ComputeType::FP8;
        op.flops = c * gs.index_pairs * ih * (2 * id + 3);
        op.act_read_bytes = c * T * (ih * id + ih * 4);
        op.kv_read_bytes = c * gs.index_keys * key_bytes;
        op.act_write_bytes = c * gs.index_pairs * 4;
      }
      {
        Op& op = b.add("indexer_topk", G, OpClass::Elementwise, n);
        op.flops = c * gs.index_pairs;
        op.act_read_bytes = c * gs.index_pairs * 4;
        op.act_write_bytes = c * T * std::min(static_cast<double>(a.index_topk), gs.index_keys) * 4;
      }
    }
  }
  {
    // Queries against the window and the pooled entries; keys and values are one d-wide vector, read once.
    Op& op = b.add("attention", G, OpClass::Attention, n);
    const double qk = gs.pairs * nh * (2 * d - bmm_minus);
    const double av = gs.pairs * nh * 2 * d - (conv.gemm_minus_mn ? T * nh * d : 0);
    op.flops = c * (qk + av + gs.pairs * nh * sm);
    op.act_read_bytes = c * T * nh * d * b.ab;
    op.kv_read_bytes = c * gs.keys * d * b.kb;
    op.act_write_bytes = c * T * nh * d * b.ab;
    gs.finish_attention(b, op, nh * (4 * d + sm), c * gs.keys * d);
  }
  b.elementwise("o_rope_inverse", G, n, T * nh * rope, conv.rope_flops_per_element, 1);
  // The grouped projection: g matrices of (n_h*d/g) x o_lora_rank, each over its group of heads.
  b.gemm("o_a_proj (grouped)", G, n, T * g, nh * d / g, ro, false, g);
  b.gemm("o_b_proj", G, n, T, g * ro, h, false);
}

void add_hyper_connection(Builder& b, const GroupStep& gs, const std::string& site, bool collapse) {
  const LayerSpec& l = gs.g.spec;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double T = gs.T, h = static_cast<double>(b.m.hidden), s = static_cast<double>(l.hc_mult);
  const std::string name = "hc_" + site;
  b.wclass = WeightClass::Router;
  if (collapse) {
    // The streams' RMS (no weights), the mixing logits ((2 + n) n of them), their sigmoids with scale and base, and
    // Sinkhorn-Knopp's row and column normalizations of the n x n combination; then the weighted sum of the streams.
    b.elementwise(name + "_norm", G, n, T * s * h, b.norm_cost(), 1);
    b.gemm(name + "_mix", G, n, T, s * h, (2 + s) * s, false);
    Op& op = b.elementwise(name + "_weights", G, n, T * (2 + s) * s, b.s.convention.silu_flops_per_element + 2, 1, (2 + s) * s + 3);
    op.flops += static_cast<double>(n) * T * s * s * 4 * static_cast<double>(l.hc_sinkhorn_iters);
    b.elementwise(name + "_pre", G, n, T * h, 2 * s, s);
  } else {
    // Each stream: its post weight times the block's output plus its row of the combination over the streams.
    b.elementwise(name + "_post", G, n, T * s * h, 2 + 2 * s, (s + 1) / s);
  }
}

void add_hyper_head(Builder& b, double T) {
  const double h = static_cast<double>(b.m.hidden), s = static_cast<double>(b.m.hc_mult);
  b.wclass = WeightClass::Router;
  b.elementwise("hc_head_norm", "", 1, T * s * h, b.norm_cost(), 1);
  b.gemm("hc_head_mix", "", 1, T, s * h, s, false);
  b.elementwise("hc_head_pre", "", 1, T * h, 2 * s, s);
}

}  // namespace infercast
