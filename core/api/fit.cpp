// Fitting: forecasts against public measurements (validate) and a device's efficiencies fitted to a user's own
// measured points (calibrate).
#include "api/operations.hpp"

#include <cmath>
#include <deque>

#include "analysis/work.hpp"
#include "api/request.hpp"
#include "api/result.hpp"
#include "calibrate/calibrate.hpp"
#include "io/csv.hpp"
#include "io/hardware_json.hpp"
#include "io/measurements.hpp"
#include "io/presets.hpp"
#include "util/limits.hpp"
#include "util/text.hpp"
#include "validation/validation.hpp"

namespace infercast {


namespace {
json groups_json(const std::vector<ValidationGroup>& gs) {
  json out = json::object();
  for (const auto& g : gs)
    out[g.name] = {{"rows", g.rows},
                   {"n", g.rows},
                   {"median_abs_error", g.median_abs_error},
                   {"p90_abs_error", g.p90_abs_error},
                   {"median_signed_error", g.median_signed_error}};
  return out;
}
json group_list_json(const std::vector<ValidationGroup>& gs) {
  json groups = json::array();
  for (const auto& g : gs)
    groups.push_back({{"group", g.name},
                      {"rows", g.rows},
                      {"median_abs_error", g.median_abs_error},
                      {"p90_abs_error", g.p90_abs_error},
                      {"median_signed_error", g.median_signed_error}});
  return groups;
}
}  // namespace

// Forecasts against public measurements: in-sample with the shipped defaults, and leave-one-source-out; a selection
// (a device class, a device, a runtime) summarized apart, both ways (the page's "how far to trust this device").
json api_validate(const json& request, Run run) {
  Reader r(request, "", "request");
  const std::string text = r.string_or("csv", embedded_measurements());
  ValidationOptions opt;
  opt.cross_validate = r.boolean_or("cross_validate", true);
  const std::string want_class = r.string_or("hardware_class", ""), want_hw = r.string_or("hardware_id", "");
  const std::string want_rt = lower(r.string_or("runtime_id", ""));
  r.reject_unknown();
  opt.check_only = run == Run::check;
  const ValidationReport rep = validate(parse_csv(text), opt);
  if (run == Run::check) return nullptr;
  std::vector<ValidationRow> chosen;
  json rows = json::array();
  for (const auto& v : rep.rows) {
    const HardwareSpec* hp = v.hardware_id.empty() ? nullptr : find_hardware_preset(v.hardware_id);
    const std::string cls = hp ? hp->device_class : "";
    if ((want_class.empty() || cls == want_class) && (want_hw.empty() || v.hardware_id == want_hw) &&
        (want_rt.empty() || lower(v.runtime) == want_rt))
      chosen.push_back(v);
    json j = {{"row_id", v.row_id}, {"source_id", v.source_id}, {"source_group", v.source_group}, {"model", v.model},
              {"hardware", v.hardware}, {"runtime", v.runtime}, {"metric", v.metric}, {"unit", v.unit},
              {"group", v.group}, {"measured", v.measured}, {"covered", v.covered}, {"hardware_class", cls}};
    if (v.covered) {
      j["model_id"] = v.model_id;
      j["hardware_id"] = v.hardware_id;
      j["weights"] = v.weights;
      j["activations"] = v.activations;
      j["kv"] = v.kv;
      j["batch"] = v.batch;
      j["prompt"] = v.prompt;
      j["gen"] = v.gen;
      j["devices"] = v.devices;
      j["system_id"] = v.system_id;
      j["forecast"] = finite(v.forecast);
      j["error"] = finite(v.error);
      if (v.loso) {
        j["loso_forecast"] = finite(v.loso_forecast);
        j["loso_error"] = finite(v.loso_error);
      }
    } else {
      j["reason"] = v.reason;
    }
    rows.push_back(j);
  }
  json out = {{"rows", rows}, {"groups", group_list_json(rep.groups)}, {"in_sample", groups_json(rep.groups)}};
  json fits = json::array();
  for (const auto& f : rep.fits) {
    json values = json::object();
    for (const auto& [p, v] : f.values) values[rt_param_names().name(p)] = finite(v);
    fits.push_back({{"runtime", f.runtime}, {"rows", f.rows}, {"sources", f.sources}, {"values", values}});
  }
  out["fits"] = fits;
  out["collective_wait"] = {{"wait_us", finite(rep.collective_wait_us)}, {"fitted", rep.collective_wait_fitted},
                            {"rows", rep.collective_wait_rows}, {"sources", rep.collective_wait_sources}};
  if (opt.cross_validate) {
    json by_source = json::array();
    for (const auto& s : rep.by_source)
      by_source.push_back({{"source", s.source_group}, {"rows", s.rows}, {"in_sample_median_abs_error", s.in_sample_median_abs_error},
                           {"loso_median_abs_error", s.loso_median_abs_error}});
    out["cross_validation"] = {{"method", "leave-one-source-out"}, {"groups", groups_json(rep.loso_groups)}, {"by_source", by_source}};
  }
  if (!want_class.empty() || !want_hw.empty() || !want_rt.empty()) {
    out["selection"] = {{"hardware_class", want_class}, {"hardware_id", want_hw}, {"runtime_id", want_rt},
                        {"groups", group_list_json(summarize(chosen, false))}};
    if (opt.cross_validate) out["selection"]["loso_groups"] = group_list_json(summarize(chosen, true));
  }
  return out;
}

json api_calibrate(const json& request, Run run) {
  Reader r(request, "", "request");
  HardwareSpec hw_storage;
  const HardwareSpec* hw = resolve_hardware(r, hw_storage);
  if (!hw) r.fail("hardware", "missing_field", "/hardware is missing; expected a preset id or a hardware object");
  RuntimeSpec rt_storage;
  const RuntimeSpec* rt = resolve_runtime(r, rt_storage);
  std::deque<ResolvedModel> models;  // stable addresses: points keep pointers to their models
  bool has_default = r.has("model");
  if (has_default) models.push_back(resolve_model(r));
  else r.raw("model");
  std::vector<EffParam> params;
  for (const auto& name : r.string_array_or("fit"))
    params.push_back(eff_param_names().parse(name, r.child_path("fit"), "calibrate.unknown_parameter"));
  if (params.empty()) params = {EffParam::Gemm, EffParam::Attention, EffParam::Memory, EffParam::Dispatch};
  std::vector<CalibrationPoint> points;
  // Points as given, or read from measurements pasted as a tool prints them (llama-bench, vllm bench serve, CSV):
  // each becomes a point in the request's precision unless the tool names the weights (docs/schema.md, "calibrate").
  json from_text = json::object();
  ParsedMeasurements parsed;
  const bool pasted = r.has("measurements");
  if (pasted) {
    if (r.has("points")) r.fail("points", "conflict", "/points cannot be combined with /measurements; give either");
    if (!has_default) r.fail("model", "missing_field", "/model is missing; pasted measurements are forecast for one model");
    const std::int64_t concurrency = r.int_in_or("concurrency", 1, 1000000, 1);
    parsed = parse_measurements(r.string("measurements"), concurrency);
    const json* prec = r.raw("precision");
    json arr = json::array();
    for (const auto& m : parsed.points) {
      json p = {{"metric", m.metric},
                {"value", m.value},
                {"workload", {{"batch", m.batch}, {"prompt", m.prompt}, {"gen", m.gen}, {"cached", m.cached}}}};
      if (prec && prec->is_object()) p["precision"] = *prec;
      if (!m.weights.empty()) p["precision"]["weights"] = m.weights;
      if (!m.attention.empty()) p["attention"] = m.attention;
      arr.push_back(p);
    }
    from_text["points"] = arr;
  } else {
    for (const char* k : {"concurrency", "precision"})
      if (r.has(k))
        r.fail(k, "conflict", std::string("/") + k + " applies to pasted /measurements; give each point in /points its own");
  }
  Reader text_reader(from_text, "/measurements", "calibrate");
  auto readers = pasted ? text_reader.object_array("points") : r.object_array("points");
  if (readers.size() > 60) r.fail("points", "out_of_range", "/points holds " + std::to_string(readers.size()) + " points; expected at most 60");
  for (auto& pr : readers) {
    CalibrationPoint p;
    if (pr.has("model")) {
      models.push_back(resolve_model(pr));
      p.model = &models.back().spec;
    } else if (has_default) {
      pr.raw("model");
      p.model = &models.front().spec;
    } else {
      pr.fail("model", "missing_field", pr.child_path("model") + " is missing and the request has no default /model");
    }
    p.metric = metric_names().parse(pr.string("metric"), pr.child_path("metric"), "calibrate.unknown_metric");
    // From a nanosecond (or a token per 1e9 s) to 1e12: a forecast over it, or its logarithm, stays finite.
    p.measured = pr.number_in("value", 1e-9, 1e12);
    p.workload = read_workload(pr, *p.model, nullptr, hw, rt);
    pr.reject_unknown();
    points.push_back(p);
  }
  r.reject_unknown();
  // Each evaluation analyzes every point: the search gets the evaluations the work limits leave, in steps and in
  // operator-steps (a step's operators: a Llama step has 16, a Gemma 3n step 191; about 4000 evaluations for 60
  // plain Llama points, where it settles within a few hundred), and a set of points too heavy for a search is
  // refused. Every point's operators are counted (as for the many analyses of a sweep).
  double steps = 0, operator_steps = 0;
  for (const auto& p : points) {
    const WorkEstimate e = estimate_work(*p.model, p.workload, limit::kCallSteps);
    steps += e.steps();
    operator_steps += e.operator_steps();
  }
  const bool by_operators = limit::kCallOperatorSteps / operator_steps < limit::kCallSteps / steps;
  const double evaluations = std::floor(std::min(limit::kCallSteps / steps, limit::kCallOperatorSteps / operator_steps));
  if (evaluations < 2 + 51.0 * static_cast<double>(params.size()))
    throw InputError("workload.too_much_work", "/points",
                     "/points: the " + std::to_string(points.size()) + " points take " +
                         (by_operators ? number_text(json(operator_steps)) + " operator-steps" : number_text(json(steps)) + " steps") +
                         " per evaluation, and a search over " + std::to_string(params.size()) +
                         " parameters needs at least " + std::to_string(2 + 51 * params.size()) + " evaluations: past the limit of " +
                         (by_operators ? number_text(json(limit::kCallOperatorSteps)) + " operator-steps"
                                       : number_text(json(limit::kCallSteps)) + " steps") +
                         "; expected fewer points or lighter workloads");
  if (run == Run::check) return nullptr;
  const CalibrationResult res = calibrate(*hw, points, params, static_cast<int>(std::min(evaluations, 1e9)));
  json fitted_names = json::array();
  for (EffParam p : params) fitted_names.push_back(eff_param_name(p));
  json pts = json::array();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& q = points[i].workload.requests.front();
    json p = {{"metric", metric_name(points[i].metric)},
              {"measured", points[i].measured},
              {"forecast_before", finite(res.forecast_before[i])},
              {"forecast_after", finite(res.forecast_after[i])},
              {"error_before", finite(res.forecast_before[i] / points[i].measured - 1)},
              {"error_after", finite(res.forecast_after[i] / points[i].measured - 1)},
              {"batch", q.count},
              {"prompt", q.input},
              {"cached", q.cached},
              {"gen", points[i].workload.gen_tokens},
              {"weights", points[i].workload.settings.precision.weights.name}};
    if (pasted) p["label"] = parsed.points[i].label;
    pts.push_back(p);
  }
  HardwareSpec device = *hw;
  device.eff = res.fitted;
  device.eff_given |= res.fitted_bits;
  device.id = hw->id + "-calibrated";
  device.name = hw->name + " (calibrated)";
  device.source = hw->source + "; efficiencies calibrated by infercast from " + std::to_string(points.size()) + " measured points";
  json out = {{"fitted_parameters", fitted_names},
          {"runtime", points.front().workload.runtime ? points.front().workload.runtime->id : "reference"},
          {"start", run_efficiency_json(resolve_execution(*hw, points.front().workload.runtime))},
          {"fitted", run_efficiency_json(resolve_execution(device, points.front().workload.runtime))},
          {"points", pts},
          {"rms_log_error_before", res.rms_log_error_before},
          {"rms_log_error_after", res.rms_log_error_after},
          {"evaluations", res.evaluations},
          {"stopped_at_work_limit", res.stopped},
          {"hardware", hardware_to_json(device)}};
  if (pasted) {
    json notes = parsed.notes;
    // The table's own parameter count against the model calibrated: a different model would mislead the fit.
    const double ours = static_cast<double>(count_params(models.front().spec).total);
    if (parsed.params_stated > 0 && std::abs(parsed.params_stated / ours - 1) > 0.02)
      notes.push_back("the table's model has " + number_text(json(parsed.params_stated / 1e9)) + " B parameters; " +
                      models.front().name + " has " + number_text(json(std::round(ours / 1e7) / 100)) +
                      " B: check that the selected model is the one measured");
    out["measurements"] = {{"format", parsed.format}, {"notes", notes}};
  }
  return out;
}

}  // namespace infercast
