// libFuzzer harnesses over every JSON entry point of core/api. One source, four targets selected at compile
// time (INFERCAST_FUZZ_TARGET): the bytes are
//   analyze:  a whole analyze request
//   model:    a config.json, analyzed on an H100 ({"model": <bytes>, "hardware": ...})
//   hardware: a hardware document, analyzed with a small model ({"model": ..., "hardware": <bytes>})
//   validate: a CSV of measurements
//   files:    file bytes: a GGUF header, and a safetensors header whose rows then go to "checkpoint"
// Each call must return an envelope that parses, with ok a boolean; a successful analysis must hold no NaN or
// infinity anywhere; a failed one must carry a code other than "internal". A crash, a sanitizer report, a hang (-timeout) or a failed check is a finding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "api/api.hpp"
#include "io/json_reader.hpp"

using infercast::json;

namespace {

void check_finite(const json& j) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) std::abort();
  if (j.is_structured())
    for (const auto& v : j) check_finite(v);
}

json check_envelope(const std::string& out);

void run(const std::string& fn, const std::string& request) { check_envelope(infercast::call(fn, request)); }

json check_envelope(const std::string& out) {
  const json env = json::parse(out, nullptr, /*allow_exceptions=*/false);
  if (env.is_discarded() || !env.is_object() || !env.contains("ok") || !env["ok"].is_boolean()) std::abort();
  if (env["ok"].get<bool>()) {
    check_finite(env["value"]);
  } else {
    const auto& e = env["error"];
    if (!e["message"].is_string() || e["message"].get<std::string>().empty()) std::abort();
    // An error the core did not anticipate (a library exception caught by the envelope) is a finding: the user
    // gets "internal error" instead of a message naming the field.
    if (!e["code"].is_string() || e["code"].get<std::string>() == "internal") std::abort();
  }
  return env;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  const std::string in(reinterpret_cast<const char*>(data), size);
#if INFERCAST_FUZZ_TARGET == 0
  run("analyze", in);
#elif INFERCAST_FUZZ_TARGET == 1
  run("analyze", R"({"hardware": "nvidia-h100-sxm", "workload": {"batch": 4, "prompt": 4096, "gen": 4096}, "model": )" + in + "}");
#elif INFERCAST_FUZZ_TARGET == 2
  run("analyze", R"({"model": "llama-3.2-1b", "workload": {"batch": 2, "prompt": 1024, "gen": 1024}, "hardware": )" + in + "}");
#elif INFERCAST_FUZZ_TARGET == 4
  check_envelope(infercast::call_bytes("gguf", in));
  std::string st = in;
  if (st.size() >= 8) {  // the length field made to fit, so the JSON behind it is what gets fuzzed
    const std::uint64_t n = st.size() - 8;
    for (int i = 0; i < 8; ++i) st[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  }
  const json h = check_envelope(infercast::call_bytes("safetensors", st));
  if (h["ok"].get<bool>()) {
    run("checkpoint", json({{"tensors", h["value"]["tensors"]}}).dump(-1, ' ', false, json::error_handler_t::replace));
    run("checkpoint", json({{"tensors", h["value"]["tensors"]}, {"model", "llama-3.2-1b"}}).dump(-1, ' ', false, json::error_handler_t::replace));
  }
#else
  run("validate", json({{"csv", in}}).dump(-1, ' ', false, json::error_handler_t::replace));
#endif
  return 0;
}
