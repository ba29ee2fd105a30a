// Times plan forecasts over several devices (each stage's analysis plus the collectives), speculative decoding and
// a whole batching curve, natively.
// Usage: infercast_bench_parallel [iterations]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_common.hpp"
#include "io/presets.hpp"
#include "parallel/parallel.hpp"

using namespace infercast;

namespace {
template <typename F>
double micros(int iters, F f) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / iters;
}
}  // namespace

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 200;
  struct Case {
    const char* model;
    const char* system;
    int tp, pp, ep;
    const char* draft;
  };
  const Case cases[] = {{"llama-3.1-70b", "dgx-h100", 4, 1, 1, "llama-3.2-1b"},
                        {"llama-3.1-405b", "2x-hgx-h200-ib", 8, 2, 1, "llama-3.2-1b"},
                        {"deepseek-v3", "hgx-h200", 8, 1, 8, "mtp"}};
  std::printf("%-16s %-16s %12s %16s %18s\n", "model", "system", "plan (us)", "+ speculative", "batching curve (ms)");
  double sink = 0;
  for (const auto& c : cases) {
    const ModelSpec m = parse_model_config(find_model_preset(c.model)->config, "/config");
    const ModelSpec draft = parse_model_config(find_model_preset("llama-3.2-1b")->config, "/config");
    const Workload w = bench_workload("fp8", 2048, 8, 1024);
    ParallelPlan p;
    p.tp = c.tp, p.pp = c.pp, p.ep = c.ep;
    const System& sys = *find_system_preset(c.system);
    Speculative none, spec;
    spec.draft_tokens = 3;
    spec.acceptance = 0.8;
    if (std::string(c.draft) == "mtp") spec.mtp = true;
    else spec.draft = &draft;
    const double plan = micros(iters, [&] { sink += forecast_plan(m, w, sys, p, none).tpot_mean_s; });
    const double sp = micros(iters, [&] { sink += forecast_plan(m, w, sys, p, spec).spec.tpot_s; });
    const double curve = micros(iters / 20 + 1, [&] { sink += batching_curve(m, w, sys, p, none, 65536).kv_fit_batch; }) / 1e3;
    std::printf("%-16s %-16s %12.1f %16.1f %18.2f\n", c.model, c.system, plan, sp, curve);
  }
  return sink > 0 ? 0 : 1;
}
