// The call registry: every function of the API listed once, with a line of help. `call` and `call_bytes` look
// functions up here; the unknown-function message and the `functions` call are generated from the same table.
#include "api/api.hpp"

#include <cmath>
#include <new>
#include <string_view>
#include <vector>

#include "api/envelope.hpp"
#include "api/operations.hpp"
#include "util/limits.hpp"

namespace infercast {

namespace {

struct Function {
  const char* name;
  json (*json_call)(const json&);            // a JSON request, its value as a tree
  json (*bytes_call)(const std::string&);    // a file's bytes
  const char* help;
  void (*write_call)(const json&, JsonWriter&) = nullptr;  // a JSON request, its value written straight out
  // A search's request read and its up-front limits checked, nothing run (Run::check): the `check` call's
  void (*check_call)(const json&) = nullptr;
};

json api_functions(const json& request);
json api_check(const json& request);

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
      {"analyze", nullptr, nullptr, "operators, memory, TTFT, TPOT, costs; plans over several devices", api_analyze},
      {"batching", [](const json& r) { return api_batching(r); }, nullptr, "throughput against latency as the batch grows",
       nullptr, [](const json& r) { api_batching(r, Run::check); }},
      {"serving", [](const json& r) { return api_serving(r); }, nullptr,
       "continuous batching at a concurrency or request rate: TTFT, TPOT, e2e percentiles, throughput", nullptr,
       [](const json& r) { api_serving(r, Run::check); }},
      {"deploy", [](const json& r) { return api_deploy(r); }, nullptr,
       "every deployment on N devices: the Pareto front and the best under a TTFT/TPOT SLA", nullptr,
       [](const json& r) { api_deploy(r, Run::check); }},
      {"quant_sweep", [](const json& r) { return api_quant_sweep(r); }, nullptr, "every weight format x KV format", nullptr,
       [](const json& r) { api_quant_sweep(r, Run::check); }},
      {"sweep", nullptr, nullptr, "a hardware design space and its Pareto front",
       [](const json& r, JsonWriter& w) { api_sweep(r, w); },
       [](const json& r) {
         std::string text;
         JsonWriter w(text);
         api_sweep(r, w, Run::check);
       }},
      {"dse_device", api_dse_device, nullptr, "a design point as a hardware document"},
      {"tc_tm_map", [](const json& r) { return api_tc_tm_map(r); }, nullptr, "LIFE's t_c/t_m map over compute and bandwidth",
       nullptr, [](const json& r) { api_tc_tm_map(r, Run::check); }},
      {"validate", [](const json& r) { return api_validate(r); }, nullptr, "forecasts against public measurements", nullptr,
       [](const json& r) { api_validate(r, Run::check); }},
      {"calibrate", [](const json& r) { return api_calibrate(r); }, nullptr, "a device's efficiencies fitted to measured points",
       nullptr, [](const json& r) { api_calibrate(r, Run::check); }},
      {"check", api_check, nullptr,
       "a search call's request read and its up-front limits checked, nothing run: the errors it would give before starting"},
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
  for (const auto& f : functions())
    a.push_back({{"name", f.name}, {"input", f.bytes_call ? "bytes" : "json"}, {"checkable", f.check_call != nullptr}, {"help", f.help}});
  return a;
}

// "a, b or c" over a list of names.
std::string name_list(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return s;
}

// {"function": a search's name, "request": its request}: the request read as that call reads it, every limit known
// before anything is timed checked, and nothing run (docs/schema.md, "check"). An error is the one the call itself
// would give, its path within the named call's request.
json api_check(const json& request) {
  Reader r(request, "", "request");
  const std::string fn = r.string("function");
  const json* inner = r.raw("request");
  r.reject_unknown();
  std::vector<std::string> searches;
  const Function* found = nullptr;
  for (const auto& f : functions())
    if (f.check_call) {
      searches.push_back(f.name);
      if (fn == f.name) found = &f;
    }
  if (!found)
    r.fail("function", "out_of_range",
           "/function holds " + quote_text(fn) + "; expected a call that searches or simulates: " + name_list(searches));
  found->check_call(inner ? *inner : json::object());
  return {{"function", fn}, {"checked", true}};
}

// "a, b or c" over the functions that take this kind of input.
std::string names_of(bool bytes) {
  std::vector<std::string> names;
  for (const auto& f : functions())
    if ((f.bytes_call != nullptr) == bytes) names.push_back(f.name);
  return name_list(names);
}

const Function& find_function(const std::string& fn, bool bytes) {
  for (const auto& f : functions())
    if (fn == f.name && (f.bytes_call != nullptr) == bytes) return f;
  throw InputError("api.unknown_function", "",
                   "unknown function " + quote_text(fn) + (bytes ? " for file bytes" : "") + "; expected " + names_of(bytes));
}

void append_number_text(std::string& out) { JsonWriter(out).value(kSchemaVersion); }

// The error half of an envelope, after "value": was taken back: "ok" becomes false.
void error_body(std::string& out, const std::string& code, const std::string& path, const std::string& message) {
  out.clear();
  JsonWriter w(out);
  w.begin_object().field("ok", false).field("schema_version", kSchemaVersion).key("error").begin_object();
  w.field("code", code).field("path", path).field("message", bounded_message(message)).end_object();
  w.field("version", kVersion).end_object();
}

// A result object carries the schema version and the project's version at its top; a document that has its own
// schema_version (a hardware document from `device` or `dse_device`, read back as it is) and the catalog lists
// (arrays) carry them in the envelope only. (Results written straight out write them first themselves.)
json versioned(json value) {
  if (value.is_object() && !value.contains("schema_version")) {
    value["schema_version"] = kSchemaVersion;
    value["version"] = kVersion;
  }
  return value;
}

// The envelope around one call, written as text: {"ok": true, "schema_version", "value", "version"} or, when the
// call raised, {"ok": false, "schema_version", "error": {"code", "path", "message"}, "version"}. A value written
// before an error is dropped. With a side buffer, "columns" lists where each column of it belongs. Every number of
// a value is checked as it is written (the text would show NaN and infinity as null): a result that holds one is
// refused, naming where.
template <typename F>
void envelope(std::string& out, std::vector<double>* side, F body) {
  out.clear();
  out.reserve(1 << 15);
  out += "{\"ok\":true,\"schema_version\":";
  append_number_text(out);
  out += ",\"value\":";
  const std::size_t start = out.size();
  JsonWriter w(out, side);
  const auto fail = [&](const std::string& code, const std::string& message) {
    if (side) side->clear();
    error_body(out, code, "", message);
  };
  try {
    body(w);
    const auto& bad = w.non_finite();
    if (bad.found) {
      const std::string where =
          pointer_at(std::string_view(out).substr(start), bad.offset - start) + bad.inner;
      fail("result.not_finite", "the result's " + where + " came out as " + (bad.nan ? "NaN" : "infinity") +
                                    ": an input is too extreme for this calculation; expected inputs that give finite "
                                    "numbers (check the device's peaks, bandwidths and capacities and the workload's sizes)");
      return;
    }
  } catch (const InputError& e) {
    if (side) side->clear();
    error_body(out, e.code(), e.path(), e.what());
    return;
  } catch (const std::bad_alloc&) {
    out.clear();
    out.shrink_to_fit();  // what was written so far, given back before the message is written
    fail("resources.out_of_memory",
         "the input needs more memory than is available here; expected inputs within the limits (the `limits` call "
         "lists them)");
    return;
  } catch (const std::exception& e) {
    fail("internal", std::string("internal error: ") + e.what());
    return;
  }
  if (side) {
    out += ",\"columns\":[";
    constexpr std::string_view kValue = "/value";
    std::string pointer(kValue);  // one buffer for every entry's pointer
    for (std::size_t i = 0; i < w.columns().size(); ++i) {
      const auto& c = w.columns()[i];
      JsonWriter cw(out);
      if (i) out += ',';
      pointer.resize(kValue.size());
      pointer += w.pointer(c);
      cw.begin_array().value(pointer).value(c.offset).value(c.length);
      if (c.strings) cw.value("strings");
      cw.end_array();
    }
    out += ']';
  }
  out += ",\"version\":";
  JsonWriter(out).value(kVersion);
  out += '}';
}

std::string call_text(const std::string& fn, const std::string& request_json, std::vector<double>* side) {
  std::string out;
  envelope(out, side, [&](JsonWriter& w) {
    const Function& f = find_function(fn, false);
    const json req = request_json.empty() ? json::object() : parse_json_text(request_json, "the request", "request");
    if (f.write_call) f.write_call(req, w);
    else w.value(versioned(f.json_call(req)));
  });
  return out;
}

}  // namespace

std::string call(const std::string& fn, const std::string& request_json) { return call_text(fn, request_json, nullptr); }

std::string call_columns(const std::string& fn, const std::string& request_json, std::vector<double>& columns) {
  columns.clear();
  return call_text(fn, request_json, &columns);
}

std::string call_bytes(const std::string& fn, const std::string& bytes) {
  std::string out;
  envelope(out, nullptr, [&](JsonWriter& w) { w.value(versioned(find_function(fn, true).bytes_call(bytes))); });
  return out;
}

json call_json(const std::string& fn, const std::string& request_json) { return json::parse(call(fn, request_json)); }

json call_bytes_json(const std::string& fn, const std::string& bytes) { return json::parse(call_bytes(fn, bytes)); }

}  // namespace infercast
