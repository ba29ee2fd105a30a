#include "validation/validation.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "analysis/analysis.hpp"
#include "analysis/work.hpp"
#include "io/fields.hpp"
#include "io/json_reader.hpp"
#include "io/defaults.hpp"
#include "io/presets.hpp"
#include "parallel/parallel.hpp"
#include "util/error.hpp"

namespace infercast {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}
bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// A numeric cell: empty is 0; anything else must be a finite number from 0 to 1e12 (counts are cast to
// integers, and a measured value is positive), or the whole file is refused naming the record and column.
// `tiny`: the smallest positive value allowed (a measured value: a forecast over a smaller one would pass a
// double's range); 0 stays allowed (no value).
double num(const CsvRecord& r, const std::string& k, std::size_t index, double hi = 1e12, double tiny = 0) {
  const auto it = r.find(k);
  if (it == r.end() || it->second.empty()) return 0;
  const std::string& cell = it->second;
  double d = 0;
  std::size_t used = 0;
  try {
    d = std::stod(cell, &used);
  } catch (...) {
    used = 0;  // not a number, or past a double's range (1e-310 included)
  }
  if (used == 0 || cell.find_first_not_of(" \t", used) != std::string::npos || !std::isfinite(d) || d < 0 || d > hi ||
      (d > 0 && d < tiny))
    throw InputError("csv.bad_number", "/csv",
                     "CSV record " + std::to_string(index + 1) + ": " + k + " holds " + quote_text(cell) + "; expected " +
                         (tiny > 0 ? "0 (none) or a number from 1e-9 to " : "a number from 0 to ") +
                         (hi == 1e12 ? std::string("1e12") : number_text(json(hi))));
  return d;
}
std::string get(const CsvRecord& r, const std::string& k) {
  const auto it = r.find(k);
  return it == r.end() ? "" : it->second;
}

// A name by its exact entry or its longest matching prefix in a presets/validation/names.json list; "" when none.
std::string lookup(const std::vector<ValidationNames::Name>& list, const std::string& name, bool fold_case) {
  const std::string key = fold_case ? lower(name) : name;
  std::string best;
  std::size_t best_len = 0;
  for (const auto& n : list) {
    if (!n.name.empty() && (fold_case ? lower(n.name) : n.name) == key) return n.id;
    const std::string p = fold_case ? lower(n.prefix) : n.prefix;
    if (n.name.empty() && starts_with(key, p) && (best.empty() || p.size() > best_len)) {
      best = n.id;
      best_len = p.size();
    }
  }
  return best;
}

// Device names as the measurement sources write them -> hardware presets (presets/validation/names.json).
std::string hardware_id(const std::string& name) {
  if (auto id = lookup(validation_names().hardware, name, false); !id.empty()) return id;
  // "Apple M2 Pro (16-core GPU)" -> apple-m2-pro-16c when that bin is a preset, else apple-m2-pro.
  if (starts_with(name, "Apple ")) {
    const auto paren = name.find(" (");
    std::string base = lower(name.substr(0, paren));
    std::replace(base.begin(), base.end(), ' ', '-');
    if (paren != std::string::npos) {
      const std::string cores = name.substr(paren + 2, name.find('-', paren) - paren - 2);
      if (find_hardware_preset(base + "-" + cores + "c")) return base + "-" + cores + "c";
    }
    if (find_hardware_preset(base)) return base;
  }
  return "";
}

std::string model_id(const std::string& name) { return lookup(validation_names().models, name, false); }

// The source's weight format -> our storage type; activations and KV follow the act/KV column.
bool formats(const std::string& weights, const std::string& act_kv, std::string& w, std::string& a, std::string& kv) {
  w = lookup(validation_names().weights, weights, true);
  if (w.empty()) return false;
  a = kv = lookup(validation_names().activations_kv, act_kv, true);
  return !a.empty();
}

// Multi-device rows: the node their devices sit in.
std::string system_id(const std::string& hardware) {
  for (const auto& [hw, sys] : validation_names().systems)
    if (hw == hardware) return sys;
  return "";
}

// "TP4" -> 4; 0 when the column says something else.
int tensor_parallel(const std::string& p) {
  if (!starts_with(p, "TP") || p.size() < 3) return 0;
  for (std::size_t i = 2; i < p.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(p[i]))) return 0;
  return std::stoi(p.substr(2));
}

double percentile(std::vector<double> v, double q) {  // nearest rank
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, k == 0 ? 0 : k - 1)];
}

}  // namespace

ValidationReport validate(const std::vector<CsvRecord>& records) {
  ValidationReport rep;
  if (records.empty()) throw InputError("csv.empty", "/csv", "CSV: no records after the header; expected one measurement per row");
  for (const char* col : {"model", "hardware", "metric", "value", "unit"})
    if (!records.front().count(col))
      throw InputError("csv.missing_column", "/csv",
                       std::string("CSV: the header has no \"") + col +
                           "\" column; expected model, hardware, metric, value and unit (see presets/validation/README.md)");
  std::map<std::string, ModelSpec> models;
  for (std::size_t index = 0; index < records.size(); ++index) {
    const CsvRecord& r = records[index];
    ValidationRow v;
    v.row_id = get(r, "row_id");
    v.source_id = get(r, "source_id");
    v.model = get(r, "model");
    v.hardware = get(r, "hardware");
    v.metric = get(r, "metric");
    v.unit = get(r, "unit");
    v.measured = num(r, "value", index, 1e12, 1e-9);
    // The workload's own ranges (io/fields.hpp): a batch of requests, tokens per request, devices of a plan.
    v.batch = std::max(1.0, num(r, "batch_size", index, static_cast<double>(kMaxBatch)));
    v.prompt = num(r, "prompt_len", index, static_cast<double>(kMaxTokens));
    v.gen = num(r, "gen_len", index, static_cast<double>(kMaxTokens));
    const double depth = num(r, "context_depth", index, static_cast<double>(kMaxTokens));
    const std::string& m = v.metric;
    v.group = (m == "prompt_throughput" || m == "TTFT") ? "prefill" : (m == "output_throughput" ? "e2e" : "decode");
    v.model_id = model_id(v.model);
    v.hardware_id = hardware_id(v.hardware);
    const double devices = std::max(1.0, num(r, "num_devices", index, 4096));
    if (v.model_id.empty()) v.reason = "no model preset for " + v.model;
    else if (v.hardware_id.empty()) v.reason = "no hardware preset for " + v.hardware;
    else if (devices > 1 && tensor_parallel(get(r, "parallelism")) != static_cast<int>(devices))
      v.reason = "runs on " + get(r, "num_devices") + " devices as \"" + get(r, "parallelism") + "\"; only tensor parallelism over all of them (TPn) is mapped";
    else if (devices > 1 && system_id(v.hardware_id).empty())
      v.reason = "no system preset holding " + get(r, "num_devices") + " x " + v.hardware;
    else if (!formats(get(r, "weights_format"), get(r, "act_kv_format"), v.weights, v.activations, v.kv))
      v.reason = "weight format " + get(r, "weights_format") + " not mapped";
    else if (v.measured <= 0) v.reason = "no measured value";
    if (!v.reason.empty()) {
      rep.rows.push_back(v);
      continue;
    }
    auto it = models.find(v.model_id);
    if (it == models.end()) it = models.emplace(v.model_id, parse_model_config(find_model_preset(v.model_id)->config, "/config")).first;
    const HardwareSpec* hw = find_hardware_preset(v.hardware_id);
    Workload w;
    w.settings.precision.weights = *find_dtype(v.weights);
    w.settings.precision.activations = *find_dtype(v.activations);
    w.settings.precision.kv = *find_dtype(v.kv);
    w.settings.convention = convention_by_name("infercast");
    const auto B = static_cast<i64>(v.batch);
    const auto cached = static_cast<i64>(depth);
    // The workload the source ran, then its metric in the source's unit.
    const bool prefill = m == "prompt_throughput" || m == "TTFT";
    const bool from_empty = !prefill && m != "output_throughput" && v.prompt <= 0;  // llama-bench tgN
    w.requests = {Request{cached, from_empty ? 1 : static_cast<i64>(v.prompt), B}};
    if (prefill) w.gen_tokens = 1;
    else if (m == "output_throughput") w.gen_tokens = static_cast<i64>(v.gen);
    else if (from_empty) w.gen_tokens = static_cast<i64>(std::max(1.0, v.gen));
    else w.gen_tokens = 2;  // a decode step after a prompt of prompt_len tokens (LIFE Table 6)
    try {
      check_work(estimate_work(it->second, w), devices > 1 ? 2 : 1, "the plan");
    } catch (const InputError& e) {
      throw InputError("csv.too_much_work", "/csv", "CSV record " + std::to_string(index + 1) + ": " + e.what());
    }
    // One device: its analysis; several: the tensor-parallel plan on the node they sit in.
    double ttft = 0, e2e = 0, tpot_first = 0;
    v.devices = devices;
    if (devices > 1) {
      v.system_id = system_id(v.hardware_id);
      ParallelPlan plan;
      plan.tp = static_cast<int>(devices);
      const PlanForecast f = forecast_plan(it->second, w, *find_system_preset(v.system_id), plan, Speculative{});
      ttft = f.ttft_s, e2e = f.e2e_s, tpot_first = f.tpot_first_s;
    } else {
      const Analysis a = analyze(it->second, w, hw);
      ttft = a.ttft_s, e2e = a.e2e_s, tpot_first = a.tpot_first_s;
    }
    const double to_unit = v.unit == "ms" ? 1e3 : 1;
    // Seconds per generated token: tgN counts its N single-token steps from the context depth, the first included.
    const double per_token = from_empty ? e2e / std::max(1.0, v.gen) : tpot_first;
    double forecast = 0;
    if (m == "TTFT") forecast = ttft * to_unit;
    else if (m == "prompt_throughput") forecast = v.prompt * v.batch / ttft;
    // Per device: TensorRT-LLM's tables state "out tok/s/GPU" (the A100 table's header does not say; read alike).
    else if (m == "output_throughput") forecast = v.batch * v.gen / e2e / devices;
    else if (m == "TPOT") forecast = per_token * to_unit;
    else if (m == "decode_throughput") forecast = 1 / per_token;
    else forecast = v.batch / per_token;  // decode_throughput_aggregate
    v.forecast = forecast;
    v.error = forecast / v.measured - 1;
    v.covered = true;
    rep.rows.push_back(v);
  }
  for (const char* g : {"prefill", "decode", "e2e"}) {
    std::vector<double> abs_err, signed_err;
    for (const auto& v : rep.rows) {
      if (!v.covered || v.group != g) continue;
      abs_err.push_back(std::fabs(v.error));
      signed_err.push_back(v.error);
    }
    rep.groups.push_back(ValidationGroup{g, static_cast<int>(abs_err.size()), percentile(abs_err, 0.5),
                                         percentile(abs_err, 0.9), percentile(signed_err, 0.5)});
  }
  return rep;
}

const std::string& embedded_measurements() {
  static const std::string text = [] {
    for (const auto& f : embedded_files())
      if (std::string(f.kind) == "validation" && std::string(f.name) == "measured_public.csv") return std::string(f.text);
    return std::string();
  }();
  return text;
}

}  // namespace infercast
