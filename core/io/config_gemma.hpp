// Config readers of Gemma 3n (gemma3n_text) and Gemma 4 (gemma4_text): per-layer embeddings, AltUp, LAuReL, KV
// sharing across layers, activation sparsity, global layers with their own head_dim and KV heads, keys reused as
// values, an MoE block beside the dense MLP (io/config_gemma.cpp). transformers' defaults fill what a config omits
// (the family table); a value transformers would refuse is refused naming its field.
#pragma once

#include "io/config_common.hpp"

namespace infercast {

void parse_gemma3n(Reader& r, ModelSpec& m);
// encoder_free: Gemma 4 12B's text model (gemma4_unified_text), which has no per-layer inputs and no experts: the keys
// for them, which its configs still carry, are read and ignored.
void parse_gemma4(Reader& r, ModelSpec& m, bool encoder_free = false);

}  // namespace infercast
