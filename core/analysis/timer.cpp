// From an operator's FLOPs and bytes to seconds on a device (docs/forecast.md, "Per operator").
#include <algorithm>

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

// Per compute type: the peak an operator runs at and the type it is quoted for; a type the device cannot run
// falls back to its largest peak (or 0 when it publishes none), and that is reported once.
Timer::Timer(const HardwareSpec& hw, TierCost inv, std::vector<Warning>* warnings) : hw_(hw), inv_(inv), warnings_(warnings) {
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
      peak_of_[i] = hw.peak_flops[static_cast<std::size_t>(used)];
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
    case OpClass::GEMM: return hw_.eff.gemm;
    case OpClass::Attention: return hw_.eff.attention;
    default: return hw_.eff.elementwise;
  }
}

double Timer::peak(const Op& op, ComputeType& used) const {
  const auto i = static_cast<std::size_t>(op.compute);
  used = used_of_[i];
  if (!reported_[i] && warnings_) {
    reported_[i] = true;
    const std::string t = compute_type_name(op.compute);
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

double Timer::compute_s(const Op& op, double flops) const {
  ComputeType used;
  const double pk = peak(op, used);
  return flops <= 0 || pk <= 0 ? 0 : flops / (pk * efficiency(op.cls));
}

double Timer::memory_s(double wbytes, double kvbytes, double actbytes) const {
  return (wbytes * inv_.weights + kvbytes * inv_.kv + actbytes * inv_.act) / hw_.eff.memory;
}

OpTime Timer::time(const Op& op) const {
  OpTime t;
  peak(op, t.compute_used);
  t.compute_s = compute_s(op, op.flops);
  t.memory_s = memory_s(op.weight_bytes, op.kv_read_bytes + op.kv_write_bytes, op.act_read_bytes + op.act_write_bytes);
  t.dispatch_s = dispatch_s(op);
  t.time_s = std::max(t.compute_s, t.memory_s) + t.dispatch_s;
  t.bound = bound_of(t);
  return t;
}

void time_phase(Phase& p, const Timer* timer, Timing timing) {
  p.totals = totals_of(p.ops);
  if (!timer) return;
  p.times.clear();
  p.time_s = p.compute_s = p.memory_s = 0;
  double dispatch = 0;
  for (const auto& op : p.ops) {
    p.times.push_back(timer->time(op));
    p.time_s += p.times.back().time_s;
    p.compute_s += p.times.back().compute_s;
    p.memory_s += p.times.back().memory_s;
    dispatch += p.times.back().dispatch_s;
  }
  if (timing == Timing::PhaseMax) p.time_s = std::max(p.compute_s, p.memory_s) + dispatch;
}

}  // namespace infercast
