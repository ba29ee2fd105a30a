// Result writing (docs/schema.md): the JSON of models, operators, precisions, costs and plans. Every number a
// result carries passes through these writers.
#pragma once

#include <vector>

#include "analysis/analysis.hpp"
#include "api/request.hpp"
#include "cost/cost.hpp"
#include "io/json_reader.hpp"
#include "parallel/parallel.hpp"

namespace infercast {

// A derived number as a result carries it: unchanged. It used to write NaN and infinities as 0, which hid them (a TPOT of
// "0.00 us"); the one finiteness check is now the envelope's (api/registry.cpp), which refuses such a result and names
// where, and the input ranges (io/fields.cpp) keep every result finite.
double finite(double v);
json warnings_json(const std::vector<Warning>& ws);
json params_json(const ParamCounts& p);
json groups_json(const std::vector<LayerGroup>& groups);
json model_json(const ResolvedModel& rm, const ParamCounts& p, const std::vector<LayerGroup>& groups);
json ops_json(const Phase& p, const char* phase);
json precision_json(const Precision& p, const ModelSpec& m);
json totals_json(const PhaseTotals& t);
json cost_json(const CostReport& c, const CostAssumptions& a);
json comm_json(const StepComm& c);
json plan_brief(const ParallelPlan& p);
json plan_json(const PlanForecast& f, const System& sys);
json speculative_json(const PlanForecast& f);

}  // namespace infercast
