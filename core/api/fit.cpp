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
#include "io/presets.hpp"
#include "util/limits.hpp"
#include "validation/validation.hpp"

namespace infercast {


json api_validate(const json& request) {
  Reader r(request, "", "request");
  const std::string text = r.string_or("csv", embedded_measurements());
  r.reject_unknown();
  const ValidationReport rep = validate(parse_csv(text));
  json rows = json::array();
  for (const auto& v : rep.rows) {
    json j = {{"row_id", v.row_id},   {"source_id", v.source_id}, {"model", v.model},   {"hardware", v.hardware},
              {"metric", v.metric},   {"unit", v.unit},           {"group", v.group},   {"measured", v.measured},
              {"covered", v.covered}};
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
  return {{"rows", rows}, {"groups", groups}};
}

json api_calibrate(const json& request) {
  Reader r(request, "", "request");
  HardwareSpec hw_storage;
  const HardwareSpec* hw = resolve_hardware(r, hw_storage);
  if (!hw) r.fail("hardware", "missing_field", "/hardware is missing; expected a preset id or a hardware object");
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
    // From a nanosecond (or a token per 1e9 s) to 1e12: a forecast over it, or its logarithm, stays finite.
    p.measured = pr.number_in("value", 1e-9, 1e12);
    p.workload = read_workload(pr, *p.model, nullptr);
    pr.reject_unknown();
    points.push_back(p);
  }
  r.reject_unknown();
  // Each evaluation analyzes every point: the search gets the evaluations the work limit leaves (about 4000 for 60
  // plain points, where it settles within a few hundred), and a set of points too heavy for a search is refused.
  double steps = 0;
  for (const auto& p : points) steps += estimate_work(*p.model, p.workload).steps();
  const double evaluations = std::floor(limit::kCallSteps / steps);
  if (evaluations < 2 + 51.0 * static_cast<double>(params.size()))
    throw InputError("workload.too_much_work", "/points",
                     "/points: the " + std::to_string(points.size()) + " points take " + number_text(json(steps)) +
                         " steps per evaluation, and a search over " + std::to_string(params.size()) +
                         " parameters needs at least " + std::to_string(2 + 51 * params.size()) + " evaluations: past the limit of " +
                         number_text(json(limit::kCallSteps)) + " steps; expected fewer points or lighter workloads");
  const CalibrationResult res = calibrate(*hw, points, params, static_cast<int>(std::min(evaluations, 1e9)));
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
  out.id = hw->id + "-calibrated";
  out.name = hw->name + " (calibrated)";
  out.source = hw->source + "; efficiencies calibrated by infercast from " + std::to_string(points.size()) + " measured points";
  return {{"fitted_parameters", fitted_names},
          {"start", efficiency_to_json(res.start)},
          {"fitted", efficiency_to_json(res.fitted)},
          {"points", pts},
          {"rms_log_error_before", res.rms_log_error_before},
          {"rms_log_error_after", res.rms_log_error_after},
          {"evaluations", res.evaluations},
          {"stopped_at_work_limit", res.stopped},
          {"hardware", hardware_to_json(out)}};
}

}  // namespace infercast
