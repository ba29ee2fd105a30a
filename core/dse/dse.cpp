#include "dse/dse.hpp"

#include "dse/point.hpp"
#include "analysis/steps.hpp"
#include "runtime/memory_budget.hpp"

#include <algorithm>
#include <cmath>

namespace infercast {

const NameTable<DseParam>& dse_param_names() {
  static const NameTable<DseParam> t({{DseParam::ComputeTflops, "compute_TFLOPS", "dense peak of the base type (every peak scales with it)"},
                                      {DseParam::BandwidthGBps, "bandwidth_GBps", "bandwidth of the main memory tier"},
                                      {DseParam::CapacityGB, "capacity_GB", "capacity of the main memory tier"},
                                      {DseParam::SramMB, "sram_MB", "on-chip SRAM added as the fastest tier"},
                                      {DseParam::PowerW, "power_W", "board power"},
                                      {DseParam::PriceUSD, "price_USD", "purchase price"}},
                                     ListStyle::OneOf);
  return t;
}

const NameTable<DseObjective>& dse_objective_names() {
  static const NameTable<DseObjective> t(
      {{DseObjective::Tpot, "tpot_s", "time per output token (lower is better)"},
       {DseObjective::Ttft, "ttft_s", "time to first token (lower is better)"},
       {DseObjective::TokensPerS, "tokens_per_s", "decode throughput of the batch (higher is better)"},
       {DseObjective::JoulesPerToken, "joules_per_token", "energy per generated token"},
       {DseObjective::UsdPerMTok, "usd_per_million_tokens", "cost per million generated tokens"},
       {DseObjective::GramsPerMTok, "gCO2e_per_million_tokens", "CO2 per million generated tokens"},
       {DseObjective::PowerW, "power_W", "board power"},
       {DseObjective::PriceUSD, "price_USD", "purchase price"}},
      ListStyle::OneOf);
  return t;
}

double tc_over_tm(const PhaseTotals& t, double flop_per_s, double bytes_per_s) {
  return (t.flops / flop_per_s) / (t.bytes() / bytes_per_s);
}

// The base device's "compute TFLOPS": its bf16 peak (else fp16, else its largest); every peak scales with it.
double base_tflops(const HardwareSpec& hw) {
  const double bf16 = hw.peak_flops[static_cast<std::size_t>(ComputeType::BF16)];
  const double fp16 = hw.peak_flops[static_cast<std::size_t>(ComputeType::FP16)];
  double best = 0;
  for (double v : hw.peak_flops) best = std::max(best, v);
  return (bf16 > 0 ? bf16 : fp16 > 0 ? fp16 : best) / 1e12;
}

namespace {

void add_op(std::vector<DseWorkload::OpCost>& out, const HardwareSpec& hw, const Execution& x, const Op& o, double scale) {
  out.push_back({static_cast<float>(scale * op_compute_seconds(hw, x, o)), static_cast<float>(scale * o.weight_bytes),
                 static_cast<float>(scale * (o.kv_read_bytes + o.kv_write_bytes)),
                 static_cast<float>(scale * (o.act_read_bytes + o.act_write_bytes))});
}

double peak_seconds(const HardwareSpec& hw, const WorkSums& w) {
  double s = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    if (w.flops_by_type[i] <= 0) continue;
    ComputeType used;
    if (resolve_compute(hw, static_cast<ComputeType>(i), used)) s += w.flops_by_type[i] / hw.peak_flops[static_cast<std::size_t>(used)];
  }
  return s;
}

}  // namespace

std::array<double, kDseParams> dse_base_params(const HardwareSpec& base) {
  std::array<double, kDseParams> p{};
  p[static_cast<int>(DseParam::ComputeTflops)] = base_tflops(base);
  p[static_cast<int>(DseParam::BandwidthGBps)] = base.tiers.empty() ? 0 : base.tiers[0].bandwidth_bytes_per_s / 1e9;
  p[static_cast<int>(DseParam::CapacityGB)] = base.tiers.empty() ? 0 : base.tiers[0].capacity_bytes / 1e9;
  p[static_cast<int>(DseParam::SramMB)] = 0;
  p[static_cast<int>(DseParam::PowerW)] = base.tdp_w;
  p[static_cast<int>(DseParam::PriceUSD)] = base.price_usd;
  return p;
}

DseWorkload dse_base(const HardwareSpec& base, const CostAssumptions& costs) {
  DseWorkload wl;
  wl.base = base;
  const EnergyModel em = energy_model(base, costs);
  if (em.available) {
    wl.base_static_w = em.static_w;
    wl.base_dynamic_w = em.tdp_w - em.static_w;
  }
  if (!base.tiers.empty() && base.tiers[0].energy_j_per_byte > 0) wl.base_j_per_byte = base.tiers[0].energy_j_per_byte;
  return wl;
}

void check_dse_base(const HardwareSpec& base) {
  if (base_tflops(base) <= 0)
    throw InputError("dse.no_compute", "/hardware", "/hardware: " + base.name + " has no compute peak to scale; expected a device with peak_dense_TFLOPS");
  if (base.tiers.empty() || base.tiers[0].bandwidth_bytes_per_s <= 0)
    throw InputError("dse.no_memory", "/hardware", "/hardware: " + base.name + " has no memory tier to scale");
}

DseWorkload dse_prepare(const ModelSpec& m, const Workload& w, const HardwareSpec& base, const CostAssumptions& costs) {
  DseWorkload wl = dse_base(base, costs);
  wl.timing = w.timing;
  check_dse_base(base);
  const Analysis a = analyze(m, w, &base);
  const Execution& x = a.execution;
  wl.memory_efficiency = x.eff.memory;
  wl.kv_memory_efficiency = x.kv_memory;
  wl.step_overhead_s = x.step_overhead_s;
  const auto gap = [&](double tokens) { return replayed(x, tokens) ? x.graph_gap_s : x.eff.dispatch_s; };
  const auto launches = [&](double tokens, double kernels) { return replayed(x, tokens) ? 0 : kernels * x.launch_s; };
  for (const auto& o : a.prefill.ops) add_op(wl.prefill, base, x, o, 1);
  wl.prefill_dispatch_s = a.prefill.totals.dispatches * gap(a.prefill.tokens);
  wl.prefill_launch_s = launches(a.prefill.tokens, a.prefill.totals.dispatches);
  wl.decode_steps = a.decode_steps;
  // The decode step in the middle of the generation: costs are affine in the step between window and tile cuts,
  // so its time is the mean step time unless an operator changes bound on the way (docs/formulas.md).
  // With one output token there is no decode step after the first; TPOT is then the first decode step's time, as
  // the analysis reports it (the sweep once reported TTFT as TPOT and checked a TPOT limit against it).
  {
    const double mid = a.decode_steps > 0 ? (a.decode_steps - 1) / 2 : 0;
    const auto lo = step_ops(m, a.groups, decode_step(w.requests, std::floor(mid)), w.settings);
    const auto hi = step_ops(m, a.groups, decode_step(w.requests, std::ceil(mid)), w.settings);
    double disp = 0;
    for (std::size_t i = 0; i < lo.size(); ++i) {
      add_op(wl.decode, base, x, lo[i], 0.5);
      const auto& h = hi[i];
      auto& c = wl.decode.back();
      c.compute_s += static_cast<float>(0.5 * op_compute_seconds(base, x, h));
      c.w += static_cast<float>(0.5 * h.weight_bytes);
      c.kv += static_cast<float>(0.5 * (h.kv_read_bytes + h.kv_write_bytes));
      c.act += static_cast<float>(0.5 * (h.act_read_bytes + h.act_write_bytes));
      disp += lo[i].dispatches;
    }
    wl.decode_dispatch_s = disp * gap(a.decode.tokens);
    wl.decode_launch_s = launches(a.decode.tokens, disp);
  }
  wl.prompt_tokens = a.prefill.tokens;
  wl.requests = a.batch_requests;
  wl.output_tokens = a.batch_requests * (a.decode_steps + 1);
  wl.weights_bytes = a.weights_bytes;
  wl.kv_bytes = a.kv_cache_bytes;
  wl.act_bytes = a.activation_peak_bytes;
  // Under an engine with a token budget, the workload's own peak before the budget's step capped it: each point caps it
  // at its own budget's step (placement: Analysis::activation_step_cap_bytes).
  wl.act_uncapped_bytes = a.activation_step_cap_bytes > 0 ? a.activation_uncapped_bytes : a.activation_peak_bytes;
  if (a.runtime_budget) {
    const RuntimeSpec& rt = *w.runtime;
    wl.engine_budget = true;
    wl.engine_scheduler = rt.scheduler;
    wl.engine_devices = std::max(1, w.devices);
    wl.engine_tp = std::max(1, w.tp);
    wl.engine_graph_batch = rt.graph_max_tokens;
    wl.engine_memory_fraction = w.memory_fraction;
    wl.engine_has_head = m.has_head;
    wl.engine_vocab = static_cast<double>(m.vocab) * wl.engine_tp;
    // The profile's forward over each token budget the scheduler's rules can give (as analysis.cpp times it).
    std::vector<long long> budgets = {rt.scheduler.max_num_batched_tokens};
    for (const auto& r : rt.scheduler.rules)
      if (r.max_num_batched_tokens) budgets.push_back(*r.max_num_batched_tokens);
    for (long long t : budgets)
      if (std::none_of(wl.engine_forward.begin(), wl.engine_forward.end(), [&](const auto& e) { return e.first == t; }))
        wl.engine_forward.emplace_back(t, profile_forward_bytes(m, a.groups, w.settings, t));
    // Prompts that run whole: the longest one's step, where it passes a budget.
    SchedulerLimits whole;
    whole.token_budget = 0;
    whole.chunked_prefill = rt.scheduler.chunked_prefill;
    whole.policy = rt.scheduler.policy;
    wl.engine_longest_step = longest_engine_step(whole, w.requests);
    if (wl.engine_longest_step > 0) wl.engine_longest_forward = profile_forward_bytes(m, a.groups, w.settings, wl.engine_longest_step);
  }
  wl.prefill_peak_s = peak_seconds(base, a.prefill_work);
  wl.decode_peak_s = peak_seconds(base, a.decode_work);
  wl.prefill_bytes = a.prefill_work.weight_bytes + a.prefill_work.kv_bytes + a.prefill_work.act_bytes;
  wl.decode_bytes = a.decode_work.weight_bytes + a.decode_work.kv_bytes + a.decode_work.act_bytes;
  return wl;
}

PointCoeffs point_coeffs(const DseWorkload& wl, const DseSpec& spec, const std::array<double, kDseParams>& p) {
  PointCoeffs k;
  // Tiers of a point: optional SRAM, the main memory with the point's capacity and bandwidth, the base's others.
  double cap[6], bw[6];
  int n = 0;
  const double sram = p[static_cast<int>(DseParam::SramMB)] * 1e6;
  if (sram > 0) {
    cap[n] = sram;
    bw[n++] = spec.sram_bandwidth_bytes_per_s;
  }
  // The main memory less what the driver and OS keep (the base device's reserve), as the analysis places it.
  const double capacity = p[static_cast<int>(DseParam::CapacityGB)] * 1e9;
  cap[n] = std::max(0.0, capacity - wl.base.reserve_bytes);
  // Under an engine with a pool, its budget of that memory at this capacity, less what its profile keeps beyond the
  // workload's activations (placement.cpp's runtime_first_tier); the driver's hidden share scales with the capacity.
  double act_bytes = wl.act_bytes;
  if (wl.engine_budget) {
    SchedulerLimits l = resolve_scheduler(wl.engine_scheduler, capacity, wl.base.name, wl.engine_devices, wl.engine_tp, wl.engine_graph_batch);
    apply_memory_fraction(l, capacity, wl.engine_memory_fraction);
    double forward = 0;
    for (const auto& [t, bytes] : wl.engine_forward)
      if (t == l.token_budget) forward = bytes;
    // Whole prompts past the budget (chunked prefill off) cap at the longest prompt's step (analysis.cpp).
    const double step_cap = wl.engine_longest_step > l.token_budget ? wl.engine_longest_forward : forward;
    act_bytes = step_cap > 0 ? std::min(wl.act_uncapped_bytes, step_cap) : wl.act_uncapped_bytes;
    const double act = std::max(act_bytes, profile_activation_bytes(l, forward > 0 ? forward : act_bytes, wl.engine_has_head, wl.engine_vocab));
    const MemoryBudget b = memory_budget(l, capacity, wl.base.reserve_bytes, wl.base.hidden_fraction * capacity, wl.weights_bytes, act);
    cap[n] = std::min(cap[n], std::max(0.0, b.usable_bytes - (act - act_bytes)));
  }
  bw[n++] = p[static_cast<int>(DseParam::BandwidthGBps)] * 1e9;
  const int main_tiers = n;  // the SRAM and the main memory; the base's slower tiers follow
  for (std::size_t i = 1; i < wl.base.tiers.size() && n < 6; ++i) {
    cap[n] = wl.base.tiers[i].capacity_bytes;
    bw[n++] = wl.base.tiers[i].bandwidth_bytes_per_s;
  }
  // Placement, fastest tier first: weights, then the KV cache, then activations (as the analysis places them).
  double free[6], total_cap = 0, main_cap = 0;
  for (int i = 0; i < n; ++i) {
    free[i] = cap[i];
    total_cap += cap[i];
    if (i < main_tiers) main_cap += cap[i];
  }
  const auto place = [&](double bytes) {
    double inv = 0, left = bytes;
    for (int i = 0; i < n && left > 0; ++i) {
      const double take = std::min(left, free[i]);
      free[i] -= take;
      left -= take;
      inv += take / bw[i];
    }
    if (left > 0) inv += left / bw[n - 1];
    return bytes > 0 ? inv / bytes : 1 / bw[0];
  };
  const double eff_m = wl.memory_efficiency;
  k.iw = place(wl.weights_bytes) / eff_m;
  k.ikv = place(wl.kv_bytes) / wl.kv_memory_efficiency;
  k.ia = place(act_bytes) / eff_m;
  const double need = wl.weights_bytes + wl.kv_bytes + act_bytes;
  k.fits = need <= total_cap;
  k.fits_main = need <= main_cap;
  if (wl.engine_budget) k.fits = k.fits_main;  // a pooled engine keeps everything in device memory: it never spills
  k.f = p[static_cast<int>(DseParam::ComputeTflops)] / base_tflops(wl.base);
  k.inv_f = 1 / k.f;
  return k;
}

double phase_seconds(const DseWorkload& wl, const std::vector<DseWorkload::OpCost>& ops, double dispatch, double launch,
                     const PointCoeffs& k) {
  // A step: its operators (per operator or the phase's max), the kernels' gaps, at least the host's launches, and
  // the runtime's per-step cost (as analysis/trace.cpp times a block).
  double sum = 0, sc = 0, sm = 0;
  if (wl.timing == Timing::PerOp) {
    for (const auto& o : ops) sum += std::max(o.compute_s * k.inv_f, o.w * k.iw + o.kv * k.ikv + o.act * k.ia);
    return std::max(sum + dispatch, launch) + wl.step_overhead_s;
  }
  for (const auto& o : ops) {
    sc += o.compute_s;
    sm += o.w * k.iw + o.kv * k.ikv + o.act * k.ia;
  }
  return std::max(std::max(sc * k.inv_f, sm) + dispatch, launch) + wl.step_overhead_s;
}

void finish_point(const DseWorkload& wl, const DseSpec& spec, double grid, const PointCoeffs& k, double ttft, double tpot,
                  DsePoint& pt) {
  const auto& p = pt.params;
  const double decode_time = wl.decode_steps > 0 ? tpot * wl.decode_steps : 0;
  const double e2e = ttft + decode_time;
  // Energy, cost and CO2 as cost_report computes them, with the point's power, compute and bandwidth.
  const CostAssumptions& c = spec.costs;
  const double bw = p[static_cast<int>(DseParam::BandwidthGBps)] * 1e9;
  const double base_bw = wl.base.tiers[0].bandwidth_bytes_per_s;
  const double alpha = c.compute_power_fraction;
  double power, stat, compute_j, j_per_byte;
  if (spec.derive_power) {
    // The base device's technology: its joules per FLOP and per byte stay, so power follows the peaks.
    stat = wl.base_static_w;
    power = stat + wl.base_dynamic_w * (alpha * k.f + (1 - alpha) * bw / base_bw);
    compute_j = alpha * wl.base_dynamic_w * (wl.prefill_peak_s + wl.decode_peak_s);
    j_per_byte = (1 - alpha) * wl.base_dynamic_w / base_bw;
  } else {
    power = p[static_cast<int>(DseParam::PowerW)];
    stat = c.static_fraction * power;
    compute_j = alpha * (power - stat) * k.inv_f * (wl.prefill_peak_s + wl.decode_peak_s);
    j_per_byte = (1 - alpha) * (power - stat) / bw;
  }
  // A memory technology that states its energy per byte (the base's energy_pJ_per_byte) keeps it, whatever the
  // power, as cost_report charges it.
  if (wl.base_j_per_byte > 0) j_per_byte = wl.base_j_per_byte;
  const double memory_j = j_per_byte * (wl.prefill_bytes + wl.decode_bytes);
  const double joules = stat * e2e + compute_j + memory_j;
  pt.params[static_cast<int>(DseParam::PowerW)] = power;
  const double busy_w = e2e > 0 ? joules / e2e : 0;
  const double embodied = c.embodied_kgco2e >= 0 ? c.embodied_kgco2e : wl.base.embodied_kgco2e;
  const Ownership own = ownership_at(c, grid, p[static_cast<int>(DseParam::PriceUSD)], embodied, busy_w, stat, e2e, wl.output_tokens);
  auto& v = pt.values;
  v[static_cast<int>(DseObjective::Tpot)] = tpot;
  v[static_cast<int>(DseObjective::Ttft)] = ttft;
  v[static_cast<int>(DseObjective::TokensPerS)] = tpot > 0 ? wl.requests / tpot : 0;
  v[static_cast<int>(DseObjective::JoulesPerToken)] = wl.output_tokens > 0 ? joules / wl.output_tokens : 0;
  v[static_cast<int>(DseObjective::UsdPerMTok)] = own.usd_per_million_tokens;
  v[static_cast<int>(DseObjective::GramsPerMTok)] = own.operational_g_per_million_tokens + own.embodied_g_per_million_tokens;
  v[static_cast<int>(DseObjective::PowerW)] = power;
  v[static_cast<int>(DseObjective::PriceUSD)] = p[static_cast<int>(DseParam::PriceUSD)];
  const DseConstraints& kc = spec.constraints;
  pt.feasible = k.fits && (!kc.must_fit || k.fits_main) && (kc.max_tpot_s <= 0 || tpot <= kc.max_tpot_s) &&
                (kc.max_ttft_s <= 0 || ttft <= kc.max_ttft_s) && (kc.max_power_w <= 0 || power <= kc.max_power_w);
}

DsePoint dse_point(const DseWorkload& wl, const DseSpec& spec, const std::array<double, kDseParams>& p) {
  DsePoint pt;
  pt.params = p;
  const PointCoeffs k = point_coeffs(wl, spec, p);
  const double ttft = phase_seconds(wl, wl.prefill, wl.prefill_dispatch_s, wl.prefill_launch_s, k);
  const double tpot = phase_seconds(wl, wl.decode, wl.decode_dispatch_s, wl.decode_launch_s, k);
  finish_point(wl, spec, grid_intensity(spec.costs), k, ttft, tpot, pt);
  return pt;
}

HardwareSpec dse_device(const DseWorkload& wl, const DseSpec& spec, const std::array<double, kDseParams>& p) {
  HardwareSpec hw = wl.base;
  const double f = p[static_cast<int>(DseParam::ComputeTflops)] / base_tflops(wl.base);
  for (auto& v : hw.peak_flops) v *= f;
  for (auto& v : hw.peak_flops_fp16_accumulate) v *= f;
  for (auto& v : hw.peak_flops_vector) v *= f;
  // A design point's peaks are the design's, not the base device's derivation from its architecture; its compute
  // units stay (its GEMMs run in waves over them, as the sweep timed them), its clocks go.
  hw.estimate = PeakEstimate{};
  hw.architecture.clock_ghz = hw.architecture.matrix_clock_ghz = 0;
  std::vector<MemoryTier> tiers;
  if (p[static_cast<int>(DseParam::SramMB)] > 0)
    tiers.push_back({"SRAM", p[static_cast<int>(DseParam::SramMB)] * 1e6, spec.sram_bandwidth_bytes_per_s, 0, MemoryTech::SRAM});
  MemoryTier main = wl.base.tiers[0];
  main.capacity_bytes = p[static_cast<int>(DseParam::CapacityGB)] * 1e9;
  // The reserve belongs to the main memory: with SRAM in front, it comes off the main tier's capacity here.
  if (!tiers.empty()) {
    main.capacity_bytes = std::max(0.0, main.capacity_bytes - hw.reserve_bytes);
    hw.reserve_bytes = 0;
  }
  main.bandwidth_bytes_per_s = p[static_cast<int>(DseParam::BandwidthGBps)] * 1e9;
  tiers.push_back(main);
  for (std::size_t i = 1; i < wl.base.tiers.size(); ++i) tiers.push_back(wl.base.tiers[i]);
  hw.tiers = tiers;
  hw.tdp_w = dse_point(wl, spec, p).values[static_cast<int>(DseObjective::PowerW)];
  hw.idle_w = 0;
  hw.price_usd = p[static_cast<int>(DseParam::PriceUSD)];
  char buf[160];
  const std::string sram = p[3] > 0 ? ", " + std::to_string(static_cast<long long>(p[3])) + " MB SRAM" : "";
  std::snprintf(buf, sizeof buf, "%.4g TFLOPS, %.4g GB/s, %.4g GB%s, %.4g W", p[0], p[1], p[2], sram.c_str(), hw.tdp_w);
  hw.id = "dse-point";
  hw.name = std::string("Design point (") + buf + ")";
  hw.source = "design-space exploration from " + wl.base.name + " (" + wl.base.id + ")";
  return hw;
}

}  // namespace infercast
