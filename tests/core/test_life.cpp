// LIFE (arXiv 2508.00904; shared/seeds/001_41307c26eac1f3c9.txt) Table 4: "TOPs vs Prompt length for Llama2-7B
// BF16-BF16 model in prefill". Under --convention life the total must be within 1% of every row, the GEMM share
// within 0.2 percentage points and the KV size within the table's rounding (0.05 GiB).
#include <catch2/catch.hpp>

#include "helpers.hpp"
#include "scenario/scenario.hpp"

using namespace test;

TEST_CASE("LIFE Table 4: Llama-2-7B prefill TOPs from 256 to 65536 tokens", "[golden][life]") {
  struct Row {
    double prompt, gemm_pct, tops, kv_gib;
  };
  const Row table4[] = {
      {256, 99.0, 3.42, 0.1},     {1024, 96.0, 14.09, 0.5},   {2048, 92.4, 29.29, 1.0},    {4096, 85.9, 63.04, 2.0},
      {8192, 75.2, 143.87, 4.0},  {16384, 60.3, 358.94, 8.0}, {32768, 43.2, 1002.67, 16.0}, {65536, 27.5, 3144.41, 32.0},
  };
  const auto m = preset_model("llama-2-7b");
  for (const auto& row : table4) {
    INFO("prompt " << row.prompt);
    Workload w;
    w.settings = settings("life");
    w.requests = {{0, static_cast<i64>(row.prompt), 1}};
    w.gen_tokens = 1;
    const auto a = analyze(m, w, nullptr);
    const double tops = a.prefill.totals.flops / 1e12;
    CHECK(tops == Approx(row.tops).epsilon(0.01));
    double gemm = 0;
    for (const auto& o : a.prefill.ops)
      if (o.cls == OpClass::GEMM) gemm += o.flops;
    CHECK(100 * gemm / a.prefill.totals.flops == Approx(row.gemm_pct).margin(0.2));
    CHECK(a.kv_cache_bytes / 1073741824.0 == Approx(row.kv_gib).margin(0.05));
  }
}

TEST_CASE("the default convention counts causal attention: about half LIFE's BMM work at long prompts", "[life]") {
  const auto m = preset_model("llama-2-7b");
  Workload w;
  w.requests = {{0, 65536, 1}};
  w.gen_tokens = 1;
  w.settings = settings("life");
  const double life = analyze(m, w, nullptr).prefill.totals.flops;
  w.settings = settings("infercast");
  const double ours = analyze(m, w, nullptr).prefill.totals.flops;
  // By hand: GEMMs over 65536 tokens, the LM head on the last token only, causal attention pairs.
  const double T = 65536, h = 4096, I = 11008;
  const double gemm = 32 * 2 * T * (4 * h * h + 3 * h * I) + 2 * h * 32000;
  const double pairs = T * (T + 1) / 2;
  const double attention = 32 * pairs * 32 * (2 * 128 + 2 * 128 + 5);
  CHECK(ours == Approx(gemm + attention).epsilon(0.001));
  CHECK(ours < 0.7 * life);
}

namespace {
// LIFE's Table 3 variants of Llama-2-7B, as the built-in scenarios define them (core/scenario): these golden tests
// check the scenarios themselves.
Workload life_variant(const std::string& variant, i64 prompt) {
  Workload w;
  w.settings = settings("life");
  const Scenario* sc = find_scenario("life/" + variant);
  if (!sc) throw std::runtime_error("no scenario life/" + variant);
  apply_scenario(*sc, w.settings);
  w.requests = {{0, prompt, 1}};
  w.gen_tokens = 2;
  w.timing = Timing::PhaseMax;
  return w;
}
constexpr double GiB = 1073741824.0;
}  // namespace

TEST_CASE("LIFE Table 5: prefill TOPs of the bf16, int4 and int4-kv4 variants, and what dequantization adds", "[golden][life]") {
  // Table 5 (prefill, Llama2-7B): prompt, TOPs, MemRD, MemWR, KV; its "GB" are GiB (KV at 2048 = 1.0 = 2^30 bytes).
  struct Row {
    const char* variant;
    i64 prompt;
    double tops, rd_gib, wr_gib, kv_gib;
  };
  const Row t5[] = {{"bf16-bf16", 2048, 29.2941, 43.5, 29.0, 1},   {"bf16-int4", 2048, 29.3074, 34.4, 29.0, 1},
                    {"bf16-int4-kv4", 2048, 29.3079, 10.1, 4.4, 0.25}, {"bf16-bf16", 4096, 63.0379, 106.4, 90.1, 2},
                    {"bf16-int4", 4096, 63.0511, 97.3, 90.1, 2},   {"bf16-int4-kv4", 4096, 63.0522, 16.8, 8.8, 0.5}};
  const auto m = preset_model("llama-2-7b");
  double bf16_tops = 0;
  for (const auto& row : t5) {
    INFO(row.variant << " at " << row.prompt);
    const auto a = analyze(m, life_variant(row.variant, row.prompt), nullptr);
    const auto& t = a.prefill.totals;
    CHECK(t.flops / 1e12 == Approx(row.tops).epsilon(0.0005));
    CHECK(a.kv_cache_bytes / GiB == Approx(row.kv_gib).epsilon(0.01));
    if (std::string(row.variant) == "bf16-bf16") bf16_tops = t.flops / 1e12;
    if (std::string(row.variant) == "bf16-int4") {
      // Dequantization: 2 operations per weight element per GEMM call; LIFE's table adds 0.0133 / 0.0132 TOPs.
      CHECK(t.flops / 1e12 - bf16_tops == Approx(row.prompt == 2048 ? 0.0133 : 0.0132).epsilon(0.02));
    }
    if (std::string(row.variant) != "bf16-int4-kv4") {
      // Eager memory traffic: within 7% of LIFE's (we read the embedding rows and write each activation once;
      // docs/conventions.md, "LIFE tables").
      CHECK(t.weight_bytes / GiB + t.act_read_bytes / GiB + t.kv_read_bytes / GiB == Approx(row.rd_gib).epsilon(0.07));
      CHECK((t.act_write_bytes + t.kv_write_bytes) / GiB == Approx(row.wr_gib).epsilon(0.07));
    } else {
      // LIFE does not say which operators its "fusion" merges; fused attention and MLP remove most of the traffic
      // but we keep norms, RoPE and residuals as kernels, so we read and write more than LIFE (documented).
      CHECK(t.act_write_bytes + t.kv_write_bytes < 0.35 * (row.prompt == 2048 ? 29.0 : 90.1) * GiB);
    }
  }
}

TEST_CASE("LIFE Table 7: decode GOPs double with int4 dequantization", "[golden][life]") {
  // Table 7: GOPs of one decode step after `prompt` tokens, bf16-bf16 and bf16-int4.
  struct Row {
    i64 prompt;
    double bf16, int4;
  };
  // The paper's 128-token int4 entry (25.60) breaks its own trend (26.57 at 64, 26.67 at 256) and is left out.
  const Row t7[] = {{32, 13.34, 26.55}, {64, 13.36, 26.57}, {256, 13.46, 26.67}, {512, 13.59, 26.81}, {1024, 13.86, 27.08}, {2048, 14.41, 27.62}};
  const auto m = preset_model("llama-2-7b");
  for (const auto& row : t7) {
    INFO("prompt " << row.prompt);
    const double bf16 = analyze(m, life_variant("bf16-bf16", row.prompt), nullptr).decode.totals.flops / 1e9;
    const double int4 = analyze(m, life_variant("bf16-int4", row.prompt), nullptr).decode.totals.flops / 1e9;
    CHECK(bf16 == Approx(row.bf16).epsilon(0.01));
    CHECK(int4 == Approx(row.int4).epsilon(0.01));
  }
}

TEST_CASE("LIFE Table 8: decode dispatch calls per model", "[golden][life]") {
  // Eager LIFE: unfused attention (scores, softmax, AV), RoPE on q and k and the cache write of k and v as
  // separate kernels; fused QKV and gate/up where the checkpoint fuses them (Phi).
  // LIFE's table is 19 kernels per layer + 3 for every model but Phi (16: fused QKV and gate/up), i.e. it models
  // a generic Llama layer. We add the kernels the architectures really have: Gemma-2's two extra norms per layer
  // and Qwen3's q/k norms (2 per layer). DeepSeek-V2-Lite (516, MLA + MoE) is not compared: LIFE's count
  // (27 x 19 + 3) again ignores its router and experts.
  struct Row {
    const char* model;
    double life, extra_per_layer, layers;
  };
  const Row t8[] = {{"llama-2-7b", 611, 0, 32}, {"deepseek-r1-distill-qwen-1.5b", 535, 0, 28}, {"gemma-2-2b", 497, 2, 26},
                    {"phi-4-mini", 515, 0, 32}, {"qwen3-14b", 763, 2, 40},  {"qwen3-32b", 1219, 2, 64}};
  for (const auto& row : t8) {
    INFO(row.model);
    Workload w = life_variant("bf16-int4", 128);
    const auto a = analyze(preset_model(row.model), w, nullptr);
    CHECK(a.decode.totals.dispatches == row.life + row.extra_per_layer * row.layers);
  }
  // Our default counts one RoPE and one cache-write kernel and fused attention: 15 per Llama layer, not 19.
  Workload w = life_variant("bf16-int4", 128);
  w.settings = settings("infercast", "int4-g128");
  CHECK(analyze(preset_model("llama-2-7b"), w, nullptr).decode.totals.dispatches == 32 * 15 + 3);
  // Fusing the MLP removes one more per layer.
  w.settings.fused_mlp = true;
  CHECK(analyze(preset_model("llama-2-7b"), w, nullptr).decode.totals.dispatches == 32 * 13 + 3);
}

TEST_CASE("LIFE Table 12: the compute of merging LoRA adapters into Llama-2-7B", "[golden][life]") {
  // Per layer (GOPs, the table's one decimal) and the model total (x32) at ranks 16 to 128. A merge is
  // W' = W + (alpha/r) B A: 2 k r n for the product and 2 k n to scale and add.
  const auto m = preset_model("llama-2-7b");
  const auto groups = group_layers(m);
  const double total[] = {220.2, 427.4, 841.9, 1670.8};
  const double attn[] = {0.6, 1.1, 2.2, 4.3}, mlp[] = {1.5, 3.0, 5.9, 11.6};
  const i64 ranks[] = {16, 32, 64, 128};
  for (int i = 0; i < 4; ++i) {
    const double r = static_cast<double>(ranks[i]);
    INFO("rank " << r);
    CHECK(lora_cost(m, groups, ranks[i]).merge_flops / 1e9 == Approx(total[i]).epsilon(0.0005));
    CHECK(std::round((2 * 4096 * r * 4096 + 2 * 4096 * 4096) / 1e8) / 10 == attn[i]);
    CHECK(std::round((2 * 4096 * r * 11008 + 2 * 4096 * 11008) / 1e8) / 10 == mlp[i]);
  }
}

TEST_CASE("LoRA per step: unmerged adapters cost work and bytes on every call, a merged one costs nothing", "[life]") {
  const auto m = preset_model("llama-2-7b");
  const auto groups = group_layers(m);
  auto s = settings();
  const auto base = step_ops(m, groups, {{0, 256, 1}}, s);
  s.lora.rank = 64;
  s.lora.mode = LoraMode::Unmerged;
  const auto un = step_ops(m, groups, {{0, 256, 1}}, s);
  const auto& q0 = find_op(base, "q_proj"), &q1 = find_op(un, "q_proj");
  const double T = 256, k = 4096, n = 4096, r = 64;
  CHECK(q1.lora_flops == 32 * (2 * T * k * r + 2 * T * r * n + T * n));
  CHECK(q1.flops == q0.flops + q1.lora_flops);
  CHECK(q1.weight_bytes == q0.weight_bytes + 32 * (k * r + r * n) * 2);
  CHECK(find_op(un, "lm_head").lora_flops == 0);
  // Two kernels per adapted call beside the GEMM: vLLM's lora_shrink and lora_expand.
  CHECK(q1.dispatches == q0.dispatches + 2 * 32);
  CHECK(find_op(un, "lm_head").dispatches == find_op(base, "lm_head").dispatches);
  s.lora.mode = LoraMode::MergePerCall;  // LIFE's inline merge: 2krn + kn per call, whatever the token count
  CHECK(find_op(step_ops(m, groups, {{0, 256, 1}}, s), "q_proj").lora_flops == 32 * (2 * k * r * n + k * n));
  s.lora.mode = LoraMode::Merged;
  const auto merged = step_ops(m, groups, {{0, 256, 1}}, s);
  CHECK(find_op(merged, "q_proj").flops == q0.flops);
  CHECK(find_op(merged, "q_proj").weight_bytes == q0.weight_bytes);
  // LIFE's observation: per-call merging costs short prompts far more than long ones (relative to the GEMMs).
  s.lora.mode = LoraMode::MergePerCall;
  auto rel = [&](i64 prompt) {
    const auto ops = step_ops(m, groups, {{0, prompt, 1}}, s);
    const auto& q = find_op(ops, "q_proj");
    return q.lora_flops / (q.flops - q.lora_flops);
  };
  CHECK(rel(128) > 10 * rel(4096));
}

TEST_CASE("LIFE Fig. 6: chunked prefill keeps the FLOPs, adds memory traffic and multiplies dispatches", "[life]") {
  const auto m = preset_model("llama-2-7b");
  const auto h100 = *find_hardware_preset("nvidia-h100-sxm");
  Workload w;
  w.settings = settings();
  w.requests = {{0, 4096, 1}};
  w.gen_tokens = 1;
  const auto whole = analyze(m, w, &h100);
  double prev_bytes = whole.prefill.totals.bytes();
  for (i64 chunk : {2048, 1024, 512, 256, 128, 64}) {
    INFO("chunk " << chunk);
    w.prefill_chunk = chunk;
    const auto c = analyze(m, w, &h100);
    CHECK(c.prefill_chunks == 4096 / chunk);
    // Causal attention over the chunks covers the same pairs; only the LM head runs once per chunk.
    CHECK(c.prefill.totals.flops == Approx(whole.prefill.totals.flops).epsilon(0.01));
    CHECK(c.prefill.totals.dispatches == whole.prefill.totals.dispatches * (4096 / chunk));
    CHECK(c.prefill.totals.bytes() > prev_bytes);  // weights re-read per chunk, earlier KV re-read
    prev_bytes = c.prefill.totals.bytes();
    CHECK(c.ttft_s >= whole.ttft_s);
  }
  // The smallest chunk: 64x the dispatches (LIFE's red bar).
  CHECK(w.prefill_chunk == 64);
}

TEST_CASE("LIFE Fig. 8: attention padded to a tile wastes work in a sawtooth as the context grows", "[life]") {
  const auto m = preset_model("llama-2-7b");
  const auto groups = group_layers(m);
  auto s = settings();
  s.attention_tile = 64;
  auto waste = [&](i64 cached) {
    const auto ops = step_ops(m, groups, {{cached, 1, 1}}, s);
    const auto& op = find_op(ops, "attention");
    return op.padded_flops / (op.flops - op.padded_flops);  // padded work relative to useful work
  };
  CHECK(waste(63) == 0);                    // 64 keys: a whole tile
  CHECK(waste(64) == Approx(63.0 / 65));    // 65 keys padded to 128
  CHECK(waste(64) > waste(100));            // the tooth falls as keys fill the tile
  CHECK(waste(127) == 0);
  CHECK(waste(4096) == Approx(63.0 / 4097));  // longer contexts: the same tooth, smaller
  // Decode over a generation follows the sawtooth exactly (closed form with a cut at every tile boundary).
  const auto h100 = *find_hardware_preset("nvidia-h100-sxm");
  Workload w;
  w.settings = s;
  w.requests = {{0, 100, 1}};
  w.gen_tokens = 300;
  const auto a = analyze(m, w, &h100);
  double sum = 0;
  for (i64 j = 0; j < 299; ++j) {
    Workload one = w;
    one.requests = {{100 + j, 1, 1}};
    one.gen_tokens = 1;
    sum += analyze(m, one, &h100).ttft_s;
  }
  CHECK(a.decode_time_s == Approx(sum).epsilon(1e-9));
}

TEST_CASE("LoRA adapters are memory unless merged", "[life][memory]") {
  // Llama-3.1-8B at rank 16: per layer (K + N) x 16 over q (4096, 4096), k and v (4096, 1024), o (4096, 4096),
  // gate and up (4096, 14336), down (14336, 4096): 1,310,720 elements; 32 layers in bf16: 83,886,080 bytes.
  const json base = {{"model", "llama-3.1-8b"}, {"hardware", "nvidia-h100-sxm"}};
  json with = base;
  with["lora"] = {{"rank", 16}};
  const json plain = api_value("analyze", base), unmerged = api_value("analyze", with);
  CHECK(unmerged["workload"]["lora"]["adapter_bytes"].get<double>() == 83886080.0);
  CHECK(unmerged["memory"]["weights_bytes"].get<double>() == plain["memory"]["weights_bytes"].get<double>() + 83886080.0);
  with["lora"]["mode"] = "merged";
  const json merged = api_value("analyze", with);
  CHECK(merged["workload"]["lora"]["adapter_bytes"].get<double>() == 0);
  CHECK(merged["memory"]["weights_bytes"] == plain["memory"]["weights_bytes"]);
}
