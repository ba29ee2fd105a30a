// Result writing (docs/schema.md): models, operators, precisions, costs and plans, written straight to the output
// text by a JsonWriter (no tree of values in between). Every number a result carries passes through these writers.
// The *_json functions return the same documents as trees, for the calls that still assemble trees.
#pragma once

#include <vector>

#include "analysis/analysis.hpp"
#include "api/request.hpp"
#include "cost/cost.hpp"
#include "io/json_reader.hpp"
#include "io/json_writer.hpp"
#include "parallel/parallel.hpp"
#include "util/names.hpp"

namespace infercast {

double finite(double v);  // NaN and infinities as 0 (the finiteness checks upstream make this a last guard)

// How a result's tables (operators, the decode timeline) come back: an array of objects, or one array per field.
enum class TableLayout { Rows, Columns };
const NameTable<TableLayout>& table_layout_names();

void write_warnings(JsonWriter& w, const std::vector<Warning>& ws);
json warnings_json(const std::vector<Warning>& ws);
// The runtime an analysis ran under and what it resolved to on the device (efficiencies, launches, fusion).
void write_execution(JsonWriter& w, const Execution& x, const HardwareSpec& hw);
void write_model(JsonWriter& w, const ResolvedModel& rm, const ParamCounts& p, const std::vector<LayerGroup>& groups);
json model_json(const ResolvedModel& rm, const ParamCounts& p, const std::vector<LayerGroup>& groups);
// Both phases' operators as one table at JSON pointer `at` (rows: [{name, phase, ...}]; columns: {layout, rows,
// name: [...], phase: [...], ...}).
void write_ops(JsonWriter& w, const Phase& prefill, const Phase& decode, TableLayout layout, const std::string& at);
void write_timeline(JsonWriter& w, const std::vector<TimelinePoint>& t, TableLayout layout, const std::string& at);
void write_precision(JsonWriter& w, const Precision& p, const ModelSpec& m);
// A phase's totals as fields of the object being written (the caller adds its own fields and closes it).
void write_totals_fields(JsonWriter& w, const PhaseTotals& t);
void write_cost(JsonWriter& w, const CostReport& c, const CostAssumptions& a);
void write_plan_brief(JsonWriter& w, const ParallelPlan& p);
json plan_brief(const ParallelPlan& p);
void write_plan(JsonWriter& w, const PlanForecast& f, const System& sys, TableLayout layout, const std::string& at);
void write_speculative(JsonWriter& w, const PlanForecast& f);
// peaks.cpp: {dtype, TFLOPS, estimated, memory_only, derivation?} of the peak the first step's largest operator ran
// at; and, for a device without any peak, a sentence suggesting one (from its architecture, else its class).
void write_peak(JsonWriter& w, const Analysis& a, const HardwareSpec& hw);
std::string peak_suggestion(const HardwareSpec& hw);

}  // namespace infercast
