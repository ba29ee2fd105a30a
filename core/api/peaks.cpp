// Peaks in results: which peak an analysis ran at and whether it is estimated, a suggested peak for a device that
// has none, the architecture table and a device's derivation (docs/forecast.md, "Peaks: published and derived").
#include <algorithm>
#include <cmath>

#include "api/operations.hpp"
#include "api/request.hpp"
#include "api/result.hpp"
#include "analysis/steps.hpp"
#include "hardware/derive.hpp"
#include "io/defaults.hpp"
#include "io/fields.hpp"
#include "io/presets.hpp"

namespace infercast {

namespace {

std::string tflops_text(double flops) {
  const double t = round_estimate_tflops(flops);
  return number_text(json(t));
}

// The 16-bit peak a device has (bf16, else fp16), 0 when none.
double matrix16(const HardwareSpec& h) {
  const double bf = h.peak_flops[static_cast<std::size_t>(ComputeType::BF16)];
  return bf > 0 ? bf : h.peak_flops[static_cast<std::size_t>(ComputeType::FP16)];
}

// The first derived peak past the largest a device document takes (field::hw_peak_tflops), as "2.621e+10 TFLOPS
// bf16"; "" when every one is within it (a device could not hold the peak the derivation suggests).
std::string peak_past_range(const DerivedPeaks& d) {
  for (const auto* rates : {&d.flops, &d.flops_fp16_accumulate})
    for (std::size_t i = 0; i < 8; ++i)
      if ((*rates)[i] / 1e12 > field::hw_peak_tflops.hi)
        return number_text(json(round_estimate_tflops((*rates)[i]))) + " TFLOPS " + compute_type_name(static_cast<ComputeType>(i)) +
               (rates == &d.flops ? "" : " with FP16 accumulate");
  return "";
}

json rates_json(const std::array<double, 8>& flops) {
  json o = json::object();
  for (std::size_t i = 0; i < 8; ++i)
    if (flops[i] > 0) o[compute_type_name(static_cast<ComputeType>(i))] = round_estimate_tflops(flops[i]);
  return o;
}

}  // namespace

void write_peak(JsonWriter& w, const Analysis& a, const HardwareSpec& hw) {
  // The peak of the type the first step's largest operator (by FLOPs) ran at.
  std::size_t best = 0;
  for (std::size_t i = 1; i < a.prefill.ops.size(); ++i)
    if (a.prefill.ops[i].flops > a.prefill.ops[best].flops) best = i;
  if (a.prefill.times.empty() || !hw.has_any_peak()) {
    w.begin_object().key("dtype").null().field("TFLOPS", 0).field("estimated", false).field("memory_only", true).end_object();
    return;
  }
  const ComputeType used = a.prefill.times[best].compute_used;
  const auto u = static_cast<std::size_t>(used);
  // On a CPU's vector units (a runtime that keeps the type off the matrix engine): their rate, which is derived.
  ComputeType matrix_type, on_vector;
  const bool vector = resolve_compute(hw, used, matrix_type) && vector_units(hw, a.execution.runtime, used, matrix_type, on_vector) &&
                      on_vector == used;
  w.begin_object().field("dtype", compute_type_name(used)).field("TFLOPS", (vector ? hw.peak_flops_vector[u] : hw.peak_flops[u]) / 1e12);
  w.field("estimated", vector || hw.peak_is_estimated(used)).field("memory_only", false);
  if (vector) w.field("units", "vector");
  if (hw.peak_flops_fp16_accumulate[u] > 0) w.field("fp16_accumulate_TFLOPS", hw.peak_flops_fp16_accumulate[u] / 1e12);
  if (vector || hw.peak_is_estimated(used)) w.field("derivation", hw.estimate.derivation).field("sources", hw.estimate.sources);
  w.end_object();
}

std::string peak_suggestion(const HardwareSpec& hw) {
  if (!hw.architecture.generation.empty()) {
    const Generation* g = find_generation(hw.architecture.generation);
    if (g) {
      if (const auto d = derive_peaks(hw, *g)) {
        const std::string past = peak_past_range(*d);
        if (!past.empty())
          return " Its architecture gives " + past + ", past the largest peak a device takes (" +
                 number_text(json(field::hw_peak_tflops.hi)) + " TFLOPS): check architecture/compute_units and clock_GHz.";
        for (ComputeType t : {ComputeType::BF16, ComputeType::FP16}) {
          const auto i = static_cast<std::size_t>(t);
          if (d->flops[i] <= 0) continue;
          return std::string(" Its architecture suggests ") + tflops_text(d->flops[i]) + " TFLOPS " + compute_type_name(t) + " (" +
                 d->arithmetic[i] + "); add it to peak_dense_TFLOPS, with peak_estimated saying so.";
        }
      }
      return " Its architecture gives no 16-bit rate: add architecture/compute_units and clock_GHz, or a peak to peak_dense_TFLOPS.";
    }
  }
  // The class's median ratio of 16-bit peak to first-tier bandwidth, at this device's bandwidth.
  const double bw = hw.tiers.empty() ? 0 : hw.tiers[0].bandwidth_bytes_per_s;
  std::vector<double> ratios;
  for (const auto& p : hardware_presets())
    if (p.device_class == hw.device_class && matrix16(p) > 0 && !p.tiers.empty()) ratios.push_back(matrix16(p) / p.tiers[0].bandwidth_bytes_per_s);
  const std::string whose = ratios.empty() ? "all presets" : "the " + hw.device_class + " presets";
  if (ratios.empty())
    for (const auto& p : hardware_presets())
      if (matrix16(p) > 0 && !p.tiers.empty()) ratios.push_back(matrix16(p) / p.tiers[0].bandwidth_bytes_per_s);
  std::sort(ratios.begin(), ratios.end());
  const double median = ratios[ratios.size() / 2];
  return " Add peak_dense_TFLOPS (bf16), or architecture {generation, compute_units, clock_GHz} to derive one; as a first guess, " +
         whose + " have a median of " + number_text(json(std::round(median))) + " bf16 FLOP per byte of bandwidth, about " +
         tflops_text(median * bw) + " TFLOPS at this device's " + number_text(json(bw / 1e9)) + " GB/s.";
}

json api_architectures(const json& request) {
  Reader(request, "", "request").reject_unknown();
  json rows = json::array();
  for (const auto& g : generation_table()) {
    json rates = json::object(), acc = json::object();
    for (std::size_t i = 0; i < 8; ++i) {
      const char* n = compute_type_name(static_cast<ComputeType>(i));
      if (g.flop_per_clock[i] > 0) rates[n] = g.flop_per_clock[i];
      if (g.flop_per_clock_fp16_accumulate[i] > 0) acc[n] = g.flop_per_clock_fp16_accumulate[i];
    }
    json row = {{"generation", g.key}, {"name", g.name}, {"unit", g.unit}, {"flop_per_clock", rates}, {"source", g.source}, {"trust", g.trust}};
    if (!acc.empty()) row["flop_per_clock_fp16_accumulate"] = acc;
    if (!g.accumulate.empty()) row["accumulate"] = g.accumulate;
    rows.push_back(row);
  }
  return {{"source", generation_source()}, {"generations", rows}};
}

json api_derive_peaks(const json& request) {
  Reader r(request, "", "request");
  HardwareSpec storage;
  const HardwareSpec* hw = resolve_hardware(r, storage);
  if (!hw) r.fail("hardware", "missing_field", "/hardware is missing; expected a preset id or a hardware object");
  r.reject_unknown();
  if (hw->architecture.generation.empty())
    throw InputError("request.missing_field", "/hardware/architecture",
                     "/hardware/architecture is missing; expected {generation, compute_units, clock_GHz} to derive peaks from");
  const Generation& g = *find_generation(hw->architecture.generation);
  const auto d = derive_peaks(*hw, g);
  if (!d)
    throw InputError("request.missing_field", "/hardware/architecture",
                     "/hardware/architecture has no compute_units and clock_GHz, and no published peak of a type " + g.key +
                         " has a rate for; expected one of them");
  const std::string past = peak_past_range(*d);
  if (!past.empty())
    throw InputError("request.out_of_range", "/hardware/architecture",
                     "/hardware/architecture gives " + past + ", past the largest peak a device document takes (" +
                         number_text(json(field::hw_peak_tflops.hi)) +
                         " TFLOPS); expected fewer compute_units or a lower clock_GHz");
  std::vector<ComputeType> all;
  json lines = json::object(), lines_acc = json::object();
  for (std::size_t i = 0; i < 8; ++i) {
    const char* n = compute_type_name(static_cast<ComputeType>(i));
    if (d->flops[i] > 0) {
      all.push_back(static_cast<ComputeType>(i));
      lines[n] = d->arithmetic[i];
    }
    if (d->flops_fp16_accumulate[i] > 0) lines_acc[n] = d->arithmetic_fp16_accumulate[i];
  }
  return {{"generation", g.key},
          {"name", g.name},
          {"trust", g.trust},
          {"method", d->method},
          {"peak_dense_TFLOPS", rates_json(d->flops)},
          {"peak_dense_TFLOPS_fp16_accumulate", rates_json(d->flops_fp16_accumulate)},
          {"derivation", derivation_text(*d, all)},
          {"arithmetic", lines},
          {"arithmetic_fp16_accumulate", lines_acc},
          {"source", g.source}};
}

}  // namespace infercast
