// The lists (models, hardware, systems, runtimes, scenarios), a checkpoint's headers, and a raw API call.
#include <iostream>
#include <sstream>

#include "api/api.hpp"
#include "cli/checkpoint.hpp"
#include "cli/command.hpp"
#include "cli/files.hpp"
#include "cli/output.hpp"
#include "util/limits.hpp"

namespace infercast::cli {

namespace {

int list(const std::string& fn, const std::string& fmt) {
  const json v = unwrap(call(fn, "{}"));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  std::vector<std::vector<std::string>> rows;
  if (fn == "systems") {
    rows.push_back({"id", "name", "device", "devices", "intra-node GB/s", "inter-node GB/s"});
    for (const auto& sy : v)
      rows.push_back({sy["id"], sy["name"], sy["device"], std::to_string(sy["devices"].get<int>()),
                      num3(sy["intra"]["bandwidth_GBps"].get<double>()), sy["nodes"].get<int>() > 1 ? num3(sy["inter"]["bandwidth_GBps"].get<double>()) : "-"});
  } else if (fn == "runtimes") {
    rows.push_back({"id", "name", "backends", "launch", "kernel gap us", "step overhead us", "fusion"});
    for (const auto& rt : v) {
      std::string backends, fused;
      for (const auto& b : rt["backends"]) backends += (backends.empty() ? "" : ",") + b.get<std::string>();
      for (const auto& [k, on] : rt["fusion"].items())
        if (on.is_boolean() && on.get<bool>()) fused += (fused.empty() ? "" : ",") + k;
      const auto& l = rt["launch"];
      rows.push_back({rt["id"], rt["name"], backends.empty() ? "-" : backends, l["mode"],
                      l["kernel_gap_us"].is_null() ? "class" : num3(l["kernel_gap_us"].get<double>()),
                      num3(l["step_overhead_us"].get<double>()), fused.empty() ? "-" : fused});
    }
  } else if (fn == "models") {
    rows.push_back({"id", "name", "type", "parameters", "active", "stated"});
    for (const auto& m : v)
      rows.push_back({m["id"], m["name"], m["model_type"], std::to_string(m["params_total"].get<long long>()),
                      std::to_string(m["params_active"].get<long long>()), m["stated_params_total"]});
  } else {
    rows.push_back({"id", "name", "class", "bf16 TFLOPS", "memory", "bandwidth", "default runtime"});
    for (const auto& h : v) {
      const auto& t = h["memory_tiers"][0];
      const auto& p = h["peak_dense_TFLOPS"];
      const std::string type = p.contains("bf16") ? "bf16" : p.contains("fp16") ? "fp16" : "";
      std::string peak = type.empty() ? "-" : p[type].dump() + (type == "fp16" ? " (fp16)" : "");
      if (!type.empty() && h.contains("peak_estimated"))
        for (const auto& e : h["peak_estimated"]["dtypes"])
          if (e == type) peak += " (estimated)";
      rows.push_back({h["id"], h["name"], h["class"], peak,
                      t["name"].get<std::string>() + " " +
                          (t.contains("capacity_GiB") ? t["capacity_GiB"].dump() + " GiB" : t["capacity_GB"].dump() + " GB"),
                      t["bandwidth_GBps"].dump() + " GB/s",
                      h["default_runtime"]});
    }
  }
  print_table(rows);
  return 0;
}

}  // namespace

int run_models(const Args&, const std::string& fmt) { return list("models", fmt); }
int run_hardware(const Args&, const std::string& fmt) { return list("hardware", fmt); }
int run_systems(const Args&, const std::string& fmt) { return list("systems", fmt); }
int run_runtimes(const Args&, const std::string& fmt) { return list("runtimes", fmt); }

int run_scenarios(const Args&, const std::string& fmt) {
  const json v = unwrap(call("scenarios", "{}"));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return 0;
  }
  std::vector<std::vector<std::string>> rows = {{"name", "weights", "activations", "kv", "attention", "mlp", "description"}};
  for (const auto& s : v) rows.push_back({s["name"], s["weights"], s["activations"], s["kv"], s["attention"], s["mlp"], s["description"]});
  print_table(rows);
  std::cout << "\nSource: " << v[0]["source"].get<std::string>() << ". Use one with analyze --scenario NAME; flags given too override it.\n";
  return 0;
}

int run_checkpoint(const Args& a, const std::string& fmt) {
  const std::string path = a.one_or("--model", "");
  if (path.empty()) die("--model is required; give a folder holding .safetensors files (and its config.json), or one of the files");
  const json v = read_checkpoint(path, safetensors_files(path));
  if (fmt == "json") {
    std::cout << v.dump(2) << "\n";
    return v["matches"].get<bool>() ? 0 : 1;  // as the table: exit 1 when the config disagrees with the shapes
  }
  report_checkpoint(v, std::cout);
  std::cout << "stored: " << bytes_str(v["tensor_bytes"].get<double>()) << " of tensors";
  for (const auto& t : v["types"]) std::cout << "; " << t["dtype"].get<std::string>() << " " << t["params"] << " elements in " << t["tensors"] << " tensors";
  std::cout << "\nweight formats by class: " << v["precision"]["by_class"].dump() << "\n";
  std::cout << "config: " << v["config"].dump() << "\n";
  return v["matches"].get<bool>() ? 0 : 1;
}

int run_call(const Args& a, const std::string&) {
  if (a.positional.empty()) die("call needs a function name, e.g. infercast call analyze --request request.json (infercast call functions lists them)");
  if (a.positional.size() > 1) die("unexpected argument \"" + a.positional[1] + "\"; call takes one function name");
  const std::string& fn = a.positional.front();
  const std::string src = a.one_or("--request", "-");
  // The functions that take a file's bytes (gguf, safetensors, config_text...): the file's head, as the page slices it
  // (a GGUF or safetensors header is at most 100 MB; the weights after it are never read).
  bool bytes = false;
  for (const auto& f : unwrap(call("functions", "")))
    bytes = bytes || (f["name"] == fn && f.value("input", "") == "bytes");
  std::string text;
  try {
    text = src == "-" ? read_stdin() : bytes ? read_file_prefix(src, limit::kSafetensorsHeaderBytes + 8) : read_text_file(src);
  } catch (const InputError& e) {
    die(std::string(e.what()) + " [" + e.code() + "]");
  }
  const std::string envelope = bytes ? call_bytes(fn, text) : call(fn, text);
  if (a.has("--envelope")) {
    // For tools: the envelope as the core wrote it, one line; the exit status still tells ok (0) from an error (2).
    std::cout << envelope << "\n";
    return json::parse(envelope)["ok"].get<bool>() ? 0 : 2;
  }
  std::cout << unwrap(envelope).dump(2) << "\n";
  return 0;
}

}  // namespace infercast::cli
