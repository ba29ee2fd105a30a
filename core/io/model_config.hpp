// Hugging Face config.json (and the schemas users actually have: text_config nesting, Falcon's RefinedWeb
// schema, DeepSeek's own inference schema) to a normalized ModelSpec. Unknown model types are an error that
// lists the supported ones; fields we read nothing from are warnings on the spec, never silently dropped.
#pragma once

#include <string>
#include <vector>

#include "io/families.hpp"
#include "io/json_reader.hpp"
#include "model/model.hpp"

namespace infercast {


// Parse a config document. `path` is the JSON pointer of the config inside a larger document ("" at the root).
ModelSpec parse_model_config(const json& config, const std::string& path = "");

// A model preset file: {"schema_version", "id", "name", "source", "stated_params", "config": {...}}.
struct ModelPreset {
  std::string id;
  std::string name;
  std::string source;
  std::string stated_total;   // as the vendor states it ("7B", "46.7B"), for display only
  std::string stated_active;  // "" when the vendor states none
  std::string notes;
  json config;
};

// A preset document read at `path` in a larger document (a request's /model, /speculative/model): its errors name
// that pointer and carry `code_prefix` (a preset file: "" and "preset").
ModelPreset parse_model_preset(const json& doc, const std::string& path = "", const std::string& code_prefix = "preset");

}  // namespace infercast
