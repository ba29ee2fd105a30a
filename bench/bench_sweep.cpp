// Design points per second: the sweep engine alone (dse_run) and the whole `sweep` API call with its JSON, for
// 1,000,000 points (5 parameters) and three objectives, on dense, MoE and MLA models.
// Usage: infercast_bench_sweep [repeats]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "api/api.hpp"
#include "dse/dse.hpp"
#include "bench_common.hpp"
#include "io/presets.hpp"

using namespace infercast;

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  const HardwareSpec* hw = find_hardware_preset("nvidia-h100-sxm");
  std::printf("%-16s %10s %12s %10s %16s %18s\n", "model", "points", "feasible", "front", "engine (Mpt/s)", "API call (Mpt/s)");
  for (const char* id : {"llama-3.1-8b", "qwen3-30b-a3b", "deepseek-v3"}) {
    const ModelSpec m = parse_model_config(find_model_preset(id)->config, "/config");
    const Workload w = bench_workload("int4", 2048, 8, 1024);
    DseSpec spec;
    const auto range = [](double lo, double hi, int n) {
      std::vector<double> v;
      for (int i = 0; i < n; ++i) v.push_back(lo * std::pow(hi / lo, i / double(n - 1)));
      return v;
    };
    spec.axes = {{DseParam::ComputeTflops, range(50, 5000, 16)}, {DseParam::BandwidthGBps, range(200, 16000, 16)},
                 {DseParam::CapacityGB, range(16, 1024, 16)}, {DseParam::SramMB, {0, 64, 256, 1024}},
                 {DseParam::PriceUSD, range(2000, 60000, 64)}};
    spec.sram_bandwidth_bytes_per_s = 40e12;
    spec.objectives = {DseObjective::Tpot, DseObjective::PowerW, DseObjective::UsdPerMTok};
    const DseWorkload wl = dse_prepare(m, w, *hw, spec.costs);
    double best = 1e9;
    DseResult r;
    for (int i = 0; i < repeats; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      r = dse_run(wl, spec);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::string req = std::string(R"({"model":")") + id + R"(","hardware":"nvidia-h100-sxm","precision":{"weights":"int4"},)"
                      R"("workload":{"batch":8,"prompt":2048,"gen":1024},"sram_bandwidth_GBps":40000,)"
                      R"("objectives":["tpot_s","power_W","usd_per_million_tokens"],"axes":[)"
                      R"({"param":"compute_TFLOPS","min":50,"max":5000,"steps":16},{"param":"bandwidth_GBps","min":200,"max":16000,"steps":16},)"
                      R"({"param":"capacity_GB","min":16,"max":1024,"steps":16},{"param":"sram_MB","values":[0,64,256,1024]},)"
                      R"({"param":"price_USD","min":2000,"max":60000,"steps":64}]})";
    double best_call = 1e9;
    for (int i = 0; i < repeats; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const std::string out = call("sweep", req);
      best_call = std::min(best_call, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      if (out.find("\"ok\":true") == std::string::npos) {
        std::printf("%s\n", out.substr(0, 400).c_str());
        return 1;
      }
    }
    std::printf("%-16s %10lld %12lld %10zu %16.2f %18.2f\n", id, static_cast<long long>(r.points), static_cast<long long>(r.feasible),
                r.front.size(), r.points / best / 1e6, r.points / best_call / 1e6);
  }
  return 0;
}
