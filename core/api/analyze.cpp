// The analysis operations: analyze (one device or a plan), batching curves, a model's counts, a device checked.
#include "api/operations.hpp"

#include <cmath>

#include "analysis/work.hpp"
#include "api/images.hpp"
#include "analysis/context.hpp"
#include "api/options.hpp"
#include "api/request.hpp"
#include "api/result.hpp"
#include "io/hardware_json.hpp"
#include "io/system_json.hpp"

namespace infercast {

// Checks a hardware document (or names a preset) and returns it as the core reads it: the page validates a
// custom device with this before keeping it.
json api_device(const json& request) {
  Reader r(request, "", "request");
  HardwareSpec storage;
  const HardwareSpec* hw = resolve_hardware(r, storage);
  if (!hw) r.fail("hardware", "missing_field", "/hardware is missing; expected a preset id or a hardware object");
  r.reject_unknown();
  return hardware_to_json(*hw);
}

json api_model(const json& request) {
  Reader r(request, "", "request");
  ResolvedModel rm = resolve_model(r);
  r.reject_unknown();
  const auto p = count_params(rm.spec);
  return model_json(rm, p, group_layers(rm.spec));
}

// What analyze, quant_sweep and sweep read first: the model (converted by a scenario or convert_mla), the

json api_analyze(const json& request) {
  Reader r(request, "", "request");
  Inputs in;
  read_inputs(r, in);
  ResolvedModel& rm = in.rm;
  const Scenario* sc = in.sc;
  const HardwareSpec*& hw = in.hw;
  MultiInputs mi;
  read_multi(r, in, mi, false);
  OffloadSpec off;
  const bool offload = read_offload(r, hw, off);
  if (offload && mi.active)
    r.fail("offload", "conflict", "/offload keeps layers in host memory next to one device; it cannot be combined with "
                                  "/system, /parallel or /speculative");
  Workload w = read_workload(r, rm.spec, sc, hw, in.rt);
  const CostAssumptions costs = read_costs(r);
  r.reject_unknown();
  // A plan analyzes each pipeline stage (and the draft) again.
  if (mi.active) check_work(estimate_work(rm.spec, w), 1 + mi.plan.pp + (mi.spec.enabled() ? 2 : 0), "the plan's stages");
  // Offloading analyzes the device's share for each -ngl its search tries (a bisection), the host's, and the host
  // layers on the device.
  if (offload)
    check_work(estimate_work(rm.spec, w), 4 + std::ceil(std::log2(static_cast<double>(rm.spec.layers.size()) + 2)),
               "the offload split");
  OffloadResult split;
  Analysis a = offload ? analyze_offloaded(rm.spec, w, *hw, off, split) : analyze(rm.spec, w, hw);
  for (auto& wr : context_warnings(rm.spec, w)) a.warnings.push_back(std::move(wr));

  json ops = ops_json(a.prefill, "prefill");
  for (auto& o : ops_json(a.decode, "decode")) ops.push_back(o);
  for (auto& o : ops) o["device"] = o["group"].get<std::string>().rfind("host", 0) == 0 ? "host" : "device";
  json placement = json::array();
  for (const auto& p : a.placement) placement.push_back({{"what", p.what}, {"bytes_per_tier", p.bytes_per_tier}});
  json timeline = json::array();
  for (const auto& t : a.timeline) timeline.push_back({{"generated", t.generated}, {"context", t.context}, {"tpot_s", t.tpot_s}});
  json requests = json::array();
  for (const auto& q : w.requests) requests.push_back({{"cached", q.cached}, {"input", q.input}, {"count", q.count}});

  json out = {
      {"model", model_json(rm, a.params, a.groups)},
      {"workload",
       {{"requests", requests},
        {"gen", w.gen_tokens},
        {"batch_requests", a.batch_requests},
        {"precision", precision_json(w.settings.precision, rm.spec)},
        {"scenario", sc ? json(sc->name) : json(nullptr)},
        {"mlp", w.settings.fused_mlp ? "fused" : "unfused"},
        {"online_hadamard", w.settings.online_hadamard},
        {"attention_tile", w.settings.attention_tile},
        {"prefill_chunk", w.prefill_chunk},
        {"images", images_json(rm.spec, w.settings.images)},
        {"image_tokens", image_tokens(rm.spec, w.settings.images)},
        {"prefill_chunks", a.prefill_chunks},
        {"lora", {{"rank", w.settings.lora.rank}, {"mode", lora_mode_name(w.settings.lora.mode)},
                  {"merge_flops", a.lora_merge_flops}}},
        {"convention", w.settings.convention.name},
        {"timing", w.timing == Timing::PerOp ? "per-op" : "phase-max"},
        {"convention_description", w.settings.convention.description},
        {"moe_traffic", moe_traffic_name(w.settings.convention.moe)},
        {"attention", w.settings.attention == AttnImpl::Fused ? "fused" : "unfused"},
        {"mla", w.settings.mla == MlaForm::Auto ? "auto" : (w.settings.mla == MlaForm::Absorbed ? "absorbed" : "expanded")}}},
      {"memory",
       {{"weights_bytes", a.weights_bytes},
        {"kv_cache_bytes", a.kv_cache_bytes},
        {"state_bytes", a.state_bytes},
        {"kv_bytes_per_token", a.kv_bytes_per_token},
        {"activation_peak_bytes", a.activation_peak_bytes},
        {"required_bytes", a.memory_required_bytes}}},
      {"prefill", totals_json(a.prefill.totals)},
      {"decode", totals_json(a.decode.totals)},
      {"ops", ops}};
  out["prefill"]["tokens"] = a.prefill.tokens;
  out["decode"]["tokens"] = a.decode.tokens;
  out["decode"]["flops_per_token"] = a.decode_flops_per_token;
  out["decode"]["steps"] = a.decode_steps;
  if (a.has_hardware) {
    out["hardware"] = hardware_to_json(*hw);
    out["execution"] = execution_json(a.execution, *hw);
    out["memory"]["capacity_bytes"] = a.memory_capacity_bytes;  // usable: the tiers less the driver and OS reserve
    double physical = 0;
    for (const auto& t : hw->tiers) physical += t.capacity_bytes;
    out["memory"]["physical_capacity_bytes"] = physical;
    out["memory"]["reserve_bytes"] = hw->reserve_bytes;
    out["memory"]["reserve_basis"] = hw->reserve_basis;
    out["memory"]["fits"] = a.fits;
    out["memory"]["fits_first_tier"] = a.fits_first_tier;
    out["memory"]["max_batch"] = a.max_batch;
    out["memory"]["max_context"] = a.max_context;
    out["memory"]["placement"] = placement;
    out["prefill"]["time_s"] = finite(a.ttft_s);
    out["prefill"]["compute_s"] = finite(a.prefill.compute_s);
    out["prefill"]["memory_s"] = finite(a.prefill.memory_s);
    out["decode"]["tpot_s"] = finite(a.tpot_mean_s);
    out["decode"]["tpot_first_s"] = finite(a.tpot_first_s);
    out["decode"]["tpot_last_s"] = finite(a.tpot_last_s);
    out["decode"]["time_s"] = finite(a.decode_time_s);
    out["decode"]["tokens_per_s"] = finite(a.tokens_per_s);
    out["decode"]["batch_tokens_per_s"] = finite(a.batch_tokens_per_s);
    out["decode"]["timeline"] = timeline;
    out["e2e_s"] = finite(a.e2e_s);
    out["workload"]["lora"]["merge_s"] = finite(a.lora_merge_s);
    out["ttft_s"] = finite(a.ttft_s);
    out["cost"] = cost_json(cost_report(a, *hw, costs), costs);
    out["peak"] = peak_json(a, *hw);
  }
  if (offload) {
    // Energy and cost are modelled for one device; a split with the host is not costed.
    out.erase("cost");
    out["offload"] = offload_json(split, off);
  }
  out["warnings"] = warnings_json(a.warnings);
  // Without a compute peak some operators count memory and dispatch only: TTFT and TPOT are lower bounds.
  if (a.has_hardware) out["lower_bound"] = lower_bound(a.warnings);
  if (a.has_hardware && !hw->has_any_peak())
    for (auto& w : out["warnings"])
      if (w["code"] == "hardware.no_compute_peak") w["message"] = w["message"].get<std::string>() + "." + peak_suggestion(*hw);
  if (mi.active) {
    const PlanForecast f = forecast_plan(rm.spec, w, mi.sys, mi.plan, mi.spec);
    // A plan's energy and cost: every stage's devices and replicas (cost/cost.hpp, plan_cost_report).
    if (f.devices > 1) out["cost"] = cost_json(plan_cost_report(f, mi.sys.device, costs), costs);
    out["parallel"] = plan_json(f, mi.sys);
    if (f.spec.enabled) out["speculative"] = speculative_json(f);
  }
  return out;
}

// Throughput against latency as the batch grows, on one device or a plan (docs/schema.md, "batching").
json api_batching(const json& request) {
  Reader r(request, "", "request");
  Inputs in;
  read_inputs(r, in);
  MultiInputs mi;
  read_multi(r, in, mi, true);
  if (r.has("offload"))
    r.fail("offload", "conflict", "/offload keeps layers in host memory; the batching curve is drawn for devices that hold "
                                  "the whole model (drop /offload to draw it)");
  const Workload w = read_workload(r, in.rm.spec, in.sc, in.hw, in.rt);
  read_costs(r);  // accepted so the page can send one request to every call; the curve has no cost column yet
  double max_batch = static_cast<double>(field::max_batch.fallback);
  if (r.has("batching")) {
    Reader b = r.object("batching");
    max_batch = static_cast<double>(read_field(b, field::max_batch));
    b.reject_unknown();
  } else {
    r.raw("batching");
  }
  r.reject_unknown();
  // The curve bisects for the batch that fits and then forecasts each point: about 64 plans, each over every stage.
  check_work(estimate_work(in.rm.spec, w), 64.0 * (mi.plan.pp + (mi.spec.enabled() ? 2 : 0)), "the batching curve");
  const BatchingCurve c = batching_curve(in.rm.spec, w, mi.sys, mi.plan, mi.spec, max_batch);
  json pts = json::array();
  for (const auto& p : c.points)
    pts.push_back({{"batch", p.batch},
                   {"ttft_s", finite(p.ttft_s)},
                   {"tpot_s", finite(p.tpot_s)},
                   {"e2e_s", finite(p.e2e_s)},
                   {"tokens_per_s_per_user", finite(p.tokens_per_s_per_user)},
                   {"total_tokens_per_s", finite(p.total_tokens_per_s)},
                   {"tokens_per_s_per_device", finite(p.tokens_per_s_per_device)},
                   {"device_required_bytes", p.device_required_bytes},
                   {"fits", p.fits}});
  return {{"kv_fit_batch", c.kv_fit_batch},
          {"speculative", mi.spec.enabled()},
          {"plan", plan_brief(mi.plan)},
          {"system", system_to_json(mi.sys)},
          {"points", pts}};
}

// Throughput and memory against weight and KV formats: the analyze request with every weight class stored in each

}  // namespace infercast
