#include "io/hardware_json.hpp"

#include "io/fields.hpp"

namespace infercast {

namespace {
const char* kPeakKeys[] = {"fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4", "int4"};
}

HardwareSpec parse_hardware(const json& doc, const std::string& path) {
  Reader r(doc, path, "hardware");
  HardwareSpec hw;
  const auto version = r.positive_int("schema_version");
  if (version != 1)
    r.fail("schema_version", "unsupported", r.child_path("schema_version") + " holds " + std::to_string(version) + "; expected 1");
  hw.id = r.string("id");
  hw.name = r.string("name");
  hw.vendor = r.string_or("vendor", "");
  hw.device_class = r.string("class");
  bool known = false;
  for (const auto& c : device_classes()) known = known || c == hw.device_class;
  if (!known) {
    std::string list;
    for (const auto& c : device_classes()) list += (list.empty() ? "" : ", ") + c;
    r.fail("class", "out_of_range", r.child_path("class") + " holds \"" + hw.device_class + "\"; expected one of " + list);
  }
  hw.source = r.string("source");
  r.string_or("notes", "");
  r.nonneg_int_or("launch_year", 0);
  {
    // A key present must hold a positive peak; a data type the device has no published peak for is left out.
    // With no peak at all the forecaster times memory and dispatch only, and says so in a warning.
    Reader peaks = r.object("peak_dense_TFLOPS");
    for (std::size_t i = 0; i < 8; ++i) hw.peak_flops[i] = read_field_at(peaks, field::hw_peak_tflops, kPeakKeys[i], 0) * 1e12;
    peaks.reject_unknown();
  }
  for (auto& t : r.object_array("memory_tiers")) {
    MemoryTier tier;
    tier.name = t.string("name");
    tier.capacity_bytes = read_required(t, field::hw_tier_capacity_gb) * 1e9;
    tier.bandwidth_bytes_per_s = read_required(t, field::hw_tier_bandwidth_gbps) * 1e9;
    tier.energy_j_per_byte = read_field(t, field::hw_tier_energy_pj) * 1e-12;
    t.reject_unknown();
    hw.tiers.push_back(tier);
  }
  // Ranges: io/fields.cpp (every result stays finite within them).
  hw.interconnect_bytes_per_s = read_field(r, field::hw_interconnect_gbps) * 1e9;
  hw.tdp_w = read_field(r, field::hw_tdp_w);
  hw.idle_w = read_field(r, field::hw_idle_w);
  hw.price_usd = read_field(r, field::hw_price_usd);
  hw.embodied_kgco2e = read_field(r, field::hw_embodied_kgco2e);
  hw.eff = default_efficiencies(hw.device_class);
  if (r.has("efficiency")) {
    Reader e = r.object("efficiency");
    // Ranges from io/fields.cpp; the default is the device class's own value.
    const auto eff = [&](const NumberField& f, double current) { return e.number_in_or(f.key(), f.lo, f.hi, current); };
    hw.eff.gemm = eff(field::eff_gemm, hw.eff.gemm);
    hw.eff.attention = eff(field::eff_attention, hw.eff.attention);
    hw.eff.elementwise = eff(field::eff_elementwise, hw.eff.elementwise);
    hw.eff.memory = eff(field::eff_memory, hw.eff.memory);
    hw.eff.dispatch_s = eff(field::eff_dispatch_us, hw.eff.dispatch_s * 1e6) * 1e-6;
    e.reject_unknown();
  } else {
    r.raw("efficiency");
  }
  r.reject_unknown();
  return hw;
}

json hardware_to_json(const HardwareSpec& hw) {
  json peaks = json::object();
  for (std::size_t i = 0; i < 8; ++i)
    if (hw.peak_flops[i] > 0) peaks[kPeakKeys[i]] = hw.peak_flops[i] / 1e12;
  json tiers = json::array();
  for (const auto& t : hw.tiers)
    tiers.push_back({{"name", t.name},
                     {"capacity_GB", t.capacity_bytes / 1e9},
                     {"bandwidth_GBps", t.bandwidth_bytes_per_s / 1e9},
                     {"energy_pJ_per_byte", t.energy_j_per_byte * 1e12}});
  return {{"schema_version", 1},
          {"id", hw.id},
          {"name", hw.name},
          {"vendor", hw.vendor},
          {"class", hw.device_class},
          {"source", hw.source},
          {"peak_dense_TFLOPS", peaks},
          {"memory_tiers", tiers},
          {"interconnect_GBps", hw.interconnect_bytes_per_s / 1e9},
          {"tdp_W", hw.tdp_w},
          {"idle_W", hw.idle_w},
          {"price_USD", hw.price_usd},
          {"embodied_kgCO2e", hw.embodied_kgco2e},
          {"efficiency", efficiency_to_json(hw.eff)}};
}

json efficiency_to_json(const Efficiencies& e) {
  return {{"gemm", e.gemm},
          {"attention", e.attention},
          {"elementwise", e.elementwise},
          {"memory", e.memory},
          {"dispatch_us", e.dispatch_s * 1e6}};
}

}  // namespace infercast
