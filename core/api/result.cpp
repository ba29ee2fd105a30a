// Result writing: the JSON a result carries for models, operators, precisions, costs and plans (docs/schema.md).
// Every number a result carries passes through here.
#include "api/result.hpp"

#include <cmath>

#include "io/hardware_json.hpp"
#include "io/system_json.hpp"
#include "quant/llama_mix.hpp"

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
  // What the cost per token counts: both shares, one of them, or nothing known (then null and the reason).
  out["usd_basis"] = c.has_price && c.model.available ? "hardware and electricity"
                     : c.has_price                     ? "hardware only: no published power"
                     : c.model.available               ? "electricity only: no published price"
                                                       : "unknown";
  out["usd_per_million_tokens"] = usd_known(c) ? json(c.usd_per_million_tokens) : json(nullptr);
  if (!usd_known(c))
    out["usd_unknown_reason"] = "no published price or power for this device; give them under the costs (price_USD, power_W)";
  out["operational_gCO2e_per_million_tokens"] = c.model.available ? json(c.operational_g_per_million_tokens) : json(nullptr);
  out["embodied_gCO2e_per_million_tokens"] = c.embodied_g_per_million_tokens;
  out["gCO2e_per_million_tokens"] = co2_known(c) ? json(c.g_per_million_tokens) : json(nullptr);
  if (!co2_known(c))
    out["co2_unknown_reason"] = "no published power or embodied carbon for this device; give one under the costs (power_W, embodied_kgCO2e)";
  out["warnings"] = warnings_json(c.warnings);
  return out;
}


bool usd_known(const CostReport& c) { return c.has_price || c.model.available; }
bool co2_known(const CostReport& c) { return c.model.available || c.has_embodied; }

bool lower_bound(const std::vector<Warning>& ws) {
  for (const auto& w : ws)
    if (w.code == "hardware.no_compute_peak") return true;
  return false;
}

json execution_json(const Execution& x, const HardwareSpec& hw) {
  const RuntimeSpec* rt = x.runtime;
  json fusion = json::object();
  if (rt)
    fusion = {{"qkv", rt->fusion.qkv}, {"gate_up", rt->fusion.gate_up}, {"act_in_gemm", rt->act_in_gemm},
              {"norm_residual", rt->fusion.norm_residual}, {"rope", rt->fusion.rope}, {"kv_write", rt->fusion.kv_write},
              {"qk_norm", rt->fusion.qk_norm}};
  return {{"runtime", rt ? rt->id : "reference"},
          {"runtime_name", rt ? rt->name : "reference"},
          {"launch", x.graphs ? "graph" : "per-kernel"},
          {"graph_max_tokens", x.graph_max_tokens},
          {"memory_family", memory_family_names().name(memory_family(hw))},
          {"efficiency", efficiency_to_json(x.eff)},
          {"kernel_gap_us", x.eff.dispatch_s * 1e6},
          {"kernel_launch_us", x.launch_s * 1e6},
          {"step_overhead_us", x.step_overhead_s * 1e6},
          {"compute_paths", {{"fp8", rt ? rt->fp8 : true}, {"fp16_accumulate", rt && rt->fp16_accumulate},
                             {"quantized", rt ? quant_path_names().name(rt->quant) : "dequantize"}}},
          {"fusion", fusion}};
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
          {"norms", p.norms},
          {"vision", p.vision}};
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
          {"vision_encoder", vision_kind_names().name(m.vision.kind)},
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
      // What the explanation of this time shows: the efficiency reached, the bandwidth the bytes moved at, the gap.
      j["compute_efficiency"] = t.compute_efficiency;
      j["bandwidth_Bps"] = t.bandwidth_bytes_per_s;
      j["gap_us"] = t.gap_s * 1e6;
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
  json out = {{"weights", p.weights.name},
              {"weights_bits_per_element", p.weights.bits_per_element},
              {"activations", p.activations.name},
              {"kv", p.kv.name},
              {"kv_bits_per_element", p.kv.bits_per_element},
              {"by_class", classes},
              {"declared_quantization", m.declared_quant},
              {"declared_weights", m.declared_weights}};
  // A llama.cpp file type on every class: its tensors by type and the exact bytes of the file's tensor data.
  if (const LlamaMix* mix = find_llama_mix(p.weights.name)) {
    bool whole = true;
    for (int c = 0; c < kWeightClasses; ++c) whole = whole && p.of(static_cast<WeightClass>(c)).name == mix->name;
    if (whole) {
      const MixPlan plan = plan_llama_mix(m, *mix);
      json types = json::object();
      for (const auto& [t, n] : plan.elements_by_type) types[t] = n;
      out["gguf"] = {{"file_type", mix->name}, {"description", mix->description}, {"tensor_bytes", plan.tensor_bytes},
                     {"elements_by_type", types}};
    }
  }
  return out;
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
              {"lower_bound", lower_bound(f.warnings)},
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

json percentiles_json(const Percentiles& p) {
  return {{"mean", finite(p.mean)}, {"p50", finite(p.p50)}, {"p90", finite(p.p90)}, {"p99", finite(p.p99)}};
}

json serving_json(const ServingResult& r) {
  return {{"ttft_s", percentiles_json(r.ttft_s)},
          {"tpot_s", percentiles_json(r.tpot_s)},
          {"itl_s", percentiles_json(r.itl_s)},
          {"e2e_s", percentiles_json(r.e2e_s)},
          {"requests_per_s", finite(r.requests_per_s)},
          {"output_tokens_per_s", finite(r.output_tokens_per_s)},
          {"input_tokens_per_s", finite(r.input_tokens_per_s)},
          {"output_tokens_per_s_per_device", finite(r.output_tokens_per_s_per_device)},
          {"output_tokens_per_s_per_user", finite(r.output_tokens_per_s_per_user)},
          {"engine",
           {{"requests", r.requests},
            {"duration_s", finite(r.duration_s)},
            {"steps", r.steps},
            {"prefill_steps", r.prefill_steps},
            {"mixed_steps", r.mixed_steps},
            {"decode_steps", r.decode_steps},
            {"mean_batch", finite(r.mean_batch)},
            {"mean_step_s", finite(r.mean_step_s)},
            {"preemptions", r.preemptions},
            {"busy_fraction", finite(r.busy_fraction)},
            {"mean_isl", finite(r.mean_isl)},
            {"mean_osl", finite(r.mean_osl)},
            {"littles_law", {{"mean_in_system", finite(r.mean_in_system)}, {"rate_x_mean_e2e", finite(r.littles_product)}}}}},
          {"kv_peak_fraction", finite(r.memory.kv_peak_fraction)},
          {"kv_mean_fraction", finite(r.memory.kv_mean_fraction)},
          {"max_concurrency", finite(r.memory.max_concurrency)}};
}

json scheduler_json(const SchedulerLimits& l, const SchedulerSpec& spec) {
  return {{"stated", l.stated},
          {"source", spec.source},
          {"policy", step_policy_names().name(l.policy)},
          {"chunked_prefill", l.chunked_prefill},
          {"max_num_seqs", l.max_num_seqs},
          {"max_num_batched_tokens", l.token_budget},
          {"max_prefill_tokens", l.max_prefill_tokens},
          {"memory_fraction", l.memory_basis == MemoryBasis::Reserve ? json(nullptr) : json(l.memory_fraction)},
          {"memory_fraction_of", memory_basis_names().name(l.memory_basis)},
          {"reserve_bytes", l.reserve_bytes},
          {"kv_block_tokens", l.kv_block_tokens},
          {"preemption", preemption_names().name(l.preemption)},
          {"prefix_caching", l.prefix_caching},
          {"output_delay_steps", l.output_delay_steps},
          {"scheduler_steps", l.scheduler_steps}};
}

json serving_memory_json(const ServingMemory& m) {
  return {{"capacity_bytes", m.capacity_bytes},
          {"usable_bytes", m.usable_bytes},
          {"weights_bytes", m.weights_bytes},
          {"activation_bytes", m.activation_bytes},
          {"reserve_bytes", m.reserve_bytes},
          {"kv_bytes", m.kv_bytes},
          {"kv_bytes_per_token", m.kv_bytes_per_token},
          {"kv_tokens", m.kv_tokens}};
}

json serving_cost_json(const CostReport& c, const CostAssumptions& a) {
  json out = cost_json(c, a);
  out.erase("prefill");
  out.erase("decode");
  if (c.model.available) {
    out["j_per_output_token"] = finite(c.decode.j_per_token);
    out["output_tokens_per_j"] = finite(c.decode.tokens_per_j);
    out["avg_power_W"] = finite(c.decode.avg_power_w);
  }
  return out;
}

json offload_json(const OffloadResult& o, const OffloadSpec& spec) {
  const auto part = [](const OffloadPart& p) {
    return json{{"first_layer", p.first_layer},
                {"layers", p.layers},
                {"embedding", p.embedding},
                {"output", p.output},
                {"weights_bytes", p.a.weights_bytes},
                {"kv_cache_bytes", p.a.kv_cache_bytes},
                {"required_bytes", p.a.memory_required_bytes},
                {"capacity_bytes", p.a.memory_capacity_bytes},
                {"fits", p.a.fits},
                {"prefill_s", finite(p.prefill_s)},
                {"prefill_streamed", p.prefill_streamed},
                {"stream_s", finite(p.stream_s)},
                {"tpot_s", finite(p.a.tpot_mean_s)},
                {"runtime", p.a.execution.runtime ? p.a.execution.runtime->id : "reference"},
                {"memory_efficiency", p.a.execution.eff.memory}};
  };
  return {{"gpu_layers", o.gpu_layers},
          {"layers", o.n_layers},
          {"chosen", o.chosen},
          {"host", hardware_to_json(spec.host)},
          {"link_GBps", spec.link_bytes_per_s / 1e9},
          {"ubatch", spec.ubatch},
          {"device", part(o.device)},
          {"host_part", part(o.host)}};
}

}  // namespace infercast
