// Hybrid families with recurrent mixers and DeepSeek sparse attention: parameters exact to the integer, the state
// each keeps per sequence, and configs refused naming the field. Every expected value is computed by hand below
// from the config and transformers' modeling code (docs/formulas.md, "Linear attention and state-space layers").
#include <catch2/catch.hpp>

#include "helpers.hpp"

using namespace test;

namespace {
using ll = long long;

ModelSpec from_json(const std::string& text) { return parse_model_config(json::parse(text), "/model"); }

std::string error_of(const std::string& text) {
  try {
    from_json(text);
  } catch (const InputError& e) {
    return std::string(e.code()) + " " + e.path() + ": " + e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("Qwen3-Next-80B-A3B by hand: gated DeltaNet, gated attention, 512 experts + a shared one", "[hybrid][params]") {
  const ll h = 2048, V = 151936;
  // Gated DeltaNet (16 key heads, 32 value heads of 128): in_proj_qkvz, in_proj_ba, conv1d over q, k and v
  // (2*16*128 + 32*128 = 8192 channels x 4), dt_bias and A_log (32 each), the gated norm (128), out_proj.
  const ll gdn = h * (2 * 16 * 128 + 2 * 32 * 128) + h * 64 + 8192 * 4 + 2 * 32 + 128 + 4096 * h;
  // Gated attention (16 heads, 2 KV heads of 256): q_proj doubles for the output gate; q and k norms.
  const ll attn = h * 16 * 256 * 2 + 2 * h * 2 * 256 + 16 * 256 * h + 2 * 256;
  const ll expert = 3 * h * 512;
  const ll moe = h * 512 + 512 * expert + expert + h;  // router, experts, shared expert, its sigmoid gate
  const ll total = 36 * gdn + 12 * attn + 48 * (moe + 2 * h) + 2 * V * h + h;
  const auto c = count_params(preset_model("qwen3-next-80b-a3b"));
  CHECK(gdn == 33718464);
  CHECK(attn == 27263488);
  CHECK(c.total == total);
  CHECK(c.total == 79674391296LL);  // model card: "80B in total"
  const ll active = 36 * gdn + 12 * attn + 48 * (h * 512 + 11 * expert + h + 2 * h) + 2 * V * h + h;
  CHECK(c.active == active);
  CHECK(c.active == 3874929408LL);  // "3B activated" (3.56B without the input embedding)
  const auto m = preset_model("qwen3-next-80b-a3b");
  CHECK(m.layers[0].recurrent.kind == RecurrentKind::GatedDeltaNet);
  CHECK_FALSE(m.layers[0].has_attention);
  CHECK(m.layers[3].has_attention);
  CHECK(m.layers[3].attn.rope_dim == 64);  // partial_rotary_factor 0.25 of 256
  CHECK(m.layers[3].attn.output_gate);
}

TEST_CASE("a Qwen3-Next cache at 32k tokens is about 845 MB, not the 3.2 GB of all-full attention", "[hybrid][memory]") {
  const auto m = preset_model("qwen3-next-80b-a3b");
  Workload w;
  w.settings = settings();
  w.requests = {Request{0, 32768, 1}};
  w.gen_tokens = 1;
  const Analysis a = analyze(m, w, nullptr);
  // 12 attention layers keep 2 KV heads x (256 + 256) bf16 values per token.
  const double kv = 12.0 * 2 * 512 * 2 * 32768;  // 805,306,368
  // 36 DeltaNet layers keep 32 x 128 x 128 state values and the conv window of 3 x 8192, in bf16.
  const double state = 36.0 * (32 * 128 * 128 + 3 * 8192) * 2;  // 39,518,208
  CHECK(a.state_bytes == state);
  CHECK(a.kv_cache_bytes == kv + state);
  CHECK(a.kv_cache_bytes == 844824576.0);
  CHECK(a.kv_bytes_per_token == 12.0 * 2 * 512 * 2);
  // Had all 48 layers been full attention: 3,221,225,472 bytes.
  CHECK(48.0 * 2 * 512 * 2 * 32768 == 3221225472.0);
  // The state does not grow with the context.
  Workload w2 = w;
  w2.requests = {Request{0, 65536, 1}};
  CHECK(analyze(m, w2, nullptr).state_bytes == state);
}

TEST_CASE("Qwen3.5: dense and MoE gated DeltaNet hybrids through text_config, float32 SSM state", "[hybrid][params]") {
  const auto dense = preset_model("qwen3.5-27b");
  const ll h = 5120, V = 248320;
  // 48 value heads, 16 key heads of 128: q, k 2048 each, v and z 6144 each; conv over 10240 channels.
  const ll gdn = h * (2 * 2048 + 2 * 6144) + h * 96 + 10240 * 4 + 2 * 48 + 128 + 6144 * h;
  const ll attn = h * 24 * 256 * 2 + 2 * h * 4 * 256 + 24 * 256 * h + 2 * 256;
  const ll mlp = 3 * h * 17408;
  const auto c = count_params(dense);
  CHECK(c.total - c.vision == 48 * gdn + 16 * attn + 64 * (mlp + 2 * h) + 2 * V * h + h);
  CHECK(c.vision == 460730096);  // its Qwen3-VL-style vision encoder (test_vision.cpp)
  CHECK(dense.layers[0].recurrent.state_bits == 32);  // mamba_ssm_dtype float32
  CHECK(dense.mtp_layers == 1);
  // State per sequence: 48 layers x (48 x 128 x 128 in fp32 + 3 x 10240 conv values in bf16).
  CHECK(recurrent_state_bytes(dense.layers[0].recurrent, 2) == 48.0 * 128 * 128 * 4 + 3 * 10240 * 2);
  const auto moe = preset_model("qwen3.5-35b-a3b");
  CHECK(moe.layers[0].ffn.moe);
  CHECK(moe.layers[0].ffn.n_experts == 256);
  CHECK(moe.layers[0].ffn.n_shared == 1);
}

TEST_CASE("Nemotron 3 Nano 30B-A3B by hand: Mamba2, attention, MLP and MoE blocks of one layer each", "[hybrid][params]") {
  const ll h = 2688, V = 131072;
  // Mamba2: 64 heads of 64 (d_inner 4096), 8 groups of state 128. in_proj to z, x, B, C, dt; conv over x, B, C
  // (4096 + 2048 channels, kernel 4, with bias); dt_bias, A_log, D; the gated norm over d_inner; out_proj.
  const ll mamba = h * (2 * 4096 + 2 * 8 * 128 + 64) + 6144 * 4 + 6144 + 3 * 64 + 4096 + 4096 * h;
  const ll attn = h * 32 * 128 + 2 * h * 2 * 128 + 32 * 128 * h;  // no bias, no RoPE
  // MoE: router with e_score_correction_bias, 128 non-gated ReLU^2 experts of 1856, one shared MLP of 3712.
  const ll expert = 2 * h * 1856;
  const ll moe = h * 128 + 128 + 128 * expert + 2 * h * 3712;
  const ll total = 23 * (mamba + h) + 6 * (attn + h) + 23 * (moe + h) + 2 * V * h + h;
  const auto c = count_params(preset_model("nemotron-3-nano-30b-a3b"));
  CHECK(c.total == total);
  CHECK(c.total == 31577940288LL);  // NVIDIA: 31.6B total
  CHECK(c.active == total - 23 * (122 * expert));
  const auto m = preset_model("nemotron-3-nano-30b-a3b");
  CHECK(m.layers[0].recurrent.kind == RecurrentKind::Mamba2);
  CHECK_FALSE(m.layers[0].has_ffn);
  CHECK(m.layers[1].ffn.moe);
  CHECK_FALSE(m.layers[1].has_attention);
  CHECK(m.layers[5].has_attention);
  CHECK(m.layers[5].attn.rope_dim == 0);
  CHECK(m.layers[0].norms == 1);
  // State per sequence and layer: 64 x 64 x 128 fp32 (mamba_ssm_cache_dtype) + 3 x 6144 bf16 conv values.
  CHECK(recurrent_state_bytes(m.layers[0].recurrent, 2) == 64.0 * 64 * 128 * 4 + 3 * 6144 * 2);
}

TEST_CASE("MiniMax-M1 by hand: 70 lightning-attention layers and 10 softmax layers, 32 experts", "[hybrid][params]") {
  const ll h = 6144, V = 200064, inner = 64 * 128;
  const ll lightning = h * 3 * inner + h * inner + inner + inner * h;  // qkv, output_gate, norm, out_proj
  const ll softmax = h * inner + 2 * h * 8 * 128 + inner * h;
  const ll expert = 3 * h * 9216;
  const ll layer_ffn = h * 32 + 32 * expert + 2 * h;
  const ll total = 70 * lightning + 10 * softmax + 80 * layer_ffn + 2 * V * h + h;
  const auto c = count_params(preset_model("minimax-m1"));
  CHECK(lightning == 251666432);
  CHECK(c.total == total);
  CHECK(c.total == 456089655296LL);  // "456 billion parameters"
  // MiniMax's "45.9 billion activated" excludes the embedding and the LM head.
  CHECK(c.active - 2 * V * h == 45944920064LL);
  const auto m = preset_model("minimax-m1");
  CHECK(m.layers[7].has_attention);
  CHECK(m.layers[7].attn.rope_dim == 64);
  CHECK(m.layers[0].recurrent.kind == RecurrentKind::Lightning);
  // A 64 x 128 x 128 state per lightning layer, no convolution.
  CHECK(recurrent_state_bytes(m.layers[0].recurrent, 2) == 64.0 * 128 * 128 * 2);
}

TEST_CASE("DeepSeek-V3.2 by hand: DeepSeek-V3 plus a lightning indexer per layer, its keys cached in fp8", "[hybrid][params]") {
  const ll indexer = 1536LL * 64 * 128 + 7168LL * 128 + 2 * 128 + 7168LL * 64;  // wq_b, wk, k_norm, weights_proj
  CHECK(indexer == 13959424);
  const auto v3 = count_params(preset_model("deepseek-v3"));
  const auto v32 = count_params(preset_model("deepseek-v3.2"));
  CHECK(v32.total == v3.total + 61 * indexer);
  CHECK(v32.total == 671877944064LL);
  CHECK(v32.active == v3.active + 61 * indexer);
  const auto m = preset_model("deepseek-v3.2");
  CHECK(m.layers[0].attn.index_topk == 2048);
  // Per token and layer: the 576-wide latent in the KV type, and 128 fp8 indexer values + one fp32 scale.
  CHECK(kv_bytes_per_token_layer(m.layers[0].attn, 2) == 576 * 2 + 132);
  // In 8 bits, FlashMLA's sparse format (vLLM's flashmla_sparse.py): 512 fp8 latent values, an fp32 scale per 128 and
  // the 64-wide rotary key left in bf16 = 656, with the indexer key 788; DeepSeek-V3's dense fp8 cache is 576.
  CHECK(kv_bytes_per_token_layer(m.layers[0].attn, 1) == 512 + 4 * 4 + 64 * 2 + 132);
  CHECK(kv_bytes_per_token_layer(preset_model("deepseek-v3").layers[0].attn, 1) == 576);
}

TEST_CASE("Jamba by hand: Mamba layers with dt/B/C norms, attention every 8th layer, MoE every 2nd", "[hybrid][params]") {
  // The sizes of ai21labs/AI21-Jamba-1.5-Mini (and Jamba-v0.1): 52B total, 12B active.
  const auto m = from_json(R"({"model_type": "jamba", "hidden_size": 4096, "num_hidden_layers": 32, "vocab_size": 65536,
      "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336, "num_experts": 16,
      "num_experts_per_tok": 2, "attn_layer_period": 8, "attn_layer_offset": 4, "expert_layer_period": 2,
      "expert_layer_offset": 1, "mamba_d_state": 16, "mamba_d_conv": 4, "mamba_expand": 2, "mamba_dt_rank": 256,
      "mamba_conv_bias": true, "mamba_proj_bias": false, "tie_word_embeddings": false})");
  const ll h = 4096, D = 8192;
  // in_proj (x, z), conv1d with bias, x_proj (dt 256, B 16, C 16), dt_proj with bias, A_log (D x 16), D, out_proj,
  // and the RMSNorms of dt (256), B and C (16 each).
  const ll mamba = h * 2 * D + D * 4 + D + D * (256 + 32) + 256 * D + D + D * 16 + D + D * h + 256 + 32;
  CHECK(mamba == 105308448);
  const ll attn = h * h + 2 * h * 1024 + h * h;
  const ll mlp = 3 * h * 14336;
  const ll moe = h * 16 + 16 * mlp;
  const auto c = count_params(m);
  CHECK(c.total == 28 * mamba + 4 * attn + 16 * mlp + 16 * moe + 32 * 2 * h + 2 * 65536 * h + h);
  CHECK(c.total == 51570323328LL);
  CHECK(c.active == c.total - 16 * 14 * mlp);
  CHECK(c.active == 12110311296LL);
  CHECK(m.layers[4].has_attention);
  CHECK(m.layers[4].attn.rope_dim == 0);
  CHECK(m.layers[0].recurrent.kind == RecurrentKind::Mamba);
  // State: d_inner x d_state values and the conv window of 3 x d_inner, per layer and sequence.
  CHECK(recurrent_state_bytes(m.layers[0].recurrent, 2) == (8192.0 * 16 + 3 * 8192) * 2);
}

TEST_CASE("Falcon-H1 by hand: attention and Mamba2 side by side in every layer, optional mamba norm", "[hybrid][params]") {
  const auto m = from_json(R"({"model_type": "falcon_h1", "hidden_size": 1024, "num_hidden_layers": 36,
      "vocab_size": 32784, "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 64,
      "intermediate_size": 2048, "mamba_d_ssm": 1536, "mamba_n_heads": 24, "mamba_d_head": 64, "mamba_n_groups": 1,
      "mamba_d_state": 128, "mamba_d_conv": 4, "mamba_conv_bias": true, "mamba_proj_bias": false,
      "mamba_rms_norm": false, "projectors_bias": false, "tie_word_embeddings": false,
      "embedding_multiplier": 5.656854249492381, "lm_head_multiplier": 0.0390625, "key_multiplier": 0.390625,
      "ssm_multipliers": [0.35, 0.25, 0.35, 0.5, 0.35], "mlp_multipliers": [0.88, 0.58]})");
  const ll h = 1024;
  const ll attn = h * 512 + 2 * h * 128 + 512 * h;
  // in_proj to z, x (1536 each), B, C (128 each), dt (24); conv over 1536 + 256 channels; dt_bias, A_log, D; no norm.
  const ll mamba = h * (2 * 1536 + 256 + 24) + 1792 * 4 + 1792 + 3 * 24 + 1536 * h;
  const ll mlp = 3 * h * 2048;
  CHECK(count_params(m).total == 36 * (attn + mamba + mlp + 2 * h) + 2 * 32784 * h + h);
  CHECK(m.layers[0].has_attention);
  CHECK(m.layers[0].recurrent.kind == RecurrentKind::Mamba2);
  CHECK_FALSE(m.layers[0].recurrent.norm);
  CHECK(m.warnings.empty());  // the muP multipliers are read: they scale, they add no parameter
}

TEST_CASE("Granite 4.0 hybrid by hand: Mamba2 or NoPE attention, then MoE beside a shared MLP", "[hybrid][params]") {
  const auto m = from_json(R"({"model_type": "granitemoehybrid", "hidden_size": 1536, "num_hidden_layers": 4,
      "vocab_size": 100352, "num_attention_heads": 12, "num_key_value_heads": 4, "intermediate_size": 512,
      "num_local_experts": 62, "num_experts_per_tok": 6, "shared_intermediate_size": 1024, "mamba_n_heads": 48,
      "mamba_d_head": 64, "mamba_n_groups": 1, "mamba_d_state": 128, "mamba_d_conv": 4, "mamba_expand": 2,
      "layer_types": ["mamba", "mamba", "attention", "mamba"], "position_embedding_type": "nope",
      "tie_word_embeddings": true, "embedding_multiplier": 12, "residual_multiplier": 0.22,
      "logits_scaling": 6, "attention_multiplier": 0.0078125})");
  const ll h = 1536, inner = 3072;
  const ll mamba = h * (2 * inner + 256 + 48) + 3328 * 4 + 3328 + 3 * 48 + inner + inner * h;
  const ll attn = h * 12 * 128 + 2 * h * 4 * 128 + 12 * 128 * h;
  const ll ffn = h * 62 + 62 * 3 * h * 512 + 3 * h * 1024;
  const auto c = count_params(m);
  CHECK(c.total == 3 * mamba + attn + 4 * (ffn + 2 * h) + 100352 * h + h);
  CHECK(c.active == c.total - 4 * 56 * 3 * h * 512);
  CHECK(m.layers[2].attn.rope_dim == 0);
  CHECK(m.layers[0].ffn.n_shared == 1);
}

// LFM2-350M (LiquidAI/LFM2-350M config.json, refused before): 10 gated short-convolution layers and 6 GQA layers.
// By hand: the short conv's in_proj 1024 -> 3 x 1024, its depthwise conv of 3 taps, out_proj; attention 16 heads
// and 8 KV heads of 64 with q/k layernorms of 64; block_ff_dim 6656 auto-adjusted to 2/3 (4437), rounded up to a
// multiple of 256: 4608; two norms a layer, the final one, and the tied embedding.
TEST_CASE("LFM2-350M by hand: gated short convolutions and attention, an auto-adjusted MLP", "[hybrid][params]") {
  const std::string cfg = R"({"architectures": ["Lfm2ForCausalLM"], "block_auto_adjust_ff_dim": true, "block_dim": 1024,
    "block_ff_dim": 6656, "block_ffn_dim_multiplier": 1.0, "block_multiple_of": 256, "conv_L_cache": 3, "conv_bias": false,
    "conv_dim": 1024, "hidden_size": 1024, "intermediate_size": 6656, "max_position_embeddings": 128000, "model_type": "lfm2",
    "num_attention_heads": 16, "num_heads": 16, "num_hidden_layers": 16, "num_key_value_heads": 8, "vocab_size": 65536,
    "layer_types": ["conv","conv","full_attention","conv","conv","full_attention","conv","conv","full_attention","conv",
                    "full_attention","conv","full_attention","conv","full_attention","conv"]})";
  const ModelSpec m = from_json(cfg);
  const ll h = 1024, V = 65536, ff = 4608;
  const ll conv = h * 3 * h + h * 3 + h * h;
  const ll attn = h * 16 * 64 + 2 * h * 8 * 64 + 16 * 64 * h + 2 * 64;
  const ll total = 10 * conv + 6 * attn + 16 * (3 * h * ff + 2 * h) + h + V * h;
  CHECK(m.layers[0].ffn.intermediate == ff);
  CHECK(count_params(m).total == total);
  CHECK(count_params(m).total == 354483968LL);
  // The cache: keys and values of the 6 attention layers only; each conv layer keeps its last 2 inputs a sequence.
  Workload w;
  w.settings = settings();
  w.requests = {Request{0, 1024, 4}};
  w.gen_tokens = 2;
  const Analysis a = analyze(m, w, nullptr);
  CHECK(a.kv_bytes_per_token == 6 * 8 * 64 * 2 * 2);
  CHECK(a.state_bytes == 4 * 10 * h * 2 * 2.0);
  // A conv layer's decode step of one token: in_proj and out_proj GEMMs, the two gates and the 3-tap convolution.
  const auto ops = step_ops(m, group_layers(m), {Request{100, 1, 1}}, settings());
  CHECK(find_op(ops, "in_proj").flops == 10 * 2.0 * h * 3 * h);
  CHECK(find_op(ops, "out_proj").flops == 10 * 2.0 * h * h);
  CHECK(find_op(ops, "conv1d").flops == 10 * 6.0 * h);
  // tie_embedding, the older key, unties them when false; without layer_types every layer attends unless
  // full_attn_idxs says which do.
  json c = json::parse(cfg);
  c["tie_embedding"] = false;
  CHECK(count_params(parse_model_config(c, "/model")).total == total + V * h);
  c.erase("layer_types");
  c["full_attn_idxs"] = {2, 5, 8, 10, 12, 14};
  CHECK(count_params(parse_model_config(c, "/model")).total == total + V * h);
  c.erase("full_attn_idxs");
  CHECK(count_params(parse_model_config(c, "/model")).total == 16 * attn + 16 * (3 * h * ff + 2 * h) + h + 2 * V * h);
}

// Nemotron 3 Super 120B-A12B (nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8 config.json, refused before): 40 Mamba2,
// 8 attention and 40 latent-MoE blocks. By hand, h = 4096:
//   Mamba2 (128 heads of 64, d_inner 8192, 8 groups of state 128): in_proj 4096 x (2*8192 + 2*8*128 + 128) =
//     76,021,760; conv over 8192 + 2048 = 10240 channels, 4 taps and a bias: 51,200; dt_bias, A_log, D: 384; the
//     gated norm 8192; out_proj 8192 x 4096 = 33,554,432; together 109,635,968.
//   attention (32 heads, 2 KV heads of 128, no bias): 4096 x (4096 + 512) + 4096 x 4096 = 35,651,584.
//   latent MoE: router 4096 x 512 + 512 (e_score_correction_bias); 512 ReLU^2 experts of 2688 over the 1024-wide
//     latent, 2 x 1024 x 2688 = 5,505,024 each; the shared MLP 2 x 4096 x 5376 = 44,040,192; fc1_latent_proj and
//     fc2_latent_proj 2 x 4096 x 1024 = 8,388,608.
//   one norm a block, the final norm, untied embedding and head 2 x 131072 x 4096.
// Total 120,668,707,840 ("120B"); active: 22 of the 512 experts, 12,770,237,440 (12,233,366,528 without the input
// embedding: "A12B"). The MTP block (mtp_hybrid_override_pattern "*E") is reported, not counted.
TEST_CASE("Nemotron 3 Super by hand: a latent MoE beside Mamba2 and attention", "[hybrid][params]") {
  const std::string cfg = R"({"architectures": ["NemotronHForCausalLM"], "attention_bias": false, "chunk_size": 128,
    "conv_kernel": 4, "expand": 2, "head_dim": 128, "hidden_size": 4096,
    "hybrid_override_pattern": "MEMEMEM*EMEMEMEM*EMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEM*EMEMEMEME",
    "intermediate_size": 2688, "layer_norm_epsilon": 1e-05, "mamba_head_dim": 64, "mamba_hidden_act": "silu",
    "mamba_num_heads": 128, "mamba_proj_bias": false, "mamba_ssm_cache_dtype": "float32", "max_position_embeddings": 262144,
    "mlp_bias": false, "mlp_hidden_act": "relu2", "model_type": "nemotron_h", "moe_intermediate_size": 2688,
    "moe_latent_size": 1024, "moe_shared_expert_intermediate_size": 5376, "moe_shared_expert_overlap": false,
    "mtp_hybrid_override_pattern": "*E", "n_group": 1, "n_groups": 8, "n_routed_experts": 512, "n_shared_experts": 1,
    "norm_eps": 1e-05, "norm_topk_prob": true, "num_attention_heads": 32, "num_experts_per_tok": 22,
    "num_hidden_layers": 88, "num_key_value_heads": 2, "num_nextn_predict_layers": 1, "partial_rotary_factor": 1.0,
    "rope_theta": 10000, "routed_scaling_factor": 5.0, "sliding_window": null, "ssm_state_size": 128,
    "tie_word_embeddings": false, "topk_group": 1, "use_bias": false, "use_conv_bias": true, "vocab_size": 131072})";
  const ModelSpec m = from_json(cfg);
  const ll h = 4096, V = 131072;
  const ll mamba = h * (2 * 8192 + 2 * 8 * 128 + 128) + 10240 * 4 + 10240 + 3 * 128 + 8192 + 8192 * h;
  const ll attn = h * 32 * 128 + 2 * h * 2 * 128 + 32 * 128 * h;
  const ll expert = 2 * 1024 * 2688;
  const ll moe = h * 512 + 512 + 512 * expert + 2 * h * 5376 + 2 * h * 1024;
  const ll total = 40 * (mamba + h) + 8 * (attn + h) + 40 * (moe + h) + 2 * V * h + h;
  CHECK(mamba == 109635968LL);
  CHECK(attn == 35651584LL);
  const auto c = count_params(m);
  CHECK(c.total == total);
  CHECK(c.total == 120668707840LL);
  CHECK(c.active == total - 40 * (490 * expert));
  CHECK(c.active == 12770237440LL);
  CHECK(c.active_no_embed == 12233366528LL);
  CHECK(c.experts_routed == 40 * 512 * expert);
  CHECK(c.ffn_dense == 40 * 2 * h * 1024);  // the latent projections
  CHECK(m.mtp_layers == 1);
  CHECK(m.layers[1].ffn.latent == 1024);
  // The cache: keys and values of the 8 attention layers (2 KV heads of 128, bf16); each Mamba2 layer keeps
  // 128 x 64 x 128 fp32 and 3 x 10240 conv values a sequence.
  Workload w;
  w.settings = settings();
  w.requests = {Request{0, 1024, 4}};
  w.gen_tokens = 2;
  const Analysis a = analyze(m, w, nullptr);
  CHECK(a.kv_bytes_per_token == 8 * 2 * 128 * 2 * 2);
  CHECK(a.state_bytes == 4 * 40 * (128.0 * 64 * 128 * 4 + 3 * 10240 * 2));
  // One decode token: the latent projections at h x 1024, 22 experts at the latent width.
  const auto ops = step_ops(m, group_layers(m), {Request{100, 1, 1}}, settings());
  CHECK(find_op(ops, "fc1_latent_proj").flops == 40 * 2.0 * h * 1024);
  CHECK(find_op(ops, "fc2_latent_proj").flops == 40 * 2.0 * 1024 * h);
  CHECK(find_op(ops, "experts_gate_up").flops == 40 * 2.0 * 22 * 1024 * 2688);
  CHECK(find_op(ops, "experts_down").flops == 40 * 2.0 * 22 * 2688 * 1024);
  CHECK(find_op(ops, "router").flops == 40 * 2.0 * h * 512);
  // mlp_bias gives both latent projections their biases (1024 + 4096 a layer).
  json b = json::parse(cfg);
  b["mlp_bias"] = true;
  CHECK(count_params(parse_model_config(b, "/model")).total == total + 40 * (1024 + h));
}

// Nemotron 3 Ultra 550B-A55B (layers_block_type instead of a pattern): 48 Mamba2, 12 attention, 48 latent-MoE blocks,
// h = 8192. Mamba2 (256 heads of 64, d_inner 16384): 8192 x (2*16384 + 2048 + 256) + 18432 x 5 + 768 + 16384 +
// 16384 x 8192 = 421,636,864; attention (64 heads, 2 KV heads of 128) 138,412,032; latent MoE: router 8192 x 512 +
// 512, 512 experts of 2 x 2048 x 5120, the shared MLP 2 x 8192 x 10240, the projections 2 x 8192 x 2048. Total
// 549,308,993,536 ("550B"); active (22 experts) 56,058,843,136, 54,985,101,312 without the embedding ("A55B").
TEST_CASE("Nemotron 3 Ultra by hand: 108 blocks from layers_block_type", "[hybrid][params]") {
  const std::string pattern = "MEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME";
  json types = json::array();
  for (char k : pattern) types.push_back(k == 'M' ? "mamba" : (k == '*' ? "attention" : "moe"));
  json c = json::parse(R"({"model_type": "nemotron_h", "head_dim": 128, "hidden_size": 8192, "intermediate_size": 5120,
    "mamba_head_dim": 64, "mamba_num_heads": 256, "mlp_bias": false, "moe_intermediate_size": 5120, "moe_latent_size": 2048,
    "moe_shared_expert_intermediate_size": 10240, "mtp_layers_block_type": ["attention", "moe"], "n_groups": 8,
    "n_routed_experts": 512, "num_attention_heads": 64, "num_experts_per_tok": 22, "num_key_value_heads": 2,
    "num_nextn_predict_layers": 1, "ssm_state_size": 128, "tie_word_embeddings": false, "vocab_size": 131072})");
  c["layers_block_type"] = types;
  const ll h = 8192, V = 131072;
  const ll mamba = h * (2 * 16384 + 2 * 8 * 128 + 256) + 18432 * 4 + 18432 + 3 * 256 + 16384 + 16384 * h;
  const ll attn = h * 64 * 128 + 2 * h * 2 * 128 + 64 * 128 * h;
  const ll expert = 2 * 2048 * 5120;
  const ll moe = h * 512 + 512 + 512 * expert + 2 * h * 10240 + 2 * h * 2048;
  const ll total = 48 * (mamba + h) + 12 * (attn + h) + 48 * (moe + h) + 2 * V * h + h;
  CHECK(mamba == 421636864LL);
  CHECK(attn == 138412032LL);
  const auto p = count_params(parse_model_config(c, "/model"));
  CHECK(p.total == total);
  CHECK(p.total == 549308993536LL);
  CHECK(p.active == 56058843136LL);
  CHECK(p.active_no_embed == 54985101312LL);
}

TEST_CASE("configs with a block Infercast does not model are refused naming the field", "[hybrid][errors]") {
  CHECK(error_of(R"({"model_type": "nemotron_h", "hybrid_override_pattern": "M*X"})") ==
        "model.unsupported /model/hybrid_override_pattern: /model/hybrid_override_pattern holds 'X' at 2; expected M "
        "(Mamba2), * (attention), - (MLP) or E (MoE)");
  CHECK(error_of(R"({"model_type": "qwen3_next", "num_hidden_layers": 2, "layer_types": ["linear_attention", "sliding_attention"]})") ==
        "model.unsupported /model/layer_types/1: /model/layer_types/1 holds \"sliding_attention\"; expected "
        "linear_attention or full_attention");
  CHECK(error_of(R"({"model_type": "minimax_m1", "hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 10,
      "num_attention_heads": 8, "intermediate_size": 32, "attn_type_list": [0, 2]})") ==
        "model.unsupported /model/attn_type_list/1: /model/attn_type_list/1 holds 2; expected 0 (lightning attention) "
        "or 1 (softmax attention)");
  CHECK(error_of(R"({"model_type": "qwen3_next", "linear_num_value_heads": 24, "linear_num_key_heads": 16})") ==
        "model.invalid /model/linear_num_key_heads: /model/linear_num_key_heads holds 16, which does not divide "
        "/model/linear_num_value_heads (24)");
  CHECK(error_of(R"({"model_type": "deepseek_v32", "hidden_size": 64, "num_hidden_layers": 1, "vocab_size": 10,
      "num_attention_heads": 2, "kv_lora_rank": 16, "qk_nope_head_dim": 8, "qk_rope_head_dim": 8, "v_head_dim": 8,
      "intermediate_size": 64, "moe_intermediate_size": 32, "n_routed_experts": 4, "num_experts_per_tok": 2})")
            .rfind("model.unsupported /model/index_topk", 0) == 0);
  CHECK(error_of(R"({"model_type": "jamba", "attn_layer_period": 4, "attn_layer_offset": 4})") ==
        "model.invalid /model/attn_layer_offset: /model/attn_layer_offset holds 4; expected less than attn_layer_period (4)");
}

// Olmo-Hybrid-7B (olmo_hybrid) from OlmoHybridConfig's defaults, which are its sizes (h = 3840, V = 100,352, 32
// layers, 30 heads of 128, MLP 11008, untied), module by module as modular_olmo_hybrid.py names them:
//   24 gated DeltaNet layers: q_proj and k_proj h x 30 x 96, v_proj and g_proj h x 30 x 192, a_proj and b_proj
//     h x 30, q/k/v convolutions of kernel 4 over 2 x 2880 + 5760 channels, A_log and dt_bias 30 each, o_norm 192,
//     o_proj 5760 x h; input and post-attention norms;
//   8 attention layers (every fourth): q, k, v, o h x h, q_norm and k_norm over the whole width, post-norms;
//   every layer a SwiGLU MLP of 11008.
// Total 7,430,870,688: the checkpoint's 523 tensors, 14,861,741,376 bf16 bytes, as a public inventory test gives them.
TEST_CASE("Olmo-Hybrid-7B by hand: gated DeltaNet on three layers of four, OLMo 3's NoPE attention (olmo_hybrid)",
          "[hybrid][params]") {
  const long long h = 3840, V = 100352, I = 11008;
  const long long key = 30 * 96, val = 30 * 192;
  const long long gdn = 2 * h * key + 2 * h * val + 2 * h * 30 + (2 * key + val) * 4 + 2 * 30 + 192 + val * h;
  const long long attn = 4 * h * h + 2 * h;
  const long long total = 2 * V * h + h + 24 * gdn + 8 * attn + 32 * (3 * h * I + 2 * h);
  CHECK(total == 7430870688LL);
  const ModelSpec m = parse_model_config({{"model_type", "olmo_hybrid"}}, "/model");
  CHECK(count_params(m).total == total);
  CHECK(m.layers[0].recurrent.kind == RecurrentKind::GatedDeltaNet);
  CHECK(m.layers[3].has_attention);
  CHECK(m.layers[3].attn.qk_norm_full);
  CHECK(m.layers[3].attn.rope_dim == 0);  // no rope_parameters: NoPE
  CHECK_FALSE(m.layers[3].attn.output_gate);
  // With RoPE parameters the attention rotates the whole head.
  CHECK(parse_model_config({{"model_type", "olmo_hybrid"}, {"rope_parameters", {{"rope_theta", 500000}, {"rope_type", "default"}}}}, "/model")
            .layers[3].attn.rope_dim == 128);
  // Fewer than four layers: OlmoHybridConfig makes the last one full.
  const ModelSpec two = parse_model_config({{"model_type", "olmo_hybrid"}, {"num_hidden_layers", 2}}, "/model");
  CHECK(two.layers[0].recurrent.kind == RecurrentKind::GatedDeltaNet);
  CHECK(two.layers[1].has_attention);
  for (const auto& w : m.warnings) CHECK(w.code != "model.unused_field");
}

// Mamba (state-spaces/mamba-*-hf): in_proj (x, z), a depthwise conv with bias, x_proj (dt, B, C), dt_proj with its
// bias, A_log (d_inner x N), D, out_proj, one RMSNorm per layer; tied embeddings (MambaConfig declares no
// tie_word_embeddings, so PretrainedConfig's True holds). The config is mamba-130m-hf's as published, with the
// original repository's d_model, d_inner and n_layer beside transformers' keys. Totals: 129,135,360 for 130m and
// 2,768,345,600 for 2.8b, the parameter counts of the -hf checkpoints (sum of p.numel() over the loaded model, as
// published with those checkpoints' measured sizes).
TEST_CASE("Mamba by hand: mamba-130m-hf and mamba-2.8b-hf to the parameter, their state per sequence", "[hybrid][params]") {
  const std::string mamba_130m = R"({"architectures": ["MambaForCausalLM"], "bos_token_id": 0, "conv_kernel": 4,
      "d_inner": 1536, "d_model": 768, "eos_token_id": 0, "expand": 2, "fused_add_norm": true, "hidden_act": "silu",
      "hidden_size": 768, "initializer_range": 0.1, "intermediate_size": 1536, "layer_norm_epsilon": 1e-05,
      "model_type": "mamba", "n_layer": 24, "num_hidden_layers": 24, "pad_token_id": 0, "pad_vocab_size_multiple": 8,
      "rescale_prenorm_residual": false, "residual_in_fp32": true, "rms_norm": true, "ssm_cfg": {}, "state_size": 16,
      "time_step_floor": 0.0001, "time_step_init_scheme": "random", "time_step_max": 0.1, "time_step_min": 0.001,
      "time_step_rank": 48, "time_step_scale": 1.0, "torch_dtype": "float32", "transformers_version": "4.39.0.dev0",
      "use_bias": false, "use_cache": true, "use_conv_bias": true, "vocab_size": 50280})";
  const auto per_layer = [](ll h, ll R) {
    const ll D = 2 * h, N = 16;
    return h * 2 * D + D * 4 + D + D * (R + 2 * N) + R * D + D + D * N + D + D * h + h;
  };
  const auto m = from_json(mamba_130m);
  CHECK(count_params(m).total == 24 * per_layer(768, 48) + 50280 * 768 + 768);
  CHECK(count_params(m).total == 129135360LL);
  // The one note: the config omits tie_word_embeddings, which MambaConfig leaves at PretrainedConfig's true.
  REQUIRE(m.warnings.size() == 1);
  CHECK(m.warnings[0].message.find("tie_word_embeddings true") != std::string::npos);
  CHECK(m.tied_embeddings);
  CHECK_FALSE(m.layers[0].has_attention);
  CHECK_FALSE(m.layers[0].has_ffn);
  CHECK(m.layers[0].recurrent.kind == RecurrentKind::Mamba);
  CHECK(m.layers[0].recurrent.dt_rank == 48);
  // Per layer and sequence: the conv window (3 x 1536) and the state (1536 x 16); 700,416 values over 24 layers.
  CHECK(recurrent_state_bytes(m.layers[0].recurrent, 2) == (3.0 * 1536 + 1536.0 * 16) * 2);
  CHECK(24 * (3 * 1536 + 1536 * 16) == 700416);

  json big = json::parse(mamba_130m);
  big["hidden_size"] = big["d_model"] = 2560;
  big["num_hidden_layers"] = big["n_layer"] = 64;
  big["intermediate_size"] = big["d_inner"] = 5120;
  big["time_step_rank"] = 160;
  CHECK(count_params(parse_model_config(big, "/model")).total == 2768345600LL);
  // time_step_rank "auto" is ceil(hidden_size / 16): 160 here.
  big["time_step_rank"] = "auto";
  CHECK(count_params(parse_model_config(big, "/model")).total == 2768345600LL);
  CHECK(64 * per_layer(2560, 160) + 50280LL * 2560 + 2560 == 2768345600LL);
}

// Falcon Mamba 7B (tiiuae/falcon-mamba-7b's config): Mamba's layers, dt/B/C RMSNorms without weights (non-persistent
// buffers: work, no parameters), untied. Its config writes expand 16 beside intermediate_size 8192: the written key
// wins, as FalconMambaConfig sets the config's keys over the derived width, and the checkpoint is 8192 wide.
TEST_CASE("Falcon Mamba 7B by hand: intermediate_size over expand, weightless dt/B/C norms", "[hybrid][params]") {
  const auto m = from_json(R"({"_name_or_path": "./", "architectures": ["FalconMambaForCausalLM"], "bos_token_id": 0,
      "conv_kernel": 4, "eos_token_id": 11, "expand": 16, "hidden_act": "silu", "hidden_size": 4096,
      "initializer_range": 0.1, "intermediate_size": 8192, "layer_norm_epsilon": 1e-05, "model_type": "falcon_mamba",
      "num_hidden_layers": 64, "pad_token_id": 11, "rescale_prenorm_residual": false, "residual_in_fp32": true,
      "state_size": 16, "tie_word_embeddings": false, "time_step_floor": 0.0001, "time_step_init_scheme": "random",
      "time_step_max": 0.1, "time_step_min": 0.001, "time_step_rank": 256, "time_step_scale": 1.0,
      "torch_dtype": "bfloat16", "transformers_version": "4.43.0.dev0", "use_bias": false, "use_cache": true,
      "use_conv_bias": true, "vocab_size": 65024})");
  const ll h = 4096, D = 8192, R = 256, N = 16;
  const ll layer = h * 2 * D + D * 4 + D + D * (R + 2 * N) + R * D + D + D * N + D + D * h + h;
  CHECK(layer == 105312256);
  CHECK(count_params(m).total == 64 * layer + 2 * 65024 * h + h);
  CHECK(count_params(m).total == 7272665088LL);
  CHECK(m.warnings.empty());
  CHECK(m.layers[0].recurrent.heads == 8192);
  CHECK(m.layers[0].recurrent.dt_norms);
  CHECK_FALSE(m.layers[0].recurrent.dt_norm_weights);
}

// Mamba-Codestral-7B-v0.1 (Mamba2): in_proj to z, x (8192 each), B, C (8 groups x 128 each) and dt (128 heads); a
// conv over 8192 + 2048 channels with bias; dt_bias, A_log and D per head; the gated RMSNorm over 8192; out_proj; one
// norm per layer; untied. Mistral's announcement: "7,285,403,648 parameters". Its config writes time_step_limit
// [0.0, Infinity] (Python's json) and an intermediate_size that Mamba2Mixer never reads.
TEST_CASE("Codestral Mamba 7B by hand: Mamba2 to Mistral's published 7,285,403,648", "[hybrid][params]") {
  const std::string text = R"({"_name_or_path": "/raid/pablo/codestral-hf-good/", "architectures": ["Mamba2ForCausalLM"],
      "bos_token_id": 0, "chunk_size": 256, "conv_kernel": 4, "eos_token_id": 0, "expand": 2, "head_dim": 64,
      "hidden_act": "silu", "hidden_size": 4096, "initializer_range": 0.1, "intermediate_size": 8192,
      "layer_norm_epsilon": 1e-05, "model_type": "mamba2", "n_groups": 8, "norm_before_gate": true, "num_heads": 128,
      "num_hidden_layers": 64, "pad_token_id": 0, "rescale_prenorm_residual": false, "residual_in_fp32": true,
      "rms_norm": true, "state_size": 128, "tie_word_embeddings": false, "time_step_floor": 0.0001,
      "time_step_init_scheme": "random", "time_step_limit": [0.0, Infinity], "time_step_max": 0.1,
      "time_step_min": 0.001, "time_step_rank": 256, "time_step_scale": 1.0, "torch_dtype": "bfloat16",
      "transformers_version": "4.44.0.dev0", "use_bias": false, "use_cache": true, "use_conv_bias": true,
      "vocab_size": 32768})";
  const auto m = parse_model_config(parse_json_text(text, "config.json", "input"), "/model");
  const ll h = 4096, D = 8192, conv = D + 2 * 8 * 128;
  const ll layer = h * (2 * D + 2 * 8 * 128 + 128) + conv * 4 + conv + 3 * 128 + D + D * h + h;
  CHECK(layer == 109640064);
  CHECK(count_params(m).total == 64 * layer + 2 * 32768 * h + h);
  CHECK(count_params(m).total == 7285403648LL);
  CHECK(m.warnings.empty());
  CHECK(m.layers[0].recurrent.kind == RecurrentKind::Mamba2);
  CHECK(m.max_position == 0);  // no positions: memory alone bounds the context
  // State per layer and sequence: the conv window 3 x 10240 and 128 heads x 64 x 128; 69,074,944 values in all.
  CHECK(recurrent_state_bytes(m.layers[0].recurrent, 2) == (3.0 * 10240 + 128.0 * 64 * 128) * 2);
  CHECK(64 * (3 * 10240 + 128 * 64 * 128) == 69074944);
}

// Bamba-9B's sizes (IBM's architecture table: 32 layers, attention at 9, 18 and 27, hidden 4096, MLP 14336, GQA
// 32/8, Mamba2 heads of 64, one group, d_state 128, conv 4; vocab 128256). No public config.json or exact total was
// found, so this checks the formula by hand: BambaMixer is Mamba2's mixer under mamba_* keys; attention is Llama's
// without biases, RoPE on half of each head; every layer has a gated MLP and two norms.
TEST_CASE("Bamba by hand: Mamba2 layers, Llama attention on attn_layer_indices, an MLP in every layer", "[hybrid][params]") {
  const auto m = from_json(R"({"model_type": "bamba", "architectures": ["BambaForCausalLM"], "hidden_size": 4096,
      "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
      "attn_layer_indices": [9, 18, 27], "mamba_n_heads": 128, "mamba_d_head": 64, "mamba_n_groups": 1,
      "mamba_d_state": 128, "mamba_d_conv": 4, "mamba_expand": 2, "mamba_chunk_size": 256, "mamba_conv_bias": true,
      "mamba_proj_bias": false, "vocab_size": 128256, "tie_word_embeddings": false, "hidden_act": "silu",
      "max_position_embeddings": 262144})");
  const ll h = 4096, D = 8192, conv = D + 2 * 128;
  const ll mixer = h * (2 * D + 2 * 128 + 128) + conv * 4 + conv + 3 * 128 + D + D * h;
  const ll attn = h * h + 2 * h * 1024 + h * h;
  const ll mlp = 3 * h * 14336;
  CHECK(count_params(m).total == 29 * (mixer + mlp + 2 * h) + 3 * (attn + mlp + 2 * h) + 2 * 128256 * h + h);
  CHECK(count_params(m).total == 9780235392LL);
  CHECK(m.warnings.empty());
  CHECK(m.layers[9].has_attention);
  CHECK(m.layers[9].attn.rope_dim == 64);
  CHECK_FALSE(m.layers[8].has_attention);
  CHECK(m.layers[8].recurrent.kind == RecurrentKind::Mamba2);
}

TEST_CASE("Mamba2 and Bamba configs that cannot be built are refused naming the field", "[hybrid][errors]") {
  CHECK(error_of(R"({"model_type": "mamba2", "hidden_size": 1024, "expand": 2, "num_heads": 16, "head_dim": 64})") ==
        "model.invalid /model/num_heads: /model/num_heads (16) x head_dim (64) is not the mixer's width 2048 (expand x "
        "hidden_size)");
  CHECK(error_of(R"({"model_type": "bamba", "num_hidden_layers": 4, "attn_layer_indices": [1, 4]})") ==
        "model.invalid /model/attn_layer_indices/1: /model/attn_layer_indices/1 holds 4; expected a layer from 0 to 3");
  CHECK(error_of(R"({"model_type": "mamba", "hidden_size": 4611686018427387904, "expand": 4})") ==
        "model.too_large /model: the config describes more than 9223372036854775807 parameters; check its sizes");
}

TEST_CASE("keys Infercast does not read give at most 21 notes, however many there are", "[hybrid][errors]") {
  // Found by reading (stop 51): one note per key; a config of 2,000,000 such keys took 1.6 GB.
  json cfg = json::parse(R"({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 100,
      "num_attention_heads": 4, "intermediate_size": 128})");
  for (int i = 0; i < 1000; ++i) cfg["unknown_" + std::to_string(10000 + i)] = i;
  std::vector<Warning> unused;
  for (const auto& w : parse_model_config(cfg, "/model").warnings)
    if (w.code == "model.unused_field") unused.push_back(w);
  REQUIRE(unused.size() == 21);
  CHECK(unused[0].message == "/model/unknown_10000 is not used by Infercast; check that it does not change the architecture");
  CHECK(unused[20].path == "/model/unknown_10020");
  CHECK(unused[20].message == "980 more fields of /model, from /model/unknown_10020 on, are not used by Infercast; check that "
                                  "it does not change the architecture");
}

// recurrentgemma-2b's config as published (its `_block_types` is the older attribute name; the cycle is the default
// one either way). 18 recurrent and 8 local-attention layers; 2,682,862,080 parameters, the Hub's safetensors total
// for google/recurrentgemma-2b-it. Per recurrent block: linear_y and linear_x (h x W, biases), conv1d (4 taps,
// bias), recurrent_param, two gates of 10 blocks of 256 x 256 with biases, linear_out (bias); per attention block:
// q h x 2560, MQA k and v h x 256, o 2560 x h with a bias; every layer an MLP of 15360 / 2 with biases and two norms.
TEST_CASE("RecurrentGemma-2B by hand: RG-LRU blocks and local MQA attention to the Hub's 2,682,862,080", "[hybrid][params]") {
  const auto m = from_json(R"({"_block_types": ["recurrent", "recurrent", "attention"],
      "architectures": ["RecurrentGemmaForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
      "attention_window_size": 2048, "conv1d_width": 4, "embeddings_scale_by_sqrt_dim": true, "head_dim": 256,
      "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 2560, "intermediate_size": 15360,
      "logits_soft_cap": 30.0, "lru_width": 2560, "model_type": "recurrent_gemma", "num_attention_heads": 10,
      "num_hidden_layers": 26, "num_key_value_heads": 1, "partial_rotary_factor": 0.5, "rms_norm_eps": 1e-06,
      "rope_theta": 10000.0, "vocab_size": 256000})");
  const ll h = 2560, W = 2560, f = 7680;
  const ll rec = 2 * (h * W + W) + 4 * W + W + W + 2 * (10 * 256 * 256 + W) + W * h + h;
  CHECK(rec == 20999680);
  const ll att = h * 2560 + 2 * h * 256 + 2560 * h + h;
  const ll mlp = 2 * (h * f + f) + f * h + h;
  CHECK(count_params(m).total == 18 * (rec + mlp + 2 * h) + 8 * (att + mlp + 2 * h) + 256000 * h + h);
  CHECK(count_params(m).total == 2682862080LL);
  REQUIRE(m.layers.size() == 26);
  CHECK(m.layers[2].has_attention);
  CHECK(m.layers[2].attn.window == 2048);
  CHECK(m.layers[2].attn.rope_dim == 128);
  CHECK(m.layers[0].recurrent.kind == RecurrentKind::RgLru);
  // State per recurrent layer and sequence: 2,560 fp32 values and the conv window 3 x 2,560 (bf16 here).
  CHECK(recurrent_state_bytes(m.layers[0].recurrent, 2) == 2560.0 * 4 + 3 * 2560.0 * 2);
  CHECK(error_of(R"({"model_type": "recurrent_gemma", "lru_width": 1000, "num_attention_heads": 16})") ==
        "model.invalid /model/lru_width: /model/lru_width holds 1000, which is not a multiple of "
        "/model/num_attention_heads (16)");
  CHECK(error_of(R"({"model_type": "recurrent_gemma", "block_types": ["recurrent", "mlp"]})") ==
        "model.unsupported /model/block_types/1: /model/block_types/1 holds \"mlp\"; expected recurrent or attention");
}
