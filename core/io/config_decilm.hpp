// Config reader of NVIDIA's Nemotron-NAS / DeciLM (nemotron-nas, deci; Llama-3.3-Nemotron-Super-49B, Llama-3.1-
// Nemotron-Ultra-253B): Llama's layers, each shaped by its own block_configs entry: attention with its own KV heads
// (n_heads_in_group) or none (no_op), an MLP of its own width (ffn_mult) or none (io/config_decilm.cpp).
#pragma once

#include "io/config_common.hpp"

namespace infercast {

void parse_decilm(Reader& r, ModelSpec& m);

}  // namespace infercast
