// Runtime description files (presets/runtimes/*.json) to RuntimeSpec and back (docs/schema.md, "Runtimes").
// Units are in the keys (us = microseconds); converted once, here.
#pragma once

#include "io/json_reader.hpp"
#include "runtime/runtime.hpp"

namespace infercast {

RuntimeSpec parse_runtime(const json& doc, const std::string& path);
json runtime_to_json(const RuntimeSpec& rt);

}  // namespace infercast
