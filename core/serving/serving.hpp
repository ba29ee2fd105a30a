// Serving under continuous (in-flight) batching (docs/serving.md): requests arrive (a closed loop of C clients, or an
// open loop of Poisson arrivals at a rate), each with its own prompt and output lengths (fixed, uniform or
// log-normal), and a runtime's scheduler (runtime/scheduler.hpp) turns them into engine steps that mix decode tokens
// with prefill chunks, admits prompts while the KV cache has room, and evicts when it runs out. Each step is timed by
// the step model (serving/step_model.hpp). Two answers: a request-level simulation (simulate.cpp: percentiles,
// queueing, preemption) and an analytical steady state (steady.cpp: means, microseconds, what the deployment search
// uses). Replicas (data parallelism) share the load evenly.
#pragma once

#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "parallel/parallel.hpp"
#include "runtime/scheduler.hpp"
#include "serving/step_model.hpp"

namespace infercast {

enum class LengthKind { Fixed, Uniform, LogNormal };
const NameTable<LengthKind>& length_kind_names();

// Tokens per request: a mean and a spread. Uniform: integers uniform over mean x (1 +- spread) (spread <= 1: SGLang's
// random dataset with range ratio r is mean L (1 + r) / 2, spread (1 - r) / (1 + r)); LogNormal: spread is sigma of
// the log (ShareGPT-like long tails), the mean kept.
struct LengthDist {
  LengthKind kind = LengthKind::Fixed;
  double mean = 1;
  double spread = 0;
};

struct ServingLoad {
  double concurrency = 0;   // closed loop: clients, each sending its next request when the last finishes (0: open)
  double request_rate = 0;  // open loop: Poisson arrivals per second (when concurrency is 0)
  double requests = 0;      // requests simulated (0: chosen from the load, docs/serving.md)
  LengthDist isl, osl;
  double prefix_hit_rate = 0;  // fraction of each prompt already in the prefix cache (its prefill is skipped)
  unsigned long long seed = 1;
};

// Where a replica's memory goes, per device of its fullest stage.
struct ServingMemory {
  double capacity_bytes = 0;    // the device's memory
  double usable_bytes = 0;      // what the runtime's memory fraction gives the model
  double weights_bytes = 0;
  double activation_bytes = 0;  // the largest step's activations
  double reserve_bytes = 0;     // kept out by the runtime (SGLang's reserve)
  double device_reserve_bytes = 0;  // kept by the driver and OS (HardwareSpec::reserve_bytes)
  double kv_bytes = 0;          // the KV cache's pool
  double kv_bytes_per_token = 0;               // every layer's, before windows bound them
  double kv_bytes_per_token_past_windows = 0;  // the layers that keep growing (Analysis::kv_bytes_per_token_past_windows)
  // What one token of the pool costs: the growing layers' bytes plus the runtime's share of the windowed layers'
  // (SchedulerSpec::window_pool_ratio), or every layer's where every layer is bounded (a model of sliding windows only
  // still fills its pool token by token up to them). kv_tokens and SGLang's reserve are in it.
  double pool_bytes_per_token = 0;
  double kv_tokens = 0;  // tokens the pool holds past the windows (full-attention layers; windows hold fewer)
  double max_concurrency = 0;   // requests of the mean length the pool holds at once
  double kv_peak_fraction = 0;  // simulation: the fullest the pool got
  double kv_mean_fraction = 0;  // simulation: time-averaged use of the pool
  bool fits = true;             // the weights and one request fit
};

struct Percentiles {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0;
};

struct ServingResult {
  // Per request
  Percentiles ttft_s, tpot_s, itl_s, e2e_s;
  // Rates (all replicas)
  double requests_per_s = 0;
  double output_tokens_per_s = 0;
  double input_tokens_per_s = 0;
  double output_tokens_per_s_per_device = 0;
  double output_tokens_per_s_per_user = 0;  // 1 / mean TPOT
  double duration_s = 0;                    // simulated time (first arrival to last finish)
  // The engine
  double requests = 0, output_tokens = 0, input_tokens = 0;  // simulated, one replica
  double replicas = 1;  // the replicas (pipeline streams counted as replicas) that each ran a share like this one
  double steps = 0, prefill_steps = 0, mixed_steps = 0, decode_steps = 0;
  double mean_batch = 0;     // running requests per step, averaged over steps
  double mean_step_s = 0;
  double preemptions = 0;
  double busy_fraction = 0;  // time the engine was stepping
  // Work over the run (one replica, all its devices, efficiency 1): what energy is computed from
  double work_compute_s = 0, work_memory_s = 0;
  // Little's law over the run: time-averaged requests in the system, and arrival rate x mean latency
  double mean_in_system = 0, littles_product = 0;
  double mean_isl = 0, mean_osl = 0;
  ServingMemory memory;
  SchedulerLimits limits;
  std::vector<Warning> warnings;
  bool simulated = false;  // the simulation ran (else: the steady state only)
};

// What the serving model runs with: the model on one replica (its plan's stages), the scheduler's limits and the
// KV pool.
struct ServingSetup {
  const ModelSpec* model = nullptr;
  Workload workload;  // settings, precisions and runtime (its requests unused)
  System system;
  ParallelPlan plan;
  SchedulerLimits limits;
  ServingMemory memory;
  std::vector<LayerGroup> kv_groups;  // the binding stage's layer groups (one device): KV bytes per request
  double kv_bytes_per_element = 2;
  bool window_kv_full = false;  // sliding-window layers hold the whole context (runtime/runtime.hpp)
  int devices = 1;  // all replicas
  std::vector<Warning> warnings;
};

// The scheduler's limits and the KV pool for `plan` on `sys` (throws InputError naming /serving when the weights do
// not fit). `max_num_seqs` / `token_budget` > 0 override the runtime's.
ServingSetup serving_setup(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& plan,
                           long long max_num_seqs = 0, long long token_budget = 0);

// KV bytes one request holds at `context` tokens, rounded up to whole blocks.
double request_kv_bytes(const ServingSetup& s, double context);

// The context a request of mean lengths `isl` and `osl` holds in the pool, as the steady state and the deployment
// search count it: its mean (isl + osl / 2), or reserved to its last token when nothing may be evicted.
double held_context(const ServingSetup& s, double isl, double osl);
// The most requests of those lengths the pool holds at once (0 when not even one; 1e6 when they hold nothing).
double pool_requests(const ServingSetup& s, double isl, double osl);
// Throws serving.does_not_fit (at /serving/isl) when the pool holds no request of those lengths: the steady state
// would run one anyway at many times the pool, and the simulation would drop every request.
void check_request_fits(const ServingSetup& s, double isl, double osl);

// Pipeline parallelism with micro-batches (SchedulerLimits::pp_micro_batches, docs/serving.md, "Pipeline
// parallelism"): a replica of pp stages serves as pp streams, each with its share of the sequence cap and the KV pool,
// whose steps come round at the pipeline's cycle (Execution::pipeline_in_flight: the streams the load keeps busy).
// steady_state and simulate_serving run one stream and turn its result back into the replica's (merge_streams).
struct PipelineStreams {
  ServingSetup setup;  // one stream: dp x pp replicas, 1 / pp of the cap and of the pool
  Execution x;
  double streams = 1, busy = 1;
};
bool has_pipeline_streams(const ServingSetup& s);
PipelineStreams pipeline_streams(const ServingSetup& s, const ServingLoad& load, const Execution& x);
void merge_streams(ServingResult& r, const ServingSetup& s, const PipelineStreams& p);

// The request-level simulation of one replica under `x` (the step model's own execution, or a refitted one).
ServingResult simulate_serving(const ServingSetup& s, const StepModel& steps, const ServingLoad& load, const Execution& x);

// The analytical steady state (means; percentiles equal to means): closed loop at the load's concurrency, or the
// concurrency an open-loop rate settles at.
ServingResult steady_state(const ServingSetup& s, const StepModel& steps, const ServingLoad& load, const Execution& x);

// Everything a serving forecast runs: the setup, its step model, the simulation (when asked) and the steady state.
// Throws InputError (serving.too_large) when the simulation would run more than 5e7 request-steps. `scheduler_steps`
// above 0 sets the decode steps per schedule (multi-step scheduling) in place of the runtime's.
struct ServingForecast {
  ServingSetup setup;
  std::vector<StepModel> steps;  // one
  ServingResult simulated, steady;
  ServingLoad load;  // the load as served (a prefix hit rate dropped where the runtime caches no prefixes)
  bool has_simulation = false;
};
ServingForecast forecast_serving(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& plan,
                                 const ServingLoad& load, long long max_num_seqs, long long token_budget, bool simulate,
                                 int scheduler_steps = 0);

// The load as runtime `rt` (nullptr: the reference stack) serves it: a prefix hit rate applies only where its
// scheduler caches prefixes (else 0, with the warning serving.prefix_caching_off).
ServingLoad served_load(const RuntimeSpec* rt, const ServingLoad& load, std::vector<Warning>& warnings);

// The largest step (new tokens) and decode batch the step model must cover for this setup and load.
double max_step_tokens(const ServingSetup& s, const ServingLoad& load);
double max_decode_batch(const ServingSetup& s, const ServingLoad& load);

}  // namespace infercast
