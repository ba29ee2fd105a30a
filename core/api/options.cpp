#include "api/options.hpp"

#include <cstring>

#include "analysis/analysis.hpp"
#include "calibrate/calibrate.hpp"
#include "cost/cost.hpp"
#include "dse/dse.hpp"
#include "ops/conventions.hpp"
#include "parallel/collective.hpp"
#include "parallel/parallel.hpp"
#include "scenario/scenario.hpp"

namespace infercast {

namespace {
const char* last_part(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}
const CostAssumptions kCosts{};
const Speculative kSpec{};
const MlaConversion kMla{};
}  // namespace

const char* IntField::key() const { return last_part(path); }
const char* NumberField::key() const { return last_part(path); }

std::int64_t read_field(Reader& r, const IntField& f) { return r.int_in_or(f.key(), f.lo, f.hi, f.fallback); }
double read_field(Reader& r, const NumberField& f) { return r.number_in_or(f.key(), f.lo, f.hi, f.fallback); }

namespace field {
const IntField batch{"/workload/batch", 1, kMaxBatch, 1, "identical requests"};
const IntField prompt{"/workload/prompt", 1, kMaxTokens, 512, "prompt tokens per request"};
const IntField cached{"/workload/cached", 0, kMaxTokens, 0, "tokens already in each request's KV cache"};
const IntField gen{"/workload/gen", 1, kMaxTokens, 128, "generated tokens per request, the first from the prefill"};
const IntField prefill_chunk{"/workload/prefill_chunk", 0, kMaxTokens, 0, "chunked prefill: new tokens per request per step (0: one step)"};
const IntField request_cached{"/workload/requests/*/cached", 0, kMaxTokens, 0, "tokens already cached for this request"};
const IntField request_input{"/workload/requests/*/input", 1, kMaxTokens, 1, "new tokens of this request in the first step"};
const IntField request_count{"/workload/requests/*/count", 1, kMaxBatch, 1, "identical requests like this one"};
const IntField attention_tile{"/attention_tile", 0, 65536, 0, "pad each request's keys to a multiple of this (0: none)"};
const IntField lora_rank{"/lora/rank", 1, 65536, 16, "rank of the LoRA adapters on the attention and MLP projections"};
const IntField pin_weights{"/placement/weights", 0, 15, -1, "memory tier the weights are placed in first (0: fastest)"};
const IntField pin_kv{"/placement/kv_cache", 0, 15, -1, "memory tier the KV cache is placed in first (0: fastest)"};
const IntField mla_q_lora_rank{"/convert_mla/q_lora_rank", 0, 65536, kMla.q_lora_rank, "query compression rank (0: none)"};
const IntField mla_kv_lora_rank{"/convert_mla/kv_lora_rank", 1, 65536, kMla.kv_lora_rank, "cached latent width"};
const IntField mla_qk_nope_head_dim{"/convert_mla/qk_nope_head_dim", 1, 4096, kMla.qk_nope_dim, "per-head key width without RoPE"};
const IntField mla_qk_rope_head_dim{"/convert_mla/qk_rope_head_dim", 0, 4096, kMla.qk_rope_dim, "shared rotary key width"};
const IntField mla_v_head_dim{"/convert_mla/v_head_dim", 1, 4096, kMla.v_head_dim, "per-head value width"};
const IntField tp{"/parallel/tp", 1, 4096, 1, "tensor parallelism: devices each layer is split over"};
const IntField pp{"/parallel/pp", 1, 4096, 1, "pipeline parallelism: stages of consecutive layers"};
const IntField ep{"/parallel/ep", 1, 4096, 1, "expert parallelism within a stage (divides tp)"};
const IntField dp{"/parallel/dp", 1, 65536, 1, "data-parallel replicas"};
const IntField draft_tokens{"/speculative/draft_tokens", 1, 16, 3, "tokens drafted per step"};
const IntField max_batch{"/batching/max_batch", 1, kMaxBatch, 65536, "largest batch on the curve"};
const IntField keep_points{"/keep_points", 0, 200000, 20000, "design points sampled into the result"};
const IntField axis_steps{"/axes/*/steps", 1, 10000, 10, "values on a sweep axis"};
const IntField map_steps{"/compute_TOPS/steps", 2, 200, 10, "grid steps of the t_c/t_m map (bandwidth_GBps too)"};
const NumberField acceptance{"/speculative/acceptance", 0, 1, kSpec.acceptance, "chance each drafted token is accepted"};
const NumberField compute_power_fraction{"/costs/compute_power_fraction", 0, 1, kCosts.compute_power_fraction, "share of dynamic power spent computing at full load"};
const NumberField static_fraction{"/costs/static_fraction", 0, 1, kCosts.static_fraction, "idle power as a share of the device's power"};
const NumberField power_w{"/costs/power_W", 0, 1e7, kCosts.power_w, "device power, watts (0: the device's own)"};
const NumberField lifetime_years{"/costs/lifetime_years", 0.01, 100, kCosts.lifetime_years, "years the device serves"};
const NumberField utilization{"/costs/utilization", 0.001, 1, kCosts.utilization, "share of the lifetime spent serving"};
const NumberField usd_per_kwh{"/costs/usd_per_kWh", 0, 100, kCosts.usd_per_kwh, "electricity price, US$ per kWh"};
const NumberField pue{"/costs/pue", 1, 10, kCosts.pue, "facility power per device power"};
const NumberField price_usd{"/costs/price_USD", 0, 1e10, kCosts.price_usd, "device price, US$ (0: the device's own)"};
const NumberField grid_g_per_kwh{"/costs/grid_gCO2e_per_kWh", 0, 5000, kCosts.grid_g_per_kwh, "grid carbon intensity (0: the region's)"};
const NumberField embodied_kgco2e{"/costs/embodied_kgCO2e", 0, 1e9, kCosts.embodied_kgco2e, "embodied carbon of the device, kg CO2e (the device's own when absent)"};
const NumberField sram_bandwidth_gbps{"/sram_bandwidth_GBps", 0, 1e9, 0, "bandwidth of swept on-chip SRAM, GB/s"};
const NumberField max_tpot_s{"/constraints/max_tpot_s", 0, 1e9, 0, "largest TPOT a design point may have (0: none)"};
const NumberField max_ttft_s{"/constraints/max_ttft_s", 0, 1e9, 0, "largest TTFT a design point may have (0: none)"};
const NumberField max_power_w{"/constraints/max_power_W", 0, 1e9, 0, "largest power a design point may draw (0: none)"};
const NumberField compute_efficiency{"/compute_efficiency", 0.001, 1, 1, "fraction of the peak reached, for the t_c/t_m map"};
const NumberField memory_efficiency{"/memory_efficiency", 0.001, 1, 1, "fraction of the bandwidth reached, for the t_c/t_m map"};
}  // namespace field

namespace {

json int_option(const IntField& f) {
  return {{"path", f.path}, {"kind", "integer"}, {"min", f.lo}, {"max", f.hi}, {"default", f.fallback}, {"help", f.help}};
}
json number_option(const NumberField& f) {
  return {{"path", f.path}, {"kind", "number"}, {"min", f.lo}, {"max", f.hi}, {"default", f.fallback}, {"help", f.help}};
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
  for (const IntField* f : {&batch, &prompt, &cached, &gen, &prefill_chunk, &request_cached, &request_input, &request_count})
    a.push_back(int_option(*f));
  json dtypes = json::array();
  for (const auto& d : all_dtypes()) dtypes.push_back({{"name", d.name}, {"description", d.definition}});
  a.push_back({{"path", "/precision/weights"}, {"kind", "dtype"}, {"values", dtypes}, {"default", nullptr},
               {"help", "weight format of every class; absent: as the model is published (its quantization_config), else bf16"}});
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
  a.push_back(int_option(attention_tile));
  a.push_back(int_option(lora_rank));
  a.push_back(enum_option("/lora/mode", lora_mode_names(), LoraMode::Unmerged, "how the adapters are applied"));
  a.push_back({{"path", "/online_hadamard"}, {"kind", "boolean"}, {"default", false}, {"help", "QuaRot's online rotations of q/k, the o_proj input and the down_proj input"}});
  for (const IntField* f : {&pin_weights, &pin_kv, &mla_q_lora_rank, &mla_kv_lora_rank, &mla_qk_nope_head_dim, &mla_qk_rope_head_dim,
                            &mla_v_head_dim, &tp, &pp, &ep, &dp})
    a.push_back(int_option(*f));
  a.push_back(enum_option("/parallel/algorithm", collective_algo_names(), CollectiveAlgo::Auto, "all-reduce algorithm"));
  a.push_back(int_option(draft_tokens));
  a.push_back(number_option(acceptance));
  for (const NumberField* f : {&compute_power_fraction, &static_fraction, &power_w, &lifetime_years, &utilization, &usd_per_kwh,
                               &pue, &price_usd, &grid_g_per_kwh, &embodied_kgco2e})
    a.push_back(number_option(*f));
  json regions = json::array();
  for (const auto& g : grid_regions()) regions.push_back({{"name", g.id}, {"description", g.name}});
  a.push_back({{"path", "/costs/region"}, {"kind", "enum"}, {"values", regions}, {"default", kCosts.region}, {"help", "grid region for CO2 per kWh"}});
  a.push_back(int_option(max_batch));
  a.push_back(int_option(keep_points));
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
