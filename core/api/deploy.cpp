// The deploy operation: every deployment of a model on N devices (or a system) under a runtime, the Pareto front of
// tokens/s per user against tokens/s per device, the best under a TTFT/TPOT SLA and how to launch it
// (docs/schema.md, "deploy").
#include <cstdio>

#include "api/operations.hpp"
#include "api/options.hpp"
#include "api/request.hpp"
#include "api/result.hpp"
#include "io/presets.hpp"
#include "io/system_json.hpp"
#include "serving/deploy.hpp"

namespace infercast {

namespace {

// The Hugging Face id a preset's source names ("https://huggingface.co/org/name ..."), else its id.
std::string repo_of(const ResolvedModel& rm) {
  const std::string key = "huggingface.co/";
  const auto at = rm.source.find(key);
  if (at == std::string::npos) return rm.id.empty() || rm.id == "custom" ? "MODEL" : rm.id;
  std::string r = rm.source.substr(at + key.size());
  const auto end = r.find_first_of(" ()\t,;");
  if (end != std::string::npos) r = r.substr(0, end);
  while (!r.empty() && (r.back() == '/' || r.back() == '.')) r.pop_back();
  return r.empty() ? rm.id : r;
}

std::string fmt(double v, const char* f) {
  char b[48];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string plan_text(const ParallelPlan& p) {
  std::string s = "TP" + std::to_string(p.tp);
  if (p.pp > 1) s += " PP" + std::to_string(p.pp);
  if (p.ep > 1) s += " EP" + std::to_string(p.ep);
  return s;
}

std::string explain(const DeployConfig& c) {
  std::string s;
  if (c.disaggregated) {
    s = std::to_string(c.prefill.dp) + " prefill instance(s) of " + plan_text(c.prefill) + " and " + std::to_string(c.plan.dp) +
        " decode instance(s) of " + plan_text(c.plan) + " (" + std::to_string(c.prefill.dp) + "P" + std::to_string(c.plan.dp) +
        "D, " + std::to_string(c.devices) + " devices); each decode instance runs " + std::to_string(c.batch) +
        " requests; each prompt's KV cache crosses in " + fmt(c.kv_transfer_s * 1e3, "%.2f") + " ms; the prefill pool is " +
        fmt(c.prefill_utilization * 100, "%.0f") + "% busy (" + fmt(c.balanced_ratio, "%.2f") +
        " prefill instances per decode instance would balance them)";
  } else {
    s = std::to_string(c.plan.dp) + " replica(s) of " + plan_text(c.plan) + " (" + std::to_string(c.devices) +
        " devices), each running up to " + std::to_string(c.batch) + " requests with " + std::to_string(c.token_budget) +
        " new tokens per step";
  }
  return s + ": TTFT " + fmt(c.ttft_s * 1e3, "%.1f") + " ms, TPOT " + fmt(c.tpot_s * 1e3, "%.2f") + " ms (" +
         fmt(c.tokens_per_s_per_user, "%.1f") + " tokens/s per user), " + fmt(c.tokens_per_s_per_device, "%.1f") +
         " output tokens/s per device";
}

json config_json(const DeployConfig& c) {
  json j = {{"mode", c.disaggregated ? "disaggregated" : "aggregated"},
            {"plan", plan_brief(c.plan)},
            {"batch", c.batch},
            {"max_num_batched_tokens", c.token_budget},
            {"devices", c.devices},
            {"ttft_s", finite(c.ttft_s)},
            {"tpot_s", finite(c.tpot_s)},
            {"e2e_s", finite(c.e2e_s)},
            {"tokens_per_s_per_user", finite(c.tokens_per_s_per_user)},
            {"tokens_per_s_per_device", finite(c.tokens_per_s_per_device)},
            {"output_tokens_per_s", finite(c.output_tokens_per_s)},
            {"requests_per_s", finite(c.requests_per_s)},
            {"meets_sla", c.meets_sla},
            {"explanation", explain(c)}};
  if (c.disaggregated) {
    j["prefill"] = plan_brief(c.prefill);
    j["xPyD"] = std::to_string(c.prefill.dp) + "P" + std::to_string(c.plan.dp) + "D";
    j["kv_transfer_s"] = finite(c.kv_transfer_s);
    j["prefill_utilization"] = finite(c.prefill_utilization);
    j["balanced_ratio"] = finite(c.balanced_ratio);
  }
  return j;
}

}  // namespace

json api_deploy(const json& request, Run run) {
  Reader r(request, "", "request");
  Inputs in;
  read_inputs(r, in);
  if (r.has("parallel")) r.fail("parallel", "conflict", "/parallel fixes a plan; deploy searches them all: give /deploy/devices instead");
  if (r.has("workload"))
    r.fail("workload", "conflict", "/workload describes a static batch; deploy reads its lengths from /serving/isl and /serving/osl");
  r.raw("workload");
  r.raw("parallel");
  MultiInputs mi;
  DeploySpec spec;
  int devices = 0;
  {
    static const json kNone = json::object();
    const bool given = r.has("deploy");
    if (!given) r.raw("deploy");
    Reader d = given ? r.object("deploy") : Reader(kNone, "/deploy", "request");
    const bool has_devices = d.has("devices");
    devices = static_cast<int>(read_field(d, field::deploy_devices));
    spec.max_ttft_s = read_field(d, field::deploy_max_ttft_ms) / 1e3;
    spec.max_tpot_s = read_field(d, field::deploy_max_tpot_ms) / 1e3;
    spec.disaggregated = read_enum(d, "disaggregated", disagg_mode_names(), DisaggMode::Auto);
    spec.max_tp = static_cast<int>(read_field(d, field::deploy_max_devices_per_pool));
    d.reject_unknown();
    read_multi(r, in, mi, true);
    if (r.has("system")) {
      if (has_devices && devices > mi.sys.devices())
        d.fail("devices", "out_of_range", "/deploy/devices holds " + std::to_string(devices) + "; the system \"" + mi.sys.name +
                                              "\" has " + std::to_string(mi.sys.devices()) + "; expected at most that many");
      if (!has_devices) devices = mi.sys.devices();
    } else {
      if (devices > 1 && in.hw->interconnect_bytes_per_s <= 0)
        d.fail("devices", "missing_link", "/deploy/devices holds " + std::to_string(devices) + " and " + in.hw->name +
                                              " has no interconnect_GBps; expected a /system with its link");
      mi.sys = single_node_system(*in.hw, devices);
    }
  }
  if (mi.spec.enabled()) r.fail("speculative", "conflict", "/speculative is not modelled under serving yet; expected no /speculative");
  const Workload w = read_workload(r, in.rm.spec, in.sc, in.hw, in.rt);
  const ServingRequest sr = read_serving(r, true);
  spec.load = sr.load;
  const CostAssumptions costs = read_costs(r);
  r.reject_unknown();
  if (run == Run::check) return nullptr;
  const DeployResult res = deploy_search(in.rm.spec, w, mi.sys, devices, spec);
  const std::string repo = repo_of(in.rm);
  json front = json::array();
  for (const auto& c : res.front) front.push_back(config_json(c));
  json out = {{"front", front},
              {"evaluated", res.evaluated},
              {"feasible", res.feasible},
              {"layouts", res.layouts},
              {"pool_size_ratio", res.pool_size_ratio},
              {"devices", devices},
              {"sla", {{"max_ttft_s", spec.max_ttft_s}, {"max_tpot_s", spec.max_tpot_s}, {"statistic", "mean (steady state)"}}},
              {"disaggregated", disagg_mode_names().name(spec.disaggregated)},
              {"load", {{"isl", spec.load.isl.mean}, {"osl", spec.load.osl.mean}, {"prefix_hit_rate", spec.load.prefix_hit_rate}}},
              {"model", {{"id", in.rm.id}, {"name", in.rm.name}, {"repo", repo}}},
              {"runtime", w.runtime ? w.runtime->id : "reference"},
              {"system", system_to_json(mi.sys)},
              {"best", nullptr}};
  if (res.has_best) {
    json b = config_json(res.best);
    const LaunchCommands lc = launch_commands(res.best, repo, w);
    b["launch"] = {{"vllm", lc.vllm}, {"sglang", lc.sglang}, {"trtllm", lc.trtllm}};
    if (!res.best.disaggregated) {
      // The best aggregated deployment's energy and cost, from its steady state.
      ServingLoad load = spec.load;
      load.concurrency = static_cast<double>(res.best.batch * res.best.plan.dp);
      ParallelPlan one = res.best.plan;
      const ServingForecast f = forecast_serving(in.rm.spec, w, mi.sys, one, load, res.best.batch, res.best.token_budget, false);
      const CostReport cost = work_cost_report(mi.sys.device, costs, res.best.devices, f.steady.work_compute_s * one.dp,
                                               f.steady.work_memory_s * one.dp, f.steady.duration_s,
                                               f.steady.output_tokens_per_s * f.steady.duration_s);
      b["cost"] = serving_cost_json(cost, costs);
    }
    out["best"] = b;
  }
  out["warnings"] = warnings_json(res.warnings);
  return out;
}

}  // namespace infercast
