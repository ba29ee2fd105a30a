// The analyze request the flags describe. Simple flags set their request fields through the flag table; what
// needs more than one flag or a file (the model, ragged batches, MLA conversion, speculative decoding) is here.
#include <iostream>

#include "api/api.hpp"
#include "cli/checkpoint.hpp"
#include "cli/command.hpp"
#include "cli/files.hpp"
#include "io/python_json.hpp"
#include "quant/dtype.hpp"
#include "util/limits.hpp"

namespace infercast::cli {

// Non-finite numbers a config.json holds stay what they are (NaN, Infinity), so the core names them where it refuses
// them rather than reading a null as a missing field.
std::string request_text(const json& request) { return dump_python_json(request); }

json unwrap(const std::string& envelope_text, const std::string& what) {
  json env = json::parse(envelope_text);
  if (!env["ok"].get<bool>()) {
    const auto& e = env["error"];
    die((what.empty() ? "" : what + ": ") + e["message"].get<std::string>() + " [" + e["code"].get<std::string>() + "]");
  }
  return env["value"];
}

namespace {

// A header's weight formats as precision fields ({"weights", class: format}), keeping the formats this build knows.
json known_formats(const json& precision) {
  json out = precision["by_class"];
  if (precision.contains("weights")) out["weights"] = precision["weights"];
  for (auto it = out.begin(); it != out.end();)
    it = find_dtype(it.value().get<std::string>()) ? std::next(it) : out.erase(it);
  return out;
}

// The model and, for a GGUF or a checkpoint, the formats its header gives (flags given still win).
void add_model(const Args& a, json& req, json& header_precision) {
  if (!a.has("--model")) die("--model is required; give a preset id (infercast models) or a config.json path");
  const std::string model = a.one("--model");
  const auto shards = safetensors_files(model);
  if (!shards.empty()) {
    const json ck = read_checkpoint(model, shards);
    report_checkpoint(ck, std::cerr);
    req["model"] = ck["config"];
    header_precision = known_formats(ck["precision"]);
  } else if (model.size() > 5 && model.compare(model.size() - 5, 5, ".gguf") == 0) {
    std::string bytes;
    try {
      bytes = read_file_prefix(model, limit::kGgufHeaderBytes);  // the header limit: never the weights
    } catch (const InputError& e) {
      die(e.what());
    }
    const json g = unwrap(call_bytes("gguf", bytes), model);
    req["model"] = g["config"];
    header_precision = known_formats(g["precision"]);
  } else if (const std::string cfg = config_in_folder(model); !cfg.empty()) {
    req["model"] = document(cfg);
  } else {
    req["model"] = document(model);
  }
}

// --cached-tokens and --input-tokens: one request per value (each --batch times).
void add_ragged(const Args& a, json& req) {
  if (a.has("--prompt")) die("--prompt cannot be combined with --cached-tokens/--input-tokens");
  const auto none = std::vector<std::string>{};
  const auto& cached = a.has("--cached-tokens") ? a.values.at("--cached-tokens") : none;
  const auto& input = a.has("--input-tokens") ? a.values.at("--input-tokens") : none;
  if (!cached.empty() && !input.empty() && cached.size() != input.size())
    die("--cached-tokens has " + std::to_string(cached.size()) + " values and --input-tokens " + std::to_string(input.size()) +
        "; expected one of each per request");
  const json count = a.has("--batch") ? integer("--batch", a.one("--batch")) : json(1);
  json reqs = json::array();
  for (std::size_t i = 0; i < std::max(cached.size(), input.size()); ++i)
    reqs.push_back({{"cached", cached.empty() ? json(0) : integer("--cached-tokens", cached[i])},
                    {"input", input.empty() ? json(1) : integer("--input-tokens", input[i])},
                    {"count", count}});
  json& wl = req["workload"];
  wl.erase("batch");
  wl["requests"] = reqs;
}

void add_convert_mla(const Args& a, json& req) {
  const std::string v = a.one("--convert-mla");
  json c = json::object();
  if (v != "default") {
    const auto parts = split_commas("--convert-mla", v);
    if (parts.size() != 5) die("--convert-mla holds \"" + v + "\"; expected default or Q_RANK,KV_RANK,NOPE,ROPE,V (five integers)");
    const char* keys[] = {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"};
    for (int i = 0; i < 5; ++i) c[keys[i]] = integer("--convert-mla", parts[i]);
  }
  req["convert_mla"] = c;
}

void add_draft(const Args& a, json& req) {
  if (!a.has("--draft")) {
    if (a.has("--draft-tokens") || a.has("--acceptance") || a.has("--acceptance-length"))
      die("--draft-tokens, --acceptance and --acceptance-length need --draft (a draft model, or mtp)");
    return;
  }
  const std::string d = a.one("--draft");
  if (d == "mtp") req["speculative"]["draft"] = "mtp";
  else req["speculative"]["model"] = document(d);
}

// --gpu-layers N|auto turns offloading on; the other offload flags need it.
void add_offload(const Args& a, json& req) {
  if (!a.has("--gpu-layers")) {
    if (req.contains("offload")) die("--host, --host-bandwidth, --host-capacity, --host-efficiency, --link-bandwidth and --ubatch need --gpu-layers (N or auto)");
    return;
  }
  const std::string v = a.one("--gpu-layers");
  req["offload"] = req.value("offload", json::object());
  if (v != "auto") req["offload"]["gpu_layers"] = integer("--gpu-layers", v);
}

}  // namespace

json analysis_request(const Args& a) {
  json req = json::object();
  json header_precision;
  add_model(a, req, header_precision);
  apply_simple_flags(a, req);
  req["workload"] = req.value("workload", json::object());
  if (a.has("--cached-tokens") || a.has("--input-tokens")) add_ragged(a, req);
  // A header's formats fill the classes no flag names; --weights replaces them all.
  for (auto it = header_precision.begin(); it != header_precision.end(); ++it) {
    json& prec = req["precision"];
    if (!prec.contains(it.key()) && !(it.key() != "weights" && a.has("--weights"))) prec[it.key()] = it.value();
  }
  if (a.has("--convert-mla")) add_convert_mla(a, req);
  add_draft(a, req);
  add_offload(a, req);
  return req;
}

}  // namespace infercast::cli
