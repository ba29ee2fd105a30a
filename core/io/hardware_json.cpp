#include "io/hardware_json.hpp"

#include "io/defaults.hpp"
#include "io/fields.hpp"
#include "io/presets.hpp"

namespace infercast {

namespace {
const char* kPeakKeys[] = {"fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4", "int4"};

// Types whose tensor rate can differ with FP16 accumulation: the 16- and 8-bit floating-point ones.
bool has_fp16_accumulate(std::size_t i) {
  return i == static_cast<std::size_t>(ComputeType::FP16) || i == static_cast<std::size_t>(ComputeType::FP8);
}

void read_architecture(Reader a, Architecture& out) {
  out.generation = a.string("generation");
  if (!find_generation(out.generation)) {
    std::string list;
    for (const auto& g : generation_table()) list += (list.empty() ? "" : ", ") + g.key;
    a.fail("generation", "out_of_range", a.child_path("generation") + " holds \"" + out.generation + "\"; expected one of " + list);
  }
  out.compute_units = static_cast<int>(read_field(a, field::arch_compute_units));
  out.clock_ghz = read_field(a, field::arch_clock_ghz);
  out.matrix_clock_ghz = read_field(a, field::arch_matrix_clock_ghz);
  out.l2_mb = read_field(a, field::arch_l2_mb);
  a.reject_unknown();
}

void read_estimate(Reader e, const HardwareSpec& hw, PeakEstimate& out) {
  const auto names = e.string_array_or("dtypes");
  if (names.empty()) e.fail("dtypes", "missing_field", e.child_path("dtypes") + " is missing or empty; expected the data types whose peaks are derived");
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string at = e.child_path("dtypes") + "/" + std::to_string(i);
    const ComputeType t = compute_type_names().parse(names[i], at, e.code_prefix() + ".out_of_range");
    if (hw.peak_flops[static_cast<std::size_t>(t)] <= 0)
      throw InputError(e.code_prefix() + ".inconsistent", at,
                       at + " holds \"" + names[i] + "\", which has no peak in peak_dense_TFLOPS; expected a type whose peak is given");
    out.dtypes.push_back(t);
  }
  out.derivation = e.string("derivation");
  out.sources = e.string("sources");
  e.reject_unknown();
}
}  // namespace

std::string tier_capacity_text(const MemoryTier& t) {
  const std::string gb = number_text(json(t.capacity_bytes / 1e9)) + " GB";
  return t.capacity_in_gib ? number_text(json(t.capacity_bytes / kBytesPerGiB)) + " GiB (" + gb + ")" : gb;
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
  hw.notes = r.string_or("notes", "");
  // The runtime its users most run (a runtime preset); without it, presets/defaults/default_runtimes.json decides.
  hw.default_runtime = r.string_or("default_runtime", "");
  if (!hw.default_runtime.empty() && !has_runtime_preset(hw.default_runtime))
    r.fail("default_runtime", "unknown_preset", r.child_path("default_runtime") + " holds \"" + hw.default_runtime +
                                                    "\", which is not a runtime preset; run `infercast runtimes` for the list");
  hw.launch_year = static_cast<int>(r.nonneg_int_or("launch_year", 0));
  {
    // A key present must hold a positive peak; a data type the device has no published peak for is left out.
    // With no peak at all the forecaster times memory and dispatch only, and says so in a warning.
    Reader peaks = r.object("peak_dense_TFLOPS");
    for (std::size_t i = 0; i < 8; ++i) hw.peak_flops[i] = read_field_at(peaks, field::hw_peak_tflops, kPeakKeys[i], 0) * 1e12;
    peaks.reject_unknown();
  }
  // Tables of peaks beside peak_dense_TFLOPS, each in the peaks' range and checked against the peak it sits beside.
  const auto beside = [&](const char* key, std::array<double, 8>& out, bool (*has)(std::size_t), bool below,
                          const char* expected) {
    if (!r.has(key)) {
      r.raw(key);
      return;
    }
    Reader t = r.object(key);
    for (std::size_t i = 0; i < 8; ++i) {
      if (!has(i)) continue;
      const double v = read_field_at(t, field::hw_peak_tflops, kPeakKeys[i], 0) * 1e12;
      const double p = hw.peak_flops[i];
      if (v > 0 && p > 0 && (below ? v < p : v > p))
        t.fail(kPeakKeys[i], "inconsistent",
               t.child_path(kPeakKeys[i]) + " holds " + number_text(v / 1e12) + (below ? ", below" : ", above") + " peak_dense_TFLOPS/" +
                   kPeakKeys[i] + " (" + number_text(p / 1e12) + "); expected " + expected);
      out[i] = v;
    }
    t.reject_unknown();
  };
  // Only fp16 and fp8 have an FP16-accumulate rate, never below the FP32-accumulate one it sits beside.
  beside("peak_dense_TFLOPS_fp16_accumulate", hw.peak_flops_fp16_accumulate, has_fp16_accumulate, true,
         "the FP16-accumulate rate, at least the FP32-accumulate one");
  // A matrix engine's device (AMX, SME): its vector units' rates, never above the matrix engine's for a type.
  beside("peak_dense_TFLOPS_vector", hw.peak_flops_vector, [](std::size_t) { return true; }, false,
         "the vector units' rate, at most the matrix engine's");
  if (r.has("peak_estimated")) read_estimate(r.object("peak_estimated"), hw, hw.estimate);
  else r.raw("peak_estimated");
  if (r.has("architecture")) read_architecture(r.object("architecture"), hw.architecture);
  else r.raw("architecture");
  for (auto& t : r.object_array("memory_tiers")) {
    MemoryTier tier;
    tier.name = t.string("name");
    // GiB (DRAM, HBM, SRAM: how they are sold) or GB (flash): exactly one of the two.
    const char* gib_key = field::hw_tier_capacity_gib.key();
    const char* gb_key = field::hw_tier_capacity_gb.key();
    tier.capacity_in_gib = t.has(gib_key);
    if (tier.capacity_in_gib && t.has(gb_key))
      t.fail(gib_key, "conflict", t.child_path(gib_key) + " and " + t.child_path(gb_key) +
                                      " are both given; expected one: capacity_GiB for DRAM, HBM and SRAM, capacity_GB for flash");
    if (!tier.capacity_in_gib && !t.has(gb_key))
      t.fail(gb_key, "missing_field", t.child_path(gib_key) + " is missing; expected a number from 1e-06 to 1000000000 (GiB), or capacity_GB");
    tier.capacity_bytes = tier.capacity_in_gib ? read_required(t, field::hw_tier_capacity_gib) * kBytesPerGiB
                                               : read_required(t, field::hw_tier_capacity_gb) * 1e9;
    tier.bandwidth_bytes_per_s = read_required(t, field::hw_tier_bandwidth_gbps) * 1e9;
    tier.energy_j_per_byte = read_field(t, field::hw_tier_energy_pj) * 1e-12;
    if (t.has("technology"))
      tier.technology = memory_tech_names().parse(t.string("technology"), t.child_path("technology"), t.code_prefix() + ".out_of_range");
    else
      t.raw("technology");
    t.reject_unknown();
    hw.tiers.push_back(tier);
  }
  // Ranges: io/fields.cpp (every result stays finite within them).
  hw.interconnect_bytes_per_s = read_field(r, field::hw_interconnect_gbps) * 1e9;
  hw.tdp_w = read_field(r, field::hw_tdp_w);
  hw.idle_w = read_field(r, field::hw_idle_w);
  // Idle power above the board's: every joule would be static and the work's energy negative, clipped to 0.
  if (hw.tdp_w > 0 && hw.idle_w > hw.tdp_w)
    r.fail("idle_W", "inconsistent",
           r.child_path("idle_W") + " holds " + number_text(json(hw.idle_w)) + ", above tdp_W (" + number_text(json(hw.tdp_w)) +
               "); expected the idle power at most the board's power");
  hw.price_usd = read_field(r, field::hw_price_usd);
  hw.embodied_kgco2e = read_field(r, field::hw_embodied_kgco2e);
  hw.eff = default_efficiencies(hw.device_class);
  // What the driver and OS keep of the first tier: this device's own figure, else its class's.
  const MemoryReserve reserve = default_reserve(hw.device_class);
  const double first = hw.tiers.empty() ? 0 : hw.tiers.front().capacity_bytes;
  if (r.has(field::device_memory_reserve_gb.key())) {
    hw.reserve_bytes = read_field(r, field::device_memory_reserve_gb) * 1e9;
    if (hw.reserve_bytes > first)
      r.fail(field::device_memory_reserve_gb.key(), "out_of_range",
             r.child_path(field::device_memory_reserve_gb.key()) + " holds " + number_text(json(hw.reserve_bytes / 1e9)) +
                 "; expected at most the first memory tier's " + tier_capacity_text(hw.tiers.front()));
    hw.reserve_basis = "set for this device";
  } else {
    r.raw(field::device_memory_reserve_gb.key());
    hw.reserve_bytes = reserve_bytes(reserve, first);
    hw.reserve_basis = reserve.basis.empty() ? "none: no published driver or OS reserve for the " + hw.device_class + " class" : reserve.basis;
  }
  // What the driver never shows (inline ECC's check bits, carve-outs) is kept beside the driver's and the OS's share.
  hw.hidden_fraction = read_field(r, field::device_memory_hidden_fraction);
  if (hw.hidden_fraction > 0) {
    hw.reserve_bytes = std::min(first, hw.reserve_bytes + hw.hidden_bytes());
    hw.reserve_basis += "; plus " + number_text(json(hw.hidden_fraction * 100)) + "% of the memory the driver never shows (memory_hidden_fraction)";
  }
  if (r.has("efficiency")) {
    Reader e = r.object("efficiency");
    // Ranges from io/fields.cpp; the default is the device class's own value.
    const auto eff = [&](const NumberField& f, double current, unsigned bit) {
      if (e.has(f.key())) hw.eff_given |= bit;
      return e.number_in_or(f.key(), f.lo, f.hi, current);
    };
    hw.eff.gemm = eff(field::eff_gemm, hw.eff.gemm, kEffGemm);
    hw.eff.gemm_low = eff(field::eff_gemm_low, hw.eff.gemm, kEffGemmLow);
    hw.eff.attention = eff(field::eff_attention, hw.eff.attention, kEffAttention);
    hw.eff.elementwise = eff(field::eff_elementwise, hw.eff.elementwise, kEffElementwise);
    hw.eff.memory = eff(field::eff_memory, hw.eff.memory, kEffMemory);
    hw.eff.dispatch_s = eff(field::eff_dispatch_us, hw.eff.dispatch_s * 1e6, kEffDispatch) * 1e-6;
    e.reject_unknown();
  } else {
    r.raw("efficiency");
  }
  r.reject_unknown();
  return hw;
}

void write_hardware(JsonWriter& w, const HardwareSpec& hw) {
  w.begin_object().field("schema_version", 1).field("id", hw.id).field("name", hw.name).field("vendor", hw.vendor);
  w.field("class", hw.device_class).field("source", hw.source);
  const auto peaks = [&](const std::array<double, 8>& flops) {
    w.begin_object();
    for (std::size_t i = 0; i < 8; ++i)
      if (flops[i] > 0) w.field(kPeakKeys[i], flops[i] / 1e12);
    w.end_object();
  };
  w.key("peak_dense_TFLOPS");
  peaks(hw.peak_flops);
  w.key("memory_tiers").begin_array();
  for (const auto& t : hw.tiers) {
    w.begin_object().field("name", t.name);
    if (t.capacity_in_gib) w.field("capacity_GiB", t.capacity_bytes / kBytesPerGiB);
    else w.field("capacity_GB", t.capacity_bytes / 1e9);
    w.field("bandwidth_GBps", t.bandwidth_bytes_per_s / 1e9).field("energy_pJ_per_byte", t.energy_j_per_byte * 1e12);
    if (t.technology != MemoryTech::Unknown) w.field("technology", memory_tech_names().name(t.technology));
    w.end_object();
  }
  w.end_array();
  w.field("interconnect_GBps", hw.interconnect_bytes_per_s / 1e9).field("tdp_W", hw.tdp_w).field("idle_W", hw.idle_w);
  w.field("price_USD", hw.price_usd).field("embodied_kgCO2e", hw.embodied_kgco2e);
  w.field("memory_reserve_GB", std::max(0.0, hw.reserve_bytes - hw.hidden_bytes()) / 1e9).field("notes", hw.notes);
  if (hw.hidden_fraction > 0) w.field("memory_hidden_fraction", hw.hidden_fraction);
  if (!hw.default_runtime.empty()) w.field("default_runtime", hw.default_runtime);
  // Only the efficiencies the device states itself: the rest come from the runtime or the class at analysis time,
  // so a document written back and read again keeps following them.
  if (hw.eff_given & (kEffGemm | kEffGemmLow | kEffAttention | kEffElementwise | kEffMemory | kEffDispatch)) {
    w.key("efficiency").begin_object();
    if (hw.eff_given & kEffGemm) w.field("gemm", hw.eff.gemm);
    if (hw.eff_given & kEffGemmLow) w.field("gemm_low", hw.eff.gemm_low);
    if (hw.eff_given & kEffAttention) w.field("attention", hw.eff.attention);
    if (hw.eff_given & kEffElementwise) w.field("elementwise", hw.eff.elementwise);
    if (hw.eff_given & kEffMemory) w.field("memory", hw.eff.memory);
    if (hw.eff_given & kEffDispatch) w.field("dispatch_us", hw.eff.dispatch_s * 1e6);
    w.end_object();
  }
  if (hw.launch_year > 0) w.field("launch_year", hw.launch_year);
  bool any_acc = false;
  for (double v : hw.peak_flops_fp16_accumulate) any_acc = any_acc || v > 0;
  if (any_acc) {
    w.key("peak_dense_TFLOPS_fp16_accumulate");
    peaks(hw.peak_flops_fp16_accumulate);
  }
  if (hw.has_vector_peaks()) {
    w.key("peak_dense_TFLOPS_vector");
    peaks(hw.peak_flops_vector);
  }
  if (!hw.estimate.dtypes.empty()) {
    w.key("peak_estimated").begin_object().key("dtypes").begin_array();
    for (ComputeType t : hw.estimate.dtypes) w.value(compute_type_name(t));
    w.end_array().field("derivation", hw.estimate.derivation).field("sources", hw.estimate.sources).end_object();
  }
  if (!hw.architecture.generation.empty()) {
    const Architecture& a = hw.architecture;
    w.key("architecture").begin_object().field("generation", a.generation);
    if (a.compute_units > 0) w.field("compute_units", a.compute_units);
    if (a.clock_ghz > 0) w.field("clock_GHz", a.clock_ghz);
    if (a.matrix_clock_ghz > 0) w.field("matrix_clock_GHz", a.matrix_clock_ghz);
    if (a.l2_mb > 0) w.field("l2_MB", a.l2_mb);
    w.end_object();
  }
  w.end_object();
}

json hardware_to_json(const HardwareSpec& hw) {
  return tree_of([&](JsonWriter& w) { write_hardware(w, hw); });
}

}  // namespace infercast
