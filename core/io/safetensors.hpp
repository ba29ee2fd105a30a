// Safetensors file headers (Hugging Face's format): an 8-byte little-endian length, then a JSON table of every
// tensor's dtype, shape and byte range. Read from the first bytes of a file, never the weights. A checkpoint (one
// file or many shards) then gives exact parameters, tensor bytes, each weight class's storage format, and either a
// check of a config.json against the real shapes or a config inferred from the tensor names (docs/schema.md,
// "safetensors").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/json_reader.hpp"

namespace infercast {

struct SafetensorsTensor {
  std::string name;
  std::string dtype;  // as the file spells it: BF16, F16, F32, F8_E4M3, I8, I32, U8, ...
  std::vector<std::uint64_t> shape;
};

struct SafetensorsHeader {
  std::vector<SafetensorsTensor> tensors;
  json metadata = json::object();  // "__metadata__" (string to string), when present
  std::uint64_t header_bytes = 0;  // 8 + the JSON's length: where the data starts
  std::uint64_t data_bytes = 0;    // the end of the last tensor's byte range
};

// Bytes needed to read the whole header of a file that starts with `bytes` (at least its first 8):
// 8 + the declared JSON length. Throws InputError safetensors.truncated (fewer than 8 bytes) or
// safetensors.bad_value (a length above 100 MB, the format's own limit).
std::uint64_t safetensors_header_size(const std::string& bytes);

// Throws InputError: safetensors.truncated (the bytes end inside the header: read header_size bytes),
// safetensors.bad_json, safetensors.bad_value (a tensor whose dtype, shape or byte range is malformed).
SafetensorsHeader read_safetensors_header(const std::string& bytes);

// The summary of one file's header as the API returns it: {"header_bytes", "data_bytes", "metadata",
// "tensors": [[name, dtype, [shape...]], ...]} (compact rows: a checkpoint can hold 100,000 tensors).
json safetensors_header_json(const SafetensorsHeader& h);

// A checkpoint: the tensors of all its shards (rows as above) and, when given, its config.json. Returns
// {"tensors", "params_total", "tensor_bytes", "types" [{dtype, tensors, params, bytes}], "precision" {weights,
//  by_class}, "config" (the one given, or one inferred from the tensor names), "inferred" (bool), "assumed"
//  [field names guessed], "checks" [{field, config, header, ok}], "params_from_config", "matches" (bool)}.
// Throws InputError safetensors.bad_value for malformed rows and safetensors.unknown_layout when no config is
// given and the names follow no layout this reader knows. A config's errors name `config_path`, the pointer to it in
// the request (/model, /model/config).
json safetensors_checkpoint(const json& tensors, const json* config, const std::string& config_path);

}  // namespace infercast
