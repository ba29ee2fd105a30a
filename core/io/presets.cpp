#include "io/presets.hpp"

#include <algorithm>
#include <string>

#include "io/defaults.hpp"
#include "io/system_json.hpp"
#include "runtime/params.hpp"

namespace infercast {

namespace {
// Parses every embedded file of one kind; an error names the preset file it came from.
template <typename T, typename Parse>
std::vector<T> load_kind(const char* kind, const char* code_prefix, Parse parse) {
  std::vector<T> out;
  for (const auto& f : embedded_files()) {
    if (std::string(f.kind) != kind) continue;
    const std::string where = std::string("presets/") + f.kind + "/" + f.name;
    try {
      out.push_back(parse(parse_json_text(f.text, where, code_prefix)));
    } catch (const InputError& e) {
      throw InputError(e.code(), e.path(), where + ": " + e.what());
    }
  }
  return out;
}
}  // namespace

const std::vector<ModelPreset>& model_presets() {
  static const auto list = load_kind<ModelPreset>("models", "preset", [](const json& d) { return parse_model_preset(d); });
  return list;
}

const ModelSpec& model_preset_spec(const ModelPreset& p) {
  static const auto specs = [] {
    std::vector<ModelSpec> v;
    for (const auto& m : model_presets()) v.push_back(parse_model_config(m.config, "/config"));
    return v;
  }();
  return specs.at(static_cast<std::size_t>(&p - model_presets().data()));
}

const std::vector<HardwareSpec>& hardware_presets() {
  static const auto list = load_kind<HardwareSpec>("hardware", "hardware", [](const json& d) { return parse_hardware(d); });
  return list;
}

const std::string* hardware_preset_text(const HardwareSpec* hw) {
  const auto& all = hardware_presets();
  if (all.empty() || hw < all.data() || hw >= all.data() + all.size()) return nullptr;
  static const auto texts = [&] {
    std::vector<std::string> v;
    for (const auto& h : all) {
      v.emplace_back();
      JsonWriter w(v.back());
      write_hardware(w, h);
    }
    return v;
  }();
  return &texts[static_cast<std::size_t>(hw - all.data())];
}

const std::vector<System>& system_presets() {
  static const auto list = load_kind<System>("systems", "system", [](const json& d) { return parse_system(d, "", true); });
  return list;
}

// The runtime presets with the class fits of presets/defaults/runtime_fits.json laid over their priors.
const std::vector<RuntimeSpec>& runtime_presets() {
  static const auto list = [] {
    auto v = load_kind<RuntimeSpec>("runtimes", "runtime", [](const json& d) { return parse_runtime(d, ""); });
    for (const auto& f : runtime_fits()) {
      auto it = std::find_if(v.begin(), v.end(), [&](const RuntimeSpec& r) { return r.id == f.runtime; });
      if (it == v.end())
        throw InputError("preset.unknown_runtime", "", "presets/defaults/runtime_fits.json fits \"" + f.runtime + "\", which is not a runtime preset");
      for (const auto& [name, value] : f.values) set_param(*it, *rt_param_names().find(name), value);
      it->fit_basis = f.basis;
    }
    return v;
  }();
  return list;
}

const RuntimeSpec* find_runtime_preset(const std::string& id) {
  for (const auto& r : runtime_presets())
    if (r.id == id) return &r;
  return nullptr;
}

const System* find_system_preset(const std::string& id) {
  for (const auto& s : system_presets())
    if (s.id == id) return &s;
  return nullptr;
}

const ModelPreset* find_model_preset(const std::string& id) {
  for (const auto& p : model_presets())
    if (p.id == id) return &p;
  return nullptr;
}

const HardwareSpec* find_hardware_preset(const std::string& id) {
  for (const auto& h : hardware_presets())
    if (h.id == id) return &h;
  return nullptr;
}

}  // namespace infercast
