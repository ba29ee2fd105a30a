#include "io/presets.hpp"

#include <string>

namespace infercast {

namespace {
std::string where(const EmbeddedFile& f) { return std::string("presets/") + f.kind + "/" + f.name; }
}  // namespace

const std::vector<ModelPreset>& model_presets() {
  static const std::vector<ModelPreset> list = [] {
    std::vector<ModelPreset> v;
    for (const auto& f : embedded_files()) {
      if (std::string(f.kind) != "models") continue;
      try {
        v.push_back(parse_model_preset(parse_json_text(f.text, where(f), "preset")));
      } catch (const InputError& e) {
        throw InputError(e.code(), e.path(), where(f) + ": " + e.what());
      }
    }
    return v;
  }();
  return list;
}

const std::vector<HardwareSpec>& hardware_presets() {
  static const std::vector<HardwareSpec> list = [] {
    std::vector<HardwareSpec> v;
    for (const auto& f : embedded_files()) {
      if (std::string(f.kind) != "hardware") continue;
      try {
        v.push_back(parse_hardware(parse_json_text(f.text, where(f), "hardware")));
      } catch (const InputError& e) {
        throw InputError(e.code(), e.path(), where(f) + ": " + e.what());
      }
    }
    return v;
  }();
  return list;
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
