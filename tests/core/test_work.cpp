// The work estimate that bounds an analysis before it starts (core/analysis/work.hpp; docs/schema.md, "Limits"),
// counted by hand on small workloads, and the invariance the decode's running sums must keep: requests split into
// many entries forecast as the same requests in one entry.
#include <catch2/catch.hpp>

#include "analysis/work.hpp"
#include "helpers.hpp"
#include "ops/layers.hpp"
#include "util/limits.hpp"

using namespace test;

namespace {

Workload tiled(std::vector<Request> requests, i64 gen, i64 tile) {
  Workload w;
  w.requests = std::move(requests);
  w.gen_tokens = gen;
  w.settings = settings();
  w.settings.attention_tile = tile;
  return w;
}

}  // namespace

TEST_CASE("work: decode boundaries counted per request entry, intervals at most the decode steps") {
  const ModelSpec m = preset_model("llama-3.1-8b");
  // gen 17: steps j in (0, 16). A 4-token tile is crossed where the keys p0 + j + 1 pass a multiple of 4:
  // p0 = 1 at j = 3, 7, 11, 15; p0 = 2 at j = 2, 6, 10, 14; p0 = 5 at j = 3, 7, 11, 15. 12 boundaries in all.
  const Workload w = tiled({{0, 1, 1}, {0, 2, 1}, {4, 1, 1}}, 17, 4);
  const WorkEstimate e = estimate_work(m, w);
  CHECK(e.entries == 3);
  CHECK(e.decode_events == 12);
  CHECK(e.decode_intervals == 13);       // an upper bound: 8 distinct boundaries make 9
  CHECK(e.prefill_request_steps == 3);   // no chunked prefill: one step per entry
  CHECK(e.request_steps() == 3 + 3 + 12);  // groups and operators are not counted on so little work
  CHECK(e.groups == 1);
  CHECK(e.ops == 1);

  // 2,000 entries each crossing the tile 4 times over 15 steps: the intervals stop at the 16 steps.
  std::vector<Request> many;
  for (int i = 0; i < 2000; ++i) many.push_back({i, 1, 1});
  const WorkEstimate big = estimate_work(m, tiled(many, 17, 4));
  CHECK(big.decode_events >= 2000 * 3);
  CHECK(big.decode_intervals == 16);
  CHECK(big.steps() == 17);
}

TEST_CASE("work: a step's operators and the layer groups are counted where they could reach a limit") {
  const ModelSpec m = preset_model("gemma-2-9b");  // sliding and global layers alternate: 2 groups
  const Workload w = tiled({{0, 1, 1}}, 1025, 4);  // 256 tile intervals
  const WorkEstimate e = estimate_work(m, w);
  const auto groups = group_layers(m);
  REQUIRE(groups.size() == 2);
  CHECK(e.groups == 2);
  CHECK(e.ops == static_cast<double>(step_ops(m, groups, w.requests, w.settings).size()));
  CHECK(e.operator_steps() == e.steps() * e.ops);
  // A quantization sweep of 100 formats counts them on a workload of 3 steps.
  const Workload small = tiled({{0, 1, 1}}, 9, 4);
  CHECK(estimate_work(m, small).ops == 1);
  CHECK(estimate_work(m, small, 100).ops == e.ops);
}

TEST_CASE("work: Gemma 3n's steps weigh by their operators, a Llama's stay within the steps limit") {
  // 16,384 tile intervals: 2.1 million operator-steps of a Llama (within both limits), over 3 million of Gemma 3n.
  const Workload w = tiled({{0, 1, 1}}, 65536, 4);
  const WorkEstimate llama = estimate_work(preset_model("llama-3.1-8b"), w);
  const WorkEstimate g3n = estimate_work(preset_model("gemma-3n-e4b-text"), w);
  CHECK(llama.ops == 16);
  CHECK(g3n.ops == 191);
  CHECK(llama.operator_steps() <= limit::kAnalysisOperatorSteps);
  CHECK_NOTHROW(check_work(llama, 1, ""));
  CHECK(g3n.operator_steps() > limit::kAnalysisOperatorSteps);
  CHECK_THROWS_WITH(check_work(g3n, 1, ""), Catch::Contains("steps of 191 operators each"));
}

TEST_CASE("work: requests split into entries forecast as one entry of the same count") {
  // 1,000 entries of one request each and one entry of 1,000 run through the same running sums: equal forecasts.
  const ModelSpec m = preset_model("llama-4-scout");
  const HardwareSpec hw = *find_hardware_preset("nvidia-h100-sxm");
  Workload one = tiled({{5000, 7, 1000}}, 9000, 0);
  Workload split = tiled(std::vector<Request>(1000, Request{5000, 7, 1}), 9000, 0);
  const Analysis a = analyze(m, one, &hw);
  const Analysis b = analyze(m, split, &hw);
  CHECK(b.decode_time_s == Approx(a.decode_time_s).epsilon(1e-12));
  CHECK(b.ttft_s == Approx(a.ttft_s).epsilon(1e-12));
  CHECK(b.kv_cache_bytes == Approx(a.kv_cache_bytes).epsilon(1e-12));
  CHECK_NOTHROW(check_workload(m, split));
}

TEST_CASE("work: a quantization sweep over a plan counts every format's stages", "[work][regression]") {
  // 70 formats of a 4,096-stage plan: each format forecasts the plan (the model once, then each stage), 286,790
  // analyses; the limit counted 70.
  const nlohmann::json model = {{"model_type", "llama"}, {"hidden_size", 256}, {"num_attention_heads", 4}, {"num_key_value_heads", 4},
                                {"intermediate_size", 256}, {"num_hidden_layers", 4096}, {"vocab_size", 1024},
                                {"max_position_embeddings", 4096}};
  const nlohmann::json req = {{"model", model}, {"hardware", "nvidia-h100-sxm"}, {"workload", {{"prompt", 16}, {"gen", 4}}},
                              {"parallel", {{"pp", 4096}}}, {"sweep", {{"kv", {"bf16", "int8", "int4", "fp8", "bf16", "int8", "int4"}}}}};
  const nlohmann::json env = nlohmann::json::parse(call("quant_sweep", req.dump()));
  REQUIRE_FALSE(env["ok"].get<bool>());
  CHECK(env["error"]["code"] == "workload.too_much_work");
  CHECK(env["error"]["message"] ==
        "/workload: the quantization sweep runs 286790 analyses of 2 steps each, 1 decode interval (an interval ends where a "
        "request's keys cross a sliding window, an attention chunk or the attention tile), with 16 operators a step: 9177280 "
        "operator-steps in all, past the limit of 8388608; expected fewer generated tokens, fewer distinct requests, or a "
        "larger prefill chunk or tile");
}

TEST_CASE("work: a calibration's evaluations are bounded by their operator-steps too", "[work][regression]") {
  // Gemma 3n's 191 operators a step weigh 12 times a Llama's 16: 60 points ran 4,124 evaluations (52 s of CPU).
  const std::vector<std::string> metrics = {"ttft_s", "tpot_s", "e2e_s", "decode_tokens_per_s", "prompt_tokens_per_s", "output_tokens_per_s"};
  const std::vector<double> values = {0.05, 0.04, 3.0, 53.0, 3040.0, 45.0};
  nlohmann::json points = nlohmann::json::array();
  for (int i = 0; i < 60; ++i)
    points.push_back({{"metric", metrics[i % 6]}, {"value", values[i % 6]}, {"workload", {{"batch", 1 + i % 4}, {"prompt", 128 + i}, {"gen", 2}}}});
  const auto v = api_value("calibrate", {{"hardware", "nvidia-h100-sxm"}, {"model", "gemma-3n-e4b"},
                                         {"fit", {"gemm", "gemm_low", "attention", "elementwise", "memory", "dispatch_us"}},
                                         {"points", points}});
  CHECK(v["stopped_at_work_limit"].get<bool>());
  CHECK(v["evaluations"].get<double>() <= 400);  // 8,388,608 / (120 steps x about 191 operators), was 4,124
  // Points too heavy for a search are refused by their operator-steps.
  nlohmann::json heavy = nlohmann::json::array();
  for (int i = 0; i < 60; ++i)
    heavy.push_back({{"metric", "ttft_s"}, {"value", 0.05}, {"workload", {{"prompt", 2048}, {"prefill_chunk", 64}, {"gen", 2}}}});
  const nlohmann::json env = nlohmann::json::parse(
      call("calibrate", nlohmann::json({{"hardware", "nvidia-h100-sxm"}, {"model", "gemma-3n-e4b"}, {"fit", {"gemm"}}, {"points", heavy}}).dump()));
  REQUIRE_FALSE(env["ok"].get<bool>());
  CHECK(env["error"]["code"] == "workload.too_much_work");
  CHECK(env["error"]["message"] ==
        "/points: the 60 points take 378180 operator-steps per evaluation, and a search over 1 parameters needs at least 53 "
        "evaluations: past the limit of 8388608 operator-steps; expected fewer points or lighter workloads");
}
