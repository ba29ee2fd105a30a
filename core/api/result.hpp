// Result writing (docs/schema.md): the JSON of models, operators, precisions, costs and plans. Every number a
// result carries passes through these writers.
#pragma once

#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/offload.hpp"
#include "api/request.hpp"
#include "cost/cost.hpp"
#include "io/json_reader.hpp"
#include "parallel/parallel.hpp"
#include "serving/serving.hpp"

namespace infercast {

// A derived number as a result carries it: unchanged. It used to write NaN and infinities as 0, which hid them (a TPOT of
// "0.00 us"); the one finiteness check is now the envelope's (api/registry.cpp), which refuses such a result and names
// where, and the input ranges (io/fields.cpp) keep every result finite.
double finite(double v);
json warnings_json(const std::vector<Warning>& ws);
// The runtime an analysis ran under and what it resolved to on the device (efficiencies, launches, fusion).
json execution_json(const Execution& x, const HardwareSpec& hw);
json params_json(const ParamCounts& p);
json groups_json(const std::vector<LayerGroup>& groups);
json model_json(const ResolvedModel& rm, const ParamCounts& p, const std::vector<LayerGroup>& groups);
json ops_json(const Phase& p, const char* phase);
json precision_json(const Precision& p, const ModelSpec& m);
json totals_json(const PhaseTotals& t);
json cost_json(const CostReport& c, const CostAssumptions& a);
// A cost per token is known when the device has a price or a power (one share, labelled, when it has only one);
// CO2 when it has a power or an embodied carbon. Unknown values are written as null with a reason, never as 0.
bool usd_known(const CostReport& c);
bool co2_known(const CostReport& c);
// True when some operator had no compute peak to run at: its times count memory and dispatch only, so TTFT and TPOT
// are lower bounds (and throughputs upper bounds).
bool lower_bound(const std::vector<Warning>& ws);
json comm_json(const StepComm& c);
json plan_brief(const ParallelPlan& p);
json plan_json(const PlanForecast& f, const System& sys);
json speculative_json(const PlanForecast& f);
// Serving (docs/schema.md, "serving"): percentiles, rates, the engine's counts, the scheduler's limits, memory,
// and the energy and cost of serving (the whole run as one phase).
json percentiles_json(const Percentiles& p);
json serving_json(const ServingResult& r);
json scheduler_json(const SchedulerLimits& l, const SchedulerSpec& spec);
json serving_memory_json(const ServingMemory& m);
json serving_cost_json(const CostReport& c, const CostAssumptions& a);
json offload_json(const OffloadResult& o, const OffloadSpec& spec);
// peaks.cpp: {dtype, TFLOPS, estimated, memory_only, derivation?} of the peak the first step's largest operator ran
// at; and, for a device without any peak, a sentence suggesting one (from its architecture, else its class).
json peak_json(const Analysis& a, const HardwareSpec& hw);
std::string peak_suggestion(const HardwareSpec& hw);

}  // namespace infercast
