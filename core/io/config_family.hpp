// How a config finds the family that reads it: by model_type (canonical or alias), else by one of its
// architectures; a config no family reads is refused naming its model_type, its architectures and the families it
// resembles. The family's transformers defaults then fill every field the config omits (docs/formulas.md,
// "Families and defaults").
#pragma once

#include <string>
#include <vector>

#include "io/families.hpp"
#include "io/json_reader.hpp"
#include "util/error.hpp"

namespace infercast {

// The family that reads `config` (the object at JSON pointer `path`, whose model_type is `type`). A family found
// through `architectures` alone adds a note to `warnings`. Throws model.unsupported for an unknown model_type and
// for a family recognized but not modelled.
const FamilyTraits& family_of_config(const json& config, const std::string& path, const std::string& type,
                                     std::vector<Warning>& warnings);
// The model_type of a config that has none (remote-code checkpoints load through auto_map without one: MiniCPM-2B):
// the family one of its architectures names, with a note in `warnings`. Throws model.missing_field (naming the
// architectures when there are some) when they name none.
std::string type_from_architectures(const json& config, const std::string& path, std::vector<Warning>& warnings);
// `config` with the family's default for every field it omits (absent, not null); `filled` lists those fields.
json with_family_defaults(const json& config, const FamilyTraits& family, std::vector<std::string>& filled);
// Refuses a config that spells its sizes in another schema than the family's (GPT-2 style n_embd / n_layer /
// n_head, DeepSeek's dim / n_layers) where the family's own size fields were filled from defaults: such a config
// would otherwise be read as the default model.
void check_schema(const json& config, const FamilyTraits& family, const std::vector<std::string>& filled,
                  const std::string& path);
// One note naming the fields filled and their values; nothing when none was.
void note_defaults(const FamilyTraits& family, const json& filled_config, const std::vector<std::string>& filled,
                   const std::string& path, std::vector<Warning>& warnings);
// The model's name for messages: _name_or_path, else its architectures, else its model_type.
std::string model_label(const json& config);
// Whether the value at JSON pointer `pointer` (relative to `config`, whose own pointer is `path`) is a non-finite
// number (Python's NaN, Infinity, -Infinity).
bool non_finite_at(const json& config, const std::string& path, const std::string& pointer);

}  // namespace infercast
