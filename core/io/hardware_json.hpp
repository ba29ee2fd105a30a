// Hardware description files (presets/hardware/*.json and users' custom devices) to HardwareSpec.
// Units are in the keys (TFLOPS, GB = 1e9 bytes, GBps = 1e9 bytes/s, pJ per byte); converted once, here.
#pragma once

#include "hardware/hardware.hpp"
#include "io/json_reader.hpp"

namespace infercast {

HardwareSpec parse_hardware(const json& doc, const std::string& path = "");
json hardware_to_json(const HardwareSpec& hw);
json efficiency_to_json(const Efficiencies& e);  // the "efficiency" object of a hardware document

}  // namespace infercast
