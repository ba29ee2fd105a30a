// The call registry: every function of the API listed once, with a line of help. `call` and `call_bytes` look
// functions up here; the unknown-function message and the `functions` call are generated from the same table.
#include "api/api.hpp"

#include <cmath>
#include <new>
#include <vector>

#include "api/envelope.hpp"
#include "api/operations.hpp"
#include "util/limits.hpp"

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
      {"limits", api_limits, nullptr, "the limits on inputs: sizes, depth, counts (docs/schema.md)"},
      {"options", api_options, nullptr, "every request field: range, default, choices"},
      {"models", api_models, nullptr, "model presets"},
      {"families", api_families, nullptr, "model families a config.json may name, with transformers' defaults"},
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
      {"serving", api_serving, nullptr, "continuous batching at a concurrency or request rate: TTFT, TPOT, e2e percentiles, throughput"},
      {"deploy", api_deploy, nullptr, "every deployment on N devices: the Pareto front and the best under a TTFT/TPOT SLA"},
      {"quant_sweep", api_quant_sweep, nullptr, "every weight format x KV format"},
      {"sweep", api_sweep, nullptr, "a hardware design space and its Pareto front"},
      {"dse_device", api_dse_device, nullptr, "a design point as a hardware document"},
      {"tc_tm_map", api_tc_tm_map, nullptr, "LIFE's t_c/t_m map over compute and bandwidth"},
      {"validate", api_validate, nullptr, "forecasts against public measurements"},
      {"calibrate", api_calibrate, nullptr, "a device's efficiencies fitted to measured points"},
      {"checkpoint", api_checkpoint, nullptr, "a safetensors checkpoint's tensors read into counts and formats"},
      {"gguf", nullptr, api_gguf, "a GGUF header (bytes): config, parameters and formats"},
      {"config_text", nullptr, api_config_text, "a config.json's text (bytes), NaN and Infinity as Python writes them: the config, checked"},
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
                   "unknown function " + quote_text(fn) + (bytes ? " for file bytes" : "") + "; expected " + names_of(bytes));
}

// Where in `v` a number is NaN or infinite, as a JSON pointer ("" when every number is finite). Results are our own
// shallow documents (user JSON echoed in them is at most limit::kJsonDepth deep), so recursion is bounded.
bool non_finite_at(const json& v, std::string& where) {
  if (v.is_number_float()) return !std::isfinite(v.get<double>());
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      if (non_finite_at(it.value(), where)) {
        where = "/" + pointer_escape(it.key()) + where;
        return true;
      }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      if (non_finite_at(v[i], where)) {
        where = "/" + std::to_string(i) + where;
        return true;
      }
  }
  return false;
}

json error_json(const std::string& code, const std::string& path, const std::string& message) {
  return {{"ok", false}, {"error", {{"code", code}, {"path", path}, {"message", bounded_message(message)}}}};
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

// The envelope around one call: its value, or the error it raised, with the schema and project versions. Every
// number of a value is checked here, before it is written (the writer would show NaN and infinity as null): a result
// that holds one is refused, naming where.
template <typename F>
json envelope_of(F body) {
  json envelope;
  try {
    json value = body();
    std::string where;
    if (non_finite_at(value, where))
      envelope = error_json("result.not_finite", "",
                            "the result's " + where + " came out as " +
                                (std::isnan(value.at(json::json_pointer(where)).get<double>()) ? "NaN" : "infinity") +
                                ": an input is too extreme for this calculation; expected inputs that give finite numbers "
                                "(check the device's peaks, bandwidths and capacities and the workload's sizes)");
    else
      envelope = json::object({{"ok", true}}), envelope["value"] = versioned(std::move(value));
  } catch (const InputError& e) {
    envelope = error_json(e.code(), e.path(), e.what());
  } catch (const std::bad_alloc&) {
    envelope = error_json("resources.out_of_memory", "",
                          "the input needs more memory than is available here; expected inputs within the limits "
                          "(the `limits` call lists them)");
  } catch (const std::exception& e) {
    envelope = error_json("internal", "", std::string("internal error: ") + e.what());
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
