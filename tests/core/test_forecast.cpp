// Forecast mechanics: the closed-form decode sum equals a step-by-step sum, TPOT grows with the KV cache,
// more bandwidth or compute is never slower, and the bound agrees with the ridge point.
#include <catch2/catch.hpp>

#include "helpers.hpp"
#include "io/hardware_json.hpp"

using namespace test;

namespace {
HardwareSpec device(double tflops, double gbps, double gb = 80) {
  HardwareSpec hw;
  hw.id = "test";
  hw.name = "test";
  hw.device_class = "custom";
  hw.peak_flops[static_cast<std::size_t>(ComputeType::BF16)] = tflops * 1e12;
  hw.tiers.push_back(MemoryTier{"HBM", gb * 1e9, gbps * 1e9, 0});
  return hw;
}

// Step-by-step reference: evaluate every decode position.
double brute_decode(const ModelSpec& m, const Workload& w, const HardwareSpec& hw) {
  double total = 0;
  Workload one = w;
  for (i64 j = 0; j < w.gen_tokens - 1; ++j) {
    std::vector<Request> step;
    for (const auto& r : w.requests) step.push_back(Request{r.cached + r.input + j, 1, r.count});
    one.requests = step;
    one.gen_tokens = 1;
    // The first step of `one` is exactly decode step j of `w`; its prefill time is that step's time.
    const auto s = analyze(m, one, &hw);
    total += s.ttft_s;
  }
  return total;
}
}  // namespace

TEST_CASE("closed-form decode time equals the step-by-step sum, across windows and chunks", "[forecast]") {
  const auto hw = device(400, 1000, 1000);
  for (const char* id : {"llama-3.1-8b", "gemma-2-9b", "llama-4-scout", "gpt-oss-20b", "deepseek-v2-lite"}) {
    INFO(id);
    const auto m = preset_model(id);
    Workload w;
    w.settings = settings();
    w.requests = {{0, 100, 3}};
    w.gen_tokens = 60;
    if (std::string(id) == "gemma-2-9b") w.requests = {{0, 4070, 2}};     // crosses the 4096 window
    if (std::string(id) == "llama-4-scout") w.requests = {{0, 8170, 1}};  // crosses a chunk boundary
    if (std::string(id) == "gpt-oss-20b") w.requests = {{0, 100, 2}};     // crosses the 128 window
    const auto a = analyze(m, w, &hw);
    CHECK(a.decode_time_s == Approx(brute_decode(m, w, hw)).epsilon(1e-9));
  }
}

TEST_CASE("ragged batches: the running sums over every request's boundaries equal the step-by-step sum", "[forecast]") {
  // Distinct requests whose windows fill and chunks restart at different steps (one decodes from an empty cache,
  // two share a position), with and without an attention tile that does not divide the chunk.
  const auto hw = device(400, 1000, 4000);
  for (i64 tile : {0, 48}) {
    for (const char* id : {"gemma-2-9b", "llama-4-scout", "gpt-oss-20b"}) {
      INFO(id << " tile " << tile);
      const auto m = preset_model(id);
      Workload w;
      w.settings = settings();
      w.settings.attention_tile = tile;
      w.requests = {{4000, 60, 1}, {0, 4080, 2}, {8150, 10, 1}, {8100, 60, 3}, {0, 1, 1}, {90, 10, 2}, {8180, 1, 1}};
      w.gen_tokens = 70;
      const auto a = analyze(m, w, &hw);
      CHECK(a.decode_time_s == Approx(brute_decode(m, w, hw)).epsilon(1e-9));
    }
  }
}

TEST_CASE("TPOT grows with position as the KV cache grows", "[forecast]") {
  const auto hw = device(989, 3350);
  Workload w;
  w.settings = settings();
  w.requests = {{0, 4096, 1}};
  w.gen_tokens = 4096;
  const auto a = analyze(preset_model("llama-3.1-8b"), w, &hw);
  CHECK(a.tpot_last_s > a.tpot_first_s);
  CHECK(a.tpot_mean_s > a.tpot_first_s);
  CHECK(a.tpot_mean_s < a.tpot_last_s);
  for (std::size_t i = 1; i < a.timeline.size(); ++i) CHECK(a.timeline[i].tpot_s >= a.timeline[i - 1].tpot_s);
}

TEST_CASE("more bandwidth or compute is never slower", "[forecast][invariants]") {
  Workload w;
  w.settings = settings();
  w.requests = {{0, 1024, 4}};
  w.gen_tokens = 64;
  for (const char* id : {"llama-3.1-8b", "mixtral-8x7b", "deepseek-v3", "gemma-3-4b-text"}) {
    INFO(id);
    const auto m = preset_model(id);
    double prev_ttft = 1e300, prev_tpot = 1e300;
    for (double bw : {100.0, 400.0, 1600.0, 6400.0}) {
      const auto hw = device(500, bw, 2000);
      const auto a = analyze(m, w, &hw);
      CHECK(a.ttft_s <= prev_ttft);
      CHECK(a.tpot_mean_s <= prev_tpot);
      prev_ttft = a.ttft_s;
      prev_tpot = a.tpot_mean_s;
    }
    prev_ttft = prev_tpot = 1e300;
    for (double tf : {10.0, 100.0, 1000.0}) {
      const auto hw = device(tf, 2000, 2000);
      const auto a = analyze(m, w, &hw);
      CHECK(a.ttft_s <= prev_ttft);
      CHECK(a.tpot_mean_s <= prev_tpot);
      prev_ttft = a.ttft_s;
      prev_tpot = a.tpot_mean_s;
    }
  }
}

TEST_CASE("an operator is memory-bound exactly when its intensity is under the effective ridge", "[forecast]") {
  auto hw = device(989, 3350);
  hw.eff.dispatch_s = 0;
  Workload w;
  w.settings = settings();
  w.requests = {{0, 512, 8}};
  w.gen_tokens = 2;
  const auto a = analyze(preset_model("llama-3.1-8b"), w, &hw);
  for (const Phase* p : {&a.prefill, &a.decode}) {
    for (std::size_t i = 0; i < p->ops.size(); ++i) {
      const Op& o = p->ops[i];
      if (o.flops <= 0) continue;
      const double eff_c = o.cls == OpClass::GEMM ? hw.eff.gemm : o.cls == OpClass::Attention ? hw.eff.attention : hw.eff.elementwise;
      const double ridge = 989e12 * eff_c / (3350e9 * hw.eff.memory);
      INFO(o.name);
      const double intensity = o.flops / o.bytes();
      if (std::fabs(intensity / ridge - 1) < 1e-9) continue;
      CHECK((p->times[i].bound == "memory") == (intensity < ridge));
    }
  }
}

TEST_CASE("a model that does not fit spills and says so", "[forecast]") {
  Workload w;
  w.settings = settings();
  w.requests = {{0, 512, 1}};
  w.gen_tokens = 8;
  const auto small = device(989, 3350, 80);
  const auto a = analyze(preset_model("llama-3.1-405b"), w, &small);
  CHECK_FALSE(a.fits);
  const auto b = analyze(preset_model("llama-3.1-8b"), w, &small);
  CHECK(b.fits);
}
