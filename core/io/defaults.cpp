#include "io/defaults.hpp"

#include "io/fields.hpp"
#include "io/json_reader.hpp"
#include "io/presets.hpp"
#include "runtime/params.hpp"

namespace infercast {

namespace {

// The one embedded file of `kind`/`name`, parsed; a preset error names the file.
template <typename Parse>
auto load(const char* kind, const char* name, Parse parse) {
  for (const auto& f : embedded_files()) {
    if (std::string(f.kind) != kind || std::string(f.name) != name) continue;
    const std::string where = std::string("presets/") + kind + "/" + name;
    try {
      const json doc = parse_json_text(f.text, where, "preset");
      Reader r(doc, "", "preset");
      if (r.positive_int("schema_version") != 1) r.fail("schema_version", "unsupported", "/schema_version: expected 1");
      auto out = parse(r);
      r.reject_unknown();
      return out;
    } catch (const InputError& e) {
      throw InputError(e.code(), e.path(), where + ": " + e.what());
    }
  }
  throw InputError("preset.missing_file", "", std::string("presets/") + kind + "/" + name + " is not embedded in this build");
}

Efficiencies read_efficiency(Reader r) {
  Efficiencies e;
  const auto eff = [&](const NumberField& f) {
    if (!r.has(f.key())) r.fail(f.key(), "missing_field", r.child_path(f.key()) + " is missing; every class states all five efficiencies");
    return r.number_in_or(f.key(), f.lo, f.hi, 0);
  };
  e.gemm = eff(field::eff_gemm);
  e.attention = eff(field::eff_attention);
  e.elementwise = eff(field::eff_elementwise);
  e.memory = eff(field::eff_memory);
  e.dispatch_s = eff(field::eff_dispatch_us) / 1e6;
  r.reject_unknown();
  return e;
}

struct ClassTable {
  std::string source;
  std::vector<DeviceClass> classes;
};

const ClassTable& class_table() {
  static const ClassTable t = load("defaults", "device_classes.json", [](Reader& r) {
    ClassTable out;
    out.source = r.string("source");
    for (auto& c : r.object_array("classes")) {
      DeviceClass d;
      d.name = c.string("class");
      d.basis = c.string("basis");
      d.efficiency = read_efficiency(c.object("efficiency"));
      if (c.has("reserve")) {
        Reader rv = c.object("reserve");
        d.reserve.fixed_bytes = rv.nonneg_number_or("GB", 0) * 1e9;
        d.reserve.fraction = rv.number_in_or("fraction", 0, 0.95, 0);
        d.reserve.small_fraction = rv.number_in_or("small_fraction", 0, 0.95, 0);
        d.reserve.small_up_to_bytes = rv.nonneg_number_or("small_up_to_GB", 0) * 1e9;
        d.reserve.basis = rv.string("basis");
        rv.reject_unknown();
      } else {
        c.raw("reserve");
      }
      c.reject_unknown();
      out.classes.push_back(d);
    }
    return out;
  });
  return t;
}

struct RegionTable {
  std::string source;
  std::vector<GridRegion> regions;
};

const RegionTable& region_table() {
  static const RegionTable t = load("defaults", "grid_regions.json", [](Reader& r) {
    RegionTable out;
    out.source = r.string("source");
    for (auto& g : r.object_array("regions")) {
      out.regions.push_back({g.string("id"), g.string("name"), g.number_in_or("gCO2e_per_kWh", 0, 5000, 0)});
      g.reject_unknown();
    }
    return out;
  });
  return t;
}

// A {dtype: rate} object: every key a compute type, every rate positive.
std::array<double, 8> read_rates(Reader r) {
  std::array<double, 8> out{};
  for (const auto& e : compute_type_names().entries()) out[static_cast<std::size_t>(e.value)] = r.positive_number_or(e.name, 0);
  r.reject_unknown();
  return out;
}

struct GenerationTable {
  std::string source;
  std::vector<Generation> rows;
};

const GenerationTable& gen_table() {
  static const GenerationTable t = load("defaults", "architectures.json", [](Reader& r) {
    GenerationTable out;
    out.source = r.string("source");
    for (auto& e : r.object_array("generations")) {
      Generation g;
      g.key = e.string("generation");
      g.name = e.string("name");
      g.unit = e.string("unit");
      g.flop_per_clock = read_rates(e.object("flop_per_clock"));
      if (e.has("flop_per_clock_fp16_accumulate")) g.flop_per_clock_fp16_accumulate = read_rates(e.object("flop_per_clock_fp16_accumulate"));
      else e.raw("flop_per_clock_fp16_accumulate");
      g.accumulate = e.string_or("accumulate", "");
      g.source = e.string("source");
      g.trust = e.string("trust");
      if (g.trust != "high" && g.trust != "medium" && g.trust != "low")
        e.fail("trust", "out_of_range", e.child_path("trust") + " holds \"" + g.trust + "\"; expected high, medium or low");
      for (const auto& other : out.rows)
        if (other.key == g.key) e.fail("generation", "duplicate", e.child_path("generation") + " holds \"" + g.key + "\", listed twice");
      e.reject_unknown();
      out.rows.push_back(g);
    }
    return out;
  });
  return t;
}

Scenario read_scenario_entry(Reader& e, const std::string& source) {
  Scenario s;
  s.source = source;
  s.name = e.string("name");
  s.description = e.string("description");
  s.weights = e.string("weights");
  s.activations = e.string("activations");
  s.kv = e.string("kv");
  for (const auto* f : {&s.weights, &s.activations, &s.kv})
    if (!find_dtype(*f)) e.fail("weights", "unknown_dtype", e.path() + ": \"" + *f + "\" is not a format");
  s.attention = attn_impl_names().parse(e.string("attention"), e.child_path("attention"), "preset.out_of_range");
  s.fused_mlp = mlp_form_names().parse(e.string("mlp"), e.child_path("mlp"), "preset.out_of_range");
  s.mla_form = mla_form_names().parse(e.string_or("mla", "auto"), e.child_path("mla"), "preset.out_of_range");
  s.online_hadamard = e.boolean_or("online_hadamard", false);
  if (e.has("lora")) {
    Reader l = e.object("lora");
    s.lora.rank = l.positive_int("rank");
    s.lora.mode = lora_mode_names().parse(l.string("mode"), l.child_path("mode"), "preset.out_of_range");
    l.reject_unknown();
  }
  if (e.has("convert_mla")) {
    Reader c = e.object("convert_mla");
    s.convert_mla = true;
    s.mla.q_lora_rank = c.nonneg_int_or("q_lora_rank", s.mla.q_lora_rank);
    s.mla.kv_lora_rank = c.positive_int("kv_lora_rank");
    s.mla.qk_nope_dim = c.positive_int("qk_nope_head_dim");
    s.mla.qk_rope_dim = c.nonneg_int_or("qk_rope_head_dim", 0);
    s.mla.v_head_dim = c.positive_int("v_head_dim");
    c.reject_unknown();
  }
  e.reject_unknown();
  return s;
}

std::vector<ValidationNames::Name> read_names(Reader& r, const char* key, const char* target) {
  std::vector<ValidationNames::Name> out;
  for (auto& e : r.object_array(key)) {
    const std::string id = e.string(target);
    e.string_or("note", "");
    if (e.has("names")) {
      for (const auto& n : e.string_array_or("names")) out.push_back({n, "", id});
    } else if (e.has("prefix")) {
      out.push_back({"", e.string("prefix"), id});
    } else {
      out.push_back({e.string("name"), "", id});
    }
    e.reject_unknown();
  }
  return out;
}

}  // namespace

const std::vector<DeviceClass>& device_class_table() { return class_table().classes; }
const std::string& device_class_source() { return class_table().source; }

std::vector<std::string> device_classes() {
  std::vector<std::string> out;
  for (const auto& c : device_class_table()) out.push_back(c.name);
  return out;
}

Efficiencies default_efficiencies(const std::string& name) {
  for (const auto& c : device_class_table())
    if (c.name == name) return c.efficiency;
  return device_class_table().front().efficiency;
}

MemoryReserve default_reserve(const std::string& name) {
  for (const auto& c : device_class_table())
    if (c.name == name) return c.reserve;
  return device_class_table().front().reserve;
}

const std::vector<Generation>& generation_table() { return gen_table().rows; }
const std::string& generation_source() { return gen_table().source; }
const Generation* find_generation(const std::string& key) {
  for (const auto& g : gen_table().rows)
    if (g.key == key) return &g;
  return nullptr;
}

const std::vector<GridRegion>& grid_regions() { return region_table().regions; }
const std::string& grid_source() { return region_table().source; }

const std::vector<Scenario>& all_scenarios() {
  static const std::vector<Scenario> list = [] {
    std::vector<Scenario> out;
    for (const auto& f : embedded_files()) {
      if (std::string(f.kind) != "scenarios") continue;
      const std::string where = std::string("presets/scenarios/") + f.name;
      try {
        const json doc = parse_json_text(f.text, where, "preset");
        Reader r(doc, "", "preset");
        r.positive_int("schema_version");
        const std::string source = r.string("source");
        r.string_or("notes", "");
        for (auto& e : r.object_array("scenarios")) out.push_back(read_scenario_entry(e, source));
        r.reject_unknown();
      } catch (const InputError& e) {
        throw InputError(e.code(), e.path(), where + ": " + e.what());
      }
    }
    return out;
  }();
  return list;
}

const ValidationNames& validation_names() {
  static const ValidationNames t = load("validation", "names.json", [](Reader& r) {
    ValidationNames out;
    r.string("source");
    out.hardware = read_names(r, "hardware", "id");
    out.models = read_names(r, "models", "id");
    out.weights = read_names(r, "weights", "dtype");
    out.activations_kv = read_names(r, "activations_kv", "dtype");
    for (auto& e : r.object_array("systems")) {
      out.systems.emplace_back(e.string("hardware"), e.string("system"));
      e.string_or("note", "");
      e.reject_unknown();
    }
    if (r.has("source_groups")) {
      for (auto& e : r.object_array("source_groups")) {
        out.source_groups.emplace_back(e.string("source"), e.string("group"));
        e.string("reason");
        e.reject_unknown();
      }
    } else {
      r.raw("source_groups");
    }
    if (r.has("serving_lengths")) {
      for (auto& e : r.object_array("serving_lengths")) {
        ValidationNames::DatasetLengths d;
        d.notes_contain = e.string("notes_contain");
        d.num_prompts = e.positive_number("num_prompts");
        d.isl = e.positive_number("mean_isl");
        d.osl = e.positive_number("mean_osl");
        e.string("source");
        e.reject_unknown();
        out.serving_lengths.push_back(d);
      }
    } else {
      r.raw("serving_lengths");
    }
    return out;
  });
  return t;
}

const std::vector<DefaultRuntimeRule>& default_runtime_rules() {
  static const std::vector<DefaultRuntimeRule> t = load("defaults", "default_runtimes.json", [](Reader& r) {
    std::vector<DefaultRuntimeRule> out;
    r.string("source");
    for (auto& e : r.object_array("rules")) {
      DefaultRuntimeRule d{e.string_or("hardware", ""), e.string_or("vendor", ""), e.string_or("class", ""),
                           e.string("runtime"), e.string("reason")};
      // Checked by name only: reading every runtime the rules name made the first analysis in a fresh module read
      // all of them (a third of its time natively, more in wasm before its code is optimized).
      if (!has_runtime_preset(d.runtime))
        e.fail("runtime", "unknown_preset", e.child_path("runtime") + " holds \"" + d.runtime + "\", which is not a runtime preset");
      e.reject_unknown();
      out.push_back(d);
    }
    return out;
  });
  return t;
}

namespace {

struct RuntimeFitsFile {
  std::vector<RuntimeFit> fits;
  CollectiveWaitFit wait;
};

const RuntimeFitsFile& runtime_fits_file() {
  static const RuntimeFitsFile t = load("defaults", "runtime_fits.json", [](Reader& r) {
    RuntimeFitsFile file;
    std::vector<RuntimeFit>& out = file.fits;
    r.string("source");
    {
      Reader w = r.object("collective_wait");
      file.wait.wait_us = w.number_in("wait_us", 0, 1e4);
      file.wait.basis = w.string("basis");
      w.reject_unknown();
    }
    const json* all = r.raw("fits");
    if (!all || !all->is_array()) r.fail("fits", "wrong_type", "/fits: expected an array of fits (empty when none)");
    if (all->empty()) return file;
    for (auto& e : r.object_array("fits")) {
      RuntimeFit f{e.string("runtime"), e.string("basis"), {}};
      const json* v = e.raw("values");
      if (!v || !v->is_object()) e.fail("values", "wrong_type", e.child_path("values") + ": expected an object of parameter values");
      for (const auto& [k, x] : v->items()) {
        if (!rt_param_names().find(k)) e.fail("values", "out_of_range", e.child_path("values") + "/" + k + " is not a runtime parameter");
        if (!x.is_number()) e.fail("values", "wrong_type", e.child_path("values") + "/" + k + ": expected a number");
        f.values.emplace_back(k, x.get<double>());
      }
      e.reject_unknown();
      out.push_back(f);
    }
    return file;
  });
  return t;
}

}  // namespace

const std::vector<RuntimeFit>& runtime_fits() { return runtime_fits_file().fits; }
const CollectiveWaitFit& collective_wait_fit() { return runtime_fits_file().wait; }

std::string default_runtime_id(const HardwareSpec& hw) {
  if (!hw.default_runtime.empty()) return hw.default_runtime;
  for (const auto& d : default_runtime_rules())
    if (!d.hardware.empty() && d.hardware == hw.id) return d.runtime;
  for (const auto& d : default_runtime_rules())
    if (d.hardware.empty() && (d.vendor.empty() || d.vendor == hw.vendor) && (d.device_class.empty() || d.device_class == hw.device_class))
      return d.runtime;
  return "reference";
}

}  // namespace infercast
