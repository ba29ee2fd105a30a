#include "model/model.hpp"

#include "model/count.hpp"

namespace infercast {

namespace {

Count ffn_count(Count hidden, Count width, bool gated, bool bias) {
  Count p = Count(gated ? 3 : 2) * hidden * width;
  if (bias) p += (gated ? Count(2) * width : width) + hidden;
  return p;
}

// DeepSeek-V4's attention (transformers' DeepseekV4Attention, its compressors and indexer).
Count compressed_attention_count(const AttentionSpec& a, Count h) {
  const Count nh = a.n_heads, d = a.head_dim, rq = a.q_lora_rank;
  Count p = h * rq + rq + rq * nh * d;  // q_a_proj, q_norm, q_b_proj (the per-head q norm has no weights)
  p += h * d + d;                       // kv_proj to the one shared key-value head, kv_norm
  p += Count(a.o_lora_rank) * nh * d + Count(a.o_groups) * a.o_lora_rank * h;  // o_a_proj (per group), o_b_proj
  if (a.sinks) p += nh;
  if (a.compress_ratio > 0) {
    // The compressor: kv_proj and gate_proj, a position bias per slot of the window, kv_norm. CSA's windows
    // overlap (width 2m, stride m): its projections and bias are twice as wide.
    const Count m = a.compress_ratio, w = Count(a.index_topk > 0 ? 2 : 1) * d;
    p += Count(2) * h * w + m * w + d;
    if (a.index_topk > 0) {
      // The indexer: its own overlapping compressor at index_head_dim, q_b_proj from the query latent, weights_proj.
      const Count ih = a.index_heads, id = a.index_head_dim, iw = Count(2) * id;
      p += Count(2) * h * iw + m * iw + id + rq * ih * id + h * ih;
    }
  }
  return p;
}

// One hyper-connection (DeepSeek-V4's DeepseekV4HyperConnection): fn (2+n)n x n*h, base (2+n)n, 3 scales.
Count hyper_connection_count(Count n, Count h) { return (Count(2) + n) * n * n * h + (Count(2) + n) * n + 3; }

Count attention_count(const AttentionSpec& a, Count h) {
  Count p = 0;
  if (a.kind == AttnKind::Compressed) return compressed_attention_count(a, h);
  if (a.kind == AttnKind::MLA) {
    const Count qdim = Count(a.n_heads) * (Count(a.qk_nope_dim) + a.qk_rope_dim);
    if (a.q_lora_rank > 0) {
      p += h * a.q_lora_rank + a.q_lora_rank + Count(a.q_lora_rank) * qdim;  // q_a_proj, q_a_layernorm, q_b_proj
    } else {
      p += h * qdim;  // q_proj
    }
    p += h * (Count(a.kv_lora_rank) + a.qk_rope_dim);                                    // kv_a_proj_with_mqa
    p += a.kv_lora_rank;                                                                 // kv_a_layernorm
    p += Count(a.kv_lora_rank) * a.n_heads * (Count(a.qk_nope_dim) + a.v_head_dim);      // kv_b_proj
    p += Count(a.n_heads) * a.v_head_dim * h;                                            // o_proj
  } else {
    // A gated attention's q_proj also yields the output gate: n_h*d more outputs (and biases).
    // A layer reading another layer's cache keeps no k/v projections unless the checkpoint stores them anyway
    // (Gemma 3n); keys reused as values (Gemma 4's attention_k_eq_v) leave no v_proj.
    const bool kv = !a.kv_shared || a.kv_weights_kept;
    const Count q = Count(a.output_gate ? 2 : 1) * a.n_heads * a.head_dim,
                k = kv ? Count(a.n_kv_heads) * a.head_dim : Count(0),
                v = kv && !a.k_eq_v ? Count(a.n_kv_heads) * a.v_head_dim : Count(0);
    p += h * (q + k + v) + Count(a.n_heads) * a.v_head_dim * h;
    if (a.qkv_bias) p += q + k + v;
  }
  if (a.index_topk > 0 && a.index_block > 0) {
    // MiniMax-M3's indexer: index_q (index_heads x d_i) and index_k (d_i) from h, their per-head norms.
    p += h * (Count(a.index_heads) * a.index_head_dim + a.index_head_dim) + Count(2) * a.index_head_dim;
  } else if (a.index_topk > 0) {
    // DeepSeek-V3.2's lightning indexer: wq_b from the query latent, wk, its LayerNorm (weight and bias) and
    // weights_proj (one weight per indexer head and token).
    const Count ih = a.index_heads, id = a.index_head_dim;
    p += Count(a.q_lora_rank) * ih * id + h * id + Count(2) * id + h * ih;
  }
  if (a.o_bias) p += h;
  if (a.qk_norm && a.qk_norm_weight) {
    const bool k_norm = !a.kv_shared || a.kv_weights_kept;  // Gemma 4's shared layers have no k_norm
    p += a.qk_norm_full ? (Count(a.n_heads) + (k_norm ? a.n_kv_heads : 0)) * a.head_dim
                        : Count(k_norm ? 2 : 1) * a.head_dim;
  }
  if (a.sinks) p += a.n_heads;
  if (a.cross) p += 2;  // cross_attn_attn_gate and cross_attn_mlp_gate (Llama 3.2 Vision), one value each
  if (a.head_gate) p += h * a.n_heads;  // g_proj
  return p;
}

}  // namespace

i64 ffn_params(i64 hidden, i64 width, bool gated, bool bias) { return ffn_count(hidden, width, gated, bias).v; }

i64 attention_params(const AttentionSpec& a, i64 hidden) { return attention_count(a, hidden).v; }

ModelSpec convert_to_mla(const ModelSpec& m, const MlaConversion& c) {
  ModelSpec out = m;
  for (auto& L : out.layers) {
    AttentionSpec& a = L.attn;
    if (!L.has_attention || a.kind != AttnKind::Standard) continue;
    a.kind = AttnKind::MLA;
    a.n_kv_heads = a.n_heads;
    a.q_lora_rank = c.q_lora_rank;
    a.kv_lora_rank = c.kv_lora_rank;
    a.qk_nope_dim = c.qk_nope_dim;
    a.qk_rope_dim = c.qk_rope_dim;
    a.rope_dim = c.qk_rope_dim;
    a.head_dim = c.qk_nope_dim + c.qk_rope_dim;
    a.v_head_dim = c.v_head_dim;
    a.qkv_bias = false;
    a.qk_norm = false;
    a.sinks = false;
    a.fused_qkv = false;
    a.output_gate = false;
  }
  out.id = m.id + "+mla";
  out.name = m.name + " (converted to MLA)";
  return out;
}

const NameTable<WeightClass>& weight_class_names() {
  static const NameTable<WeightClass> t({{WeightClass::Attention, "attention", "q, k, v and o projections (MLA's too)"},
                                         {WeightClass::Ffn, "ffn", "dense MLPs and shared experts"},
                                         {WeightClass::Experts, "experts", "routed experts"},
                                         {WeightClass::Router, "router", "MoE routers and shared-expert gates"},
                                         {WeightClass::Embedding, "embedding", "the input embedding table"},
                                         {WeightClass::LmHead, "lm_head", "the output projection to the vocabulary"},
                                         {WeightClass::Vision, "vision", "the vision encoder and its projector, and an audio encoder where one is counted"}});
  return t;
}

ParamCounts count_params(const ModelSpec& m) {
  const Count h = m.hidden;
  const Count norm_w = Count(norm_vectors(m)) * h;
  // One matrix serves as embedding and head only when the model is tied and holds both (a whole model).
  const bool shared_head = m.tied_embeddings && m.has_embedding && m.has_head;
  const Count table = Count(m.vocab) * h;
  // An input embedding with rows of its own beyond the vocabulary (Llama 3.2 Vision's 8 image tokens).
  const Count input_table = m.embedding_rows > 0 ? Count(m.embedding_rows) * h : table;
  // Per-layer embeddings (Gemma 3n, Gemma 4): a second table, gathered like the first, and the projection of the
  // embedding into every layer's input with its norm. AltUp's projections into and out of the extra streams.
  const bool ple = m.ple_vocab > 0 && m.has_embedding;
  const Count ple_table = ple ? Count(m.ple_vocab) * m.ple_layers * m.ple_dim : Count(0);
  const Count ple_proj = ple ? h * m.ple_layers * m.ple_dim : Count(0);
  const Count ple_norm = ple ? Count(m.ple_dim) : Count(0);
  const Count altup_n = m.altup_inputs > 1 ? Count(m.altup_inputs - 1) : Count(0);
  const Count altup_proj = (m.has_embedding ? altup_n * h * h : Count(0)) + (m.has_head ? altup_n * h * h : Count(0));
  // Learned absolute positions (GPT-2, OPT) are gathered with the input embedding and counted in it.
  const Count positions = m.has_embedding ? Count(m.position_rows) * h : Count(0);
  Count embedding = (m.has_embedding ? input_table : Count(0)) + ple_table + positions;
  Count lm_head = m.has_head && !shared_head ? table : Count(0);
  if (m.has_head && m.lm_head_bias) lm_head += m.vocab;  // the head's bias is its own even when the matrix is tied
  Count norms = (m.has_head ? norm_w : Count(0)) + ple_norm;  // the final norm
  if (m.embedding_norm && m.embedding_norm_weight && m.has_embedding) norms += norm_w;  // BLOOM's word_embeddings_layernorm
  // DeepSeek-V4's hyper head: hc_fn n x n*h, hc_base n, hc_scale 1 (with the routers, as the layers' mixings).
  const Count hc_head = m.hc_mult > 0 && m.has_head ? Count(m.hc_mult) * m.hc_mult * h + m.hc_mult + 1 : Count(0);
  Count attention, ffn_dense = ple_proj + altup_proj, router = hc_head, experts_routed, experts_shared,
                   active_ffn = ple_proj + altup_proj + hc_head;
  for (const auto& L : m.layers) {
    if (L.has_attention) attention += attention_count(L.attn, h);
    if (L.recurrent.kind != RecurrentKind::None) attention += recurrent_params(L.recurrent, h.v);
    norms += Count(L.norms) * norm_w;
    // BitNet's sub-norms: one of the hidden width after attention, one of the intermediate width in a dense MLP.
    if (L.sub_norms)
      norms += Count(norm_vectors(m)) * (h + (L.has_ffn && !L.ffn.moe ? Count(L.ffn.intermediate) : Count(0)));
    // Gemma 3n / Gemma 4 blocks: always active, counted with the dense MLPs (their matrices), the router (AltUp's
    // coefficients) and the norms (their vectors, layer_scalar's one value).
    const Count extra_dense = Count(2) * h * L.per_layer_input + Count(2) * h * L.laurel_rank;
    const Count n = L.altup;
    const Count extra_router = L.altup > 0 ? h * n + n * n * n + n * n : Count(0);
    norms += (L.per_layer_input > 0 ? h : Count(0)) + (L.laurel_rank > 0 ? h : Count(0)) +
             (L.altup > 0 ? Count(2) * h : Count(0)) + (L.layer_scalar ? 1 : 0);
    ffn_dense += extra_dense;
    active_ffn += extra_dense + extra_router;
    router += extra_router;
    // Hyper-connections (DeepSeek-V4): two per layer, always active, counted with the routers (as AltUp's coefficients).
    if (L.hc_mult > 0) {
      const Count hc = Count(2) * hyper_connection_count(L.hc_mult, h);
      router += hc;
      active_ffn += hc;
    }
    const auto& f = L.ffn;
    if (!L.has_ffn) continue;
    if (!f.moe) {
      const Count dense = ffn_count(h, f.intermediate, f.gated, f.bias) + f.act_params;
      ffn_dense += dense;
      active_ffn += dense;
      continue;
    }
    // The router scores every slot, identity experts included (LongCat-Flash's classifier and its bias).
    const Count slots = Count(f.n_experts) + f.zero_experts;
    const Count r = h * slots + (f.router_bias ? slots : 0) + (f.score_correction_bias ? slots : 0) +
                    (f.router_scales ? h + f.n_experts : Count(0)) +
                    (f.hash_routed ? Count(m.vocab) * f.top_k : Count(0));  // DeepSeek-V4's tid2eid table
    // A latent MoE's experts work at the latent width; its two projections are dense and always active.
    const Count expert = ffn_count(f.latent > 0 ? Count(f.latent) : h, f.expert_intermediate, f.gated, f.expert_bias);
    const Count latent_proj = f.latent > 0 ? Count(2) * h * f.latent + (f.bias ? Count(f.latent) + h : Count(0)) : Count(0);
    const Count shared =
        Count(f.n_shared) * ffn_count(h, f.shared_intermediate, f.gated, f.shared_bias) + (f.shared_gate ? h : 0);
    router += r;
    experts_routed += Count(f.n_experts) * expert;
    experts_shared += shared;
    ffn_dense += latent_proj;
    // A hash layer's token reads its own row of tid2eid (top_k entries), not the whole table.
    const Count table_unread = f.hash_routed ? Count(m.vocab - 1) * f.top_k : Count(0);
    // A token's top_k picks land on identity experts in the proportion zero_experts / slots under balanced
    // routing (LongCat-Flash: 12 x 512 / 768 = 8 computed experts, its published 27B activated on average); the
    // expected count is rounded to the parameter.
    const Count picked = Count(f.top_k) * expert;
    const i64 on_routed = (picked * f.n_experts).v;  // picked x E, divided by the slots below
    const i64 k = slots.v;
    const Count computed = f.zero_experts > 0 ? Count(on_routed / k + (on_routed % k >= k - on_routed % k ? 1 : 0)) : picked;
    active_ffn += r + computed + shared + latent_proj + Count(-1) * table_unread;
  }
  ParamCounts c;
  c.embedding = embedding.v;
  c.lm_head = lm_head.v;
  c.norms = norms.v;
  c.attention = attention.v;
  c.ffn_dense = ffn_dense.v;
  c.router = router.v;
  c.experts_routed = experts_routed.v;
  c.experts_shared = experts_shared.v;
  const Count vision = m.has_embedding ? Count(vision_params(m.vision)) : Count(0);  // with the first stage's embedding
  c.vision = vision.v;
  const Count audio = m.has_embedding ? Count(audio_params(m.audio)) : Count(0);
  c.audio = audio.v;
  c.total = (embedding + lm_head + norms + attention + ffn_dense + router + experts_routed + experts_shared + vision + audio).v;
  // The LM head is always active; when tied it is the embedding matrix, counted once as "embedding".
  const Count active_no_embed = attention + norms + active_ffn + (shared_head ? table : lm_head);
  c.active_no_embed = active_no_embed.v;
  c.active = (active_no_embed + (shared_head ? ple_table + positions : embedding)).v;
  return c;
}

}  // namespace infercast
