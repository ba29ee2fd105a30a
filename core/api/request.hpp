// Request reading (docs/schema.md): what every operation reads first, each field checked with a message that names
// its path. Ranges and defaults come from api/options.hpp.
#pragma once

#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/offload.hpp"
#include "cost/cost.hpp"
#include "hardware/hardware.hpp"
#include "io/json_reader.hpp"
#include "parallel/parallel.hpp"
#include "quant/weight_format.hpp"
#include "runtime/runtime.hpp"
#include "scenario/scenario.hpp"
#include "serving/serving.hpp"

namespace infercast {

// A model as a request names it: a preset id, a preset document or a bare config.json.
struct ResolvedModel {
  ModelSpec spec;
  std::string id;
  std::string name;
  std::string source;
  std::string stated_total, stated_active;
};
ResolvedModel resolve_model(Reader& r);

// The request's "hardware": a preset id or a hardware object (parsed into `storage`); nullptr when absent.
const HardwareSpec* resolve_hardware(Reader& r, HardwareSpec& storage);

// A format field (`fallback` when absent) and a list of formats (a sweep axis).
DType dtype_field(Reader& r, const std::string& key, const std::string& fallback);
std::vector<DType> dtype_list(Reader& r, const std::string& key, const std::vector<std::string>& fallback);
// Weight formats (quant/weight_format.hpp applies one): a list of them (a sweep axis) is checked name by name.
std::vector<std::string> weight_format_list(Reader& r, const std::string& key, const std::vector<std::string>& fallback);

CostAssumptions read_costs(Reader& r);
const Scenario* read_scenario(Reader& r);
void apply_mla_conversion(Reader& r, ModelSpec& m, const Scenario* sc);
// The request's "runtime": a preset id or a runtime object (parsed into `storage`); nullptr when absent.
const RuntimeSpec* resolve_runtime(Reader& r, RuntimeSpec& storage);
// The runtime an analysis runs under: the one the request names, else the reference stack for LIFE's convention and
// scenarios (their tables assume no fusion), else the device's default (presets/defaults/default_runtimes.json).
const RuntimeSpec* choose_runtime(const RuntimeSpec* given, const HardwareSpec* hw, const Workload& w, const Scenario* sc);
// The workload and its settings: requests, precisions, convention, optimizations, timing, placement, and the
// runtime with the fusions and kernels it brings (the request's own settings override them).
Workload read_workload(Reader& req, const ModelSpec& m, const Scenario* sc, const HardwareSpec* hw = nullptr,
                       const RuntimeSpec* rt = nullptr);

// The request's "offload": layers kept in host memory, as llama.cpp's -ngl (docs/schema.md, "offload"). Returns
// false when absent; needs the device (hw) the other layers run on.
bool read_offload(Reader& r, const HardwareSpec* hw, OffloadSpec& out);

// What analyze, quant_sweep and sweep read first: the model (converted by a scenario or convert_mla), the
// scenario and the device. Filled in place: `hw` may point into `hw_storage`.
struct Inputs {
  ResolvedModel rm;
  const Scenario* sc = nullptr;
  HardwareSpec hw_storage;
  const HardwareSpec* hw = nullptr;
  RuntimeSpec rt_storage;
  const RuntimeSpec* rt = nullptr;  // as the request names it; read_workload chooses the default
};
void read_inputs(Reader& r, Inputs& in);

// Several devices, speculative decoding: /system (a preset id, or an object whose device defaults to /hardware),
// /parallel {tp, pp, ep, dp, algorithm} and /speculative {model | draft: "mtp", draft_tokens, acceptance}.
struct MultiInputs {
  bool active = false;  // any of the three given (or `force`): the result carries a plan forecast
  System sys;
  ParallelPlan plan;
  Speculative spec;
  ResolvedModel draft;
  bool plan_defaulted = false;  // a system and no /parallel: default_plan's node plan, settled once the workload is read
  Warning plan_note;            // why the default plan spans the nodes, or that it leaves devices idle (empty code: none)
  double search_analyses = 0;   // analyses the default plan's search ran (settle_default_plan)
  bool plan_holds = true;       // false: no default plan over the nodes holds the model (settle_default_plan)
};
void read_multi(Reader& r, Inputs& in, MultiInputs& mi, bool force);
// A defaulted plan on a system of several nodes, settled for the workload (parallel/parallel.hpp, default_plan_for),
// each forecast of its search checked against the work limits before it runs; call before the plan's own work check.
void settle_default_plan(MultiInputs& mi, const ModelSpec& m, const Workload& w);
// Serving's default plan on a system: settle_default_plan for one request of the load's mean lengths (what a replica
// must hold, serving.does_not_fit), then the devices it leaves idle run more replicas of it, each spread over its
// share (parallel/parallel.hpp, serving_plan_filling). Layer-split runtimes keep their plan.
void settle_serving_plan(MultiInputs& mi, const ModelSpec& m, const Workload& w, double isl, double osl);
// check_work for `analyses` more analyses of `w` after the default plan's search: the call's work is checked whole,
// the search's and the forecast's together, so neither can pass the limits on the other's share.
void check_call_work(const MultiInputs& mi, const ModelSpec& m, const Workload& w, double analyses, const std::string& what);
// Analyses one forecast runs, for the work limits (analysis/work.hpp): the single-device analysis, and with a plan
// each pipeline stage's (parallel/parallel.hpp, plan_forecast_analyses); with an offload split, the tries of its search (a bisection over the
// layers), the host's share and the host layers on the device.
double plan_analyses(const MultiInputs& mi);
double offload_analyses(const ModelSpec& m);

// /serving: the load (concurrency or rate, lengths and their distributions, prefix hits, requests simulated, seed)
// and the scheduler overrides. `deploy`: only the lengths and prefix hits (a deployment search chooses the rest).
struct ServingRequest {
  ServingLoad load;
  long long max_num_seqs = 0, token_budget = 0;
  int scheduler_steps = 0;  // 0: the runtime's
  bool simulate = true;
};
ServingRequest read_serving(Reader& r, bool deploy);

}  // namespace infercast
