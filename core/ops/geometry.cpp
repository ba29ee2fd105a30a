#include "ops/geometry.hpp"

#include <algorithm>
#include <cmath>

namespace infercast {

namespace {

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

// DeepSeek-V4: the compressed entries the queries at positions [0, P) see, each position p seeing (p+1)/m of them
// (a fractional count: the mean over the m positions one pool spans), at most `cap` (CSA's top-k; 0: no cap).
double compressed_prefix(double P, double m, double cap) { return window_prefix(P, cap > 0 ? m * cap : 0) / m; }

}  // namespace

double index_key_bytes(const AttentionSpec& a) {
  if (a.index_topk <= 0) return 0;
  // MiniMax-M3: one bf16 key of d_i a token (vLLM's MiniMaxM3IndexerCache keeps the model's type).
  if (a.index_block > 0) return 2.0 * static_cast<double>(a.index_head_dim);
  return static_cast<double>(a.index_head_dim) + 4.0 * std::ceil(static_cast<double>(a.index_head_dim) / 128);
}

double mla_latent_bytes(const AttentionSpec& a, double kvb) {
  const double kvl = static_cast<double>(a.kv_lora_rank), rope = static_cast<double>(a.qk_rope_dim);
  if (a.index_topk > 0 && kvb == 1) return kvl + 4.0 * std::ceil(kvl / 128) + 2.0 * rope;
  return (kvl + rope) * kvb;
}

double kv_bytes_per_token_layer(const AttentionSpec& a, double kvb) {
  if (a.kv_shared) return 0;  // reads the cache of an earlier layer (Gemma 3n, Gemma 4)
  if (a.cross) return 0;      // image tokens' keys and values: a constant per sequence (image_kv_bytes_per_token)
  // DeepSeek-V4: the window's entries, one head_dim-wide vector a token (keys are the values); the pooled entries
  // are compressed_kv_bytes_per_token's.
  if (a.kind == AttnKind::Compressed) return static_cast<double>(a.n_kv_heads * a.head_dim) * kvb;
  if (a.kind == AttnKind::MLA) return mla_latent_bytes(a, kvb) + index_key_bytes(a);
  return static_cast<double>(a.n_kv_heads) * static_cast<double>(a.head_dim + a.v_head_dim) * kvb + index_key_bytes(a);
}

double image_kv_bytes_per_token(const AttentionSpec& a, double kvb) {
  return a.cross ? static_cast<double>(a.n_kv_heads) * static_cast<double>(a.head_dim + a.v_head_dim) * kvb : 0;
}

double compressed_kv_bytes_per_token(const AttentionSpec& a, double kvb) {
  if (a.kind != AttnKind::Compressed || a.compress_ratio <= 0) return 0;
  const double entry = static_cast<double>(a.n_kv_heads * a.head_dim) * kvb;
  return (entry + index_key_bytes(a)) / static_cast<double>(a.compress_ratio);
}

double kv_bytes_resident(const AttentionSpec& a, double kvb, double ctx, bool window_held_in_full) {
  return kv_bytes_per_token_layer(a, kvb) * kv_tokens_resident(a, ctx, window_held_in_full) +
         compressed_kv_bytes_per_token(a, kvb) * ctx;
}

double compressed_index_pairs(const AttentionSpec& a, double cached, double input) {
  if (a.kind != AttnKind::Compressed || a.compress_ratio <= 0 || a.index_topk <= 0 || input <= 0) return 0;
  const double m = static_cast<double>(a.compress_ratio);
  return compressed_prefix(cached + input, m, 0) - compressed_prefix(cached, m, 0);
}

double compressed_index_keys(const AttentionSpec& a, double cached, double input) {
  if (a.kind != AttnKind::Compressed || a.compress_ratio <= 0 || a.index_topk <= 0 || input <= 0) return 0;
  return (cached + input) / static_cast<double>(a.compress_ratio);
}

i64 compressed_keys_bound(const AttentionSpec& a) {
  if (a.kind != AttnKind::Compressed || a.compress_ratio <= 0 || a.index_topk <= 0) return 0;
  return a.compress_ratio * a.index_topk;
}

i64 keys_per_query_bound(const AttentionSpec& a) { return a.window > 0 ? a.window : a.index_topk; }

double recurrent_state_bytes(const RecurrentSpec& r, double ab) {
  const double sb = r.state_bits > 0 ? r.state_bits / 8.0 : ab;
  return static_cast<double>(recurrent_state_elements(r)) * sb + static_cast<double>(recurrent_conv_elements(r)) * ab;
}

double kv_tokens_resident(const AttentionSpec& a, double ctx, bool window_held_in_full) {
  if (a.window > 0) return window_held_in_full ? ctx : std::min(ctx, static_cast<double>(a.window));
  if (a.chunk > 0) return window_held_in_full ? ctx : std::min(ctx, static_cast<double>(a.chunk));
  return ctx;
}

double kv_bytes_per_token_past_windows(const AttentionSpec& a, double kvb, bool window_held_in_full) {
  const bool grows = (a.window <= 0 && a.chunk <= 0) || window_held_in_full;
  return (grows ? kv_bytes_per_token_layer(a, kvb) : 0) + compressed_kv_bytes_per_token(a, kvb);
}

double attention_pairs(const AttentionSpec& a, double cached, double input, bool causal) {
  if (input <= 0) return 0;
  if (!causal) return input * attention_keys_read(a, cached, input);
  if (a.kind == AttnKind::Compressed) {
    // The window's keys, and the pooled entries beside them: all of them (HCA), at most index_topk (CSA).
    const double w = static_cast<double>(a.window), m = static_cast<double>(a.compress_ratio);
    const double cap = static_cast<double>(a.index_topk);
    double p = window_prefix(cached + input, w) - window_prefix(cached, w);
    if (m > 0) p += compressed_prefix(cached + input, m, cap) - compressed_prefix(cached, m, cap);
    return p;
  }
  if (a.chunk > 0) {
    const double k = static_cast<double>(a.chunk);
    return chunk_prefix(cached + input, k) - chunk_prefix(cached, k);
  }
  // A window and DSA's top-k both cap the keys of a query at w: the query at p attends min(p+1, w).
  const double w = static_cast<double>(keys_per_query_bound(a));
  return window_prefix(cached + input, w) - window_prefix(cached, w);
}

double attention_keys_read(const AttentionSpec& a, double cached, double input) {
  if (input <= 0) return 0;
  const double end = cached + input;
  if (a.kind == AttnKind::Compressed) {
    // The window's keys, and the pooled entries: all (HCA), or each query's top-k (CSA, at most input x top-k).
    const double w = static_cast<double>(a.window), m = static_cast<double>(a.compress_ratio);
    double k = w > 0 ? end - std::max(0.0, cached + 1 - w) : end;
    if (m > 0) k += a.index_topk > 0 ? std::min(end / m, input * static_cast<double>(a.index_topk)) : end / m;
    return k;
  }
  if (a.window > 0) return end - std::max(0.0, cached + 1 - static_cast<double>(a.window));
  if (a.chunk > 0) {
    const double k = static_cast<double>(a.chunk);
    return end - (cached - std::fmod(cached, k));
  }
  // DSA: each query reads its top-k keys; the step's distinct keys are at most input x top-k.
  if (a.index_topk > 0) return std::min(end, input * static_cast<double>(a.index_topk));
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

}  // namespace infercast
