// Result writing (docs/schema.md): models, operators, precisions, costs and plans, written straight to the output
// text by a JsonWriter (no tree of values in between). Every number a result carries passes through these writers.
// The *_json functions return the same documents as trees, for the calls that still assemble trees.
#pragma once

#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/offload.hpp"
#include "api/request.hpp"
#include "cost/cost.hpp"
#include "io/json_reader.hpp"
#include "io/json_writer.hpp"
#include "parallel/parallel.hpp"
#include "serving/serving.hpp"
#include "util/names.hpp"

namespace infercast {

// A derived number as a result carries it: unchanged. It used to write NaN and infinities as 0, which hid them (a TPOT of
// "0.00 us"); the one finiteness check is now the envelope's (api/registry.cpp), which refuses such a result and names
// where, and the input ranges (io/fields.cpp) keep every result finite.
double finite(double v);

// How a result's tables (operators, the decode timeline) come back: an array of objects, or one array per field.
enum class TableLayout { Rows, Columns };
const NameTable<TableLayout>& table_layout_names();

void write_warnings(JsonWriter& w, const std::vector<Warning>& ws);
json warnings_json(const std::vector<Warning>& ws);
// The efficiencies an analysis runs with, each term its kernels reach: GEMMs (and those in 8 bits or fewer),
// attention, elementwise, weight and KV-cache streaming, the gap per kernel launched alone and inside a graph.
void write_run_efficiency(JsonWriter& w, const Execution& x);
json run_efficiency_json(const Execution& x);
// The runtime an analysis ran under and what it resolved to on the device (efficiencies, launches, fusion).
void write_execution(JsonWriter& w, const Execution& x, const HardwareSpec& hw);
json execution_json(const Execution& x, const HardwareSpec& hw);
void write_model(JsonWriter& w, const ResolvedModel& rm, const ParamCounts& p, const std::vector<LayerGroup>& groups);
json model_json(const ResolvedModel& rm, const ParamCounts& p, const std::vector<LayerGroup>& groups);
// Both phases' operators as one table at JSON pointer `at` (rows: [{name, phase, ...}]; columns: {layout, rows,
// name: [...], phase: [...], ...}).
void write_ops(JsonWriter& w, const Phase& prefill, const Phase& decode, TableLayout layout, const std::string& at);
void write_timeline(JsonWriter& w, const std::vector<TimelinePoint>& t, TableLayout layout, const std::string& at);
void write_precision(JsonWriter& w, const Precision& p, const ModelSpec& m);
json precision_json(const Precision& p, const ModelSpec& m);
// A phase's totals as fields of the object being written (the caller adds its own fields and closes it).
void write_totals_fields(JsonWriter& w, const PhaseTotals& t);
void write_cost(JsonWriter& w, const CostReport& c, const CostAssumptions& a);
json cost_json(const CostReport& c, const CostAssumptions& a);
// A cost per token is known when the device has a price or a power (one share, labelled, when it has only one);
// CO2 when it has a power or an embodied carbon. Unknown values are written as null with a reason, never as 0.
bool usd_known(const CostReport& c);
bool co2_known(const CostReport& c);
// True when some operator had no compute peak to run at: its times count memory and dispatch only, so TTFT and TPOT
// are lower bounds (and throughputs upper bounds).
bool lower_bound(const std::vector<Warning>& ws);
void write_plan_brief(JsonWriter& w, const ParallelPlan& p);
json plan_brief(const ParallelPlan& p);
void write_plan(JsonWriter& w, const PlanForecast& f, const System& sys, TableLayout layout, const std::string& at);
void write_speculative(JsonWriter& w, const PlanForecast& f);
// result_serving.cpp. Serving (docs/schema.md, "serving"): percentiles, rates, the engine's counts, the scheduler's
// limits, memory, and the energy and cost of serving (the whole run as one phase).
json percentiles_json(const Percentiles& p);
json serving_json(const ServingResult& r);
json scheduler_json(const SchedulerLimits& l, const SchedulerSpec& spec);
json serving_memory_json(const ServingMemory& m);
json serving_cost_json(const CostReport& c, const CostAssumptions& a);
// An analysis's split with the host (analysis/offload.hpp): both parts, the host device, the link.
void write_offload(JsonWriter& w, const OffloadResult& o, const OffloadSpec& spec);
// peaks.cpp: {dtype, TFLOPS, estimated, memory_only, derivation?} of the peak the first step's largest operator ran
// at; and, for a device without any peak, a sentence suggesting one (from its architecture, else its class).
void write_peak(JsonWriter& w, const Analysis& a, const HardwareSpec& hw);
std::string peak_suggestion(const HardwareSpec& hw);

}  // namespace infercast
