// Decode over the whole generation (docs/forecast.md, "Decode in closed form"): within an interval between window,
// chunk and tile boundaries every operator's FLOPs and bytes are affine in the step index, so the sum of
// max(compute, memory) over the interval has a closed form, and TPOT at any step is read off the segments.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "analysis/steps.hpp"
#include "analysis/work.hpp"
#include "analysis/trace.hpp"

namespace infercast {

namespace {

// Requests that decode from the same position share every boundary and every value: one lane each.
struct Lane {
  double p0 = 0;     // position of the first decode token (cached + input of the first step)
  double count = 0;  // requests at that position
};

// A lane's work in one layer group on its current piece: every quantity of a GroupAttention (pairs, keys, padded
// pairs, the indexer's pairs and keys, the recurrent mixers' sequences and tokens), each a + b j.
struct Piece {
  double a[kGroupAttentionPartCount] = {};
  double b[kGroupAttentionPartCount] = {};
};

// The piece a lane is on from step j: its values at j and j + 1 (every quantity is affine until the lane's next
// boundary, and a piece one step long never uses its slope).
Piece piece_at(const LayerSpec& layer, const Lane& l, double j, const StepSettings& s) {
  const auto v0 = request_attention(layer, Request{static_cast<i64>(l.p0 + j), 1, 1}, s);
  const auto v1 = request_attention(layer, Request{static_cast<i64>(l.p0 + j) + 1, 1, 1}, s);
  Piece p;
  for (int q = 0; q < kGroupAttentionPartCount; ++q) {
    const auto part = kGroupAttentionParts[q];
    p.b[q] = v1.*part - v0.*part;
    p.a[q] = v0.*part - p.b[q] * j;
  }
  return p;
}

// The steps (after 0, before `span`) where one lane's attention work in a layer group changes slope or jumps: a
// window (or DSA's top-k) fills, a chunk starts, the keys pass a multiple of the tile; and for a lane with no cache,
// step 1 (its first token runs as a prefill: no recurrent state yet, the chunked kernel).
void lane_boundaries(const AttentionSpec& at, double p0, double span, double tile, std::vector<double>& out) {
  if (p0 == 0 && span > 1) out.push_back(1);
  if (keys_per_query_bound(at) > 0) {  // a window, or DSA's top-k
    const double j = static_cast<double>(keys_per_query_bound(at)) - 1 - p0;  // keys stop growing after this step
    if (j > 0 && j < span) out.push_back(j);
  }
  if (compressed_keys_bound(at) > 0) {  // DeepSeek-V4's CSA: the pooled entries reach the indexer's top-k
    const double j = static_cast<double>(compressed_keys_bound(at)) - 1 - p0;
    if (j > 0 && j < span) out.push_back(j);
  }
  if (at.chunk > 0) {
    const double k = static_cast<double>(at.chunk);
    for (double j = k - std::fmod(p0, k); j < span; j += k) out.push_back(j);
    // Within a chunk the keys restart at 1: they pass a multiple of the tile at the chunk's own multiples.
    if (tile > 0 && std::fmod(k, tile) != 0)
      for (double c = p0 - std::fmod(p0, k); c - p0 < span; c += k)
        for (double p = c; p < c + k; p += tile)
          if (p > p0 && p - p0 < span) out.push_back(p - p0);
  }
  // Padded keys change when the keys pass a multiple of the tile: keys = p0 + j + 1 at step j.
  if (tile > 0)
    for (double j = tile - std::fmod(p0, tile); j < span; j += tile) out.push_back(j);
}

}  // namespace

void sum_decode(Analysis& a, const Timer& timer, const ModelSpec& model, const Workload& w) {
  const StepSettings& s = w.settings;
  const double D = a.decode_steps;
  // Decode over the generation, interval by interval: within an interval every operator's FLOPs and bytes
  // are affine in the step index, so sums of max(compute, memory) have a closed form.
  const double span = std::max(D, 1.0);
  const double tile = static_cast<double>(s.attention_tile);
  check_tile(s.attention_tile, span);
  // Lanes, and each lane's boundaries: the intervals are cut at every lane's boundaries, and at a boundary only
  // that lane's work is taken out of the running sums and put back on its new piece. The cost is linear in the
  // distinct requests and their boundaries, not in requests x intervals.
  std::vector<Lane> lanes;
  {
    std::vector<Lane> all;
    for (const auto& r : w.requests) all.push_back({static_cast<double>(r.cached + r.input), static_cast<double>(r.count)});
    std::sort(all.begin(), all.end(), [](const Lane& x, const Lane& y) { return x.p0 < y.p0; });
    for (const auto& l : all) {
      if (!lanes.empty() && lanes.back().p0 == l.p0) lanes.back().count += l.count;
      else lanes.push_back(l);
    }
  }
  const std::size_t G = a.groups.size();
  std::vector<std::pair<double, std::uint32_t>> events;  // (step, lane)
  {
    std::vector<double> js;
    for (std::uint32_t i = 0; i < lanes.size(); ++i) {
      js.clear();
      for (const auto& g : a.groups) lane_boundaries(g.spec.attn, lanes[i].p0, span, tile, js);
      std::sort(js.begin(), js.end());
      js.erase(std::unique(js.begin(), js.end()), js.end());
      for (double j : js) events.push_back({j, i});
    }
  }
  std::sort(events.begin(), events.end());
  std::vector<double> cv = {0};
  for (const auto& e : events)
    if (e.first != cv.back()) cv.push_back(e.first);
  if (span != cv.back()) cv.push_back(span);
  // Running sums: per group and quantity, sum over lanes of count x a and of count x b.
  std::vector<Piece> pieces(lanes.size() * G);
  std::vector<Piece> sums(G);
  const auto take = [&](std::size_t i, std::size_t g, double sign) {
    const Piece& p = pieces[i * G + g];
    for (int q = 0; q < kGroupAttentionPartCount; ++q) {
      sums[g].a[q] += sign * lanes[i].count * p.a[q];
      sums[g].b[q] += sign * lanes[i].count * p.b[q];
    }
  };
  for (std::size_t i = 0; i < lanes.size(); ++i)
    for (std::size_t g = 0; g < G; ++g) {
      pieces[i * G + g] = piece_at(a.groups[g].spec, lanes[i], 0, s);
      take(i, g, 1);
    }
  StepShape shape;
  shape.groups.resize(G);
  for (const auto& l : lanes) shape.tokens += l.count;
  shape.logit_rows = shape.tokens;
  // Requests with no cache decode their first token at step 0 as a new prompt.
  const double from_empty = !lanes.empty() && lanes.front().p0 == 0 ? lanes.front().count : 0;
  const auto shape_at = [&](double j) {
    shape.decode_only = !(j == 0 && from_empty > 0);
    shape.new_prompts = j == 0 ? from_empty : 0;
    for (std::size_t g = 0; g < G; ++g)
      for (int q = 0; q < kGroupAttentionPartCount; ++q)
        shape.groups[g].*kGroupAttentionParts[q] = sums[g].a[q] + sums[g].b[q] * j;
    // The first step of requests with an empty cache mixes their first tokens with the others' decode tokens: the
    // decode part is every lane but the first (ops.hpp, StepShape::decode_groups).
    shape.decode_tokens = shape.decode_only ? 0 : shape.tokens - from_empty;
    shape.decode_groups.assign(shape.decode_tokens > 0 ? G : 0, GroupAttention{});
    for (std::size_t g = 0; g < shape.decode_groups.size(); ++g)
      for (int q = 0; q < kGroupAttentionPartCount; ++q)
        shape.decode_groups[g].*kGroupAttentionParts[q] =
            sums[g].a[q] - lanes.front().count * pieces[g].a[q];  // at j = 0: the b terms vanish
    return step_ops(model, a.groups, shape, s);
  };
  std::size_t next_event = 0;
  double total = 0;
  double last = 0;
  std::vector<std::pair<double, std::pair<double, double>>> segments;  // start, (time at start, slope)
  a.decode_blocks.clear();
  for (std::size_t i = 0; i + 1 < cv.size(); ++i) {
    const double ja = cv[i], jb = cv[i + 1], n = jb - ja;
    for (; next_event < events.size() && events[next_event].first == ja; ++next_event) {
      const std::uint32_t l = events[next_event].second;
      for (std::size_t g = 0; g < G; ++g) {
        take(l, g, -1);
        pieces[l * G + g] = piece_at(a.groups[g].spec, lanes[l], ja, s);
        take(l, g, 1);
      }
    }
    const auto ops0 = shape_at(ja);
    std::vector<Op> ops1;
    if (n > 1) ops1 = shape_at(ja + 1);
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
