// How much of a device's first memory tier a serving engine lets the model use: its memory fraction and what it is
// a fraction of (vLLM's gpu_memory_utilization of the total, TensorRT-LLM's and TGI's fraction of what loading left
// free, SGLang's total less a reserve). One formula for the serving setup's KV pool and the analysis's placement
// (docs/serving.md, "Memory"; docs/forecast.md, "Placement").
#pragma once

#include "hardware/hardware.hpp"
#include "runtime/scheduler.hpp"

namespace infercast {

struct MemoryBudget {
  double usable_bytes = 0;   // the weights, the activations and the KV cache together, at most
  double kv_bytes = 0;       // what is left for the KV cache (negative: the weights and activations do not fit)
  double reserve_bytes = 0;  // kept out by the engine itself (SGLang's reserve)
};

// What the engine's memory profile holds at its peak, beside the weights: the larger of a forward over its token
// budget (`forward_bytes`, the largest operator's activations) and, where it samples a full batch while profiling
// (vLLM), that batch's logits over the whole vocabulary (logits are all-gathered, so every TP rank holds them).
double profile_activation_bytes(const SchedulerLimits& l, double forward_bytes, bool has_head, double vocab);

// llama.cpp's compute buffer: ggml's graph allocator reserves, when the context is made, the peak of the worst
// micro-batch's graph (`ubatch` tokens over the whole cache of `cells`), its tensors in F32, reusing a tensor's memory
// once nothing reads it (llama_context::graph_reserve). The peak is the largest of
//   the output: every row's logits beside the final norm's output, ubatch x (vocab + hidden) x 4, and the output
//   layer's weights where ggml copies them from the host (`copied_head_bytes`, partial offload);
//   without flash attention, the score matrix (`scores_f32_bytes`: ubatch x cells x heads x 4) beside its mask
//   (cells x ubatch x 4) and four hidden-width tensors (the residual, the norm's output, the queries, the output);
//   a layer's own largest operator with the residual beside it (`layer_f32_bytes`).
// Checked against 22 published startup logs (docs/forecast.md, "Usable memory").
double reserved_compute_buffer_bytes(double ubatch, double vocab, double hidden, double cells, double scores_f32_bytes,
                                     double layer_f32_bytes, double copied_head_bytes = 0);
// The cells llama.cpp gives the context it is asked for: padded to 256 with flash attention and to 32 without
// (llama.cpp from May 2024, PR #7257; 256 always from November 2025, PR #17046).
double ggml_context_cells(double cells, bool flash_attention);

// The budget on `hw` for weights `weights_bytes` and a step's activations `activation_bytes`, per device.
MemoryBudget memory_budget(const SchedulerLimits& l, const HardwareSpec& hw, double weights_bytes, double activation_bytes);
// The same from the first tier's numbers: its capacity, what the driver and OS keep of it (`reserve`, which holds
// `hidden`, what the driver never reports). Design points use it at each point's capacity.
MemoryBudget memory_budget(const SchedulerLimits& l, double capacity, double reserve, double hidden, double weights_bytes,
                           double activation_bytes);

// A memory fraction the user gives (vLLM --gpu-memory-utilization, SGLang --mem-fraction-static, TensorRT-LLM's
// free_gpu_memory_fraction) in place of the runtime's on `hw`: 0 keeps the runtime's. SGLang's is the share of the
// total that weights and cache may reach, so a stated one sets its reserve to (1 - f) of the total.
void apply_memory_fraction(SchedulerLimits& l, const HardwareSpec& hw, double fraction);

}  // namespace infercast
