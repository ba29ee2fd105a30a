// Decode over the whole generation (docs/forecast.md, "Decode in closed form"): within an interval between window,
// chunk and tile boundaries every operator's FLOPs and bytes are affine in the step index, so the sum of
// max(compute, memory) over the interval has a closed form, and TPOT at any step is read off the segments.
#include <algorithm>
#include <cmath>
#include <set>

#include "analysis/steps.hpp"
#include "analysis/work.hpp"
#include "analysis/trace.hpp"

namespace infercast {

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
      if (keys_per_query_bound(at) > 0) {  // a window, or DSA's top-k
        const double j = static_cast<double>(keys_per_query_bound(at)) - 1 - p0;  // keys stop growing after this step
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
  a.decode_blocks.clear();
  for (std::size_t i = 0; i + 1 < cv.size(); ++i) {
    const double ja = cv[i], jb = cv[i + 1], n = jb - ja;
    const auto ops0 = step_ops(model, a.groups, decode_step(w.requests, ja), s);
    std::vector<Op> ops1;
    if (n > 1) ops1 = step_ops(model, a.groups, decode_step(w.requests, ja + 1), s);
    // The interval as a block: each operator's terms at its first step and their change per step.
    StepBlock b = block_of(ops0, timer, a.decode.tokens);
    b.n = n;
    const double tri = n > 1 ? n * (n - 1) / 2 : 0;
    for (std::size_t k = 0; k < ops0.size(); ++k) {
      // Work over the n steps: each quantity is affine in the step, v(i) = v0 + (v1 - v0) i, so the sum over
      // i < n is (n - n(n-1)/2) v0 + n(n-1)/2 v1.
      if (D > 0) {
        add_work(a.decode_work, ops0[k], n - tri);
        if (n > 1) add_work(a.decode_work, ops1[k], tri);
      }
      if (n > 1) {
        const OpTerms t1 = timer.terms(ops1[k]);
        b.ops[k].c1 = t1.c0 - b.ops[k].c0;
        b.ops[k].m1 = t1.m0 - b.ops[k].m0;
        b.ops[k].k1 = t1.k0 - b.ops[k].k0;
      }
    }
    const BlockTime bt = time_block(b, timer.execution(), w.timing);
    total += bt.total;
    segments.push_back({ja, {bt.first, n > 1 ? (bt.last - bt.first) / (n - 1) : 0}});
    last = bt.last;
    a.decode_blocks.push_back(std::move(b));
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
