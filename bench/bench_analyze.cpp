// Times one full forecast (prefill plus the whole decode of 32k generated tokens) natively, for a dense, a
// sliding-window, a chunked and an MLA model, and the JSON round trip the CLI and the page use.
// Usage: infercast_bench [iterations]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "analysis/analysis.hpp"
#include "api/api.hpp"
#include "bench_common.hpp"
#include "io/presets.hpp"

using namespace infercast;

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 2000;
  const HardwareSpec* hw = find_hardware_preset("nvidia-h100-sxm");
  std::printf("%-16s %14s %14s\n", "model", "analyze (us)", "JSON call (us)");
  for (const char* id : {"llama-3.1-8b", "gemma-2-9b", "llama-4-scout", "deepseek-v3"}) {
    const ModelSpec m = parse_model_config(find_model_preset(id)->config, "/config");
    const Workload w = bench_workload("bf16", 2048, 8, 32768);
    double sink = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) sink += analyze(m, w, hw).tpot_mean_s;
    auto t1 = std::chrono::steady_clock::now();
    const std::string req = std::string(R"({"model":")") + id +
                            R"(","hardware":"nvidia-h100-sxm","workload":{"batch":8,"prompt":2048,"gen":32768}})";
    const int json_iters = iters / 10 + 1;
    std::size_t len = 0;
    auto t2 = std::chrono::steady_clock::now();
    for (int i = 0; i < json_iters; ++i) len += call("analyze", req).size();
    auto t3 = std::chrono::steady_clock::now();
    std::printf("%-16s %14.1f %14.1f   (%g %zu)\n", id,
                std::chrono::duration<double, std::micro>(t1 - t0).count() / iters,
                std::chrono::duration<double, std::micro>(t3 - t2).count() / json_iters, sink > 0 ? 1.0 : 0.0, static_cast<std::size_t>(len > 0 ? 1 : 0));
  }
  return 0;
}
