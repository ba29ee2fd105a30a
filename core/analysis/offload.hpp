// Layers offloaded to host memory, as llama.cpp runs a model that does not fit (-ngl N, --n-gpu-layers): the last N
// repeating layers live on the device (and the output layer when N exceeds the layer count), the rest and the token
// embedding live in host memory. Decode runs the host layers on the host CPU at its memory bandwidth, then the
// device layers: TPOT is the sum. A prompt step of at least 32 tokens runs the host layers on the device, their
// weights copied over the host link once per micro-batch (llama.cpp's op offload). docs/forecast.md, "Offload".
#pragma once

#include <optional>
#include <string>

#include "analysis/analysis.hpp"

namespace infercast {

struct OffloadSpec {
  int gpu_layers = -1;          // llama.cpp's -ngl: layers on the device (count + 1: the output layer too); -1: the most that fit
  HardwareSpec host;            // where the other layers live and decode
  // What decodes there: llama.cpp's CPU backend, without its per-step overhead (one llama.cpp step's scheduling and
  // sampling are counted once, in the device part). Absent: the workload's runtime.
  std::optional<RuntimeSpec> host_runtime;
  double link_bytes_per_s = 0;  // host-to-device copies (PCIe)
  int ubatch = 512;             // tokens per micro-batch of a prompt (llama.cpp's -ub)
  int op_offload_min_tokens = 32;  // a step this large runs host layers on the device (ggml's CUDA backend: 32)
};

struct OffloadPart {
  int first_layer = 0, layers = 0;
  bool embedding = false, output = false;
  Analysis a;                  // the part's own analysis on its own device
  double prefill_s = 0;        // its share of the first step
  bool prefill_streamed = false;  // the first step ran on the device, weights copied over the link
  double stream_s = 0;         // of which: copying weights
};

struct OffloadResult {
  int gpu_layers = 0;  // as llama.cpp counts them (layers + 1 when the output layer is on the device)
  int n_layers = 0;
  bool chosen = false;  // the most that fit, chosen here
  OffloadPart device, host;
};

// The forecast with layers offloaded: an Analysis like analyze()'s (operators of both parts, device part first,
// host operators' groups prefixed "host: "; memory is the device's; fits when both parts fit) and the split.
// Throws InputError when the host cannot run the model's operators.
Analysis analyze_offloaded(const ModelSpec& model, const Workload& w, const HardwareSpec& device, const OffloadSpec& spec,
                           OffloadResult& out);

}  // namespace infercast
