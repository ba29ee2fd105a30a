// Where the weights, the KV cache and the activations live on a device with memory tiers, what fits, and the
// largest batch and context that fit (docs/forecast.md, "Placement").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "analysis/remedies.hpp"
#include "analysis/steps.hpp"
#include "runtime/memory_budget.hpp"
#include "util/search.hpp"

namespace infercast {

double kv_bytes_per_request(const std::vector<LayerGroup>& groups, double kb, double ctx, bool window_held_in_full) {
  double bytes = 0;
  for (const auto& g : groups)
    bytes += static_cast<double>(g.count) * kv_bytes_resident(g.spec.attn, kb, ctx, window_held_in_full);
  return bytes;
}

bool ggml_windowed(const AttentionSpec& a) { return a.window > 0 && a.kind != AttnKind::Compressed; }

double windowed_kv_bytes_per_request(const std::vector<LayerGroup>& groups, double kb, double ctx) {
  double bytes = 0;
  for (const auto& g : groups)
    if (g.spec.has_attention && ggml_windowed(g.spec.attn)) bytes += static_cast<double>(g.count) * kv_bytes_resident(g.spec.attn, kb, ctx, false);
  return bytes;
}

double ggml_window_kv_bytes(const std::vector<LayerGroup>& groups, double kb, const ComputeBufferShape& s, double cells, double sequences) {
  double bytes = 0;
  for (const auto& g : groups)
    if (g.spec.has_attention && ggml_windowed(g.spec.attn))
      bytes += static_cast<double>(g.count) * kv_bytes_per_token_layer(g.spec.attn, kb) *
               ggml_window_cells(static_cast<double>(g.spec.attn.window), sequences, s.ubatch, cells, s.flash);
  return bytes;
}

double image_kv_bytes_per_request(const std::vector<LayerGroup>& groups, const StepSettings& s) {
  const double kb = s.precision.kv.bits_per_element / 8, X = static_cast<double>(s.cross_tokens);
  double bytes = 0;
  for (const auto& g : groups)
    if (g.spec.has_attention) bytes += static_cast<double>(g.count) * X * image_kv_bytes_per_token(g.spec.attn, kb);
  return bytes;
}

double state_bytes_per_request(const std::vector<LayerGroup>& groups, const StepSettings& s) {
  const double ab = s.activation_bytes();
  double bytes = image_kv_bytes_per_request(groups, s);
  for (const auto& g : groups) bytes += static_cast<double>(g.count) * recurrent_state_bytes(g.spec.recurrent, ab);
  return bytes;
}

namespace {

void check_pins(const HardwareSpec& hw, const Workload& w) {
  const int ntiers = static_cast<int>(hw.tiers.size());
  for (const auto& [pin, what] : {std::pair<int, const char*>{w.pin_weights, "/placement/weights"},
                                  std::pair<int, const char*>{w.pin_kv, "/placement/kv_cache"}}) {
    if (pin >= ntiers)
      throw InputError("workload.out_of_range", what,
                       std::string(what) + " holds " + std::to_string(pin) + "; expected a tier from 0 to " +
                           std::to_string(ntiers - 1) + " (" + hw.name + " has " + std::to_string(ntiers) +
                           (ntiers == 1 ? " memory tier)" : " memory tiers)"));
  }
}

// The largest batch of requests shaped like the mean one, and the longest context at this batch. `budget_at(peak)`:
// the first tier's bytes a pooled engine leaves the model when a step's activations peak at `peak` (-1: no pool).
template <class Budget>
void limits(Analysis& a, double kb, Budget budget_at, double device_usable) {
  const double B = std::max(a.batch_requests, 1.0);
  const double cap = a.memory_capacity_bytes;
  // The recurrent state does not grow with the context: it is in every context's bytes.
  const auto kv_at = [&](double ctx) { return kv_bytes_per_request(a.groups, kb, ctx, a.window_kv_full) * B + a.state_bytes; };
  if (a.compute_buffer_bytes > 0) {
    // llama.cpp's buffer is reserved for the whole cache: its score matrix (without flash attention) grows with the
    // batch's cells and with the context, its logits do not.
    // Its windowed layers' caches are shared by the sequences (llama.cpp's iSWA cache): window x sequences + ubatch
    // cells, padded, sized again for every batch and context tried, as the buffer's masks are.
    const ComputeBufferShape& s = a.compute_buffer_shape;
    const double cells = a.compute_buffer_cells / B, sequences = a.compute_buffer_sequences / B;
    const auto shared = [&](double c, double seqs) { return a.window_kv_full ? 0.0 : ggml_window_kv_bytes(a.groups, kb, s, c, seqs); };
    const double kv = (a.kv_cache_bytes - shared(a.compute_buffer_cells, a.compute_buffer_sequences)) / B;
    a.max_batch = largest_where(
        [&](double b) { return a.weights_bytes + kv * b + shared(cells * b, sequences * b) + compute_buffer_bytes(s, cells * b, sequences * b) <= cap; }, 1e6);
    const auto kv_shared_at = [&](double ctx) {
      if (a.window_kv_full) return kv_at(ctx);
      return kv_at(ctx) - windowed_kv_bytes_per_request(a.groups, kb, ctx) * B + shared(ctx * B, a.compute_buffer_sequences);
    };
    a.max_context = largest_where(
        [&](double ctx) { return a.weights_bytes + kv_shared_at(ctx) + compute_buffer_bytes(s, ctx * B, a.compute_buffer_sequences) <= cap; }, 1e9);
    return;
  }
  const double room = cap - a.weights_bytes;
  const double per_request = (a.kv_cache_bytes + a.activation_peak_bytes) / B;
  a.max_batch = room <= 0 ? 0 : (per_request <= 0 ? 1e6 : std::min(1e6, std::floor(room / per_request)));
  if (a.runtime_budget) {
    // A pooled engine's budget keeps its profile's activations or the batch's own, whichever is larger, so the room
    // depends on the batch tried: each batch is fitted against its own budget, and the answer does not depend on the
    // batch asked about (the asked batch fits exactly when max_batch reaches it).
    // Activations grow with the batch up to a budget step's (Analysis::activation_step_cap_bytes), then stay.
    const double kv = a.kv_cache_bytes / B;
    const double per = (a.activation_step_cap_bytes > 0 ? a.activation_uncapped_bytes : a.activation_peak_bytes) / B;
    const auto act_at = [&](double b) { return a.activation_step_cap_bytes > 0 ? std::min(per * b, a.activation_step_cap_bytes) : per * b; };
    a.max_batch = largest_where(
        [&](double b) { return a.weights_bytes + kv * b + act_at(b) <= std::min(device_usable, budget_at(act_at(b))); }, 1e6);
  }
  const double fixed = a.weights_bytes + a.activation_peak_bytes;
  a.max_context = largest_where([&](double ctx) { return fixed + kv_at(ctx) <= cap; }, 1e9);
}

}  // namespace

bool has_fraction_pool(const RuntimeSpec* rt) { return rt && rt->scheduler.stated && rt->scheduler.kv_pool == KvPool::Fraction; }

SchedulerLimits engine_limits(const HardwareSpec& hw, const Workload& w) {
  SchedulerLimits l = resolve_scheduler(w.runtime->scheduler, hw, std::max(1, w.devices), std::max(1, w.tp), w.runtime->graph_max_tokens);
  apply_memory_fraction(l, hw, w.memory_fraction);
  return l;
}

namespace {

// The engine sizes its pool after a profile run, whose activations it keeps free whatever a step later needs; a
// larger step needs its own. What the profile holds beyond a step's activations (`peak`) is not for the cache
// (docs/forecast.md, "Usable memory").
double first_tier_within(const MemoryBudget& b, double act, double peak) { return std::max(0.0, b.usable_bytes - (act - peak)); }

double runtime_first_tier_at(const Analysis& a, const SchedulerLimits& l, const HardwareSpec& hw, double peak) {
  const double act = std::max(peak, a.profile_activation_bytes);
  return first_tier_within(memory_budget(l, hw, a.weights_bytes, act), act, peak);
}

// The first tier's bytes the runtime lets the model use, where its engine sizes a KV pool from a memory fraction
// (-1: no such budget; the driver's reserve alone applies).
double runtime_first_tier(Analysis& a, const HardwareSpec& hw, const SchedulerLimits* engine) {
  if (hw.tiers.empty() || !engine) return -1;
  const double act = std::max(a.activation_peak_bytes, a.profile_activation_bytes);
  const MemoryBudget b = memory_budget(*engine, hw, a.weights_bytes, act);
  a.runtime_budget = true;
  a.runtime_usable_bytes = b.usable_bytes;
  a.runtime_reserve_bytes = b.reserve_bytes;
  return first_tier_within(b, act, a.activation_peak_bytes);
}

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / 1073741824.0);
  return buf;
}

std::string runtime_budget_text(const Analysis& a, const RuntimeSpec& rt, const HardwareSpec& hw) {
  // Where the weights and activations alone pass the budget, fewer requests cannot help (analysis/remedies.hpp).
  const bool weights_alone = weights_pass_budget(a);
  return rt.name + " holds the weights, activations and KV cache within " + gib(a.runtime_usable_bytes) + " of " + hw.name +
         "'s " + gib(hw.tiers[0].capacity_bytes) + " (its memory fraction" +
         (a.runtime_reserve_bytes > 0 ? ", less a " + gib(a.runtime_reserve_bytes) + " reserve" : std::string()) +
         "); this workload needs " + gib(a.memory_required_bytes + (a.runtime_usable_bytes - a.memory_capacity_bytes)) +
         (a.profile_activation_bytes > a.activation_peak_bytes ? " with the activations its memory profile keeps" : "") + ", which the device has: raise the fraction (/memory_fraction" +
         (rt.scheduler.memory_fraction_flag.empty() ? std::string() : ", " + rt.name + "'s " + rt.scheduler.memory_fraction_flag) +
         ") or " + (weights_alone ? "store the weights in fewer bits or split them over more devices" : "run fewer or shorter requests");
}

}  // namespace

// What is pinned goes to its tier first (then slower ones), the rest fastest tier first; weights, then the KV
// cache, then activations. What is left after the slowest tier is counted there and the result does not fit.
TierCost place_and_limit(Analysis& a, const HardwareSpec& hw, const Workload& w, double kb, const SchedulerLimits* engine) {
  check_pins(hw, w);
  // The driver and OS keep part of the first tier (HardwareSpec::reserve_bytes): the rest is what can be placed, or
  // the runtime's budget of it where the engine holds one.
  const double budget = runtime_first_tier(a, hw, engine);
  const double device_usable = hw.tiers.empty() ? 0 : std::max(0.0, hw.tiers[0].capacity_bytes - hw.reserve_bytes);
  const double first_usable = budget >= 0 ? std::min(device_usable, budget) : device_usable;
  std::vector<double> free_bytes;
  for (std::size_t i = 0; i < hw.tiers.size(); ++i) {
    const double usable = i == 0 ? first_usable : hw.tiers[i].capacity_bytes;
    free_bytes.push_back(usable);
    a.memory_capacity_bytes += usable;
  }
  TierCost inv;
  bool spilled = false;
  std::vector<Placement> placed(3);
  const auto place = [&](std::size_t slot, const std::string& what, double bytes, int first, double& inv_out) {
    Placement p{what, std::vector<double>(hw.tiers.size(), 0.0)};
    double left = bytes;
    for (std::size_t i = static_cast<std::size_t>(std::max(first, 0)); i < hw.tiers.size() && left > 0; ++i) {
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
    for (std::size_t i = 0; i < hw.tiers.size(); ++i) {
      const double frac = bytes > 0 ? p.bytes_per_tier[i] / bytes : (i == static_cast<std::size_t>(std::max(first, 0)) ? 1.0 : 0.0);
      inv_out += frac / hw.tiers[i].bandwidth_bytes_per_s;
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
  // An engine with a pool holds the cache and activations in device memory only: past its budget nothing runs.
  if (a.runtime_budget) {
    a.memory_capacity_bytes = first_usable;
    a.fits = a.fits && a.memory_required_bytes <= a.memory_capacity_bytes;
  }
  if (budget < 0 && w.memory_fraction > 0)
    a.warnings.push_back({"memory.fraction_ignored", "/memory_fraction",
                          std::string(w.runtime ? w.runtime->name : "the reference stack") +
                              " holds no KV pool sized from a memory fraction (it allocates the cache for the context asked for): "
                              "/memory_fraction does not apply to this analysis"});
  if (a.runtime_budget && a.memory_required_bytes > a.memory_capacity_bytes && a.memory_required_bytes <= device_usable)
    a.warnings.push_back({"memory.runtime_budget", "/memory_fraction", runtime_budget_text(a, *w.runtime, hw)});
  else if (!a.fits && !hw.tiers.empty())
    // The times are still computed (what a larger device of these bandwidths would do), so say in the result itself,
    // not only in memory.fits, that this device does not run it (FIELD.md: aiconfigurator printed times for a model
    // that could not load, until its PR #509).
    a.warnings.push_back({"memory.does_not_fit", "/hardware/memory_tiers",
                          hw.name + " cannot hold this: it needs " + gib(a.memory_required_bytes) + " where " + gib(a.memory_capacity_bytes) +
                              " is usable; the times are those of a device with room enough, what does not fit read at " +
                              hw.tiers.back().name + "'s bandwidth, not of one that runs it (memory.remedies lists what would fit)"});
  a.fits_first_tier = !hw.tiers.empty() && a.memory_required_bytes <= first_usable;
  limits(a, kb, [&](double peak) { return budget >= 0 ? runtime_first_tier_at(a, *engine, hw, peak) : -1.0; }, device_usable);
  return inv;
}

}  // namespace infercast
