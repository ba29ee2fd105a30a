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
// micro-batch's graph (n_ubatch tokens, at most the cache's cells, over the whole cache), its tensors in F32, reusing a
// tensor's memory once nothing reads it (llama_context::graph_reserve). What it depends on besides the cells:
struct ComputeBufferShape {
  double ubatch = 0;           // n_ubatch, the micro-batch it is reserved for
  double vocab = 0;            // logits per token (0: no output layer on this device)
  double hidden = 0;
  double q_width = 0;          // the widest attention layer's queries (heads x head size)
  double heads_full = 0;       // query heads of the widest layer attending the whole cache (0: none)
  double heads_window = 0;     // ... of the widest windowed layer, over its own cache of window x sequences + ubatch
  double window = 0;
  bool flash = false;          // flash attention: no score matrix and no mask in the device's buffer
  double score_bytes = 4;      // bytes per score: the unfused attention's (StepSettings::score_bytes), F32 in ggml
  double layer_per_token = 0;  // a layer's largest other operator beside the residual, F32 bytes per token
  double copied_head = 0;      // the output layer's weights where ggml copies them from the host (partial offload)
};
// The peak over `cells` cache cells held by `sequences` sequences: the largest of
//   the output: every row's logits beside the final norm's output, ubatch x (vocab + hidden) x 4, with the copied
//   output layer;
//   without flash attention, the score matrix (ubatch x cells x heads x score_bytes, per kind of layer) beside its masks
//   (ubatch x cells x 4) and the attention's inputs and outputs: the residual and the norm's output (hidden wide),
//   the queries and the attention's output (q_width wide);
//   a layer's own largest operator (ubatch x layer_per_token).
// Cells are padded to 32 without flash attention and to 256 with it (llama.cpp from May 2024, PR #7257; 256 always
// from November 2025, PR #17046). Checked against published startup logs (docs/forecast.md, "Usable memory").
double compute_buffer_bytes(const ComputeBufferShape& s, double cells, double sequences);
double ggml_context_cells(double cells, bool flash_attention);
// The cells llama.cpp's iSWA cache gives a sliding-window layer holding `sequences` sequences in a cache of `cells`
// cells: GGML_PAD(n_swa x n_seq + n_ubatch, n_pad), at most the whole cache (llama-kv-cache-iswa.cpp, size_swa;
// n_ubatch no more than the cache). The KV cache (analysis.cpp) and the compute buffer's masks and scores size
// windowed layers with it.
double ggml_window_cells(double window, double sequences, double ubatch, double cells, bool flash_attention);

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
void apply_memory_fraction(SchedulerLimits& l, double capacity_bytes, double fraction);

}  // namespace infercast
