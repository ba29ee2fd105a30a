#include "io/runtime_json.hpp"

#include "io/defaults.hpp"

#include "runtime/params.hpp"

namespace infercast {

namespace {
std::optional<double> optional_fraction(Reader& r, const std::string& key) {
  if (!r.has(key)) {
    r.raw(key);
    return std::nullopt;
  }
  return r.number_in_or(key, 0.001, 1, 1);
}
std::optional<double> optional_us(Reader& r, const std::string& key) {
  if (!r.has(key)) {
    r.raw(key);
    return std::nullopt;
  }
  return r.number_in_or(key, 0, 1e6, 0) * 1e-6;
}

// The scheduler block (runtime/scheduler.hpp): every field optional but the source, each with the engine's default.
SchedulerSpec parse_scheduler(Reader s) {
  SchedulerSpec d;
  d.stated = true;
  d.source = s.string("source");
  d.policy = step_policy_names().parse(s.string_or("policy", step_policy_names().name(d.policy)), s.child_path("policy"), "runtime.out_of_range");
  d.chunked_prefill = s.boolean_or("chunked_prefill", d.chunked_prefill);
  d.max_num_seqs = s.int_in_or("max_num_seqs", 0, 1000000, d.max_num_seqs);
  d.max_num_batched_tokens = s.int_in_or("max_num_batched_tokens", 1, 100000000, d.max_num_batched_tokens);
  d.max_prefill_tokens = s.int_in_or("max_prefill_tokens", 0, 100000000, 0);
  if (s.has("rules")) {
    for (auto& rr : s.object_array("rules")) {
      SchedulerRule rule;
      rule.min_memory_gb = rr.number_in_or("min_memory_GB", 0, 1e6, 0);
      rule.max_memory_gb = rr.number_in_or("max_memory_GB", 0, 1e6, 0);
      rule.names = rr.string_array_or("names");
      rule.exclude = rr.string_array_or("exclude_names");
      if (rr.has("max_num_seqs")) rule.max_num_seqs = rr.int_in_or("max_num_seqs", 0, 1000000, 0);
      else rr.raw("max_num_seqs");
      if (rr.has("max_num_batched_tokens")) rule.max_num_batched_tokens = rr.int_in_or("max_num_batched_tokens", 1, 100000000, 1);
      else rr.raw("max_num_batched_tokens");
      for (auto [key, slot] : {std::pair{"graph_max_tokens", &rule.graph_max_tokens}, std::pair{"graph_max_tokens_tp4", &rule.graph_max_tokens_tp4}}) {
        if (rr.has(key)) *slot = rr.int_in_or(key, 0, 1000000, 0);
        else rr.raw(key);
      }
      rr.reject_unknown();
      d.rules.push_back(rule);
    }
  } else {
    s.raw("rules");
  }
  d.memory_fraction = s.number_in_or("memory_fraction", 0.01, 1, d.memory_fraction);
  d.memory_basis = memory_basis_names().parse(s.string_or("memory_fraction_of", memory_basis_names().name(d.memory_basis)),
                                              s.child_path("memory_fraction_of"), "runtime.out_of_range");
  d.memory_fraction_flag = s.string_or("memory_fraction_flag", "");
  d.kv_pool = kv_pool_names().parse(s.string_or("kv_pool", kv_pool_names().name(d.kv_pool)), s.child_path("kv_pool"), "runtime.out_of_range");
  if (s.has("reserve_MB")) {
    Reader m = s.object("reserve_MB");
    d.reserve.base_mb = m.number_in_or("base", 0, 1e7, 0);
    d.reserve.per_chunk_token_mb = m.number_in_or("per_chunk_token", 0, 1e4, 0);
    d.reserve.per_graph_batch_mb = m.number_in_or("per_graph_batch", 0, 1e4, 0);
    d.reserve.per_device_mb = m.number_in_or("per_device", 0, 1e6, 0);
    d.reserve.min_large_mb = m.number_in_or("min_above_60GB", 0, 1e7, 0);
    m.reject_unknown();
  } else {
    s.raw("reserve_MB");
  }
  if (d.memory_basis == MemoryBasis::Reserve && !s.has("reserve_MB"))
    s.fail("reserve_MB", "missing_field", s.child_path("reserve_MB") + " is missing; a \"reserve\" memory basis needs the reserve's terms");
  d.kv_block_tokens = s.int_in_or("kv_block_tokens", 1, 1000000, d.kv_block_tokens);
  d.preemption = preemption_names().parse(s.string_or("preemption", preemption_names().name(d.preemption)), s.child_path("preemption"), "runtime.out_of_range");
  d.prefix_caching = s.boolean_or("prefix_caching", d.prefix_caching);
  if (s.has("max_num_seqs_from_pool")) {
    Reader q = s.object("max_num_seqs_from_pool");
    d.pool_seqs.per_context = q.number_in_or("per_context", 0, 1e6, 0);
    d.pool_seqs.min = q.number_in_or("min", 0, 1e7, 0);
    d.pool_seqs.max = q.number_in_or("max", 1, 1e7, 1e7);
    d.pool_seqs.tokens_per_seq = q.number_in_or("tokens_per_seq", 1, 1e6, 1);
    if (d.pool_seqs.min > d.pool_seqs.max)
      q.fail("min", "out_of_range", q.child_path("min") + " holds " + number_text(json(d.pool_seqs.min)) + ", above max (" +
                                         number_text(json(d.pool_seqs.max)) + "); expected min at most max");
    q.reject_unknown();
  } else {
    s.raw("max_num_seqs_from_pool");
  }
  d.output_delay_steps = static_cast<int>(s.int_in_or("output_delay_steps", 0, 4, 0));
  d.scheduler_steps = static_cast<int>(s.int_in_or("scheduler_steps", 1, 64, 1));
  d.pp_micro_batches = s.boolean_or("pp_micro_batches", d.pp_micro_batches);
  d.window_kv_full_for = s.string_array_or("window_kv_full_for");
  d.window_kv_full_reason = s.string_or("window_kv_full_reason", "");
  d.window_pool_ratio = s.number_in_or("window_pool_ratio", 0, 1, 0);
  d.sampler_bytes_per_logit = s.number_in_or("sampler_bytes_per_logit", 0, 64, 0);
  s.reject_unknown();
  return d;
}

json scheduler_to_json(const SchedulerSpec& d) {
  json rules = json::array();
  for (const auto& r : d.rules) {
    json j = {{"min_memory_GB", r.min_memory_gb}, {"max_memory_GB", r.max_memory_gb}, {"names", r.names}, {"exclude_names", r.exclude}};
    if (r.max_num_seqs) j["max_num_seqs"] = *r.max_num_seqs;
    if (r.max_num_batched_tokens) j["max_num_batched_tokens"] = *r.max_num_batched_tokens;
    if (r.graph_max_tokens) j["graph_max_tokens"] = *r.graph_max_tokens;
    if (r.graph_max_tokens_tp4) j["graph_max_tokens_tp4"] = *r.graph_max_tokens_tp4;
    rules.push_back(j);
  }
  json out = {{"source", d.source},
              {"policy", step_policy_names().name(d.policy)},
              {"chunked_prefill", d.chunked_prefill},
              {"max_num_seqs", d.max_num_seqs},
              {"max_num_batched_tokens", d.max_num_batched_tokens},
              {"max_prefill_tokens", d.max_prefill_tokens},
              {"rules", rules},
              {"memory_fraction", d.memory_fraction},
              {"memory_fraction_of", memory_basis_names().name(d.memory_basis)},
              {"kv_pool", kv_pool_names().name(d.kv_pool)},
              {"memory_fraction_flag", d.memory_fraction_flag},
              {"kv_block_tokens", d.kv_block_tokens},
              {"preemption", preemption_names().name(d.preemption)},
              {"prefix_caching", d.prefix_caching},
              {"max_num_seqs_from_pool", {{"per_context", d.pool_seqs.per_context}, {"min", d.pool_seqs.min}, {"max", d.pool_seqs.max},
                                          {"tokens_per_seq", d.pool_seqs.tokens_per_seq}}},
              {"output_delay_steps", d.output_delay_steps},
              {"scheduler_steps", d.scheduler_steps},
              {"pp_micro_batches", d.pp_micro_batches},
              {"window_kv_full_for", d.window_kv_full_for},
              {"window_kv_full_reason", d.window_kv_full_reason},
              {"window_pool_ratio", d.window_pool_ratio},
              {"sampler_bytes_per_logit", d.sampler_bytes_per_logit}};
  if (d.memory_basis == MemoryBasis::Reserve)
    out["reserve_MB"] = {{"base", d.reserve.base_mb}, {"per_chunk_token", d.reserve.per_chunk_token_mb},
                         {"per_graph_batch", d.reserve.per_graph_batch_mb}, {"per_device", d.reserve.per_device_mb},
                         {"min_above_60GB", d.reserve.min_large_mb}};
  return out;
}
}  // namespace

RuntimeSpec parse_runtime(const json& doc, const std::string& path) {
  Reader r(doc, path, "runtime");
  RuntimeSpec rt;
  const auto version = r.positive_int("schema_version");
  if (version != 1)
    r.fail("schema_version", "unsupported", r.child_path("schema_version") + " holds " + std::to_string(version) + "; expected 1");
  rt.id = r.string("id");
  rt.name = r.string("name");
  rt.version = r.string_or("version", "");
  rt.source = r.string("source");
  rt.notes = r.string_or("notes", "");
  rt.backends = r.string_array_or("backends");
  {
    Reader l = r.object("launch");
    rt.launch = launch_mode_names().parse(l.string("mode"), l.child_path("mode"), "runtime.out_of_range");
    rt.kernel_launch_s = optional_us(l, "kernel_launch_us");
    rt.kernel_gap_s = optional_us(l, "kernel_gap_us");
    rt.graph_kernel_gap_s = optional_us(l, "graph_kernel_gap_us");
    rt.step_overhead_s = l.number_in_or("step_overhead_us", 0, 1e7, 0) * 1e-6;
    rt.graph_max_tokens = l.int_in_or("graph_max_tokens", 0, 1000000000, 0);
    l.reject_unknown();
  }
  if (r.has("fusion")) {
    Reader f = r.object("fusion");
    rt.fusion.qkv = f.boolean_or("qkv", false);
    rt.fusion.gate_up = f.boolean_or("gate_up", false);
    rt.act_in_gemm = f.boolean_or("act_in_gemm", false);
    rt.fusion.norm_residual = f.boolean_or("norm_residual", false);
    rt.fusion.rope = f.boolean_or("rope", false);
    rt.fusion.kv_write = f.boolean_or("kv_write", false);
    rt.fusion.qk_norm = f.boolean_or("qk_norm", false);
    rt.fusion.kv_append_copy = f.boolean_or("kv_append_copy", false);
    f.reject_unknown();
  } else {
    r.raw("fusion");
  }
  if (r.has("kernels_per_op")) {
    Reader k = r.object("kernels_per_op");
    rt.fusion.norm_kernels = k.number_in_or("norm", 1, 100, 1);
    rt.fusion.rope_kernels = k.number_in_or("rope", 1, 100, 1);
    rt.fusion.act_kernels = k.number_in_or("act", 1, 100, 1);
    rt.fusion.kv_write_kernels = k.number_in_or("kv_write", 1, 100, 1);
    rt.fusion.gemm_kernels = k.number_in_or("gemm", 1, 100, 1);
    k.reject_unknown();
  } else {
    r.raw("kernels_per_op");
  }
  rt.collective_wait_s = collective_wait_fit().wait_us * 1e-6;  // the class fit, unless the file states its own
  if (r.has("collectives")) {
    Reader c = r.object("collectives");
    rt.custom_allreduce_max_bytes = c.number_in_or("custom_allreduce_max_bytes", 0, 1e12, 0);
    rt.one_shot_max_bytes = c.number_in_or("one_shot_max_bytes", 0, 1e12, 0);
    rt.one_shot_max_bytes_4 = c.number_in_or("one_shot_max_bytes_4", 0, 1e12, rt.one_shot_max_bytes);
    rt.nccl_base_latency_s = c.number_in_or("nccl_base_latency_us", 0, 1e6, 0) * 1e-6;
    if (c.has("wait_us")) rt.collective_wait_s = c.number_in("wait_us", 0, 1e4) * 1e-6;
    c.reject_unknown();
  } else {
    r.raw("collectives");
  }
  rt.flash_attention = r.boolean_or("flash_attention", true);
  rt.unfused_score_bytes = r.number_in_or("unfused_score_bytes", 0, 8, 0);
  rt.prompt_micro_batch = r.int_in_or("prompt_micro_batch", 0, 1000000, 0);
  rt.compute_buffer = compute_buffer_names().parse(r.string_or("compute_buffer", "step"), r.child_path("compute_buffer"), "runtime.out_of_range");
  if (rt.compute_buffer == ComputeBuffer::Reserved && rt.prompt_micro_batch <= 0)
    r.fail("prompt_micro_batch", "out_of_range",
           r.child_path("prompt_micro_batch") + " holds " + std::to_string(rt.prompt_micro_batch) +
               "; expected at least 1 where compute_buffer is \"reserved\" (the micro-batch the buffer is reserved for: llama.cpp's n_ubatch, 512)");
  rt.device_split = device_split_names().parse(r.string_or("device_split", "tensor"), r.child_path("device_split"), "runtime.out_of_range");
  rt.gemm_waves = r.boolean_or("gemm_waves", true);
  if (r.has("compute")) {
    Reader c = r.object("compute");
    rt.fp8 = c.boolean_or("fp8", true);
    rt.fp16_accumulate = c.boolean_or("fp16_accumulate", false);
    rt.quant = quant_path_names().parse(c.string_or("quantized", "dequantize"), c.child_path("quantized"), "runtime.out_of_range");
    rt.int8_dot_max_tokens = c.int_in_or("int8_dot_max_tokens", 0, 1000000000, 0);
    rt.fusion.dequant_copy_above = static_cast<double>(c.int_in_or("dequant_copy_above", 0, 1000000000, 0));
    // The types it runs on a CPU's matrix engine (AMX, SME); absent: every type (the device's peaks as published).
    if (c.has("matrix_engine")) {
      const std::vector<std::string> types = c.string_array_or("matrix_engine");
      rt.matrix_engine.fill(false);
      for (std::size_t i = 0; i < types.size(); ++i)
        rt.matrix_engine[static_cast<std::size_t>(compute_type_names().parse(
            types[i], c.child_path("matrix_engine") + "/" + std::to_string(i), "runtime.out_of_range"))] = true;
    } else {
      c.raw("matrix_engine");
    }
    const std::vector<std::string> formats = c.string_array_or("weight_formats");
    for (std::size_t i = 0; i < formats.size(); ++i)
      rt.weight_formats.push_back(
          weight_format_names().parse(formats[i], c.child_path("weight_formats") + "/" + std::to_string(i), "runtime.out_of_range"));
    c.reject_unknown();
  } else {
    r.raw("compute");
  }
  if (r.has("efficiency")) {
    Reader e = r.object("efficiency");
    rt.eff.gemm = optional_fraction(e, "gemm");
    rt.eff.gemm_low = optional_fraction(e, "gemm_low");
    rt.eff.kv_memory = optional_fraction(e, "kv_memory");
    rt.eff.attention = optional_fraction(e, "attention");
    rt.eff.elementwise = optional_fraction(e, "elementwise");
    if (e.has("memory")) {
      Reader m = e.object("memory");
      for (const auto& entry : memory_family_names().entries())
        rt.eff.memory[static_cast<int>(entry.value)] = optional_fraction(m, entry.name);
      m.reject_unknown();
    } else {
      e.raw("memory");
    }
    e.reject_unknown();
  } else {
    r.raw("efficiency");
  }
  if (r.has("scheduler")) {
    rt.scheduler = parse_scheduler(r.object("scheduler"));
  } else {
    r.raw("scheduler");
    // Assumed defaults: a runtime that splits a model by layers passes a step's batch through its stages in turn
    // (ExLlamaV2's gpu_split, transformers' device_map), no micro-batches in flight.
    if (rt.device_split == DeviceSplit::Layers) rt.scheduler.pp_micro_batches = false;
  }
  r.reject_unknown();
  for (RtParam p : all_rt_params()) rt.prior.push_back(get_param(rt, p));
  return rt;
}

json runtime_to_json(const RuntimeSpec& rt) {
  const auto us = [](const std::optional<double>& s) { return s ? json(*s * 1e6) : json(nullptr); };
  const auto frac = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  json memory = json::object();
  for (const auto& entry : memory_family_names().entries())
    if (const auto& v = rt.eff.memory[static_cast<int>(entry.value)]) memory[entry.name] = *v;
  return {{"schema_version", 1},
          {"id", rt.id},
          {"name", rt.name},
          {"version", rt.version},
          {"backends", rt.backends},
          {"source", rt.source},
          {"notes", rt.notes},
          {"launch",
           {{"mode", launch_mode_names().name(rt.launch)},
            {"kernel_launch_us", us(rt.kernel_launch_s)},
            {"kernel_gap_us", us(rt.kernel_gap_s)},
            {"graph_kernel_gap_us", us(rt.graph_kernel_gap_s)},
            {"step_overhead_us", rt.step_overhead_s * 1e6},
            {"graph_max_tokens", rt.graph_max_tokens}}},
          {"fusion",
           {{"qkv", rt.fusion.qkv},
            {"gate_up", rt.fusion.gate_up},
            {"act_in_gemm", rt.act_in_gemm},
            {"norm_residual", rt.fusion.norm_residual},
            {"rope", rt.fusion.rope},
            {"kv_write", rt.fusion.kv_write},
            {"qk_norm", rt.fusion.qk_norm},
            {"kv_append_copy", rt.fusion.kv_append_copy}}},
          {"kernels_per_op", {{"norm", rt.fusion.norm_kernels}, {"rope", rt.fusion.rope_kernels}, {"act", rt.fusion.act_kernels},
                              {"kv_write", rt.fusion.kv_write_kernels}, {"gemm", rt.fusion.gemm_kernels}}},
          {"collectives",
           {{"custom_allreduce_max_bytes", rt.custom_allreduce_max_bytes},
            {"one_shot_max_bytes", rt.one_shot_max_bytes},
            {"one_shot_max_bytes_4", rt.one_shot_max_bytes_4},
            {"nccl_base_latency_us", rt.nccl_base_latency_s * 1e6},
            {"wait_us", rt.collective_wait_s * 1e6}}},
          {"flash_attention", rt.flash_attention},
          {"unfused_score_bytes", rt.unfused_score_bytes},
          {"prompt_micro_batch", rt.prompt_micro_batch},
          {"compute_buffer", compute_buffer_names().name(rt.compute_buffer)},
          {"device_split", device_split_names().name(rt.device_split)},
          {"gemm_waves", rt.gemm_waves},
          {"compute",
           {{"fp8", rt.fp8},
            {"fp16_accumulate", rt.fp16_accumulate},
            {"quantized", quant_path_names().name(rt.quant)},
            {"int8_dot_max_tokens", rt.int8_dot_max_tokens},
            {"matrix_engine", [&] {
               json a = json::array();
               for (std::size_t i = 0; i < rt.matrix_engine.size(); ++i)
                 if (rt.matrix_engine[i]) a.push_back(compute_type_name(static_cast<ComputeType>(i)));
               return a;
             }()},
            {"dequant_copy_above", rt.fusion.dequant_copy_above},
            {"weight_formats", [&] {
               json a = json::array();
               for (WeightFormat f : rt.weight_formats) a.push_back(weight_format_names().name(f));
               return a;
             }()}}},
          {"efficiency",
           {{"gemm", frac(rt.eff.gemm)}, {"gemm_low", frac(rt.eff.gemm_low)}, {"kv_memory", frac(rt.eff.kv_memory)}, {"attention", frac(rt.eff.attention)}, {"elementwise", frac(rt.eff.elementwise)}, {"memory", memory}}},
          {"scheduler", rt.scheduler.stated ? scheduler_to_json(rt.scheduler) : json(nullptr)}};
}

}  // namespace infercast
