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
  MemoryReserve reserve;
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
  // source id -> the group it is left out with (one publisher measuring with one method)
  std::vector<std::pair<std::string, std::string>> source_groups;
  // Serving rows whose lengths come from a dataset: mean prompt and output tokens of the sample a tool draws with a
  // given number of prompts, where a source published them (each entry names its source).
  struct DatasetLengths {
    std::string notes_contain;
    double num_prompts = 0, isl = 0, osl = 0;
  };
  std::vector<DatasetLengths> serving_lengths;
};
const ValidationNames& validation_names();

// The runtime a device's users most run (presets/defaults/default_runtimes.json): a device id's own entry, else the
// first rule whose vendor and class match; "reference" when none does.
struct DefaultRuntimeRule {
  std::string hardware, vendor, device_class, runtime, reason;
};
const std::vector<DefaultRuntimeRule>& default_runtime_rules();
std::string default_runtime_id(const HardwareSpec& hw);

// Runtime parameters fitted over the public measurements of each runtime (presets/defaults/runtime_fits.json,
// written by `infercast validate --fit`): laid over the presets' priors when the presets load.
struct RuntimeFit {
  std::string runtime, basis;
  std::vector<std::pair<std::string, double>> values;  // parameter name (runtime/params.hpp) -> fitted value
};
const std::vector<RuntimeFit>& runtime_fits();

// What each collective inside a step waits for its group's slowest device, fitted over every tensor-parallel
// measurement of every runtime at once (the same file, `collective_wait`): the value a runtime takes unless its file
// states `collectives.wait_us`.
struct CollectiveWaitFit {
  double wait_us = 0;
  std::string basis;
};
const CollectiveWaitFit& collective_wait_fit();

}  // namespace infercast
