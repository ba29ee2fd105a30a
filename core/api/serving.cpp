// The serving operation: a model served under continuous batching by a runtime on a device or a plan, at a
// concurrency or a request rate (docs/schema.md, "serving").
#include "api/operations.hpp"
#include "api/request.hpp"
#include "api/result.hpp"
#include "io/hardware_json.hpp"
#include "io/system_json.hpp"

namespace infercast {

json api_serving(const json& request, Run run) {
  Reader r(request, "", "request");
  Inputs in;
  read_inputs(r, in);
  MultiInputs mi;
  read_multi(r, in, mi, true);
  if (r.has("workload"))
    r.fail("workload", "conflict",
           "/workload describes a static batch; serving reads its lengths and load from /serving (isl, osl, concurrency or request_rate)");
  r.raw("workload");
  if (mi.spec.enabled())
    r.fail("speculative", "conflict", "/speculative is not modelled under serving yet; expected no /speculative");
  const Workload w = read_workload(r, in.rm.spec, in.sc, in.hw, in.rt);
  const ServingRequest sr = read_serving(r, false);
  const CostAssumptions costs = read_costs(r);
  r.reject_unknown();
  if (run == Run::check) return nullptr;
  settle_serving_plan(mi, in.rm.spec, w, sr.load.isl.mean, sr.load.osl.mean);
  const ServingForecast f = forecast_serving(in.rm.spec, w, mi.sys, mi.plan, sr.load, sr.max_num_seqs, sr.token_budget, sr.simulate,
                                             sr.scheduler_steps);
  const ServingResult& main = f.has_simulation ? f.simulated : f.steady;
  json out = serving_json(main);
  out["method"] = f.has_simulation ? "simulation" : "steady-state";
  json steady = serving_json(f.steady);
  steady.erase("engine");
  steady["mean_batch"] = finite(f.steady.mean_batch);
  steady["mean_step_s"] = finite(f.steady.mean_step_s);
  out["steady_state"] = steady;
  const ServingLoad& l = f.load;  // as served: a hit rate the runtime cannot use reads 0
  out["load"] = {{"concurrency", l.concurrency},
                 {"request_rate", l.request_rate},
                 // Served: every busy replica's (or pipeline stream's) share; the steady state simulates none.
                 {"requests", f.has_simulation ? main.requests * main.replicas : l.requests},
                 {"isl", l.isl.mean},
                 {"osl", l.osl.mean},
                 {"isl_distribution", length_kind_names().name(l.isl.kind)},
                 {"osl_distribution", length_kind_names().name(l.osl.kind)},
                 {"isl_spread", l.isl.spread},
                 {"osl_spread", l.osl.spread},
                 {"prefix_hit_rate", l.prefix_hit_rate},
                 {"seed", l.seed}};
  const RuntimeSpec* rt = w.runtime;
  out["scheduler"] = scheduler_json(f.setup.limits, rt ? rt->scheduler : SchedulerSpec{});
  out["memory"] = serving_memory_json(f.setup.memory);
  out["memory"]["kv_peak_fraction"] = finite(main.memory.kv_peak_fraction);
  out["memory"]["kv_mean_fraction"] = finite(main.memory.kv_mean_fraction);
  out["memory"]["max_concurrency"] = finite(main.memory.max_concurrency);
  out["plan"] = plan_brief(mi.plan);
  out["devices"] = mi.plan.devices();
  out["system"] = system_to_json(mi.sys);
  out["model"] = {{"id", in.rm.id}, {"name", in.rm.name}};
  out["execution"] = execution_json(f.steps.front().execution(), mi.sys.device);
  out["precision"] = precision_json(w.settings.precision, in.rm.spec);
  const CostReport cost = work_cost_report(mi.sys.device, costs, mi.plan.devices(), main.work_compute_s * mi.plan.dp,
                                           main.work_memory_s * mi.plan.dp, main.duration_s,
                                           main.output_tokens_per_s * main.duration_s);
  out["cost"] = serving_cost_json(cost, costs);
  std::vector<Warning> warns = main.warnings;
  if (!mi.plan_note.code.empty()) warns.insert(warns.begin(), mi.plan_note);
  out["warnings"] = warnings_json(warns);
  return out;
}

}  // namespace infercast
