#include "ops/ops.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace infercast {

const NameTable<OpClass>& op_class_names() {
  static const NameTable<OpClass> t({{OpClass::GEMM, "gemm", "matrix multiplications (projections, experts, LM head)"},
                                     {OpClass::Attention, "attention", "scores, softmax and the weighted sum of values"},
                                     {OpClass::Elementwise, "elementwise", "norms, activations, RoPE, residual adds"},
                                     {OpClass::Memory, "memory", "gathers and cache writes: bytes only"}});
  return t;
}

const NameTable<AttnImpl>& attn_impl_names() {
  static const NameTable<AttnImpl> t(
      {{AttnImpl::Fused, "fused", "one kernel (FlashAttention): scores never written; causal pairs skipped"},
       {AttnImpl::Unfused, "unfused", "scores, softmax and the weighted sum as three kernels, scores through memory"}});
  return t;
}

const NameTable<MlaForm>& mla_form_names() {
  static const NameTable<MlaForm> t(
      {{MlaForm::Auto, "auto", "expanded for prefill, absorbed for decode, as vLLM and SGLang run MLA"},
       {MlaForm::Absorbed, "absorbed", "queries moved into the latent space; attention over the cached latent"},
       {MlaForm::Expanded, "expanded", "kv_b_proj rebuilds per-head keys and values for every key read"}});
  return t;
}

const NameTable<bool>& mlp_form_names() {
  static const NameTable<bool> t({{true, "fused", "the activation in the gate/up GEMM's epilogue: its outputs never written"},
                                  {false, "unfused", "gate, up, activation and down as separate kernels"}});
  return t;
}

namespace {

std::string signature(const LayerSpec& l) {
  const auto& a = l.attn;
  const auto& f = l.ffn;
  std::string s;
  for (i64 v : {static_cast<i64>(a.kind), a.n_heads, a.n_kv_heads, a.head_dim, a.v_head_dim, a.q_lora_rank,
                a.kv_lora_rank, a.qk_nope_dim, a.qk_rope_dim, a.rope_dim, a.window, a.chunk,
                static_cast<i64>(a.qkv_bias), static_cast<i64>(a.o_bias), static_cast<i64>(a.qk_norm),
                static_cast<i64>(a.qk_norm_weight), static_cast<i64>(a.sinks), static_cast<i64>(a.fused_qkv),
                static_cast<i64>(f.moe), static_cast<i64>(f.gated), static_cast<i64>(f.bias),
                static_cast<i64>(f.fused_gate_up), f.intermediate, f.n_experts, f.top_k, f.expert_intermediate,
                f.n_shared, f.shared_intermediate, static_cast<i64>(f.shared_gate), static_cast<i64>(f.router_bias),
                static_cast<i64>(f.expert_bias), static_cast<i64>(f.score_correction_bias),
                static_cast<i64>(l.norms), static_cast<i64>(l.parallel)})
    s += std::to_string(v) + ",";
  return s;
}

std::string label_of(const LayerSpec& l) {
  std::string attn = l.attn.kind == AttnKind::MLA ? "MLA" : "attention";
  if (l.attn.window > 0) attn = "sliding " + std::to_string(l.attn.window);
  else if (l.attn.chunk > 0) attn = "chunked " + std::to_string(l.attn.chunk);
  else if (l.attn.kind == AttnKind::MLA) attn = "MLA";
  else attn = "full";
  if (l.attn.rope_dim == 0 && l.attn.kind != AttnKind::MLA) attn += " NoPE";
  return (l.ffn.moe ? "MoE, " : "dense, ") + attn;
}

double triangle(double n) { return n * (n + 1) / 2; }

// Sum over query positions p in [0, P) of the keys each attends to, for window w (0: unbounded).
double window_prefix(double P, double w) {
  if (w <= 0 || P <= w) return triangle(P);
  return triangle(w) + (P - w) * w;
}

double chunk_prefix(double P, double k) {
  const double q = std::floor(P / k);
  const double r = P - q * k;
  return q * triangle(k) + triangle(r);
}

}  // namespace

double hadamard_flops_per_element(i64 d) {
  if (d <= 1) return 0;
  i64 p = 1;
  while (d % (2 * p) == 0) p *= 2;
  const i64 odd = d / p;
  if (odd == 1) return std::log2(static_cast<double>(d));
  if (p < 4) return 2.0 * static_cast<double>(d);  // no Hadamard of this order: a dense orthogonal rotation
  const double m = 4.0 * static_cast<double>(odd);
  return std::log2(static_cast<double>(p) / 4) + 2 * m;
}

namespace {

struct Builder {
  const ModelSpec& m;
  const StepSettings& s;
  std::vector<Op>& out;
  double ab, kb;  // bytes per element of activations and KV (weights: per class, in gemm)
  ComputeType compute;
  WeightClass wclass = WeightClass::Attention;  // class of the GEMMs being added

  Op& add(const std::string& name, const std::string& group, OpClass cls, i64 count) {
    Op op;
    op.name = name;
    op.group = group;
    op.cls = cls;
    op.count = count;
    op.compute = compute;
    op.dispatches = static_cast<double>(count);
    out.push_back(op);
    return out.back();
  }

  // y[M,N] = x[M,K] W[K,N] (+ bias[N]); M tokens. The weights are stored in the format of `wclass`;
  // dequantization costs 2 operations per weight element per call (scale and shift; LIFE's appendix).
  // `weights_touched` is how many K x N matrices the call reads (routed experts read the ones they touch).
  Op& gemm(const std::string& name, const std::string& group, i64 count, double M, double K, double N, bool bias,
           double weights_touched = 1) {
    Op& op = add(name, group, OpClass::GEMM, count);
    const double c = static_cast<double>(count);
    const DType& w = s.precision.of(wclass);
    double f = 2 * M * K * N - (s.convention.gemm_minus_mn ? M * N : 0);
    if (bias) f += M * N;
    op.weight_bytes = c * weights_touched * (K * N * w.bits_per_element / 8 + (bias ? N * ab : 0));
    op.weight_elements = c * weights_touched * K * N;
    op.lora_target = wclass == WeightClass::Attention || wclass == WeightClass::Ffn;
    op.act_read_bytes = c * M * K * ab;
    op.act_write_bytes = c * M * N * ab;
    if (M > 0 && needs_dequant(w, s.precision.activations)) op.dequant_flops = c * weights_touched * 2 * K * N;
    // LoRA on the attention and MLP projections (not the router, experts, embedding or LM head).
    const i64 r = s.lora.rank;
    if (r > 0 && M > 0 && op.lora_target) {
      const double R = static_cast<double>(r);
      if (s.lora.mode == LoraMode::Unmerged) {
        op.lora_flops = c * (2 * M * K * R + 2 * M * R * N + M * N);  // x A, (x A) B, add to y
        op.act_write_bytes += c * M * R * ab;                         // x A
        op.act_read_bytes += c * M * R * ab;
      } else if (s.lora.mode == LoraMode::MergePerCall) {
        op.lora_flops = c * (2 * K * R * N + K * N);  // B A, added to W (LIFE's appendix)
      }
      if (s.lora.mode != LoraMode::Merged) op.weight_bytes += c * (K * R + R * N) * ab;  // A and B
    }
    op.flops = c * f + op.dequant_flops + op.lora_flops;
    return op;
  }

  // Elementwise op over `elements` outputs reading `reads` tensors of that size.
  Op& elementwise(const std::string& name, const std::string& group, i64 count, double elements,
                  double flops_per_element, double reads, double weight_elements = 0) {
    Op& op = add(name, group, OpClass::Elementwise, count);
    const double c = static_cast<double>(count);
    op.flops = c * elements * flops_per_element;
    op.act_read_bytes = c * elements * reads * ab;
    op.act_write_bytes = c * elements * ab;
    op.weight_bytes = c * weight_elements * ab;  // norm weights and biases stay in activation precision
    return op;
  }

  double norm_cost() const {
    return m.norm == NormKind::RMS ? s.convention.rmsnorm_flops_per_element : s.convention.layernorm_flops_per_element;
  }
  double act_cost() const {
    const auto& a = m.activation;
    if (a.find("gelu") != std::string::npos) return s.convention.gelu_flops_per_element;
    if (a == "relu") return 1;
    return s.convention.silu_flops_per_element;
  }
};

struct StepTotals {
  double tokens = 0;       // new tokens in the step
  double logit_rows = 0;   // rows the LM head computes
};

}  // namespace

const NameTable<LoraMode>& lora_mode_names() {
  static const NameTable<LoraMode> t(
      {{LoraMode::Unmerged, "unmerged", "y = xW + (xA)B on every call, as PEFT, vLLM and S-LoRA serve adapters"},
       {LoraMode::MergePerCall, "merge-per-call", "W + BA rebuilt inside every GEMM call (LIFE's inline merge)"},
       {LoraMode::Merged, "merged", "merged once ahead of time: no cost per step, the one-time cost reported apart"}});
  return t;
}

bool needs_dequant(const DType& w, const DType& act) {
  return w.weight_only || (w.native != act.native && w.bits_per_element < act.bits_per_element);
}

double lora_merge_flops(const ModelSpec& m, const std::vector<LayerGroup>& groups, i64 rank) {
  if (rank <= 0) return 0;
  // The projections step_ops adapts, read from one single-token step (MLA in its expanded form, so kv_b_proj
  // appears as the matrix it is).
  StepSettings s;  // bf16 throughout, the infercast convention
  s.mla = MlaForm::Expanded;
  double total = 0;
  for (const auto& op : step_ops(m, groups, {Request{0, 1, 1}}, s))
    if (op.lora_target) total += (2 * static_cast<double>(rank) + 2) * op.weight_elements;
  return total;
}

std::vector<LayerGroup> group_layers(const ModelSpec& m) {
  std::vector<LayerGroup> groups;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const auto sig = signature(m.layers[i]);
    auto it = index.find(sig);
    if (it == index.end()) {
      index[sig] = groups.size();
      groups.push_back(LayerGroup{m.layers[i], 0, label_of(m.layers[i]), {}});
      it = index.find(sig);
    }
    groups[it->second].count += 1;
    groups[it->second].layers.push_back(static_cast<i64>(i));
  }
  return groups;
}

double kv_bytes_per_token_layer(const AttentionSpec& a, double kvb) {
  if (a.kind == AttnKind::MLA) return static_cast<double>(a.kv_lora_rank + a.qk_rope_dim) * kvb;
  return static_cast<double>(a.n_kv_heads) * static_cast<double>(a.head_dim + a.v_head_dim) * kvb;
}

double kv_tokens_resident(const AttentionSpec& a, double ctx) {
  if (a.window > 0) return std::min(ctx, static_cast<double>(a.window));
  if (a.chunk > 0) return std::min(ctx, static_cast<double>(a.chunk));
  return ctx;
}

double attention_pairs(const AttentionSpec& a, double cached, double input, bool causal) {
  if (input <= 0) return 0;
  if (!causal) return input * attention_keys_read(a, cached, input);
  if (a.chunk > 0) {
    const double k = static_cast<double>(a.chunk);
    return chunk_prefix(cached + input, k) - chunk_prefix(cached, k);
  }
  const double w = static_cast<double>(a.window);
  return window_prefix(cached + input, w) - window_prefix(cached, w);
}

double attention_keys_read(const AttentionSpec& a, double cached, double input) {
  if (input <= 0) return 0;
  const double end = cached + input;
  if (a.window > 0) return end - std::max(0.0, cached + 1 - static_cast<double>(a.window));
  if (a.chunk > 0) {
    const double k = static_cast<double>(a.chunk);
    return end - (cached - std::fmod(cached, k));
  }
  return end;
}

double experts_touched(MoeTraffic t, double E, double k, double tokens) {
  if (tokens <= 0) return 0;
  switch (t) {
    case MoeTraffic::TopK: return std::min(E, k);
    case MoeTraffic::All: return E;
    case MoeTraffic::UpperBound: return std::min(E, tokens * k);
    case MoeTraffic::Expected: break;
  }
  // Each token picks k distinct experts of E uniformly: an expert is missed by one token with probability
  // 1 - k/E, by all `tokens` with (1 - k/E)^tokens.
  return E * (1 - std::pow(1 - k / E, tokens));
}

std::vector<Op> step_ops(const ModelSpec& m, const std::vector<LayerGroup>& groups, const std::vector<Request>& step,
                         const StepSettings& s) {
  std::vector<Op> out;
  out.reserve(groups.size() * 20 + 4);
  Builder b{m, s, out, s.precision.activations.bits_per_element / 8,
            s.precision.kv.bits_per_element / 8, s.precision.activations.native};
  const Convention& conv = s.convention;
  StepTotals st;
  bool decode_only = true;  // every request adds one token to an existing cache
  for (const auto& r : step) {
    st.tokens += static_cast<double>(r.input * r.count);
    if (r.input > 0) st.logit_rows += static_cast<double>(conv.lm_head_all_tokens ? r.input * r.count : r.count);
    if (r.input > 1 || (r.input == 1 && r.cached == 0)) decode_only = false;
  }
  const double T = st.tokens;
  const double h = static_cast<double>(m.hidden);
  const double V = static_cast<double>(m.vocab);

  // Embedding: a gather of T rows (or, under LIFE, the whole table). Pipeline stages after the first receive
  // their input from the previous stage instead.
  if (m.has_embedding) {
    Op& op = b.add("embedding", "", OpClass::Memory, 1);
    const double eb = s.precision.of(WeightClass::Embedding).bits_per_element / 8;
    op.weight_bytes = (conv.embedding_whole_table ? V : std::min(T, V)) * h * eb + (conv.embedding_whole_table ? h * b.ab : 0);
    op.act_write_bytes = T * h * b.ab;
  }

  for (const auto& g : groups) {
    const auto& a = g.spec.attn;
    const auto& f = g.spec.ffn;
    const i64 n = g.count;
    const std::string& G = g.label;
    const double nh = static_cast<double>(a.n_heads), nkv = static_cast<double>(a.n_kv_heads);
    const double hd = static_cast<double>(a.head_dim), vhd = static_cast<double>(a.v_head_dim);

    b.elementwise(g.spec.norms > 1 ? "norms x" + std::to_string(g.spec.norms) : "norm", G, n,
                  T * h * g.spec.norms, b.norm_cost(), 1, h * g.spec.norms * (m.norm_bias ? 2 : 1))
        .dispatches = static_cast<double>(n * g.spec.norms);

    // Pairs and keys over the batch, for this layer kind.
    // With a tile, each request's keys are padded to a multiple of it and its pairs grow in proportion (exact
    // for decode, where a step has one query per request).
    double pairs = 0, keys = 0, pairs_padded = 0;
    const double tile = static_cast<double>(s.attention_tile);
    for (const auto& r : step) {
      const double cnt = static_cast<double>(r.count);
      const double p = attention_pairs(a, static_cast<double>(r.cached), static_cast<double>(r.input),
                                       conv.causal_pairs && s.attention == AttnImpl::Fused);
      const double k = attention_keys_read(a, static_cast<double>(r.cached), static_cast<double>(r.input));
      pairs += cnt * p;
      keys += cnt * k;
      pairs_padded += cnt * (tile > 0 && k > 0 ? p * std::ceil(k / tile) * tile / k : p);
    }
    b.wclass = WeightClass::Attention;
    const bool kv_dequant = needs_dequant(s.precision.kv, s.precision.activations);
    // Attention work per (query, key) pair and head, for the padding share.
    const auto finish_attention = [&](Op& op, double per_pair_flops, double kv_elements) {
      op.padded_flops = static_cast<double>(n) * (pairs_padded - pairs) * per_pair_flops;
      if (kv_dequant) op.dequant_flops = 2 * kv_elements;
      op.flops += op.padded_flops + op.dequant_flops;
    };
    const double c = static_cast<double>(n);
    const double sm = conv.softmax_flops_per_score + conv.score_scale_flops;
    const double bmm_minus = conv.gemm_minus_mn ? 1 : 0;

    if (a.kind == AttnKind::Standard) {
      if (a.fused_qkv) {
        b.gemm("qkv_proj", G, n, T, h, nh * hd + nkv * (hd + vhd), a.qkv_bias);
      } else {
        b.gemm("q_proj", G, n, T, h, nh * hd, a.qkv_bias);
        b.gemm("k_proj", G, n, T, h, nkv * hd, a.qkv_bias);
        b.gemm("v_proj", G, n, T, h, nkv * vhd, a.qkv_bias);
      }
      if (a.qk_norm) b.elementwise("qk_norm", G, n, T * (nh + nkv) * hd, conv.rmsnorm_flops_per_element, 1,
                                   a.qk_norm_weight ? 2 * hd : 0).dispatches = 2 * c;
      if (a.rope_dim > 0)
        b.elementwise("rope", G, n, T * (nh + nkv) * static_cast<double>(a.rope_dim), conv.rope_flops_per_element, 1)
            .dispatches = (conv.split_rope_and_cache_write ? 2 : 1) * c;  // queries and keys apart, or one kernel
      if (s.online_hadamard)
        b.elementwise("hadamard_qk", G, n, T * (nh + nkv) * hd, hadamard_flops_per_element(a.head_dim), 1);
      {
        Op& op = b.add("kv_cache_write", G, OpClass::Memory, n);
        op.act_read_bytes = c * T * nkv * (hd + vhd) * b.ab;
        op.kv_write_bytes = c * T * nkv * (hd + vhd) * b.kb;
        if (conv.split_rope_and_cache_write) op.dispatches = 2 * c;  // keys and values apart
      }
      const double qk_flops = pairs * nh * (2 * hd - bmm_minus);
      const double av_flops = pairs * nh * (2 * vhd) - (conv.gemm_minus_mn ? T * nh * vhd : 0);
      const double kv_read = keys * nkv * (hd + vhd) * b.kb;
      if (s.attention == AttnImpl::Fused) {
        Op& op = b.add("attention", G, OpClass::Attention, n);
        op.flops = c * (qk_flops + av_flops + pairs * nh * sm);
        op.act_read_bytes = c * T * nh * hd * b.ab;
        op.kv_read_bytes = c * kv_read;
        op.act_write_bytes = c * T * nh * vhd * b.ab;
        finish_attention(op, nh * (2 * hd + 2 * vhd + sm), c * keys * nkv * (hd + vhd));
      } else {
        Op& qk = b.add("attn_scores", G, OpClass::Attention, n);
        qk.flops = c * (qk_flops + pairs * nh * conv.score_scale_flops);
        qk.act_read_bytes = c * T * nh * hd * b.ab;
        qk.kv_read_bytes = c * keys * nkv * hd * b.kb;
        qk.act_write_bytes = c * pairs * nh * b.ab;
        finish_attention(qk, nh * 2 * hd, c * keys * nkv * hd);
        b.elementwise("softmax", G, n, pairs * nh, conv.softmax_flops_per_score, 1);
        Op& av = b.add("attn_av", G, OpClass::Attention, n);
        av.flops = c * av_flops;
        av.act_read_bytes = c * pairs * nh * b.ab;
        av.kv_read_bytes = c * keys * nkv * vhd * b.kb;
        av.act_write_bytes = c * T * nh * vhd * b.ab;
        finish_attention(av, nh * 2 * vhd, c * keys * nkv * vhd);
      }
      if (s.online_hadamard) b.elementwise("hadamard_o_in", G, n, T * nh * vhd, hadamard_flops_per_element(a.n_heads), 1);
      b.gemm("o_proj", G, n, T, nh * vhd, h, a.o_bias);
    } else {
      // MLA (DeepSeek-V2/V3). The latent c_kv (kv_lora_rank) and the shared rotary key (qk_rope_dim) are cached.
      const double ql = static_cast<double>(a.q_lora_rank), kvl = static_cast<double>(a.kv_lora_rank);
      const double nope = static_cast<double>(a.qk_nope_dim), rope = static_cast<double>(a.qk_rope_dim);
      if (a.q_lora_rank > 0) {
        b.gemm("q_a_proj", G, n, T, h, ql, false);
        b.elementwise("q_a_norm", G, n, T * ql, conv.rmsnorm_flops_per_element, 1, ql);
        b.gemm("q_b_proj", G, n, T, ql, nh * (nope + rope), false);
      } else {
        b.gemm("q_proj", G, n, T, h, nh * (nope + rope), false);
      }
      b.gemm("kv_a_proj", G, n, T, h, kvl + rope, false);
      b.elementwise("kv_a_norm", G, n, T * kvl, conv.rmsnorm_flops_per_element, 1, kvl);
      b.elementwise("rope", G, n, T * (nh + 1) * rope, conv.rope_flops_per_element, 1);
      {
        Op& op = b.add("kv_cache_write", G, OpClass::Memory, n);
        op.act_read_bytes = c * T * (kvl + rope) * b.ab;
        op.kv_write_bytes = c * T * (kvl + rope) * b.kb;
      }
      // Serving engines (vLLM, SGLang) expand for prefill and absorb for decode; Auto follows them.
      const bool absorbed = s.mla == MlaForm::Absorbed || (s.mla == MlaForm::Auto && decode_only);
      if (absorbed) {
        // Absorbed: queries move into latent space (W_UK), attention runs over the latent like MQA, and W_UV
        // maps the latent output back per head.
        // One nope x kvl matrix per head; the call reads all nh of them.
        b.gemm("q_absorb (W_UK)", G, n, T * nh, nope, kvl, false, nh);
        Op& op = b.add("attention (latent)", G, OpClass::Attention, n);
        op.flops = c * (pairs * nh * (2 * (kvl + rope) - bmm_minus) + pairs * nh * 2 * kvl + pairs * nh * sm);
        op.act_read_bytes = c * T * nh * (kvl + rope) * b.ab;
        op.kv_read_bytes = c * keys * (kvl + rope) * b.kb;
        op.act_write_bytes = c * T * nh * kvl * b.ab;
        finish_attention(op, nh * (2 * (kvl + rope) + 2 * kvl + sm), c * keys * (kvl + rope));
        b.gemm("v_up (W_UV)", G, n, T * nh, kvl, vhd, false, nh);
      } else {
        // Expanded: kv_b_proj rebuilds per-head keys and values for every key the step attends to.
        Op& kvb = b.gemm("kv_b_proj", G, n, keys, kvl, nh * (nope + vhd), false);
        kvb.act_read_bytes = 0;
        kvb.kv_read_bytes = c * keys * (kvl + rope) * b.kb;
        Op& op = b.add("attention", G, OpClass::Attention, n);
        op.flops = c * (pairs * nh * (2 * (nope + rope) - bmm_minus) + pairs * nh * 2 * vhd + pairs * nh * sm);
        op.act_read_bytes = c * (T * nh * (nope + rope) + keys * nh * (nope + vhd)) * b.ab;
        op.act_write_bytes = c * T * nh * vhd * b.ab;
        finish_attention(op, nh * (2 * (nope + rope) + 2 * vhd + sm), 0);
        if (kv_dequant) {  // the latent is converted once, before kv_b_proj
          kvb.dequant_flops += 2 * c * keys * (kvl + rope);
          kvb.flops += 2 * c * keys * (kvl + rope);
        }
      }
      if (s.online_hadamard) b.elementwise("hadamard_o_in", G, n, T * nh * vhd, hadamard_flops_per_element(a.n_heads), 1);
      b.gemm("o_proj", G, n, T, nh * vhd, h, false);
    }

    // Residual adds: two per sequential block, one three-way add per parallel block.
    if (g.spec.parallel) b.elementwise("residual_add", G, n, T * h, 2, 3);
    else b.elementwise("residual_add x2", G, n, 2 * T * h, 1, 2).dispatches = 2 * c;

    // FFN.
    // With fused_mlp the gate/up GEMM applies the activation (and the gate product) in its epilogue: one kernel,
    // and only the activated T x width result is written.
    const auto dense_mlp = [&](const std::string& prefix, double width, bool bias, bool fused) {
      b.wclass = WeightClass::Ffn;
      if (s.fused_mlp) {
        Op& op = b.gemm(prefix + (f.gated ? "gate_up_act (fused)" : "up_act (fused)"), G, n, T, h, (f.gated ? 2 : 1) * width, bias);
        const double act = T * width * (b.act_cost() + (f.gated ? conv.gate_mul_flops_per_element : 0));
        op.flops += c * act;
        op.act_write_bytes = c * T * width * b.ab;
      } else if (f.gated) {
        if (fused) b.gemm(prefix + "gate_up_proj", G, n, T, h, 2 * width, bias);
        else {
          b.gemm(prefix + "gate_proj", G, n, T, h, width, bias);
          b.gemm(prefix + "up_proj", G, n, T, h, width, bias);
        }
        b.elementwise(prefix + "act_mul", G, n, T * width, b.act_cost() + conv.gate_mul_flops_per_element, 2);
      } else {
        b.gemm(prefix + "up_proj", G, n, T, h, width, bias);
        b.elementwise(prefix + "act", G, n, T * width, b.act_cost(), 1);
      }
      if (s.online_hadamard)
        b.elementwise(prefix + "hadamard_down_in", G, n, T * width, hadamard_flops_per_element(static_cast<i64>(width)), 1);
      b.gemm(prefix + "down_proj", G, n, T, width, h, bias);
    };
    if (!f.moe) {
      dense_mlp("", static_cast<double>(f.intermediate), f.bias, f.fused_gate_up);
    } else {
      const double E = static_cast<double>(f.n_experts), k = static_cast<double>(f.top_k);
      const double Ie = static_cast<double>(f.expert_intermediate);
      b.wclass = WeightClass::Router;
      b.gemm("router", G, n, T, h, E, f.router_bias);
      const double touched = experts_touched(conv.moe, E, k, T);
      const double routed = T * k;  // token-expert pairs
      const double up_width = (f.gated ? 2 : 1) * Ie;
      b.wclass = WeightClass::Experts;
      b.gemm("experts_gate_up", G, n, routed, h, up_width, f.expert_bias, touched);
      b.elementwise("experts_act_mul", G, n, routed * Ie,
                    b.act_cost() + (f.gated ? conv.gate_mul_flops_per_element : 0), f.gated ? 2 : 1);
      if (s.online_hadamard)
        b.elementwise("experts_hadamard_down_in", G, n, routed * Ie, hadamard_flops_per_element(f.expert_intermediate), 1);
      b.gemm("experts_down", G, n, routed, Ie, h, f.expert_bias, touched);
      b.elementwise("experts_combine", G, n, T * h, 2 * k, k);
      if (f.n_shared > 0) {
        dense_mlp("shared_", static_cast<double>(f.n_shared * f.shared_intermediate), false, false);
        b.wclass = WeightClass::Router;
        if (f.shared_gate) b.gemm("shared_gate", G, n, T, h, 1, false);
      }
    }
  }

  if (!m.has_head) return out;
  b.elementwise("final_norm", "", 1, T * h, b.norm_cost(), 1, h * (m.norm_bias ? 2 : 1));
  b.wclass = WeightClass::LmHead;
  b.gemm("lm_head", "", 1, st.logit_rows, h, V, false);
  return out;
}

}  // namespace infercast
