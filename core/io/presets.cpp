#include "io/presets.hpp"

#include <string>

#include "io/system_json.hpp"

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

const std::vector<HardwareSpec>& hardware_presets() {
  static const auto list = load_kind<HardwareSpec>("hardware", "hardware", [](const json& d) { return parse_hardware(d); });
  return list;
}

const std::vector<System>& system_presets() {
  static const auto list = load_kind<System>("systems", "system", [](const json& d) { return parse_system(d, "", true); });
  return list;
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
