// DeepSeek sparse attention's lightning indexer (DeepSeek-V3.2): per token a small multi-head query from the query
// latent, one key (cached in fp8 with an fp32 scale per 128 values) and a weight per indexer head; every query
// scores every cached key (ReLU of the dot product, weighted over the heads, in fp8) and keeps its index_topk best,
// which the MLA attention then reads (docs/formulas.md, "DeepSeek sparse attention"). Source: DeepSeek's
// inference/model.py (Indexer) as vendored in transformers' models/deepseek_v32/deepseek_files; vLLM and SGLang
// run the scores with DeepGEMM's fp8_mqa_logits and a top-k kernel over the fp32 logits.
#include <cmath>

#include "ops/builder.hpp"

namespace infercast {

void add_indexer(Builder& b, const GroupStep& gs) {
  const Convention& conv = b.s.convention;
  const AttentionSpec& a = gs.g.spec.attn;
  const i64 n = gs.g.count;
  const std::string& G = gs.g.label;
  const double c = static_cast<double>(n), T = gs.T, h = static_cast<double>(b.m.hidden);
  const double ih = static_cast<double>(a.index_heads), id = static_cast<double>(a.index_head_dim);
  const double rope = static_cast<double>(a.qk_rope_dim), key_bytes = index_key_bytes(a);
  b.wclass = WeightClass::Attention;
  b.gemm("indexer_q (wq_b)", G, n, T, static_cast<double>(a.q_lora_rank), ih * id, false);
  b.gemm("indexer_k (wk)", G, n, T, h, id, false);
  b.elementwise("indexer_k_norm", G, n, T * id, conv.layernorm_flops_per_element, 1, 2 * id);
  b.elementwise("indexer_rope", G, n, T * (ih + 1) * rope, conv.rope_flops_per_element, 1);
  // q and k rotated by a Hadamard transform (log2(d) per element) before the fp8 quantization.
  b.elementwise("indexer_hadamard", G, n, T * (ih + 1) * id, std::log2(id) + 2, 1);
  b.gemm("indexer_weights", G, n, T, h, ih, false);
  {
    Op& op = b.add("indexer_cache_write", G, OpClass::Memory, n);
    op.act_read_bytes = c * T * id * b.ab;
    op.kv_write_bytes = c * T * key_bytes;
  }
  {
    // Scores: per (query, key) pair and indexer head a d-wide fp8 dot product, ReLU, the head's weight, the sum.
    Op& op = b.add("indexer_scores", G, OpClass::Attention, n);
    op.compute = ComputeType::FP8;
    op.flops = c * gs.index_pairs * ih * (2 * id + 3);
    op.act_read_bytes = c * T * (ih * id + ih * 4);  // fp8 queries and fp32 weights
    op.kv_read_bytes = c * gs.index_keys * key_bytes;
    op.act_write_bytes = c * gs.index_pairs * 4;  // fp32 logits
  }
  {
    // Top-k over each query's logits: one comparison per logit read; the chosen key indices written (int32), as
    // many per query as it attends (min(keys, top-k)).
    Op& op = b.add("indexer_topk", G, OpClass::Elementwise, n);
    op.flops = c * gs.index_pairs;
    op.act_read_bytes = c * gs.index_pairs * 4;
    op.act_write_bytes = c * gs.pairs * 4;
  }
}

}  // namespace infercast
