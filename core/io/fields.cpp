#include "io/fields.hpp"

#include <cstring>

#include "cost/cost.hpp"
#include "parallel/parallel.hpp"

namespace infercast {

namespace {
const char* last_part(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}
const CostAssumptions kCosts{};
// The smallest bandwidth and power other than 0 ("none"): a tier's and a link's least bandwidth, and a milliwatt.
constexpr double kLeastGBps = 1e-6;
constexpr double kLeastWatts = 1e-3;
const Speculative kSpec{};
const MlaConversion kMla{};
}  // namespace

const char* IntField::key() const { return last_part(path); }
const char* NumberField::key() const { return last_part(path); }

std::int64_t read_field(Reader& r, const IntField& f) { return r.int_in_or(f.key(), f.lo, f.hi, f.fallback); }
double read_field(Reader& r, const NumberField& f) { return read_field_at(r, f, f.key(), f.fallback); }
double read_required(Reader& r, const NumberField& f, const std::string& key) {
  return r.number_in(key.empty() ? std::string(f.key()) : key, f.lo, f.hi);
}
double read_field_at(Reader& r, const NumberField& f, const std::string& key, double fallback) {
  return f.least > 0 ? r.zero_or_number_in_or(key, f.least, f.hi, fallback, f.zero) : r.number_in_or(key, f.lo, f.hi, fallback);
}

namespace field {
const IntField batch{"/workload/batch", 1, kMaxBatch, 1, "identical requests"};
const IntField prompt{"/workload/prompt", 1, kMaxTokens, 512, "prompt tokens per request"};
const IntField cached{"/workload/cached", 0, kMaxTokens, 0, "tokens already in each request's KV cache"};
const IntField gen{"/workload/gen", 1, kMaxTokens, 128, "generated tokens per request, the first from the prefill"};
const IntField prefill_chunk{"/workload/prefill_chunk", 0, kMaxTokens, 0, "chunked prefill: new tokens per request per step (0: one step)"};
const IntField request_cached{"/workload/requests/*/cached", 0, kMaxTokens, 0, "tokens already cached for this request"};
const IntField request_input{"/workload/requests/*/input", 1, kMaxTokens, 1, "new tokens of this request in the first step"};
const IntField request_count{"/workload/requests/*/count", 1, kMaxBatch, 1, "identical requests like this one"};
const IntField image_width{"/workload/images/*/width", 1, 65536, 1024, "image width, pixels (in every new prompt)"};
const IntField image_height{"/workload/images/*/height", 1, 65536, 1024, "image height, pixels"};
const IntField image_count{"/workload/images/*/count", 1, 1024, 1, "identical images of this size"};
const NumberField memory_fraction{"/memory_fraction", 0, 1, 0,
                                  "the runtime's memory fraction (vLLM --gpu-memory-utilization, SGLang --mem-fraction-static, TensorRT-LLM free_gpu_memory_fraction; 0: the runtime's default)"};
const IntField attention_tile{"/attention_tile", 0, 65536, 0, "pad each request's keys to a multiple of this (0: none)"};
const IntField lora_rank{"/lora/rank", 1, 65536, 16,
                         "rank of the LoRA adapters on the attention and MLP projections: none unless a rank or a mode is given (a mode alone: 16)"};
const IntField pin_weights{"/placement/weights", 0, 15, -1, "memory tier the weights are placed in first (0: fastest)"};
const IntField pin_kv{"/placement/kv_cache", 0, 15, -1, "memory tier the KV cache is placed in first (0: fastest)"};
const IntField mla_q_lora_rank{"/convert_mla/q_lora_rank", 0, 65536, kMla.q_lora_rank, "query compression rank (0: none)"};
const IntField mla_kv_lora_rank{"/convert_mla/kv_lora_rank", 1, 65536, kMla.kv_lora_rank, "cached latent width"};
const IntField mla_qk_nope_head_dim{"/convert_mla/qk_nope_head_dim", 1, 4096, kMla.qk_nope_dim, "per-head key width without RoPE"};
const IntField mla_qk_rope_head_dim{"/convert_mla/qk_rope_head_dim", 0, 4096, kMla.qk_rope_dim, "shared rotary key width"};
const IntField mla_v_head_dim{"/convert_mla/v_head_dim", 1, 4096, kMla.v_head_dim, "per-head value width"};
const IntField tp{"/parallel/tp", 1, 4096, 1, "tensor parallelism: devices each layer is split over (with a system and no plan given: the largest group of one node, at most 8, that the model splits over; 1 under a runtime that splits by layers, as llama.cpp)"};
const IntField pp{"/parallel/pp", 1, 4096, 1, "pipeline parallelism: stages of consecutive layers (with a system and no plan given: one per device under a runtime that splits by layers, as llama.cpp; else one per node, on the fewest nodes that hold the model, when one node cannot, else 1)"};
const IntField ep{"/parallel/ep", 1, 4096, 1, "expert parallelism within a stage (divides tp)"};
const IntField dp{"/parallel/dp", 1, 65536, 1, "data-parallel replicas"};
const IntField draft_tokens{"/speculative/draft_tokens", 1, 16, 3, "tokens drafted per step (gamma; vLLM's num_speculative_tokens)"};
const IntField max_batch{"/batching/max_batch", 1, kMaxBatch, 65536, "largest batch on the curve"};
const IntField part_index{"/part/index", 0, 4095, 0, "which part of the grid this sweep evaluates (from 0)"};
const IntField part_of{"/part/of", 1, 4096, 1, "parts the grid is split into (workers); parts merge into the whole's result"};
const IntField keep_points{"/keep_points", 0, 200000, 20000, "design points sampled into the result"};
const IntField axis_steps{"/axes/*/steps", 1, 10000, 10, "values on a sweep axis"};
const IntField map_steps{"/compute_TOPS/steps", 2, 200, 10, "grid steps of the t_c/t_m map (bandwidth_GBps too)"};
const IntField devices_per_node{"/system/devices_per_node", 1, 4096, 1, "devices in one node"};
const IntField nodes{"/system/nodes", 1, 65536, 1, "nodes"};
const IntField arch_compute_units{"/hardware/architecture/compute_units", 1, 10000000, 0, "SMs, CUs, GPU cores, CPU cores, NPU tiles or matrix engines (absent: not known)"};
const NumberField arch_clock_ghz{"/hardware/architecture/clock_GHz", 0.001, 20, 0, "boost clock, GHz (absent: not known)"};
const NumberField arch_matrix_clock_ghz{"/hardware/architecture/matrix_clock_GHz", 0.001, 20, 0, "the clock matrix-engine peaks are quoted at, when it differs from the boost clock, GHz"};
const NumberField arch_l2_mb{"/hardware/architecture/l2_MB", 0, 1e6, 0, "last-level on-chip cache, MB (absent: not known)"};
const NumberField link_latency_us{"/system/intra/latency_us", 0, 1e6, 0, "latency per hop, microseconds (inter-node links too)"};
const NumberField link_efficiency{"/system/intra/efficiency", 0.01, 1, 0.8, "fraction of the link's bandwidth collectives reach (inter-node links too)"};
const NumberField eff_gemm{"/hardware/efficiency/gemm", 0.001, 1, 0, "fraction of the peak GEMMs reach (default: the device class's)"};
const NumberField eff_gemm_low{"/hardware/efficiency/gemm_low", 0.001, 1, 0, "fraction of the 8-bit (or narrower) peak GEMMs in 8 bits or fewer reach (default: the runtime's, scaled as a stated gemm scales it)"};
const NumberField eff_attention{"/hardware/efficiency/attention", 0.001, 1, 0, "fraction of the peak attention reaches (default: the device class's)"};
const NumberField eff_elementwise{"/hardware/efficiency/elementwise", 0.001, 1, 0, "fraction of the peak elementwise operators reach (default: the device class's)"};
const NumberField eff_memory{"/hardware/efficiency/memory", 0.001, 1, 0, "fraction of the memory bandwidth reached (default: the device class's)"};
const NumberField eff_dispatch_us{"/hardware/efficiency/dispatch_us", 0, 1e6, 0, "cost of one kernel dispatch, microseconds (default: the device class's)"};
const NumberField acceptance{"/speculative/acceptance", 0, 1, kSpec.acceptance,
                              "chance each drafted token is accepted once those before it were (alpha; not vLLM's draft acceptance rate, which is accepted / drafted)"};
const NumberField acceptance_length{"/speculative/acceptance_length", 0, 17, 0,
                                    "mean tokens a verification step yields, the bonus token included: vLLM's \"Mean acceptance length\", SGLang's accept length, 1 + draft tokens x vLLM's draft acceptance rate (0: from acceptance; else at most draft_tokens + 1)", 1,
                                    "from /speculative/acceptance"};
const NumberField compute_power_fraction{"/costs/compute_power_fraction", 0, 1, kCosts.compute_power_fraction, "share of dynamic power spent computing at full load"};
const NumberField static_fraction{"/costs/static_fraction", 0, 1, kCosts.static_fraction, "idle power as a share of the device's power"};
const NumberField power_w{"/costs/power_W", 0, 1e7, kCosts.power_w, "device power, watts (0: the device's own)", kLeastWatts, "the device's own"};
const NumberField lifetime_years{"/costs/lifetime_years", 0.01, 100, kCosts.lifetime_years, "years the device serves"};
const NumberField utilization{"/costs/utilization", 0.001, 1, kCosts.utilization, "share of the lifetime spent serving"};
const NumberField usd_per_kwh{"/costs/usd_per_kWh", 0, 100, kCosts.usd_per_kwh, "electricity price, US$ per kWh"};
const NumberField pue{"/costs/pue", 1, 10, kCosts.pue, "facility power per device power"};
const NumberField price_usd{"/costs/price_USD", 0, 1e10, kCosts.price_usd, "device price, US$ (0: the device's own)"};
const NumberField grid_g_per_kwh{"/costs/grid_gCO2e_per_kWh", 0, 5000, kCosts.grid_g_per_kwh, "grid carbon intensity (0: the region's)"};
const NumberField embodied_kgco2e{"/costs/embodied_kgCO2e", 0, 1e9, kCosts.embodied_kgco2e, "embodied carbon of the device, kg CO2e (the device's own when absent)"};
const NumberField sram_bandwidth_gbps{"/sram_bandwidth_GBps", 0, 1e9, 0, "bandwidth of swept on-chip SRAM, GB/s", kLeastGBps};
const NumberField max_tpot_s{"/constraints/max_tpot_s", 0, 1e9, 0, "largest TPOT a design point may have (0: none)"};
const NumberField max_ttft_s{"/constraints/max_ttft_s", 0, 1e9, 0, "largest TTFT a design point may have (0: none)"};
const NumberField max_power_w{"/constraints/max_power_W", 0, 1e9, 0, "largest power a design point may draw (0: none)"};
const NumberField compute_efficiency{"/compute_efficiency", 0.001, 1, 1, "fraction of the peak reached, for the t_c/t_m map"};
const NumberField memory_efficiency{"/memory_efficiency", 0.001, 1, 1, "fraction of the bandwidth reached, for the t_c/t_m map"};
const NumberField hw_peak_tflops{"/hardware/peak_dense_TFLOPS/*", 1e-6, 1e7, 0, "dense peak of a data type, TFLOPS (absent: no published peak)"};
const NumberField hw_tier_capacity_gb{"/hardware/memory_tiers/*/capacity_GB", 1e-6, 1e9, 0, "capacity of a memory tier, GB (1e9 bytes; flash and disks are sold so)"};
const NumberField hw_tier_capacity_gib{"/hardware/memory_tiers/*/capacity_GiB", 1e-6, 1e9, 0, "capacity of a memory tier, GiB (2^30 bytes; DRAM, HBM and SRAM are sold so: a \"80 GB\" H100 holds 80 GiB)"};
const NumberField hw_tier_bandwidth_gbps{"/hardware/memory_tiers/*/bandwidth_GBps", 1e-6, 1e9, 0, "bandwidth of a memory tier, GB/s"};
const NumberField hw_tier_energy_pj{"/hardware/memory_tiers/*/energy_pJ_per_byte", 0, 1e6, 0, "energy to move a byte from this tier, pJ (0: the class's)"};
const NumberField hw_interconnect_gbps{"/hardware/interconnect_GBps", 0, 1e9, 0, "device-to-device link, GB/s per direction (0: none)", kLeastGBps};
const NumberField hw_tdp_w{"/hardware/tdp_W", 0, 1e7, 0, "board power, watts (0: unknown)", kLeastWatts, "unknown"};
const NumberField hw_idle_w{"/hardware/idle_W", 0, 1e7, 0, "idle power, watts (0: a share of the TDP)"};
const NumberField hw_price_usd{"/hardware/price_USD", 0, 1e10, 0, "device price, US$ (0: unknown)"};
const NumberField hw_embodied_kgco2e{"/hardware/embodied_kgCO2e", 0, 1e9, 0, "embodied carbon, kg CO2e (0: unknown)"};
const NumberField link_bandwidth_gbps{"/system/intra/bandwidth_GBps", 1e-6, 1e9, 0, "link bandwidth per device and direction, GB/s (inter-node links too)"};
const IntField serving_concurrency{"/serving/concurrency", 0, kMaxBatch, 0, "closed loop: clients, each sending its next request when its last one finishes (0: an open loop at /serving/request_rate)"};
// At least 1e-3 requests/s (one every 17 minutes): arrival times stay small enough that a step's seconds add to them.
const NumberField serving_request_rate{"/serving/request_rate", 0, 1e6, 0, "open loop: Poisson arrivals per second (when /serving/concurrency is 0)", 1e-3};
const IntField serving_requests{"/serving/requests", 0, 1000000, 0, "requests simulated (0: 8 x the concurrency within 200 to 4000, or 1000 at a rate)"};
const IntField serving_isl{"/serving/isl", 1, 10000000, 1024, "prompt tokens per request (the mean when distributed)"};
const IntField serving_osl{"/serving/osl", 1, 10000000, 256, "output tokens per request (the mean when distributed)"};
const NumberField serving_isl_spread{"/serving/isl_spread", 0, 5, 0, "prompt lengths: half-width over the mean (uniform, at most 1) or sigma of the log (lognormal)"};
const NumberField serving_osl_spread{"/serving/osl_spread", 0, 5, 0, "output lengths: half-width over the mean (uniform, at most 1) or sigma of the log (lognormal)"};
const NumberField serving_prefix_hit_rate{"/serving/prefix_hit_rate", 0, 1, 0, "fraction of each prompt found in the prefix cache (its prefill is skipped)"};
const IntField serving_max_num_seqs{"/serving/max_num_seqs", 0, 1000000, 0, "running requests at most (0: the runtime's default)"};
const IntField serving_max_batched_tokens{"/serving/max_num_batched_tokens", 0, 100000000, 0, "new tokens per engine step at most, the chunk budget (0: the runtime's default)"};
const IntField serving_scheduler_steps{"/serving/scheduler_steps", 0, 64, 0,
                                        "decode steps per schedule, multi-step scheduling as vLLM 0.5.5-0.6's --num-scheduler-steps (0: the runtime's default)"};
const IntField serving_seed{"/serving/seed", 0, 2147483647, 1, "seed of the simulated arrivals and lengths"};
const IntField deploy_devices{"/deploy/devices", 1, 4096, 8, "devices the deployment may use (with /hardware; a /system brings its own)"};
const IntField deploy_max_devices_per_pool{"/deploy/max_tp", 1, 4096, 64, "largest tensor-parallel group searched"};
const NumberField deploy_max_ttft_ms{"/deploy/max_ttft_ms", 0, 1e9, 0, "SLA: mean time to first token at most, ms (0: none)"};
const NumberField deploy_max_tpot_ms{"/deploy/max_tpot_ms", 0, 1e9, 0, "SLA: mean time per output token at most, ms (0: none)"};
const IntField gpu_layers{"/offload/gpu_layers", 0, 100000, -1,
                          "layers on the device, as llama.cpp's -ngl counts them (layers + 1: the output layer too; default: the most that fit)"};
const IntField ubatch{"/offload/ubatch", 1, 65536, 512, "prompt tokens per micro-batch (llama.cpp's -ub): host layers' weights are copied once per micro-batch"};
// A desktop host: two channels of DDR5-5600 move 2 x 8 bytes x 5.6 GT/s = 89.6 GB/s (JEDEC JESD79-5).
const NumberField host_bandwidth_gbps{"/offload/host_bandwidth_GBps", 0.1, 1e5, 89.6,
                                      "host memory bandwidth, GB/s (default: the host's, else two channels of DDR5-5600)"};
const NumberField host_capacity_gb{"/offload/host_capacity_GB", 0.1, 1e6, 64, "host memory, GB (default: the host's, else 64)"};
// PCIe 4.0 x16: 16 GT/s x 16 lanes x 128/130 / 8 bits = 31.5 GB/s per direction (PCI-SIG PCIe 4.0).
const NumberField link_gbps{"/offload/link_GBps", 0.1, 1e5, 31.5, "host-to-device link per direction, GB/s (default PCIe 4.0 x16)"};
const NumberField host_memory_efficiency{"/offload/host_memory_efficiency", 0.001, 1, 0,
                                         "fraction of the host bandwidth its CPU kernels reach (default: the llama.cpp-cpu runtime's)"};
const NumberField memory_capacity_gib{"/memory_capacity_GiB", 0, 1e9, 0,
                                      "the device's main memory (its first tier that is not on-chip SRAM), GiB as sold (a 16 GB Mac: 16; 0: the device's own): one machine of a chip sold with several sizes; a reserve from its class's rule follows it",
                                      1e-6, "the device's own"};
const NumberField memory_reserve_gb{"/memory_reserve_GB", 0, 1e6, 0,
                                    "memory the driver and OS keep on each device, GB (default: the device's own, else its class's)"};
const NumberField device_memory_reserve_gb{"/hardware/memory_reserve_GB", 0, 1e6, 0,
                                           "memory the driver and OS keep of the first tier, GB (default: the device class's)"};
const NumberField device_memory_hidden_fraction{"/hardware/memory_hidden_fraction", 0, 0.5, 0,
                                             "share of the first tier the driver never shows: inline ECC check bits (GDDR6 with ECC on: 0.0625), firmware carve-outs of unified memory"};
}  // namespace field

}  // namespace infercast
