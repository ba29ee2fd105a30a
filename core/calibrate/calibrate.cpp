#include "calibrate/calibrate.hpp"

#include <algorithm>
#include <cmath>

#include "util/error.hpp"
#include "util/golden.hpp"

namespace infercast {

namespace {
double& slot(Efficiencies& e, EffParam p) {
  switch (p) {
    case EffParam::Gemm: return e.gemm;
    case EffParam::GemmLow: return e.gemm_low;
    case EffParam::Attention: return e.attention;
    case EffParam::Elementwise: return e.elementwise;
    case EffParam::Memory: return e.memory;
    case EffParam::Dispatch: return e.dispatch_s;
  }
  return e.gemm;
}
void bounds(EffParam p, double& lo, double& hi) {
  if (p == EffParam::Dispatch) {
    lo = 1e-8, hi = 1e-3;  // 10 ns to 1 ms per dispatch
  } else {
    lo = 0.005, hi = 1.0;
  }
}
}  // namespace

const NameTable<Metric>& metric_names() {
  static const NameTable<Metric> t(
      {{Metric::TtftS, "ttft_s", "time to first token, seconds"},
       {Metric::TpotS, "tpot_s", "time per output token, mean over the generation, seconds"},
       {Metric::TpotFirstS, "tpot_first_s", "time of the first decode step, seconds"},
       {Metric::DecodeTokensPerS, "decode_tokens_per_s", "decode tokens per second per sequence (llama-bench tg)"},
       {Metric::PromptTokensPerS, "prompt_tokens_per_s", "prompt tokens per second (llama-bench pp)"},
       {Metric::E2eS, "e2e_s", "end-to-end latency of the request, seconds"},
       {Metric::OutputTokensPerS, "output_tokens_per_s", "generated tokens per second of the whole batch, end to end"}},
      ListStyle::OneOf);
  return t;
}

const NameTable<EffParam>& eff_param_names() {
  static const NameTable<EffParam> t({{EffParam::Gemm, "gemm", "fraction of the peak GEMMs reach"},
                                      {EffParam::GemmLow, "gemm_low", "fraction of the 8-bit (or narrower) peak GEMMs in 8 bits or fewer reach"},
                                      {EffParam::Attention, "attention", "fraction of the peak attention reaches"},
                                      {EffParam::Elementwise, "elementwise", "fraction of the peak elementwise ops reach"},
                                      {EffParam::Memory, "memory", "fraction of the memory bandwidth reached"},
                                      {EffParam::Dispatch, "dispatch_us", "cost of one kernel dispatch, microseconds"}});
  return t;
}

double metric_value(const Analysis& a, const Workload& w, Metric m) {
  double prompt = 0;
  for (const auto& r : w.requests) prompt += static_cast<double>(r.input * r.count);
  switch (m) {
    case Metric::TtftS: return a.ttft_s;
    case Metric::TpotS: return a.tpot_mean_s;
    case Metric::TpotFirstS: return a.tpot_first_s;
    case Metric::DecodeTokensPerS: return a.tokens_per_s;
    case Metric::PromptTokensPerS: return a.ttft_s > 0 ? prompt / a.ttft_s : 0;
    case Metric::E2eS: return a.e2e_s;
    case Metric::OutputTokensPerS: return a.e2e_s > 0 ? a.batch_requests * static_cast<double>(w.gen_tokens) / a.e2e_s : 0;
  }
  return 0;
}

unsigned eff_bit(EffParam p) {
  switch (p) {
    case EffParam::Gemm: return kEffGemm;
    case EffParam::GemmLow: return kEffGemmLow;
    case EffParam::Attention: return kEffAttention;
    case EffParam::Elementwise: return kEffElementwise;
    case EffParam::Memory: return kEffMemory;
    case EffParam::Dispatch: return kEffDispatch;
  }
  return 0;
}

CalibrationResult calibrate(const HardwareSpec& hw0, const std::vector<CalibrationPoint>& points,
                            const std::vector<EffParam>& params, int max_evaluations) {
  if (points.empty()) throw InputError("calibrate.no_points", "/points", "/points is empty; expected at least one measured point");
  CalibrationResult res;
  res.params = params;
  // The efficiencies the points run with now: the device's own where it states them, else its runtime's (the
  // points' workloads name it), else its class's. The fitted ones are stated on the device, so they win over any
  // runtime; the rest keep following the runtime.
  const Execution x0 = resolve_execution(hw0, points.front().workload.runtime);
  res.start = x0.eff;
  for (EffParam p : params) res.fitted_bits |= eff_bit(p);
  HardwareSpec hw = hw0;
  std::vector<double> forecast(points.size());
  // Mean squared log(forecast / measured) over the points; fills `forecast`.
  const auto mean_sq_log = [&](const Efficiencies& e) {
    hw.eff = e;
    hw.eff_given = hw0.eff_given | res.fitted_bits;
    double s = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      forecast[i] = metric_value(analyze(*p.model, p.workload, &hw), p.workload, p.metric);
      const double r = forecast[i] > 0 ? std::log(forecast[i] / p.measured) : 10.0;
      s += r * r;
    }
    return s / static_cast<double>(points.size());
  };
  // Objective: that, plus a faint pull towards the starting values so that a parameter the points cannot see
  // stays where it was instead of wandering.
  const auto objective = [&](Efficiencies e) {
    double s = mean_sq_log(e);
    for (EffParam p : params) {
      const double d = std::log(slot(e, p) / slot(res.start, p));
      s += 1e-6 * d * d;
    }
    ++res.evaluations;
    return s;
  };
  const auto rms = [&](const Efficiencies& e) { return std::sqrt(mean_sq_log(e)); };
  {
    // Before: the device as it is (nothing stated on it yet).
    double s = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      forecast[i] = metric_value(analyze(*p.model, p.workload, &hw0), p.workload, p.metric);
      const double r = forecast[i] > 0 ? std::log(forecast[i] / p.measured) : 10.0;
      s += r * r;
    }
    res.rms_log_error_before = std::sqrt(s / static_cast<double>(points.size()));
    res.forecast_before = forecast;
  }

  // Coordinate descent: golden-section search of each parameter in log space, sweeps until nothing moves.
  Efficiencies cur = res.start;
  double best = objective(cur);
  // A sweep takes at most 51 evaluations per parameter (two probes, 48 golden-section steps, the midpoint).
  const int per_sweep = 51 * static_cast<int>(params.size());
  for (int sweep = 0; sweep < 40; ++sweep) {
    if (res.evaluations + per_sweep + 2 > max_evaluations) {
      res.stopped = true;
      break;
    }
    const double before = best;
    for (EffParam p : params) {
      double lo, hi;
      bounds(p, lo, hi);
      Efficiencies t = cur;
      const auto f = [&](double x) {
        slot(t, p) = std::exp(x);
        return objective(t);
      };
      const GoldenResult r = golden_min(std::log(lo), std::log(hi), 48, f, 1e-6);
      const double x = (r.a + r.b) / 2;
      const double fx = f(x);
      if (fx < best) {
        best = fx;
        slot(cur, p) = std::exp(x);
      }
    }
    if (before - best < 1e-12) break;
  }
  res.fitted = cur;
  res.rms_log_error_after = rms(cur);
  res.forecast_after = forecast;
  return res;
}

}  // namespace infercast
