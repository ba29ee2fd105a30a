// One layer of each reference model checked operator by operator against hand-written formulas
// (docs/formulas.md). Prefill of one 512-token prompt unless stated; bf16 everywhere (2 bytes).
#include <catch2/catch.hpp>

#include "helpers.hpp"

using namespace test;

namespace {
std::vector<Op> ops_for(const ModelSpec& m, std::vector<Request> step, const StepSettings& s) {
  return step_ops(m, group_layers(m), step, s);
}
}  // namespace

TEST_CASE("Llama-3.1-8B, one layer, prefill of 512 tokens", "[ops]") {
  const auto m = preset_model("llama-3.1-8b");
  const auto s = settings();
  const auto ops = ops_for(m, {{0, 512, 1}}, s);
  const double T = 512, h = 4096, L = 32;
  const auto& q = find_op(ops, "q_proj");
  CHECK(q.count == 32);
  CHECK(q.flops / L == 2 * T * h * 4096);
  CHECK(q.weight_bytes / L == h * 4096 * 2);
  CHECK(q.act_read_bytes / L == T * h * 2);
  CHECK(q.act_write_bytes / L == T * 4096 * 2);
  CHECK(find_op(ops, "k_proj").flops / L == 2 * T * h * 1024);  // 8 KV heads x 128
  const auto& attn = find_op(ops, "attention");
  const double pairs = T * (T + 1) / 2;  // causal
  CHECK(attn.flops / L == pairs * 32 * (2 * 128 + 2 * 128) + pairs * 32 * 5);
  CHECK(attn.kv_read_bytes / L == T * 8 * 256 * 2);
  CHECK(find_op(ops, "kv_cache_write").kv_write_bytes / L == T * 8 * 256 * 2);
  CHECK(find_op(ops, "gate_proj").flops / L == 2 * T * h * 14336);
  CHECK(find_op(ops, "down_proj").weight_bytes / L == 14336 * h * 2);
  CHECK(find_op(ops, "act_mul").flops / L == T * 14336 * 5);
  CHECK(find_op(ops, "norms x2").flops / L == 2 * T * h * 4);
  CHECK(find_op(ops, "rope").flops / L == T * (32 + 8) * 128 * 3);
  // LM head on the last prompt token only; 2mkn.
  CHECK(find_op(ops, "lm_head").flops == 2 * 1 * h * 128256);
  CHECK(find_op(ops, "embedding").weight_bytes == T * h * 2);
}

TEST_CASE("Mixtral-8x7B, one MoE layer: batch-dependent expert traffic", "[ops]") {
  const auto m = preset_model("mixtral-8x7b");
  const auto s = settings();
  // Decode, batch 4 at context 100: 4 routings of 2 out of 8 experts.
  const auto ops = ops_for(m, {{100, 1, 4}}, s);
  const double E = 8, k = 2, T = 4, h = 4096, I = 14336;
  const double touched = E * (1 - std::pow(1 - k / E, T));
  CHECK(touched == Approx(8 * (1 - 0.31640625)));
  const auto& up = find_op(ops, "experts_gate_up");
  CHECK(up.weight_bytes / 32 == Approx(touched * h * 2 * I * 2));
  CHECK(up.flops / 32 == 2 * T * k * h * 2 * I);
  CHECK(find_op(ops, "router").flops / 32 == 2 * T * h * E);
  CHECK(experts_touched(MoeTraffic::TopK, E, k, T) == 2);
  CHECK(experts_touched(MoeTraffic::All, E, k, T) == 8);
  CHECK(experts_touched(MoeTraffic::UpperBound, E, k, T) == 8);
  CHECK(experts_touched(MoeTraffic::Expected, E, k, 1) == Approx(2));
  // Attention reads 101 cached keys per request (8 KV heads x 128, K and V).
  CHECK(find_op(ops, "attention").kv_read_bytes / 32 == 4 * 101 * 8 * 256 * 2);
}

TEST_CASE("gemma-2-9b: local layers attend to a 4096 window, global layers to everything", "[ops]") {
  const auto m = preset_model("gemma-2-9b");
  const auto s = settings();
  const auto groups = group_layers(m);
  REQUIRE(groups.size() == 2);
  const auto ops = step_ops(m, groups, {{0, 8192, 1}}, s);
  const double T = 8192, w = 4096;
  const double local_pairs = w * (w + 1) / 2 + (T - w) * w;
  const double global_pairs = T * (T + 1) / 2;
  const auto& local = find_op(ops, "attention", "dense, sliding 4096");
  const auto& global = find_op(ops, "attention", "dense, full");
  CHECK(local.count == 21);
  CHECK(global.count == 21);
  CHECK(local.flops / 21 == local_pairs * 16 * (2 * 256 + 2 * 256) + local_pairs * 16 * 5);
  CHECK(global.flops / 21 == global_pairs * 16 * (2 * 256 + 2 * 256) + global_pairs * 16 * 5);
  // Decode at 10000 tokens: the local layer reads only the last 4096 keys.
  const auto dec = step_ops(m, groups, {{10000, 1, 1}}, s);
  CHECK(find_op(dec, "attention", "dense, sliding 4096").kv_read_bytes / 21 == 4096 * 8 * 512 * 2);
  CHECK(find_op(dec, "attention", "dense, full").kv_read_bytes / 21 == 10001 * 8 * 512 * 2);
  CHECK(find_op(ops, "norms x4").flops / 21 == 4 * T * 3584 * 4);
}

TEST_CASE("DeepSeek-V3, one MoE layer: MLA expanded in prefill, absorbed in decode", "[ops]") {
  const auto m = preset_model("deepseek-v3");
  auto s = settings("infercast", "fp8");
  s.precision.activations = *find_dtype("fp8");  // W8A8, as DeepSeek serves it: no dequantization
  const auto groups = group_layers(m);
  REQUIRE(groups.size() == 2);
  const double h = 7168, nh = 128, ql = 1536, kvl = 512, nope = 128, rope = 64, vd = 128;
  const auto pre = step_ops(m, groups, {{0, 1024, 1}}, s);
  const double T = 1024, pairs = T * (T + 1) / 2;
  const std::string G = "MoE, MLA";
  CHECK(find_op(pre, "q_a_proj", G).flops / 58 == 2 * T * h * ql);
  CHECK(find_op(pre, "q_b_proj", G).flops / 58 == 2 * T * ql * nh * (nope + rope));
  CHECK(find_op(pre, "kv_a_proj", G).weight_bytes / 58 == h * (kvl + rope) * 1);  // fp8: 1 byte
  CHECK(find_op(pre, "kv_b_proj", G).flops / 58 == 2 * T * kvl * nh * (nope + vd));
  CHECK(find_op(pre, "attention", G).flops / 58 == pairs * nh * (2 * (nope + rope) + 2 * vd) + pairs * nh * 5);
  CHECK(find_op(pre, "kv_cache_write", G).kv_write_bytes / 58 == T * (kvl + rope) * 2);
  // Decode at context 4096, batch 1: queries absorbed into the 512-wide latent.
  const auto dec = step_ops(m, groups, {{4096, 1, 1}}, s);
  const double keys = 4097;
  CHECK(find_op(dec, "q_absorb (W_UK)", G).flops / 58 == 2 * nh * nope * kvl);
  const auto& la = find_op(dec, "attention (latent)", G);
  CHECK(la.flops / 58 == keys * nh * (2 * (kvl + rope) + 2 * kvl) + keys * nh * 5);
  CHECK(la.kv_read_bytes / 58 == keys * (kvl + rope) * 2);
  CHECK(find_op(dec, "v_up (W_UV)", G).flops / 58 == 2 * nh * kvl * vd);
  // One token touches 8 routed experts.
  CHECK(find_op(dec, "experts_down", G).weight_bytes / 58 == Approx(8 * 2048 * h * 1));
  CHECK(find_op(dec, "shared_down_proj", G).weight_bytes / 58 == 2048 * h * 1);
  for (const auto& op : dec) CHECK(op.dequant_flops == 0);
  // fp8 weights with bf16 activations (W8A16): 2 operations per weight element per call, on top of the GEMM.
  const auto w8a16 = step_ops(m, groups, {{4096, 1, 1}}, settings("infercast", "fp8"));
  const auto& qa = find_op(w8a16, "q_a_proj", G);
  CHECK(qa.dequant_flops / 58 == 2 * h * ql);
  CHECK(qa.flops / 58 == 2 * h * ql + 2 * h * ql);
  CHECK(find_op(w8a16, "q_absorb (W_UK)", G).dequant_flops / 58 == 2 * nh * nope * kvl);
  // W8A8 keeps the tensors between operators in 16 bits (audit G, finding 4): a norm moves what it moves under W8A16,
  // a GEMM reads its input in fp8 and writes bf16. LIFE's convention holds every tensor in the compute type.
  const auto pre16 = step_ops(m, groups, {{0, 1024, 1}}, settings("infercast", "fp8"));
  CHECK(find_op(pre, "q_a_norm", G).act_read_bytes == find_op(pre16, "q_a_norm", G).act_read_bytes);
  CHECK(find_op(pre, "q_a_norm", G).act_read_bytes / 58 == T * ql * 2);
  CHECK(find_op(pre, "q_a_norm", G).weight_bytes / 58 == ql * 2);
  CHECK(find_op(pre, "q_a_proj", G).act_read_bytes / 58 == T * h * 1);
  CHECK(find_op(pre16, "q_a_proj", G).act_read_bytes / 58 == T * h * 2);
  CHECK(find_op(pre, "q_a_proj", G).act_write_bytes / 58 == T * ql * 2);
  // A router kept in bf16 (as the checkpoint keeps it) runs in bf16 and reads its input as stored.
  auto keep = s;
  keep.precision.by_class[static_cast<int>(WeightClass::Router)] = *find_dtype("bf16");
  const auto pre_keep = step_ops(m, groups, {{0, 1024, 1}}, keep);
  CHECK(find_op(pre_keep, "router", G).compute == ComputeType::BF16);
  CHECK(find_op(pre_keep, "router", G).act_read_bytes / 58 == T * h * 2);
  CHECK(find_op(pre, "router", G).compute == ComputeType::FP8);
  CHECK(find_op(pre, "router", G).act_read_bytes / 58 == T * h * 1);
  CHECK(find_op(pre_keep, "q_a_proj", G).compute == ComputeType::FP8);
  auto life = settings("life", "fp8");
  life.precision.activations = *find_dtype("fp8");
  const auto pre_life = step_ops(m, groups, {{0, 1024, 1}}, life);
  CHECK(find_op(pre_life, "q_a_norm", G).act_read_bytes / 58 == T * ql * 1);
  CHECK(find_op(pre_life, "q_a_proj", G).act_write_bytes / 58 == T * ql * 1);
}

// vLLM's and SGLang's MLA backends split a batch that mixes decode and prefill: the decode tokens run absorbed over
// the latent, the prefill tokens expanded, with kv_b_proj over the prefill requests' keys only. A step of 3 decode
// requests at context 4096 and one prompt of 100 tokens: each form sees its own requests, and the sum of their work
// equals the two steps apart (projections aside, which see every token).
TEST_CASE("DeepSeek-V3: a step mixing decode and prefill runs each part in its own MLA form", "[ops]") {
  const auto m = preset_model("deepseek-v3");
  auto s = settings("infercast", "fp8");
  s.precision.activations = *find_dtype("fp8");
  const auto groups = group_layers(m);
  const std::string G = "MoE, MLA";
  const double nh = 128, kvl = 512, nope = 128, rope = 64, vd = 128, P = 100;
  const auto mixed = step_ops(m, groups, {{4096, 1, 3}, {0, 100, 1}}, s);
  const auto dec = step_ops(m, groups, {{4096, 1, 3}}, s);
  const auto pre = step_ops(m, groups, {{0, 100, 1}}, s);
  // Expanded: the prompt's 100 keys, not the decode requests' 3 x 4097.
  CHECK(find_op(mixed, "kv_b_proj", G).flops / 58 == 2 * P * kvl * nh * (nope + vd));
  CHECK(find_op(mixed, "kv_b_proj", G).flops == find_op(pre, "kv_b_proj", G).flops);
  CHECK(find_op(mixed, "attention", G).flops == find_op(pre, "attention", G).flops);
  // Absorbed: the decode tokens alone.
  CHECK(find_op(mixed, "q_absorb (W_UK)", G).flops / 58 == 3 * 2 * nh * nope * kvl);
  CHECK(find_op(mixed, "attention (latent)", G).flops == find_op(dec, "attention (latent)", G).flops);
  CHECK(find_op(mixed, "attention (latent)", G).kv_read_bytes / 58 == 3 * 4097 * (kvl + rope) * 2);
  CHECK(find_op(mixed, "v_up (W_UV)", G).flops == find_op(dec, "v_up (W_UV)", G).flops);
  // The projections before the split see all 103 tokens.
  CHECK(find_op(mixed, "kv_a_proj", G).flops == find_op(dec, "kv_a_proj", G).flops / 3 * 103);
  // Forced forms keep one form for the whole step.
  s.mla = MlaForm::Expanded;
  CHECK(find_op(step_ops(m, groups, {{4096, 1, 3}, {0, 100, 1}}, s), "kv_b_proj", G).flops / 58 ==
        2 * (P + 3 * 4097) * kvl * nh * (nope + vd));
  s.mla = MlaForm::Absorbed;
  const auto all_absorbed = step_ops(m, groups, {{4096, 1, 3}, {0, 100, 1}}, s);
  CHECK(find_op(all_absorbed, "q_absorb (W_UK)", G).flops / 58 == 103 * 2 * nh * nope * kvl);
  for (const auto& op : all_absorbed) CHECK(op.name != "kv_b_proj");
}

TEST_CASE("KV cache of Llama-4-Scout at 1M tokens and gpt-oss-20b at 128k honours chunks and windows", "[memory]") {
  const StepSettings s = settings();
  Workload w;
  w.settings = s;
  w.gen_tokens = 1;
  w.requests = {{0, 1048576, 1}};
  const auto scout = analyze(preset_model("llama-4-scout"), w, nullptr);
  const double per_token_layer = 8 * 256 * 2;  // 8 KV heads x (128 K + 128 V) x 2 bytes
  CHECK(scout.kv_cache_bytes == 12 * 1048576 * per_token_layer + 36 * 8192 * per_token_layer);
  w.requests = {{0, 131072, 1}};
  const auto oss = analyze(preset_model("gpt-oss-20b"), w, nullptr);
  const double oss_layer = 8 * 128 * 2;  // 8 KV heads x (64 + 64) x 2 bytes
  CHECK(oss.kv_cache_bytes == 12 * 131072 * oss_layer + 12 * 128 * oss_layer);
  // DeepSeek-V3: the MLA latent, 576 values per token per layer.
  w.requests = {{0, 1000, 1}};
  const auto ds = analyze(preset_model("deepseek-v3"), w, nullptr);
  CHECK(ds.kv_bytes_per_token == 61 * 576 * 2);
}

TEST_CASE("ragged batches: each request attends over its own cache", "[ops]") {
  const auto m = preset_model("llama-3.1-8b");
  const auto ops = ops_for(m, {{1024, 1, 1}, {10, 5, 1}}, settings());
  const double pairs = 1025 + (11 + 12 + 13 + 14 + 15);
  CHECK(find_op(ops, "attention").flops / 32 == pairs * 32 * 512 + pairs * 32 * 5);
  CHECK(find_op(ops, "attention").kv_read_bytes / 32 == (1025 + 15) * 8 * 256 * 2);
  CHECK(find_op(ops, "q_proj").flops / 32 == 2 * 6 * 4096 * 4096.0);
  CHECK(find_op(ops, "lm_head").flops == 2 * 2 * 4096 * 128256.0);
}

TEST_CASE("invariants over all presets: totals equal the sum of operators, KV linear in tokens up to windows, state constant", "[invariants]") {
  for (const auto& p : model_presets()) {
    INFO(p.id);
    const auto m = parse_model_config(p.config, "/config");
    Workload w;
    w.settings = settings();
    w.requests = {{0, 300, 2}};
    w.gen_tokens = 50;
    const auto a = analyze(m, w, nullptr);
    CHECK(a.prefill.totals.flops == Approx(sum_flops(a.prefill.ops)));
    double bytes = 0;
    for (const auto& o : a.prefill.ops) {
      CHECK(std::isfinite(o.flops));
      CHECK(o.flops >= 0);
      CHECK(std::isfinite(o.bytes()));
      bytes += o.bytes();
    }
    CHECK(a.prefill.totals.bytes() == Approx(bytes));
    // KV linear in tokens while every window is longer than the context.
    Workload w2 = w;
    w2.requests = {{0, 60, 1}};
    w2.gen_tokens = 1;
    Workload w3 = w2;
    w3.requests = {{0, 120, 1}};
    // The recurrent layers' state (part of the cache) stays the same whatever the context.
    const Analysis a2 = analyze(m, w2, nullptr), a3 = analyze(m, w3, nullptr);
    CHECK(a3.kv_cache_bytes - a3.state_bytes == Approx(2 * (a2.kv_cache_bytes - a2.state_bytes)));
    CHECK(a3.state_bytes == a2.state_bytes);
  }
}
