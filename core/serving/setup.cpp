// What one replica serves with: the scheduler's limits on the device, and where each device's memory goes (weights,
// the largest step's activations, the runtime's reserve, the KV pool) under the runtime's memory fraction and what it
// is a fraction of (docs/serving.md, "Memory").
#include <algorithm>
#include <cmath>

#include "analysis/steps.hpp"
#include "ops/geometry.hpp"
#include "runtime/memory_budget.hpp"
#include "serving/serving.hpp"
#include "util/limits.hpp"
#include "util/search.hpp"

namespace infercast {

const NameTable<LengthKind>& length_kind_names() {
  static const NameTable<LengthKind> t(
      {{LengthKind::Fixed, "fixed", "every request the same length"},
       {LengthKind::Uniform, "uniform", "integers uniform over mean x (1 +- spread)"},
       {LengthKind::LogNormal, "lognormal", "log-normal with the given mean and sigma = spread (long tails, like ShareGPT)"}});
  return t;
}

namespace {
std::string gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / 1073741824.0);
  return buf;
}
}  // namespace

double request_kv_bytes(const ServingSetup& s, double context) {
  if (context <= 0) return 0;
  const double block = static_cast<double>(s.limits.kv_block_tokens);
  const double ctx = std::ceil(context / block) * block;
  double bytes = 0;
  for (const auto& g : s.kv_groups)
    bytes += static_cast<double>(g.count) * kv_bytes_resident(g.spec.attn, s.kv_bytes_per_element, ctx, s.window_kv_full);
  // A recurrent layer's state (gated DeltaNet, Mamba) is held for every running request whatever its length, in the
  // same pool (vLLM's hybrid KV cache manager allocates one per request), as the analysis counts it.
  return bytes + state_bytes_per_request(s.kv_groups, s.workload.settings);
}

double held_context(const ServingSetup& s, double isl, double osl) {
  return s.limits.preemption == Preemption::None ? isl + osl : isl + osl / 2;
}

double pool_requests(const ServingSetup& s, double isl, double osl) {
  const double per = request_kv_bytes(s, held_context(s, isl, osl));
  return per > 0 ? std::floor(std::max(0.0, s.memory.kv_bytes) / per) : 1e6;
}

void check_request_fits(const ServingSetup& s, double isl, double osl) {
  if (pool_requests(s, isl, osl) >= 1) return;
  const double ctx = held_context(s, isl, osl);
  const auto whole = [](double v) { return std::to_string(static_cast<long long>(std::ceil(v))); };
  throw InputError("serving.does_not_fit", "/serving/isl",
                   "/serving: a request of " + whole(isl) + " prompt and " + whole(osl) + " output tokens holds " +
                       gb(request_kv_bytes(s, ctx)) + " of KV cache per device at " + whole(ctx) +
                       (s.limits.preemption == Preemption::None ? " tokens (reserved to its last token)" : " tokens (its mean context)") +
                       ", more than the whole KV pool it is served from (" + gb(std::max(0.0, s.memory.kv_bytes)) +
                       " per device); expected shorter requests (/serving/isl, /serving/osl), a plan over more devices, or "
                       "a larger memory_fraction");
}

ServingSetup serving_setup(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& plan,
                           long long max_num_seqs, long long token_budget) {
  ServingSetup s;
  s.model = &m;
  s.workload = w;
  s.system = sys;
  s.plan = plan;
  s.devices = plan.devices();
  const RuntimeSpec* rt = w.runtime;
  const SchedulerSpec spec = rt ? rt->scheduler : SchedulerSpec{};
  if (!spec.stated)
    s.warnings.push_back({"serving.scheduler_assumed", "/runtime",
                          std::string(rt ? rt->name : "the reference stack") +
                              " states no serving scheduler; vLLM-like defaults are assumed (decode first, chunked prefill, "
                              "256 sequences and 2048 tokens per step, 90% of memory)"});
  s.limits = resolve_scheduler(spec, sys.device, plan.tp * plan.pp, plan.tp, rt ? rt->graph_max_tokens : 0, max_num_seqs, token_budget);
  apply_memory_fraction(s.limits, sys.device, w.memory_fraction);
  s.kv_bytes_per_element = w.settings.precision.kv.bits_per_element / 8;
  s.window_kv_full = window_kv_held_in_full(rt, m.model_type);
  if (s.window_kv_full)
    s.warnings.push_back({"serving.window_kv_full", "/runtime",
                          window_kv_full_text(*rt, m.model_type) + ": the KV pool holds fewer requests than the windows would allow"});

  ParallelPlan one = plan;
  one.dp = 1;
  const std::vector<Stage> stages = plan_stages(m, one, sys);
  const HardwareSpec& hw = sys.device;
  const double capacity = hw.tiers.empty() ? 0 : hw.tiers.front().capacity_bytes;
  const SchedulerLimits& L = s.limits;
  double best_ratio = -1;
  for (const auto& st : stages) {
    Workload probe = w;
    probe.requests = {Request{0, std::max<long long>(1, L.token_budget), 1}};
    probe.gen_tokens = 1;
    probe.prefill_chunk = 0;
    const Analysis a = analyze(st.model, probe, nullptr);
    ServingMemory mem;
    mem.capacity_bytes = capacity;
    mem.weights_bytes = a.weights_bytes;
    // The engine's profile: a forward over its budget, and (vLLM) its sampler over a full batch of the whole
    // vocabulary on every device of the tensor-parallel group (vLLM V1 all-gathers the logits,
    // LogitsProcessor.use_all_gather).
    mem.activation_bytes = profile_activation_bytes(L, a.activation_peak_bytes, st.model.has_head, static_cast<double>(m.vocab));
    mem.kv_bytes_per_token = a.kv_bytes_per_token;
    mem.kv_bytes_per_token_past_windows = a.kv_bytes_per_token_past_windows;
    mem.device_reserve_bytes = hw.reserve_bytes;
    if (a.compute_buffer_bytes > 0 && a.kv_bytes_per_token > 0) {
      // llama.cpp reserves its compute buffer for its whole cache (n_ctx: the pool's cells, over its slots), and the
      // buffer grows with the cells without flash attention: the largest pool that leaves room for its own buffer.
      // Its windowed layers hold their own cache of window x slots + ubatch cells (llama-kv-cache-iswa.cpp), not n_ctx.
      const double seqs = static_cast<double>(std::max<long long>(1, L.max_num_seqs));
      const auto buffer = [&](double cells) { return compute_buffer_bytes(a.compute_buffer_shape, cells, seqs); };
      const double kb = w.settings.precision.kv.bits_per_element / 8;
      // One token's bytes in the layers with a window cache of their own (a request of one token holds exactly that).
      double windowed = a.window_kv_full ? 0 : windowed_kv_bytes_per_request(a.groups, kb, 1);
      if (windowed >= a.kv_bytes_per_token) windowed = 0;  // every layer windowed: the cells bound them all
      const auto holds = [&](double cells) {
        const double windows = windowed > 0 ? ggml_window_kv_bytes(a.groups, kb, a.compute_buffer_shape, cells, seqs) : 0;
        return cells * (a.kv_bytes_per_token - windowed) + windows <=
               memory_budget(L, hw, mem.weights_bytes, buffer(cells)).kv_bytes;
      };
      const double cells = largest_where(holds, 1e10);
      mem.activation_bytes = buffer(cells);
      mem.kv_tokens = cells;  // n_ctx: the cells every growing layer holds (its window caches beside them)
    }
    const MemoryBudget budget = memory_budget(L, hw, mem.weights_bytes, mem.activation_bytes);
    mem.usable_bytes = budget.usable_bytes;
    mem.kv_bytes = budget.kv_bytes;
    mem.reserve_bytes = budget.reserve_bytes;
    const double past = mem.kv_bytes_per_token_past_windows;
    mem.pool_bytes_per_token = past > 0 ? past + rt->scheduler.window_pool_ratio * (mem.kv_bytes_per_token - past) : mem.kv_bytes_per_token;
    // The fullest stage, every stage's bytes counted alike (a stage of windowed layers only has none past them).
    const double ratio = mem.kv_bytes_per_token > 0 ? mem.kv_bytes / mem.kv_bytes_per_token : mem.kv_bytes;
    if (best_ratio < 0 || ratio < best_ratio) {
      best_ratio = ratio;
      s.memory = mem;
      s.kv_groups = group_layers(st.model);
    }
  }
  ServingMemory& mem = s.memory;
  // llama.cpp's pool is its n_ctx cells (set above); elsewhere the pool's bytes over what a token of it costs.
  if (!(mem.kv_tokens > 0)) mem.kv_tokens = mem.pool_bytes_per_token > 0 ? std::max(0.0, mem.kv_bytes) / mem.pool_bytes_per_token : 0;
  // A sequence cap the runtime derives from its pool (SGLang: pool tokens / context length x 512 within [2048, 4096],
  // at most half the pool's tokens), where neither the runtime nor the request sets one.
  const SchedulerSpec::PoolSeqs& ps = s.limits.pool_seqs;
  if (s.limits.max_num_seqs == 0 && ps.per_context > 0 && mem.kv_tokens > 0) {
    const double ctx = static_cast<double>(m.max_position > 0 ? m.max_position : 0);
    const double derived = ctx > 0 ? std::clamp(std::floor(mem.kv_tokens / ctx * ps.per_context), ps.min, ps.max) : ps.min;
    s.limits.max_num_seqs = std::max<long long>(1, static_cast<long long>(std::min(derived, std::floor(mem.kv_tokens / ps.tokens_per_seq))));
  }
  mem.fits = mem.kv_bytes > request_kv_bytes(s, static_cast<double>(L.kv_block_tokens));
  if (!mem.fits)
    throw InputError("serving.does_not_fit", "/serving",
                     "the weights (" + gb(mem.weights_bytes) + " per device) and activations (" + gb(mem.activation_bytes) +
                         ") leave no room for a KV cache in the " + gb(mem.usable_bytes) + " the runtime uses of " +
                         hw.name + "'s " + gb(capacity) + "; expected a plan over more devices, smaller weights or a smaller step");
  return s;
}

double max_step_tokens(const ServingSetup& s, const ServingLoad& load) {
  double t = static_cast<double>(std::max(s.limits.token_budget, s.limits.max_prefill_tokens));
  // Whole prompts (no chunking) may exceed the budget when they run alone.
  if (!s.limits.chunked_prefill || s.limits.policy == StepPolicy::MixedWhole) {
    const double longest = load.isl.kind == LengthKind::Fixed ? load.isl.mean
                           : load.isl.kind == LengthKind::Uniform ? load.isl.mean * (1 + load.isl.spread)
                                                                   : load.isl.mean * std::exp(3 * load.isl.spread);
    t = std::max(t, longest + 1);
  }
  return std::max(1.0, std::ceil(t));
}

double max_decode_batch(const ServingSetup& s, const ServingLoad& load) {
  double b = s.limits.max_num_seqs > 0 ? static_cast<double>(s.limits.max_num_seqs) : 1e9;
  const double per_request = request_kv_bytes(s, std::max(1.0, load.isl.mean * (1 - load.prefix_hit_rate) + 1));
  if (per_request > 0) b = std::min(b, std::floor(s.memory.kv_bytes / per_request) + 1);
  if (load.concurrency > 0) b = std::min(b, std::ceil(load.concurrency));
  return std::max(1.0, std::min(b, 65536.0));
}

ServingLoad served_load(const RuntimeSpec* rt, const ServingLoad& load, std::vector<Warning>& warnings) {
  ServingLoad out = load;
  if (load.prefix_hit_rate > 0 && !(rt ? rt->scheduler : SchedulerSpec{}).prefix_caching) {
    char pct[32];
    std::snprintf(pct, sizeof pct, "%g%%", load.prefix_hit_rate * 100);
    warnings.push_back({"serving.prefix_caching_off", "/serving/prefix_hit_rate",
                        std::string(rt ? rt->name : "the reference stack") + " runs without prefix caching (its scheduler's "
                        "prefix_caching is false), so the " + pct + " prefix hit rate is not applied: every prompt is "
                        "prefilled in full; give a runtime with prefix_caching true to apply it"});
    out.prefix_hit_rate = 0;
  }
  return out;
}

bool has_pipeline_streams(const ServingSetup& s) { return s.limits.pp_micro_batches && s.plan.pp > 1; }

PipelineStreams pipeline_streams(const ServingSetup& s, const ServingLoad& load, const Execution& x) {
  PipelineStreams p;
  p.setup = s;
  p.x = x;
  p.streams = s.plan.pp;
  const double dp = std::max(1, s.plan.dp);
  // A closed loop of C clients keeps at most C / dp streams of a replica busy; an open loop is taken to fill them.
  p.busy = load.concurrency > 0 ? std::clamp(load.concurrency / dp, 1.0, p.streams) : p.streams;
  p.setup.plan.dp = static_cast<int>(dp * p.streams);
  p.setup.limits.pp_micro_batches = false;
  if (s.limits.max_num_seqs > 0)
    p.setup.limits.max_num_seqs = std::max<long long>(1, static_cast<long long>(std::ceil(static_cast<double>(s.limits.max_num_seqs) / p.streams)));
  p.setup.memory.kv_bytes = s.memory.kv_bytes / p.streams;
  p.x.pipeline_in_flight = p.busy;
  return p;
}

void merge_streams(ServingResult& r, const ServingSetup& s, const PipelineStreams& p) {
  r.limits = s.limits;
  r.memory.kv_bytes = s.memory.kv_bytes;
  r.memory.max_concurrency *= p.streams;
  // Work per second of one replica: its busy streams'.
  r.work_compute_s *= p.busy;
  r.work_memory_s *= p.busy;
}

ServingForecast forecast_serving(const ModelSpec& m, const Workload& w, const System& sys, const ParallelPlan& plan,
                                 const ServingLoad& asked, long long max_num_seqs, long long token_budget, bool simulate,
                                 int scheduler_steps) {
  ServingForecast f;
  f.setup = serving_setup(m, w, sys, plan, max_num_seqs, token_budget);
  const ServingLoad load = served_load(w.runtime, asked, f.setup.warnings);
  f.load = load;
  if (scheduler_steps > 0) f.setup.limits.scheduler_steps = scheduler_steps;
  f.setup.model = &m;
  f.steps.emplace_back(m, w, sys, plan, max_step_tokens(f.setup, load), max_decode_batch(f.setup, load));
  const StepModel& sm = f.steps.front();
  double work = 0;  // the simulation's request-steps: checked first (the steady state may refuse the load too)
  if (simulate) {
    const int dp = std::max(1, plan.dp);
    const double clients = load.concurrency > 0 ? std::max(1.0, std::round(load.concurrency / dp)) : 0;
    double n = load.requests > 0 ? std::ceil(load.requests / dp) : (clients > 0 ? std::clamp(8 * clients, 200.0, 4000.0) : 1000.0);
    n = std::max(n, clients);
    work = n * (load.osl.mean + load.isl.mean / static_cast<double>(std::max<long long>(1, f.setup.limits.token_budget)));
    if (work > limit::kServingRequestSteps)
      throw InputError("serving.too_large", load.requests > 0 ? "/serving/requests" : "/serving/concurrency",
                       "the simulation would run " + std::to_string(static_cast<long long>(work)) +
                           " request-steps (requests x output tokens); expected at most 50000000: give fewer /serving/requests "
                           "or use the steady state (/serving/simulate false)");
  }
  f.steady = steady_state(f.setup, sm, load, sm.execution());
  if (simulate) {
    // Engine steps: the request-steps over the batch the steady state runs (one request at a time at the least;
    // with pipeline micro-batches, the batch of every stream together: each stream runs its share of the work).
    const double batch = f.steady.mean_batch * (has_pipeline_streams(f.setup) ? pipeline_streams(f.setup, load, sm.execution()).busy : 1);
    const double steps = work / std::max(1.0, batch);
    if (steps > limit::kServingSteps)
      throw InputError("serving.too_much_work", load.requests > 0 ? "/serving/requests" : "/serving/concurrency",
                       "/serving: the simulation would run about " + std::to_string(static_cast<long long>(steps)) +
                           " engine steps (" + std::to_string(static_cast<long long>(work)) + " request-steps, about " +
                           std::to_string(static_cast<long long>(std::max(1.0, batch))) +
                           " requests per step); expected at most " + std::to_string(static_cast<long long>(limit::kServingSteps)) +
                           ": give fewer /serving/requests, a higher concurrency, or use the steady state (/serving/simulate false)");
    const double stages = std::max(1, plan.pp);
    if (stages > 1 && steps * stages > limit::kServingStageSteps)
      throw InputError("serving.too_much_work", "/parallel/pp",
                       "/serving: the simulation would run about " + std::to_string(static_cast<long long>(steps)) +
                           " engine steps, each timing " + std::to_string(plan.pp) + " pipeline stages: " +
                           std::to_string(static_cast<long long>(steps * stages)) + " stage-steps, past the limit of " +
                           std::to_string(static_cast<long long>(limit::kServingStageSteps)) +
                           "; expected fewer stages, fewer /serving/requests, or the steady state (/serving/simulate false)");
    f.simulated = simulate_serving(f.setup, sm, load, sm.execution());
    f.has_simulation = true;
  }
  return f;
}

}  // namespace infercast
