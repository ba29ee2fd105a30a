// The sweep over a grid of design points (docs/formulas.md, "Design-space exploration"). A point's timing depends
// only on its compute, bandwidth, capacity and SRAM: each such cell is timed once, for a block of cells at a time
// with the operator sums laid out so they vectorize across cells (each cell's sum keeps its own order, so the
// numbers are those of dse_point), and every price and power point of the cell is finished from that timing. The
// Pareto front is kept as points arrive; the sample is chosen by a hash of the point's index. Both are decided by
// index alone, so a grid split into parts (workers) merges into exactly the whole's result.
#include <algorithm>
#include <cmath>

#include "dse/point.hpp"

namespace infercast {

namespace {

bool times(DseParam p) { return p != DseParam::PowerW && p != DseParam::PriceUSD; }

// The front over k objectives (all minimized, compared as floats): a point is kept unless a kept point is no worse
// in every objective and better in one or, equal in all, has the lower index; a new point removes the kept points it
// dominates. Consecutive points are alike, so the last point that dominated is tried first.
class Front {
 public:
  explicit Front(std::size_t k) : k_(k) {}

  void offer(const float* v, std::int64_t id) {
    if (hint_ < kept_.size() && dominates(kept_[hint_].v.data(), kept_[hint_].id, v, id)) return;
    for (std::size_t i = 0; i < kept_.size(); ++i)
      if (dominates(kept_[i].v.data(), kept_[i].id, v, id)) {
        hint_ = i;
        return;
      }
    Entry e{{}, id};
    std::copy(v, v + k_, e.v.begin());
    kept_.erase(std::remove_if(kept_.begin(), kept_.end(), [&](const Entry& f) { return dominates(e.v.data(), e.id, f.v.data(), f.id); }),
                kept_.end());
    kept_.push_back(e);
  }

  // The kept points' indices, by the first objective (then by index).
  std::vector<std::int64_t> ids() const {
    std::vector<Entry> s = kept_;
    std::sort(s.begin(), s.end(), [](const Entry& a, const Entry& b) { return a.v[0] < b.v[0] || (a.v[0] == b.v[0] && a.id < b.id); });
    std::vector<std::int64_t> out;
    for (const auto& e : s) out.push_back(e.id);
    return out;
  }

 private:
  struct Entry {
    std::array<float, 4> v;
    std::int64_t id;
  };
  bool dominates(const float* a, std::int64_t ida, const float* b, std::int64_t idb) const {
    bool better = false;
    for (std::size_t d = 0; d < k_; ++d) {
      if (a[d] > b[d]) return false;
      better = better || a[d] < b[d];
    }
    return better || ida < idb;
  }
  std::size_t k_;
  std::vector<Entry> kept_;
  std::size_t hint_ = 0;
};

// What decides a point's place on the front and in the sample.
struct Selection {
  std::vector<int> obj;
  std::vector<float> sign;  // tokens/s is maximized: negated
  std::int64_t stride = 1;
  std::int64_t keep = 0;
  explicit Selection(const DseSpec& spec, std::int64_t total) {
    for (auto o : spec.objectives) {
      obj.push_back(static_cast<int>(o));
      sign.push_back(o == DseObjective::TokensPerS ? -1.0f : 1.0f);
    }
    keep = spec.keep_points;
    stride = std::max<std::int64_t>(1, (total + keep - 1) / std::max<std::int64_t>(keep, 1));
  }
  void values(const DsePoint& pt, float* v) const {
    for (std::size_t i = 0; i < obj.size(); ++i) v[i] = static_cast<float>(sign[i] * pt.values[obj[i]]);
  }
  // An even sample that does not follow the grid's radix: a point is kept when a hash of its index falls in the
  // first 1/stride of the range.
  bool sampled(std::int64_t id) const {
    const std::uint64_t h = static_cast<std::uint64_t>(id) * 0x9E3779B97F4A7C15ull;
    return stride == 1 || (h >> 32) % static_cast<std::uint64_t>(stride) == 0;
  }
};

// The sample by index, at most `keep` points.
void keep_first(std::vector<std::pair<std::int64_t, DsePoint>>& s, std::int64_t keep, DseResult& r) {
  std::sort(s.begin(), s.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (static_cast<std::int64_t>(s.size()) > keep) s.resize(static_cast<std::size_t>(std::max<std::int64_t>(keep, 0)));
  for (auto& [id, pt] : s) {
    r.sample_ids.push_back(id);
    r.sample.push_back(pt);
  }
}

constexpr int kBlock = 64;  // cells timed together

}  // namespace

DseResult dse_run(const DseWorkload& wl, const DseSpec& spec) {
  DseResult r;
  const std::size_t nax = spec.axes.size();
  std::int64_t total = 1;
  for (const auto& a : spec.axes) total *= static_cast<std::int64_t>(a.values.size());
  r.points = total;
  const Selection sel(spec, total);
  const std::size_t k = spec.objectives.size();
  const double grid = grid_intensity(spec.costs);
  std::vector<std::int64_t> radix(nax, 1);
  for (std::size_t ax = nax; ax-- > 1;) radix[ax - 1] = radix[ax] * static_cast<std::int64_t>(spec.axes[ax].values.size());
  // Cells over the timing axes, points of a cell over the others; both in axis order, the last fastest.
  std::vector<std::size_t> cell_axes, point_axes;
  for (std::size_t ax = 0; ax < nax; ++ax) (times(spec.axes[ax].param) ? cell_axes : point_axes).push_back(ax);
  std::int64_t per_cell = 1;
  for (std::size_t ax : point_axes) per_cell *= static_cast<std::int64_t>(spec.axes[ax].values.size());
  // This part: a range of cell-major positions (cell x per_cell + point).
  const std::int64_t parts = std::max<std::int64_t>(spec.part_count, 1);
  const std::int64_t L0 = total / parts * spec.part_index + std::min(spec.part_index, total % parts);
  const std::int64_t L1 = L0 + total / parts + (spec.part_index < total % parts ? 1 : 0);
  r.evaluated = std::max<std::int64_t>(L1 - L0, 0);

  Front front(k);
  std::vector<std::pair<std::int64_t, DsePoint>> sample;
  const std::array<double, kDseParams> base = dse_base_params(wl.base);
  double invf[kBlock], iw[kBlock], ikv[kBlock], ia[kBlock], acc[kBlock], acc2[kBlock], ttft[kBlock], tpot[kBlock];
  PointCoeffs coeffs[kBlock];
  std::array<double, kDseParams> cell_params[kBlock];
  std::int64_t cell_id[kBlock];
  // Sums of a phase for the block's cells: the same operations, in the same order, as phase_seconds per cell.
  const auto sum_block = [&](const std::vector<DseWorkload::OpCost>& ops, double dispatch, double launch, int nb, double* out) {
    std::fill(acc, acc + nb, 0.0);
    if (wl.timing == Timing::PerOp) {
      for (const auto& o : ops) {
        const double c = o.compute_s, w = o.w, kv = o.kv, a = o.act;
        for (int j = 0; j < nb; ++j) acc[j] += std::max(c * invf[j], w * iw[j] + kv * ikv[j] + a * ia[j]);
      }
      for (int j = 0; j < nb; ++j) out[j] = std::max(acc[j] + dispatch, launch) + wl.step_overhead_s;
      return;
    }
    std::fill(acc2, acc2 + nb, 0.0);
    for (const auto& o : ops) {
      const double c = o.compute_s, w = o.w, kv = o.kv, a = o.act;
      for (int j = 0; j < nb; ++j) {
        acc[j] += c;
        acc2[j] += w * iw[j] + kv * ikv[j] + a * ia[j];
      }
    }
    for (int j = 0; j < nb; ++j) out[j] = std::max(std::max(acc[j] * invf[j], acc2[j]) + dispatch, launch) + wl.step_overhead_s;
  };
  std::vector<float> v(k);
  std::vector<std::size_t> digit(nax, 0);
  const std::int64_t first_cell = L0 / per_cell, end_cell = L1 > L0 ? (L1 - 1) / per_cell + 1 : first_cell;
  for (std::int64_t c0 = first_cell; c0 < end_cell; c0 += kBlock) {
    const int nb = static_cast<int>(std::min<std::int64_t>(kBlock, end_cell - c0));
    for (int j = 0; j < nb; ++j) {
      std::array<double, kDseParams> p = base;
      std::int64_t rest = c0 + j, id = 0;
      for (std::size_t i = cell_axes.size(); i-- > 0;) {
        const auto& ax = spec.axes[cell_axes[i]];
        const auto n = static_cast<std::int64_t>(ax.values.size());
        const auto d = static_cast<std::size_t>(rest % n);
        rest /= n;
        p[static_cast<int>(ax.param)] = ax.values[d];
        id += static_cast<std::int64_t>(d) * radix[cell_axes[i]];
      }
      for (std::size_t ax : point_axes) p[static_cast<int>(spec.axes[ax].param)] = spec.axes[ax].values[0];
      cell_params[j] = p;
      cell_id[j] = id;
      coeffs[j] = point_coeffs(wl, spec, p);
      invf[j] = coeffs[j].inv_f;
      iw[j] = coeffs[j].iw;
      ikv[j] = coeffs[j].ikv;
      ia[j] = coeffs[j].ia;
    }
    sum_block(wl.prefill, wl.prefill_dispatch_s, wl.prefill_launch_s, nb, ttft);
    sum_block(wl.decode, wl.decode_dispatch_s, wl.decode_launch_s, nb, tpot);
    for (int j = 0; j < nb; ++j) {
      // The cell's points in this part, the last point axis fastest.
      const std::int64_t cell = c0 + j;
      const std::int64_t from = std::max(L0, cell * per_cell) - cell * per_cell;
      const std::int64_t to = std::min(L1, (cell + 1) * per_cell) - cell * per_cell;
      std::int64_t rest = from, id = cell_id[j];
      DsePoint pt;
      pt.params = cell_params[j];
      for (std::size_t i = point_axes.size(); i-- > 0;) {
        const std::size_t ax = point_axes[i];
        const auto n = static_cast<std::int64_t>(spec.axes[ax].values.size());
        digit[ax] = static_cast<std::size_t>(rest % n);
        rest /= n;
        pt.params[static_cast<int>(spec.axes[ax].param)] = spec.axes[ax].values[digit[ax]];
        id += static_cast<std::int64_t>(digit[ax]) * radix[ax];
      }
      for (std::int64_t q = from; q < to; ++q) {
        const double price = pt.params[static_cast<int>(DseParam::PriceUSD)], power = pt.params[static_cast<int>(DseParam::PowerW)];
        finish_point(wl, spec, grid, coeffs[j], ttft[j], tpot[j], pt);
        if (pt.feasible) {
          ++r.feasible;
          sel.values(pt, v.data());
          front.offer(v.data(), id);
          if (sel.sampled(id)) sample.push_back({id, pt});
        }
        // finish_point sets the derived power; the axes' values come back for the next point.
        pt.params[static_cast<int>(DseParam::PriceUSD)] = price;
        pt.params[static_cast<int>(DseParam::PowerW)] = power;
        for (std::size_t i = point_axes.size(); i-- > 0;) {
          const std::size_t ax = point_axes[i];
          const auto& values = spec.axes[ax].values;
          if (++digit[ax] < values.size()) {
            pt.params[static_cast<int>(spec.axes[ax].param)] = values[digit[ax]];
            id += radix[ax];
            break;
          }
          id -= static_cast<std::int64_t>(digit[ax] - 1) * radix[ax];
          digit[ax] = 0;
          pt.params[static_cast<int>(spec.axes[ax].param)] = values[0];
        }
      }
    }
  }
  keep_first(sample, spec.keep_points, r);
  // Each front point rebuilt from its index, as dse_point evaluates it.
  for (std::int64_t id : front.ids()) {
    std::array<double, kDseParams> q = base;
    std::int64_t rest = id;
    for (std::size_t ax = 0; ax < nax; ++ax) {
      q[static_cast<int>(spec.axes[ax].param)] = spec.axes[ax].values[static_cast<std::size_t>(rest / radix[ax])];
      rest %= radix[ax];
    }
    r.front.push_back(dse_point(wl, spec, q));
    r.front_ids.push_back(id);
  }
  return r;
}

DseResult dse_merge(const DseSpec& spec, const std::vector<DseResult>& parts) {
  DseResult r;
  if (parts.empty()) return r;
  r.points = parts.front().points;
  const Selection sel(spec, r.points);
  Front front(spec.objectives.size());
  std::vector<std::pair<std::int64_t, DsePoint>> sample, on_front;
  std::vector<float> v(spec.objectives.size());
  for (const auto& p : parts) {
    r.evaluated += p.evaluated;
    r.feasible += p.feasible;
    for (std::size_t i = 0; i < p.front.size(); ++i) {
      sel.values(p.front[i], v.data());
      front.offer(v.data(), p.front_ids[i]);
      on_front.push_back({p.front_ids[i], p.front[i]});
    }
    for (std::size_t i = 0; i < p.sample.size(); ++i) sample.push_back({p.sample_ids[i], p.sample[i]});
  }
  keep_first(sample, spec.keep_points, r);
  std::sort(on_front.begin(), on_front.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::int64_t id : front.ids()) {
    const auto it = std::lower_bound(on_front.begin(), on_front.end(), id, [](const auto& e, std::int64_t x) { return e.first < x; });
    r.front.push_back(it->second);
    r.front_ids.push_back(id);
  }
  return r;
}

}  // namespace infercast
