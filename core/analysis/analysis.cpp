#include "analysis/analysis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace infercast {

namespace {

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

// What bounds an operator: dispatch when it outweighs the roofline time, else the larger of compute and memory.
const char* bound_of(const OpTime& t) {
  const double roof = std::max(t.compute_s, t.memory_s);
  return t.dispatch_s > roof ? "dispatch" : (t.compute_s >= t.memory_s ? "compute" : "memory");
}

void add_work(WorkSums& w, const Op& o, double scale = 1) {
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

// Seconds per byte for data spread over tiers: sum over tiers of fraction / bandwidth.
struct TierCost {
  double weights = 0, kv = 0, act = 0;
};

struct Timer {
  const HardwareSpec& hw;
  TierCost inv;
  // Per compute type: the peak an operator runs at, the type it is quoted for, and whether it is a fallback.
  std::array<double, 8> peak_of{};
  std::array<ComputeType, 8> used_of{};
  mutable std::array<bool, 8> reported{};
  std::vector<Warning>* warnings = nullptr;

  Timer(const HardwareSpec& h, TierCost c, std::vector<Warning>* w) : hw(h), inv(c), warnings(w) {
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
        peak_of[i] = hw.peak_flops[static_cast<std::size_t>(used)];
        used_of[i] = used;
        reported[i] = true;  // nothing to report
      } else {
        peak_of[i] = best;  // 0 when the device publishes no peak at all
        used_of[i] = best_type;
      }
    }
  }

  double efficiency(OpClass c) const {
    switch (c) {
      case OpClass::GEMM: return hw.eff.gemm;
      case OpClass::Attention: return hw.eff.attention;
      default: return hw.eff.elementwise;
    }
  }
  double peak(const Op& op, ComputeType& used) const {
    const auto i = static_cast<std::size_t>(op.compute);
    used = used_of[i];
    if (!reported[i] && warnings) {
      reported[i] = true;
      const std::string t = compute_type_name(op.compute);
      if (peak_of[i] > 0) {
        warnings->push_back({"hardware.compute_fallback", "/hardware/peak_dense_TFLOPS",
                             hw.name + " has no peak for " + t + " or a wider type; " + t + " operators are timed at its " +
                                 compute_type_name(used) + " peak"});
      } else {
        warnings->push_back({"hardware.no_compute_peak", "/hardware/peak_dense_TFLOPS",
                             hw.name + " has no published compute peak; times count memory traffic and dispatch only (a lower bound)"});
      }
    }
    return peak_of[i];
  }
  double compute_s(const Op& op, double flops) const {
    ComputeType used;
    const double pk = peak(op, used);
    return flops <= 0 || pk <= 0 ? 0 : flops / (pk * efficiency(op.cls));
  }
  double memory_s(double wbytes, double kvbytes, double actbytes) const {
    return (wbytes * inv.weights + kvbytes * inv.kv + actbytes * inv.act) / hw.eff.memory;
  }
  OpTime time(const Op& op) const {
    OpTime t;
    peak(op, t.compute_used);
    t.compute_s = compute_s(op, op.flops);
    t.memory_s = memory_s(op.weight_bytes, op.kv_read_bytes + op.kv_write_bytes, op.act_read_bytes + op.act_write_bytes);
    t.dispatch_s = op.dispatches * hw.eff.dispatch_s;
    t.time_s = std::max(t.compute_s, t.memory_s) + t.dispatch_s;
    t.bound = bound_of(t);
    return t;
  }
};

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

// sum_{i=s}^{e-1} (c0 + c1 i)
double affine_sum(double c0, double c1, double s, double e) {
  if (e <= s) return 0;
  const double n = e - s;
  return n * c0 + c1 * ((e - 1) * e / 2 - (s - 1) * s / 2);
}

// sum_{i=0}^{N-1} max(a0 + a1 i, b0 + b1 i)
double sum_max_affine(double a0, double a1, double b0, double b1, double N) {
  const double d0 = a0 - b0, d1 = a1 - b1;
  if (N <= 0) return 0;
  if (d1 == 0) return d0 >= 0 ? affine_sum(a0, a1, 0, N) : affine_sum(b0, b1, 0, N);
  const double r = -d0 / d1;
  if (d1 > 0) {  // a wins from ceil(r) on
    const double i0 = std::clamp(std::ceil(r), 0.0, N);
    return affine_sum(b0, b1, 0, i0) + affine_sum(a0, a1, i0, N);
  }
  const double i1 = std::clamp(std::floor(r) + 1, 0.0, N);
  return affine_sum(a0, a1, 0, i1) + affine_sum(b0, b1, i1, N);
}

// Adds `more` into `into` operator by operator (the same model and settings give the same operator list).
void add_ops(std::vector<Op>& into, const std::vector<Op>& more) {
  for (std::size_t i = 0; i < into.size() && i < more.size(); ++i) {
    Op& o = into[i];
    const Op& m = more[i];
    add_costs(o, m);
    o.dequant_flops += m.dequant_flops;
    o.lora_flops += m.lora_flops;
    o.padded_flops += m.padded_flops;
  }
}

}  // namespace

const NameTable<Timing>& timing_names() {
  static const NameTable<Timing> t(
      {{Timing::PerOp, "per-op", "each operator bound on its own: sum of max(compute, memory) + dispatch"},
       {Timing::PhaseMax, "phase-max", "LIFE: max(total compute, total memory) per phase + dispatches"}});
  return t;
}

std::vector<std::vector<Request>> prefill_steps(const std::vector<Request>& first, i64 chunk) {
  std::vector<std::vector<Request>> chunks;
  if (chunk > 0) {
    std::vector<Request> left = first;
    for (;;) {
      std::vector<Request> step;
      for (auto& r : left) {
        if (r.input <= 0) continue;
        const i64 take = std::min(r.input, chunk);
        step.push_back(Request{r.cached, take, r.count});
        r.cached += take;
        r.input -= take;
      }
      if (step.empty()) break;
      chunks.push_back(std::move(step));
    }
  }
  if (chunks.size() <= 1) chunks = {first};
  return chunks;
}

std::vector<Request> decode_step(const std::vector<Request>& first, double j) {
  std::vector<Request> step;
  step.reserve(first.size());
  for (const auto& r : first) step.push_back(Request{r.cached + r.input + static_cast<i64>(j), 1, r.count});
  return step;
}

const char* phase_bound(const Phase& p) { return p.memory_s >= p.compute_s ? "memory" : "compute"; }

double op_compute_seconds(const HardwareSpec& hw, const Op& op) { return Timer(hw, TierCost{}, nullptr).compute_s(op, op.flops); }

Analysis analyze(const ModelSpec& model, const Workload& w, const HardwareSpec* hw) {
  Analysis a;
  a.params = count_params(model);
  a.groups = group_layers(model);
  const StepSettings& s = w.settings;
  const double kb = s.precision.kv.bits_per_element / 8;
  const auto bytes_of = [&](WeightClass c) { return s.precision.of(c).bits_per_element / 8; };

  // Memory footprint: each weight class in its own format; norm weights stay in the activations' type.
  const auto& P = a.params;
  a.weights_bytes = static_cast<double>(P.embedding) * bytes_of(WeightClass::Embedding) +
                    static_cast<double>(P.lm_head) * bytes_of(WeightClass::LmHead) +
                    static_cast<double>(P.attention) * bytes_of(WeightClass::Attention) +
                    static_cast<double>(P.ffn_dense + P.experts_shared) * bytes_of(WeightClass::Ffn) +
                    static_cast<double>(P.experts_routed) * bytes_of(WeightClass::Experts) +
                    static_cast<double>(P.router) * bytes_of(WeightClass::Router) +
                    static_cast<double>(P.norms) * s.precision.activations.bits_per_element / 8;
  // KV bytes one request holds with `ctx` tokens of context (windows, chunks and MLA latents honored).
  const auto kv_per_request = [&](double ctx) {
    double bytes = 0;
    for (const auto& g : a.groups)
      bytes += static_cast<double>(g.count) * kv_bytes_per_token_layer(g.spec.attn, kb) * kv_tokens_resident(g.spec.attn, ctx);
    return bytes;
  };
  for (const auto& r : w.requests) {
    a.batch_requests += static_cast<double>(r.count);
    const double end_ctx = static_cast<double>(r.cached + r.input + std::max<i64>(w.gen_tokens - 1, 0));
    a.kv_cache_bytes += static_cast<double>(r.count) * kv_per_request(end_ctx);
  }
  for (const auto& g : a.groups) a.kv_bytes_per_token += static_cast<double>(g.count) * kv_bytes_per_token_layer(g.spec.attn, kb);

  // First step (prefill or the given ragged step) and the first decode step. With chunked prefill the first step
  // runs as several: each request advances by at most `prefill_chunk` new tokens per step, attending to what
  // earlier chunks cached; the operator table sums the chunks and TTFT adds their times.
  const std::vector<std::vector<Request>> chunks = prefill_steps(w.requests, w.prefill_chunk);
  a.prefill_chunks = static_cast<double>(chunks.size());
  std::vector<std::vector<Op>> chunk_ops;
  for (const auto& c : chunks) chunk_ops.push_back(step_ops(model, a.groups, c, s));
  a.prefill.ops = chunk_ops.front();
  for (std::size_t i = 1; i < chunk_ops.size(); ++i) add_ops(a.prefill.ops, chunk_ops[i]);
  for (const auto& r : w.requests) a.prefill.tokens += static_cast<double>(r.input * r.count);
  const double D = static_cast<double>(std::max<i64>(w.gen_tokens - 1, 0));  // decode steps after the first token
  a.decode_steps = D;
  a.decode.ops = step_ops(model, a.groups, decode_step(w.requests, 0), s);
  a.decode.tokens = a.batch_requests;
  for (const auto& ops : {&a.prefill.ops, &a.decode.ops}) {
    for (const auto& op : *ops) {
      if (op.count <= 0) continue;
      a.activation_peak_bytes = std::max(a.activation_peak_bytes, (op.act_read_bytes + op.act_write_bytes) / static_cast<double>(op.count));
    }
  }
  time_phase(a.prefill, nullptr, w.timing);
  time_phase(a.decode, nullptr, w.timing);
  for (const auto& o : a.prefill.ops) add_work(a.prefill_work, o);
  if (s.lora.rank > 0) a.lora_merge_flops = lora_merge_flops(model, a.groups, s.lora.rank);
  a.decode_flops_per_token = a.batch_requests > 0 ? a.decode.totals.flops / a.batch_requests : 0;
  a.memory_required_bytes = a.weights_bytes + a.kv_cache_bytes + a.activation_peak_bytes;
  if (!hw) return a;

  // Placement: what is pinned goes to its tier first (then slower ones), the rest fastest tier first; weights,
  // then the KV cache, then activations.
  a.has_hardware = true;
  const int ntiers = static_cast<int>(hw->tiers.size());
  for (const auto& [pin, what] : {std::pair<int, const char*>{w.pin_weights, "/placement/weights"},
                                  std::pair<int, const char*>{w.pin_kv, "/placement/kv_cache"}}) {
    if (pin >= ntiers)
      throw InputError("workload.out_of_range", what,
                       std::string(what) + " holds " + std::to_string(pin) + "; expected a tier from 0 to " +
                           std::to_string(ntiers - 1) + " (" + hw->name + " has " + std::to_string(ntiers) +
                           (ntiers == 1 ? " memory tier)" : " memory tiers)"));
  }
  std::vector<double> free_bytes;
  for (const auto& t : hw->tiers) {
    free_bytes.push_back(t.capacity_bytes);
    a.memory_capacity_bytes += t.capacity_bytes;
  }
  TierCost inv;
  bool spilled = false;
  std::vector<Placement> placed(3);
  const auto place = [&](std::size_t slot, const std::string& what, double bytes, int first, double& inv_out) {
    Placement p{what, std::vector<double>(hw->tiers.size(), 0.0)};
    double left = bytes;
    for (std::size_t i = static_cast<std::size_t>(std::max(first, 0)); i < hw->tiers.size() && left > 0; ++i) {
      const double take = std::min(left, free_bytes[i]);
      p.bytes_per_tier[i] += take;
      free_bytes[i] -= take;
      left -= take;
    }
    if (left > 0) {
      spilled = true;
      p.bytes_per_tier.back() += left;
    }
    inv_out = 0;
    for (std::size_t i = 0; i < hw->tiers.size(); ++i) {
      const double frac = bytes > 0 ? p.bytes_per_tier[i] / bytes : (i == static_cast<std::size_t>(std::max(first, 0)) ? 1.0 : 0.0);
      inv_out += frac / hw->tiers[i].bandwidth_bytes_per_s;
    }
    placed[slot] = p;
  };
  // Pinned items claim their tier before the others.
  if (w.pin_weights >= 0) place(0, "weights", a.weights_bytes, w.pin_weights, inv.weights);
  if (w.pin_kv >= 0) place(1, "kv_cache", a.kv_cache_bytes, w.pin_kv, inv.kv);
  if (w.pin_weights < 0) place(0, "weights", a.weights_bytes, -1, inv.weights);
  if (w.pin_kv < 0) place(1, "kv_cache", a.kv_cache_bytes, -1, inv.kv);
  place(2, "activations", a.activation_peak_bytes, -1, inv.act);
  a.placement = placed;
  a.fits = !spilled;
  a.fits_first_tier = !hw->tiers.empty() && a.memory_required_bytes <= hw->tiers[0].capacity_bytes;

  // Limits: the largest batch of requests shaped like the mean one, and the longest context at this batch.
  {
    const double B = std::max(a.batch_requests, 1.0);
    const double room = a.memory_capacity_bytes - a.weights_bytes;
    const double per_request = (a.kv_cache_bytes + a.activation_peak_bytes) / B;
    a.max_batch = room <= 0 ? 0 : (per_request <= 0 ? 1e6 : std::min(1e6, std::floor(room / per_request)));
    const auto kv_at = [&](double ctx) { return kv_per_request(ctx) * B; };
    const double fixed = a.weights_bytes + a.activation_peak_bytes;
    if (fixed + kv_at(1) > a.memory_capacity_bytes) {
      a.max_context = 0;
    } else if (fixed + kv_at(1e9) <= a.memory_capacity_bytes) {
      a.max_context = 1e9;
    } else {
      double lo = 1, hi = 1e9;  // fits at lo, not at hi
      while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        (fixed + kv_at(mid) <= a.memory_capacity_bytes ? lo : hi) = mid;
      }
      a.max_context = lo;
    }
  }
  Timer timer(*hw, inv, &a.warnings);

  if (chunk_ops.size() == 1) {
    time_phase(a.prefill, &timer, w.timing);
  } else {
    // Each chunk is its own step: its operators are bound on their own (or its phase maxed) and the times add.
    double t = 0, tc = 0, tm = 0;
    std::vector<OpTime> times(a.prefill.ops.size());
    for (auto& ops : chunk_ops) {
      Phase ph;
      ph.ops = std::move(ops);
      time_phase(ph, &timer, w.timing);
      t += ph.time_s;
      tc += ph.compute_s;
      tm += ph.memory_s;
      for (std::size_t i = 0; i < times.size() && i < ph.times.size(); ++i) {
        times[i].compute_s += ph.times[i].compute_s;
        times[i].memory_s += ph.times[i].memory_s;
        times[i].dispatch_s += ph.times[i].dispatch_s;
        times[i].time_s += ph.times[i].time_s;
        times[i].compute_used = ph.times[i].compute_used;
      }
    }
    for (auto& ot : times) ot.bound = bound_of(ot);
    a.prefill.times = std::move(times);
    a.prefill.time_s = t;
    a.prefill.compute_s = tc;
    a.prefill.memory_s = tm;
  }
  time_phase(a.decode, &timer, w.timing);
  if (a.lora_merge_flops > 0) {
    Op merge;
    merge.cls = OpClass::GEMM;
    merge.compute = s.precision.activations.native;
    a.lora_merge_s = timer.compute_s(merge, a.lora_merge_flops);
  }
  a.ttft_s = a.prefill.time_s;
  a.tpot_first_s = a.decode.time_s;

  // Decode over the generation, interval by interval: within an interval every operator's FLOPs and bytes
  // are affine in the step index, so sums of max(compute, memory) have a closed form.
  std::set<double> cuts = {0, std::max(D, 1.0)};
  const double span = std::max(D, 1.0);
  const double tile = static_cast<double>(s.attention_tile);
  if (tile > 0 && span / tile > 20000)
    throw InputError("workload.out_of_range", "/attention_tile",
                     "/attention_tile holds " + std::to_string(s.attention_tile) + ", which splits " +
                         std::to_string(static_cast<long long>(span)) +
                         " decode steps into more than 20000 intervals; expected a larger tile or fewer generated tokens");
  for (const auto& g : a.groups) {
    const auto& at = g.spec.attn;
    for (const auto& r : w.requests) {
      const double p0 = static_cast<double>(r.cached + r.input);  // position of the first decode token
      if (at.window > 0) {
        const double j = static_cast<double>(at.window) - 1 - p0;  // keys stop growing after this step
        if (j > 0 && j < span) cuts.insert(j);
      }
      if (at.chunk > 0) {
        const double k = static_cast<double>(at.chunk);
        for (double j = k - std::fmod(p0, k); j < span; j += k) cuts.insert(j);
      }
      // Padded keys change when the keys pass a multiple of the tile: keys = p0 + j + 1 at step j.
      if (tile > 0)
        for (double j = tile - std::fmod(p0, tile); j < span; j += tile) cuts.insert(j);
    }
  }
  std::vector<double> cv(cuts.begin(), cuts.end());
  double total = 0;
  double last = 0;
  std::vector<std::pair<double, std::pair<double, double>>> segments;  // start, (time at start, slope)
  for (std::size_t i = 0; i + 1 < cv.size(); ++i) {
    const double ja = cv[i], jb = cv[i + 1], n = jb - ja;
    const auto ops0 = step_ops(model, a.groups, decode_step(w.requests, ja), s);
    std::vector<Op> ops1;
    if (n > 1) ops1 = step_ops(model, a.groups, decode_step(w.requests, ja + 1), s);
    double t0 = 0, t1 = 0;
    double C0 = 0, C1 = 0, M0 = 0, M1 = 0, disp_sum = 0;  // phase sums, for phase-max timing
    for (std::size_t k = 0; k < ops0.size(); ++k) {
      const Op& o = ops0[k];
      // Work over the n steps: each quantity is affine in the step, v(i) = v0 + (v1 - v0) i, so the sum over
      // i < n is (n - n(n-1)/2) v0 + n(n-1)/2 v1.
      const double tri = n > 1 ? n * (n - 1) / 2 : 0;
      if (D > 0) {
        add_work(a.decode_work, o, n - tri);
        if (n > 1) add_work(a.decode_work, ops1[k], tri);
      }
      const double c0 = timer.compute_s(o, o.flops);
      const double m0 = timer.memory_s(o.weight_bytes, o.kv_read_bytes + o.kv_write_bytes, o.act_read_bytes + o.act_write_bytes);
      double c1 = 0, m1 = 0;
      if (n > 1) {
        const Op& p = ops1[k];
        c1 = timer.compute_s(p, p.flops) - c0;
        m1 = timer.memory_s(p.weight_bytes, p.kv_read_bytes + p.kv_write_bytes, p.act_read_bytes + p.act_write_bytes) - m0;
      }
      const double disp = o.dispatches * hw->eff.dispatch_s;
      C0 += c0, C1 += c1, M0 += m0, M1 += m1, disp_sum += disp;
      if (w.timing == Timing::PerOp) {
        total += sum_max_affine(c0, c1, m0, m1, n) + n * disp;
        t0 += std::max(c0, m0) + disp;
        t1 += std::max(c0 + c1 * (n - 1), m0 + m1 * (n - 1)) + disp;
      }
    }
    if (w.timing == Timing::PhaseMax) {
      total += sum_max_affine(C0, C1, M0, M1, n) + n * disp_sum;
      t0 = std::max(C0, M0) + disp_sum;
      t1 = std::max(C0 + C1 * (n - 1), M0 + M1 * (n - 1)) + disp_sum;
    }
    segments.push_back({ja, {t0, n > 1 ? (t1 - t0) / (n - 1) : 0}});
    last = t1;
  }
  a.tpot_last_s = D > 0 ? last : a.tpot_first_s;
  a.decode_time_s = D > 0 ? total : 0;
  a.tpot_mean_s = D > 0 ? total / D : a.tpot_first_s;
  a.e2e_s = a.ttft_s + a.decode_time_s;
  a.tokens_per_s = a.tpot_mean_s > 0 ? 1 / a.tpot_mean_s : 0;
  a.batch_tokens_per_s = a.tokens_per_s * a.batch_requests;

  // Timeline for charts: up to 65 evenly spaced positions, read off the affine segments.
  const double first_ctx = w.requests.empty() ? 0 : static_cast<double>(w.requests[0].cached + w.requests[0].input);
  const int points = static_cast<int>(std::min(64.0, std::max(D - 1, 0.0)));
  for (int i = 0; i <= points; ++i) {
    const double j = points == 0 ? 0 : std::round((D - 1) * i / points);
    auto it = std::upper_bound(segments.begin(), segments.end(), j,
                               [](double v, const auto& seg) { return v < seg.first; });
    const auto& seg = *(it == segments.begin() ? it : it - 1);
    a.timeline.push_back(TimelinePoint{j + 1, first_ctx + j, seg.second.first + seg.second.second * (j - seg.first)});
  }
  return a;
}

}  // namespace infercast
