// The analytical steady state of one replica (docs/serving.md, "Steady state"): B requests in flight, each living
// n_c prefill steps and O - 1 decode steps. Over one cycle (every slot serving one request) the engine runs B prompts
// and B (O - 1) decode tokens; the policy decides how they share steps:
//  - decode first / mixed whole: a step holds the decodes of the requests past their prefill and, on average,
//    q = B n_c / L prompt chunks (L = n_c + O - 1 steps per request); a step with a chunk and one without are timed
//    apart and weighted (q < 1) or every step carries q chunks (q >= 1): the engine's mean step. One request sees
//    the others: TTFT is n_c steps of its chunk beside the others' decodes, TPOT its decode steps beside the others'
//    decodes and their (B - 1) n_c chunks.
//  - prefill first: decode steps of all B requests, and between them prefill steps of the prompts that arrived
//    during a decode step (a of them: one step each when a < 1, batched when more). TPOT = ((O - 1) S_d +
//    (B - 1) n_c S_p / k) / (O - 1) (the others' prefill steps), TTFT n_c prefill steps.
// Closed loop: B = min(concurrency, the sequence cap, what the KV pool holds); clients beyond B wait, and Little's
// law gives their wait. Open loop: B is the fixed point B = rate x E2E(B); a rate above the capacity at the largest B
// is reported as overloaded. Exact for the means when the step time is linear in its load (docs/serving.md says
// where it is not); the percentiles are the means.
#include <algorithm>
#include <cmath>

#include "serving/serving.hpp"

namespace infercast {

namespace {

struct Cycle {
  double ttft = 0, tpot = 0, e2e = 0, rate = 0;  // rate: requests per second at B in flight
  double step = 0;
  double wc = 0, wm = 0;  // work per second of serving (all the replica's devices, efficiency 1)
};

Cycle cycle_at(const ServingSetup& s, const StepModel& sm, const Execution& x, double B, double isl, double osl, double hit) {
  Cycle c;
  const SchedulerLimits& L = s.limits;
  const double P = std::max(1.0, isl * (1 - hit));  // prompt tokens computed
  const double cached = isl - P;
  const double O = std::max(1.0, osl);
  const double budget = static_cast<double>(L.token_budget);
  const double ctx = isl + O / 2;  // a decoding request's mean context
  if (L.policy == StepPolicy::PrefillFirst) {
    const double nc = L.chunked_prefill ? std::ceil(P / budget) : 1;
    // Decode steps of the requests not prefilling; the prompts that arrive in one decode step run together.
    StepLoad dec;
    sm.add(dec, ctx, 1, B);
    const double sd = sm.seconds(dec, x);
    const double a = B / std::max(1.0, O - 1 + nc);  // completions (and new prompts) per decode step
    const double k = std::max(1.0, std::min(a, std::floor(budget / P)));
    StepLoad pre;
    sm.add(pre, cached + P / 2 * (nc - 1) / nc, P / nc, k);
    const double sp = sm.seconds(pre, x);  // one of the nc steps of k prompts
    // A cycle holds B nc / k prefill steps; a request's own nc of them (shared with k - 1 others) are its TTFT, and
    // the other requests' (B - k) nc / k come between its decode steps, or, with one output token and so no decode
    // steps, before its own prefill as it waits to be admitted.
    const double others = std::max(0.0, B - k) * nc * sp / k;
    c.ttft = nc * sp + (O > 1 ? 0 : others);
    c.tpot = O > 1 ? sd + others / (O - 1) : 0;
    c.step = sd;
    // One cycle: O - 1 decode steps and B nc / k prefill steps.
    double dc, dm, pc, pm;
    sm.work(dec, dc, dm);
    sm.work(pre, pc, pm);
    const double n_pre = B * nc / k, span = (O - 1) * sd + n_pre * sp;
    if (span > 0) {
      c.wc = ((O - 1) * dc + n_pre * pc) / span;
      c.wm = ((O - 1) * dm + n_pre * pm) / span;
    }
  } else {
    const bool whole = L.policy == StepPolicy::MixedWhole || !L.chunked_prefill;
    // A cycle of Ls steps runs every request's nc chunk steps and O - 1 decode steps, d decodes and q chunks a step.
    // The budget caps the chunks a step holds (whole prompts: as many as fit, one at the least); when the B nc
    // chunks need more steps than nc + O - 1, every step is full and each request waits `idle` steps to be admitted.
    double nc = 1, d = 0, q = 0, Ls = O, idle = 0;
    for (int it = 0; it < 16; ++it) {  // chunk steps depend on what the decodes leave of the budget
      const double room = std::max(1.0, budget - d);
      const double q_cap = whole ? std::max(1.0, std::floor(room / P)) : std::max(1.0, room / (P / nc));
      Ls = std::max(nc + O - 1, B * nc / q_cap);
      idle = Ls - (nc + O - 1);
      d = B * (O - 1) / Ls;
      q = B * nc / Ls;
      nc = whole ? 1 : std::max(1.0, std::ceil(P / std::max(1.0, budget - d)));
    }
    const double chunk = P / nc;
    const double c_cached = cached + chunk * (nc - 1) / 2;
    StepLoad with, without;
    sm.add(with, ctx, 1, d);
    sm.add(without, ctx, 1, d);
    sm.add(with, c_cached, chunk, std::max(1.0, q));
    const double sw = sm.seconds(with, x), so = d > 0 ? sm.seconds(without, x) : 0;
    const double mean = q >= 1 ? sw : q * sw + (1 - q) * so;  // the engine's mean step (work, energy)
    // One request's view: its prefill steps hold its chunk beside the others' decodes (and chunks); its decode steps
    // hold itself, the others' decodes, and the others' chunks, (B - 1) n_c of them over its O - 1 decode steps. Its
    // own chunks are not in its TPOT, nor its own decodes in its TTFT (at B = 1 the steps are exactly its own).
    const double others = std::max(0.0, B - 1);
    const double d_pre = others * (O - 1) / Ls, d_dec = 1 + d_pre;
    const double q_dec = O > 1 ? (idle > 0 ? q : others * nc / (O - 1)) : 0;
    StepLoad pre, dec_with, dec_without;
    sm.add(pre, ctx, 1, d_pre);
    sm.add(pre, c_cached, chunk, std::max(1.0, q));
    sm.add(dec_with, ctx, 1, d_dec);
    sm.add(dec_without, ctx, 1, d_dec);
    sm.add(dec_with, c_cached, chunk, std::max(1.0, q_dec));
    const double s_dw = q_dec > 0 ? sm.seconds(dec_with, x) : 0, s_do = sm.seconds(dec_without, x);
    c.ttft = idle * mean + nc * sm.seconds(pre, x);
    c.tpot = O > 1 ? (q_dec >= 1 ? s_dw : q_dec * s_dw + (1 - q_dec) * s_do) : 0;
    c.step = mean;
    double wc1, wm1, wc0 = 0, wm0 = 0;
    sm.work(with, wc1, wm1);
    if (d > 0) sm.work(without, wc0, wm0);
    const double share = q >= 1 ? 1 : q;
    if (mean > 0) {
      c.wc = (share * wc1 + (1 - share) * wc0) / mean;
      c.wm = (share * wm1 + (1 - share) * wm0) / mean;
    }
  }
  c.e2e = c.ttft + (O - 1) * c.tpot;
  c.rate = c.e2e > 0 ? B / c.e2e : 0;
  return c;
}

void fill(ServingResult& r, double v_ttft, double v_tpot, double v_e2e) {
  for (auto [p, v] : {std::pair<Percentiles*, double>{&r.ttft_s, v_ttft}, {&r.tpot_s, v_tpot}, {&r.itl_s, v_tpot}, {&r.e2e_s, v_e2e}})
    p->mean = p->p50 = p->p90 = p->p99 = v;
}

}  // namespace

ServingResult steady_state(const ServingSetup& s, const StepModel& sm, const ServingLoad& load, const Execution& x) {
  if (has_pipeline_streams(s)) {
    const PipelineStreams p = pipeline_streams(s, load, x);
    ServingResult r = steady_state(p.setup, sm, load, p.x);
    merge_streams(r, s, p);
    return r;
  }
  ServingResult out;
  out.limits = s.limits;
  out.memory = s.memory;
  out.warnings = s.warnings;
  const int dp = std::max(1, s.plan.dp);
  // The replicas the load keeps busy: a closed loop of C clients at most C of them (as simulate_serving).
  const double replicas = load.concurrency > 0 ? std::min(static_cast<double>(dp), std::max(1.0, load.concurrency)) : dp;
  const double isl = load.isl.mean, osl = std::max(1.0, load.osl.mean), hit = load.prefix_hit_rate;
  out.mean_isl = isl;
  out.mean_osl = osl;
  // The largest number in flight: the sequence cap and what the pool holds (at the mean context, or reserved to
  // the last token when nothing may be evicted); a pool that holds not even one request is refused.
  check_request_fits(s, isl, osl);
  double bmax = pool_requests(s, isl, osl);
  if (s.limits.max_num_seqs > 0) bmax = std::min(bmax, static_cast<double>(s.limits.max_num_seqs));
  bmax = std::max(1.0, bmax);
  out.memory.max_concurrency = bmax;
  // What the client sees beyond the engine's cycle. Overlapped scheduling (vLLM's async scheduling, SGLang's and
  // TensorRT-LLM's overlap schedulers) schedules step n + 1 while step n runs, so a request that arrives during step
  // n waits for step n + 2: one step more before its first token and its last. Multi-step scheduling (N steps per
  // schedule): a prompt waits on average (N - 1) / 2 steps for the window to end, and a request's last tokens reach
  // the client at the end of their window, (N - 1) / 2 steps late on average (one token: its first is its last).
  const double steps = std::max(1, s.limits.scheduler_steps);
  Cycle c;
  double B = 0, wait = 0;
  const auto extra_ttft = [&](const Cycle& k) { return s.limits.output_delay_steps * k.step + (steps - 1) / 2 * k.step; };
  const auto extra_e2e = [&](const Cycle& k) { return extra_ttft(k) + (osl > 1 ? (steps - 1) / 2 * k.step : 0); };
  double rate = 0;
  if (load.concurrency > 0) {
    const double clients = std::max(1.0, load.concurrency / replicas);
    B = std::min(clients, bmax);
    c = cycle_at(s, sm, x, B, isl, osl, hit);
    // Each client waits for its answer, then sends the next: C = rate x (its whole latency). Clients beyond the
    // cap queue, and the engine then serves B / e2e (Little's law over the running requests).
    const double own = c.e2e + extra_e2e(c);
    const double cycle = clients > B ? std::max(own, clients * c.e2e / B) : own;
    wait = cycle - own;
    rate = cycle > 0 ? clients / cycle : 0;
    if (clients > B)
      out.warnings.push_back({"serving.queued", "/serving/concurrency",
                              "only " + std::to_string(static_cast<long long>(B)) + " of " +
                                  std::to_string(static_cast<long long>(clients)) +
                                  " requests per replica run at once (the sequence cap or the KV cache); the rest wait"});
  } else {
    const double lam = load.request_rate / dp;
    const Cycle top = cycle_at(s, sm, x, bmax, isl, osl, hit);
    // Continuous batching admits an arrival at the next step while fewer than bmax run: a queue forms only as the
    // running requests near the cap, as for bmax servers each holding a request for its e2e (M/G/c), with
    // Sakasegawa's approximation of the mean wait: rho^(sqrt(2(c + 1)) - 1) / (c (1 - rho)) x (1 + cs^2) / 2 x
    // the service time, cs^2 the squared coefficient of variation of the output lengths (which set the service time).
    const LengthDist& o = load.osl;
    const double cs2 = o.kind == LengthKind::Uniform ? o.spread * o.spread / 3 : o.kind == LengthKind::LogNormal ? std::expm1(o.spread * o.spread) : 0;
    const auto queue_wait = [&](double rho, double service) {
      rho = std::min(rho, 0.99);
      return std::pow(rho, std::sqrt(2 * (bmax + 1)) - 1) / (bmax * (1 - rho)) * (1 + cs2) / 2 * service;
    };
    if (lam >= top.rate) {
      B = bmax;
      c = top;
      out.warnings.push_back({"serving.overloaded", "/serving/request_rate",
                              "the rate exceeds what a replica serves at its largest batch (" +
                                  std::to_string(top.rate * dp) + " requests/s): the queue grows without bound"});
      // No steady state: over a run of N requests arriving at lam and served at mu, the queue grows by lam - mu
      // a second, and the mean request waits N / 2 x (1 / mu - 1 / lam) on top of the wait at capacity.
      const double n = load.requests > 0 ? std::ceil(load.requests / dp) : 1000.0;
      wait = c.step / 2 + queue_wait(1, top.e2e) + n / 2 * (1 / top.rate - 1 / lam);
    } else {
      // B = lam x E2E(B): bisection on the increasing function lam E2E(B) - B.
      double lo = 0, hi = bmax;
      for (int it = 0; it < 40; ++it) {
        const double mid = (lo + hi) / 2;
        const Cycle m = cycle_at(s, sm, x, std::max(mid, 1e-3), isl, osl, hit);
        (lam * m.e2e > mid ? lo : hi) = mid;
      }
      B = std::max(hi, 1e-3);
      c = cycle_at(s, sm, x, B, isl, osl, hit);
      // Random arrivals meet a step in progress (half a step) and queue for admission as the engine fills.
      wait = c.step / 2 + queue_wait(B / bmax, c.e2e);
    }
    rate = std::min(lam, c.rate);
  }
  out.mean_batch = B;
  out.mean_step_s = c.step;
  // The client sees one gap of N steps per chunk of N tokens under multi-step scheduling.
  fill(out, c.ttft + wait + extra_ttft(c), c.tpot, c.e2e + wait + extra_e2e(c));
  out.itl_s.mean = out.itl_s.p50 = out.itl_s.p90 = out.itl_s.p99 = steps * c.tpot;
  out.requests_per_s = rate * replicas;
  out.output_tokens_per_s = rate * osl * replicas;
  out.input_tokens_per_s = rate * isl * replicas;
  out.output_tokens_per_s_per_device = out.output_tokens_per_s / std::max(1, s.devices);
  out.output_tokens_per_s_per_user = c.tpot > 0 ? 1 / c.tpot : 0;
  // Little's law from the client's side: the running requests, and those waiting or held by the scheduler.
  out.mean_in_system = load.concurrency > 0 ? std::max(1.0, load.concurrency / replicas) : B + rate * (wait + extra_e2e(c));
  out.duration_s = 1;  // the work below is per second of steady serving
  const double load_share = c.rate > 0 ? std::min(1.0, rate / c.rate) : 0;
  out.work_compute_s = c.wc * load_share;
  out.work_memory_s = c.wm * load_share;
  out.busy_fraction = load_share;
  out.littles_product = rate * out.e2e_s.mean;
  out.memory.kv_mean_fraction = s.memory.kv_bytes > 0 ? B * request_kv_bytes(s, isl + osl / 2) / s.memory.kv_bytes : 0;
  out.memory.kv_peak_fraction = out.memory.kv_mean_fraction;
  return out;
}

}  // namespace infercast
