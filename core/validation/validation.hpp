// Forecasts against measurements made by others (presets/validation/measured_public.csv, a copy of
// shared/validation with its sources). Each covered row is mapped to a model preset, a hardware preset, data
// types and a workload, forecast with the device's default efficiencies (no per-row tuning), and compared.
#pragma once

#include <string>
#include <vector>

#include "io/csv.hpp"

namespace infercast {

struct ValidationRow {
  std::string row_id, source_id, model, hardware, metric, unit;
  std::string framework;  // the runtime that was measured (llama.cpp Metal, TensorRT-LLM, ...)
  std::string group;  // prefill | decode | e2e
  std::string model_id, hardware_id, weights, activations, kv;
  double batch = 0, prompt = 0, gen = 0;
  double devices = 1;
  std::string system_id;  // multi-device rows: the system preset they are forecast on
  double measured = 0, forecast = 0;
  double error = 0;  // forecast / measured - 1
  bool covered = false;
  std::string reason;  // why a row is not covered
};

struct ValidationGroup {
  std::string name;
  int rows = 0;
  double median_abs_error = 0;
  double p90_abs_error = 0;
  double median_signed_error = 0;
};

struct ValidationReport {
  std::vector<ValidationRow> rows;
  std::vector<ValidationGroup> groups;  // prefill, decode, e2e
};

ValidationReport validate(const std::vector<CsvRecord>& records);
// Median and 90th-percentile absolute error and median signed error of the covered rows, per group.
std::vector<ValidationGroup> summarize(const std::vector<ValidationRow>& rows);
const std::string& embedded_measurements();  // the CSV text embedded from presets/validation/

}  // namespace infercast
