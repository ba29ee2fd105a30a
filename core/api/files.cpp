// Files: a GGUF header, a safetensors header and a checkpoint's tensors read into exact counts and formats.
#include "api/operations.hpp"

#include <cmath>

#include "api/request.hpp"
#include "io/gguf.hpp"
#include "io/model_config.hpp"
#include "io/presets.hpp"
#include "io/safetensors.hpp"

namespace infercast {

// A safetensors checkpoint's tensors (all shards' rows) with its config.json, a model preset's config, or neither.
json api_checkpoint(const json& req) {
  Reader r(req, "", "request");
  const json* rows = r.raw("tensors");
  if (!rows) r.fail("tensors", "missing_field", "/tensors is missing; expected the [name, dtype, shape] rows of the checkpoint's safetensors headers");
  const json* mv = r.raw("model");
  r.reject_unknown();
  json config;
  std::string config_path = "/model";
  if (mv && mv->is_string()) {
    const ModelPreset* p = find_model_preset(mv->get<std::string>());
    if (!p)
      throw InputError("request.unknown_preset", "/model", "/model holds " + quote_text(mv->get<std::string>(), 200) + ", which is not a model preset; run `infercast models` for the list");
    config = p->config;
  } else if (mv && mv->is_object()) {
    // A preset document's config, or a bare config.json: its errors name the request's pointer (/model/config/...,
    // /model/...), which the checkpoint reader is given.
    const bool preset = mv->contains("schema_version") && mv->contains("config");
    config = preset ? mv->at("config") : *mv;
    if (!config.is_object())
      throw InputError("request.wrong_type", "/model/config", "/model/config holds " + describe(config) + "; expected a config.json object");
    if (preset) config_path = "/model/config";
  } else if (mv) {
    throw InputError("request.wrong_type", "/model", "/model holds " + describe(*mv) + "; expected a preset id or a config.json object");
  }
  return safetensors_checkpoint(*rows, mv ? &config : nullptr, config_path);
}

// A config.json's text as a file holds it, in JSON as Python writes it (NaN, Infinity): checked as a model config
// (a non-finite number where one is computed with is refused by name), and returned as strict JSON, where a
// non-finite number nothing computes with becomes null, so the page can keep it and send it back.
namespace {
// Every non-finite number of `v` as null (the depth is bounded by parse_json_text's limit, so the recursion is too).
void null_non_finite(json& v) {
  if (v.is_number_float() && !std::isfinite(v.get<double>())) v = nullptr;
  else if (v.is_structured())
    for (auto& e : v) null_non_finite(e);
}
}  // namespace

json api_config_text(const std::string& bytes) {
  json doc = parse_json_text(bytes, "the config", "input");
  if (!doc.is_object()) throw InputError("input.wrong_type", "", "the config holds " + describe(doc) + "; expected a config.json object");
  const ModelSpec m = parse_model_config(doc, "/model");  // messages as the model call gives them
  null_non_finite(doc);  // results hold finite numbers only (api/registry.cpp)
  return {{"config", doc}, {"model_type", m.model_type}, {"params_total", count_params(m).total}};
}

json api_gguf(const std::string& bytes) {
  json v = gguf_model(read_gguf_header(bytes));
  // The config as the model parser reads it, and its parameter count against the tensors'.
  const ModelSpec m = parse_model_config(v["config"], "/gguf/config");
  const auto counted = count_params(m).total;
  const double from_config = static_cast<double>(counted), in_tensors = v["params_total"].get<double>();
  // The metadata's hyperparameters against the tensor table: extras (rope_freqs, per-layer tables a family keeps)
  // differ by little; a metadata value the tensors do not bear out (a key_length of 2^31 on 64-wide heads, a
  // block_count of 80 over 2 layers of tensors) makes a model twice or half as large, never analyzed as if real.
  if (in_tensors > 0 && (from_config > 1.5 * in_tensors || from_config < 0.5 * in_tensors))
    throw InputError("gguf.inconsistent", "/gguf/config",
                     "the GGUF metadata describes a model of " + std::to_string(static_cast<long long>(from_config)) +
                         " parameters and the file's tensor table holds " + std::to_string(static_cast<long long>(in_tensors)) +
                         "; expected metadata (block_count, embedding_length, head counts, key_length, feed_forward_length) "
                         "that matches the tensors");
  v["params_from_config"] = counted;
  return v;
}

json api_safetensors(const std::string& bytes) { return safetensors_header_json(read_safetensors_header(bytes)); }

json api_safetensors_size(const std::string& bytes) { return json{{"header_bytes", safetensors_header_size(bytes)}}; }

}  // namespace infercast
