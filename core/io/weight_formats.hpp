// The storage format of each weight class in a checkpoint read from its header (GGUF or safetensors).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "io/json_reader.hpp"

namespace infercast {

// Weight class (attention, ffn, experts, router, embedding, lm_head) -> format -> elements in that format.
using ClassFormats = std::map<std::string, std::map<std::string, std::uint64_t>>;

// {"weights", "by_class"}: each class in the format holding most of its elements; with tied embeddings the LM head
// is the embedding's matrix and takes its format; "weights" is the attention's format, else the FFN's, else bf16,
// and absent when a class's format is not one this build names (packed words: the config's quantization_config
// says what they hold).
json precision_of_classes(const ClassFormats& classes, bool tied);

}  // namespace infercast
