#include "runtime/params.hpp"

namespace infercast {

const NameTable<RtParam>& rt_param_names() {
  static const NameTable<RtParam> t({{RtParam::Gemm, "gemm", "fraction of the compute peak GEMMs reach"},
                                     {RtParam::GemmLow, "gemm_low", "fraction of the 8-bit (or narrower) peak those GEMMs reach"},
                                     {RtParam::Attention, "attention", "fraction of the compute peak attention reaches"},
                                     {RtParam::KvMemory, "kv_memory", "fraction of bandwidth KV-cache reads reach"},
                                     {RtParam::MemHBM, "memory.HBM", "fraction of HBM bandwidth reached"},
                                     {RtParam::MemGDDR, "memory.GDDR", "fraction of GDDR bandwidth reached"},
                                     {RtParam::MemLPDDR, "memory.LPDDR", "fraction of LPDDR bandwidth reached"},
                                     {RtParam::MemDDR, "memory.DDR", "fraction of DDR bandwidth reached"},
                                     {RtParam::MemSRAM, "memory.SRAM", "fraction of SRAM bandwidth reached"},
                                     {RtParam::KernelGap, "kernel_gap_us", "device time between kernels launched one by one"},
                                     {RtParam::GraphGap, "graph_kernel_gap_us", "device time between kernels of a replayed graph"},
                                     {RtParam::Launch, "kernel_launch_us", "host time to launch one kernel"},
                                     {RtParam::StepOverhead, "step_overhead_us", "host time per forward step"},
                                     {RtParam::CollectiveWait, "collective_wait_us",
                                      "what each collective of a step waits for its group's slowest device"}});
  return t;
}

const std::vector<RtParam>& all_rt_params() {
  static const std::vector<RtParam> v = {RtParam::Gemm,    RtParam::GemmLow, RtParam::Attention, RtParam::KvMemory, RtParam::MemHBM,    RtParam::MemGDDR,
                                         RtParam::MemLPDDR, RtParam::MemDDR,   RtParam::MemSRAM,   RtParam::KernelGap,
                                         RtParam::GraphGap, RtParam::Launch,   RtParam::StepOverhead, RtParam::CollectiveWait};
  return v;
}

namespace {
int family_of(RtParam p) {
  switch (p) {
    case RtParam::MemHBM: return static_cast<int>(MemoryFamily::HBM);
    case RtParam::MemGDDR: return static_cast<int>(MemoryFamily::GDDR);
    case RtParam::MemLPDDR: return static_cast<int>(MemoryFamily::LPDDR);
    case RtParam::MemDDR: return static_cast<int>(MemoryFamily::DDR);
    case RtParam::MemSRAM: return static_cast<int>(MemoryFamily::SRAM);
    default: return -1;
  }
}
std::optional<double> us(const std::optional<double>& s) { return s ? std::optional<double>(*s * 1e6) : std::nullopt; }
}  // namespace

std::optional<double> get_param(const RuntimeSpec& rt, RtParam p) {
  if (const int f = family_of(p); f >= 0) return rt.eff.memory[f];
  switch (p) {
    case RtParam::Gemm: return rt.eff.gemm;
    case RtParam::GemmLow: return rt.eff.gemm_low;
    case RtParam::KvMemory: return rt.eff.kv_memory;
    case RtParam::Attention: return rt.eff.attention;
    case RtParam::KernelGap: return us(rt.kernel_gap_s);
    case RtParam::GraphGap: return us(rt.graph_kernel_gap_s);
    case RtParam::Launch: return us(rt.kernel_launch_s);
    case RtParam::StepOverhead: return rt.step_overhead_s * 1e6;
    case RtParam::CollectiveWait: return rt.collective_wait_s * 1e6;
    default: return std::nullopt;
  }
}

void set_param(RuntimeSpec& rt, RtParam p, double v) {
  if (const int f = family_of(p); f >= 0) {
    rt.eff.memory[f] = v;
    return;
  }
  switch (p) {
    case RtParam::Gemm: rt.eff.gemm = v; break;
    case RtParam::GemmLow: rt.eff.gemm_low = v; break;
    case RtParam::KvMemory: rt.eff.kv_memory = v; break;
    case RtParam::Attention: rt.eff.attention = v; break;
    case RtParam::KernelGap: rt.kernel_gap_s = v * 1e-6; break;
    case RtParam::GraphGap: rt.graph_kernel_gap_s = v * 1e-6; break;
    case RtParam::Launch: rt.kernel_launch_s = v * 1e-6; break;
    case RtParam::StepOverhead: rt.step_overhead_s = v * 1e-6; break;
    case RtParam::CollectiveWait: rt.collective_wait_s = v * 1e-6; break;
    default: break;
  }
}

void param_range(RtParam p, double& lo, double& hi) {
  switch (p) {
    case RtParam::KernelGap:
    case RtParam::GraphGap: lo = 0.05, hi = 200; break;
    case RtParam::Launch: lo = 0.1, hi = 500; break;
    case RtParam::StepOverhead: lo = 1, hi = 50000; break;
    case RtParam::CollectiveWait: lo = 0.5, hi = 200; break;
    default: lo = 0.02, hi = 1; break;
  }
}

}  // namespace infercast
