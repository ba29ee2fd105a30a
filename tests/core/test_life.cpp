// LIFE (arXiv 2508.00904; shared/seeds/001_41307c26eac1f3c9.txt) Table 4: "TOPs vs Prompt length for Llama2-7B
// BF16-BF16 model in prefill". Under --convention life the total must be within 1% of every row, the GEMM share
// within 0.2 percentage points and the KV size within the table's rounding (0.05 GiB).
#include <catch2/catch.hpp>

#include "helpers.hpp"

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
