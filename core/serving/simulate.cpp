// The request-level simulation of one replica (docs/serving.md, "Simulation"): arrivals, the scheduler's steps under
// its policy, the KV pool with eviction, and every request's first token, inter-token gaps and finish. Steps are
// timed by the step model; nothing here loops over operators, so a run of a million request-steps takes tens of
// milliseconds.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>

#include "serving/serving.hpp"
#include "util/error.hpp"
#include "util/limits.hpp"

namespace infercast {

namespace {

// splitmix64: a small deterministic generator (the same numbers on every platform).
struct Rng {
  std::uint64_t s;
  double uniform() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (static_cast<double>(z >> 11) + 0.5) / 9007199254740992.0;
  }
};

int sample_length(const LengthDist& d, Rng& r) {
  double v = d.mean;
  switch (d.kind) {
    case LengthKind::Fixed: break;
    case LengthKind::Uniform: v = d.mean * (1 - d.spread) + r.uniform() * 2 * d.spread * d.mean; break;
    case LengthKind::LogNormal: {
      const double sigma = d.spread;
      const double z = std::sqrt(-2 * std::log(r.uniform())) * std::cos(6.283185307179586 * r.uniform());
      v = std::exp(std::log(d.mean) - sigma * sigma / 2 + sigma * z);
      break;
    }
  }
  return static_cast<int>(std::clamp(std::round(v), 1.0, 1e8));
}

struct Req {
  double arrival = 0, first = -1, last = 0, finish = -1;
  int isl = 1, osl = 1, hit = 0;
  int computed = 0;   // tokens in the KV cache
  int generated = 0;  // tokens sampled by the engine
  int seen = 0;       // tokens the client has received
  bool done = false;  // the engine sampled the last token
  int target = 0;     // while prefilling: tokens the cache must hold before the next token
  bool prefilling = true, admitted = false;
  double kv = 0;      // bytes held (or reserved)
  double alloc = 0;   // tokens its blocks hold
  double in_step = -1;  // the engine step it was last scheduled in (never evicted to make room within that step)
};

// numpy-style percentile (linear between ranks), as the serving benchmarks report.
double percentile_of(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
  const double a = v[lo];
  if (lo + 1 >= v.size()) return a;
  const double b = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end());
  return a + (pos - static_cast<double>(lo)) * (b - a);
}

Percentiles summarize(std::vector<double> v) {
  Percentiles p;
  if (v.empty()) return p;
  double sum = 0;
  for (double x : v) sum += x;
  p.mean = sum / static_cast<double>(v.size());
  p.p50 = percentile_of(v, 0.5);
  p.p90 = percentile_of(v, 0.9);
  p.p99 = percentile_of(v, 0.99);
  return p;
}

// Inter-token gaps in log-spaced bins (0.5% wide): percentiles of millions of gaps without keeping them.
struct GapHistogram {
  static constexpr double kLo = 1e-7, kRatio = 1.005;
  std::vector<double> bins = std::vector<double>(5000, 0);
  double count = 0, sum = 0;
  void add(double g, double weight = 1) {
    const double i = g <= kLo ? 0 : std::log(g / kLo) / std::log(kRatio);
    bins[static_cast<std::size_t>(std::clamp(i, 0.0, 4999.0))] += weight;
    count += weight;
    sum += g * weight;
  }
  double at(double q) const {
    double seen = 0;
    for (std::size_t i = 0; i < bins.size(); ++i) {
      seen += bins[i];
      if (seen >= q * count) return kLo * std::pow(kRatio, static_cast<double>(i) + 0.5);
    }
    return 0;
  }
};

}  // namespace

ServingResult simulate_serving(const ServingSetup& s, const StepModel& steps, const ServingLoad& load, const Execution& x) {
  if (has_pipeline_streams(s)) {
    const PipelineStreams p = pipeline_streams(s, load, x);
    ServingResult r = simulate_serving(p.setup, steps, load, p.x);
    merge_streams(r, s, p);
    return r;
  }
  ServingResult out;
  out.simulated = true;
  out.limits = s.limits;
  out.memory = s.memory;
  out.warnings = s.warnings;
  const SchedulerLimits& L = s.limits;
  const int dp = std::max(1, s.plan.dp);
  const bool closed = load.concurrency > 0;
  // This replica's share of the load. A closed loop of C clients keeps at most C replicas busy, each with about
  // C / replicas of them (rounded: the simulation runs whole clients); its throughput counts C / clients such
  // replicas, so that the total obeys Little's law (C over the simulated end-to-end time). An open loop splits the
  // rate over every replica.
  const double replicas = closed ? std::min(static_cast<double>(dp), std::max(1.0, load.concurrency)) : dp;
  const double clients = closed ? std::max(1.0, std::round(load.concurrency / replicas)) : 0;
  const double copies = closed ? load.concurrency / clients : dp;
  out.replicas = replicas;
  const double rate = closed ? 0 : load.request_rate / dp;
  double n_req = load.requests > 0 ? std::ceil(load.requests / replicas)
                                   : (closed ? std::clamp(8 * clients, 200.0, 4000.0) : 1000.0);
  if (closed) n_req = std::max(n_req, clients);
  const auto N = static_cast<std::size_t>(n_req);

  Rng rng{load.seed * 0x2545F4914F6CDD1Dull + 1};
  std::vector<Req> reqs(N);
  double t_arrive = 0;
  for (std::size_t i = 0; i < N; ++i) {
    Req& r = reqs[i];
    r.isl = sample_length(load.isl, rng);
    r.osl = sample_length(load.osl, rng);
    r.hit = std::min(r.isl - 1, static_cast<int>(std::floor(load.prefix_hit_rate * r.isl)));
    if (!closed) {
      t_arrive += rate > 0 ? -std::log(rng.uniform()) / rate : 0;
      r.arrival = t_arrive;
    }
    r.target = r.isl;
    out.mean_isl += r.isl;
    out.mean_osl += r.osl;
  }
  out.mean_isl /= static_cast<double>(N);
  out.mean_osl /= static_cast<double>(N);

  const double pool = std::max(0.0, s.memory.kv_bytes);
  const bool reserving = L.policy == StepPolicy::PrefillFirst && L.preemption == Preemption::Recompute;
  double reserve_ratio = reserving ? 0.7 : 0;
  double used = 0, kv_area = 0, peak = 0;
  const double cap = L.max_num_seqs > 0 ? static_cast<double>(L.max_num_seqs) : 1e18;
  std::deque<std::size_t> waiting;
  std::vector<std::size_t> running;
  std::size_t next_arrival = closed ? static_cast<std::size_t>(clients) : 0;  // closed: the next request a client sends
  std::size_t next_open = 0;                                                  // open: the next request to arrive
  std::size_t finished = 0;
  if (closed)
    for (std::size_t i = 0; i < next_arrival; ++i) waiting.push_back(i);
  double t = 0, area = 0, busy = 0, batch_sum = 0;
  std::size_t in_system = closed ? next_arrival : 0;
  std::vector<double> ttft, tpot, e2e;
  GapHistogram itl;
  double dropped = 0;       // requests that did not fit the pool even alone
  int longest_dropped = 0;  // the longest of them, tokens

  struct Entry {
    std::size_t r;
    int input;
  };
  std::vector<Entry> step;
  double step_serial = 0;  // the step being scheduled (Req::in_step)
  const auto schedule = [&](std::size_t idx, int input) {
    step.push_back({idx, input});
    reqs[idx].in_step = step_serial;
  };
  // The output tokens the running requests have left, kept as they are admitted, sample, finish and are evicted
  // (SGLang's admission weighs it for every prompt it admits: summing it there would cost admissions x running).
  std::int64_t left_to_generate = 0;
  double preempted_before = 0;
  // Multi-step scheduling: steps left in the current window, and the tokens its steps sampled (streamed at its end).
  int window_left = 0;
  std::vector<std::size_t> held;
  const auto kv_for = [&](const Req& r, double ctx) {
    return L.preemption == Preemption::None ? request_kv_bytes(s, r.isl + r.osl) : request_kv_bytes(s, ctx);
  };
  const auto preempt = [&](std::size_t idx) {
    Req& q = reqs[idx];
    used -= q.kv;
    q.kv = 0;
    q.alloc = 0;
    q.computed = 0;
    q.prefilling = true;
    q.target = q.isl + q.generated;
    q.admitted = false;
    left_to_generate -= q.osl - q.generated;
    // The victim is most often the newest running request: searched from the back.
    running.erase(std::find(running.rbegin(), running.rend(), idx).base() - 1);
    waiting.push_front(idx);
    out.preemptions += 1;
    if (reserving) reserve_ratio = 0.7;
  };
  // Grows a request's cache to `ctx` tokens, evicting the newest running requests (never `keep` and never one already
  // in this step) when the pool is short; false when even that cannot make room.
  const double block = static_cast<double>(L.kv_block_tokens);
  const auto grow = [&](std::size_t idx, double ctx) {
    Req& q = reqs[idx];
    if (ctx <= q.alloc) return true;  // within the blocks it holds
    const double need = kv_for(q, ctx) - q.kv;
    if (need <= 0) {
      q.alloc = std::ceil(ctx / block) * block;
      return true;
    }
    while (used + need > pool) {
      if (L.preemption == Preemption::None || running.empty()) return false;
      const std::size_t victim = running.back();
      if (victim == idx) return false;
      if (reqs[victim].in_step == step_serial) return false;
      preempt(victim);
    }
    used += need;
    q.kv += need;
    q.alloc = std::ceil(ctx / block) * block;
    return true;
  };
  // Admits waiting prompts FCFS into the step within `budget` tokens; whole prompts only unless chunking.
  // Every running request past its prompt decodes one token; one the KV pool cannot grow is preempted.
  const auto decode_running = [&]() {
    for (std::size_t k = 0; k < running.size(); ++k) {
      const std::size_t idx = running[k];
      if (reqs[idx].prefilling) continue;
      if (!grow(idx, reqs[idx].computed + 1)) {
        preempt(idx);
        --k;
        continue;
      }
      schedule(idx, 1);
    }
  };
  const auto admit = [&](double& budget, bool chunk, bool one_chunked) {
    bool chunked_taken = false;
    int prompts = 0;
    while (!waiting.empty() && budget > 0 && static_cast<double>(running.size()) < cap) {
      const std::size_t idx = waiting.front();
      Req& q = reqs[idx];
      if (q.generated == 0 && q.computed == 0) q.computed = q.hit;
      const double remaining = q.target - q.computed;
      double take = remaining;
      if (remaining > budget) {
        if (chunk && !(one_chunked && chunked_taken)) take = budget;
        // Whole prompts: one longer than the budget is taken as the step's only prompt (an engine without chunking
        // is configured so that its longest prompt fits a step).
        else if (!chunk && prompts == 0) take = remaining;
        else break;
      }
      // SGLang's admission keeps room for the running requests' next tokens: new_token_ratio of what they have
      // left to generate (0.7 after an eviction, decaying to 0.1 over 600 decode steps).
      if (reserve_ratio > 0) {
        const auto left = static_cast<double>(left_to_generate);
        const double more = request_kv_bytes(s, q.computed + take) - q.kv;
        if (used + more + reserve_ratio * left * s.memory.pool_bytes_per_token > pool && !running.empty()) break;
      }
      if (!grow(idx, q.computed + take)) break;
      waiting.pop_front();
      q.admitted = true;
      running.push_back(idx);
      left_to_generate += q.osl - q.generated;
      schedule(idx, static_cast<int>(take));
      budget -= take;
      ++prompts;
      if (take < remaining) chunked_taken = true;
    }
  };

  // A token reaching the client at `when`: first token, inter-token gap, finish (and a closed-loop client's next
  // request).
  std::vector<std::size_t> emitted, pending;
  // Gaps come in runs of equal values (every request that decoded in the same two steps): binned per run.
  double run_gap = -1, run_count = 0;
  const auto itl_gap = [&](double g) {
    if (g != run_gap) {
      if (run_count > 0) itl.add(run_gap, run_count);
      run_gap = g;
      run_count = 0;
    }
    run_count += 1;
  };
  const bool delayed = L.output_delay_steps > 0;
  const auto observe = [&](std::vector<std::size_t>& idxs, double when) {
    for (std::size_t idx : idxs) {
      Req& q = reqs[idx];
      q.seen += 1;
      if (q.first < 0) q.first = when;
      else if (when > q.last) itl_gap(when - q.last);  // tokens streamed together are one chunk: one gap, as the tools count
      q.last = when;
      if (q.seen < q.osl) continue;
      q.finish = when;
      --in_system;
      ++finished;
      ttft.push_back(q.first - q.arrival);
      e2e.push_back(q.finish - q.arrival);
      if (q.osl > 1) tpot.push_back((q.finish - q.first) / (q.osl - 1));
      out.output_tokens += q.osl;
      out.input_tokens += q.isl;
      if (closed && next_arrival < N) {
        reqs[next_arrival].arrival = when;
        waiting.push_back(next_arrival++);
        ++in_system;
      }
    }
    idxs.clear();
  };

  while (finished < N) {
    if (!closed)
      while (next_open < N && reqs[next_open].arrival <= t) {
        waiting.push_back(next_open++);
        ++in_system;
      }
    // A window ends early when none of its requests is left decoding.
    if (window_left > 0 && std::none_of(running.begin(), running.end(), [&](std::size_t i) { return !reqs[i].prefilling; })) {
      window_left = 0;
      observe(held, t);
      continue;
    }
    if (running.empty() && waiting.empty() && !pending.empty()) {
      observe(pending, t);  // the engine is idle: the last step's tokens go out now
      continue;
    }
    if (running.empty() && waiting.empty()) {
      if (closed || next_open >= N) break;  // nothing left (cannot happen with requests outstanding)
      const double next = reqs[next_open].arrival;
      area += static_cast<double>(in_system) * (next - t);
      t = next;
      continue;
    }
    step.clear();
    step_serial += 1;
    preempted_before = out.preemptions;
    double budget = static_cast<double>(L.token_budget);
    bool prefill_step = false;
    if (window_left > 0) {
      // Inside a multi-step window: the scheduled decodes run again, nothing is admitted.
      decode_running();
    } else if (L.policy == StepPolicy::PrefillFirst) {
      // A prefill step when prompts wait (or one is mid-chunk) and can be admitted; else every running request decodes.
      for (std::size_t idx : running) {
        Req& q = reqs[idx];
        if (!q.prefilling || budget <= 0) continue;
        const double take = std::min<double>(q.target - q.computed, budget);
        if (!grow(idx, q.computed + take)) continue;
        schedule(idx, static_cast<int>(take));
        budget -= take;
      }
      const bool mid_chunk = !step.empty();
      if (!mid_chunk || budget > 0) admit(budget, L.chunked_prefill, true);
      prefill_step = !step.empty();
      if (!prefill_step) {
        decode_running();
      }
    } else {
      // Running requests first, in admission order (decodes and prompts mid-chunk), then waiting prompts.
      for (std::size_t k = 0; k < running.size() && budget > 0; ++k) {
        const std::size_t idx = running[k];
        Req& q = reqs[idx];
        const double take = q.prefilling ? std::min<double>(q.target - q.computed, budget) : 1;
        if (!grow(idx, q.computed + take)) {
          preempt(idx);
          --k;
          continue;
        }
        schedule(idx, static_cast<int>(take));
        budget -= take;
      }
      // As vLLM's scheduler does, no prompt is admitted in a step that had to evict.
      if (out.preemptions == preempted_before) admit(budget, L.chunked_prefill && L.policy == StepPolicy::DecodeFirst, false);
    }
    if (step.empty()) {
      // Nothing could be scheduled: the first waiting prompt does not fit the pool even alone. It is dropped and
      // counted (one warning for them all, after the run).
      if (running.empty() && !waiting.empty()) {
        const Req& q = reqs[waiting.front()];
        dropped += 1;
        longest_dropped = std::max(longest_dropped, q.isl + q.osl);
        reqs[waiting.front()].finish = t;
        waiting.pop_front();
        --in_system;
        ++finished;
        if (closed && next_arrival < N) {
          waiting.push_back(next_arrival++);
          ++in_system;
        }
        continue;
      }
      if (!pending.empty()) {
        observe(pending, t);
        continue;
      }
      if (!closed && next_open < N) {
        const double next = reqs[next_open].arrival;
        area += static_cast<double>(in_system) * (next - t);
        t = next;
        continue;
      }
      break;
    }
    StepLoad sl;
    bool any_prefill = false, any_decode = false;
    for (const auto& e : step) {
      const Req& q = reqs[e.r];
      steps.add(sl, q.computed, e.input, 1);
      (q.prefilling ? any_prefill : any_decode) = true;
    }
    if (L.scheduler_steps > 1 && window_left == 0 && !any_prefill) {
      window_left = L.scheduler_steps;  // a decode-only schedule opens a window of N steps
      if (!pending.empty()) observe(pending, t);
    }
    const double dt = steps.seconds(sl, x);
    double wc = 0, wm = 0;
    steps.work(sl, wc, wm);
    out.work_compute_s += wc;
    out.work_memory_s += wm;
    area += static_cast<double>(in_system) * dt;
    kv_area += used * dt;
    peak = std::max(peak, used);
    busy += dt;
    batch_sum += static_cast<double>(running.size());
    out.steps += 1;
    // A backstop behind forecast_serving's estimate (lengths drawn from a long-tailed distribution can run alone for
    // many steps): the simulation stops at the limit instead of running on (docs/schema.md, "Limits").
    if (out.steps > limit::kServingSteps)
      throw InputError("serving.too_much_work", "/serving",
                       "/serving: the simulation passed " + std::to_string(static_cast<long long>(limit::kServingSteps)) +
                           " engine steps (the drawn lengths keep few requests running at a time); expected fewer "
                           "/serving/requests, a higher concurrency, a narrower length spread, or the steady state "
                           "(/serving/simulate false)");
    (any_prefill ? (any_decode ? out.mixed_steps : out.prefill_steps) : out.decode_steps) += 1;
    if (reserving && !any_prefill) reserve_ratio = std::max(0.1, reserve_ratio - 0.001);
    t += dt;
    // The engine's side: tokens sampled in this step, caches freed at the last one.
    bool any_done = false;
    emitted.clear();
    for (const auto& e : step) {
      Req& q = reqs[e.r];
      q.computed += e.input;
      bool emit = !q.prefilling;
      if (q.prefilling && q.computed >= q.target) {
        q.prefilling = false;
        emit = true;
      }
      if (!emit) continue;
      q.generated += 1;
      left_to_generate -= 1;
      emitted.push_back(e.r);
      if (q.generated < q.osl) continue;
      q.done = true;
      used -= q.kv;
      q.kv = 0;
      any_done = true;
    }
    if (any_done) running.erase(std::remove_if(running.begin(), running.end(), [&](std::size_t i) { return reqs[i].done; }), running.end());
    // The client's side: a multi-step window streams its tokens at its end; with overlapped scheduling a step's tokens
    // come out when the next step ends.
    if (window_left > 0) {
      held.insert(held.end(), emitted.begin(), emitted.end());
      emitted.clear();
      if (--window_left == 0) observe(held, t);
    } else if (delayed) {
      observe(pending, t);
      pending.swap(emitted);
    } else {
      observe(emitted, t);
    }
  }
  if (run_count > 0) itl.add(run_gap, run_count);
  out.requests = static_cast<double>(ttft.size());
  out.duration_s = t;
  out.ttft_s = summarize(ttft);
  out.tpot_s = summarize(tpot);
  out.e2e_s = summarize(e2e);
  out.itl_s.mean = itl.count > 0 ? itl.sum / itl.count : 0;
  out.itl_s.p50 = itl.at(0.5);
  out.itl_s.p90 = itl.at(0.9);
  out.itl_s.p99 = itl.at(0.99);
  if (t > 0) {
    out.requests_per_s = out.requests / t * copies;
    out.output_tokens_per_s = out.output_tokens / t * copies;
    out.input_tokens_per_s = out.input_tokens / t * copies;
    out.mean_in_system = area / t;
    out.littles_product = out.requests / t * out.e2e_s.mean;
    out.busy_fraction = busy / t;
    out.memory.kv_mean_fraction = pool > 0 ? kv_area / t / pool : 0;
  }
  out.output_tokens_per_s_per_device = out.output_tokens_per_s / std::max(1, s.devices);
  out.output_tokens_per_s_per_user = out.tpot_s.mean > 0 ? 1 / out.tpot_s.mean : 0;
  out.mean_batch = out.steps > 0 ? batch_sum / out.steps : 0;
  out.mean_step_s = out.steps > 0 ? busy / out.steps : 0;
  out.memory.kv_peak_fraction = pool > 0 ? peak / pool : 0;
  out.memory.max_concurrency = std::floor(pool / std::max(1.0, request_kv_bytes(s, out.mean_isl + out.mean_osl)));
  if (dropped > 0)
    out.warnings.push_back({"serving.request_too_long", "/serving/isl",
                            std::to_string(static_cast<long long>(dropped)) + " of " + std::to_string(N) +
                                " requests (the longest " + std::to_string(longest_dropped) +
                                " tokens) did not fit the KV cache even alone; they were dropped"});
  if (out.preemptions > 0)
    out.warnings.push_back({"serving.preempted", "/serving",
                            "the KV cache ran out " + std::to_string(static_cast<long long>(out.preemptions)) +
                                " times; evicted requests were recomputed"});
  return out;
}

}  // namespace infercast
