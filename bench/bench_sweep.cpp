// Design points per second: the sweep engine alone (dse_run) and the whole `sweep` API call, for 1,048,576 points
// (5 parameters) and three objectives, on dense, MoE and MLA models; the same engine on a grid without a price axis
// (every point its own cell: no timing to reuse); and the grid in two parts, as two workers run it, merged and
// checked against the whole. Ratios are to the engine's own time per point. CPU time (std::clock).
// Usage: infercast_bench_sweep [repeats]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "api/api.hpp"
#include "bench_common.hpp"
#include "dse/dse.hpp"
#include "io/presets.hpp"

using namespace infercast;

namespace {

std::vector<double> range(double lo, double hi, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(lo * std::pow(hi / lo, i / double(n - 1)));
  return v;
}

template <class F>
double best_of(int repeats, F f) {
  double best = 1e9;
  for (int i = 0; i < repeats; ++i) best = std::min(best, per_call_s(1, f));
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  const HardwareSpec* hw = find_hardware_preset("nvidia-h100-sxm");
  std::printf("%-14s %8s %8s %6s %12s %12s %14s %7s %14s %14s\n", "model", "points", "feasible", "front", "engine ns/pt",
              "engine Mpt/s", "API ns/pt", "ratio", "no-reuse ns/pt", "2 parts merged");
  for (const char* id : {"llama-3.1-8b", "qwen3-30b-a3b", "deepseek-v3"}) {
    const ModelSpec m = parse_model_config(find_model_preset(id)->config, "/config");
    const Workload w = bench_workload("int4", 2048, 8, 1024);
    DseSpec spec;
    spec.axes = {{DseParam::ComputeTflops, range(50, 5000, 16)}, {DseParam::BandwidthGBps, range(200, 16000, 16)},
                 {DseParam::CapacityGB, range(16, 1024, 16)}, {DseParam::SramMB, {0, 64, 256, 1024}},
                 {DseParam::PriceUSD, range(2000, 60000, 64)}};
    spec.sram_bandwidth_bytes_per_s = 40e12;
    spec.objectives = {DseObjective::Tpot, DseObjective::PowerW, DseObjective::UsdPerMTok};
    const DseWorkload wl = dse_prepare(m, w, *hw, spec.costs);
    DseResult r;
    const double engine = best_of(repeats, [&] { r = dse_run(wl, spec); }) / static_cast<double>(r.points);
    // Every point its own cell: compute, bandwidth, capacity and SRAM only (65,536 points x 16 for the same count).
    DseSpec cells = spec;
    cells.axes = {{DseParam::ComputeTflops, range(50, 5000, 64)}, {DseParam::BandwidthGBps, range(200, 16000, 64)},
                  {DseParam::CapacityGB, range(16, 1024, 64)}, {DseParam::SramMB, {0, 64, 256, 1024}}};
    DseResult rc;
    const double no_reuse = best_of(repeats, [&] { rc = dse_run(wl, cells); }) / static_cast<double>(rc.points);
    // Two parts, merged: the same front and sample as the whole.
    std::vector<DseResult> parts(2);
    for (int p = 0; p < 2; ++p) {
      DseSpec ps = spec;
      ps.part_index = p;
      ps.part_count = 2;
      parts[p] = dse_run(wl, ps);
    }
    const DseResult merged = dse_merge(spec, parts);
    const bool same = merged.front_ids == r.front_ids && merged.sample_ids == r.sample_ids && merged.feasible == r.feasible;
    const std::string req = std::string(R"({"model":")") + id + R"(","hardware":"nvidia-h100-sxm","precision":{"weights":"int4"},)"
                            R"("workload":{"batch":8,"prompt":2048,"gen":1024},"sram_bandwidth_GBps":40000,"layout":"columns",)"
                            R"("objectives":["tpot_s","power_W","usd_per_million_tokens"],"axes":[)"
                            R"({"param":"compute_TFLOPS","min":50,"max":5000,"steps":16},{"param":"bandwidth_GBps","min":200,"max":16000,"steps":16},)"
                            R"({"param":"capacity_GB","min":16,"max":1024,"steps":16},{"param":"sram_MB","values":[0,64,256,1024]},)"
                            R"({"param":"price_USD","min":2000,"max":60000,"steps":64}]})";
    std::vector<double> columns;
    std::string out;
    const double api = best_of(repeats, [&] { out = call_columns("sweep", req, columns); }) / static_cast<double>(r.points);
    if (out.find("\"ok\":true") == std::string::npos) {
      std::printf("%s\n", out.substr(0, 400).c_str());
      return 1;
    }
    std::printf("%-14s %8lld %8lld %6zu %12.1f %12.1f %14.1f %6.2fx %14.1f %14s\n", id, static_cast<long long>(r.points),
                static_cast<long long>(r.feasible), r.front.size(), engine * 1e9, 1e-6 / engine, api * 1e9, api / engine,
                no_reuse * 1e9, same ? "identical" : "DIFFERENT");
  }
  return 0;
}
