#include "analysis/work.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "util/limits.hpp"
#include "io/json_reader.hpp"
#include "ops/layers.hpp"
#include "ops/ops.hpp"

namespace infercast {

namespace {

// Boundaries j = first + n * k (n >= 0) with 0 < j < span.
double crossings(double p0, double k, double span) {
  if (k <= 0) return 0;
  const double first = k - std::fmod(p0, k);
  return first < span ? std::floor((span - 1 - first) / k) + 1 : 0;
}

std::string count(double v) { return number_text(json(v)); }

}  // namespace

WorkEstimate estimate_work(const ModelSpec& m, const Workload& w, double analyses) {
  WorkEstimate e;
  e.entries = std::max<double>(1, static_cast<double>(w.requests.size()));
  if (w.prefill_chunk > 0) {
    double longest = 0, sum = 0;
    for (const auto& r : w.requests) {
      const double n = std::ceil(static_cast<double>(r.input) / static_cast<double>(w.prefill_chunk));
      longest = std::max(longest, n);
      sum += n;
    }
    e.prefill_steps = std::max(1.0, longest);
    e.prefill_request_steps = std::max(1.0, sum);
  } else {
    e.prefill_request_steps = e.entries;
  }
  // The decode's cuts as decode.cpp makes them, counted rather than collected (an upper bound: equal cuts merge).
  const double span = std::max(static_cast<double>(w.gen_tokens - 1), 1.0);
  std::set<std::pair<i64, i64>> attention;  // distinct (window, chunk) of the layers
  for (const auto& l : m.layers)
    if (l.attn.window > 0 || l.attn.chunk > 0) attention.insert({l.attn.window, l.attn.chunk});
  const double tile = static_cast<double>(w.settings.attention_tile);
  double cuts = 0;
  for (const auto& r : w.requests) {
    const double p0 = static_cast<double>(r.cached + r.input);
    for (const auto& [window, chunk] : attention) {
      if (window > 0 && static_cast<double>(window) - 1 - p0 > 0 && static_cast<double>(window) - 1 - p0 < span) cuts += 1;
      cuts += crossings(p0, static_cast<double>(chunk), span);
    }
    if (tile > 0) cuts += crossings(p0, tile, span);
  }
  // Boundaries are whole steps in (0, span): requests that share one share its interval.
  e.decode_events = cuts;
  e.decode_intervals = 1 + std::min(cuts, std::max(span - 1, 0.0));
  // Layer groups and a step's operators are counted only where they could matter (each costs about as much as a
  // short analysis): below these counts no model within the config limits reaches the limits they weigh.
  if (e.decode_events * analyses >= 256 || e.steps() * analyses >= 256) {
    const std::vector<LayerGroup> groups = group_layers(m);
    e.groups = std::max<double>(1, static_cast<double>(groups.size()));
    if (!w.requests.empty() && e.steps() * analyses >= 256)
      e.ops = std::max<double>(1, static_cast<double>(step_ops(m, groups, w.requests, w.settings).size()));
  }
  return e;
}

void check_tile(i64 tile, double span) {
  if (tile > 0 && span / static_cast<double>(tile) > 20000)
    throw InputError("workload.out_of_range", "/attention_tile",
                     "/attention_tile holds " + std::to_string(tile) + ", which splits " +
                         std::to_string(static_cast<long long>(span)) +
                         " decode steps into more than 20000 intervals; expected a larger tile or fewer generated tokens");
}

void check_workload(const ModelSpec& m, const Workload& w) {
  check_tile(w.settings.attention_tile, std::max(static_cast<double>(w.gen_tokens - 1), 1.0));
  check_work(estimate_work(m, w), 1, "");
}

void check_work(const WorkEstimate& e, double analyses, const std::string& what) {
  const auto plural = [](double n, const char* one, const char* many) { return count(n) + " " + (n == 1 ? one : many); };
  const std::string parts =
      (e.prefill_steps > 1 ? plural(e.prefill_steps, "prefill chunk", "prefill chunks") + " and " : std::string()) +
      plural(e.decode_intervals, "decode interval", "decode intervals") +
      " (an interval ends where a request's keys cross a sliding window, an attention chunk or the attention tile)";
  const std::string path = e.prefill_steps > e.decode_intervals ? "/workload/prefill_chunk" : "/workload/gen";
  const std::string advice = "; expected fewer generated tokens, fewer distinct requests, or a larger prefill chunk or tile";
  if (e.steps() > limit::kAnalysisSteps)
    throw InputError("workload.too_much_work", path,
                     "/workload: one analysis would make the operators of " + count(e.steps()) + " steps, " + parts +
                         ", past the limit of " + count(limit::kAnalysisSteps) + advice);
  if (e.steps() * e.ops > limit::kAnalysisOperatorSteps)
    throw InputError("workload.too_much_work", path,
                     "/workload: one analysis would make " + count(e.steps()) + " steps of " + count(e.ops) +
                         " operators each, " + parts + ": " + count(e.operator_steps()) +
                         " operator-steps, past the limit of " + count(limit::kAnalysisOperatorSteps) + advice);
  if (e.request_steps() > limit::kRequestSteps)
    throw InputError("workload.too_much_work", "/workload/requests",
                     "/workload: one analysis would take " + count(e.entries) + " request entries through " +
                         count(e.prefill_request_steps) + " prefill chunks and " + count(e.decode_events) +
                         " decode boundaries of their own (where a request's keys cross a sliding window, an "
                         "attention chunk or the attention tile), each updating " + count(e.groups) +
                         (e.groups == 1 ? " layer group" : " layer groups") + ": " + count(e.request_steps()) +
                         " request-steps in all, past the limit of " + count(limit::kRequestSteps) + advice);
  if (analyses > 1 && analyses * e.request_steps() > 2 * limit::kRequestSteps)
    throw InputError("workload.too_much_work", "/workload/requests",
                     "/workload: " + what + " runs " + count(analyses) + " analyses of " + count(e.request_steps()) +
                         " request-steps each (" + count(e.entries) + " request entries), past the limit of " +
                         count(2 * limit::kRequestSteps) + " in all" + advice);
  if (analyses > 1 && analyses * e.operator_steps() > limit::kCallOperatorSteps)
    throw InputError("workload.too_much_work", "/workload",
                     "/workload: " + what + " runs " + count(analyses) + " analyses of " + count(e.steps()) +
                         " steps each, " + parts + ", with " + count(e.ops) + " operators a step: " +
                         count(analyses * e.operator_steps()) + " operator-steps in all, past the limit of " +
                         count(limit::kCallOperatorSteps) + advice);
}

}  // namespace infercast
