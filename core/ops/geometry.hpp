// Attention and expert geometry: how many keys a layer keeps and reads, how many (query, key) pairs a step
// computes, and how many experts a batch touches, honouring windows, chunks and causality (docs/formulas.md).
#pragma once

#include "model/model.hpp"
#include "ops/conventions.hpp"

namespace infercast {

// KV-cache bytes of one token in one layer at the given KV precision (with DeepSeek-V3.2's indexer keys, which stay
// fp8 with an fp32 scale per 128 values whatever the KV precision).
double kv_bytes_per_token_layer(const AttentionSpec& a, double kv_bytes_per_element);
// A cross-attention layer's keys and values of one image token (Llama 3.2 Vision); 0 for any other layer.
double image_kv_bytes_per_token(const AttentionSpec& a, double kv_bytes_per_element);
// Bytes of one indexer key (DeepSeek sparse attention): index_head_dim fp8 values and one fp32 scale per 128;
// MiniMax-M3's: index_head_dim bf16 values.
double index_key_bytes(const AttentionSpec& a);
// Bytes of one token's MLA latent (kv_lora_rank + the shared rotary key) at the KV precision. DeepSeek-V3.2's 8-bit
// cache is FlashMLA's sparse format: the latent in fp8 with an fp32 scale per 128 values and the rotary key kept in
// bf16 (656 bytes, vLLM's flashmla_sparse.py); a dense MLA cache in fp8 is 576.
double mla_latent_bytes(const AttentionSpec& a, double kv_bytes_per_element);
// DeepSeek-V4 (AttnKind::Compressed): the cache bytes one token adds to a layer's pooled entries (the pooled
// key-value entry and, under CSA, the indexer's key, one per compress_ratio tokens); 0 for other layers.
double compressed_kv_bytes_per_token(const AttentionSpec& a, double kv_bytes_per_element);
// The cache one request holds in a layer at context `ctx`: resident tokens x bytes per token, and pooled entries.
double kv_bytes_resident(const AttentionSpec& a, double kv_bytes_per_element, double ctx, bool window_held_in_full = false);
// DeepSeek-V4's CSA indexer: the (query, pooled key) pairs it scores and the pooled keys it reads for one request.
double compressed_index_pairs(const AttentionSpec& a, double cached, double input);
double compressed_index_keys(const AttentionSpec& a, double cached, double input);
// The position where a CSA layer's pooled entries reach its top-k (compress_ratio x index_topk; 0 for others).
i64 compressed_keys_bound(const AttentionSpec& a);
// The most keys one query attends: the sliding window, or DSA's top-k (0: unbounded). Decode costs bend where the
// context reaches it.
i64 keys_per_query_bound(const AttentionSpec& a);
// State bytes of one recurrent layer for one sequence: the recurrent state at its own precision (state_bits, or the
// activations' when 0) and the convolution window in the activations' type.
double recurrent_state_bytes(const RecurrentSpec& r, double act_bytes_per_element);
// Tokens a layer keeps in its cache at context length `ctx` (windows and chunks bound it; neither does where the
// runtime holds such layers in full, runtime/runtime.hpp window_kv_held_in_full).
double kv_tokens_resident(const AttentionSpec& a, double ctx, bool window_held_in_full = false);
// The cache bytes one more token adds to a layer once the context is past its window or chunk: the token's bytes
// where nothing bounds the layer's cache (kv_tokens_resident grows with ctx), and its pooled share (DeepSeek-V4).
double kv_bytes_per_token_past_windows(const AttentionSpec& a, double kv_bytes_per_element, bool window_held_in_full = false);
// (query, key) pairs of `input` new tokens after `cached` ones, honoring causality, windows and chunks.
double attention_pairs(const AttentionSpec& a, double cached, double input, bool causal);
// Distinct cached keys the step reads for one request.
double attention_keys_read(const AttentionSpec& a, double cached, double input);
// Expected number of distinct experts touched by `tokens` routings of top_k out of n_experts.
double experts_touched(MoeTraffic t, double n_experts, double top_k, double tokens);

// FLOPs per element of an online Hadamard transform of length d (QuaRot's kernels): log2(p) butterfly operations
// for the power-of-two part p and 2m for a dense m x m Hadamard of the rest, m = 4 x the odd part of d (Hadamard
// matrices exist for orders 1, 2 and multiples of 4). Powers of two cost log2(d); 11008 = 64 x 172 costs 6 + 344.
double hadamard_flops_per_element(i64 d);

}  // namespace infercast
