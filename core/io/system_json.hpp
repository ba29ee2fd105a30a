// System descriptions (presets/systems/*.json and users' own): devices of one kind in nodes, with the link inside a
// node and the link between nodes. Units are in the keys (GBps = 1e9 bytes/s per device per direction, us).
#pragma once

#include "io/json_reader.hpp"
#include "io/json_writer.hpp"
#include "parallel/parallel.hpp"

namespace infercast {

// `device` is a hardware preset id or a hardware object. A preset must carry schema_version, id, name and source;
// a request's own system may leave them out, and may leave out `device` when `fallback_device` is given.
System parse_system(const json& doc, const std::string& path, bool preset, const HardwareSpec* fallback_device = nullptr);
void write_system(JsonWriter& w, const System& s);
json system_to_json(const System& s);
void write_link(JsonWriter& w, const Link& l);
json link_to_json(const Link& l);

}  // namespace infercast
