// Forecasts against measurements made by others (presets/validation/measured_public.csv: the rows of
// shared/validation and more public sources, each row with the runtime that produced it). Each covered row is mapped
// to a model preset, a hardware preset (or a system and a tensor-parallel plan), a runtime, data types and a
// workload, forecast with the shipped defaults (no per-row tuning), and compared. Beside these in-sample figures,
// leave-one-source-out: every runtime's class parameters refitted from their physics priors without one source's
// rows, then that source forecast (docs/forecast.md, "Validation").
#pragma once

#include <string>
#include <vector>

#include "analysis/trace.hpp"
#include "hardware/hardware.hpp"
#include "io/csv.hpp"
#include "runtime/params.hpp"

namespace infercast {

struct ValidationRow {
  std::string row_id, source_id, source_group, model, hardware, metric, unit, runtime;
  std::string group;  // prefill | decode | e2e | serving
  std::string model_id, hardware_id, weights, activations, kv;
  double batch = 0, prompt = 0, gen = 0;
  double devices = 1;
  std::string system_id;  // multi-device rows: the system preset they are forecast on
  double measured = 0, forecast = 0;
  double error = 0;  // forecast / measured - 1
  bool covered = false;
  std::string reason;  // why a row is not covered
  double loso_forecast = 0, loso_error = 0;  // with its source group left out of every fit
  bool loso = false;
};

struct ValidationGroup {
  std::string name;
  int rows = 0;
  double median_abs_error = 0;
  double p90_abs_error = 0;
  double median_signed_error = 0;
};

struct SourceError {
  std::string source_group;
  int rows = 0;
  double in_sample_median_abs_error = 0, loso_median_abs_error = 0;
};

// A runtime's class parameters as a fit leaves them.
struct RuntimeFitResult {
  std::string runtime;
  int rows = 0;
  std::vector<std::string> sources;
  std::vector<std::pair<RtParam, double>> values;
};

struct ValidationReport {
  std::vector<ValidationRow> rows;
  std::vector<ValidationGroup> groups;       // prefill, decode, e2e with the shipped defaults (in sample)
  std::vector<ValidationGroup> loso_groups;  // the same rows, each forecast with its source group left out of the fits
  std::vector<SourceError> by_source;
  std::vector<RuntimeFitResult> fits;        // every runtime fitted on all its rows (what runtime_fits.json holds)
  double collective_wait_us = 0;             // the collectives' wait fitted over every tensor-parallel static row (the same file)
  bool collective_wait_fitted = false;       // false: no static row waits, the shipped wait stands
  int collective_wait_rows = 0;              // the static rows whose steps wait on collectives
  std::vector<std::string> collective_wait_sources;  // their source groups
  double fit_blocks = 0;  // the fits' work as the limit counts it (docs/schema.md, "Limits": fit_blocks)
};


struct ValidationOptions {
  bool cross_validate = true;  // refit without each source group (leave-one-source-out)
  bool check_only = false;     // every record read, mapped and its work checked; nothing forecast or fitted (build_cases)
};

ValidationReport validate(const std::vector<CsvRecord>& records, const ValidationOptions& opt = {});
// Median and 90th-percentile absolute error and median signed error of the covered rows, per group: in sample, or
// leaving each row's source out (loso). The page and `validate --class` summarize a device class this way.
std::vector<ValidationGroup> summarize(const std::vector<ValidationRow>& rows, bool loso);
const std::string& embedded_measurements();  // the CSV text embedded from presets/validation/

}  // namespace infercast
