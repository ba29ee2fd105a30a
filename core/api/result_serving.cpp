// Result writing for serving (docs/schema.md, "serving"): percentiles, rates, the engine's counts, the scheduler's
// limits, memory and the cost of serving, as trees (the serving and deploy calls assemble trees); and an analysis's
// split with the host under offload (written straight out).
#include "api/result.hpp"

#include "io/hardware_json.hpp"

namespace infercast {

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
          {"memory_fraction", l.memory_fraction},
          {"memory_fraction_of", memory_basis_names().name(l.memory_basis)},
          {"kv_pool", kv_pool_names().name(l.kv_pool)},
          {"reserve_bytes", l.reserve_bytes},
          {"graph_max_tokens", l.graph_batch},
          {"kv_block_tokens", l.kv_block_tokens},
          {"preemption", preemption_names().name(l.preemption)},
          {"prefix_caching", l.prefix_caching},
          {"output_delay_steps", l.output_delay_steps},
          {"scheduler_steps", l.scheduler_steps},
          {"pp_micro_batches", l.pp_micro_batches}};
}

json serving_memory_json(const ServingMemory& m) {
  return {{"capacity_bytes", m.capacity_bytes},
          {"usable_bytes", m.usable_bytes},
          {"weights_bytes", m.weights_bytes},
          {"activation_bytes", m.activation_bytes},
          {"reserve_bytes", m.reserve_bytes},
          {"device_reserve_bytes", m.device_reserve_bytes},
          {"kv_bytes", m.kv_bytes},
          {"kv_bytes_per_token", m.kv_bytes_per_token},
          {"kv_bytes_per_token_past_windows", m.kv_bytes_per_token_past_windows},
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

void write_offload(JsonWriter& w, const OffloadResult& o, const OffloadSpec& spec) {
  const auto part = [&](const char* key, const OffloadPart& p) {
    w.key(key).begin_object().field("first_layer", p.first_layer).field("layers", p.layers);
    w.field("embedding", p.embedding).field("output", p.output).field("weights_bytes", p.a.weights_bytes);
    w.field("kv_cache_bytes", p.a.kv_cache_bytes).field("required_bytes", p.a.memory_required_bytes);
    w.field("capacity_bytes", p.a.memory_capacity_bytes).field("fits", p.a.fits).field("prefill_s", finite(p.prefill_s));
    w.field("prefill_streamed", p.prefill_streamed).field("stream_s", finite(p.stream_s));
    w.field("tpot_s", finite(p.a.tpot_mean_s)).field("runtime", p.a.execution.runtime ? p.a.execution.runtime->id : "reference");
    w.field("memory_efficiency", p.a.execution.eff.memory).end_object();
  };
  w.begin_object().field("gpu_layers", o.gpu_layers).field("layers", o.n_layers).field("chosen", o.chosen).key("host");
  write_hardware(w, spec.host);
  w.field("link_GBps", spec.link_bytes_per_s / 1e9).field("ubatch", spec.ubatch);
  part("device", o.device);
  part("host_part", o.host);
  w.end_object();
}

}  // namespace infercast
