// A weight format applied to a model (docs/formulas.md, "Formats"): a dtype for every quantizable class, or a
// llama.cpp file type whose rules give each class its exact bits. One function for the API, the sweeps and the
// validation's re-timed rows, so the same name means the same bytes everywhere.
#pragma once

#include <string>

#include "model/model.hpp"
#include "ops/ops.hpp"

namespace infercast {

// `name` is a dtype (find_dtype) or a llama.cpp file type (find_llama_mix); the caller checks it. A quantized dtype
// below 16 bits leaves the embedding, LM head, router and vision tower in bf16, as checkpoints of those formats do,
// unless `every_class` (LIFE's convention: the scenarios) or it is a GGUF or mlx-lm format.
void apply_weight_format(Precision& p, const ModelSpec& m, const std::string& name, bool every_class = false);

}  // namespace infercast
