// Every field a user sets in a request or a device or system document, written once: its path, range, default and a
// line of help. The readers (api/request.cpp, io/hardware_json.cpp, io/system_json.cpp) read through these entries,
// the `options` call (api/options.cpp) lists them with each enum's names and descriptions, and the CLI help and the
// page's controls take their choices, defaults and ranges from that call.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/json_reader.hpp"
#include "util/names.hpp"

namespace infercast {

constexpr std::int64_t kMaxTokens = 1000000000;  // 1e9 tokens per request
constexpr std::int64_t kMaxBatch = 1000000;

struct IntField {
  const char* path;  // JSON pointer in the request ("*" for an array index)
  std::int64_t lo, hi, fallback;
  const char* help;
  const char* key() const;  // the last part of the path
};

struct NumberField {
  const char* path;
  double lo, hi, fallback;
  const char* help;
  // Where 0 means "none" (lo 0): the smallest other value taken, so that a denormal or near-zero one cannot turn a
  // result infinite (0: every value from lo).
  double least = 0;
  const char* zero = "none";  // what 0 means, for messages (with `least`)
  const char* key() const;
};

// Reads `f` from the object `r` stands at (its last path part is the key), with the field's range and default.
std::int64_t read_field(Reader& r, const IntField& f);
double read_field(Reader& r, const NumberField& f);
// A required number in the field's range, read at `key` (the field's own key when empty: "*" paths name several).
double read_required(Reader& r, const NumberField& f, const std::string& key = "");
// The same range, optional: `fallback` when absent.
double read_field_at(Reader& r, const NumberField& f, const std::string& key, double fallback);

namespace field {
extern const IntField batch, prompt, cached, gen, prefill_chunk, request_cached, request_input, request_count;
extern const IntField image_width, image_height, image_count;
extern const IntField attention_tile, lora_rank, pin_weights, pin_kv;
extern const NumberField memory_fraction;
extern const IntField mla_q_lora_rank, mla_kv_lora_rank, mla_qk_nope_head_dim, mla_qk_rope_head_dim, mla_v_head_dim;
extern const IntField tp, pp, ep, dp, draft_tokens, max_batch, keep_points, axis_steps, map_steps, part_index, part_of;
extern const IntField devices_per_node, nodes, gpu_layers, ubatch, arch_compute_units;
extern const IntField serving_concurrency, serving_requests, serving_isl, serving_osl, serving_max_num_seqs,
    serving_max_batched_tokens, serving_scheduler_steps, serving_seed, deploy_devices, deploy_max_devices_per_pool;
extern const NumberField serving_request_rate, serving_isl_spread, serving_osl_spread, serving_prefix_hit_rate,
    deploy_max_ttft_ms, deploy_max_tpot_ms;
extern const NumberField arch_clock_ghz, arch_matrix_clock_ghz, arch_l2_mb;
extern const NumberField link_latency_us, link_efficiency, eff_gemm, eff_gemm_low, eff_attention, eff_elementwise, eff_memory, eff_dispatch_us;
extern const NumberField acceptance, acceptance_length, compute_power_fraction, static_fraction, power_w, lifetime_years, utilization,
    usd_per_kwh, pue, price_usd, grid_g_per_kwh, embodied_kgco2e, sram_bandwidth_gbps, max_tpot_s, max_ttft_s,
    max_power_w, compute_efficiency, memory_efficiency, memory_capacity_gib, memory_reserve_gb, device_memory_reserve_gb, device_memory_hidden_fraction, host_bandwidth_gbps,
    host_capacity_gb, link_gbps, host_memory_efficiency;
// A device's and a link's own numbers: ranges wide enough for any device built or planned (the largest peak,
// Cerebras WSE-3's 125 PFLOPS, is 1.25e5 TFLOPS; its on-chip SRAM runs at 2.1e7 GB/s) and narrow enough that every
// result stays finite (docs/schema.md, "Limits").
extern const NumberField hw_peak_tflops, hw_tier_capacity_gb, hw_tier_capacity_gib, hw_tier_bandwidth_gbps, hw_tier_energy_pj, hw_interconnect_gbps,
    hw_tdp_w, hw_idle_w, hw_price_usd, hw_embodied_kgco2e, link_bandwidth_gbps;
}  // namespace field

// An enum field by its name table: `fallback` when absent; an unknown name fails with <code prefix>.<kind> (default
// out_of_range) and a message listing the names.
template <class E>
E read_enum(Reader& r, const std::string& key, const NameTable<E>& t, E fallback, const std::string& kind = "out_of_range") {
  const std::string name = r.string_or(key, t.name(fallback));
  if (const auto v = t.find(name)) return *v;  // the error's path and code are put together only for an error
  return t.parse(name, r.child_path(key), r.code_prefix() + "." + kind);
}


}  // namespace infercast
