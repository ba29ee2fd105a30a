// From measurement records to forecast cases: names mapped to presets (presets/validation/names.json), the
// workload each source ran rebuilt, the forecast run once under the row's runtime with the shipped defaults, and the
// step blocks it came from kept for re-timing.
#include "validation/cases.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "analysis/work.hpp"
#include "io/defaults.hpp"
#include "io/fields.hpp"
#include "io/json_reader.hpp"
#include "io/model_config.hpp"
#include "io/presets.hpp"
#include "parallel/parallel.hpp"
#include "quant/weight_format.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace infercast {

// The attention a row ran: its notes' llama-bench flag where they state one ("-fa 0", "-fa 1": llama.cpp's default
// turned flash attention on in 2025-08; the public llama.cpp rows ran earlier builds and say -fa 0, but for S46's and
// S47's, which passed -fa; "-fa off" and "-fa on" as builds since then spell it), else the runtime's default.
// Static and serving rows alike.
AttnImpl row_attention(const std::string& notes, const RuntimeSpec& rt) {
  for (const char* off : {"-fa 0", "-fa off"})
    if (notes.find(off) != std::string::npos) return AttnImpl::Unfused;
  for (const char* on : {"-fa 1", "-fa on"})
    if (notes.find(on) != std::string::npos) return AttnImpl::Fused;
  return rt.flash_attention ? AttnImpl::Fused : AttnImpl::Unfused;
}

// A numeric cell: empty is 0; anything else must be a finite number from 0 to `hi` (1e12 unless the column has a
// narrower range: counts are cast to integers, and a measured value is positive), or the whole file is refused
// naming the record and column. `tiny`: the smallest positive value allowed (a measured value: a forecast over a
// smaller one would pass a double's range); 0 stays allowed (no value).
double csv_number(const CsvRecord& r, const std::string& k, std::size_t index, double hi, double tiny) {
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
std::string csv_cell(const CsvRecord& r, const std::string& k) {
  const auto it = r.find(k);
  return it == r.end() ? "" : it->second;
}

// A name by its exact entry or its longest matching prefix in a presets/validation/names.json list; "" when none.
std::string lookup_name(const std::vector<ValidationNames::Name>& list, const std::string& name, bool fold_case) {
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
  if (auto id = lookup_name(validation_names().hardware, name, false); !id.empty()) return id;
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

// The source's weight format -> our storage type; activations and KV follow the act/KV column.
bool formats(const std::string& weights, const std::string& act_kv, std::string& w, std::string& a, std::string& kv) {
  w = lookup_name(validation_names().weights, weights, true);
  if (w.empty()) return false;
  a = kv = lookup_name(validation_names().activations_kv, act_kv, true);
  if (a.empty()) return false;
  // A text that names only the KV cache's format (vLLM's --kv-cache-dtype fp8) leaves the GEMMs alone: a model whose
  // weights are not FP8 keeps computing them in 16 bits (the KV format sets the cache and attention, never the
  // projections' inputs).
  std::string text = act_kv;
  for (auto& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const std::optional<DType> kv_type = find_dtype(kv);
  if (kv_type && kv_type->bits_per_element <= 8 && text.find("kv") != std::string::npos &&
      text.find("activation") == std::string::npos && text.find("matmul") == std::string::npos && w != "fp8")
    a = w == "fp16" ? "fp16" : "bf16";
  return true;
}

// Multi-device rows: the node their devices sit in.
std::string system_id(const std::string& hardware) {
  for (const auto& [hw, sys] : validation_names().systems)
    if (hw == hardware) return sys;
  return "";
}

// "TP4", "TP4 PP2 (...)" -> tensor and pipeline sizes; false when the column says something else.
bool parallel_sizes(const std::string& p, int& tp, int& pp) {
  tp = pp = 1;
  if (p.empty()) return true;
  std::size_t i = 0;
  const auto read = [&](const char* tag, int& out) {
    if (p.compare(i, 2, tag) != 0) return false;
    std::size_t j = i + 2;
    while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) ++j;
    if (j == i + 2 || j - i - 2 > 5) return false;  // no digits, or more than any plan holds (stoi would overflow)
    out = std::stoi(p.substr(i + 2, j - i - 2));
    i = j;
    while (i < p.size() && p[i] == ' ') ++i;
    return true;
  };
  if (!read("TP", tp)) return false;
  read("PP", pp);
  return i >= p.size() || p[i] == '(';
}

std::string unmapped_reason(const CsvRecord& r, ValidationRow& v, const HardwareSpec* hw, const RuntimeSpec* rt,
                            double devices, int& tp, int& pp) {
  const bool sizes = parallel_sizes(csv_cell(r, "parallelism"), tp, pp);
  if (v.model_id.empty()) return "no model preset for " + v.model;
  if (!hw) return "no hardware preset for " + v.hardware;
  if (!rt) return "no runtime preset " + (v.runtime.empty() ? std::string("given") : "\"" + v.runtime + "\"");
  // One device needs no plan: its parallelism text ("single socket") says nothing to map.
  if (sizes ? tp * pp != static_cast<int>(devices) : devices > 1)
    return "runs on " + csv_cell(r, "num_devices") + " devices as \"" + csv_cell(r, "parallelism") +
           "\"; only TPn or TPn PPm over all of them is mapped";
  if (devices > 1 && system_id(v.hardware_id).empty())
    return "no system preset holding " + csv_cell(r, "num_devices") + " x " + v.hardware;
  if (!formats(csv_cell(r, "weights_format"), csv_cell(r, "act_kv_format"), v.weights, v.activations, v.kv))
    return "weight format " + csv_cell(r, "weights_format") + " not mapped";
  if (v.measured <= 0) return "no measured value";
  return "";
}

namespace {

struct MetricName {
  const char* name;
  MetricKind kind;
  const char* group;
};
const MetricName kMetrics[] = {{"TTFT", MetricKind::Ttft, "prefill"},
                           {"prompt_throughput", MetricKind::PromptThroughput, "prefill"},
                           {"TPOT", MetricKind::Tpot, "decode"},
                           {"TPOT_p50", MetricKind::Tpot, "decode"},
                           {"decode_throughput", MetricKind::DecodeThroughput, "decode"},
                           {"decode_throughput_aggregate", MetricKind::DecodeAggregate, "decode"},
                           {"output_throughput", MetricKind::OutputThroughput, "e2e"},
                           {"e2e_latency", MetricKind::E2e, "e2e"}};

void keep_trace(Case& c, const Analysis& a) { c.stages.push_back(StageTrace{a.prefill_blocks, a.decode_blocks}); }

}  // namespace

double case_blocks(const Case& c) {
  double n = 0;
  for (const auto& st : c.stages) n += static_cast<double>(st.prefill.size() + st.decode.size());
  return n;
}

double case_value(const Case& c, const RuntimeSpec& rt) {
  if (c.serving) return serving_case_value(c, rt);
  const Execution x = resolve_execution(*c.hw, &rt);
  const double decode_comm = c.decode_comm + c.decode_waits * rt.collective_wait_s;
  double ttft = c.prefill_comm + c.prefill_waits * rt.collective_wait_s, decode = 0, tpot_first = decode_comm;
  for (const auto& st : c.stages) {
    for (const auto& b : st.prefill) ttft += time_block(b, x, c.timing).total;
    double d = 0;
    for (std::size_t i = 0; i < st.decode.size(); ++i) {
      const BlockTime t = time_block(st.decode[i], x, c.timing);
      d += t.total;
      if (i == 0) tpot_first += t.first;
    }
    decode += c.decode_steps > 0 ? d : 0;
  }
  decode += c.decode_steps * decode_comm;
  const double e2e = ttft + decode;
  // Seconds per generated token: tgN counts its N single-token steps from the context depth, the first included.
  const double per_token = c.from_empty ? e2e / std::max(1.0, c.gen) : tpot_first;
  switch (c.kind) {
    case MetricKind::Ttft: return ttft * c.to_unit;
    case MetricKind::PromptThroughput: return c.prompt * c.batch / ttft;
    // Per device where the source says so (TensorRT-LLM's "tok/s per GPU"); the batch's total otherwise.
    case MetricKind::OutputThroughput: return c.batch * c.gen / e2e / c.devices;
    case MetricKind::E2e: return e2e * c.to_unit;
    case MetricKind::Tpot: return per_token * c.to_unit;
    case MetricKind::DecodeThroughput: return 1 / per_token;
    case MetricKind::DecodeAggregate: return c.batch / per_token;
  }
  return 0;
}

void build_cases(const std::vector<CsvRecord>& records, std::vector<ValidationRow>& rows, std::vector<Case>& cases,
                 bool check_only) {
  if (records.empty()) throw InputError("csv.empty", "/csv", "CSV: no records after the header; expected one measurement per row");
  for (const char* col : {"model", "hardware", "metric", "value", "unit"})
    if (!records.front().count(col))
      throw InputError("csv.missing_column", "/csv",
                       std::string("CSV: the header has no \"") + col +
                           "\" column; expected model, hardware, metric, value and unit (see presets/validation/README.md)");
  std::map<std::string, ModelSpec> models;
  std::vector<std::shared_ptr<ServingCase>> runs;
  for (std::size_t index = 0; index < records.size(); ++index) {
    const CsvRecord& r = records[index];
    ValidationRow v;
    v.row_id = csv_cell(r, "row_id");
    v.source_id = csv_cell(r, "source_id");
    v.source_group = v.source_id;
    for (const auto& [s, g] : validation_names().source_groups)
      if (s == v.source_id) v.source_group = g;
    v.model = csv_cell(r, "model");
    v.hardware = csv_cell(r, "hardware");
    v.metric = csv_cell(r, "metric");
    v.unit = csv_cell(r, "unit");
    v.runtime = csv_cell(r, "runtime");
    v.measured = csv_number(r, "value", index, 1e12, 1e-9);
    // The workload's own ranges (io/fields.hpp): a batch of requests, tokens per request, devices of a plan.
    v.batch = std::max(1.0, csv_number(r, "batch_size", index, static_cast<double>(kMaxBatch)));
    v.prompt = csv_number(r, "prompt_len", index, static_cast<double>(kMaxTokens));
    v.gen = csv_number(r, "gen_len", index, static_cast<double>(kMaxTokens));
    const double depth = csv_number(r, "context_depth", index, static_cast<double>(kMaxTokens));
    const MetricName* metric = nullptr;
    for (const auto& m : kMetrics)
      if (v.metric == m.name) metric = &m;
    v.group = metric ? metric->group : "serving";
    v.model_id = lookup_name(validation_names().models, v.model, false);
    v.hardware_id = hardware_id(v.hardware);
    const double devices = std::max(1.0, csv_number(r, "num_devices", index, 4096));
    int tp = 1, pp = 1;
    const HardwareSpec* hw = v.hardware_id.empty() ? nullptr : find_hardware_preset(v.hardware_id);
    // The row's runtime, else the device's usual one (a user's own CSV without the column).
    if (v.runtime.empty() && hw) v.runtime = default_runtime_id(*hw);
    const RuntimeSpec* rt = find_runtime_preset(v.runtime);
    if (!metric) {
      build_serving_case(r, index, v, cases, rows.size(), runs, check_only);
      rows.push_back(v);
      continue;
    }
    v.reason = unmapped_reason(r, v, hw, rt, devices, tp, pp);
    if (v.reason.empty() && (metric->kind == MetricKind::PromptThroughput || metric->kind == MetricKind::OutputThroughput ||
              metric->kind == MetricKind::E2e) && (v.prompt <= 0 || (metric->kind != MetricKind::PromptThroughput && v.gen <= 0)))
      v.reason = "the source states no prompt or generated length";
    if (!v.reason.empty()) {
      rows.push_back(v);
      continue;
    }
    auto it = models.find(v.model_id);
    if (it == models.end()) it = models.emplace(v.model_id, parse_model_config(find_model_preset(v.model_id)->config, "/config")).first;
    Case c;
    c.row = rows.size();
    c.hw = hw;
    c.rt = rt;
    c.kind = metric->kind;
    c.measured = v.measured;
    Workload w;
    w.runtime = rt;
    apply_weight_format(w.settings.precision, it->second, v.weights);
    w.settings.precision.activations = *find_dtype(v.activations);
    w.settings.precision.kv = *find_dtype(v.kv);
    if (w.settings.precision.activations.weight_only) w.settings.precision.activations = *find_dtype("fp16");
    w.settings.convention = convention_by_name("infercast");
    w.settings.fusion = rt->fusion;
    w.settings.fused_mlp = rt->act_in_gemm;
    w.settings.attention = row_attention(csv_cell(r, "notes"), *rt);
    w.settings.score_bytes = rt->unfused_score_bytes;
    const auto B = static_cast<i64>(v.batch);
    const auto cached = static_cast<i64>(depth);
    // The workload the source ran: a prefill alone; N one-token steps from the depth (llama-bench tgN); a static
    // batch of prompts and generations; one decode step after a prompt (TPOT at a context).
    const bool prefill = metric->kind == MetricKind::Ttft || metric->kind == MetricKind::PromptThroughput;
    const bool whole = metric->kind == MetricKind::OutputThroughput || metric->kind == MetricKind::E2e;
    c.from_empty = !prefill && !whole && v.prompt <= 0;
    w.requests = {Request{cached, c.from_empty ? 1 : std::max<i64>(1, static_cast<i64>(v.prompt)), B}};
    if (prefill) w.gen_tokens = 1;
    else if (whole) w.gen_tokens = static_cast<i64>(v.gen);
    else if (c.from_empty) w.gen_tokens = static_cast<i64>(std::max(1.0, v.gen));
    else w.gen_tokens = 2;  // a decode step after a prompt of prompt_len tokens
    w.prefill_chunk = prompt_chunk(rt, static_cast<double>(B));
    c.batch = v.batch, c.prompt = v.prompt, c.gen = std::max(1.0, v.gen), c.devices = devices;
    const bool time_metric = c.kind == MetricKind::Ttft || c.kind == MetricKind::Tpot || c.kind == MetricKind::E2e;
    c.to_unit = time_metric && v.unit == "ms" ? 1e3 : 1;
    // Per-device throughput: TensorRT-LLM's tables say "per GPU"; a unit that does not say so is the total.
    if (c.kind == MetricKind::OutputThroughput && v.unit.find("GPU") == std::string::npos) c.devices = 1;
    v.devices = devices;
    try {
      const double stages = devices > 1 ? 1 + pp : 1;
      check_work(estimate_work(it->second, w, stages), stages, "the plan");
    } catch (const InputError& e) {
      throw InputError("csv.too_much_work", "/csv", "CSV record " + std::to_string(index + 1) + ": " + e.what());
    }
    if (check_only) {
      rows.push_back(v);
      continue;
    }
    double exact = 0;
    if (devices > 1) {
      v.system_id = system_id(v.hardware_id);
      ParallelPlan plan;
      plan.tp = tp;
      plan.pp = pp;
      try {
        const PlanForecast f = forecast_plan(it->second, w, *find_system_preset(v.system_id), plan, Speculative{});
        for (const auto& st : f.stages) keep_trace(c, st.a);
        c.prefill_waits = f.prefill_comm.waits;
        c.decode_waits = f.decode_comm.waits;
        c.prefill_comm = f.prefill_comm.plain_s();
        c.decode_comm = f.decode_comm.plain_s();
        c.decode_steps = f.stages.front().a.decode_steps;
      } catch (const InputError& e) {
        v.reason = std::string("the plan does not split: ") + e.what();
        rows.push_back(v);
        continue;
      }
    } else {
      const Analysis a = analyze(it->second, w, hw);
      keep_trace(c, a);
      c.decode_steps = a.decode_steps;
    }
    exact = case_value(c, *rt);
    v.forecast = exact;
    v.error = exact / v.measured - 1;
    v.covered = true;
    rows.push_back(v);
    cases.push_back(std::move(c));
  }
}

}  // namespace infercast
