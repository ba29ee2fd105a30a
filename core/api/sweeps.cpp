// Sweeps: the quantization sweep, the design-space sweep and its Pareto front, a design point as a device, and
// LIFE's t_c/t_m map.
#include "api/operations.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

#include "analysis/work.hpp"
#include "api/options.hpp"
#include "api/request.hpp"
#include "api/result.hpp"
#include "dse/dse.hpp"
#include "io/defaults.hpp"
#include "io/hardware_json.hpp"
#include "api/version.hpp"
#include "util/limits.hpp"

namespace infercast {

namespace {

// One sweep axis: {"param": name, "values": [...]} or {"param": name, "min", "max", "steps", "scale": "log"|"linear"}.
DseAxis read_axis(Reader& ar) {
  DseAxis ax;
  ax.param = dse_param_names().parse(ar.string("param"), ar.child_path("param"), ar.code_prefix() + ".out_of_range");
  const double hi_limit = 1e12;
  if (ar.has("values")) {
    const json* v = ar.raw("values");
    if (!v->is_array() || v->empty() || v->size() > 10000)
      ar.fail("values", "wrong_type", ar.child_path("values") + " holds " + describe(*v) + "; expected an array of 1 to 10000 numbers");
    for (std::size_t i = 0; i < v->size(); ++i) {
      const json& x = (*v)[i];
      const std::string path = ar.child_path("values") + "/" + std::to_string(i);
      if (!x.is_number() || !std::isfinite(x.get<double>()) || x.get<double>() < 0 || x.get<double>() > hi_limit)
        throw InputError(ar.code_prefix() + ".out_of_range", path, path + " holds " + describe(x) + "; expected a number from 0 to 1000000000000");
      ax.values.push_back(x.get<double>());
    }
    for (const char* k : {"min", "max", "steps", "scale"})
      if (ar.has(k)) ar.fail(k, "conflict", ar.child_path(k) + " cannot be combined with " + ar.child_path("values") + "; give a list or a range");
  } else {
    const double lo = ar.number_in_or("min", 0, hi_limit, -1), hi = ar.number_in_or("max", 0, hi_limit, -1);
    if (lo < 0) ar.fail("min", "missing_field", ar.child_path("min") + " is missing; expected values, or min, max and steps");
    if (hi < lo) ar.fail("max", "out_of_range", ar.child_path("max") + " holds " + number_text(json(hi)) + "; expected at least min (" + number_text(json(lo)) + ")");
    const std::int64_t steps = read_field(ar, field::axis_steps);
    const std::string scale = ar.string_or("scale", "log");
    if (scale != "log" && scale != "linear")
      ar.fail("scale", "out_of_range", ar.child_path("scale") + " holds " + quote_text(scale, 200) + "; expected log or linear");
    if (scale == "log" && lo <= 0) ar.fail("min", "out_of_range", ar.child_path("min") + " holds 0; a log scale needs min above 0");
    for (std::int64_t i = 0; i < steps; ++i) {
      const double t = steps == 1 ? 0 : static_cast<double>(i) / static_cast<double>(steps - 1);
      ax.values.push_back(scale == "log" ? lo * std::pow(hi / lo, t) : lo + (hi - lo) * t);
    }
  }
  ar.reject_unknown();
  return ax;
}

void write_dse_point(JsonWriter& w, const DsePoint& p, std::int64_t id) {
  w.begin_object().field("id", id).key("params").begin_object();
  for (int i = 0; i < kDseParams; ++i) w.field(dse_param_name(static_cast<DseParam>(i)), p.params[i]);
  w.end_object().key("objectives").begin_object();
  for (int i = 0; i < kDseObjectives; ++i) w.field(dse_objective_name(static_cast<DseObjective>(i)), finite(p.values[i]));
  w.end_object().end_object();
}

// The range a design parameter takes: the device document's for the same quantity (io/fields.cpp); capacity and
// SRAM may be 0 (nothing fits), compute and bandwidth not.
std::pair<double, double> param_range(DseParam p) {
  switch (p) {
    case DseParam::ComputeTflops: return {field::hw_peak_tflops.lo, field::hw_peak_tflops.hi};
    case DseParam::BandwidthGBps: return {field::hw_tier_bandwidth_gbps.lo, field::hw_tier_bandwidth_gbps.hi};
    case DseParam::CapacityGB: return {0, field::hw_tier_capacity_gb.hi};
    case DseParam::SramMB: return {0, field::hw_tier_capacity_gb.hi};
    case DseParam::PowerW: return {0.01, field::hw_tdp_w.hi};  // 0 W would make every point's energy and cost 0
    case DseParam::PriceUSD: return {0, field::hw_price_usd.hi};
  }
  return {0, 0};
}


}  // namespace

// Throughput and memory against weight and KV formats: the analyze request with every weight class stored in each
// format of sweep.weights (a llama.cpp file type gives each tensor its own) and the cache in each of sweep.kv
// (docs/schema.md, "quant_sweep"). With several devices (or speculative decoding) each row is the plan's forecast.
json api_quant_sweep(const json& request, Run run) {
  Reader r(request, "", "request");
  Inputs in;
  read_inputs(r, in);
  ResolvedModel& rm = in.rm;
  const Scenario* sc = in.sc;
  MultiInputs mi;
  read_multi(r, in, mi, false);
  const HardwareSpec* hw = in.hw;
  OffloadSpec off;
  const bool offload = read_offload(r, hw, off);
  if (offload && mi.active)
    r.fail("offload", "conflict", "/offload keeps layers in host memory next to one device; it cannot be combined with "
                                  "/system, /parallel or /speculative");
  const Workload base = read_workload(r, rm.spec, sc, in.hw, in.rt);
  const CostAssumptions costs = read_costs(r);
  static const json kNone = json::object();
  Reader sr = r.has("sweep") ? r.object("sweep") : Reader(kNone, "/sweep", "request");
  if (!r.has("sweep")) r.raw("sweep");
  const auto weights =
      weight_format_list(sr, "weights", {"fp32", "bf16", "int8", "q8_0", "q6_k", "q5_k_m", "q4_k_m", "int4-g128", "q3_k_m", "int2"});
  const auto kvs = dtype_list(sr, "kv", {"bf16", "int8", "int4"});
  sr.reject_unknown();
  r.reject_unknown();
  if (run == Run::check) return nullptr;
  settle_default_plan(mi, rm.spec, base);  // once, for the request's own formats: every row runs the same plan
  // Each format runs the forecast's analyses: a plan's stages, or an offload split's tries.
  const double formats = static_cast<double>(weights.size() * kvs.size());
  const double analyses = formats * (offload ? offload_analyses(rm.spec) : plan_analyses(mi));
  check_call_work(mi, rm.spec, base, analyses, "the quantization sweep");

  json rows = json::array();
  for (const std::string& wt : weights) {
    for (const DType& kv : kvs) {
      Workload w = base;
      apply_weight_format(w.settings.precision, rm.spec, wt);
      w.settings.precision.kv = kv;
      OffloadResult split;
      const Analysis a = offload ? analyze_offloaded(rm.spec, w, *hw, off, split) : analyze(rm.spec, w, hw);
      json row = {{"weights", wt},
                  {"weight_bits", w.settings.precision.weights.bits_per_element},
                  {"kv", kv.name},
                  {"kv_bits", kv.bits_per_element},
                  {"weights_bytes", a.weights_bytes},
                  {"kv_cache_bytes", a.kv_cache_bytes},
                  {"required_bytes", a.memory_required_bytes},
                  {"prefill_flops", a.prefill.totals.flops},
                  {"decode_flops_per_token", a.decode_flops_per_token}};
      if (mi.active) {
        // The plan: memory per device, its TTFT, TPOT and throughput (all replicas).
        const PlanForecast f = forecast_plan(rm.spec, w, mi.sys, mi.plan, mi.spec);
        row["fits"] = f.fits;
        row["required_bytes"] = f.device_required_bytes;
        row["ttft_s"] = finite(f.ttft_s);
        row["tpot_s"] = finite(f.tpot_mean_s);
        row["tokens_per_s"] = finite(f.tokens_per_s);
        row["batch_tokens_per_s"] = finite(f.total_tokens_per_s);
        row["max_batch"] = f.max_batch;
        row["decode_bound"] = phase_bound(f.stages.front().a.decode);
        row["lower_bound"] = lower_bound(f.warnings);
      } else if (a.has_hardware) {
        row["fits"] = a.fits;
        row["ttft_s"] = finite(a.ttft_s);
        row["tpot_s"] = finite(a.tpot_mean_s);
        row["tokens_per_s"] = finite(a.tokens_per_s);
        row["batch_tokens_per_s"] = finite(a.batch_tokens_per_s);
        row["max_batch"] = a.max_batch;
        row["max_context"] = a.max_context;
        row["decode_bound"] = phase_bound(a.decode);
        row["lower_bound"] = lower_bound(a.warnings);
        if (offload) {
          row["gpu_layers"] = split.gpu_layers;
          rows.push_back(row);
          continue;
        }
        const CostReport c = cost_report(a, *hw, costs);
        if (c.model.available) row["decode_j_per_token"] = c.decode.j_per_token;
        row["usd_per_million_tokens"] = usd_known(c) ? json(c.usd_per_million_tokens) : json(nullptr);
        row["gCO2e_per_million_tokens"] = co2_known(c) ? json(c.g_per_million_tokens) : json(nullptr);
      }
      rows.push_back(row);
    }
  }
  json out = {{"model", rm.spec.name.empty() ? rm.id : rm.spec.name},
              {"scenario", sc ? json(sc->name) : json(nullptr)},
              {"activations", base.settings.precision.activations.name},
              {"rows", rows}};
  if (hw) out["hardware"] = hw->name;
  if (mi.active) {
    out["plan"] = plan_brief(mi.plan);
    out["system"] = mi.sys.name;
  }
  return out;
}


// Design-space exploration (docs/schema.md, "sweep").
void api_sweep(const json& request, JsonWriter& out, Run run) {
  Reader r(request, "", "request");
  Inputs in;
  read_inputs(r, in);
  ResolvedModel& rm = in.rm;
  const Scenario* sc = in.sc;
  HardwareSpec& hw_storage = in.hw_storage;
  const HardwareSpec*& hw = in.hw;
  if (!hw) r.fail("hardware", "missing_field", "/hardware is missing; expected the base device the sweep varies (a preset id or a hardware object)");
  const Workload w = read_workload(r, rm.spec, sc, hw, in.rt);
  DseSpec spec;
  spec.costs = read_costs(r);
  std::set<int> seen;
  for (auto& ar : r.object_array("axes")) {
    DseAxis ax = read_axis(ar);
    if (!seen.insert(static_cast<int>(ax.param)).second)
      ar.fail("param", "conflict", ar.child_path("param") + " holds " + quote_text(dse_param_name(ax.param), 200) + ", which an earlier axis already sweeps");
    spec.axes.push_back(ax);
  }
  if (spec.axes.size() > 5) r.fail("axes", "out_of_range", "/axes holds " + std::to_string(spec.axes.size()) + " axes; expected 1 to 5");
  double total = 1;
  for (const auto& a : spec.axes) total *= static_cast<double>(a.values.size());
  if (total > limit::kSweepPoints)
    r.fail("axes", "out_of_range", "/axes make " + number_text(json(total)) + " points; expected at most " + number_text(json(limit::kSweepPoints)));
  const std::vector<std::string> objs = r.has("objectives") ? r.string_array_or("objectives") : std::vector<std::string>{"tpot_s", "usd_per_million_tokens"};
  if (!r.has("objectives")) r.raw("objectives");
  std::set<int> oseen;
  for (std::size_t i = 0; i < objs.size(); ++i) {
    const std::string path = "/objectives/" + std::to_string(i);
    const DseObjective o = dse_objective_names().parse(objs[i], path, "request.out_of_range");
    if (!oseen.insert(static_cast<int>(o)).second)
      throw InputError("request.conflict", path, path + " holds " + quote_text(objs[i], 200) + " twice; expected distinct objectives");
    spec.objectives.push_back(o);
  }
  if (spec.objectives.size() < 2 || spec.objectives.size() > 4)
    r.fail("objectives", "out_of_range", "/objectives names " + std::to_string(spec.objectives.size()) +
                                             (spec.objectives.size() == 1 ? " objective" : " objectives") + "; expected 2 to 4");
  if (r.has("constraints")) {
    Reader c = r.object("constraints");
    spec.constraints.must_fit = c.boolean_or("must_fit", true);
    spec.constraints.max_tpot_s = read_field(c, field::max_tpot_s);
    spec.constraints.max_ttft_s = read_field(c, field::max_ttft_s);
    spec.constraints.max_power_w = read_field(c, field::max_power_w);
    c.reject_unknown();
  } else {
    r.raw("constraints");
  }
  spec.sram_bandwidth_bytes_per_s = read_field(r, field::sram_bandwidth_gbps) * 1e9;
  if (seen.count(static_cast<int>(DseParam::SramMB)) && spec.sram_bandwidth_bytes_per_s <= 0)
    r.fail("sram_bandwidth_GBps", "missing_field", "/sram_bandwidth_GBps is missing; an axis sweeps sram_MB, so give the on-chip SRAM's bandwidth");
  spec.keep_points = read_field(r, field::keep_points);
  if (r.has("part")) {
    Reader pr = r.object("part");
    spec.part_count = read_field(pr, field::part_of);
    spec.part_index = read_field(pr, field::part_index);
    pr.reject_unknown();
    if (spec.part_index >= spec.part_count)
      pr.fail("index", "out_of_range", "/part/index holds " + std::to_string(spec.part_index) + "; expected below /part/of (" +
                                           std::to_string(spec.part_count) + ")");
  } else {
    r.raw("part");
  }
  const TableLayout layout = read_enum(r, "layout", table_layout_names(), TableLayout::Rows);
  r.reject_unknown();
  // Each parameter within the range a device document allows for it (io/fields.cpp), so every point stays finite.
  for (const auto& a : spec.axes) {
    const auto [lo, hi] = param_range(a.param);
    for (double v : a.values)
      if (v < lo || v > hi)
        throw InputError("request.out_of_range", "/axes", std::string("/axes: ") + dse_param_name(a.param) + " holds " +
                                                              number_text(json(v)) + "; expected values from " +
                                                              number_text(json(lo)) + " to " + number_text(json(hi)));
  }

  spec.derive_power = !seen.count(static_cast<int>(DseParam::PowerW));
  if (spec.derive_power && energy_model(*hw, spec.costs).available == false)
    r.fail("axes", "missing_field", "/axes: " + hw->name + " has no published power to scale; sweep power_W or give costs.power_W");
  if (run == Run::check) {
    out.null();
    return;
  }
  // An assumed price or power is the base device's price_USD or power_W parameter (the base point shows it).
  if (spec.costs.price_usd > 0 || spec.costs.power_w > 0) {
    HardwareSpec priced = *hw;
    if (spec.costs.price_usd > 0) priced.price_usd = spec.costs.price_usd;
    if (spec.costs.power_w > 0) priced.tdp_w = spec.costs.power_w;
    hw_storage = priced;
    hw = &hw_storage;
  }
  const DseWorkload wl = dse_prepare(rm.spec, w, *hw, spec.costs);
  const DseResult res = dse_run(wl, spec);
  std::vector<Warning> warns;
  if (hw->price_usd <= 0 && !seen.count(static_cast<int>(DseParam::PriceUSD)) && spec.costs.price_usd <= 0)
    warns.push_back({"cost.no_price", "/hardware/price_USD", hw->name + " has no public price: cost per token counts electricity only; sweep price_USD or give costs.price_USD"});
  if (hw->embodied_kgco2e <= 0 && spec.costs.embodied_kgco2e < 0)
    warns.push_back({"cost.no_embodied", "/hardware/embodied_kgCO2e", hw->name + " has no published embodied carbon; CO2 counts operation only"});
  out.begin_object().field("schema_version", kSchemaVersion).field("version", kVersion);
  out.field("model", rm.spec.name.empty() ? rm.id : rm.spec.name).key("warnings");
  write_warnings(out, warns);
  out.field("derived_power", spec.derive_power).key("base").begin_object().field("id", hw->id).field("name", hw->name);
  out.key("params").begin_object();
  const auto bp = dse_base_params(*hw);
  for (int i = 0; i < kDseParams; ++i) out.field(dse_param_name(static_cast<DseParam>(i)), bp[i]);
  out.end_object().end_object().key("axes").begin_array();
  for (const auto& a : spec.axes) {
    out.begin_object().field("param", dse_param_name(a.param)).key("values").begin_array();
    for (double x : a.values) out.value(x);
    out.end_array().end_object();
  }
  out.end_array().key("objectives").begin_array();
  for (auto o : spec.objectives) out.value(dse_objective_name(o));
  out.end_array();
  out.field("points", res.points).field("evaluated", res.evaluated).field("feasible", res.feasible);
  out.key("part").begin_object().field("index", spec.part_index).field("of", spec.part_count).end_object();
  out.key("front").begin_array();
  for (std::size_t i = 0; i < res.front.size(); ++i) write_dse_point(out, res.front[i], res.front_ids[i]);
  out.end_array();
  // The sample as columns: one array per parameter and objective (Float64Arrays through callColumns with layout
  // "columns"), and each point's index.
  const bool side = layout == TableLayout::Columns;
  std::vector<double> col(res.sample.size());
  const auto column = [&](const std::string& at, auto get) {
    for (std::size_t i = 0; i < res.sample.size(); ++i) col[i] = get(i);
    if (side) out.f64_column(at, col);
    else {
      out.begin_array();
      for (double x : col) out.value(x);
      out.end_array();
    }
  };
  out.key("sample").begin_object().key("params").begin_object();
  for (int p = 0; p < kDseParams; ++p) {
    const char* name = dse_param_name(static_cast<DseParam>(p));
    out.key(name);
    column(std::string("/sample/params/") + name, [&](std::size_t i) { return res.sample[i].params[p]; });
  }
  out.end_object().key("objectives").begin_object();
  for (int o = 0; o < kDseObjectives; ++o) {
    const char* name = dse_objective_name(static_cast<DseObjective>(o));
    out.key(name);
    column(std::string("/sample/objectives/") + name, [&](std::size_t i) { return finite(res.sample[i].values[o]); });
  }
  out.end_object().key("id");
  column("/sample/id", [&](std::size_t i) { return static_cast<double>(res.sample_ids[i]); });
  out.field("count", res.sample.size()).end_object().end_object();
}

// A design point as a hardware document (to keep as a custom device).
json api_dse_device(const json& request) {
  Reader r(request, "", "request");
  HardwareSpec hw_storage;
  const HardwareSpec* hw = resolve_hardware(r, hw_storage);
  if (!hw) r.fail("hardware", "missing_field", "/hardware is missing; expected the base device of the sweep");
  Reader pr = r.object("params");
  std::array<double, kDseParams> p = dse_base_params(*hw);
  for (int i = 0; i < kDseParams; ++i) {
    const auto [lo, hi] = param_range(static_cast<DseParam>(i));
    p[i] = pr.number_in_or(dse_param_name(static_cast<DseParam>(i)), lo, hi, p[i]);
  }
  pr.reject_unknown();
  DseSpec spec;
  spec.sram_bandwidth_bytes_per_s = read_field(r, field::sram_bandwidth_gbps) * 1e9;
  spec.derive_power = !pr.has("power_W");
  spec.costs = read_costs(r);
  r.reject_unknown();
  if (p[0] <= 0 || p[1] <= 0) throw InputError("request.out_of_range", "/params", "/params: compute_TFLOPS and bandwidth_GBps must be above 0");
  if (p[static_cast<int>(DseParam::SramMB)] > 0 && spec.sram_bandwidth_bytes_per_s <= 0)
    r.fail("sram_bandwidth_GBps", "missing_field", "/sram_bandwidth_GBps is missing; the point has SRAM, so give its bandwidth");
  check_dse_base(*hw);  // as the sweep: a base without a peak or memory has nothing to scale
  const DseWorkload wl = dse_base(*hw, spec.costs);
  HardwareSpec d = dse_device(wl, spec, p);
  d.default_runtime = default_runtime_id(*hw);  // a design runs what its base device runs
  // The document is kept as a custom device, so it must read back as one: its main memory within a tier's range
  // (the sweep may take capacity 0, a point where nothing fits; a device cannot), and everything else checked by
  // reading it back.
  const bool sram = p[static_cast<int>(DseParam::SramMB)] > 0;
  const MemoryTier& main = d.tiers[sram ? 1 : 0];
  const double unit = main.capacity_in_gib ? 1073741824.0 : 1e9;
  if (main.capacity_bytes / unit < field::hw_tier_capacity_gb.lo || d.reserve_bytes > main.capacity_bytes) {
    // The least capacity_GB that would do: the tier's least, and the driver's reserve beside it (SRAM in front moves
    // the reserve onto the main tier) or within it.
    const double reserve_gb = hw->reserve_bytes / 1e9;
    const double tier_gb = field::hw_tier_capacity_gb.lo * unit / 1e9;
    char least[32];
    std::snprintf(least, sizeof least, "%.10g", sram ? reserve_gb + tier_gb : std::max(reserve_gb, tier_gb));
    pr.fail("capacity_GB", "out_of_range",
            pr.child_path("capacity_GB") + " holds " + number_text(json(p[static_cast<int>(DseParam::CapacityGB)])) +
                "; a device's main memory holds at least " + number_text(json(field::hw_tier_capacity_gb.lo)) +
                (main.capacity_in_gib ? " GiB" : " GB") + (sram ? " beside" : " and") + " the driver's reserve of " +
                number_text(json(reserve_gb)) + " GB" + (sram ? ", which the SRAM in front moves onto it" : "") +
                ": expected at least " + least + " GB");
  }
  json doc = hardware_to_json(d);
  try {
    parse_hardware(doc);
  } catch (const InputError& e) {
    throw InputError("request.out_of_range", "/params",
                     "/params: the design point's device does not read back as a device document (" + std::string(e.what()) +
                         "); expected parameters within the document's ranges");
  }
  return doc;
}

// LIFE's Fig. 4: t_c / t_m of the prefill (and of the first decode step) over a grid of compute and bandwidth,
// at the given efficiencies. t_c = sum of FLOPs / (TOPS x compute efficiency); t_m = bytes / (bandwidth x memory
// efficiency). Above 1 the phase is compute-bound.
json api_tc_tm_map(const json& request, Run run) {
  Reader r(request, "", "request");
  ResolvedModel rm = resolve_model(r);
  const Scenario* sc = read_scenario(r);
  apply_mla_conversion(r, rm.spec, sc);
  const Workload w = read_workload(r, rm.spec, sc);
  Reader cr = r.object("compute_TOPS");
  const auto range = [&](Reader& rr) {
    std::vector<double> v;
    const double lo = rr.number_in_or("min", 1e-6, 1e9, -1), hi = rr.number_in_or("max", 1e-6, 1e9, -1);
    if (lo < 0) rr.fail("min", "missing_field", rr.child_path("min") + " is missing; expected a number above 0");
    if (hi < lo) rr.fail("max", "out_of_range", rr.child_path("max") + " is missing or below min; expected a number at least min");
    const std::int64_t n = read_field(rr, field::map_steps);
    for (std::int64_t i = 0; i < n; ++i) v.push_back(lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(n - 1));
    rr.reject_unknown();
    return v;
  };
  const auto tops = range(cr);
  Reader br = r.object("bandwidth_GBps");
  const auto bws = range(br);
  const double ce = read_field(r, field::compute_efficiency), me = read_field(r, field::memory_efficiency);
  r.reject_unknown();
  if (run == Run::check) return nullptr;
  const Analysis a = analyze(rm.spec, w, nullptr);
  const auto map = [&](const PhaseTotals& t) {
    json rows = json::array();
    for (double bw : bws) {
      json row = json::array();
      for (double c : tops) row.push_back(tc_over_tm(t, c * 1e12 * ce, bw * 1e9 * me));
      rows.push_back(row);
    }
    return rows;
  };
  return {{"compute_TOPS", tops}, {"bandwidth_GBps", bws}, {"compute_efficiency", ce}, {"memory_efficiency", me},
          {"prefill", {{"flops", a.prefill.totals.flops}, {"bytes", a.prefill.totals.bytes()}, {"tc_over_tm", map(a.prefill.totals)}}},
          {"decode", {{"flops", a.decode.totals.flops}, {"bytes", a.decode.totals.bytes()}, {"tc_over_tm", map(a.decode.totals)}}}};
}

}  // namespace infercast
