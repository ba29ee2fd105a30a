// The vision encoder of a multimodal config (vision_config and the projector keys beside it), for the families
// whose encoder Infercast models: gemma3 (SigLIP), llama4, qwen2_5_vl, qwen3_vl / qwen3_vl_moe / qwen3_5 /
// qwen3_5_moe, mistral3 (Pixtral). transformers' vision config defaults fill what a config omits. Any other
// vision_config is reported as not modelled (model.vision_not_modelled), never counted silently.
#pragma once

#include <string>

#include "io/json_reader.hpp"
#include "model/model.hpp"

namespace infercast {

// `top` is the multimodal config, `type` its model_type; the text model is already in `m` (its hidden size is the
// projector's output).
void read_vision_config(Reader& top, const std::string& type, ModelSpec& m);

}  // namespace infercast
