// From a model, a workload and (optionally) a device to operator tables, memory, TTFT and TPOT over the whole
// generation. Decode costs are piecewise affine in the position, so the sum over generated tokens is taken in
// closed form per interval instead of looping over positions (docs/forecast.md).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "hardware/hardware.hpp"
#include "model/model.hpp"
#include "ops/ops.hpp"
#include "analysis/trace.hpp"
#include "runtime/memory_budget.hpp"
#include "runtime/runtime.hpp"

namespace infercast {

// How operator times add up to a phase time (docs/forecast.md, "Timing conventions").
enum class Timing {
  PerOp,     // sum over operators of max(compute, memory) + dispatch: each kernel is bound on its own
  PhaseMax,  // LIFE: max(sum of compute, sum of memory) + dispatches, as if the whole phase overlapped
};
const NameTable<Timing>& timing_names();

struct Workload {
  std::vector<Request> requests;  // the first step: prompts (cached 0) or a ragged batch
  i64 gen_tokens = 1;             // tokens generated per request; the first comes from the first step
  StepSettings settings;
  Timing timing = Timing::PerOp;
  int pin_weights = -1;  // memory tier index the weights are placed in first; -1: fastest first
  int pin_kv = -1;       // the same for the KV cache
  i64 prefill_chunk = 0; // split the first step into chunks of this many new tokens per request (0: one step)
  const RuntimeSpec* runtime = nullptr;  // the stack it runs under (nullptr: the reference stack)
  // The runtime's memory budget (runtime/memory_budget.hpp): a memory fraction the user states (0: the runtime's) and
  // the deployment it is resolved for (SGLang's reserve counts a replica's devices; its graph batch follows TP).
  double memory_fraction = 0;
  int devices = 1, tp = 1;
  // The output layer's weights where they stay on the host while this device runs other layers (llama.cpp's -ngl
  // below the layer count, analysis/offload.cpp): ggml copies them into the device's compute buffer to run a prompt's
  // micro-batch there (its operator offload), so a reserved buffer holds them and the logits. 0: not so.
  double host_head_bytes = 0;
  i64 ubatch = 0;  // llama.cpp's -ub where the request states one (offload's ubatch); 0: the runtime's prompt_micro_batch
};

struct OpTime {
  double compute_s = 0;
  double memory_s = 0;
  double dispatch_s = 0;
  double time_s = 0;
  std::string bound;  // compute | memory | dispatch
  ComputeType compute_used = ComputeType::BF16;
  double compute_efficiency = 0;  // the fraction of the peak reached: the runtime's class efficiency x the GEMM's shape
  double bandwidth_bytes_per_s = 0;  // the bandwidth the bytes move at: tiers x the runtime's memory efficiencies
  double gap_s = 0;               // per kernel: inside a replayed graph, or launched one by one
};

struct PhaseTotals {
  double flops = 0, weight_bytes = 0, act_read_bytes = 0, act_write_bytes = 0, kv_read_bytes = 0, kv_write_bytes = 0;
  double dispatches = 0;
  double bytes() const { return weight_bytes + act_read_bytes + act_write_bytes + kv_read_bytes + kv_write_bytes; }
};

struct Phase {
  std::vector<Op> ops;
  std::vector<OpTime> times;  // empty without hardware
  PhaseTotals totals;
  double tokens = 0;  // new tokens in the step
  double time_s = 0;
  double compute_s = 0;  // sums of per-op compute and memory times
  double memory_s = 0;
};

struct TimelinePoint {
  double generated = 0;  // tokens generated before this step (1 = the first decode step after prefill)
  double context = 0;    // tokens in the first request's cache at this step
  double tpot_s = 0;
};

struct Placement {
  std::string what;  // weights | kv_cache | activations
  std::vector<double> bytes_per_tier;
};

// FLOPs by the compute type operators run in and bytes by kind, summed over a whole phase (every chunk of the
// prefill; every step of the decode): what energy is computed from.
struct WorkSums {
  std::array<double, 8> flops_by_type{};  // indexed by ComputeType (the operator's, before device fallbacks)
  double weight_bytes = 0, kv_bytes = 0, act_bytes = 0;
};

struct Analysis {
  ParamCounts params;
  std::vector<LayerGroup> groups;
  // Memory
  double weights_bytes = 0;
  double kv_bytes_per_token = 0;   // summed over layers, one token, before windows bound it
  // What one more token adds past every window and chunk: the layers whose cache grows with the context (windowed
  // layers too where the runtime holds them in full). The pool's capacity in tokens and its growth are in these.
  double kv_bytes_per_token_past_windows = 0;
  double kv_cache_bytes = 0;       // at the end of the workload, windows and chunks honored; the state included
  double state_bytes = 0;          // of which the constant state per sequence (all requests): recurrent layers' and
  double image_kv_bytes = 0;       // of that, cross-attention layers' keys and values of the images
  double activation_peak_bytes = 0;
  double batch_requests = 0;
  // Phases
  Phase prefill;
  Phase decode;  // the first decode step
  double decode_steps = 0;
  double decode_flops_per_token = 0;
  // Forecast (valid when has_hardware)
  bool has_hardware = false;
  Execution execution;  // the runtime's parameters resolved on the device
  // The blocks the forecast was timed from (analysis/trace.hpp): every prefill step or chunk, every decode interval.
  std::vector<StepBlock> prefill_blocks, decode_blocks;
  double ttft_s = 0;
  double tpot_first_s = 0;
  double tpot_last_s = 0;
  double tpot_mean_s = 0;
  double decode_time_s = 0;
  double e2e_s = 0;
  double tokens_per_s = 0;        // per sequence, decode
  double batch_tokens_per_s = 0;  // whole batch, decode
  double memory_capacity_bytes = 0;
  double memory_required_bytes = 0;
  // The first tier as the runtime budgets it, where its engine holds a KV pool sized from a memory fraction (vLLM,
  // SGLang, TensorRT-LLM...); runtime_budget false where none applies (llama.cpp, MLX, the reference stack).
  bool runtime_budget = false;
  double runtime_usable_bytes = 0;
  double runtime_reserve_bytes = 0;  // of which kept out by the engine itself (SGLang's reserve)
  double profile_activation_bytes = 0;  // what the engine's memory profile reserves for activations (its budget step)
  // An engine that runs no step past its token budget: the activations of a budget's step, or of the longest prompt
  // where prompts run whole past it (longest_engine_step), which a batch's own never pass (0: no such engine); activation_peak_bytes is at most this, and `activation_uncapped_bytes` the workload's own
  // peak before the cap (the batch search and design points scale it with the batch, up to their cap).
  double activation_step_cap_bytes = 0;
  double activation_uncapped_bytes = 0;
  // An engine's activations reserved at start (llama.cpp's compute buffer): then activation_peak_bytes. Its shape,
  // and the cache's cells and sequences it was sized for (limits size it again for other batches and contexts).
  double compute_buffer_bytes = 0;
  ComputeBufferShape compute_buffer_shape;
  double compute_buffer_cells = 0, compute_buffer_sequences = 0;
  bool fits = true;             // everything fits in the tiers (slower tiers included)
  bool fits_first_tier = true;  // everything fits in the fastest tier
  bool window_kv_full = false;  // the runtime caches sliding-window layers for the whole context (memory only)
  double max_batch = 0;         // largest count of requests shaped like the first that fits (capped at 1e6)
  double max_context = 0;       // longest context per request at this batch: what fits, within the model's window
  double max_context_memory = 0;  // what fits in memory alone (capped at 1e9); above max_context: the window binds
  std::vector<Placement> placement;
  std::vector<Warning> warnings;  // choices made for the user (compute fallbacks, memory-only timing)
  std::vector<TimelinePoint> timeline;
  WorkSums prefill_work;  // the first step (all chunks)
  WorkSums decode_work;   // all decode steps, with hardware
  // Optimizations' own costs
  double prefill_chunks = 1;       // steps the first step was split into
  double lora_merge_flops = 0;     // merging the adapters into the weights once (LIFE Table 12)
  double lora_adapter_bytes = 0;   // the adapters held beside the weights (unmerged; in weights_bytes)
  double lora_merge_s = 0;         // that merge on the device (GEMM-class compute), with hardware
};

// The steps the first step runs as: one, or with chunked prefill each request advancing by at most `chunk` new
// tokens per step, attending to what earlier chunks cached.
std::vector<std::vector<Request>> prefill_steps(const std::vector<Request>& first, i64 chunk);
// The requests of decode step j (0: the first step after the prefill): each request has one new token.
std::vector<Request> decode_step(const std::vector<Request>& first, double j);
// What bounds a phase as a whole: "memory" when its summed memory time is at least its summed compute time, else
// "compute" (per operator, OpTime::bound also names dispatch).
const char* phase_bound(const Phase& p);
// Seconds an operator's FLOPs take at the device's peak for its compute type (after fallbacks) and class efficiency.
double op_compute_seconds(const HardwareSpec& hw, const Op& op);
double op_compute_seconds(const HardwareSpec& hw, const Execution& x, const Op& op);

// Throws InputError when the hardware cannot run an operator (no peak for any usable data type).
Analysis analyze(const ModelSpec& model, const Workload& w, const HardwareSpec* hw);

}  // namespace infercast
