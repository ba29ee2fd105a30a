// Times the serving model natively: a step-model build, one engine step through it against the exact operator path,
// a request-level simulation, and the deployment search, printing each against its target as a ratio (the issue's
// "10,000 deployments in under a second"; a simulation "in milliseconds").
// Usage: infercast_bench_serving [iterations]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "io/presets.hpp"
#include "serving/deploy.hpp"

using namespace infercast;

namespace {
template <typename F>
double seconds(int iters, F f) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters;
}

Workload vllm_workload(const char* weights) {
  Workload w;
  w.runtime = find_runtime_preset("vllm");
  w.settings.precision.weights = *find_dtype(weights);
  w.settings.convention = convention_by_name("infercast");
  w.settings.fusion = w.runtime->fusion;
  w.settings.fused_mlp = w.runtime->act_in_gemm;
  return w;
}
}  // namespace

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 3;
  double sink = 0;

  // One engine step: the surrogate against step_ops + timing (what a simulation would otherwise run per step).
  {
    const ModelSpec m = parse_model_config(find_model_preset("llama-3.1-70b")->config, "/config");
    const Workload w = vllm_workload("bf16");
    const System sys = *find_system_preset("dgx-h100");
    ParallelPlan p;
    p.tp = 4;
    const double build = seconds(iters, [&] { sink += StepModel(m, w, sys, p, 16384, 1024).geometries(); });
    const StepModel sm(m, w, sys, p, 16384, 1024);
    const std::vector<Request> step = {Request{2000, 1, 200}, Request{0, 1500, 1}};
    StepLoad l;
    for (const auto& r : step) sm.add(l, static_cast<double>(r.cached), static_cast<double>(r.input), static_cast<double>(r.count));
    const double fast = seconds(20000, [&] { sink += sm.seconds(l, sm.execution()); });
    const double exact = seconds(200, [&] { sink += sm.exact_seconds(step, sm.execution()); });
    std::printf("Llama-3.1-70B TP4 step model: build %.1f ms; one step %.2f us (exact path %.1f us: %.0fx faster)\n",
                build * 1e3, fast * 1e6, exact * 1e6, exact / fast);
  }

  // A simulation: 64 clients, 1024/256 tokens, 512 requests (about 130,000 request-steps).
  {
    const ModelSpec m = parse_model_config(find_model_preset("llama-3.1-8b")->config, "/config");
    const Workload w = vllm_workload("bf16");
    const System sys = single_node_system(*find_hardware_preset("nvidia-h100-sxm"), 1);
    ServingLoad load;
    load.isl = {LengthKind::Uniform, 1024, 0.5};
    load.osl = {LengthKind::Uniform, 256, 0.5};
    load.concurrency = 64;
    load.requests = 512;
    ServingForecast f;
    const double t = seconds(iters, [&] { f = forecast_serving(m, w, sys, ParallelPlan{}, load, 0, 0, true); });
    std::printf("Llama-3.1-8B H100 serving simulation (%g requests, %g steps): %.1f ms (target: milliseconds)\n",
                f.simulated.requests, f.simulated.steps, t * 1e3);
    sink += f.simulated.ttft_s.p50;
  }

  // The deployment search, against the 10,000 configurations in under a second.
  std::printf("\n%-16s %-16s %8s %8s %7s %10s %12s %14s\n", "model", "system", "configs", "layouts", "front", "time (ms)",
              "configs/s", "ratio to 1 s*");
  struct Case {
    const char* model;
    const char* system;
    const char* weights;
  };
  for (const Case& c : {Case{"llama-3.1-8b", "dgx-h100", "bf16"}, Case{"llama-3.1-70b", "dgx-h100", "bf16"},
                        Case{"llama-3.1-70b", "2x-hgx-h200-ib", "fp8"}, Case{"llama-3.1-70b", "4x-dgx-h100-ib", "bf16"},
                        Case{"qwen3-30b-a3b", "4x-dgx-h100-ib", "bf16"}}) {
    const ModelSpec m = parse_model_config(find_model_preset(c.model)->config, "/config");
    const Workload w = vllm_workload(c.weights);
    const System sys = *find_system_preset(c.system);
    DeploySpec spec;
    spec.load.isl.mean = 2048;
    spec.load.osl.mean = 512;
    spec.max_ttft_s = 2;
    spec.max_tpot_s = 0.05;
    DeployResult r;
    const double t = seconds(iters, [&] { r = deploy_search(m, w, sys, sys.devices(), spec); });
    // The time 10,000 configurations would take at this rate, over the 1 s target (below 1: within it).
    const double ratio = t / static_cast<double>(r.evaluated) * 10000;
    std::printf("%-16s %-16s %8lld %8d %7zu %10.1f %12.0f %14.3f\n", c.model, c.system, static_cast<long long>(r.evaluated),
                r.layouts, r.front.size(), t * 1e3, static_cast<double>(r.evaluated) / t, ratio);
    sink += r.best.tokens_per_s_per_device;
  }
  std::printf("* seconds that 10,000 configurations take at the measured rate (the target is below 1; the page runs the\n"
              "  same core as WebAssembly: bench/bench_wasm.mjs measures it there)\n");
  return sink > 0 ? 0 : 1;
}
