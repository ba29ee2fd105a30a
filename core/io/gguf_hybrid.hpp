// GGUF headers of hybrid families (llama.cpp's qwen3next, qwen35, qwen35moe, nemotron_h, nemotron_h_moe, jamba,
// falcon-h1, granitehybrid) to the Hugging Face config their family parser reads. Which layers hold attention, a
// recurrent mixer, an MLP or experts is read from the tensor table; sizes from the metadata llama.cpp writes
// (convert_hf_to_gguf.py; gguf-py/gguf/constants.py: {arch}.ssm.conv_kernel, inner_size, state_size,
// time_step_rank, group_count) and from the tensor shapes.
#pragma once

#include <string>
#include <vector>

#include "io/gguf.hpp"

namespace infercast {

// llama.cpp's names of the hybrid architectures read here.
const std::vector<std::string>& gguf_hybrid_architectures();

// The config, or null when `arch` is not a hybrid family. Throws InputError gguf.missing_field naming the key.
json gguf_hybrid_config(const GgufHeader& h, const std::string& arch);

}  // namespace infercast
