// The analysis operations: analyze (one device or a plan), batching curves, a model's counts, a device checked.
#include "api/operations.hpp"

#include "api/api.hpp"
#include <algorithm>
#include <cmath>

#include "analysis/remedies.hpp"
#include "analysis/work.hpp"
#include "api/images.hpp"
#include "analysis/context.hpp"
#include "api/options.hpp"
#include "api/request.hpp"
#include "api/result.hpp"
#include "io/hardware_json.hpp"
#include "io/presets.hpp"
#include "io/system_json.hpp"
#include "api/version.hpp"

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

// Operators, memory, TTFT, TPOT and costs on one device, or a plan over several (docs/schema.md, "analyze"): the
// result is written straight to the output as it is read off the analysis.
void api_analyze(const json& request, JsonWriter& out) {
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
  const TableLayout layout = read_enum(r, "layout", table_layout_names(), TableLayout::Rows);
  const bool echo = r.boolean_or("echo_requests", false);
  r.reject_unknown();
  settle_default_plan(mi, rm.spec, w);
  // A plan analyzes each pipeline stage (and the draft) again.
  if (mi.active) {
    const double stages = plan_analyses(mi);
    check_call_work(mi, rm.spec, w, stages, "the plan's stages");
  }
  // Offloading analyzes the device's share for each -ngl its search tries (a bisection), the host's, and the host
  // layers on the device.
  if (offload) {
    const double tries = offload_analyses(rm.spec);
    check_work(estimate_work(rm.spec, w, tries), tries, "the offload split");
  }
  OffloadResult split;
  Analysis a = offload ? analyze_offloaded(rm.spec, w, *hw, off, split) : analyze(rm.spec, w, hw);
  for (auto& wr : context_warnings(rm.spec, w)) a.warnings.push_back(std::move(wr));
  std::vector<Warning> warnings = a.warnings;
  if (a.has_hardware && !hw->has_any_peak())
    for (auto& x : warnings)
      if (x.code == "hardware.no_compute_peak") x.message += "." + peak_suggestion(*hw);
  PlanForecast f;
  if (mi.active) {
    f = forecast_plan(rm.spec, w, mi.sys, mi.plan, mi.spec);
    if (!mi.plan_note.code.empty()) f.warnings.insert(f.warnings.begin(), mi.plan_note);
    // The whole model on one device is not what runs: the plan's stages say whether the engine's budget holds them
    // (parallel.warnings).
    warnings.erase(std::remove_if(warnings.begin(), warnings.end(),
                                  [](const Warning& x) { return x.code == "memory.runtime_budget" || x.code == "memory.does_not_fit"; }),
                   warnings.end());
  }
  // Energy and cost: one device's, or a plan's over every stage's devices and replicas (cost/cost.hpp,
  // plan_cost_report); a split with the host is not costed.
  const bool plan_costed = mi.active && (f.devices > 1 || f.spec.enabled);
  const bool costed = plan_costed || (a.has_hardware && !offload);
  CostReport cost;
  if (plan_costed) cost = plan_cost_report(f, mi.sys.device, costs);
  else if (costed) cost = cost_report(a, *hw, costs);

  out.begin_object().field("schema_version", kSchemaVersion).field("version", kVersion);
  out.key("model");
  write_model(out, rm, a.params, a.groups);
  out.key("workload").begin_object();
  if (echo) {
    out.key("requests").begin_array();
    for (const auto& q : w.requests) out.begin_object().field("cached", q.cached).field("input", q.input).field("count", q.count).end_object();
    out.end_array();
  }
  out.field("request_entries", w.requests.size());
  out.field("gen", w.gen_tokens).field("batch_requests", a.batch_requests).key("precision");
  write_precision(out, w.settings.precision, rm.spec);
  out.key("scenario");
  if (sc) out.value(sc->name);
  else out.null();
  out.field("mlp", w.settings.fused_mlp ? "fused" : "unfused").field("online_hadamard", w.settings.online_hadamard);
  out.field("attention_tile", w.settings.attention_tile).field("prefill_chunk", w.prefill_chunk);
  out.field("images", images_json(rm.spec, w.settings.images)).field("image_tokens", image_tokens(rm.spec, w.settings.images));
  out.field("prefill_chunks", a.prefill_chunks);
  out.key("lora").begin_object().field("rank", w.settings.lora.rank).field("mode", lora_mode_name(w.settings.lora.mode));
  out.field("merge_flops", a.lora_merge_flops).field("adapter_bytes", a.lora_adapter_bytes);
  if (a.has_hardware) out.field("merge_s", finite(a.lora_merge_s));
  out.end_object();
  out.field("convention", w.settings.convention.name).field("timing", w.timing == Timing::PerOp ? "per-op" : "phase-max");
  out.field("convention_description", w.settings.convention.description);
  out.field("moe_traffic", moe_traffic_name(w.settings.convention.moe));
  out.field("attention", w.settings.attention == AttnImpl::Fused ? "fused" : "unfused");
  out.field("mla", mla_form_names().name(w.settings.mla));
  out.end_object();
  out.key("memory").begin_object().field("weights_bytes", a.weights_bytes).field("kv_cache_bytes", a.kv_cache_bytes);
  out.field("state_bytes", a.state_bytes).field("image_kv_bytes", a.image_kv_bytes).field("kv_bytes_per_token", a.kv_bytes_per_token);
  out.field("kv_bytes_per_token_past_windows", a.kv_bytes_per_token_past_windows);
  out.field("activation_peak_bytes", a.activation_peak_bytes).field("required_bytes", a.memory_required_bytes);
  // An engine that reserves its activations at start (llama.cpp's compute buffer): activation_peak_bytes is that.
  if (a.compute_buffer_bytes > 0) out.field("compute_buffer_bytes", a.compute_buffer_bytes);
  else out.key("compute_buffer_bytes").null();
  if (a.has_hardware) {
    double physical = 0;
    for (const auto& t : hw->tiers) physical += t.capacity_bytes;
    // Usable: the tiers less the driver and OS reserve.
    out.field("capacity_bytes", a.memory_capacity_bytes).field("physical_capacity_bytes", physical);
    out.field("reserve_bytes", hw->reserve_bytes).field("reserve_basis", hw->reserve_basis);
    // The runtime's budget of the first tier, where its engine sizes a KV pool from a memory fraction.
    if (a.runtime_budget) {
      out.field("runtime_usable_bytes", a.runtime_usable_bytes).field("runtime_reserve_bytes", a.runtime_reserve_bytes);
      out.field("runtime_activation_bytes", std::max(a.activation_peak_bytes, a.profile_activation_bytes));
    } else {
      out.key("runtime_usable_bytes").null().key("runtime_reserve_bytes").null().key("runtime_activation_bytes").null();
    }
    out.field("fits", a.fits).field("fits_first_tier", a.fits_first_tier);
    // What would make it fit (analysis/remedies.hpp): a plan's own fit is under /parallel, so none here with one.
    out.key("remedies").begin_array();
    if (!mi.active)
      for (const Remedy x : memory_remedies(a, w.runtime)) out.value(remedy_names().name(x));
    out.end_array();
    out.field("max_batch", a.max_batch).field("max_context", a.max_context).field("max_context_memory", a.max_context_memory);
    out.field("max_context_limit", a.max_context < a.max_context_memory ? "window" : "memory").key("placement").begin_array();
    for (const auto& p : a.placement) {
      out.begin_object().field("what", p.what).key("bytes_per_tier").begin_array();
      for (double b : p.bytes_per_tier) out.value(b);
      out.end_array().end_object();
    }
    out.end_array();
  }
  out.end_object();
  out.key("prefill").begin_object();
  write_totals_fields(out, a.prefill.totals);
  out.field("tokens", a.prefill.tokens);
  if (a.has_hardware) {
    out.field("time_s", finite(a.ttft_s)).field("compute_s", finite(a.prefill.compute_s)).field("memory_s", finite(a.prefill.memory_s));
  }
  out.end_object();
  out.key("decode").begin_object();
  write_totals_fields(out, a.decode.totals);
  out.field("tokens", a.decode.tokens).field("flops_per_token", a.decode_flops_per_token).field("steps", a.decode_steps);
  if (a.has_hardware) {
    out.field("tpot_s", finite(a.tpot_mean_s)).field("tpot_first_s", finite(a.tpot_first_s));
    out.field("tpot_last_s", finite(a.tpot_last_s)).field("time_s", finite(a.decode_time_s));
    out.field("tokens_per_s", finite(a.tokens_per_s)).field("batch_tokens_per_s", finite(a.batch_tokens_per_s));
    out.key("timeline");
    write_timeline(out, a.timeline, layout, "/decode/timeline");
  }
  out.end_object();
  out.key("ops");
  write_ops(out, a.prefill, a.decode, layout, "/ops");
  if (a.has_hardware) {
    out.key("hardware");
    if (const std::string* text = hardware_preset_text(hw)) out.raw(*text);
    else write_hardware(out, *hw);
    out.key("execution");
    write_execution(out, a.execution, *hw);
    out.field("e2e_s", finite(a.e2e_s)).field("ttft_s", finite(a.ttft_s));
    out.key("peak");
    write_peak(out, a, *hw);
  }
  if (costed) {
    out.key("cost");
    write_cost(out, cost, costs);
  }
  if (offload) {
    out.key("offload");
    write_offload(out, split, off);
  }
  out.key("warnings");
  write_warnings(out, warnings);
  // Without a compute peak some operators count memory and dispatch only: TTFT and TPOT are lower bounds.
  if (a.has_hardware) out.field("lower_bound", lower_bound(a.warnings));
  if (mi.active) {
    out.key("parallel");
    write_plan(out, f, mi.sys, layout, "/parallel");
    if (f.spec.enabled) {
      out.key("speculative");
      write_speculative(out, f);
    }
  }
  out.end_object();
}

double analyze_repeat(const std::string& request_json, int repeats) {
  try {
    const json request = parse_json_text(request_json, "the request", "request");
    Reader r(request, "", "request");
    Inputs in;
    read_inputs(r, in);
    const Workload w = read_workload(r, in.rm.spec, in.sc, in.hw, in.rt);
    double tpot = 0;
    for (int i = 0; i < repeats; ++i) tpot = analyze(in.rm.spec, w, in.hw).tpot_mean_s;
    return tpot;
  } catch (const std::exception&) {
    return 0;
  }
}

// Throughput against latency as the batch grows, on one device or a plan (docs/schema.md, "batching").
json api_batching(const json& request, Run run) {
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
  if (run == Run::check) return nullptr;
  settle_default_plan(mi, in.rm.spec, w);
  // The curve bisects for the batch that fits and then forecasts each point: about 64 plans, each over every stage.
  const double plans = 64.0 * plan_forecast_analyses(mi.plan, mi.spec);
  check_call_work(mi, in.rm.spec, w, plans, "the batching curve");
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
  json warnings = json::array();
  if (!mi.plan_note.code.empty()) warnings = warnings_json({mi.plan_note});
  return {{"kv_fit_batch", c.kv_fit_batch},
          {"warnings", warnings},
          {"speculative", mi.spec.enabled()},
          {"plan", plan_brief(mi.plan)},
          {"system", system_to_json(mi.sys)},
          {"points", pts}};
}

// Throughput and memory against weight and KV formats: the analyze request with every weight class stored in each

}  // namespace infercast
