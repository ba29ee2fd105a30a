#include "io/runtime_json.hpp"

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
  rt.flash_attention = r.boolean_or("flash_attention", true);
  rt.gemm_waves = r.boolean_or("gemm_waves", true);
  if (r.has("compute")) {
    Reader c = r.object("compute");
    rt.fp8 = c.boolean_or("fp8", true);
    rt.fp16_accumulate = c.boolean_or("fp16_accumulate", false);
    rt.quant = quant_path_names().parse(c.string_or("quantized", "dequantize"), c.child_path("quantized"), "runtime.out_of_range");
    rt.int8_dot_max_tokens = c.int_in_or("int8_dot_max_tokens", 0, 1000000000, 0);
    rt.fusion.dequant_copy_above = static_cast<double>(c.int_in_or("dequant_copy_above", 0, 1000000000, 0));
    c.reject_unknown();
  } else {
    r.raw("compute");
  }
  if (r.has("efficiency")) {
    Reader e = r.object("efficiency");
    rt.eff.gemm = optional_fraction(e, "gemm");
    rt.eff.gemm_low = optional_fraction(e, "gemm_low");
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
          {"flash_attention", rt.flash_attention},
          {"gemm_waves", rt.gemm_waves},
          {"compute",
           {{"fp8", rt.fp8},
            {"fp16_accumulate", rt.fp16_accumulate},
            {"quantized", quant_path_names().name(rt.quant)},
            {"int8_dot_max_tokens", rt.int8_dot_max_tokens},
            {"dequant_copy_above", rt.fusion.dequant_copy_above}}},
          {"efficiency",
           {{"gemm", frac(rt.eff.gemm)}, {"gemm_low", frac(rt.eff.gemm_low)}, {"attention", frac(rt.eff.attention)}, {"elementwise", frac(rt.eff.elementwise)}, {"memory", memory}}}};
}

}  // namespace infercast
