// The audio encoder of a multimodal config (audio_config), for the families whose encoder Infercast counts: gemma4
// (E2B, E4B). transformers' Gemma4AudioConfig defaults fill what a config omits. Any other audio_config is reported
// as not modelled (model.audio_not_modelled), never counted silently.
#pragma once

#include <string>
#include <vector>

#include "io/json_reader.hpp"
#include "model/model.hpp"

namespace infercast {

// `top` is the multimodal config, `type` its model_type; the text model is already in `m` (its hidden size is the
// embedder's output). Warnings go to `warnings`.
void read_audio_config(Reader& top, const std::string& type, ModelSpec& m, std::vector<Warning>& warnings);

}  // namespace infercast
