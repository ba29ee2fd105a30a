// Times one full forecast (prefill plus the whole decode of 32k generated tokens) natively, for a dense, a
// sliding-window, a chunked and an MLA model, and the JSON calls around it: the default call (operators as rows,
// all text) and the lean one (layout "columns", number columns in a side buffer, as the wasm module's callColumns
// returns them). Then ragged batches of 1,024, 8,192 and 16,384 distinct requests. Every figure is printed with its
// ratio to the core's own time, so a regression shows on any machine.
// Times are CPU time of this process (std::clock), the core and its calls timed in turns and each one's best of ten
// rounds kept (bench_common.hpp, best_of_rounds): on a loaded machine the ratios then compare like with like.
// Usage: infercast_bench [iterations]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analysis.hpp"
#include "api/api.hpp"
#include "api/request.hpp"
#include "bench_common.hpp"
#include "io/presets.hpp"

using namespace infercast;

namespace {

// Ragged requests: n (cached, input) pairs spread over [0, max_ctx) and [1, 512], each once.
std::vector<Request> ragged_requests(int n, int max_ctx) {
  std::vector<Request> out;
  std::uint64_t s = 12345;
  for (int i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    out.push_back(Request{static_cast<long long>((s >> 33) % static_cast<std::uint64_t>(max_ctx)),
                          1 + static_cast<long long>((s >> 13) % 512), 1});
  }
  return out;
}

// The analyze request of the first n of those, each its own entry.
std::string ragged_request(const char* model, int n, int gen, int max_ctx) {
  std::string req = std::string(R"({"model":")") + model + R"(","hardware":"nvidia-h100-sxm","workload":{"gen":)" +
                    std::to_string(gen) + R"(,"requests":[)";
  const std::vector<Request> rs = ragged_requests(n, max_ctx);
  for (std::size_t i = 0; i < rs.size(); ++i)
    req += (i ? "," : "") + std::string(R"({"cached":)") + std::to_string(rs[i].cached) + R"(,"input":)" +
           std::to_string(rs[i].input) + "}";
  return req + "]}}";
}

}  // namespace

int main(int argc, char** argv) {
  const int iters = argc > 1 ? std::atoi(argv[1]) : 2000;
  call("analyze", R"({"model":"llama-3.1-8b","hardware":"nvidia-h100-sxm"})");  // presets read once, not timed
  std::printf("One analysis (batch 8, prompt 2048, 32k generated), per call, CPU time\n");
  std::printf("%-16s %12s %14s %8s %14s %8s\n", "model", "core (us)", "JSON call (us)", "ratio", "lean call (us)", "ratio");
  // The four models on an H100 in their published formats, and the page's first question (a llama.cpp file type
  // on a desktop GPU: the call also plans the file's tensors, for the weights and for the result's tensor table).
  const std::pair<const char*, const char*> cases[] = {
      {"llama-3.1-8b", R"("model":"llama-3.1-8b","hardware":"nvidia-h100-sxm")"},
      {"gemma-2-9b", R"("model":"gemma-2-9b","hardware":"nvidia-h100-sxm")"},
      {"llama-4-scout", R"("model":"llama-4-scout","hardware":"nvidia-h100-sxm")"},
      {"deepseek-v3", R"("model":"deepseek-v3","hardware":"nvidia-h100-sxm")"},
      {"8b q4_k_m 4090", R"("model":"llama-3.1-8b","hardware":"nvidia-rtx-4090","precision":{"weights":"q4_k_m"})"}};
  for (const auto& [id, what] : cases) {
    const std::string req = std::string("{") + what + R"(,"workload":{"batch":8,"prompt":2048,"gen":32768}})";
    // The core's own time: the analysis of the workload the call reads (its runtime, its settings).
    const json parsed = json::parse(req);
    Reader r(parsed, "", "request");
    Inputs in;
    read_inputs(r, in);
    const Workload w = read_workload(r, in.rm.spec, in.sc, in.hw, in.rt);
    const ModelSpec& m = in.rm.spec;
    double sink = 0;
    const std::string lean_req = req.substr(0, req.size() - 1) + R"(,"layout":"columns"})";
    std::vector<double> columns;
    const auto [core, text, lean] = best_of_rounds(
        10, iters / 10 + 1, [&] { sink += analyze(m, w, in.hw).tpot_mean_s; },
        [&] { sink += static_cast<double>(call("analyze", req).size()); },
        [&] { sink += static_cast<double>(call_columns("analyze", lean_req, columns).size()); });
    std::printf("%-16s %12.1f %14.1f %7.2fx %14.1f %7.2fx%s\n", id, core * 1e6, text * 1e6, text / core, lean * 1e6, lean / core,
                sink > 0 ? "" : " ");
  }

  // Ragged batches: the decode is cut at every request's window and chunk boundaries; the work should grow with
  // the distinct requests and their boundaries, not with requests x intervals. The core is given the requests
  // directly (the settings read from a one-entry request); the JSON call is timed where the call accepts it
  // (docs/schema.md, "Limits": up to 65,536 entries) and marked "refused" where it does not.
  std::printf("\nRagged batches of distinct requests (H100), per call, CPU time\n");
  std::printf("%-16s %6s %8s %12s %14s %16s\n", "model", "gen", "requests", "core (ms)", "JSON call (ms)", "n / 1024 (core)");
  for (const auto& [id, gen, max_ctx] : {std::tuple{"gemma-2-9b", 128, 8192}, std::tuple{"llama-4-scout", 32768, 16384}}) {
    double base = 0;
    const json parsed = json::parse(ragged_request(id, 1, gen, max_ctx));
    Reader r(parsed, "", "request");
    Inputs in;
    read_inputs(r, in);
    Workload w = read_workload(r, in.rm.spec, in.sc, in.hw, in.rt);
    const ModelSpec& m = in.rm.spec;
    for (int n : {1024, 8192, 16384}) {
      w.requests = ragged_requests(n, max_ctx);
      const int reps = n > 4096 ? 3 : 10;
      double sink = 0;
      const double core = per_call_s(reps, [&] { sink += analyze(m, w, in.hw).tpot_mean_s; });
      if (n == 1024) base = core;
      const std::string req = ragged_request(id, n, gen, max_ctx);
      char json_ms[32] = "refused";
      if (call("analyze", req).rfind(R"({"ok":true)", 0) == 0) {
        const double json = per_call_s(reps, [&] { sink += static_cast<double>(call("analyze", req).size()); });
        std::snprintf(json_ms, sizeof json_ms, "%.2f", json * 1e3);
      }
      std::printf("%-16s %6d %8d %12.2f %14s %15.2fx%s\n", id, gen, n, core * 1e3, json_ms, core / base, sink > 0 ? "" : " ");
    }
  }
  return 0;
}
