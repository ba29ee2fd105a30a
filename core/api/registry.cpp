// The call registry: every function of the API listed once, with a line of help. `call` and `call_bytes` look
// functions up here; the unknown-function message and the `functions` call are generated from the same table.
#include "api/api.hpp"

#include <vector>

#include "api/envelope.hpp"
#include "api/operations.hpp"

namespace infercast {

namespace {

struct Function {
  const char* name;
  json (*json_call)(const json&);            // a JSON request
  json (*bytes_call)(const std::string&);    // a file's bytes
  const char* help;
};

json api_functions(const json& request);

const std::vector<Function>& functions() {
  static const std::vector<Function> table = {
      {"version", api_version, nullptr, "the core's version"},
      {"functions", api_functions, nullptr, "this list"},
      {"options", api_options, nullptr, "every request field: range, default, choices"},
      {"models", api_models, nullptr, "model presets"},
      {"hardware", api_hardware, nullptr, "hardware presets"},
      {"systems", api_systems, nullptr, "multi-device system presets"},
      {"runtimes", api_runtimes, nullptr, "runtime presets: launches, fusion, kernels, efficiencies"},
      {"conventions", api_conventions, nullptr, "counting conventions"},
      {"dtypes", api_dtypes, nullptr, "weight, activation and KV formats"},
      {"scenarios", api_scenarios, nullptr, "built-in scenarios (LIFE's Table 3 variants)"},
      {"regions", api_regions, nullptr, "grid regions and their CO2 per kWh"},
      {"architectures", api_architectures, nullptr, "compute rates per clock per unit of every architecture generation"},
      {"derive_peaks", api_derive_peaks, nullptr, "a device's dense peaks derived from its architecture"},
      {"model", api_model, nullptr, "a model's exact parameters and layer groups"},
      {"device", api_device, nullptr, "a hardware document checked and read back"},
      {"analyze", api_analyze, nullptr, "operators, memory, TTFT, TPOT, costs; plans over several devices"},
      {"batching", api_batching, nullptr, "throughput against latency as the batch grows"},
      {"quant_sweep", api_quant_sweep, nullptr, "every weight format x KV format"},
      {"sweep", api_sweep, nullptr, "a hardware design space and its Pareto front"},
      {"dse_device", api_dse_device, nullptr, "a design point as a hardware document"},
      {"tc_tm_map", api_tc_tm_map, nullptr, "LIFE's t_c/t_m map over compute and bandwidth"},
      {"validate", api_validate, nullptr, "forecasts against public measurements"},
      {"calibrate", api_calibrate, nullptr, "a device's efficiencies fitted to measured points"},
      {"checkpoint", api_checkpoint, nullptr, "a safetensors checkpoint's tensors read into counts and formats"},
      {"gguf", nullptr, api_gguf, "a GGUF header (bytes): config, parameters and formats"},
      {"safetensors", nullptr, api_safetensors, "a .safetensors header (bytes): its tensor table"},
      {"safetensors_size", nullptr, api_safetensors_size, "the first 8 bytes of a .safetensors file: its header's length"},
  };
  return table;
}

json api_functions(const json& request) {
  Reader(request, "", "request").reject_unknown();
  json a = json::array();
  for (const auto& f : functions()) a.push_back({{"name", f.name}, {"input", f.json_call ? "json" : "bytes"}, {"help", f.help}});
  return a;
}

// "a, b or c" over the functions that take this kind of input.
std::string names_of(bool bytes) {
  std::vector<std::string> names;
  for (const auto& f : functions())
    if ((f.bytes_call != nullptr) == bytes) names.push_back(f.name);
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return s;
}

const Function& find_function(const std::string& fn, bool bytes) {
  for (const auto& f : functions())
    if (fn == f.name && (f.bytes_call != nullptr) == bytes) return f;
  throw InputError("api.unknown_function", "",
                   "unknown function \"" + fn + "\"" + (bytes ? " for file bytes" : "") + "; expected " + names_of(bytes));
}

// A result object carries the schema version and the project's version at its top; a document that has its own
// schema_version (a hardware document from `device` or `dse_device`, read back as it is) and the catalog lists
// (arrays) carry them in the envelope only.
json versioned(json value) {
  if (value.is_object() && !value.contains("schema_version")) {
    value["schema_version"] = kSchemaVersion;
    value["version"] = kVersion;
  }
  return value;
}

// The envelope around one call: its value, or the error it raised, with the schema and project versions.
template <typename F>
json envelope_of(F body) {
  json envelope;
  try {
    envelope = {{"ok", true}, {"value", versioned(body())}};
  } catch (const InputError& e) {
    envelope = {{"ok", false}, {"error", {{"code", e.code()}, {"path", e.path()}, {"message", e.what()}}}};
  } catch (const std::exception& e) {
    envelope = {{"ok", false}, {"error", {{"code", "internal"}, {"path", ""}, {"message", std::string("internal error: ") + e.what()}}}};
  }
  envelope["schema_version"] = kSchemaVersion;
  envelope["version"] = kVersion;
  return envelope;
}

std::string text(const json& envelope) { return envelope.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

json call_json(const std::string& fn, const std::string& request_json) {
  return envelope_of([&]() -> json {
    const Function& f = find_function(fn, false);
    const json req = request_json.empty() ? json::object() : parse_json_text(request_json, "the request", "request");
    return f.json_call(req);
  });
}

json call_bytes_json(const std::string& fn, const std::string& bytes) {
  return envelope_of([&]() -> json { return find_function(fn, true).bytes_call(bytes); });
}

std::string call(const std::string& fn, const std::string& request_json) { return text(call_json(fn, request_json)); }

std::string call_bytes(const std::string& fn, const std::string& bytes) { return text(call_bytes_json(fn, bytes)); }

}  // namespace infercast
