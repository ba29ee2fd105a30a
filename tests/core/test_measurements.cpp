// Measurements pasted as tools print them, read into calibration points: llama-bench's table, `vllm bench serve`'s
// summary, a CSV; and a calibration from a pasted llama-bench run.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "helpers.hpp"
#include "io/measurements.hpp"

using namespace test;
using nlohmann::json;

namespace {
// Llama-3.1-8B Q4_K_M on an RTX 3080 (dmatora/LLM-inference-speed-benchmarks#12: "Prompt evaluation: 3806.89 ±
// 15.44. Token generation: 111.95 ± 2.45", llama.cpp build 93bc3839 (3622)), in the table llama-bench prints.
const char* kBench =
    "| model                          |       size |     params | backend    | ngl |          test |                  t/s |\n"
    "| ------------------------------ | ---------: | ---------: | ---------- | --: | ------------: | -------------------: |\n"
    "| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |         pp512 |      3806.89 ± 15.44 |\n"
    "| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |         tg128 |        111.95 ± 2.45 |\n"
    "\n"
    "build: 93bc3839 (3622)\n";

std::string error_of(const std::string& text) {
  try {
    parse_measurements(text, 1);
  } catch (const InputError& e) {
    return e.code() + " | " + e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("llama-bench's table: ppN, tgN, depths and pp+tg", "[measurements]") {
  const auto p = parse_measurements(kBench, 1);
  CHECK(p.format == "llama-bench");
  REQUIRE(p.points.size() == 2);
  CHECK(p.points[0].metric == "prompt_tokens_per_s");
  CHECK(p.points[0].value == 3806.89);
  CHECK(p.points[0].prompt == 512);
  CHECK(p.points[0].weights == "q4_k_m");
  CHECK(p.points[1].metric == "decode_tokens_per_s");
  CHECK(p.points[1].value == 111.95);
  CHECK(p.points[1].gen == 129);  // 128 decode steps after a one-token prompt
  CHECK(p.params_stated == Approx(8.03e9));
  CHECK(p.notes.front() == "llama-bench ran \"llama 8B Q4_K - Medium\" (8.03 B parameters), read as q4_k_m on CUDA with -ngl 99");
  const auto d = parse_measurements("| model | test | t/s |\n|---|---|---|\n| qwen2 7B Q8_0 | pp512 @ d4096 | 1500 |\n"
                                    "| qwen2 7B Q8_0 | pp4096+tg128 | 2000 ± 3 |\n",
                                    1);
  CHECK(d.points[0].cached == 4096);
  CHECK(d.points[0].weights == "q8_0");
  CHECK(d.points[1].metric == "e2e_s");
  CHECK(d.points[1].value == Approx(4224.0 / 2000));
  CHECK(error_of("| model | test | t/s |\n|---|---|---|\n| llama 8B Q4_0 | xx512 | 10 |\n") ==
        "measurements.bad_value | /measurements: line 3: the test column holds \"xx512\"; expected ppN, tgN, ppN+tgM, optionally with @ dD");
  CHECK(error_of("| model | test | t/s |\n| llama 8B Q4_0 | pp512 | fast |\n") ==
        "measurements.bad_value | /measurements: line 2: the t/s column holds \"fast\"; expected a positive number");
}

// Review of stop 57: the reader ignored llama-bench's fa column, so a run with -fa 0 calibrated a device as if it had
// run flash attention (llama.cpp's default since 2025-08, the presets' since stop 57), and a table from an older build
// (no fa column: its default was off) did too.
TEST_CASE("llama-bench's fa column and build date the attention each point ran", "[measurements]") {
  const std::string head = "| model | backend | ngl | fa | test | t/s |\n|---|---|---|---|---|---|\n";
  const auto fa = [&](const std::string& v) {
    return parse_measurements(head + "| llama 8B Q4_0 | CUDA | 99 | " + v + " | pp512 | 1000 |\n", 1).points.at(0).attention;
  };
  for (const char* on : {"1", "on", "enabled"}) CHECK(fa(on) == "fused");
  for (const char* off : {"0", "off", "disabled"}) CHECK(fa(off) == "unfused");
  CHECK(fa("auto").empty());
  CHECK(error_of(head + "| llama 8B Q4_0 | CUDA | 99 | maybe | pp512 | 1000 |\n") ==
        "measurements.bad_value | /measurements: line 3: the fa column holds \"maybe\"; expected 0, 1, on, off, enabled, disabled or auto");
  // No fa column: build 3622 (2024) ran without flash attention; a build from 2025-08 on, or none named, runs the
  // runtime's default.
  const auto old = parse_measurements(kBench, 1);
  for (const auto& p : old.points) CHECK(p.attention == "unfused");
  CHECK(old.notes.back() == "llama-bench build 3622 predates flash attention by default (2025-08) and its table has no fa column: read as -fa 0");
  std::string recent = kBench;
  recent.replace(recent.find("(3622)"), 6, "(6500)");
  const auto later = parse_measurements(recent, 1);
  for (const auto& p : later.points) CHECK(p.attention.empty());
  CHECK(later.notes.back().find("the table has no fa column: each point runs the runtime's default attention") == 0);
  CHECK(later.notes.back().find("(build 6500)") != std::string::npos);
  // Only llama-bench's own build line dates a table: llama.cpp's log line "build: 6500 (93bc3839) with cc" does not.
  std::string logline = kBench;
  logline.replace(logline.find("build: 93bc3839 (3622)"), 22, "build: 3622 (93bc3839) with cc (GCC)");
  for (const auto& p : parse_measurements(logline, 1).points) CHECK(p.attention.empty());
  // The calibration forecasts each point with the attention it ran: -fa 0 moves more bytes through attention than
  // -fa 1 on the same figures, so it fits a faster attention to match them.
  const auto fit = [&](const char* v) {
    const std::string t = head + "| llama 8B Q4_K - Medium | CUDA | 99 | " + v + " | pp4096 | 3000 |\n" +
                          "| llama 8B Q4_K - Medium | CUDA | 99 | " + v + " | tg128 @ d4096 | 100 |\n";
    return api_value("calibrate", {{"hardware", "nvidia-rtx-3080"}, {"model", "llama-3.1-8b"}, {"measurements", t}});
  };
  const json on = fit("1"), off = fit("0");
  CHECK(on["points"][0]["forecast_before"].get<double>() != off["points"][0]["forecast_before"].get<double>());
  CHECK(api_value("calibrate", {{"hardware", "nvidia-rtx-3080"}, {"model", "llama-3.1-8b"}, {"measurements", kBench}})["points"][0]["forecast_before"] ==
        api_value("calibrate", {{"hardware", "nvidia-rtx-3080"}, {"model", "llama-3.1-8b"},
                                {"points", {{{"metric", "prompt_tokens_per_s"}, {"value", 3806.89}, {"attention", "unfused"},
                                             {"precision", {{"weights", "q4_k_m"}}}, {"workload", {{"prompt", 512}, {"gen", 1}}}}}}})["points"][0]["forecast_before"]);
}

TEST_CASE("vllm bench serve's summary and a CSV", "[measurements]") {
  const char* vllm =
      "============ Serving Benchmark Result ============\n"
      "Successful requests:                     100\n"
      "Maximum request concurrency:             16\n"
      "Benchmark duration (s):                  50.0\n"
      "Total input tokens:                      102400\n"
      "Total generated tokens:                  12800\n"
      "---------------Time to First Token----------------\n"
      "Mean TTFT (ms):                          180.5\n"
      "Median TTFT (ms):                        170.2\n"
      "-----Time per Output Token (excl. 1st token)------\n"
      "Mean TPOT (ms):                          21.0\n"
      "Median TPOT (ms):                        20.4\n";
  const auto v = parse_measurements(vllm, 1);
  CHECK(v.format == "vllm-bench-serve");
  REQUIRE(v.points.size() == 2);
  CHECK(v.points[0].metric == "ttft_s");
  CHECK(v.points[0].value == Approx(0.1702));
  CHECK(v.points[0].batch == 16);
  CHECK(v.points[0].prompt == 1024);
  CHECK(v.points[1].metric == "tpot_s");
  CHECK(v.points[1].value == Approx(0.0204));
  CHECK(v.points[1].gen == 128);
  const auto c = parse_measurements("# mine\nmetric,value,batch,prompt,gen,weights\ntpot_s,0.012,1,512,128,Q4_K_M\n", 1);
  CHECK(c.format == "csv");
  CHECK(c.points[0].weights == "q4_k_m");
  CHECK(c.points[0].prompt == 512);
  CHECK(error_of("metric,value\ntpot_s,-1\n") == "measurements.bad_value | /measurements: CSV row 2: value holds \"-1\"; expected a positive number");
  CHECK(error_of("hello") ==
        "measurements.unreadable | /measurements: could not read the measurements: expected llama-bench's table (| model | ... | test | t/s |), "
        "the summary of `vllm bench serve`, or a CSV with metric and value columns");
}

// Found by the `measurements` fuzz target (tests/fuzz/corpus/measurements/finding-vllm-huge-count.txt): a summary
// whose "Successful requests" held 111 digits became a request count past the 64-bit integers (undefined behaviour
// under UBSan); a count of requests under one divided the tokens into averages past them.
TEST_CASE("vllm bench serve's counts past a trillion or under one request are refused", "[measurements]") {
  const std::string tail = "Total input tokens: 1024\nTotal generated tokens: 128\nMedian TPOT (ms): 20\n";
  CHECK(error_of("Serving Benchmark Result\nSuccessful requests: " + std::string(111, '1') + "\n" + tail) ==
        "measurements.bad_value | /measurements: line 2: \"Successful requests\" holds " + std::string(111, '1') +
            "; expected a count of at most 1e12");
  CHECK(error_of("Serving Benchmark Result\nSuccessful requests: 4\nMaximum request concurrency: 1e300\n" + tail) ==
        "measurements.bad_value | /measurements: line 3: \"Maximum request concurrency\" holds 1e300; expected a count of at most 1e12");
  CHECK(error_of("Serving Benchmark Result\nSuccessful requests: 1e-300\n" + tail) ==
        "measurements.bad_value | /measurements: line 2: \"Successful requests\" holds 1e-300; expected at least one request that succeeded");
  CHECK(error_of("Serving Benchmark Result\nSuccessful requests: 0\n" + tail) ==
        "measurements.bad_value | /measurements: line 2: \"Successful requests\" holds 0; expected at least one request that succeeded");
  // A trillion is still read: its averages are whole numbers.
  const auto p = parse_measurements("Serving Benchmark Result\nSuccessful requests: 1\nTotal input tokens: 1e12\n"
                                    "Total generated tokens: 1e12\nMedian TPOT (ms): 20\n", 1);
  CHECK(p.points.at(0).prompt == 1000000000000);
  CHECK(p.points.at(0).gen == 1000000000000);
}

TEST_CASE("a pasted llama-bench run calibrates the device", "[measurements]") {
  const json v = api_value("calibrate", {{"hardware", "nvidia-rtx-3080"}, {"model", "llama-3.1-8b"}, {"measurements", kBench}});
  CHECK(v["measurements"]["format"] == "llama-bench");
  REQUIRE(v["points"].size() == 2);
  CHECK(v["points"][0]["label"] == "pp512");
  CHECK(v["points"][0]["weights"] == "q4_k_m");
  CHECK(v["rms_log_error_after"].get<double>() < v["rms_log_error_before"].get<double>());
  for (const auto& p : v["points"]) CHECK(std::abs(p["error_after"].get<double>()) < 0.02);
  CHECK(v["hardware"]["id"] == "nvidia-rtx-3080-calibrated");
  // The calibrated device forecasts the measured point: tg128 at 111.95 tok/s.
  const json a = api_value("analyze", {{"model", "llama-3.1-8b"}, {"hardware", v["hardware"]}, {"precision", {{"weights", "q4_k_m"}}},
                                       {"workload", {{"prompt", 1}, {"gen", 129}}}});
  CHECK(a["decode"]["tokens_per_s"].get<double>() == Approx(111.95).epsilon(0.02));
  // A different model than the table's is flagged.
  const json w = api_value("calibrate", {{"hardware", "nvidia-rtx-3080"}, {"model", "llama-3.2-3b"}, {"measurements", kBench}});
  CHECK(w["measurements"]["notes"][2].get<std::string>().find("the table's model has 8.03 B parameters; Llama-3.2-3B has 3.21 B") == 0);
}
