// A runtime: the software stack that runs the model (llama.cpp's CUDA backend, vLLM, MLX, PyTorch eager...). The
// same device runs a model at very different speeds under different stacks, so the runtime is an input beside the
// device: how it launches kernels (one by one, or a whole step replayed as a graph), what it fuses, which compute
// paths its kernels reach (FP8, FP16 accumulate, int8 dot products for quantized weights), how close to the peaks
// its kernels come on each memory system, its collectives and its scheduler. One file per runtime in
// presets/runtimes/, read by io/runtime_json.cpp; docs/forecast.md, "Runtimes", gives each term with its sources.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "hardware/hardware.hpp"
#include "ops/ops.hpp"
#include "runtime/scheduler.hpp"
#include "util/names.hpp"

namespace infercast {

// How kernels reach the device. PerKernel: the host launches every kernel (eager PyTorch, llama.cpp without graphs):
// a step costs at least its launches, however fast the device is. Graph: the step is recorded once and replayed
// (CUDA/HIP graphs, Metal command buffers, compiled graphs): one launch per step, and only the device-side gap
// between kernels remains.
enum class LaunchMode { PerKernel, Graph };
const NameTable<LaunchMode>& launch_mode_names();

// What the kernels of quantized weights compute in. Dequantize: weights are expanded to the activation type and
// multiplied at its peak. Int8Dot: activations are quantized to int8 and multiplied with integer dot products at the
// int8 peak (llama.cpp's MMQ/MMVQ kernels), up to `int8_dot_max_tokens` tokens per step; above that, Dequantize.
enum class QuantPath { Dequantize, Int8Dot };
const NameTable<QuantPath>& quant_path_names();

// How an engine holds its activations: each step's own (allocated as it runs), or a buffer reserved when it starts
// for its worst micro-batch (ggml's graph allocator in llama.cpp: n_ubatch tokens over the whole cache, every row's
// logits in F32), whatever a step later needs (docs/forecast.md, "Usable memory").
enum class ComputeBuffer { Step, Reserved };
const NameTable<ComputeBuffer>& compute_buffer_names();

// How a runtime spreads a model over several devices when it is told nothing more. Tensor: every layer split over the
// devices (vLLM's, SGLang's and TensorRT-LLM's --tensor-parallel-size N, each recipe's way to use a node). Layers: each
// device holds consecutive layers and a step passes them in turn (llama.cpp's --split-mode layer, its default;
// ExLlamaV2's gpu_split; Hugging Face transformers' device_map="auto").
enum class DeviceSplit { Tensor, Layers };
const NameTable<DeviceSplit>& device_split_names();

// The memory systems efficiencies are given for: a device's fastest tier decides which applies.
enum class MemoryFamily { HBM, GDDR, LPDDR, DDR, SRAM, Flash };
constexpr int kMemoryFamilies = 6;
const NameTable<MemoryFamily>& memory_family_names();

// Efficiencies a runtime's kernels reach (fractions of the datasheet peaks); unset: the device class's own.
struct RuntimeEfficiency {
  std::optional<double> gemm, attention, elementwise;
  std::optional<double> gemm_low;
  std::optional<double> kv_memory;  // the fraction of bandwidth KV-cache reads reach (paged blocks; unset: `memory`)  // GEMMs in 8 bits or fewer (FP8, INT8, FP4): their own fraction of that doubled peak
  std::array<std::optional<double>, kMemoryFamilies> memory{};
};

struct RuntimeSpec {
  std::string id, name, version, source, notes;
  std::vector<std::string> backends;  // cuda, rocm, metal, vulkan, cpu, sycl, npu, tpu, dataflow

  LaunchMode launch = LaunchMode::PerKernel;
  std::optional<double> kernel_launch_s;  // host time to launch one kernel (PerKernel); unset: the class dispatch
  std::optional<double> kernel_gap_s;     // device time between two kernels launched one by one; unset: the class dispatch
  std::optional<double> graph_kernel_gap_s;  // the same inside a replayed graph; unset: kernel_gap_s
  double step_overhead_s = 0;             // per forward step: scheduling, input preparation, sampling, graph launch
  i64 graph_max_tokens = 0;               // steps with more tokens than this run PerKernel (0: every step)

  Fusion fusion;
  bool act_in_gemm = false;  // the MLP activation in the gate/up GEMM's epilogue (the `mlp: fused` form)
  bool flash_attention = true;
  // Bytes per score an unfused attention writes, softmaxes and reads back (0: the activations' type). ggml makes
  // them F32 whatever the activations are: ggml_mul_mat's result is F32, and ggml_soft_max_ext keeps it.
  double unfused_score_bytes = 0;
  // Tokens one forward of a prompt takes at most (llama.cpp's n_ubatch): a longer prompt, or a batch of prompts, runs
  // as forwards of this many tokens, each attending to what the earlier ones cached. 0: the whole step at once.
  i64 prompt_micro_batch = 0;
  ComputeBuffer compute_buffer = ComputeBuffer::Step;
  DeviceSplit device_split = DeviceSplit::Tensor;  // the default plan over several devices (settle_default_plan)
  bool gemm_waves = true;  // GEMM tiles run in waves over the compute units (analysis/gemm_shape.hpp)
  bool fp8 = true;              // FP8 GEMMs on devices with an FP8 peak
  bool fp16_accumulate = false;  // FP16 GEMMs accumulate in FP16 (GeForce: twice the FP32-accumulate rate)
  // By ComputeType: the types its kernels run on a CPU's matrix engine (AMX, SME) where the device states its vector
  // units' rates apart (HardwareSpec::peak_flops_vector); a type left out runs on the vector units. Every type by
  // default: the device's peaks as they are published. llama.cpp's CPU backend takes only int8 dot products to AMX.
  std::array<bool, 8> matrix_engine{true, true, true, true, true, true, true, true};
  QuantPath quant = QuantPath::Dequantize;
  // The weight formats its kernels run (empty: not stated, nothing checked); a forecast in another one says so.
  std::vector<WeightFormat> weight_formats;
  i64 int8_dot_max_tokens = 0;  // Int8Dot up to this many tokens per step (0: always)

  RuntimeEfficiency eff;
  // Collectives: a custom all-reduce kernel (vLLM, SGLang, TensorRT-LLM) for messages up to `custom_allreduce_max_bytes`
  // inside one node over NVLink (or between 2 GPUs over PCIe peer-to-peer): one step (one-shot) up to
  // `one_shot_max_bytes`, a reduce-scatter and an all-gather (two-shot) above; NCCL beyond, which pays its base
  // latency per call (src/graph/tuning.cc baseLat) on top of its per-hop latencies. 0: not used / not charged.
  // `one_shot_max_bytes_4` for groups of 3 or 4 (vLLM: below 512 KiB there, 256 KiB up to 8); two devices always
  // one-shot. The limits are strict (a message of exactly the limit runs two-shot).
  double custom_allreduce_max_bytes = 0, one_shot_max_bytes = 0, one_shot_max_bytes_4 = 0;
  double nccl_base_latency_s = 0;
  // What each collective inside a step (all-reduce, all-gather, reduce-scatter, all-to-all; not point-to-point) adds
  // beyond its own transfer and latency: it is a barrier, and waits for the slowest device of its group to arrive.
  // Kernel benchmarks run the devices in lockstep and do not show it; a step does (docs/forecast.md, "Collectives").
  // A class fit over every tensor-parallel measurement (presets/defaults/runtime_fits.json, `collective_wait`), unless
  // the runtime's file states `collectives.wait_us`.
  double collective_wait_s = 0;
  SchedulerSpec scheduler;  // how a serving engine batches requests into steps (runtime/scheduler.hpp)
  // The values the preset file states for the fittable parameters (runtime/params.hpp), before any class fit is
  // laid over them: what leave-one-source-out refits start from. Indexed by RtParam.
  std::vector<std::optional<double>> prior;
  std::string fit_basis;  // the measurements the laid-over fit came from ("" when none)
};

// The parameters one analysis runs with: a runtime's values resolved against a device (a device's own
// `efficiency` overrides first, then the runtime's, then the device class's).
struct Execution {
  Efficiencies eff;          // gemm, gemm_low, attention, elementwise, memory; dispatch_s is the per-kernel gap (one by one)
  double kv_memory = 1;      // bandwidth fraction of KV-cache traffic
  double graph_gap_s = 0;    // the per-kernel gap inside a replayed graph
  double launch_s = 0;       // host launch per kernel when launched one by one (0: overlapped or graphs)
  double step_overhead_s = 0;
  double collective_wait_s = 0;  // what each collective of a step waits for its group's slowest device
  bool graphs = false;
  i64 graph_max_tokens = 0;
  // Serving with pipeline parallelism: micro-batches of the same load in the stages at once (1: a step's batch
  // passes the stages alone). A step then comes round every max(its stages in turn, in_flight x the slowest stage).
  double pipeline_in_flight = 1;
  const RuntimeSpec* runtime = nullptr;  // nullptr: the reference stack (class efficiencies, no fusion)
};

// The memory family of a device's fastest tier (its `technology`, else inferred from the device class).
MemoryFamily memory_family(const HardwareSpec& hw);

// Resolves what an analysis on `hw` under `rt` (nullptr: the reference stack) runs with.
Execution resolve_execution(const HardwareSpec& hw, const RuntimeSpec* rt);

// True where `rt` caches the sliding-window layers of `model_type` for the whole context
// (SchedulerSpec::window_kv_full_for): their KV memory then grows with the context, their reads stay the window's.
bool window_kv_held_in_full(const RuntimeSpec* rt, const std::string& model_type);
// What a warning says where that holds (the analysis and the serving pool each add what it means for them).
std::string window_kv_full_text(const RuntimeSpec& rt, const std::string& model_type);
// The warning's text where `rt` states the weight formats it runs and `weights` is not one of them; "" otherwise.
std::string weight_format_gap(const RuntimeSpec* rt, const DType& weights);

// New tokens per request per forward that a runtime's prompt micro-batches give a step of `requests` prompts
// (RuntimeSpec::prompt_micro_batch shared among them, one at the least); 0 when the runtime runs a step whole.
i64 prompt_chunk(const RuntimeSpec* rt, double requests);

}  // namespace infercast
