// GGUF metadata of the decoder families of issue 20, as llama.cpp writes it (src/llama-arch.cpp names the
// architectures and keys; convert_hf_to_gguf.py writes them), turned into the Hugging Face config its family
// reads. Switches a GGUF has no key for (biases, q/k norms) are read from the tensor names.
#pragma once

#include <string>
#include <vector>

#include "io/gguf.hpp"

namespace infercast {

// The config for `arch` (a llama.cpp architecture name), or null when this table has no such architecture.
// `vocab_rows` is the embedding's row count; `has_output` whether output.weight exists (an untied head).
json gguf_decoder_config(const GgufHeader& h, const std::string& arch, std::uint64_t vocab_rows, bool has_output);
// The architectures gguf_decoder_config reads, for the unsupported-architecture message.
std::vector<std::string> gguf_decoder_architectures();
// Sets cfg[hf] to `value`, the metadata `arch.key` (null when absent); an absent required key is an error naming it.
void put_gguf_field(json& cfg, const json& value, const std::string& arch, const char* hf, const std::string& key,
                    bool required);

}  // namespace infercast
