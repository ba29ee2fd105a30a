// The one boundary every front end uses (the CLI and the wasm module): JSON requests in, JSON envelopes out.
// `call` never throws: every failure becomes {"ok": false, "error": {"code", "path", "message"}}.
// The request and result schemas are documented in docs/schema.md.
#pragma once

#include <string>

#include "io/json_reader.hpp"

namespace infercast {

extern const char* const kVersion;

// fn: version | models | hardware | systems | conventions | dtypes | model | analyze | batching | checkpoint | validate |
// calibrate | ... (docs/schema.md). Returns an envelope as JSON text.
std::string call(const std::string& fn, const std::string& request_json);
// Calls that read a file's bytes: "gguf" (a GGUF header: the first bytes of the file, not the weights),
// "safetensors_size" (the first 8 bytes: how many bytes the header takes) and "safetensors" (those bytes: the tensor
// table, to pass to "checkpoint").
std::string call_bytes(const std::string& fn, const std::string& bytes);

// The same, as values; these throw InputError on bad input.
json api_models();
json api_hardware();
json api_model(const json& request);    // {"model": id | config} -> parameters, groups, warnings
json api_analyze(const json& request);  // see docs/schema.md
json api_checkpoint(const json& request);  // {"tensors", "model"?} -> exact parameters, formats, config checks
json api_validate(const json& request);   // {"csv"?: text} -> rows with forecast and error, group medians
json api_calibrate(const json& request);  // {"hardware", "model"?, "fit"?, "points"} -> fitted efficiencies

}  // namespace infercast
