#include "io/system_json.hpp"

#include "io/fields.hpp"

#include "io/hardware_json.hpp"
#include "io/presets.hpp"

namespace infercast {

namespace {

Link parse_link(Reader r) {
  Link l;
  l.name = r.string_or("name", "");
  l.bandwidth_bytes_per_s = read_required(r, field::link_bandwidth_gbps) * 1e9;
  l.latency_s = read_field(r, field::link_latency_us) * 1e-6;
  l.efficiency = read_field(r, field::link_efficiency);
  l.peer_to_peer = r.boolean_or("peer_to_peer", true);
  r.reject_unknown();
  return l;
}

}  // namespace

System parse_system(const json& doc, const std::string& path, bool preset, const HardwareSpec* fallback_device) {
  Reader r(doc, path, "system");
  System s;
  if (preset) {
    const auto version = r.positive_int("schema_version");
    if (version != 1)
      r.fail("schema_version", "unsupported", r.child_path("schema_version") + " holds " + std::to_string(version) + "; expected 1");
    s.id = r.string("id");
    s.name = r.string("name");
    s.source = r.string("source");
  } else {
    r.positive_int_or("schema_version", 1);
    s.id = r.string_or("id", "custom-system");
    s.name = r.string_or("name", "");
    s.source = r.string_or("source", "");
  }
  s.notes = r.string_or("notes", "");
  const json* dv = r.raw("device");
  if (dv && dv->is_string()) {
    const HardwareSpec* hw = find_hardware_preset(dv->get<std::string>());
    if (!hw)
      r.fail("device", "unknown_preset", r.child_path("device") + " holds " + quote_text(dv->get<std::string>(), 200) +
                                             ", which is not a hardware preset; run `infercast hardware` for the list");
    s.device = *hw;
  } else if (dv && dv->is_object()) {
    s.device = parse_hardware(*dv, r.child_path("device"));
  } else if (dv) {
    r.fail("device", "wrong_type", r.child_path("device") + " holds " + describe(*dv) + "; expected a hardware preset id or a hardware object");
  } else if (fallback_device) {
    s.device = *fallback_device;
  } else {
    r.fail("device", "missing_field", r.child_path("device") + " is missing; expected a hardware preset id or a hardware object");
  }
  s.devices_per_node = static_cast<int>(read_field(r, field::devices_per_node));
  s.nodes = static_cast<int>(read_field(r, field::nodes));
  if (!r.has("intra"))
    r.fail("intra", "missing_field", r.child_path("intra") + " is missing; expected the link inside a node {bandwidth_GBps, latency_us}");
  s.intra = parse_link(r.object("intra"));
  if (r.has("inter")) {
    s.inter = parse_link(r.object("inter"));
  } else {
    r.raw("inter");
    if (s.nodes > 1)
      r.fail("inter", "missing_field", r.child_path("inter") + " is missing; expected the link between the " +
                                           std::to_string(s.nodes) + " nodes {bandwidth_GBps, latency_us}");
    s.inter = s.intra;
  }
  if (s.name.empty()) s.name = std::to_string(s.devices()) + "x " + s.device.name;
  r.reject_unknown();
  return s;
}

void write_link(JsonWriter& w, const Link& l) {
  w.begin_object().field("name", l.name).field("bandwidth_GBps", l.bandwidth_bytes_per_s / 1e9);
  w.field("latency_us", l.latency_s * 1e6).field("efficiency", l.efficiency).field("peer_to_peer", l.peer_to_peer).end_object();
}

json link_to_json(const Link& l) {
  return tree_of([&](JsonWriter& w) { write_link(w, l); });
}

void write_system(JsonWriter& w, const System& s) {
  w.begin_object().field("schema_version", 1).field("id", s.id).field("name", s.name).field("source", s.source);
  w.field("notes", s.notes).field("device", s.device.id).field("device_name", s.device.name);
  w.field("devices_per_node", s.devices_per_node).field("nodes", s.nodes).field("devices", s.devices());
  w.key("intra");
  write_link(w, s.intra);
  w.key("inter");
  write_link(w, s.inter);
  w.end_object();
}

json system_to_json(const System& s) {
  return tree_of([&](JsonWriter& w) { write_system(w, s); });
}

}  // namespace infercast
