// Data the core reads from presets/ rather than code: device-class efficiencies (presets/defaults/
// device_classes.json), grid regions (presets/defaults/grid_regions.json), built-in scenarios
// (presets/scenarios/*.json) and how validation files name devices, models and formats
// (presets/validation/names.json). Each is parsed once from the embedded presets, strictly, with its source.
#pragma once

#include <string>
#include <vector>

#include "cost/cost.hpp"
#include "hardware/hardware.hpp"
#include "scenario/scenario.hpp"

namespace infercast {

struct DeviceClass {
  std::string name;
  std::string basis;  // what the defaults were fitted on
  Efficiencies efficiency;
  MemoryReserve reserve;
};
const std::vector<DeviceClass>& device_class_table();
const std::string& device_class_source();

struct ValidationNames {
  struct Name {
    std::string name, prefix, id;  // an exact name or a prefix, and the preset or format it maps to
  };
  std::vector<Name> hardware, models, weights, activations_kv;
  std::vector<std::pair<std::string, std::string>> systems;  // hardware id -> system preset of multi-device rows
};
const ValidationNames& validation_names();

}  // namespace infercast
