// Result writing: the JSON a result carries for models, operators, precisions, costs and plans (docs/schema.md).
// Every number a result carries passes through here.
#include "api/result.hpp"

#include <cmath>

#include "io/hardware_json.hpp"
#include "io/system_json.hpp"

namespace infercast {

double finite(double v) { return v; }

json cost_json(const CostReport& c, const CostAssumptions& a) {
  const auto phase = [](const PhaseEnergy& e) {
    return json{{"joules", e.joules}, {"static_j", e.static_j}, {"compute_j", e.compute_j}, {"memory_j", e.memory_j},
                {"tokens", e.tokens}, {"j_per_token", e.j_per_token}, {"tokens_per_j", e.tokens_per_j},
                {"avg_power_W", e.avg_power_w}};
  };
  json j_flop = json::object();
  for (std::size_t i = 0; i < 8; ++i)
    if (c.model.j_per_flop[i] > 0) j_flop[compute_type_name(static_cast<ComputeType>(i))] = c.model.j_per_flop[i] * 1e12;
  json j_byte = json::array();
  for (double v : c.model.j_per_byte) j_byte.push_back(v * 1e12);
  json out = {{"energy_available", c.model.available},
              {"assumptions",
               {{"compute_power_fraction", a.compute_power_fraction}, {"static_fraction", a.static_fraction},
                {"power_W", c.model.tdp_w}, {"static_W", c.model.static_w}, {"pJ_per_flop", j_flop},
                {"pJ_per_byte_by_tier", j_byte}, {"lifetime_years", a.lifetime_years}, {"utilization", a.utilization},
                {"usd_per_kWh", a.usd_per_kwh}, {"pue", a.pue}, {"price_USD", c.price_usd}, {"region", c.region},
                {"grid_gCO2e_per_kWh", c.grid_g_per_kwh}, {"embodied_kgCO2e", c.embodied_kgco2e},
                {"sources",
                 {{"energy", "LLM-Para metrics.py (compute_power_frac 0.55, 5% idle floor; after Ghane et al., ISPASS 2018): the device draws its TDP at full compute and full bandwidth"},
                  {"ownership", "LLM-Para metrics.py compute_tco defaults: 3 years, 50% utilization, $0.10/kWh, PUE 1.3"},
                  {"grid", grid_source()}}}}},
              {"output_tokens", c.output_tokens},
              {"has_price", c.has_price},
              {"has_embodied", c.has_embodied}};
  if (c.model.available) {
    out["prefill"] = phase(c.prefill);
    out["decode"] = phase(c.decode);
    out["joules"] = c.joules_per_request_batch;
    out["busy_power_W"] = c.busy_power_w;
  }
  out["usd_per_hour"] = c.usd_per_hour;
  out["hardware_usd_per_hour"] = c.hardware_usd_per_hour;
  out["energy_usd_per_hour"] = c.energy_usd_per_hour;
  out["usd_per_million_tokens"] = c.usd_per_million_tokens;
  out["operational_gCO2e_per_million_tokens"] = c.operational_g_per_million_tokens;
  out["embodied_gCO2e_per_million_tokens"] = c.embodied_g_per_million_tokens;
  out["gCO2e_per_million_tokens"] = c.g_per_million_tokens;
  out["warnings"] = warnings_json(c.warnings);
  return out;
}


json warnings_json(const std::vector<Warning>& ws) {
  json a = json::array();
  for (const auto& w : ws) a.push_back({{"code", w.code}, {"path", w.path}, {"message", w.message}});
  return a;
}

json params_json(const ParamCounts& p) {
  return {{"total", p.total},
          {"active", p.active},
          {"active_excluding_embedding", p.active_no_embed},
          {"embedding", p.embedding},
          {"lm_head", p.lm_head},
          {"attention", p.attention},
          {"ffn_dense", p.ffn_dense},
          {"experts_routed", p.experts_routed},
          {"experts_shared", p.experts_shared},
          {"router", p.router},
          {"norms", p.norms}};
}

json groups_json(const std::vector<LayerGroup>& groups) {
  json a = json::array();
  for (const auto& g : groups) a.push_back({{"label", g.label}, {"count", g.count}, {"layers", g.layers}});
  return a;
}

json model_json(const ResolvedModel& rm, const ParamCounts& p, const std::vector<LayerGroup>& groups) {
  const auto& m = rm.spec;
  return {{"id", rm.id},
          {"name", rm.name},
          {"source", rm.source},
          {"model_type", m.model_type},
          {"stated_params_total", rm.stated_total},
          {"stated_params_active", rm.stated_active},
          {"params_total", p.total},
          {"params_active", p.active},
          {"params_active_includes_embedding", true},
          {"params_active_excluding_embedding", p.active_no_embed},
          {"params", params_json(p)},
          {"hidden_size", m.hidden},
          {"vocab_size", m.vocab},
          {"num_layers", static_cast<i64>(m.layers.size())},
          {"mtp_layers_not_counted", m.mtp_layers},
          {"tied_embeddings", m.tied_embeddings},
          {"declared_quantization", m.declared_quant},
          {"groups", groups_json(groups)},
          {"warnings", warnings_json(m.warnings)}};
}


json ops_json(const Phase& p, const char* phase) {
  json a = json::array();
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const Op& o = p.ops[i];
    const double bytes = o.bytes();
    json j = {{"name", o.name},
              {"phase", phase},
              {"group", o.group},
              {"class", op_class_name(o.cls)},
              {"count", o.count},
              {"compute_type", compute_type_name(o.compute)},
              {"flops", o.flops},
              {"weight_bytes", o.weight_bytes},
              {"act_read_bytes", o.act_read_bytes},
              {"act_write_bytes", o.act_write_bytes},
              {"kv_read_bytes", o.kv_read_bytes},
              {"kv_write_bytes", o.kv_write_bytes},
              {"bytes", bytes},
              {"dispatches", o.dispatches},
              {"dequant_flops", o.dequant_flops},
              {"lora_flops", o.lora_flops},
              {"padded_flops", o.padded_flops},
              {"intensity_flop_per_byte", bytes > 0 ? o.flops / bytes : 0.0}};
    if (!p.times.empty()) {
      const auto& t = p.times[i];
      j["time_s"] = t.time_s;
      j["compute_s"] = t.compute_s;
      j["memory_s"] = t.memory_s;
      j["dispatch_s"] = t.dispatch_s;
      j["bound"] = t.bound;
      j["compute_type_used"] = compute_type_name(t.compute_used);
    }
    a.push_back(j);
  }
  return a;
}

// The format of each weight class, and where it came from.
json precision_json(const Precision& p, const ModelSpec& m) {
  json classes = json::object();
  for (int c = 0; c < kWeightClasses; ++c) {
    const DType& d = p.of(static_cast<WeightClass>(c));
    classes[weight_class_name(static_cast<WeightClass>(c))] = {{"dtype", d.name}, {"bits_per_element", d.bits_per_element}};
  }
  return {{"weights", p.weights.name},
          {"weights_bits_per_element", p.weights.bits_per_element},
          {"activations", p.activations.name},
          {"kv", p.kv.name},
          {"kv_bits_per_element", p.kv.bits_per_element},
          {"by_class", classes},
          {"declared_quantization", m.declared_quant},
          {"declared_weights", m.declared_weights}};
}

json totals_json(const PhaseTotals& t) {
  return {{"flops", t.flops},
          {"weight_bytes", t.weight_bytes},
          {"act_read_bytes", t.act_read_bytes},
          {"act_write_bytes", t.act_write_bytes},
          {"kv_read_bytes", t.kv_read_bytes},
          {"kv_write_bytes", t.kv_write_bytes},
          {"bytes", t.bytes()},
          {"dispatches", t.dispatches}};
}

json comm_json(const StepComm& c) {
  json a = json::array();
  for (const auto& l : c.lines)
    a.push_back({{"what", l.what},
                 {"collective", collective_name(l.kind)},
                 {"algorithm", l.algorithm},
                 {"participants", l.participants},
                 {"link", l.inter_node ? "inter-node" : "intra-node"},
                 {"calls", l.calls},
                 {"bytes", l.bytes},
                 {"seconds", finite(l.seconds)}});
  return a;
}

json plan_brief(const ParallelPlan& p) {
  return {{"tp", p.tp}, {"pp", p.pp}, {"ep", p.ep}, {"dp", p.dp}, {"algorithm", collective_algo_name(p.algorithm)}, {"devices", p.devices()}};
}

json plan_json(const PlanForecast& f, const System& sys) {
  json stages = json::array();
  for (std::size_t i = 0; i < f.stages.size(); ++i) {
    const Stage& st = f.stages[i];
    stages.push_back({{"stage", i},
                      {"first_layer", st.first_layer},
                      {"layers", st.layers},
                      {"params_per_device", st.a.params.total},
                      {"weights_bytes", st.a.weights_bytes},
                      {"kv_cache_bytes", st.a.kv_cache_bytes},
                      {"activation_peak_bytes", st.a.activation_peak_bytes},
                      {"required_bytes", st.required_bytes},
                      {"capacity_bytes", st.capacity_bytes},
                      {"fits", st.fits},
                      {"max_batch", st.a.max_batch},
                      {"ttft_s", finite(st.a.ttft_s)},
                      {"tpot_s", finite(st.a.tpot_mean_s)}});
  }
  json timeline = json::array();
  for (const auto& t : f.timeline) timeline.push_back({{"generated", t.generated}, {"context", t.context}, {"tpot_s", finite(t.tpot_s)}});
  json out = {{"plan", plan_brief(f.plan)},
              {"system", system_to_json(sys)},
              {"stages", stages},
              {"communication",
               {{"prefill", comm_json(f.prefill_comm)},
                {"prefill_s", finite(f.prefill_comm.seconds)},
                {"decode_step", comm_json(f.decode_comm)},
                {"decode_step_s", finite(f.decode_comm.seconds)}}},
              {"ttft_s", finite(f.ttft_s)},
              {"tpot_first_s", finite(f.tpot_first_s)},
              {"tpot_s", finite(f.tpot_mean_s)},
              {"tpot_last_s", finite(f.tpot_last_s)},
              {"decode_time_s", finite(f.decode_time_s)},
              {"e2e_s", finite(f.e2e_s)},
              {"tokens_per_s", finite(f.tokens_per_s)},
              {"replica_tokens_per_s", finite(f.replica_tokens_per_s)},
              {"total_tokens_per_s", finite(f.total_tokens_per_s)},
              {"tokens_per_s_per_device", finite(f.tokens_per_s_per_device)},
              {"device_required_bytes", f.device_required_bytes},
              {"device_capacity_bytes", f.device_capacity_bytes},
              {"fits", f.fits},
              {"max_batch", f.max_batch},
              {"timeline", timeline},
              {"warnings", warnings_json(f.warnings)}};
  return out;
}

json speculative_json(const PlanForecast& f) {
  const SpeculativeResult& s = f.spec;
  return {{"enabled", s.enabled},
          {"draft", s.draft},
          {"draft_tp", s.draft_tp},
          {"draft_tokens", s.draft_tokens},
          {"acceptance", s.acceptance},
          {"tokens_per_step", s.tokens_per_step},
          {"draft_step_s", finite(s.draft_step_s)},
          {"verify_step_s", finite(s.verify_step_s)},
          {"tpot_s", finite(s.tpot_s)},
          {"plain_tpot_s", finite(s.plain_tpot_s)},
          {"speedup", finite(s.speedup)},
          {"e2e_s", finite(f.e2e_s)},
          {"plain_e2e_s", finite(s.plain_e2e_s)},
          {"plain_total_tokens_per_s", finite(s.plain_total_tokens_per_s)},
          {"draft_weights_bytes", s.draft_weights_bytes},
          {"draft_kv_bytes", s.draft_kv_bytes}};
}

}  // namespace infercast
