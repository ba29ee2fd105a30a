// Result writing for costs (energy, ownership, CO2) and plans over several devices (docs/schema.md).
#include "api/result.hpp"

#include "io/system_json.hpp"

namespace infercast {

void write_cost(JsonWriter& w, const CostReport& c, const CostAssumptions& a) {
  const auto phase = [&](const char* key, const PhaseEnergy& e) {
    w.key(key).begin_object().field("joules", e.joules).field("static_j", e.static_j).field("compute_j", e.compute_j);
    w.field("memory_j", e.memory_j).field("tokens", e.tokens).field("j_per_token", e.j_per_token);
    w.field("tokens_per_j", e.tokens_per_j).field("avg_power_W", e.avg_power_w).end_object();
  };
  w.begin_object().field("energy_available", c.model.available);
  w.key("assumptions").begin_object().field("compute_power_fraction", a.compute_power_fraction);
  w.field("static_fraction", a.static_fraction).field("power_W", c.model.tdp_w).field("static_W", c.model.static_w);
  w.key("pJ_per_flop").begin_object();
  for (std::size_t i = 0; i < 8; ++i)
    if (c.model.j_per_flop[i] > 0) w.field(compute_type_name(static_cast<ComputeType>(i)), c.model.j_per_flop[i] * 1e12);
  w.end_object().key("pJ_per_byte_by_tier").begin_array();
  for (double v : c.model.j_per_byte) w.value(v * 1e12);
  w.end_array();
  w.field("lifetime_years", a.lifetime_years).field("utilization", a.utilization).field("usd_per_kWh", a.usd_per_kwh);
  w.field("pue", a.pue).field("price_USD", c.price_usd).field("region", c.region);
  w.field("grid_gCO2e_per_kWh", c.grid_g_per_kwh).field("embodied_kgCO2e", c.embodied_kgco2e);
  w.key("sources").begin_object()
      .field("energy", "LLM-Para metrics.py (compute_power_frac 0.55, 5% idle floor; after Ghane et al., ISPASS 2018): the device draws its TDP at full compute and full bandwidth")
      .field("ownership", "LLM-Para metrics.py compute_tco defaults: 3 years, 50% utilization, $0.10/kWh, PUE 1.3")
      .field("grid", grid_source())
      .end_object();
  w.end_object();
  w.field("output_tokens", c.output_tokens).field("has_price", c.has_price).field("has_embodied", c.has_embodied);
  if (c.model.available) {
    phase("prefill", c.prefill);
    phase("decode", c.decode);
    w.field("joules", c.joules_per_request_batch).field("busy_power_W", c.busy_power_w);
  }
  w.field("usd_per_hour", c.usd_per_hour).field("hardware_usd_per_hour", c.hardware_usd_per_hour);
  w.field("energy_usd_per_hour", c.energy_usd_per_hour);
  // What the cost per token counts: both shares, one of them, or nothing known (then null and the reason).
  w.field("usd_basis", c.has_price && c.model.available ? "hardware and electricity"
                       : c.has_price                     ? "hardware only: no published power"
                       : c.model.available               ? "electricity only: no published price"
                                                         : "unknown");
  const auto known = [&](const char* key, bool is_known, double v) {
    if (is_known) w.field(key, v);
    else w.key(key).null();
  };
  known("usd_per_million_tokens", usd_known(c), c.usd_per_million_tokens);
  if (!usd_known(c))
    w.field("usd_unknown_reason", "no published price or power for this device; give them under the costs (price_USD, power_W)");
  known("operational_gCO2e_per_million_tokens", c.model.available, c.operational_g_per_million_tokens);
  w.field("embodied_gCO2e_per_million_tokens", c.embodied_g_per_million_tokens);
  known("gCO2e_per_million_tokens", co2_known(c), c.g_per_million_tokens);
  if (!co2_known(c))
    w.field("co2_unknown_reason", "no published power or embodied carbon for this device; give one under the costs (power_W, embodied_kgCO2e)");
  w.key("warnings");
  write_warnings(w, c.warnings);
  w.end_object();
}

json cost_json(const CostReport& c, const CostAssumptions& a) {
  return tree_of([&](JsonWriter& w) { write_cost(w, c, a); });
}

bool usd_known(const CostReport& c) { return c.has_price || c.model.available; }
bool co2_known(const CostReport& c) { return c.model.available || c.has_embodied; }

namespace {

void write_comm(JsonWriter& w, const StepComm& c) {
  w.begin_array();
  for (const auto& l : c.lines) {
    w.begin_object().field("what", l.what).field("collective", collective_name(l.kind)).field("algorithm", l.algorithm);
    w.field("participants", l.participants).field("link", l.inter_node ? "inter-node" : "intra-node");
    w.field("calls", l.calls).field("bytes", l.bytes).field("seconds", finite(l.seconds)).field("wait_s", finite(l.wait_s)).end_object();
  }
  w.end_array();
}

}  // namespace

void write_plan_brief(JsonWriter& w, const ParallelPlan& p) {
  w.begin_object().field("tp", p.tp).field("pp", p.pp).field("ep", p.ep).field("dp", p.dp);
  w.field("algorithm", collective_algo_name(p.algorithm)).field("devices", p.devices()).end_object();
}

json plan_brief(const ParallelPlan& p) {
  return tree_of([&](JsonWriter& w) { write_plan_brief(w, p); });
}

void write_plan(JsonWriter& w, const PlanForecast& f, const System& sys, TableLayout layout, const std::string& at) {
  w.begin_object().key("plan");
  write_plan_brief(w, f.plan);
  w.key("system");
  write_system(w, sys);
  w.key("stages").begin_array();
  for (std::size_t i = 0; i < f.stages.size(); ++i) {
    const Stage& st = f.stages[i];
    w.begin_object().field("stage", i).field("first_layer", st.first_layer).field("layers", st.layers);
    w.field("params_per_device", st.a.params.total).field("weights_bytes", st.a.weights_bytes);
    w.field("kv_cache_bytes", st.a.kv_cache_bytes).field("activation_peak_bytes", st.a.activation_peak_bytes);
    w.field("required_bytes", st.required_bytes).field("capacity_bytes", st.capacity_bytes).field("fits", st.fits);
    w.field("max_batch", st.a.max_batch).field("ttft_s", finite(st.a.ttft_s)).field("tpot_s", finite(st.a.tpot_mean_s));
    w.end_object();
  }
  w.end_array();
  w.key("communication").begin_object().key("prefill");
  write_comm(w, f.prefill_comm);
  w.field("prefill_s", finite(f.prefill_comm.seconds)).key("decode_step");
  write_comm(w, f.decode_comm);
  w.field("decode_step_s", finite(f.decode_comm.seconds)).end_object();
  w.field("ttft_s", finite(f.ttft_s)).field("tpot_first_s", finite(f.tpot_first_s)).field("tpot_s", finite(f.tpot_mean_s));
  w.field("tpot_last_s", finite(f.tpot_last_s)).field("decode_time_s", finite(f.decode_time_s)).field("e2e_s", finite(f.e2e_s));
  w.field("tokens_per_s", finite(f.tokens_per_s)).field("replica_tokens_per_s", finite(f.replica_tokens_per_s));
  w.field("total_tokens_per_s", finite(f.total_tokens_per_s)).field("tokens_per_s_per_device", finite(f.tokens_per_s_per_device));
  w.field("device_required_bytes", f.device_required_bytes).field("device_capacity_bytes", f.device_capacity_bytes);
  w.field("fits", f.fits).field("max_batch", f.max_batch);
  if (f.max_context >= 0) w.field("max_context", f.max_context);
  else w.key("max_context").null();
  w.key("timeline");
  write_timeline(w, f.timeline, layout, at + "/timeline");
  w.field("lower_bound", lower_bound(f.warnings));
  w.key("warnings");
  write_warnings(w, f.warnings);
  w.end_object();
}

void write_speculative(JsonWriter& w, const PlanForecast& f) {
  const SpeculativeResult& s = f.spec;
  w.begin_object().field("enabled", s.enabled).field("draft", s.draft).field("draft_tp", s.draft_tp);
  w.field("draft_tokens", s.draft_tokens).field("acceptance", s.acceptance).field("tokens_per_step", s.tokens_per_step);
  w.field("draft_acceptance_rate", s.draft_acceptance_rate).field("draft_prefill_s", finite(s.draft_prefill_s));
  w.field("draft_step_s", finite(s.draft_step_s)).field("verify_step_s", finite(s.verify_step_s));
  w.field("tpot_s", finite(s.tpot_s)).field("plain_tpot_s", finite(s.plain_tpot_s)).field("speedup", finite(s.speedup));
  w.field("e2e_s", finite(f.e2e_s)).field("plain_e2e_s", finite(s.plain_e2e_s));
  w.field("plain_total_tokens_per_s", finite(s.plain_total_tokens_per_s));
  w.field("draft_weights_bytes", s.draft_weights_bytes).field("draft_kv_bytes", s.draft_kv_bytes);
  w.field("draft_state_bytes", s.draft_state_bytes).end_object();
}

}  // namespace infercast
