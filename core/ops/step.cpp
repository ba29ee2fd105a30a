// One forward step: the embedding, every layer group's blocks (norms, attention or MLA, residual adds, MLP or
// MoE) and the LM head, for a batch of requests each with its own cached and new tokens.
#include <algorithm>
#include <cmath>

#include "ops/builder.hpp"
#include "ops/geometry.hpp"

namespace infercast {

namespace {

GroupStep group_step(const LayerGroup& g, const GroupAttention& ga, double T, bool decode_only, double decode_T,
                     const GroupAttention* decode_part) {
  return GroupStep{ga, g, T, decode_only, decode_part ? decode_T : 0, decode_part};
}

void add_layer_group(Builder& b, const GroupStep& gs) {
  const LayerSpec& l = gs.g.spec;
  // A cross-attention layer without images is skipped whole, its MLP too (transformers' MllamaTextModel, vLLM).
  if (l.has_attention && l.attn.cross && b.s.cross_tokens == 0) return;
  const i64 n = gs.g.count;
  const double c = static_cast<double>(n), T = gs.T, h = static_cast<double>(b.m.hidden);
  b.elementwise(l.norms > 1 ? "norms x" + std::to_string(l.norms) : "norm", gs.g.label, n, T * h * l.norms, b.norm_cost(), 1,
                h * l.norms * norm_vectors(b.m))
      .dispatches = static_cast<double>(n * l.norms);
  if (l.altup > 0) add_altup(b, gs, "altup_predict");
  if (l.laurel_rank > 0) add_laurel(b, gs);
  if (l.recurrent.kind != RecurrentKind::None) add_recurrent(b, gs);
  if (l.hc_mult > 0) add_hyper_connection(b, gs, "attn", true);
  if (l.has_attention && l.attn.cross) add_cross_attention(b, gs);
  else if (l.has_attention && l.attn.kind == AttnKind::Standard) add_attention(b, gs);
  else if (l.has_attention && l.attn.kind == AttnKind::Compressed) add_compressed_attention(b, gs);
  else if (l.has_attention) add_mla(b, gs);
  // Residual adds: two per sequential block, one three-way add per parallel block; one for a single-block layer
  // (Nemotron-H), and a recurrent mixer beside attention (Falcon-H1) adds its output in a three-way add.
  const bool mixer = l.has_attention || l.recurrent.kind != RecurrentKind::None;
  if (l.hc_mult > 0) {  // hyper-connections write the attention's output back and collapse the streams for the FFN
    add_hyper_connection(b, gs, "attn", false);
    add_hyper_connection(b, gs, "ffn", true);
  } else if (l.parallel) b.elementwise("residual_add", gs.g.label, n, T * h, 2, 3);
  else if (mixer && l.has_ffn) b.elementwise("residual_add x2", gs.g.label, n, 2 * T * h, 1, 2).dispatches = 2 * c;
  else b.elementwise("residual_add", gs.g.label, n, T * h, 1, 2);
  if (l.has_attention && l.recurrent.kind != RecurrentKind::None) b.elementwise("mixer_sum", gs.g.label, n, T * h, 1, 2);
  if (l.has_ffn) {
    if (l.ffn.moe) add_moe(b, gs);
    else add_dense_mlp(b, gs, "", static_cast<double>(l.ffn.intermediate), l.ffn.bias, l.ffn.fused_gate_up);
  }
  if (l.hc_mult > 0) add_hyper_connection(b, gs, "ffn", false);
  if (l.altup > 0) add_altup(b, gs, "altup_correct");
  if (l.per_layer_input > 0) add_per_layer_input(b, gs);
  else if (l.layer_scalar) b.elementwise("layer_scalar", gs.g.label, n, T * h, 1, 1, 1);
}

}  // namespace

// With a tile, each request's keys are padded to a multiple of it and its pairs grow in proportion (exact for decode,
// where a step has one query per request).
GroupAttention request_attention(const LayerSpec& l, const Request& r, const StepSettings& s) {
  GroupAttention ga;
  const AttentionSpec& a = l.attn;
  const double tile = static_cast<double>(s.attention_tile);
  const double cached = static_cast<double>(r.cached), input = static_cast<double>(r.input);
  if (a.cross) {  // every new token attends the sequence's image tokens; a new prompt computes their keys and values
    const double X = static_cast<double>(s.cross_tokens);
    if (r.input > 0 && X > 0) {
      ga.pairs = input * X;
      ga.keys = X;
      ga.pairs_padded = tile > 0 ? ga.pairs * std::ceil(X / tile) * tile / X : ga.pairs;
      if (r.cached == 0) ga.cross_new = X;
    }
    return ga;
  }
  ga.pairs = attention_pairs(a, cached, input, s.convention.causal_pairs && s.attention == AttnImpl::Fused);
  ga.keys = attention_keys_read(a, cached, input);
  const double k = ga.keys;
  ga.pairs_padded = tile > 0 && k > 0 ? ga.pairs * std::ceil(k / tile) * tile / k : ga.pairs;
  if (a.kind == AttnKind::Compressed) {  // DeepSeek-V4's CSA indexer scores every pooled key
    ga.index_pairs = compressed_index_pairs(a, cached, input);
    ga.index_keys = compressed_index_keys(a, cached, input);
  } else if (a.index_topk > 0) {
    AttentionSpec dense = a;  // DSA's indexer scores every key
    dense.index_topk = 0;
    ga.index_pairs = attention_pairs(dense, cached, input, true);
    ga.index_keys = attention_keys_read(dense, cached, input);
  }
  if (r.input > 0) {
    ga.seqs = 1;
    if (r.cached > 0) ga.seqs_with_state = 1;
    // Serving engines run one-token steps of a sequence with a state through the recurrent kernel, the rest
    // through the chunked one (vLLM, SGLang).
    if (r.input == 1 && r.cached > 0) ga.recurrent_tokens = 1;
    else {
      ga.chunked_tokens = input;
      ga.chunks = std::ceil(input / static_cast<double>(std::max<i64>(l.recurrent.chunk, 1)));
    }
  }
  return ga;
}

StepShape step_shape(const std::vector<LayerGroup>& groups, const std::vector<Request>& step, const StepSettings& s) {
  StepShape sh;
  for (const auto& r : step) {
    sh.tokens += static_cast<double>(r.input * r.count);
    if (r.input > 0) sh.logit_rows += static_cast<double>(s.convention.lm_head_all_tokens ? r.input * r.count : r.count);
    if (r.input > 1 || (r.input == 1 && r.cached == 0)) sh.decode_only = false;
    if (r.cached == 0 && r.input > 0) sh.new_prompts += static_cast<double>(r.count);
    if (r.input == 1 && r.cached > 0) sh.decode_tokens += static_cast<double>(r.count);
  }
  if (sh.decode_only) sh.decode_tokens = 0;  // every request decodes: nothing to split
  sh.groups.resize(groups.size());
  if (sh.decode_tokens > 0) sh.decode_groups.resize(groups.size());
  for (std::size_t i = 0; i < groups.size(); ++i) {
    GroupAttention& ga = sh.groups[i];
    for (const auto& r : step) {
      const double cnt = static_cast<double>(r.count);
      const GroupAttention one = request_attention(groups[i].spec, r, s);
      for (auto part : kGroupAttentionParts) ga.*part += cnt * one.*part;
      if (sh.decode_tokens > 0 && r.input == 1 && r.cached > 0)
        for (auto part : kGroupAttentionParts) sh.decode_groups[i].*part += cnt * one.*part;
    }
  }
  return sh;
}

std::vector<Op> step_ops(const ModelSpec& m, const std::vector<LayerGroup>& groups, const std::vector<Request>& step,
                         const StepSettings& s) {
  return step_ops(m, groups, step_shape(groups, step, s), s);
}

std::vector<Op> step_ops(const ModelSpec& m, const std::vector<LayerGroup>& groups, const StepShape& shape,
                         const StepSettings& s) {
  std::vector<Op> out;
  out.reserve(groups.size() * 20 + 4);
  Builder b{m, s, out, s.activation_bytes(), s.precision.kv.bits_per_element / 8, s.gemm_input_bytes(),
            s.precision.activations.native};
  const Convention& conv = s.convention;
  const double T = shape.tokens, logit_rows = shape.logit_rows;  // new tokens in the step; rows the LM head computes
  const double h = static_cast<double>(m.hidden);
  const double V = static_cast<double>(m.vocab);

  // Embedding: a gather of T rows (or, under LIFE, the whole table). Pipeline stages after the first receive
  // their input from the previous stage instead.
  if (m.has_embedding) {
    Op& op = b.add("embedding", "", OpClass::Memory, 1);
    const double eb = s.precision.of(WeightClass::Embedding).bits_per_element / 8;
    op.weight_bytes = (conv.embedding_whole_table ? V : std::min(T, V)) * h * eb + (conv.embedding_whole_table ? h * b.ab : 0);
    op.act_write_bytes = T * h * b.ab;
    // Learned positions (GPT-2, OPT): T rows of the position table, added to the tokens' embeddings.
    if (m.position_rows > 0) {
      const double rows = static_cast<double>(m.position_rows);
      Op& pos = b.add("position_embedding", "", OpClass::Memory, 1);
      pos.weight_bytes = (conv.embedding_whole_table ? rows : std::min(T, rows)) * h * eb;
      pos.flops = T * h;
      pos.act_read_bytes = T * h * b.ab;
      pos.act_write_bytes = T * h * b.ab;
    }
    // BLOOM's LayerNorm after the embedding.
    if (m.embedding_norm)
      b.elementwise("embedding_norm", "", 1, T * h, b.norm_cost(), 1, m.embedding_norm_weight ? h * norm_vectors(m) : 0);
  }
  if (m.has_embedding && m.vision.kind != VisionKind::None && !s.images.empty()) add_vision(b, shape.new_prompts, s.images);
  if (m.has_embedding) add_gemma_inputs(b, T);
  for (std::size_t i = 0; i < groups.size(); ++i)
    add_layer_group(b, group_step(groups[i], shape.groups[i], T, shape.decode_only, shape.decode_tokens,
                                  i < shape.decode_groups.size() && shape.decode_tokens > 0 ? &shape.decode_groups[i] : nullptr));
  if (m.has_head) {
    add_gemma_outputs(b, T);
    if (m.hc_mult > 0) add_hyper_head(b, T);
    b.elementwise("final_norm", "", 1, T * h, b.norm_cost(), 1, h * norm_vectors(m));
    b.wclass = WeightClass::LmHead;
    b.gemm("lm_head", "", 1, logit_rows, h, V, m.lm_head_bias);
  }
  apply_fusion(out, s.fusion);
  return out;
}

LoraCost lora_cost(const ModelSpec& m, const std::vector<LayerGroup>& groups, i64 rank) {
  LoraCost c;
  if (rank <= 0) return c;
  // The projections step_ops adapts, read from one single-token step (MLA in its expanded form, so kv_b_proj
  // appears as the matrix it is): A (K x r) and B (r x N) each, and merging costs 2 k r n for the product and 2 k n
  // to scale and add.
  StepSettings s;  // bf16 throughout, the infercast convention
  s.mla = MlaForm::Expanded;
  const double r = static_cast<double>(rank);
  for (const auto& op : step_ops(m, groups, {Request{0, 1, 1}}, s)) {
    if (!op.lora_target) continue;
    c.adapter_elements += static_cast<double>(op.count) * (op.gemm_k + op.gemm_n) * r;
    c.merge_flops += (2 * r + 2) * op.weight_elements;
  }
  return c;
}

}  // namespace infercast
