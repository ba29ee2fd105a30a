// Presets embedded at build time (cmake/EmbedPresets.cmake turns presets/**/*.json into a generated source), so
// the CLI and the web build read the same files and work offline.
#pragma once

#include <string>
#include <vector>

#include "io/hardware_json.hpp"
#include "io/model_config.hpp"
#include "io/runtime_json.hpp"
#include "parallel/parallel.hpp"

namespace infercast {

struct EmbeddedFile {
  const char* kind;  // "models" | "hardware" | "systems" | "runtimes" | "defaults" | ...
  const char* name;  // file name
  const char* text;
};

const std::vector<EmbeddedFile>& embedded_files();  // generated

const std::vector<ModelPreset>& model_presets();
const std::vector<HardwareSpec>& hardware_presets();
const ModelPreset* find_model_preset(const std::string& id);
// A preset's config read into a model (every preset once, at first use; tests check that each one reads).
const ModelSpec& model_preset_spec(const ModelPreset& p);
const HardwareSpec* find_hardware_preset(const std::string& id);
// A hardware preset's document as JSON text, written once at first use (every analysis on it carries it); nullptr
// when `hw` is not one of hardware_presets().
const std::string* hardware_preset_text(const HardwareSpec* hw);
const std::vector<System>& system_presets();
const System* find_system_preset(const std::string& id);
const std::vector<RuntimeSpec>& runtime_presets();
const RuntimeSpec* find_runtime_preset(const std::string& id);
// Whether a runtime preset of that id is embedded, without reading it (find_runtime_preset reads it).
bool has_runtime_preset(const std::string& id);

}  // namespace infercast
