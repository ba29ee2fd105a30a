// libFuzzer harnesses over the JSON entry points of core/api. One source compiled once (the harness library); each
// target's entry point calls fuzz::api_one with its selector (tests/fuzz/CMakeLists.txt); the bytes are
//   analyze:  a whole analyze request
//   model:    a config.json, analyzed on an H100 ({"model": <bytes>, "hardware": ...}), and read as a file's text
//             (config_text: NaN and Infinity as Python writes them)
//   hardware: a hardware document, analyzed with a small model ({"model": ..., "hardware": <bytes>})
//   system:   a system document, analyzed as a plan ({"system": <bytes>, "parallel": {"tp": 2}, ...})
//   validate: a CSV of measurements
//   calls:    any JSON call of the registry but the searches below: the first line names the function
//             (`functions` lists them), the rest is its request. Each input is one result (a catalog, a model,
//             a device, one analysis), so the target runs at parser speed and its 10 million executions fit in
//             hours (docs/testing.md, "The long fuzz campaign")
//   searches: the calls whose work grows with the request up to its documented budget (a serving simulation, a
//             deployment search, a sweep, a validation over rows, a fit, a batching curve, a format grid, a
//             t_c/t_m map), named the same way; seeds at their limits, fuzzed for a time rather than a count
// Every envelope is checked as fuzz_common.hpp says (NaN and null aware, no internal errors).
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "fuzz_targets.hpp"

namespace fuzz {

namespace {

// The registry's calls that run a search or a simulation (docs/schema.md, "Limits": their work is bounded by
// budgets, not by the request's size): the `searches` target's; every other call is the `calls` target's.
constexpr std::string_view kSearches[] = {"batching", "serving", "deploy", "quant_sweep", "sweep", "tc_tm_map", "validate", "calibrate"};

bool is_search(std::string_view fn) { return std::find(std::begin(kSearches), std::end(kSearches), fn) != std::end(kSearches); }

}  // namespace

int api_one(ApiTarget target, const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  const std::string in(reinterpret_cast<const char*>(data), size);
  switch (target) {
  case ApiTarget::analyze:
    fuzz::call("analyze", in);
    break;
  case ApiTarget::model: {
    fuzz::call("analyze", R"({"hardware": "nvidia-h100-sxm", "workload": {"batch": 4, "prompt": 4096, "gen": 4096}, "model": )" + in + "}");
    // The same bytes as a config file's text (NaN and Infinity as Python writes them), then the config it returns.
    const fuzz::json c = fuzz::call_bytes("config_text", in);
    if (c["ok"].get<bool>())
      fuzz::call("analyze", fuzz::text({{"model", c["value"]["config"]}, {"hardware", "nvidia-h100-sxm"}}));
    break;
  }
  case ApiTarget::hardware:
    fuzz::call("analyze", R"({"model": "llama-3.2-1b", "workload": {"batch": 2, "prompt": 1024, "gen": 1024}, "hardware": )" + in + "}");
    fuzz::call("device", R"({"hardware": )" + in + "}");
    break;
  case ApiTarget::system:
    fuzz::call("analyze", R"({"model": "llama-3.1-8b", "hardware": "nvidia-h100-sxm", "parallel": {"tp": 2}, "system": )" + in + "}");
    fuzz::call("batching", R"({"model": "llama-3.2-1b", "hardware": "nvidia-rtx-4090", "parallel": {"pp": 2}, "system": )" + in + "}");
    break;
  case ApiTarget::validate:
    fuzz::call("validate", fuzz::text({{"csv", in}}));
    break;
  case ApiTarget::calls:
  case ApiTarget::searches: {
    const auto nl = in.find('\n');
    if (nl == std::string::npos) return 0;
    const std::string fn = in.substr(0, nl);
    if (is_search(fn) != (target == ApiTarget::searches)) return 0;
    fuzz::call(fn, in.substr(nl + 1));
    break;
  }
  }
  return 0;
}

}  // namespace fuzz
