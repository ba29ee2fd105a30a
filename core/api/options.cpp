#include "api/options.hpp"

#include "analysis/analysis.hpp"
#include "api/result.hpp"
#include "calibrate/calibrate.hpp"
#include "cost/cost.hpp"
#include "dse/dse.hpp"
#include "io/defaults.hpp"
#include "ops/conventions.hpp"
#include "parallel/collective.hpp"
#include "parallel/parallel.hpp"
#include "quant/llama_mix.hpp"
#include "scenario/scenario.hpp"
#include "serving/deploy.hpp"

namespace infercast {

namespace {
const CostAssumptions kCosts{};
}  // namespace

namespace {

json int_option(const IntField& f) {
  return {{"path", f.path}, {"kind", "integer"}, {"min", f.lo}, {"max", f.hi}, {"default", f.fallback}, {"help", f.help}};
}
json number_option(const NumberField& f) {
  json o = {{"path", f.path}, {"kind", "number"}, {"min", f.lo}, {"max", f.hi}, {"default", f.fallback}, {"help", f.help}};
  if (f.least > 0) o["least_nonzero"] = f.least;  // 0 means none; any other value at least this
  return o;
}
template <class E>
json enum_option(const char* path, const NameTable<E>& t, E def, const char* help) {
  json values = json::array();
  for (const auto& e : t.entries()) values.push_back({{"name", e.name}, {"description", e.description}});
  return {{"path", path}, {"kind", "enum"}, {"values", values}, {"default", t.name(def)}, {"help", help}};
}

}  // namespace

json options_json() {
  using namespace field;
  json a = json::array();
  for (const IntField* f : {&batch, &prompt, &cached, &gen, &prefill_chunk, &request_cached, &request_input, &request_count,
                            &image_width, &image_height, &image_count})
    a.push_back(int_option(*f));
  json dtypes = json::array();
  for (const auto& d : all_dtypes()) dtypes.push_back({{"name", d.name}, {"description", d.definition}});
  json weight_formats = dtypes;
  for (const auto& x : llama_mixes()) weight_formats.push_back({{"name", x.name}, {"description", x.description}});
  a.push_back({{"path", "/precision/weights"}, {"kind", "dtype"}, {"values", weight_formats}, {"default", nullptr},
               {"help", "weight format of every class, or a llama.cpp file type (q4_k_m, ...: each tensor as llama-quantize "
                        "makes it); absent: as the model is published (its quantization_config), else bf16"}});
  a.push_back({{"path", "/precision/activations"}, {"kind", "dtype"}, {"values", dtypes}, {"default", "bf16"}, {"help", "what GEMMs compute in"}});
  a.push_back({{"path", "/precision/kv"}, {"kind", "dtype"}, {"values", dtypes}, {"default", "bf16"}, {"help", "KV-cache format"}});
  for (const auto& e : weight_class_names().entries())
    a.push_back({{"path", std::string("/precision/") + e.name}, {"kind", "dtype"}, {"values", dtypes}, {"default", nullptr},
                 {"help", std::string("format of ") + e.description + " (absent: /precision/weights)"}});
  json conventions = json::array();
  for (const auto& c : all_conventions()) conventions.push_back({{"name", c.name}, {"description", c.description}});
  a.push_back({{"path", "/convention"}, {"kind", "enum"}, {"values", conventions}, {"default", "infercast"}, {"help", "how FLOPs and bytes are counted"}});
  json scenarios = json::array();
  for (const auto& s : all_scenarios()) scenarios.push_back({{"name", s.name}, {"description", s.description}});
  a.push_back({{"path", "/scenario"}, {"kind", "enum"}, {"values", scenarios}, {"default", nullptr}, {"help", "a built-in bundle of optimizations; fields given override it"}});
  a.push_back(enum_option("/attention", attn_impl_names(), AttnImpl::Fused, "attention kernels"));
  a.push_back(enum_option("/mla", mla_form_names(), MlaForm::Auto, "how MLA layers run"));
  a.push_back(enum_option("/mlp", mlp_form_names(), false, "MLP kernels"));
  a.push_back(enum_option("/moe_traffic", moe_traffic_names(), MoeTraffic::Expected, "expert weights a step reads"));
  a.push_back(enum_option("/timing", timing_names(), Timing::PerOp, "how operator times add up (phase-max by default under the life convention)"));
  a.push_back(enum_option("/layout", table_layout_names(), TableLayout::Rows, "how analyze returns its operator table and timelines"));
  a.push_back({{"path", "/echo_requests"}, {"kind", "boolean"}, {"default", false},
               {"help", "analyze: repeat the workload's requests in the result (workload.requests)"}});
  a.push_back(int_option(attention_tile));
  a.push_back(number_option(memory_fraction));
  a.push_back(int_option(lora_rank));
  a.push_back(enum_option("/lora/mode", lora_mode_names(), LoraMode::Unmerged, "how the adapters are applied"));
  a.push_back({{"path", "/online_hadamard"}, {"kind", "boolean"}, {"default", false}, {"help", "QuaRot's online rotations of q/k, the o_proj input and the down_proj input"}});
  for (const IntField* f : {&pin_weights, &pin_kv, &mla_q_lora_rank, &mla_kv_lora_rank, &mla_qk_nope_head_dim, &mla_qk_rope_head_dim,
                            &mla_v_head_dim, &tp, &pp, &ep, &dp})
    a.push_back(int_option(*f));
  a.push_back(enum_option("/parallel/algorithm", collective_algo_names(), CollectiveAlgo::Auto, "all-reduce algorithm"));
  a.push_back(int_option(devices_per_node));
  a.push_back(int_option(nodes));
  a.push_back(number_option(link_latency_us));
  a.push_back(number_option(link_efficiency));
  for (const NumberField* f : {&eff_gemm, &eff_gemm_low, &eff_attention, &eff_elementwise, &eff_memory, &eff_dispatch_us}) {
    json o = number_option(*f);
    o["default"] = nullptr;  // the device class's own
    a.push_back(o);
  }
  for (const NumberField* f : {&hw_peak_tflops, &hw_tier_capacity_gb, &hw_tier_capacity_gib, &hw_tier_bandwidth_gbps, &hw_tier_energy_pj, &hw_interconnect_gbps,
                               &hw_tdp_w, &hw_idle_w, &hw_price_usd, &hw_embodied_kgco2e, &link_bandwidth_gbps}) {
    json o = number_option(*f);
    o["default"] = nullptr;  // required, or the device's own when absent
    a.push_back(o);
  }
  for (const NumberField* f : {&memory_capacity_gib, &memory_reserve_gb, &device_memory_reserve_gb}) {
    a.push_back(number_option(*f));
    a.back()["default"] = nullptr;  // the device's own, else its class's
  }
  {
    json o = int_option(gpu_layers);
    o["default"] = nullptr;  // the most layers that fit
    a.push_back(o);
  }
  a.push_back(int_option(ubatch));
  for (const NumberField* f : {&host_bandwidth_gbps, &host_capacity_gb, &link_gbps}) a.push_back(number_option(*f));
  a.push_back(number_option(host_memory_efficiency));
  a.back()["default"] = nullptr;  // the llama.cpp-cpu runtime's
  json techs = json::array();
  for (const auto& e : memory_tech_names().entries()) techs.push_back({{"name", e.name}, {"description", e.description}});
  a.push_back({{"path", "/hardware/memory_tiers/*/technology"}, {"kind", "enum"}, {"values", techs}, {"default", nullptr},
               {"help", "what the memory tier is made of (absent: not stated)"}});
  json gens = json::array();
  for (const auto& g : generation_table()) gens.push_back({{"name", g.key}, {"description", g.name}});
  a.push_back({{"path", "/hardware/architecture/generation"}, {"kind", "enum"}, {"values", gens}, {"default", nullptr},
               {"help", "compute engine generation: its FLOP per clock per unit (the architectures call)"}});
  a.push_back(int_option(arch_compute_units));
  a.back()["default"] = nullptr;  // not known
  for (const NumberField* f : {&arch_clock_ghz, &arch_matrix_clock_ghz, &arch_l2_mb}) {
    a.push_back(number_option(*f));
    a.back()["default"] = nullptr;
  }
  a.push_back(int_option(draft_tokens));
  a.push_back(number_option(acceptance));
  a.push_back(number_option(acceptance_length));
  for (const NumberField* f : {&compute_power_fraction, &static_fraction, &power_w, &lifetime_years, &utilization, &usd_per_kwh,
                               &pue, &price_usd, &grid_g_per_kwh, &embodied_kgco2e})
    a.push_back(number_option(*f));
  json regions = json::array();
  for (const auto& g : grid_regions()) regions.push_back({{"name", g.id}, {"description", g.name}});
  a.push_back({{"path", "/costs/region"}, {"kind", "enum"}, {"values", regions}, {"default", kCosts.region}, {"help", "grid region for CO2 per kWh"}});
  for (const IntField* f : {&serving_concurrency, &serving_requests, &serving_isl, &serving_osl, &serving_max_num_seqs,
                            &serving_max_batched_tokens, &serving_scheduler_steps, &serving_seed, &deploy_devices, &deploy_max_devices_per_pool})
    a.push_back(int_option(*f));
  for (const NumberField* f : {&serving_request_rate, &serving_isl_spread, &serving_osl_spread, &serving_prefix_hit_rate,
                               &deploy_max_ttft_ms, &deploy_max_tpot_ms})
    a.push_back(number_option(*f));
  a.push_back(enum_option("/serving/isl_distribution", length_kind_names(), LengthKind::Fixed, "how prompt lengths vary"));
  a.push_back(enum_option("/serving/osl_distribution", length_kind_names(), LengthKind::Fixed, "how output lengths vary"));
  a.push_back({{"path", "/serving/simulate"}, {"kind", "boolean"}, {"default", true}, {"help", "run the request-level simulation (else the analytical steady state only)"}});
  a.push_back(enum_option("/deploy/disaggregated", disagg_mode_names(), DisaggMode::Auto, "which deployments are searched"));
  a.push_back(int_option(max_batch));
  a.push_back(int_option(keep_points));
  a.push_back(int_option(part_index));
  a.push_back(int_option(part_of));
  a.push_back(int_option(axis_steps));
  a.push_back(enum_option("/axes/*/param", dse_param_names(), DseParam::ComputeTflops, "hardware parameter a sweep axis varies"));
  json objectives = enum_option("/objectives/*", dse_objective_names(), DseObjective::Tpot, "objectives of the Pareto front (2 to 4)");
  objectives["default"] = {"tpot_s", "usd_per_million_tokens"};
  a.push_back(objectives);
  for (const NumberField* f : {&sram_bandwidth_gbps, &max_tpot_s, &max_ttft_s, &max_power_w, &compute_efficiency, &memory_efficiency})
    a.push_back(number_option(*f));
  a.push_back(int_option(map_steps));
  a.push_back(enum_option("/points/*/metric", metric_names(), Metric::TpotS, "what a calibration point measured"));
  json fit = enum_option("/fit/*", eff_param_names(), EffParam::Gemm, "efficiencies calibration fits");
  fit["default"] = {"gemm", "attention", "memory", "dispatch_us"};
  a.push_back(fit);
  return a;
}

}  // namespace infercast
