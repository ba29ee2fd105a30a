#include "cli/checkpoint.hpp"

#include "api/api.hpp"
#include "cli/command.hpp"
#include "cli/files.hpp"
#include "cli/output.hpp"
#include "util/limits.hpp"

namespace infercast::cli {

json read_checkpoint(const std::string& path, const std::vector<std::string>& files) {
  if (files.empty()) die(path + " is neither a .safetensors file nor a folder holding one");
  json rows = json::array();
  // Every header together within what one checkpoint call takes (the rows are smaller than the headers); the page
  // reads within the same total (site/src/files.js).
  const std::uint64_t budget = 4 * limit::kRequestBytes;
  std::uint64_t read = 0;
  try {
    for (const auto& f : files) {
      const json size = unwrap(call_bytes("safetensors_size", read_file_prefix(f, 8)), f);
      read += size["header_bytes"].get<std::uint64_t>();
      if (read > budget)
        die(f + ": the headers of these files add up to more than " + std::to_string(budget) + " bytes; expected the shards of one checkpoint");
      const json h = unwrap(call_bytes("safetensors", read_file_prefix(f, size["header_bytes"].get<std::size_t>())), f);
      for (const auto& r : h["tensors"]) rows.push_back(r);
    }
  } catch (const InputError& e) {
    die(e.what());
  }
  json req = {{"tensors", rows}};
  const std::string cfg = config_beside(path);
  if (!cfg.empty()) req["model"] = document(cfg);
  json v = unwrap(call("checkpoint", request_text(req)), path);
  v["files"] = files;
  v["config_file"] = cfg;
  return v;
}

void report_checkpoint(const json& v, std::ostream& out) {
  out << "checkpoint: " << v["files"].size() << " safetensors file(s), " << v["tensors"] << " tensors, "
      << v["params_total"] << " parameters"
      << (v["encoder_params"].get<double>() > 0 ? " (and " + v["encoder_params"].dump() + " in encoders the forecast leaves out)" : std::string())
      << "; "
      << (v["inferred"].get<bool>() ? "config inferred from the tensor names" : "config from " + clean(v["config_file"].get<std::string>()))
      << (v["matches"].get<bool>() ? "; it matches the shapes" : "; it does NOT match the shapes") << "\n";
  for (const auto& c : v["checks"])
    if (!c["ok"].get<bool>()) out << "  " << c["field"].get<std::string>() << ": config " << c["config"] << ", header " << c["header"] << "\n";
  if (!v["assumed"].empty()) out << "  assumed (not in the shapes): " << clean(v["assumed"].dump()) << "; drop a config.json beside the files to be exact\n";
  if (v["packed"].get<bool>()) out << "  packed integer weights (I32/U8): formats come from the config's quantization_config\n";
}

}  // namespace infercast::cli
