// Design-space exploration: a grid over up to five hardware parameters, every point evaluated against one model and
// workload, constraints applied, and the Pareto front over two to four objectives. The workload's operators do not
// depend on the device, so they are built once (an analysis on the base device) and each point costs a few
// operations per operator (docs/formulas.md, "Design-space exploration").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "util/names.hpp"
#include "cost/cost.hpp"
#include "runtime/scheduler.hpp"

namespace infercast {

enum class DseParam { ComputeTflops, BandwidthGBps, CapacityGB, SramMB, PowerW, PriceUSD };
constexpr int kDseParams = 6;
const NameTable<DseParam>& dse_param_names();
inline const char* dse_param_name(DseParam p) { return dse_param_names().name(p); }

enum class DseObjective { Tpot, Ttft, TokensPerS, JoulesPerToken, UsdPerMTok, GramsPerMTok, PowerW, PriceUSD };
constexpr int kDseObjectives = 8;
const NameTable<DseObjective>& dse_objective_names();
inline const char* dse_objective_name(DseObjective o) { return dse_objective_names().name(o); }

// LIFE's Fig. 4 ratio for a phase: t_c / t_m = (FLOPs / achieved FLOP/s) / (bytes / achieved bytes/s). Above 1
// the phase is compute-bound.
double tc_over_tm(const PhaseTotals& t, double flop_per_s, double bytes_per_s);

struct DseAxis {
  DseParam param;
  std::vector<double> values;  // in the parameter's unit (TFLOPS, GB/s, GB, MB, W, USD)
};

struct DseConstraints {
  // true: nothing spills past the main memory into the base's slower tiers; a point whose model does not fit in
  // all its tiers is never feasible (there is nowhere for the rest to live).
  bool must_fit = true;
  double max_tpot_s = 0;   // 0: none
  double max_ttft_s = 0;
  double max_power_w = 0;
};

struct DseSpec {
  std::vector<DseAxis> axes;              // 1 to 5, distinct parameters
  std::vector<DseObjective> objectives;   // 2 to 4, distinct
  DseConstraints constraints;
  CostAssumptions costs;
  double sram_bandwidth_bytes_per_s = 0;  // required when an axis sweeps SRAM
  // Without a power axis, a point's power follows its compute and bandwidth at the base device's energy per FLOP
  // and per byte (the same technology): static + alpha x dynamic x f_compute + (1 - alpha) x dynamic x f_bandwidth.
  bool derive_power = true;
  std::int64_t keep_points = 20000;       // points returned for plotting (an even sample of the feasible ones)
  // A part of the grid, for a sweep split across workers: part `part_index` of `part_count` even parts. The parts'
  // results merge into the whole's (dse_merge): counts add, fronts and samples are decided by point index.
  std::int64_t part_index = 0, part_count = 1;
};

struct DsePoint {
  std::array<double, kDseParams> params{};       // every parameter's value at this point (swept or the base's)
  std::array<double, kDseObjectives> values{};   // every objective (tokens/s as is; "lower is better" applied later)
  bool feasible = true;
};

struct DseResult {
  std::int64_t points = 0;        // of the whole grid
  std::int64_t evaluated = 0;     // of this part (all of them without parts)
  std::int64_t feasible = 0;
  std::vector<DsePoint> front;    // Pareto-optimal feasible points, sorted by the first objective
  std::vector<std::int64_t> front_ids;   // each front point's index in the grid (the last axis varies fastest)
  std::vector<DsePoint> sample;   // up to keep_points feasible points, evenly strided, for plots, by index
  std::vector<std::int64_t> sample_ids;
  double eval_seconds = 0;        // filled by callers that time it
  std::vector<Warning> warnings;
};

// The operators of one workload, reduced to what a design point needs. Built once from an analysis on `base`.
struct DseWorkload {
  struct OpCost {
    float compute_s;   // at the base device's peaks and efficiencies
    float w, kv, act;  // bytes
  };
  std::vector<OpCost> prefill, decode;  // decode: the step at the middle of the generation
  double prefill_dispatch_s = 0, decode_dispatch_s = 0;  // kernels x the runtime's gap
  double prefill_launch_s = 0, decode_launch_s = 0;      // the host's launches when not a replayed graph
  double step_overhead_s = 0;                            // the runtime's cost per step
  double memory_efficiency = 1;                          // resolved for the base device and runtime
  double kv_memory_efficiency = 1;                       // the same for KV-cache traffic
  double decode_steps = 0;
  double prompt_tokens = 0, output_tokens = 0, requests = 0;
  double weights_bytes = 0, kv_bytes = 0, act_bytes = 0;
  double act_uncapped_bytes = 0;  // the workload's activations before an engine's budget step capped them
  // Energy: seconds at full peak (sum of FLOPs / peak of their type) and bytes, per whole phase.
  double prefill_peak_s = 0, decode_peak_s = 0, prefill_bytes = 0, decode_bytes = 0;
  HardwareSpec base;
  Timing timing = Timing::PerOp;
  double base_static_w = 0, base_dynamic_w = 0;  // the base device's energy model (0 when it has no power)
  double base_j_per_byte = 0;  // the first tier's own energy per byte where the base device states one (else 0)
  // A serving engine that sizes a KV pool from a memory fraction (vLLM, SGLang, TensorRT-LLM...) holds everything
  // within its budget of the main memory, as the analysis counts it (runtime/memory_budget.hpp), its limits resolved
  // at each point's capacity (a rule by the device's memory, SGLang's reserve, a stated fraction): the scheduler,
  // the deployment, and its profile step's activations per token budget the limits may take.
  bool engine_budget = false;
  SchedulerSpec engine_scheduler;
  int engine_devices = 1, engine_tp = 1;
  long long engine_graph_batch = 0;
  double engine_memory_fraction = 0;
  std::vector<std::pair<long long, double>> engine_forward;  // (token budget, the profile forward's activations)
  long long engine_longest_step = 0;  // the longest prompt where prompts run whole (chunked prefill off), else 0
  double engine_longest_forward = 0;  // that step's activations
  bool engine_has_head = false;
  double engine_vocab = 0;  // the sampler's: the whole vocabulary on every tensor-parallel rank
};

// The base device and its energy model only (enough for dse_device); dse_prepare starts from it.
DseWorkload dse_base(const HardwareSpec& base, const CostAssumptions& costs);
// Throws InputError for a base device that cannot be scaled: no compute peak (dse.no_compute), no memory tier
// (dse.no_memory). dse_prepare and a design point's device (dse_device) check it first.
void check_dse_base(const HardwareSpec& base);
// Throws InputError for a base device that cannot run the workload (check_dse_base).
DseWorkload dse_prepare(const ModelSpec& m, const Workload& w, const HardwareSpec& base, const CostAssumptions& costs);
// Every point of the grid (or of the spec's part): each (compute, bandwidth, capacity, SRAM) cell timed once, its
// operators summed for a block of cells at a time (vectorized across cells), every price and power point of the
// cell finished from that timing, and the Pareto front kept as points arrive (sweep.cpp).
DseResult dse_run(const DseWorkload& wl, const DseSpec& spec);
// The whole grid's result from its parts' (each run with the same spec but its part_index).
DseResult dse_merge(const DseSpec& spec, const std::vector<DseResult>& parts);
// One point, as dse_run evaluates it (tests compare it with the full analysis).
DsePoint dse_point(const DseWorkload& wl, const DseSpec& spec, const std::array<double, kDseParams>& params);
// The base device's value of each parameter.
std::array<double, kDseParams> dse_base_params(const HardwareSpec& base);
// A hardware document for a point (load it as a custom device).
HardwareSpec dse_device(const DseWorkload& wl, const DseSpec& spec, const std::array<double, kDseParams>& params);

}  // namespace infercast
