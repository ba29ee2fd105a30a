#include "serving/deploy.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <tuple>

#include "util/limits.hpp"

namespace infercast {

const NameTable<DisaggMode>& disagg_mode_names() {
  static const NameTable<DisaggMode> t(
      {{DisaggMode::Auto, "auto", "aggregated and disaggregated deployments both searched"},
       {DisaggMode::On, "on", "only prefill and decode pools (xPyD)"},
       {DisaggMode::Off, "off", "only aggregated replicas"}});
  return t;
}

namespace {

const double kBatches[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096};
const long long kBudgets[] = {2048, 4096, 8192, 16384};
constexpr double kMaxPrefillUtilization = 0.9;  // a prefill pool run hotter queues without bound

struct PlanLayout {
  ParallelPlan plan;  // dp 1
  std::vector<ServingSetup> setups;  // one per budget that fits
  std::unique_ptr<StepModel> steps;
  double bmax = 0;  // requests the KV pool holds at the largest budget's setup
};

bool meets(const DeploySpec& s, const DeployConfig& c) {
  return (s.max_ttft_s <= 0 || c.ttft_s <= s.max_ttft_s) && (s.max_tpot_s <= 0 || c.tpot_s <= s.max_tpot_s);
}

// Pool sizes searched for a disaggregated deployment: every count up to `n` (ratio 1); every count to 8 and then each
// about `ratio` times the last (ratio below 2); or the powers of `ratio` (2 and up). Ascending.
std::vector<int> pool_sizes(int n, double ratio) {
  std::vector<int> v;
  const long long dense = ratio <= 1 ? n : (ratio < 2 ? 8 : 1);
  for (long long k = 1; k <= n;) {
    v.push_back(static_cast<int>(k));
    k = k < dense ? k + 1 : std::max(k + 1, static_cast<long long>(std::ceil(static_cast<double>(k) * ratio)));
  }
  return v;
}

// (x, y) pairs of `sizes` with x * tpp + y * tpd <= devices.
double pool_pairs(const std::vector<int>& sizes, int tpp, int tpd, int devices) {
  double n = 0;
  for (int x : sizes) {
    const long long left = static_cast<long long>(devices) - static_cast<long long>(x) * tpp;
    if (left < tpd) break;
    n += static_cast<double>(std::upper_bound(sizes.begin(), sizes.end(), left / tpd) - sizes.begin());
  }
  return n;
}

// Batches of kBatches a pool of `bmax` requests holds.
double batches_within(double bmax) {
  return static_cast<double>(std::upper_bound(std::begin(kBatches), std::end(kBatches), bmax) - std::begin(kBatches));
}

}  // namespace

DeployResult deploy_search(const ModelSpec& m, const Workload& w, const System& sys, int devices, const DeploySpec& spec) {
  DeployResult out;
  const double isl = spec.load.isl.mean, osl = std::max(1.0, spec.load.osl.mean);
  // The hit rate as the runtime serves it (every deployment runs the same scheduler; its warning follows the first
  // setup's below).
  std::vector<Warning> served_warnings;
  const ServingLoad served = served_load(w.runtime, spec.load, served_warnings);
  const double P = std::max(1.0, isl * (1 - served.prefix_hit_rate));
  const bool moe = std::any_of(m.layers.begin(), m.layers.end(), [](const LayerSpec& L) { return L.ffn.moe; });
  // Every layout that could split the model over the devices (experts split in width, or divided among the devices).
  std::vector<ParallelPlan> candidates;
  for (int tp = 1; tp <= std::min(devices, spec.max_tp); tp *= 2)
    for (int pp = 1; tp * pp <= devices && pp <= static_cast<int>(m.layers.size()); pp *= 2)
      for (int ep : moe && tp > 1 ? std::vector<int>{1, tp} : std::vector<int>{1}) {
        ParallelPlan plan;
        plan.tp = tp;
        plan.pp = pp;
        plan.ep = ep;
        candidates.push_back(plan);
      }
  // Setting one up analyzes every layer once per budget, and timing its configurations walks every stage, so the
  // layouts times the layers bound the search's time and memory; counted before any is set up (docs/schema.md,
  // "Limits").
  const double layer_layouts = static_cast<double>(candidates.size()) * static_cast<double>(m.layers.size());
  if (layer_layouts > limit::kDeployLayerLayouts)
    throw InputError("deploy.too_much_work", "/deploy/devices",
                     "/deploy: " + std::to_string(devices) + " devices give " + std::to_string(candidates.size()) +
                         " tensor/pipeline layouts of " + m.name + "'s " + std::to_string(m.layers.size()) + " layers (" +
                         std::to_string(static_cast<long long>(layer_layouts)) + " layer-layouts to set up), past the limit of " +
                         std::to_string(static_cast<long long>(limit::kDeployLayerLayouts)) +
                         "; expected fewer /deploy/devices, a smaller /deploy/max_tp, or a model with fewer layers");
  std::vector<PlanLayout> layouts;
  for (const ParallelPlan& plan : candidates) {
    PlanLayout L;
    L.plan = plan;
    try {
      plan_stages(m, L.plan, sys);
    } catch (const InputError&) {
      continue;
    }
    for (long long b : kBudgets) {
      try {
        L.setups.push_back(serving_setup(m, w, sys, L.plan, 0, b));
      } catch (const InputError&) {
      }
    }
    if (L.setups.empty()) continue;
    for (const auto& s : L.setups) L.bmax = std::max(L.bmax, pool_requests(s, isl, osl));
    if (L.bmax < 1) continue;
    const double top = std::min(L.bmax, kBatches[std::size(kBatches) - 1]);
    L.steps = std::make_unique<StepModel>(m, w, sys, L.plan, std::max(16384.0, P + 1), std::max(1.0, top));
    layouts.push_back(std::move(L));
  }
  out.layouts = static_cast<int>(layouts.size());
  if (layouts.empty())
    throw InputError("deploy.does_not_fit", "/deploy/devices",
                     m.name + " fits no tensor/pipeline split of " + std::to_string(devices) + " " + sys.device.name +
                         " devices; expected more devices, smaller weights (a lower-bit format) or a larger device");
  for (const auto& wr : layouts.front().setups.front().warnings) out.warnings.push_back(wr);
  out.warnings.insert(out.warnings.end(), served_warnings.begin(), served_warnings.end());
  // The work, counted before any configuration is timed (docs/schema.md, "Limits"): the aggregated configurations,
  // then the disaggregated ones over every prefill and decode pool size; past kDeployEvaluations the pool sizes are
  // searched on a coarser geometric grid, and past it even on the coarsest the request is refused.
  // A configuration's timing walks its step model's operators: one of more than 24 (Gemma 3n's 191) counts as that
  // many over 24 configurations, so the limit bounds the time.
  const auto weight = [](const PlanLayout& L) { return std::max(1.0, L.steps->operators() / 24); };
  double aggregated = 0;
  if (spec.disaggregated != DisaggMode::On)
    for (const auto& L : layouts) aggregated += static_cast<double>(L.setups.size()) * batches_within(L.bmax) * weight(L);
  const auto disaggregated = [&](const std::vector<int>& sizes) {
    double n = 0;
    if (spec.disaggregated == DisaggMode::Off || osl <= 1) return n;
    for (const auto& Lp : layouts) {
      if (Lp.plan.pp != 1) continue;
      for (const auto& Ld : layouts)
        if (Ld.plan.pp == 1)
          n += static_cast<double>(Lp.setups.size()) * batches_within(pool_requests(Ld.setups.back(), isl, osl)) *
               pool_pairs(sizes, Lp.plan.tp, Ld.plan.tp, devices) * std::max(weight(Lp), weight(Ld));
    }
    return n;
  };
  std::vector<int> sizes;
  double work = 0;
  for (double ratio : {1.0, 1.05, 1.1, 1.25, 1.5, 2.0, 4.0, 8.0}) {
    sizes = pool_sizes(devices, ratio);
    work = aggregated + disaggregated(sizes);
    out.pool_size_ratio = ratio;
    if (work <= limit::kDeployEvaluations) break;
  }
  if (work > limit::kDeployEvaluations)
    throw InputError("deploy.too_much_work", "/deploy/devices",
                     "/deploy: " + std::to_string(devices) + " devices over " + std::to_string(layouts.size()) +
                         " parallel layouts give " + std::to_string(static_cast<long long>(work)) +
                         " configurations to time even with pool sizes on a coarse grid, past the limit of " +
                         std::to_string(static_cast<long long>(limit::kDeployEvaluations)) +
                         "; expected a smaller /deploy/max_tp, fewer devices, or /deploy/disaggregated \"off\"");
  if (out.pool_size_ratio > 1)
    out.warnings.push_back({"deploy.coarse_pools", "/deploy/devices",
                            "the prefill and decode pool sizes were searched on a geometric grid (each about " +
                                std::to_string(out.pool_size_ratio).substr(0, 4) + " times the last), to time at most " +
                                std::to_string(static_cast<long long>(limit::kDeployEvaluations)) +
                                " configurations (every count would take " +
                                std::to_string(static_cast<long long>(aggregated + disaggregated(pool_sizes(devices, 1)))) + ")"});
  std::vector<DeployConfig> all;
  all.reserve(static_cast<std::size_t>(work));
  const auto keep = [&](DeployConfig c) {
    c.meets_sla = meets(spec, c);
    ++out.evaluated;
    if (!c.meets_sla) return;
    ++out.feasible;
    all.push_back(c);
  };

  // Aggregated replicas: every layout, budget and sequence cap.
  if (spec.disaggregated != DisaggMode::On) {
    for (const auto& L : layouts) {
      const int per = L.plan.tp * L.plan.pp;
      const int dp = devices / per;
      if (dp < 1) continue;
      for (const auto& base : L.setups) {
        if (base.limits.policy == StepPolicy::MixedWhole && static_cast<double>(base.limits.token_budget) < P) continue;
        ServingSetup s = base;
        s.plan.dp = dp;
        s.devices = per * dp;
        const double bmax = pool_requests(s, isl, osl);
        for (double B : kBatches) {
          if (B > bmax) break;
          s.limits.max_num_seqs = static_cast<long long>(B);
          ServingLoad load = served;
          load.concurrency = B * dp;
          const ServingResult r = steady_state(s, *L.steps, load, L.steps->execution());
          DeployConfig c;
          c.plan = s.plan;
          c.batch = static_cast<long long>(B);
          c.token_budget = s.limits.token_budget;
          c.devices = s.devices;
          c.ttft_s = r.ttft_s.mean;
          c.tpot_s = r.tpot_s.mean;
          c.e2e_s = r.e2e_s.mean;
          c.tokens_per_s_per_user = r.output_tokens_per_s_per_user;
          c.output_tokens_per_s = r.output_tokens_per_s;
          c.tokens_per_s_per_device = r.output_tokens_per_s_per_device;
          c.requests_per_s = r.requests_per_s;
          keep(c);
        }
      }
    }
  }

  // Disaggregated pools: x prefill instances and y decode instances, each of one pipeline stage.
  if (spec.disaggregated != DisaggMode::Off && osl > 1) {
    for (const auto& Lp : layouts) {
      if (Lp.plan.pp != 1) continue;
      const Execution& xp = Lp.steps->execution();
      for (const auto& sp : Lp.setups) {
        // One prefill instance: prompts batched up to the budget, a prompt longer than it in chunks.
        const double budget = static_cast<double>(sp.limits.token_budget);
        const double nc = std::ceil(P / budget), k = std::max(1.0, std::floor(budget / P));
        StepLoad batch, one;
        Lp.steps->add(batch, isl - P + P / 2 * (nc - 1) / nc, P / nc, k);
        Lp.steps->add(one, isl - P + P / 2 * (nc - 1) / nc, P / nc, 1);
        const double t_batch = nc * Lp.steps->seconds(batch, xp), t_one = nc * Lp.steps->seconds(one, xp);
        const double per_prompt = t_batch / k, xp_rate = 1 / per_prompt;  // prompts per second per instance
        for (const auto& Ld : layouts) {
          if (Ld.plan.pp != 1) continue;
          const Execution& xd = Ld.steps->execution();
          const ServingSetup& sd = Ld.setups.back();
          const double bmax_d = pool_requests(sd, isl, osl);
          const double kv_bytes = request_kv_bytes(sd, isl);  // what each decode device receives
          const int tpp = Lp.plan.tp, tpd = Ld.plan.tp;
          for (int xn : sizes) {
            if (xn * tpp + tpd > devices) break;
            for (int yn : sizes) {
              if (xn * tpp + yn * tpd > devices) break;
              const int used = xn * tpp + yn * tpd;
              const Link& link = used <= sys.devices_per_node ? sys.intra : sys.inter;
              const double t_kv = link.latency_s + (link.achievable() > 0 ? kv_bytes / link.achievable() : 0);
              for (double B : kBatches) {
                if (B > bmax_d) break;
                const auto tpot_at = [&](double b) {
                  StepLoad d;
                  Ld.steps->add(d, isl + osl / 2, 1, std::max(b, 1e-3));
                  return Ld.steps->seconds(d, xd);
                };
                double b = B, tpot = tpot_at(b);
                const double decode_rate = yn * B / ((osl - 1) * tpot);
                double lam = std::min(decode_rate, kMaxPrefillUtilization * xn * xp_rate);
                if (lam < decode_rate)  // prefill-bound: the decode pool runs a smaller batch
                  for (int it = 0; it < 6; ++it) {
                    b = std::min(B, lam * (osl - 1) * tpot / yn);
                    tpot = tpot_at(b);
                  }
                const double rho = lam / (xn * xp_rate);
                DeployConfig c;
                c.disaggregated = true;
                c.prefill = Lp.plan;
                c.prefill.dp = xn;
                c.plan = Ld.plan;
                c.plan.dp = yn;
                c.batch = static_cast<long long>(B);
                c.token_budget = sp.limits.token_budget;
                c.devices = used;
                c.kv_transfer_s = t_kv;
                c.prefill_utilization = rho;
                c.balanced_ratio = (B / ((osl - 1) * tpot)) / xp_rate;
                c.tpot_s = tpot;
                c.ttft_s = t_one + rho / (2 * (1 - rho)) * per_prompt + t_kv;
                c.e2e_s = c.ttft_s + (osl - 1) * tpot;
                c.tokens_per_s_per_user = 1 / tpot;
                c.requests_per_s = lam;
                c.output_tokens_per_s = lam * osl;
                c.tokens_per_s_per_device = c.output_tokens_per_s / used;
                keep(c);
              }
            }
          }
        }
      }
    }
  }

  // The front: highest tokens/s per device for each tokens/s per user.
  // A total order (ties broken by TTFT, devices, then the configuration itself), so that every platform's sort
  // gives the same front and the same best.
  std::sort(all.begin(), all.end(), [](const DeployConfig& a, const DeployConfig& b) {
    const auto key = [](const DeployConfig& c) {
      return std::make_tuple(-c.tokens_per_s_per_user, -c.tokens_per_s_per_device, c.ttft_s, c.devices, c.disaggregated,
                             c.token_budget, c.batch, c.plan.tp, c.plan.pp, c.plan.ep, c.plan.dp, c.prefill.tp, c.prefill.ep,
                             c.prefill.dp);
    };
    return key(a) < key(b);
  });
  double best_g = -1;
  for (const auto& c : all) {
    if (c.tokens_per_s_per_device > best_g) {
      out.front.push_back(c);
      best_g = c.tokens_per_s_per_device;
    }
  }
  std::reverse(out.front.begin(), out.front.end());
  for (const auto& c : out.front)
    if (!out.has_best || c.tokens_per_s_per_device > out.best.tokens_per_s_per_device) {
      out.best = c;
      out.has_best = true;
    }
  if (!out.has_best)
    out.warnings.push_back({"deploy.no_configuration", "/deploy",
                            "none of the " + std::to_string(out.evaluated) +
                                " configurations meets the SLA; relax max_ttft_ms or max_tpot_ms, or add devices"});
  return out;
}

}  // namespace infercast
