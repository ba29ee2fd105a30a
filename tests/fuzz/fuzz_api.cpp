// libFuzzer harnesses over the JSON entry points of core/api. One source compiled once (the harness library); each
// target's entry point calls fuzz::api_one with its selector (tests/fuzz/CMakeLists.txt); the bytes are
//   analyze:  a whole analyze request
//   model:    a config.json, analyzed on an H100 ({"model": <bytes>, "hardware": ...}), and read as a file's text
//             (config_text: NaN and Infinity as Python writes them)
//   hardware: a hardware document, analyzed with a small model ({"model": ..., "hardware": <bytes>})
//   system:   a system document, analyzed as a plan ({"system": <bytes>, "parallel": {"tp": 2}, ...})
//   validate: a CSV of measurements, checked as `validate` reads it (`check`: every record read, mapped to a
//             model, a device and a runtime, its work checked; nothing forecast or fitted), so the target runs at
//             reading speed; whole validations are the `searches` target's
//   calls:    any JSON call of the registry but the searches below: the first line names the function
//             (`functions` lists them), the rest is its request. Each input is one result (a catalog, a model,
//             a device, one analysis), so the target runs at parser speed and its 10 million executions fit in
//             hours (docs/testing.md, "The long fuzz campaign")
//   searches: the calls whose work grows with the request up to its documented budget (a serving simulation, a
//             deployment search, a sweep, a validation over rows, a fit, a batching curve, a format grid, a
//             t_c/t_m map), named the same way; seeds at their limits, fuzzed for a time rather than a count
//   checks:   the same inputs through `check` (each search's request read and its up-front limits checked, nothing
//             run), at reading speed; a request the check refuses must be refused by the call itself with the same
//             envelope (the call reads its request the same way before its work starts)
// Every envelope is checked as fuzz_common.hpp says (NaN and null aware, no internal errors).
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "fuzz_targets.hpp"

namespace fuzz {

namespace {

// The registry's calls that run a search or a simulation (docs/schema.md, "Limits": their work is bounded by
// budgets, not by the request's size), as the `functions` call marks them (`checkable`): the `searches` and
// `checks` targets'; every other call is the `calls` target's.
bool is_search(const std::string& fn) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    const fuzz::json fns = fuzz::call("functions", "{}");
    for (const auto& f : fns["value"])
      if (f["checkable"].get<bool>()) v.push_back(f["name"].get<std::string>());
    return v;
  }();
  return std::find(names.begin(), names.end(), fn) != names.end();
}

// `check` on a search's request; when it refuses the request, the call itself must give the same envelope.
void check_search(const std::string& fn, const std::string& request) {
  const std::string wrapped = "{\"function\": " + fuzz::text(fn) + ", \"request\": " + request + "\n}";
  const fuzz::json c = fuzz::call("check", wrapped);
  // Compared when the request is one JSON value (else the wrapper's text is another text) and the refusal names a
  // field (one without a path may be the wrapper's own: one level deeper than the request, it can pass the depth limit).
  if (c["ok"].get<bool>() || c["error"]["path"] == "" || !fuzz::json::accept(request)) return;
  if (fuzz::call(fn, request) != c) std::abort();
}

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
    fuzz::call("check", fuzz::text({{"function", "validate"}, {"request", {{"csv", in}}}}));
    break;
  case ApiTarget::calls:
  case ApiTarget::searches:
  case ApiTarget::checks: {
    const auto nl = in.find('\n');
    if (nl == std::string::npos) return 0;
    const std::string fn = in.substr(0, nl);
    if (is_search(fn) != (target != ApiTarget::calls)) return 0;
    if (target == ApiTarget::checks) check_search(fn, in.substr(nl + 1));
    else fuzz::call(fn, in.substr(nl + 1));
    break;
  }
  }
  return 0;
}

}  // namespace fuzz
