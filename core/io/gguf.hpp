// GGUF file headers (llama.cpp's format): the metadata and the tensor table, read from the first bytes of a file,
// never the weights. From them, a Hugging Face-style config the model parser reads, the storage format of each
// weight class, and the exact parameter count and tensor bytes (docs/schema.md, "gguf").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/json_reader.hpp"

namespace infercast {

struct GgufTensor {
  std::string name;
  std::vector<std::uint64_t> dims;
  std::uint32_t type = 0;  // ggml_type
};

struct GgufHeader {
  std::uint32_t version = 0;
  json metadata = json::object();  // scalars as values; arrays as {"type", "length"} (short numeric arrays kept whole)
  std::vector<GgufTensor> tensors;
  std::uint64_t header_bytes = 0;  // where the tensor table ends
};

// Throws InputError: gguf.bad_magic, gguf.unsupported_version, gguf.truncated (the bytes end inside the header:
// read more of the file), gguf.bad_value.
GgufHeader read_gguf_header(const std::string& bytes);

// {"architecture", "name", "config" (for parse_model_config), "precision" {weights, by class}, "tensors",
//  "params_total" (elements of every tensor), "tensor_bytes", "types" [{type, tensors, params, bytes}]}.
// Throws InputError gguf.unsupported_architecture for architectures without a mapping.
json gguf_model(const GgufHeader& h);

}  // namespace infercast
