// The named steps analyze() is made of, internal to analysis/: the timer that turns an operator into seconds on a
// device (timer.cpp), where the weights, cache and activations live and what fits (placement.cpp), and the decode
// over the whole generation in closed form (decode.cpp).
#pragma once

#include <array>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/gemm_shape.hpp"
#include "analysis/trace.hpp"
#include "runtime/scheduler.hpp"

namespace infercast {

// Adds an operator's FLOPs, bytes and dispatches into a total or into another operator.
template <class T>
void add_costs(T& into, const Op& o) {
  into.flops += o.flops;
  into.weight_bytes += o.weight_bytes;
  into.act_read_bytes += o.act_read_bytes;
  into.act_write_bytes += o.act_write_bytes;
  into.kv_read_bytes += o.kv_read_bytes;
  into.kv_write_bytes += o.kv_write_bytes;
  into.dispatches += o.dispatches;
}
void add_work(WorkSums& w, const Op& o, double scale = 1);
PhaseTotals totals_of(const std::vector<Op>& ops);
// What bounds an operator: dispatch when it outweighs the roofline time, else the larger of compute and memory.
const char* bound_of(const OpTime& t);

// Seconds per byte for data spread over tiers: sum over tiers of fraction / bandwidth.
struct TierCost {
  double weights = 0, kv = 0, act = 0;
};

// Whether an operator computing in `t`, whose peak on the device is `matrix_type`'s, runs on a CPU's vector units
// instead: the runtime keeps `matrix_type` off the matrix engine and the device states its vector units' rates.
// `used` is then the vector units' type it runs at (resolved as resolve_compute resolves peaks).
bool vector_units(const HardwareSpec& hw, const RuntimeSpec* rt, ComputeType t, ComputeType matrix_type, ComputeType& used);

// Operator times on one device under a runtime: the peak each compute type runs at (after fallbacks, reported once
// as warnings, and after the runtime's compute paths: FP8 only where its kernels have it, int8 dot products for
// quantized weights), the efficiencies resolved for the device and runtime, and memory time at the placement's
// seconds per byte.
class Timer {
 public:
  Timer(const HardwareSpec& hw, const Execution& x, TierCost inv, std::vector<Warning>* warnings);
  double compute_s(const Op& op, double flops) const;
  double memory_s(double weight_bytes, double kv_bytes, double act_bytes) const;
  double dispatch_s(const Op& op, bool replayed) const { return op.dispatches * (replayed ? x_.graph_gap_s : x_.eff.dispatch_s); }
  OpTime time(const Op& op, bool replayed) const;
  // The operator's compute and memory seconds at efficiency 1 and its kernels (what blocks are timed from).
  OpTerms terms(const Op& op) const;
  const Execution& execution() const { return x_; }
  // Whether a GEMM's compute seconds carry the wave factor (analysis/gemm_shape.hpp), over how many units, and its N
  // and matrix count: what lets a caller re-apply the factor at another M (the serving step model).
  bool waves(const Op& op) const;
  int tile_units() const;                  // units GEMM tiles run in waves over (0: no wave model)
  static GemmRows gemm_rows(const Op& op);  // a GEMM's rows: M, matrices and, for routed experts, their routing

 private:
  double efficiency(OpClass c) const;
  bool low_precision(const Op& op) const;  // a GEMM whose kernel computes in 8 bits or fewer
  double raw_compute_s(const Op& op, double flops) const;  // at efficiency 1
  double raw_memory_s(const Op& op) const;                 // at memory efficiency 1
  double peak(const Op& op, ComputeType& used) const;
  ComputeType path(const Op& op) const;  // the type the runtime's kernel for `op` computes in
  const HardwareSpec& hw_;
  Execution x_;
  TierCost inv_;
  std::array<double, 8> peak_of_{};
  std::array<ComputeType, 8> used_of_{};
  mutable std::array<bool, 8> reported_{};
  mutable RowTileMemo memo_;  // routed experts' row tiles, asked again at every interval of a timeline
  std::vector<Warning>* warnings_ = nullptr;
};

// Times a phase's operators (or, without a timer, only totals them); the phase is one step, timed as a block, which
// is returned (empty without a timer): a caller that keeps the step's block takes it rather than build it again.
StepBlock time_phase(Phase& p, const Timer* timer, Timing timing);
// The operators of one step as a block (its terms on the device).
StepBlock block_of(const std::vector<Op>& ops, const Timer& timer, double tokens);

// KV bytes one request holds with `ctx` tokens of context (windows, chunks and MLA latents honored; windows held in
// full where `window_held_in_full`).
double kv_bytes_per_request(const std::vector<LayerGroup>& groups, double kv_bytes_per_element, double ctx,
                            bool window_held_in_full = false);
// llama.cpp's sliding-window layers (ggml_windowed: a window, not DeepSeek-V4's compressed kind) keep their own cache
// shared by every sequence, ggml_window_cells(window, sequences, ubatch, cells) cells of it (runtime/memory_budget.hpp):
// what one request's share would be, and the bytes of those caches for `cells` cells over `sequences` sequences.
bool ggml_windowed(const AttentionSpec& a);
double windowed_kv_bytes_per_request(const std::vector<LayerGroup>& groups, double kv_bytes_per_element, double ctx);
double ggml_window_kv_bytes(const std::vector<LayerGroup>& groups, double kv_bytes_per_element, const ComputeBufferShape& s,
                            double cells, double sequences);
// State bytes one request holds whatever its context: recurrent layers' states (conv windows in the activations'
// type) and cross-attention layers' keys and values of its image tokens (in the KV type).
double state_bytes_per_request(const std::vector<LayerGroup>& groups, const StepSettings& s);
// Of that, the cross-attention layers' keys and values of the request's image tokens (Llama 3.2 Vision).
double image_kv_bytes_per_request(const std::vector<LayerGroup>& groups, const StepSettings& s);

// Places the weights, the KV cache and the activations in the device's tiers (pinned items first) and fills the
// placement, fit, capacity and the largest batch and context that fit. Returns the seconds per byte of each.
// `engine`: the limits the runtime's engine runs with (engine_limits) where it sizes a KV pool from a memory fraction,
// null otherwise; resolved once per analysis.
TierCost place_and_limit(Analysis& a, const HardwareSpec& hw, const Workload& w, double kv_bytes_per_element,
                         const SchedulerLimits* engine);
// The activations a step holds at its peak: its largest operator's reads and writes (one layer's, not the count's).
double activation_peak_bytes(const std::vector<Op>& ops);
// The activations of an engine's memory-profile forward: one prompt of its token budget (at least one token).
double profile_forward_bytes(const ModelSpec& model, const std::vector<LayerGroup>& groups, const StepSettings& settings, long long token_budget);
// The most new tokens one engine step runs for `requests`' prompts: the token budget, or the longest prompt where
// prompts run whole (chunked prefill off, or TensorRT-LLM's mixed steps of whole prompts): their activations' cap.
long long longest_engine_step(const SchedulerLimits& l, const std::vector<Request>& requests);

// Whether the runtime's engine holds a KV pool sized from a memory fraction (scheduler.kv_pool "fraction"), and the
// limits it runs with on `hw` for the workload's deployment and memory fraction.
bool has_fraction_pool(const RuntimeSpec* rt);
SchedulerLimits engine_limits(const HardwareSpec& hw, const Workload& w);

// TPOT at every decode step, summed in closed form interval by interval, and the timeline for charts.
void sum_decode(Analysis& a, const Timer& timer, const ModelSpec& model, const Workload& w);

}  // namespace infercast
