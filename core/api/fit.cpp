// Fitting: forecasts against public measurements (validate) and a device's efficiencies fitted to a user's own
// measured points (calibrate).
#include "api/operations.hpp"

#include <deque>

#include "api/request.hpp"
#include "api/result.hpp"
#include "calibrate/calibrate.hpp"
#include "io/csv.hpp"
#include "io/hardware_json.hpp"
#include "io/presets.hpp"
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
}  // namespace

// Forecasts against public measurements: in-sample with the shipped defaults, and leave-one-source-out.
json api_validate(const json& request) {
  Reader r(request, "", "request");
  const std::string text = r.string_or("csv", embedded_measurements());
  ValidationOptions opt;
  opt.cross_validate = r.boolean_or("cross_validate", true);
  r.reject_unknown();
  const ValidationReport rep = validate(parse_csv(text), opt);
  json rows = json::array();
  for (const auto& v : rep.rows) {
    json j = {{"row_id", v.row_id}, {"source_id", v.source_id}, {"source_group", v.source_group}, {"model", v.model},
              {"hardware", v.hardware}, {"runtime", v.runtime}, {"metric", v.metric}, {"unit", v.unit},
              {"group", v.group}, {"measured", v.measured}, {"covered", v.covered}};
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
  json groups = json::array();
  for (const auto& g : rep.groups)
    groups.push_back({{"group", g.name},
                      {"rows", g.rows},
                      {"median_abs_error", g.median_abs_error},
                      {"p90_abs_error", g.p90_abs_error},
                      {"median_signed_error", g.median_signed_error}});
  json out = {{"rows", rows}, {"groups", groups}, {"in_sample", groups_json(rep.groups)}};
  json fits = json::array();
  for (const auto& f : rep.fits) {
    json values = json::object();
    for (const auto& [p, v] : f.values) values[rt_param_names().name(p)] = finite(v);
    fits.push_back({{"runtime", f.runtime}, {"rows", f.rows}, {"sources", f.sources}, {"values", values}});
  }
  out["fits"] = fits;
  if (opt.cross_validate) {
    json by_source = json::array();
    for (const auto& s : rep.by_source)
      by_source.push_back({{"source", s.source_group}, {"rows", s.rows}, {"in_sample_median_abs_error", s.in_sample_median_abs_error},
                           {"loso_median_abs_error", s.loso_median_abs_error}});
    out["cross_validation"] = {{"method", "leave-one-source-out"}, {"groups", groups_json(rep.loso_groups)}, {"by_source", by_source}};
  }
  return out;
}

json api_calibrate(const json& request) {
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
  auto readers = r.object_array("points");
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
    p.measured = pr.positive_number("value");
    p.workload = read_workload(pr, *p.model, nullptr, hw, rt);
    pr.reject_unknown();
    points.push_back(p);
  }
  r.reject_unknown();
  const CalibrationResult res = calibrate(*hw, points, params);
  json fitted_names = json::array();
  for (EffParam p : params) fitted_names.push_back(eff_param_name(p));
  json pts = json::array();
  for (std::size_t i = 0; i < points.size(); ++i)
    pts.push_back({{"metric", metric_name(points[i].metric)},
                   {"measured", points[i].measured},
                   {"forecast_before", finite(res.forecast_before[i])},
                   {"forecast_after", finite(res.forecast_after[i])},
                   {"error_after", finite(res.forecast_after[i] / points[i].measured - 1)}});
  HardwareSpec out = *hw;
  out.eff = res.fitted;
  out.eff_given |= res.fitted_bits;
  out.id = hw->id + "-calibrated";
  out.name = hw->name + " (calibrated)";
  out.source = hw->source + "; efficiencies calibrated by infercast from " + std::to_string(points.size()) + " measured points";
  return {{"fitted_parameters", fitted_names},
          {"runtime", points.front().workload.runtime ? points.front().workload.runtime->id : "reference"},
          {"start", efficiency_to_json(res.start)},
          {"fitted", efficiency_to_json(res.fitted)},
          {"points", pts},
          {"rms_log_error_before", res.rms_log_error_before},
          {"rms_log_error_after", res.rms_log_error_after},
          {"evaluations", res.evaluations},
          {"hardware", hardware_to_json(out)}};
}

}  // namespace infercast
