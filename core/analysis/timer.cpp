// From an operator's FLOPs and bytes to seconds on a device (docs/forecast.md, "Per operator").
#include <algorithm>

#include "analysis/gemm_shape.hpp"
#include "analysis/steps.hpp"

namespace infercast {

void add_work(WorkSums& w, const Op& o, double scale) {
  w.flops_by_type[static_cast<std::size_t>(o.compute)] += scale * o.flops;
  w.weight_bytes += scale * o.weight_bytes;
  w.kv_bytes += scale * (o.kv_read_bytes + o.kv_write_bytes);
  w.act_bytes += scale * (o.act_read_bytes + o.act_write_bytes);
}

PhaseTotals totals_of(const std::vector<Op>& ops) {
  PhaseTotals t;
  for (const auto& o : ops) add_costs(t, o);
  return t;
}

const char* bound_of(const OpTime& t) {
  const double roof = std::max(t.compute_s, t.memory_s);
  return t.dispatch_s > roof ? "dispatch" : (t.compute_s >= t.memory_s ? "compute" : "memory");
}

bool vector_units(const HardwareSpec& hw, const RuntimeSpec* rt, ComputeType t, ComputeType matrix_type, ComputeType& used) {
  return rt && !rt->matrix_engine[static_cast<std::size_t>(matrix_type)] && hw.has_vector_peaks() &&
         resolve_compute(hw.peak_flops_vector, t, used);
}

// Per compute type: the peak an operator runs at and the type it is quoted for; a type the device cannot run
// falls back to its largest peak (or 0 when it publishes none), and that is reported once.
Timer::Timer(const HardwareSpec& hw, const Execution& x, TierCost inv, std::vector<Warning>* warnings)
    : hw_(hw), x_(x), inv_(inv), warnings_(warnings) {
  double best = 0;
  ComputeType best_type = ComputeType::FP32;
  for (std::size_t i = 0; i < 8; ++i) {
    if (hw.peak_flops[i] > best) {
      best = hw.peak_flops[i];
      best_type = static_cast<ComputeType>(i);
    }
  }
  for (std::size_t i = 0; i < 8; ++i) {
    ComputeType used;
    if (resolve_compute(hw, static_cast<ComputeType>(i), used)) {
      // A type the runtime keeps off a CPU's matrix engine runs on its vector units, where the device states their
      // rates (llama.cpp's float GEMMs on AVX-512 beside AMX).
      ComputeType on_vector;
      if (vector_units(hw, x.runtime, static_cast<ComputeType>(i), used, on_vector)) {
        peak_of_[i] = hw.peak_flops_vector[static_cast<std::size_t>(on_vector)];
        used_of_[i] = on_vector;
        reported_[i] = true;
        continue;
      }
      const auto u = static_cast<std::size_t>(used);
      // A runtime whose kernels accumulate 16-bit products in 16 bits reaches the FP16-accumulate rate where the
      // device has one (GeForce and RTX workstation cards: twice the FP32-accumulate rate).
      const bool acc16 = x.runtime && x.runtime->fp16_accumulate && hw.peak_flops_fp16_accumulate[u] > 0;
      peak_of_[i] = acc16 ? hw.peak_flops_fp16_accumulate[u] : hw.peak_flops[u];
      used_of_[i] = used;
      reported_[i] = true;  // nothing to report
    } else {
      peak_of_[i] = best;
      used_of_[i] = best_type;
    }
  }
}

double Timer::efficiency(OpClass c) const {
  switch (c) {
    case OpClass::GEMM: return x_.eff.gemm;
    case OpClass::Attention: return x_.eff.attention;
    default: return x_.eff.elementwise;
  }
}

ComputeType Timer::path(const Op& op) const {
  const RuntimeSpec* rt = x_.runtime;
  if (!rt) return op.compute;
  // Quantized weights multiplied with integer dot products (llama.cpp's MMQ/MMVQ) up to the runtime's token limit.
  if (rt->quant == QuantPath::Int8Dot && op.cls == OpClass::GEMM && op.dequant_flops > 0 &&
      (rt->int8_dot_max_tokens == 0 || op.gemm_m <= static_cast<double>(rt->int8_dot_max_tokens)))
    return ComputeType::INT8;
  // A runtime without FP8 kernels runs FP8 activations as 16-bit.
  if (op.compute == ComputeType::FP8 && !rt->fp8) return ComputeType::FP16;
  return op.compute;
}

double Timer::peak(const Op& op, ComputeType& used) const {
  const auto i = static_cast<std::size_t>(path(op));
  used = used_of_[i];
  if (!reported_[i] && warnings_) {
    reported_[i] = true;
    const std::string t = compute_type_name(path(op));
    if (peak_of_[i] > 0) {
      warnings_->push_back({"hardware.compute_fallback", "/hardware/peak_dense_TFLOPS",
                            hw_.name + " has no peak for " + t + " or a wider type; " + t + " operators are timed at its " +
                                compute_type_name(used) + " peak"});
    } else {
      warnings_->push_back({"hardware.no_compute_peak", "/hardware/peak_dense_TFLOPS",
                            hw_.name + " has no compute peak; times count memory traffic and dispatch only (a lower bound, not a forecast)"});
    }
  }
  return peak_of_[i];
}

double Timer::raw_compute_s(const Op& op, double flops) const {
  ComputeType used;
  const double pk = peak(op, used);
  // Integer dot products scale inside the dot product: no separate dequantization work.
  if (path(op) == ComputeType::INT8 && op.compute != ComputeType::INT8) flops -= std::min(flops, op.dequant_flops);
  if (flops <= 0 || pk <= 0) return 0;
  // GEMM tiles run in waves over the compute units: a small output (few tokens per weight matrix,
  // a tensor-parallel slice) keeps some units idle (analysis/gemm_shape.cpp). Only for runtimes that launch real
  // kernels (the reference stack keeps the class's flat efficiency, as LIFE's tables do).
  if (waves(op)) return flops / (pk * gemm_shape_efficiency(gemm_rows(op), op.gemm_n, tile_units(), &memo_));
  return flops / pk;
}

GemmRows Timer::gemm_rows(const Op& op) {
  GemmRows g;
  g.M = op.gemm_m;
  const double per_matrix = static_cast<double>(op.count) * op.gemm_k * op.gemm_n;
  g.matrices = per_matrix > 0 ? op.weight_elements / per_matrix : 1;  // MoE: the experts the call touches
  g.tokens = op.route_tokens;
  g.experts = op.route_experts;
  g.p = op.route_p;
  return g;
}

bool Timer::waves(const Op& op) const {
  return op.cls == OpClass::GEMM && x_.runtime && x_.runtime->gemm_waves && op.gemm_m > 0 && tile_units() > 0;
}

// The units a GEMM's tiles are spread over: a GPU's SMs, CUs or cores (a preset's compute_units). Devices whose
// units are not one-tile-at-a-time engines (CPUs, NPUs, dataflow chips, ALU counts of mobile GPUs) have none here.
int Timer::tile_units() const {
  const std::string& c = hw_.device_class;
  const bool gpu = c == "datacenter-gpu" || c == "consumer-gpu" || c == "embedded-gpu" || c == "igpu" || c == "apple-soc";
  const int u = hw_.architecture.compute_units;
  return gpu && u <= 512 ? u : 0;
}

bool Timer::low_precision(const Op& op) const {
  const ComputeType t = path(op);
  return op.cls == OpClass::GEMM && (t == ComputeType::FP8 || t == ComputeType::INT8 || t == ComputeType::FP4 || t == ComputeType::INT4);
}

double Timer::compute_s(const Op& op, double flops) const {
  return raw_compute_s(op, flops) / (low_precision(op) ? x_.eff.gemm_low : efficiency(op.cls));
}

double Timer::raw_memory_s(const Op& op) const {
  return op.weight_bytes * inv_.weights + (op.kv_read_bytes + op.kv_write_bytes) * inv_.kv +
         (op.act_read_bytes + op.act_write_bytes) * inv_.act;
}

double Timer::memory_s(double wbytes, double kvbytes, double actbytes) const {
  return (wbytes * inv_.weights + actbytes * inv_.act) / x_.eff.memory + kvbytes * inv_.kv / x_.kv_memory;
}

OpTerms Timer::terms(const Op& op) const {
  OpTerms t;
  t.cls = op.cls;
  t.c0 = raw_compute_s(op, op.flops);
  t.m0 = op.weight_bytes * inv_.weights + (op.act_read_bytes + op.act_write_bytes) * inv_.act;
  t.k0 = (op.kv_read_bytes + op.kv_write_bytes) * inv_.kv;
  t.kernels = op.dispatches;
  t.low = low_precision(op);
  return t;
}

StepBlock block_of(const std::vector<Op>& ops, const Timer& timer, double tokens) {
  StepBlock b;
  b.tokens = tokens;
  b.ops.reserve(ops.size());
  for (const auto& op : ops) b.ops.push_back(timer.terms(op));
  return b;
}

OpTime Timer::time(const Op& op, bool replayed) const {
  OpTime t;
  peak(op, t.compute_used);
  t.compute_s = compute_s(op, op.flops);
  t.memory_s = memory_s(op.weight_bytes, op.kv_read_bytes + op.kv_write_bytes, op.act_read_bytes + op.act_write_bytes);
  t.dispatch_s = dispatch_s(op, replayed);
  t.time_s = std::max(t.compute_s, t.memory_s) + t.dispatch_s;
  ComputeType used;
  const double pk = peak(op, used);
  // As the explanation writes it: compute = FLOPs / (peak x efficiency).
  if (t.compute_s > 0 && pk > 0) t.compute_efficiency = op.flops / (pk * t.compute_s);
  if (t.memory_s > 0) t.bandwidth_bytes_per_s = op.bytes() / t.memory_s;
  t.gap_s = replayed ? x_.graph_gap_s : x_.eff.dispatch_s;
  t.bound = bound_of(t);
  return t;
}

StepBlock time_phase(Phase& p, const Timer* timer, Timing timing) {
  p.totals = totals_of(p.ops);
  if (!timer) return {};
  p.times.clear();
  p.compute_s = p.memory_s = 0;
  const bool graph = replayed(timer->execution(), p.tokens);
  for (const auto& op : p.ops) {
    p.times.push_back(timer->time(op, graph));
    p.compute_s += p.times.back().compute_s;
    p.memory_s += p.times.back().memory_s;
  }
  // The step's time, launches and the runtime's per-step cost included, from its block (trace.cpp): the same
  // arithmetic the decode sum and validation's re-timing use.
  StepBlock block = block_of(p.ops, *timer, p.tokens);
  p.time_s = time_block(block, timer->execution(), timing).first;
  return block;
}

}  // namespace infercast
