// Decode over the whole generation (docs/forecast.md, "Decode in closed form"): within an interval between window,
// chunk and tile boundaries every operator's FLOPs and bytes are affine in the step index, so the sum of
// max(compute, memory) over the interval has a closed form, and TPOT at any step is read off the segments.
#include <algorithm>
#include <cmath>
#include <set>

#include "analysis/steps.hpp"
#include "analysis/work.hpp"

namespace infercast {

namespace {

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

}  // namespace

void sum_decode(Analysis& a, const Timer& timer, const ModelSpec& model, const Workload& w) {
  const StepSettings& s = w.settings;
  const double D = a.decode_steps;
  // Decode over the generation, interval by interval: within an interval every operator's FLOPs and bytes
  // are affine in the step index, so sums of max(compute, memory) have a closed form.
  std::set<double> cuts = {0, std::max(D, 1.0)};
  const double span = std::max(D, 1.0);
  const double tile = static_cast<double>(s.attention_tile);
  check_tile(s.attention_tile, span);
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
      const double disp = timer.dispatch_s(o);
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
}

}  // namespace infercast
