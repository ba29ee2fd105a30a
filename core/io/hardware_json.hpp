// Hardware description files (presets/hardware/*.json and users' custom devices) to HardwareSpec.
// Units are in the keys (TFLOPS, GB = 1e9 bytes, GiB = 2^30 bytes, GBps = 1e9 bytes/s, pJ per byte); converted once, here.
#pragma once

#include "hardware/hardware.hpp"
#include "io/json_reader.hpp"
#include "io/json_writer.hpp"

namespace infercast {

HardwareSpec parse_hardware(const json& doc, const std::string& path = "");
void write_hardware(JsonWriter& w, const HardwareSpec& hw);
json hardware_to_json(const HardwareSpec& hw);
// A tier's capacity for messages, in the unit its document gave and in GB: "24 GiB (25.769803776 GB)", "16 GB".
std::string tier_capacity_text(const MemoryTier& t);

}  // namespace infercast
