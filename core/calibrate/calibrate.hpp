// Calibration: from measured points (TTFT, TPOT, tokens/s at stated settings) fit a device's efficiencies, so
// forecasts match a user's own stack. Least squares on log(forecast / measured), each efficiency searched in
// log space within its bounds (docs/forecast.md, "Calibration").
#pragma once

#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "util/names.hpp"

namespace infercast {

enum class Metric { TtftS, TpotS, TpotFirstS, DecodeTokensPerS, PromptTokensPerS, E2eS, OutputTokensPerS };
const NameTable<Metric>& metric_names();
inline const char* metric_name(Metric m) { return metric_names().name(m); }
double metric_value(const Analysis& a, const Workload& w, Metric m);

struct CalibrationPoint {
  const ModelSpec* model = nullptr;
  Workload workload;
  Metric metric = Metric::TpotS;
  double measured = 0;
};

enum class EffParam { Gemm, GemmLow, Attention, Elementwise, Memory, Dispatch };
const NameTable<EffParam>& eff_param_names();
inline const char* eff_param_name(EffParam p) { return eff_param_names().name(p); }

struct CalibrationResult {
  // The efficiencies the search starts from (what the points ran with before: the device's stated ones, else its
  // runtime's, else its class's) and the fitted ones, which the device then states (`fitted_bits`).
  Efficiencies start, fitted;
  unsigned fitted_bits = 0;  // kEff* bits of the fitted efficiencies: a saved device states these
  std::vector<EffParam> params;
  std::vector<double> forecast_before, forecast_after;  // per point
  double rms_log_error_before = 0, rms_log_error_after = 0;
  int evaluations = 0;
  bool stopped = false;  // the search stopped at `max_evaluations` before it settled
};

// `max_evaluations` bounds the work (each evaluation analyzes every point): the search stops at a whole sweep over
// the parameters that would pass it, keeping the best values so far.
unsigned eff_bit(EffParam p);  // the HardwareSpec::eff_given bit of an efficiency

CalibrationResult calibrate(const HardwareSpec& hw, const std::vector<CalibrationPoint>& points,
                            const std::vector<EffParam>& params, int max_evaluations = 1 << 30);

}  // namespace infercast
