// Config reader of MiniMax-M3 (minimax_m3; minimax_m3_vl's text_config): GQA attention with per-head q/k norms,
// MiniMax Sparse Attention (a block indexer choosing sparse_topk_blocks of sparse_block_size keys) on the layers
// sparse_attention_freq names, dense MLPs on the first layers and sigmoid-routed experts with a shared expert after
// them (io/config_minimax.cpp). transformers has no class for it: the sizes are required, as the release writes them.
#pragma once

#include "io/config_common.hpp"

namespace infercast {

void parse_minimax_m3(Reader& r, ModelSpec& m);
// Step-3.7-Flash (step3p7; step3p5, its text model in transformers), whose text configuration transformers derives
// from MiniMax-M3's: GQA with per-head q/k norms and a gate per head (g_proj), sliding layers of 512 beside full
// ones (layer_types), dense MLPs on the first layers, then sigmoid-routed experts beside one shared expert.
void parse_step3p7(Reader& r, ModelSpec& m);

}  // namespace infercast
