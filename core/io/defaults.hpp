// Data the core reads from presets/ rather than code: device-class efficiencies (presets/defaults/
// device_classes.json), grid regions (presets/defaults/grid_regions.json), built-in scenarios
// (presets/scenarios/*.json) and how validation files name devices, models and formats
// (presets/validation/names.json) and the per-generation compute rates (presets/defaults/architectures.json). Each
// is parsed once from the embedded presets, strictly, with its source.
#pragma once

#include <string>
#include <vector>

#include "cost/cost.hpp"
#include "hardware/derive.hpp"
#include "hardware/hardware.hpp"
#include "scenario/scenario.hpp"

namespace infercast {

struct DeviceClass {
  std::string name;
  std::string basis;  // what the defaults were fitted on
  Efficiencies efficiency;
};
const std::vector<DeviceClass>& device_class_table();
const std::string& device_class_source();

// The generations of presets/defaults/architectures.json, in file order; find_generation: nullptr when unknown.
const std::vector<Generation>& generation_table();
const std::string& generation_source();
const Generation* find_generation(const std::string& key);

struct ValidationNames {
  struct Name {
    std::string name, prefix, id;  // an exact name or a prefix, and the preset or format it maps to
  };
  std::vector<Name> hardware, models, weights, activations_kv;
  std::vector<std::pair<std::string, std::string>> systems;  // hardware id -> system preset of multi-device rows
};
const ValidationNames& validation_names();

}  // namespace infercast
