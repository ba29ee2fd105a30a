#include "runtime/runtime.hpp"

#include <algorithm>
#include <cctype>

namespace infercast {

const NameTable<LaunchMode>& launch_mode_names() {
  static const NameTable<LaunchMode> t(
      {{LaunchMode::PerKernel, "per-kernel", "the host launches every kernel; a step costs at least its launches"},
       {LaunchMode::Graph, "graph", "a whole step recorded once and replayed: one launch per step, a device-side gap per kernel"}});
  return t;
}

const NameTable<ComputeBuffer>& compute_buffer_names() {
  static const NameTable<ComputeBuffer> t(
      {{ComputeBuffer::Step, "step", "each step's activations, allocated as it runs"},
       {ComputeBuffer::Reserved, "reserved",
        "a buffer reserved at start for the worst micro-batch: prompt_micro_batch tokens over the whole cache, their logits in F32 (llama.cpp)"}});
  return t;
}

const NameTable<DeviceSplit>& device_split_names() {
  static const NameTable<DeviceSplit> t(
      {{DeviceSplit::Tensor, "tensor", "every layer split over the devices (tensor parallelism over a node's devices)"},
       {DeviceSplit::Layers, "layers", "each device holds consecutive layers, a step passing them in turn (llama.cpp's --split-mode layer)"}});
  return t;
}

const NameTable<QuantPath>& quant_path_names() {
  static const NameTable<QuantPath> t(
      {{QuantPath::Dequantize, "dequantize", "quantized weights expanded to the activation type and multiplied at its peak"},
       {QuantPath::Int8Dot, "int8-dot", "activations quantized to int8, integer dot products at the int8 peak (llama.cpp MMQ/MMVQ)"}});
  return t;
}

const NameTable<MemoryFamily>& memory_family_names() {
  static const NameTable<MemoryFamily> t({{MemoryFamily::HBM, "HBM", "stacked high-bandwidth memory (datacenter GPUs, TPUs)"},
                                          {MemoryFamily::GDDR, "GDDR", "graphics memory on a wide bus (GeForce, Radeon, L40S)"},
                                          {MemoryFamily::LPDDR, "LPDDR", "low-power DRAM shared by CPU and GPU (Apple, laptops, phones)"},
                                          {MemoryFamily::DDR, "DDR", "DIMMs behind a CPU's memory controllers"},
                                          {MemoryFamily::SRAM, "SRAM", "on-chip or on-wafer SRAM (Groq, Cerebras, d-Matrix)"},
                                          {MemoryFamily::Flash, "Flash", "UFS or NVMe storage holding what does not fit"}});
  return t;
}

namespace {
bool contains(const std::string& hay, const char* needle) {
  std::string h = hay;
  std::transform(h.begin(), h.end(), h.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return h.find(needle) != std::string::npos;
}
}  // namespace

// A device's fastest tier's technology to its family; a tier without one is read by its name, then by its
// device's class.
MemoryFamily memory_family(const HardwareSpec& hw) {
  if (!hw.tiers.empty()) {
    switch (hw.tiers.front().technology) {
      case MemoryTech::HBM2: case MemoryTech::HBM2e: case MemoryTech::HBM3: case MemoryTech::HBM3e: return MemoryFamily::HBM;
      case MemoryTech::GDDR6: case MemoryTech::GDDR6X: case MemoryTech::GDDR7: return MemoryFamily::GDDR;
      case MemoryTech::LPDDR4X: case MemoryTech::LPDDR5: case MemoryTech::LPDDR5X: return MemoryFamily::LPDDR;
      case MemoryTech::DDR4: case MemoryTech::DDR5: return MemoryFamily::DDR;
      case MemoryTech::SRAM: return MemoryFamily::SRAM;
      case MemoryTech::UFS: case MemoryTech::NVMe: return MemoryFamily::Flash;
      default: break;
    }
  }
  const std::string name = hw.tiers.empty() ? "" : hw.tiers.front().name;
  if (contains(name, "HBM")) return MemoryFamily::HBM;
  if (contains(name, "GDDR")) return MemoryFamily::GDDR;
  if (contains(name, "LPDDR")) return MemoryFamily::LPDDR;
  if (contains(name, "DDR")) return MemoryFamily::DDR;
  if (contains(name, "SRAM")) return MemoryFamily::SRAM;
  if (contains(name, "UFS") || contains(name, "NVME") || contains(name, "FLASH")) return MemoryFamily::Flash;
  const std::string& c = hw.device_class;
  if (c == "consumer-gpu") return MemoryFamily::GDDR;
  if (c == "apple-soc" || c == "igpu" || c == "npu" || c == "mobile-soc" || c == "embedded-gpu") return MemoryFamily::LPDDR;
  if (c == "cpu") return MemoryFamily::DDR;
  if (c == "sram-accelerator") return MemoryFamily::SRAM;
  if (c == "flash") return MemoryFamily::Flash;
  return MemoryFamily::HBM;
}

Execution resolve_execution(const HardwareSpec& hw, const RuntimeSpec* rt) {
  Execution x;
  x.runtime = rt;
  const Efficiencies cls = default_efficiencies(hw.device_class);
  x.eff = hw.eff;  // the device's own (its `efficiency`, else its class's)
  x.graph_gap_s = x.eff.dispatch_s;
  x.eff.gemm_low = hw.eff_given & kEffGemmLow ? hw.eff.gemm_low : x.eff.gemm;
  x.kv_memory = x.eff.memory;
  if (!rt) return x;
  // A value the device file states itself wins (a calibrated device); else the runtime's; else the class's. The
  // runtime's related terms (its 8-bit GEMMs, its KV-cache reads, its gap inside a graph) keep their ratio to the
  // stated value: a device stating gemm 0.5 where the runtime's GEMMs reach 0.34 and its int8 GEMMs 0.22 runs
  // those at 0.5 x 0.22 / 0.34. A calibrated device thus moves what the runtime's kernels reach on it, not how
  // its kernels differ from one another (docs/forecast.md, "Calibration").
  const double rt_gemm = rt->eff.gemm.value_or(cls.gemm);
  const double rt_memory = rt->eff.memory[static_cast<int>(memory_family(hw))].value_or(cls.memory);
  const double rt_gap = rt->kernel_gap_s.value_or(cls.dispatch_s);
  const auto own_or = [&](unsigned bit, double own, double runtime_value) { return hw.eff_given & bit ? own : runtime_value; };
  x.eff.gemm = own_or(kEffGemm, hw.eff.gemm, rt_gemm);
  x.eff.attention = own_or(kEffAttention, hw.eff.attention, rt->eff.attention.value_or(cls.attention));
  x.eff.elementwise = own_or(kEffElementwise, hw.eff.elementwise, rt->eff.elementwise.value_or(cls.elementwise));
  x.eff.memory = own_or(kEffMemory, hw.eff.memory, rt_memory);
  x.eff.dispatch_s = own_or(kEffDispatch, hw.eff.dispatch_s, rt_gap);
  // The runtime's own value of a related term, scaled by how far the device's stated value moves the base term.
  const auto related = [&](unsigned bit, double stated, double rt_base, double rt_value) {
    return hw.eff_given & bit && rt_base > 0 ? stated * rt_value / rt_base : rt_value;
  };
  x.eff.gemm_low = own_or(kEffGemmLow, hw.eff.gemm_low,
                          std::min(1.0, related(kEffGemm, x.eff.gemm, rt_gemm, rt->eff.gemm_low.value_or(rt_gemm))));
  x.kv_memory = std::min(1.0, related(kEffMemory, x.eff.memory, rt_memory, rt->eff.kv_memory.value_or(rt_memory)));
  x.graph_gap_s = related(kEffDispatch, x.eff.dispatch_s, rt_gap, rt->graph_kernel_gap_s.value_or(rt_gap));
  x.graphs = rt->launch == LaunchMode::Graph;
  x.graph_max_tokens = rt->graph_max_tokens;
  x.launch_s = rt->kernel_launch_s.value_or(0);
  x.step_overhead_s = rt->step_overhead_s;
  x.collective_wait_s = rt->collective_wait_s;
  return x;
}

bool window_kv_held_in_full(const RuntimeSpec* rt, const std::string& model_type) {
  if (!rt || model_type.empty()) return false;
  const auto& v = rt->scheduler.window_kv_full_for;
  return std::find(v.begin(), v.end(), model_type) != v.end();
}

std::string window_kv_full_text(const RuntimeSpec& rt, const std::string& model_type) {
  return rt.name + " caches " + model_type + "'s sliding-window layers for the whole context (" +
         (rt.scheduler.window_kv_full_reason.empty() ? "its hybrid SWA memory does not support this family yet" : rt.scheduler.window_kv_full_reason) + ")";
}

std::string weight_format_gap(const RuntimeSpec* rt, const DType& weights) {
  if (!rt || rt->weight_formats.empty()) return "";
  const WeightFormat f = weight_format(weights);
  const auto& ok = rt->weight_formats;
  if (std::find(ok.begin(), ok.end(), f) != ok.end()) return "";
  std::string runs;
  for (std::size_t i = 0; i < ok.size(); ++i) runs += (i ? ", " : "") + std::string(weight_format_names().name(ok[i]));
  const std::string name = weight_format_names().name(f);
  return rt->name + " has no kernels for " + name + " weights (" + weights.name + "): this forecast assumes it had; it runs " +
         runs + " weights (pick one of those, or a runtime that runs " + name + ")";
}

i64 prompt_chunk(const RuntimeSpec* rt, double requests) {
  if (!rt || rt->prompt_micro_batch <= 0) return 0;
  return std::max<i64>(1, static_cast<i64>(static_cast<double>(rt->prompt_micro_batch) / std::max(1.0, requests)));
}

}  // namespace infercast
