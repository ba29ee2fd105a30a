// DeepSeek-V4 (deepseek_v4): parameters exact to the integer from the module shapes of transformers'
// modular_deepseek_v4.py, the cache its window and pooled entries hold, the operators of a decode step, and the
// closed-form decode against step-by-step sums (docs/formulas.md, "DeepSeek-V4").
#include <catch2/catch.hpp>

#include "helpers.hpp"

using namespace test;

namespace {
using ll = long long;

// deepseek-ai/DeepSeek-V4-Flash config.json as published (its 44 compress_ratios: 43 layers and the MTP layer's).
const char* const kFlash = R"({"architectures": ["DeepseekV4ForCausalLM"], "attention_bias": false, "bos_token_id": 0,
  "eos_token_id": 1, "expert_dtype": "fp4", "hc_eps": 1e-06, "hc_mult": 4, "hc_sinkhorn_iters": 20, "head_dim": 512,
  "hidden_act": "silu", "hidden_size": 4096, "index_head_dim": 128, "index_n_heads": 64, "index_topk": 512,
  "max_position_embeddings": 1048576, "model_type": "deepseek_v4", "moe_intermediate_size": 2048, "n_routed_experts": 256,
  "n_shared_experts": 1, "norm_topk_prob": true, "num_attention_heads": 64, "num_experts_per_tok": 6,
  "num_hidden_layers": 43, "num_hash_layers": 3, "num_key_value_heads": 1, "num_nextn_predict_layers": 1, "o_groups": 8,
  "o_lora_rank": 1024, "q_lora_rank": 1024, "qk_rope_head_dim": 64,
  "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "scale_fmt": "ue8m0",
                          "weight_block_size": [128, 128]},
  "rms_norm_eps": 1e-06, "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 16,
  "original_max_position_embeddings": 65536, "type": "yarn"}, "rope_theta": 10000, "routed_scaling_factor": 1.5,
  "scoring_func": "sqrtsoftplus", "sliding_window": 128, "swiglu_limit": 10.0, "tie_word_embeddings": false,
  "topk_method": "noaux_tc", "torch_dtype": "bfloat16", "vocab_size": 129280, "compress_rope_theta": 160000,
  "compress_ratios": [0, 0, 4, 128, 4, 128, 4, 128, 4, 128, 4, 128, 4, 128, 4, 128, 4, 128, 4, 128, 4, 128, 4, 128, 4, 128,
                      4, 128, 4, 128, 4, 128, 4, 128, 4, 128, 4, 128, 4, 128, 4, 128, 4, 0]})";

ModelSpec from_json(const json& j) { return parse_model_config(j, "/model"); }

std::string error_of(const json& j) {
  try {
    from_json(j);
  } catch (const InputError& e) {
    return std::string(e.code()) + " " + e.path() + ": " + e.what();
  }
  return "";
}

double sum_of(const std::vector<Op>& ops, const std::string& name, double Op::*field) {
  double s = 0;
  for (const auto& o : ops)
    if (o.name == name) s += o.*field;
  return s;
}
}  // namespace

// By hand, h = 4096, V = 129280, 64 heads of d = 512 (64 rotated), q_lora_rank 1024, o_groups 8 x o_lora_rank 1024:
//   attention every layer: q_a_proj 4096 x 1024 + q_norm 1024 + q_b_proj 1024 x 64*512 + kv_proj 4096 x 512 +
//     kv_norm 512 + o_a_proj 1024 x 64*512 (8 groups of 4096 -> 1024) + o_b_proj 8*1024 x 4096 + 64 sinks
//     = 106,956,352;
//   CSA (ratio 4, 21 layers): the compressor's kv_proj and gate_proj 2 x 4096 x 1024 (overlapping windows: 2d),
//     position_bias 4 x 1024, kv_norm 512 = 8,393,216; the indexer's kv_proj and gate_proj 2 x 4096 x 256,
//     position_bias 4 x 256, kv_norm 128, q_b_proj 1024 x 64*128, weights_proj 4096 x 64 = 10,749,056;
//   HCA (ratio 128, 20 layers): kv_proj and gate_proj 2 x 4096 x 512, position_bias 128 x 512, kv_norm 512 = 4,260,352;
//   hyper-connections, two a layer: fn 24 x 16384 + base 24 + 3 scales = 393,243 each;
//   MoE: 256 experts and 1 shared MLP of 3 x 4096 x 2048 = 25,165,824 each; the router 4096 x 256, + 256
//     e_score_correction_bias on 40 layers, + tid2eid 129280 x 6 on the 3 hash layers;
//   two norms a layer; the final norm, the hyper head (4 x 16384 + 4 + 1), embedding and head 2 x 129280 x 4096.
// Total 284,334,567,511 (the model card: 284B); active, 6 of 256 experts and a hash layer's own row of tid2eid:
// 13,799,632,489, 13,270,101,609 without the embedding (the card: 13B). The MTP layer is reported, not counted.
TEST_CASE("DeepSeek-V4-Flash by hand: compressed attention, hyper-connections, hash layers", "[deepseek_v4][params]") {
  const ModelSpec m = from_json(json::parse(kFlash));
  const ll h = 4096, V = 129280;
  const ll attn = h * 1024 + 1024 + 1024 * 64 * 512 + h * 512 + 512 + 1024 * 64 * 512 + 8 * 1024 * h + 64;
  const ll csa = 2 * h * 1024 + 4 * 1024 + 512 + (2 * h * 256 + 4 * 256 + 128 + 1024 * 64 * 128 + h * 64);
  const ll hca = 2 * h * 512 + 128 * 512 + 512;
  const ll hc = 2 * (24 * 4 * h + 24 + 3);
  const ll expert = 3 * h * 2048;
  const ll layer = attn + 2 * h + hc + expert + h * 256;  // with the shared MLP and the router's matrix
  const ll head = 2 * V * h + h + (16 * h + 5);
  const ll total = 43 * (layer + 256 * expert) + 21 * csa + 20 * hca + 40 * 256 + 3 * V * 6 + head;
  const ll active = 43 * (layer + 6 * expert) + 21 * csa + 20 * hca + 40 * 256 + 3 * 6 + head;
  CHECK(attn == 106956352LL);
  CHECK(csa == 8393216LL + 10749056LL);
  CHECK(hca == 4260352LL);
  const auto c = count_params(m);
  CHECK(c.total == total);
  CHECK(c.total == 284334567511LL);
  CHECK(c.active == active);
  CHECK(c.active == 13799632489LL);
  CHECK(c.active_no_embed == 13270101609LL);
  CHECK(m.mtp_layers == 1);
  REQUIRE(m.layers.size() == 43);
  CHECK(m.layers[0].attn.kind == AttnKind::Compressed);
  CHECK(m.layers[0].attn.compress_ratio == 0);
  CHECK(m.layers[2].attn.compress_ratio == 4);
  CHECK(m.layers[2].attn.index_topk == 512);
  CHECK(m.layers[3].attn.compress_ratio == 128);
  CHECK(m.layers[3].attn.index_topk == 0);
  CHECK(m.layers[2].ffn.hash_routed);
  CHECK_FALSE(m.layers[3].ffn.hash_routed);
  CHECK(m.layers[3].ffn.score_correction_bias);
  // FP8 weights in blocks of 128, the routed experts in FP4 (expert_dtype); SGLang's copy names the family
  // deepseek_ref and drops expert_dtype (its experts are FP8).
  CHECK(m.declared_weights == "fp8_block128");
  CHECK(m.declared_expert_weights == "mxfp4");
  json ref = json::parse(kFlash);
  ref["model_type"] = "deepseek_ref";
  ref.erase("expert_dtype");
  const ModelSpec r = from_json(ref);
  CHECK(count_params(r).total == total);
  CHECK(r.declared_expert_weights.empty());
  // NVIDIA's NVFP4 copy: ModelOpt's mixed precision puts the experts in NVFP4.
  json nv = json::parse(kFlash);
  nv["quantization_config"]["moe_quant_algo"] = "NVFP4";
  CHECK(from_json(nv).declared_expert_weights == "nvfp4");
  // DeepSeek-V4-Pro: h = 7168, 61 layers (HCA, HCA, then CSA and HCA alternating, the last CSA), 128 heads,
  // q_lora_rank 1536, 16 output groups, 384 experts of 3072. The card: 1.6T, 49B active.
  json pro = json::parse(kFlash);
  pro["hidden_size"] = 7168;
  pro["num_hidden_layers"] = 61;
  pro["num_attention_heads"] = 128;
  pro["q_lora_rank"] = 1536;
  pro["o_groups"] = 16;
  pro["moe_intermediate_size"] = 3072;
  pro["n_routed_experts"] = 384;
  pro["index_topk"] = 1024;
  json ratios = {128, 128};
  for (int i = 2; i < 61; ++i) ratios.push_back(i % 2 == 0 ? 4 : 128);
  ratios.push_back(0);
  pro["compress_ratios"] = ratios;
  const ll H = 7168;
  const ll pattn = H * 1536 + 1536 + 1536 * 128 * 512 + H * 512 + 512 + 1024 * 128 * 512 + 16 * 1024 * H + 128;
  const ll pcsa = 2 * H * 1024 + 4 * 1024 + 512 + (2 * H * 256 + 4 * 256 + 128 + 1536 * 64 * 128 + H * 64);
  const ll phca = 2 * H * 512 + 128 * 512 + 512;
  const ll phc = 2 * (24 * 4 * H + 24 + 3);
  const ll pexpert = 3 * H * 3072;
  const ll player = pattn + 2 * H + phc + pexpert + H * 384;
  const ll phead = 2 * V * H + H + (16 * H + 5);
  const auto p = count_params(from_json(pro));
  CHECK(p.total == 61 * (player + 384 * pexpert) + 30 * pcsa + 31 * phca + 58 * 384 + 3 * V * 6 + phead);
  CHECK(p.total == 1572999528803LL);
  CHECK(p.active == 61 * (player + 6 * pexpert) + 30 * pcsa + 31 * phca + 58 * 384 + 3 * 6 + phead);
  CHECK(p.active == 49779081077LL);
}

TEST_CASE("DeepSeek-V4-Flash's cache: a window of 128 beside pooled entries and indexer keys", "[deepseek_v4][kv]") {
  const ModelSpec m = from_json(json::parse(kFlash));
  Workload w;
  w.settings = settings();
  w.requests = {Request{0, 1024, 1}};
  w.gen_tokens = 1;
  const Analysis a = analyze(m, w, nullptr);
  // Per token (bf16): every layer's window entry 512 x 2 B; a CSA layer one pooled entry of 1024 B and one indexer
  // key of 128 fp8 + a 4 B scale per 4 tokens; an HCA layer 1024 B per 128 tokens.
  CHECK(a.kv_bytes_per_token == 43 * 1024 + 21 * (1024 + 132) / 4.0 + 20 * 1024 / 128.0);
  CHECK(a.kv_bytes_per_token == 50261);
  // At 1024 tokens: 128 window entries in every layer, 256 pooled entries (and keys) in CSA layers, 8 in HCA layers.
  CHECK(a.kv_cache_bytes == 43 * 128 * 1024 + 21 * 256 * (1024 + 132) + 20 * 8 * 1024);
  CHECK(a.kv_cache_bytes == 12014592);
}

TEST_CASE("DeepSeek-V4-Flash's decode step at 4096 tokens, operator by operator", "[deepseek_v4][ops]") {
  const ModelSpec m = from_json(json::parse(kFlash));
  const auto ops = step_ops(m, group_layers(m), {Request{4095, 1, 1}}, settings());
  // The query at position 4095 attends 128 window keys, and min(4096 / 4, 512) = 512 pooled entries (CSA) or
  // 4096 / 128 = 32 (HCA); keys are the values: one 512-wide bf16 vector read per key.
  CHECK(sum_of(ops, "attention", &Op::kv_read_bytes) == (2 * 128 + 21 * (128 + 512) + 20 * (128 + 32)) * 512 * 2.0);
  // The indexer scores the query against all 1024 pooled keys: 64 heads of a 128-wide dot product, ReLU, weight.
  CHECK(sum_of(ops, "indexer_scores", &Op::flops) == 21 * 1024 * 64 * (2 * 128 + 3.0));
  CHECK(sum_of(ops, "indexer_scores", &Op::kv_read_bytes) == 21 * 1024 * 132.0);
  // The grouped output projection: 8 groups of 4096 -> 1024, then 8192 -> 4096.
  CHECK(sum_of(ops, "o_a_proj (grouped)", &Op::flops) == 43 * 2.0 * 64 * 512 * 1024);
  CHECK(sum_of(ops, "o_b_proj", &Op::flops) == 43 * 2.0 * 8 * 1024 * 4096);
  CHECK(sum_of(ops, "q_b_proj", &Op::flops) == 43 * 2.0 * 1024 * 64 * 512);
  // Hyper-connections: the mixing of 4 streams of 4096 into 24 logits before each block, and the head's into 4.
  CHECK(sum_of(ops, "hc_attn_mix", &Op::flops) == 43 * 2.0 * 4 * 4096 * 24);
  CHECK(sum_of(ops, "hc_ffn_mix", &Op::flops) == 43 * 2.0 * 4 * 4096 * 24);
  CHECK(sum_of(ops, "hc_head_mix", &Op::flops) == 2.0 * 4 * 4096 * 4);
  // One pooled entry per 4 (or 128) tokens: a decode token writes a quarter (1/128) of one.
  CHECK(sum_of(ops, "compressed_cache_write", &Op::kv_write_bytes) == 21 * 1024 / 4.0 + 20 * 1024 / 128.0);
  CHECK(sum_of(ops, "experts_gate_up", &Op::flops) == 43 * 2.0 * 6 * 4096 * 2 * 2048);
}

TEST_CASE("DeepSeek-V4's decode in closed form equals the step-by-step sum across the top-k bound", "[deepseek_v4][cost]") {
  // A small V4: window 8, CSA top-16 of entries pooled from 4 tokens (the bound at 64 tokens), HCA of 16.
  const json c = {{"model_type", "deepseek_v4"}, {"hidden_size", 256}, {"num_hidden_layers", 3}, {"vocab_size", 1000},
                  {"num_attention_heads", 4}, {"head_dim", 64}, {"qk_rope_head_dim", 16}, {"q_lora_rank", 64},
                  {"o_groups", 2}, {"o_lora_rank", 32}, {"index_n_heads", 2}, {"index_head_dim", 32}, {"index_topk", 16},
                  {"sliding_window", 8}, {"compress_rates", {{"compressed_sparse_attention", 4}, {"heavily_compressed_attention", 16}}},
                  {"layer_types", {"sliding_attention", "compressed_sparse_attention", "heavily_compressed_attention"}},
                  {"n_routed_experts", 4}, {"num_experts_per_tok", 2}, {"moe_intermediate_size", 64}, {"num_hash_layers", 1}};
  const ModelSpec m = from_json(c);
  Workload w;
  w.settings = settings();
  w.requests = {{0, 40, 2}};
  w.gen_tokens = 60;
  const HardwareSpec* hw = find_hardware_preset("nvidia-h100-sxm");
  REQUIRE(hw);
  const Analysis a = analyze(m, w, hw);
  double flops = 0, kv = 0;
  for (i64 j = 0; j + 1 < w.gen_tokens; ++j)
    for (const auto& o : step_ops(m, a.groups, decode_step(w.requests, static_cast<double>(j)), w.settings)) {
      flops += o.flops;
      kv += o.kv_read_bytes + o.kv_write_bytes;
    }
  double total = 0;
  for (double f : a.decode_work.flops_by_type) total += f;
  CHECK(total == Approx(flops).epsilon(1e-9));
  CHECK(a.decode_work.kv_bytes == Approx(kv).epsilon(1e-9));
}

TEST_CASE("DeepSeek-V4 configs Infercast cannot read are refused naming the field", "[deepseek_v4][errors]") {
  json c = json::parse(kFlash);
  c["num_key_value_heads"] = 2;
  CHECK(error_of(c) == "model.invalid /model/num_key_value_heads: /model/num_key_value_heads holds 2; DeepSeek-V4 shares "
                       "one key-value head (expected 1)");
  c = json::parse(kFlash);
  c["compress_ratios"][5] = 8;
  CHECK(error_of(c) == "model.unsupported /model/compress_ratios/5: /model/compress_ratios/5 holds 8; expected 0 (the "
                       "window alone), 4 (CSA) or 128 (HCA)");
  c = json::parse(kFlash);
  c["compress_ratios"] = {0, 4};
  CHECK(error_of(c) == "model.invalid /model/compress_ratios: /model/compress_ratios has 2 entries; expected one per "
                       "layer (43)");
}
