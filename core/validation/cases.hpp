// Internal to validation/: a measurement mapped to what the forecaster runs, forecast once, with the step blocks its
// time came from (analysis/trace.hpp) so that it can be re-timed under other runtime parameters in microseconds
// (cases.cpp), and the class fits over such cases (fit.cpp).
#pragma once

#include <string>
#include <vector>

#include <map>
#include <memory>

#include "analysis/analysis.hpp"
#include "io/csv.hpp"
#include "io/defaults.hpp"
#include "validation/validation.hpp"

namespace infercast {

enum class MetricKind { Ttft, PromptThroughput, OutputThroughput, E2e, Tpot, DecodeThroughput, DecodeAggregate };

struct ServingCase;  // serving_cases.cpp: a serving run kept for re-timing

struct StageTrace {
  std::vector<StepBlock> prefill, decode;
};

struct Case {
  std::size_t row = 0;  // index into the report's rows
  const HardwareSpec* hw = nullptr;
  const RuntimeSpec* rt = nullptr;
  MetricKind kind = MetricKind::Tpot;
  bool from_empty = false;  // llama-bench tgN: N one-token steps from an empty cache
  double to_unit = 1;       // seconds to the row's unit
  double batch = 1, prompt = 0, gen = 1, devices = 1, measured = 0;
  Timing timing = Timing::PerOp;
  std::vector<StageTrace> stages;  // one per pipeline stage (one for a single device)
  // Communication without the collectives' waits (each `prefill_waits` / `decode_waits` call waits the runtime's
  // collective_wait_s, added when re-timed), and the decode steps.
  double prefill_comm = 0, decode_comm = 0, decode_steps = 0;
  double prefill_waits = 0, decode_waits = 0;
  std::shared_ptr<ServingCase> serving;  // serving rows: the run (shared by the metrics measured on it)
  int serving_metric = 0, serving_stat = 0;  // serving rows: what is measured and which statistic
};

// A static case whose steps wait on collectives (tensor or expert parallelism): what the collectives' wait is fitted on.
inline bool waits_on_collectives(const Case& c) { return !c.serving && c.prefill_waits + c.decode_waits > 0; }
// The step blocks re-timing a case times (every stage's prefill and decode blocks): a fit's work per evaluation.
double case_blocks(const Case& c);

// Record helpers shared by the static and the serving rows (cases.cpp).
// A numeric cell from 0 to `hi` (positive ones at least `tiny`); empty is 0 (cases.cpp).
double csv_number(const CsvRecord& r, const std::string& k, std::size_t index, double hi = 1e12, double tiny = 0);
std::string csv_cell(const CsvRecord& r, const std::string& k);
std::string lookup_name(const std::vector<ValidationNames::Name>& list, const std::string& name, bool fold_case);
std::string hardware_id(const std::string& name);
bool formats(const std::string& weights, const std::string& act_kv, std::string& w, std::string& a, std::string& kv);
std::string system_id(const std::string& hardware);
bool parallel_sizes(const std::string& p, int& tp, int& pp);
// Why a row cannot be mapped, by the checks the static and the serving rows share (model, device and runtime
// presets, its parallelism over its devices, their system, its formats, a measured value), in that order; empty when
// they all pass (`v`'s formats are then set). `devices` is the row's device count, `tp` and `pp` its parallelism's.
std::string unmapped_reason(const CsvRecord& r, ValidationRow& v, const HardwareSpec* hw, const RuntimeSpec* rt,
                            double devices, int& tp, int& pp);
// The attention kernels a row ran: its notes' llama.cpp flag (-fa 0/1/off/on), else the runtime's default.
AttnImpl row_attention(const std::string& notes, const RuntimeSpec& rt);

// A serving row (metric serving_*): mapped to a serving run (the load from its notes, serving_cases.cpp) and
// forecast; `v` says why when it is not covered. Runs shared by several metrics are built once (`runs`).
void build_serving_case(const CsvRecord& r, std::size_t index, ValidationRow& v, std::vector<Case>& cases, std::size_t row,
                        std::vector<std::shared_ptr<ServingCase>>& runs, bool check_only = false);
double serving_case_value(const Case& c, const RuntimeSpec& rt);

// Maps every record to a row (covered or with the reason it is not) and forecasts the covered ones with the shipped
// defaults, keeping each one's blocks. With `check_only`, every record is read, mapped and its work checked, and
// nothing is forecast: no row is covered and no case is made (the `check` call, docs/schema.md).
void build_cases(const std::vector<CsvRecord>& records, std::vector<ValidationRow>& rows, std::vector<Case>& cases,
                 bool check_only = false);

// The case's metric, in the row's unit, with `rt`'s parameters in place of the shipped ones.
double case_value(const Case& c, const RuntimeSpec& rt);

// Fits `base`'s class parameters (those its preset states a prior for) to the cases, starting from the priors:
// least squares on log(forecast / measured), each source group weighted equally, a faint pull towards each prior.
RuntimeSpec fit_runtime(const RuntimeSpec& base, const std::vector<const Case*>& cases, const std::vector<ValidationRow>& rows,
                        std::vector<std::pair<RtParam, double>>* values = nullptr);

}  // namespace infercast
