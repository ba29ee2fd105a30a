#include "cost/cost.hpp"

#include <algorithm>
#include <cmath>

namespace infercast {

const GridRegion* find_grid_region(const std::string& id) {
  for (const auto& r : grid_regions())
    if (r.id == id) return &r;
  return nullptr;
}

double grid_intensity(const CostAssumptions& a) {
  if (a.grid_g_per_kwh > 0) return a.grid_g_per_kwh;
  const GridRegion* g = find_grid_region(a.region);
  return g ? g->g_per_kwh : grid_regions()[0].g_per_kwh;
}

Ownership ownership(const CostAssumptions& a, double price_usd, double embodied_kgco2e, double busy_w, double static_w,
                    double e2e_s, double output_tokens) {
  return ownership_at(a, grid_intensity(a), price_usd, embodied_kgco2e, busy_w, static_w, e2e_s, output_tokens);
}

Ownership ownership_at(const CostAssumptions& a, double grid_g_per_kwh, double price_usd, double embodied_kgco2e,
                       double busy_w, double static_w, double e2e_s, double output_tokens) {
  Ownership o;
  const double hours = a.lifetime_years * 365.25 * 24;
  const double mean_w = a.utilization * busy_w + (1 - a.utilization) * static_w;
  o.hardware_usd_per_hour = price_usd > 0 && hours > 0 ? price_usd / hours : 0;
  o.energy_usd_per_hour = mean_w / 1000 * a.pue * a.usd_per_kwh;
  const double tokens_per_hour = e2e_s > 0 ? a.utilization * 3600 * output_tokens / e2e_s : 0;
  if (tokens_per_hour > 0) {
    o.usd_per_million_tokens = 1e6 * (o.hardware_usd_per_hour + o.energy_usd_per_hour) / tokens_per_hour;
    o.operational_g_per_million_tokens = 1e6 * (mean_w / 1000 * a.pue * grid_g_per_kwh) / tokens_per_hour;
    o.embodied_g_per_million_tokens = hours > 0 ? 1e6 * (embodied_kgco2e * 1000 / hours) / tokens_per_hour : 0;
  }
  return o;
}

EnergyModel energy_model(const HardwareSpec& hw, const CostAssumptions& a) {
  EnergyModel m;
  m.tdp_w = a.power_w > 0 ? a.power_w : hw.tdp_w;
  if (m.tdp_w <= 0) {
    m.why_not = hw.name + " has no published power (TDP); give the power in watts to estimate energy";
    return m;
  }
  if (hw.tiers.empty() || hw.tiers[0].bandwidth_bytes_per_s <= 0) {
    m.why_not = hw.name + " has no memory bandwidth";
    return m;
  }
  m.static_w = a.power_w <= 0 && hw.idle_w > 0 ? std::min(hw.idle_w, m.tdp_w) : a.static_fraction * m.tdp_w;
  const double dynamic = m.tdp_w - m.static_w;
  // At every compute type's peak the compute share of the dynamic power is drawn: J/FLOP = share / peak.
  for (std::size_t i = 0; i < 8; ++i) {
    ComputeType used;
    if (resolve_compute(hw, static_cast<ComputeType>(i), used))
      m.j_per_flop[i] = a.compute_power_fraction * dynamic / hw.peak_flops[static_cast<std::size_t>(used)];
  }
  // The first tier at full bandwidth draws the memory share; other tiers use their own energy_pJ_per_byte if
  // given, else the first tier's.
  const double first = (1 - a.compute_power_fraction) * dynamic / hw.tiers[0].bandwidth_bytes_per_s;
  for (std::size_t i = 0; i < hw.tiers.size(); ++i) {
    const double own = hw.tiers[i].energy_j_per_byte;
    m.j_per_byte.push_back(own > 0 ? own : first);
  }
  if (hw.tiers[0].energy_j_per_byte > 0) m.j_per_byte[0] = hw.tiers[0].energy_j_per_byte;
  m.available = true;
  return m;
}

namespace {

// Joules per byte of each kind, averaged over where that kind lives (placement shares).
double j_per_byte_of(const EnergyModel& m, const Analysis& a, std::size_t slot) {
  if (slot >= a.placement.size()) return m.j_per_byte.empty() ? 0 : m.j_per_byte[0];
  const auto& p = a.placement[slot].bytes_per_tier;
  double total = 0, weighted = 0;
  for (std::size_t i = 0; i < p.size() && i < m.j_per_byte.size(); ++i) {
    total += p[i];
    weighted += p[i] * m.j_per_byte[i];
  }
  return total > 0 ? weighted / total : m.j_per_byte[0];
}

PhaseEnergy phase_energy(const EnergyModel& m, const Analysis& a, const WorkSums& w, double seconds, double tokens) {
  PhaseEnergy e;
  for (std::size_t i = 0; i < 8; ++i) e.compute_j += w.flops_by_type[i] * m.j_per_flop[i];
  e.memory_j = w.weight_bytes * j_per_byte_of(m, a, 0) + w.kv_bytes * j_per_byte_of(m, a, 1) + w.act_bytes * j_per_byte_of(m, a, 2);
  e.static_j = m.static_w * seconds;
  e.joules = e.static_j + e.compute_j + e.memory_j;
  e.tokens = tokens;
  e.j_per_token = tokens > 0 ? e.joules / tokens : 0;
  e.tokens_per_j = e.joules > 0 ? tokens / e.joules : 0;
  e.avg_power_w = seconds > 0 ? e.joules / seconds : 0;
  return e;
}

}  // namespace

namespace {

// The price, grid and embodied carbon of `devices` devices, and what owning them costs per token.
void own(CostReport& r, const HardwareSpec& hw, const CostAssumptions& as, double devices, double seconds) {
  r.price_usd = (as.price_usd > 0 ? as.price_usd : hw.price_usd) * devices;
  r.has_price = r.price_usd > 0;
  if (!r.has_price)
    r.warnings.push_back({"cost.no_price", "/hardware/price_USD",
                          hw.name + " has no public price; give one to get the hardware share of the cost per token"});
  const GridRegion* g = find_grid_region(as.region);
  r.region = as.grid_g_per_kwh > 0 ? "custom" : (g ? g->id : "world");
  r.grid_g_per_kwh = grid_intensity(as);
  r.embodied_kgco2e = (as.embodied_kgco2e >= 0 ? as.embodied_kgco2e : hw.embodied_kgco2e) * devices;
  r.has_embodied = as.embodied_kgco2e >= 0 || hw.embodied_kgco2e > 0;
  if (!r.has_embodied)
    r.warnings.push_back({"cost.no_embodied", "/hardware/embodied_kgCO2e",
                          hw.name + " has no published embodied carbon; CO2 counts operation only until one is given"});
  const Ownership o = ownership(as, r.price_usd, r.embodied_kgco2e, r.model.available ? r.busy_power_w : 0,
                                r.model.available ? r.model.static_w * devices : 0, seconds, r.output_tokens);
  r.hardware_usd_per_hour = o.hardware_usd_per_hour;
  r.energy_usd_per_hour = o.energy_usd_per_hour;
  r.usd_per_hour = o.hardware_usd_per_hour + o.energy_usd_per_hour;
  r.usd_per_million_tokens = o.usd_per_million_tokens;
  r.operational_g_per_million_tokens = o.operational_g_per_million_tokens;
  r.embodied_g_per_million_tokens = o.embodied_g_per_million_tokens;
  r.g_per_million_tokens = o.operational_g_per_million_tokens + o.embodied_g_per_million_tokens;
}

void finish_phase(PhaseEnergy& e, double seconds) {
  e.joules = e.static_j + e.compute_j + e.memory_j;
  e.j_per_token = e.tokens > 0 ? e.joules / e.tokens : 0;
  e.tokens_per_j = e.joules > 0 ? e.tokens / e.joules : 0;
  e.avg_power_w = seconds > 0 ? e.joules / seconds : 0;
}

}  // namespace

CostReport plan_cost_report(const PlanForecast& f, const HardwareSpec& hw, const CostAssumptions& as) {
  CostReport r;
  r.model = energy_model(hw, as);
  const double tp = f.plan.tp, dp = f.plan.dp, devices = static_cast<double>(f.devices);
  const double per_replica = tp * f.plan.pp;
  const double B = f.stages.empty() ? 0 : f.stages.front().a.batch_requests;
  const double D = f.stages.empty() ? 0 : f.stages.front().a.decode_steps;
  r.output_tokens = B * (D + 1) * dp;
  const double decode_s = f.e2e_s - f.ttft_s;
  if (r.model.available) {
    for (const auto& st : f.stages) {
      const CostReport sr = cost_report(st.a, hw, as);
      r.prefill.compute_j += tp * dp * sr.prefill.compute_j;
      r.prefill.memory_j += tp * dp * sr.prefill.memory_j;
      r.decode.compute_j += tp * dp * sr.decode.compute_j;
      r.decode.memory_j += tp * dp * sr.decode.memory_j;
      if (&st == &f.stages.front()) {
        r.prefill.tokens = sr.prefill.tokens * dp;
        r.decode.tokens = sr.decode.tokens * dp;
      }
    }
    // Speculative decoding: the decode is D / E verification steps, each with gamma draft steps, not D plain steps.
    if (f.spec.enabled && f.spec.verify_work.size() == f.stages.size() && f.spec.tokens_per_step > 0) {
      const double steps = D / f.spec.tokens_per_step;
      r.decode.compute_j = r.decode.memory_j = 0;
      for (std::size_t i = 0; i < f.stages.size(); ++i) {
        const PhaseEnergy v = phase_energy(r.model, f.stages[i].a, f.spec.verify_work[i], 0, 0);
        r.decode.compute_j += tp * dp * steps * v.compute_j;
        r.decode.memory_j += tp * dp * steps * v.memory_j;
      }
      const PhaseEnergy d = phase_energy(r.model, f.stages.front().a, f.spec.draft_work, 0, 0);
      const double drafts = steps * f.spec.draft_tokens * f.spec.draft_tp * dp;
      r.decode.compute_j += drafts * d.compute_j;
      r.decode.memory_j += drafts * d.memory_j;
    }
    r.prefill.static_j = r.model.static_w * per_replica * dp * f.ttft_s;
    r.decode.static_j = r.model.static_w * per_replica * dp * decode_s;
    finish_phase(r.prefill, f.ttft_s);
    finish_phase(r.decode, decode_s);
    r.joules_per_request_batch = r.prefill.joules + r.decode.joules;
    r.busy_power_w = f.e2e_s > 0 ? r.joules_per_request_batch / f.e2e_s : 0;
  } else {
    r.warnings.push_back({"cost.no_power", "/hardware/tdp_W", r.model.why_not});
  }
  own(r, hw, as, devices, f.e2e_s);
  return r;
}

CostReport work_cost_report(const HardwareSpec& hw, const CostAssumptions& as, int devices, double compute_s,
                            double memory_s, double seconds, double output_tokens) {
  CostReport r;
  r.model = energy_model(hw, as);
  r.output_tokens = output_tokens;
  if (r.model.available) {
    const double dynamic = r.model.tdp_w - r.model.static_w;
    const double bw = hw.tiers.front().bandwidth_bytes_per_s;
    r.decode.compute_j = as.compute_power_fraction * dynamic * compute_s;
    r.decode.memory_j = r.model.j_per_byte.front() * bw * memory_s;
    r.decode.static_j = r.model.static_w * devices * seconds;
    r.decode.tokens = output_tokens;
    finish_phase(r.decode, seconds);
    r.joules_per_request_batch = r.decode.joules;
    r.busy_power_w = r.decode.avg_power_w;
  } else {
    r.warnings.push_back({"cost.no_power", "/hardware/tdp_W", r.model.why_not});
  }
  own(r, hw, as, devices, seconds);
  return r;
}

CostReport cost_report(const Analysis& a, const HardwareSpec& hw, const CostAssumptions& as) {
  CostReport r;
  r.model = energy_model(hw, as);
  const double prompt_tokens = a.prefill.tokens;
  r.output_tokens = a.batch_requests * (a.decode_steps + 1);  // the first token comes from the prefill
  if (r.model.available) {
    r.prefill = phase_energy(r.model, a, a.prefill_work, a.ttft_s, prompt_tokens);
    r.decode = phase_energy(r.model, a, a.decode_work, a.decode_time_s, a.batch_requests * a.decode_steps);
    r.joules_per_request_batch = r.prefill.joules + r.decode.joules;
    r.busy_power_w = a.e2e_s > 0 ? r.joules_per_request_batch / a.e2e_s : 0;
  } else {
    r.warnings.push_back({"cost.no_power", "/hardware/tdp_W", r.model.why_not});
  }
  r.price_usd = as.price_usd > 0 ? as.price_usd : hw.price_usd;
  r.has_price = r.price_usd > 0;
  if (!r.has_price)
    r.warnings.push_back({"cost.no_price", "/hardware/price_USD",
                          hw.name + " has no public price; give one to get the hardware share of the cost per token"});
  const GridRegion* g = find_grid_region(as.region);
  r.region = as.grid_g_per_kwh > 0 ? "custom" : (g ? g->id : "world");
  r.grid_g_per_kwh = grid_intensity(as);
  r.embodied_kgco2e = as.embodied_kgco2e >= 0 ? as.embodied_kgco2e : hw.embodied_kgco2e;
  r.has_embodied = as.embodied_kgco2e >= 0 || hw.embodied_kgco2e > 0;
  if (!r.has_embodied)
    r.warnings.push_back({"cost.no_embodied", "/hardware/embodied_kgCO2e",
                          hw.name + " has no published embodied carbon; CO2 counts operation only until one is given"});
  // Without an energy model the electricity share is 0 (and said so above).
  const Ownership o = ownership(as, r.price_usd, r.embodied_kgco2e, r.model.available ? r.busy_power_w : 0,
                                r.model.available ? r.model.static_w : 0, a.e2e_s, r.output_tokens);
  r.hardware_usd_per_hour = o.hardware_usd_per_hour;
  r.energy_usd_per_hour = o.energy_usd_per_hour;
  r.usd_per_hour = o.hardware_usd_per_hour + o.energy_usd_per_hour;
  r.usd_per_million_tokens = o.usd_per_million_tokens;
  r.operational_g_per_million_tokens = o.operational_g_per_million_tokens;
  r.embodied_g_per_million_tokens = o.embodied_g_per_million_tokens;
  r.g_per_million_tokens = o.operational_g_per_million_tokens + o.embodied_g_per_million_tokens;
  return r;
}

}  // namespace infercast
